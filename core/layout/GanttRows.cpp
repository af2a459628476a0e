#include "GanttRows.h"

#include "model/Dump.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace bufferscope {

std::shared_ptr<const GanttRows> GanttRows::layOut(const std::shared_ptr<const Dump> &dump,
                                                   GanttOrder order)
{
    auto rows = std::make_shared<GanttRows>();
    rows->dump = dump;
    rows->order = order;
    const Dump &d = *dump;
    std::vector<std::uint32_t> &values = rows->values;
    for (std::uint32_t i = 0; i < d.values.size(); ++i) {
        if (d.values[i].hasLiveRange())
            values.push_back(i);
        else if (++rows->apartCount <= kListedApart)
            rows->apart.push_back(i);
    }
    const auto allocationOf = [&d](const Value &v) {
        return v.allocation == kNone ? std::numeric_limits<std::int64_t>::max()
                                     : d.allocations[v.allocation].index;
    };
    std::stable_sort(values.begin(), values.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Value &va = d.values[a];
        const Value &vb = d.values[b];
        if (va.color != vb.color)
            return va.color < vb.color;
        switch (order) {
        case GanttOrder::ByStart:
            return std::tie(va.start, va.end) < std::tie(vb.start, vb.end);
        case GanttOrder::BySize:
            return va.size > vb.size;
        case GanttOrder::ByAllocation:
            return std::make_tuple(allocationOf(va), va.offset, va.start) <
                   std::make_tuple(allocationOf(vb), vb.offset, vb.start);
        }
        return false;
    });
    rows->rowOf.assign(d.values.size(), -1);
    std::vector<Box> bars;
    bars.reserve(values.size());
    for (std::size_t row = 0; row < values.size(); ++row) {
        const std::uint32_t value = values[row];
        const Value &v = d.values[value];
        rows->rowOf[value] = static_cast<int>(row);
        if (rows->bands.empty() || rows->bands.back().memorySpace != v.color)
            rows->bands.push_back({v.color, row, 0});
        ++rows->bands.back().rows;
        Box b;
        b.x0 = static_cast<double>(v.start);
        b.x1 = static_cast<double>(v.end + 1);
        b.y0 = static_cast<double>(row) + kBarInset;
        b.y1 = static_cast<double>(row + 1) - kBarInset;
        b.value = value;
        b.colour = v.allocation == kNone
                       ? static_cast<std::uint8_t>(kAllocationKindCount)
                       : static_cast<std::uint8_t>(d.allocations[v.allocation].kind);
        bars.push_back(b);
    }
    rows->bars = std::make_shared<const BoxSet>(std::move(bars));
    return rows;
}

} // namespace bufferscope
