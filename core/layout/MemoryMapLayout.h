#pragma once

#include "layout/BoxSet.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace bufferscope {

struct Dump;

/// The boxes of the memory map: x = step, y = byte offset, each value a box
/// [start, end + 1) × [offset, offset + size). One allocation, or all of them stacked in bands.
/// Built on any thread (the workspace builds them on its jobs), drawn by the view.
struct MemoryMapLayout
{
    static constexpr int kAllAllocations = -1;

    /// Band of an allocation in stacked mode: [base, base + height) on the value axis.
    struct Band
    {
        double base = 0;
        double height = 0;
    };

    std::weak_ptr<const Dump> dump; ///< the dump it was built for
    int allocation = kAllAllocations;
    std::vector<Band> bandOf; ///< per allocation, in stacked mode
    std::shared_ptr<const BoxSet> bands = std::make_shared<const BoxSet>();
    std::shared_ptr<const BoxSet> boxes = std::make_shared<const BoxSet>();
    std::size_t drawn = 0;
    std::size_t undrawn = 0;           ///< values without a live range
    std::size_t hiddenAllocations = 0; ///< stacked: allocations with no live value

    /// One allocation (dense index) or kAllAllocations. O(values).
    static std::shared_ptr<const MemoryMapLayout> layOut(const std::shared_ptr<const Dump> &dump,
                                                         int allocation);
};

} // namespace bufferscope
