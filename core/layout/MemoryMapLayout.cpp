#include "MemoryMapLayout.h"

#include "model/Dump.h"

#include <algorithm>
#include <limits>

namespace bufferscope {

std::shared_ptr<const MemoryMapLayout>
MemoryMapLayout::layOut(const std::shared_ptr<const Dump> &dump, int allocation)
{
    auto layout = std::make_shared<MemoryMapLayout>();
    layout->dump = dump;
    layout->allocation = allocation;
    const Dump &d = *dump;
    const bool stacked = allocation == kAllAllocations;
    std::vector<Band> &bandOf = layout->bandOf;
    bandOf.assign(d.allocations.size(), Band{});
    std::vector<Box> bandBoxes;
    const double steps = std::max<double>(1, static_cast<double>(d.stepCount()));
    if (stacked) {
        // Bands proportional to size, but never thinner than half an even share, so an 8-byte
        // parameter next to a 2 GiB temp is still visible and clickable.
        // Allocations none of whose values has a live range have nothing to draw: no band.
        std::vector<bool> shown(d.allocations.size(), false);
        double total = 0;
        std::size_t shownCount = 0;
        for (std::size_t i = 0; i < d.allocations.size(); ++i) {
            const Allocation &a = d.allocations[i];
            for (std::uint32_t k = 0; k < a.valueCount && !shown[i]; ++k)
                shown[i] = d.values[d.allocationValues[a.firstValue + k]].hasLiveRange();
            if (shown[i]) {
                total += static_cast<double>(a.size);
                ++shownCount;
            }
        }
        layout->hiddenAllocations = d.allocations.size() - shownCount;
        const double minimum = shownCount == 0 ? 0 : total * 0.5 / static_cast<double>(shownCount);
        double base = 0;
        for (std::size_t i = 0; i < d.allocations.size(); ++i) {
            if (!shown[i])
                continue;
            const double height = std::max(static_cast<double>(d.allocations[i].size), minimum);
            bandOf[i] = {base, std::max(height, 1.0)};
            Box b;
            b.x0 = 0;
            b.x1 = steps;
            b.y0 = base;
            b.y1 = base + bandOf[i].height;
            b.value = std::numeric_limits<std::uint32_t>::max();
            b.colour = static_cast<std::uint8_t>(i % 2);
            bandBoxes.push_back(b);
            base += bandOf[i].height;
        }
    }
    layout->bands = std::make_shared<const BoxSet>(std::move(bandBoxes));

    std::vector<Box> out;
    const auto addAllocation = [&](std::size_t ai) {
        const Allocation &a = d.allocations[ai];
        const Band band = bandOf[ai];
        const double scale =
            stacked && a.size > 0 ? band.height / static_cast<double>(a.size) : 1.0;
        const double base = stacked ? band.base : 0.0;
        for (std::uint32_t k = 0; k < a.valueCount; ++k) {
            const std::uint32_t vi = d.allocationValues[a.firstValue + k];
            const Value &v = d.values[vi];
            if (!v.hasLiveRange()) {
                ++layout->undrawn;
                continue;
            }
            Box b;
            b.x0 = static_cast<double>(v.start);
            b.x1 = static_cast<double>(v.end + 1);
            b.y0 = base + static_cast<double>(v.offset) * scale;
            b.y1 = base + static_cast<double>(v.offset + std::max<std::int64_t>(v.size, 1)) * scale;
            b.value = vi;
            b.colour = static_cast<std::uint8_t>(a.kind);
            out.push_back(b);
            ++layout->drawn;
        }
    };
    if (stacked) {
        out.reserve(d.values.size());
        for (std::size_t i = 0; i < d.allocations.size(); ++i)
            if (bandOf[i].height > 0)
                addAllocation(i);
        layout->undrawn = 0; // also those of the allocations that got no band
        for (const Value &v : d.values)
            layout->undrawn += v.allocation != kNone && !v.hasLiveRange() ? 1 : 0;
    } else if (allocation >= 0 && static_cast<std::size_t>(allocation) < d.allocations.size()) {
        addAllocation(static_cast<std::size_t>(allocation));
    }
    layout->boxes = std::make_shared<const BoxSet>(std::move(out));
    return layout;
}

} // namespace bufferscope
