#pragma once

#include "layout/BoxSet.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace bufferscope {

struct Dump;

/// The orders the live-range chart can show its rows in.
enum class GanttOrder
{
    ByStart,
    BySize,
    ByAllocation
};

/// The rows and bars of the live-range chart in one order: one row per value with a live
/// range. Built on any thread (the workspace builds them on its jobs), drawn by the view.
struct GanttRows
{
    static constexpr double kBarInset = 0.12; ///< gap between neighbouring bars, in rows

    std::weak_ptr<const Dump> dump; ///< the dump they were built for
    GanttOrder order = GanttOrder::ByStart;
    std::vector<std::uint32_t> values; ///< row → value index
    std::vector<int> rowOf;            ///< value index → row, -1 without a live range
    /// The values without a live range (not drawn), in id order: the first kListedApart of
    /// them, for a list to find one in, and how many there are.
    static constexpr std::size_t kListedApart = 5000;
    std::vector<std::uint32_t> apart;
    std::size_t apartCount = 0;
    std::shared_ptr<const BoxSet> bars = std::make_shared<const BoxSet>();
    /// The rows of one memory space, together: in every order the rows go by memory space
    /// first, so a dump with several never mixes them (one band for most dumps).
    struct Band
    {
        std::int32_t memorySpace = 0;
        std::size_t firstRow = 0;
        std::size_t rows = 0;
    };
    std::vector<Band> bands;

    /// Sorts the values with a live range by memory space, then into `order`, and makes a bar
    /// for each, coloured by allocation kind (kAllocationKindCount: in no allocation).
    /// O(n log n).
    static std::shared_ptr<const GanttRows> layOut(const std::shared_ptr<const Dump> &dump,
                                                   GanttOrder order);
};

} // namespace bufferscope
