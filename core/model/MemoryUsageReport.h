#pragma once

#include "model/Dump.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// XLA's memory-usage report, `<stem>-memory-usage-report.txt`, written beside every
/// buffer-assignment dump by `BufferAssignment::MemoryUsageReport` (docs/FORMAT.md Part B §5):
///
///     Total bytes used: 2968773290 (2.76GiB)
///
///     Allocations sorted by size:
///
///     cumulative_size; total_size - cumulative_size; allocation
///     ------------------------------------------------------------------------------
///        2.70GiB( 98%);   64.95MiB; allocation 78: size 2.70GiB, preallocated-temp:
///     …
///
///     Allocations sorted by size with their values:
///     allocation 78: size 2.70GiB, preallocated-temp:
///
///     \tcumulative_size;       size;       offset; used_by_n_values; shapes_list
///     \t------------------------------------------------------------
///     \t900.00MiB( 32%);  900.00MiB;         4992;               22; 2×c128[…], …
///
/// Only the total and the offsets are exact: every size is XLA's human-readable rounding.
/// What a report holds; parse/MemoryUsageReport reads one (MemoryUsageReports::parse).
struct MemoryUsageReport
{
    /// One group of values at one offset of an allocation.
    struct Group
    {
        std::int64_t size = 0; ///< the largest value's, rounded as printed
        std::int64_t offset = 0;
        std::int64_t values = 0;
        std::string shapes; ///< "2×c128[240,240,4,4,4], s8[1702400]"
    };
    struct Allocation
    {
        /// The allocation's number; -1 in the 2026 layout, which prints none, until the report is
        /// matched with its dump (by order: size descending, then number).
        std::int64_t index = -1;
        std::int32_t color = 0; ///< its memory space (the 2026 layout's group)
        /// The 2024 layout prints each allocation's header (size, parameter, live-out, …); the
        /// 2026 layout only its values, so its kind is not known from the report alone.
        bool attributesKnown = true;
        std::int64_t size = 0;       ///< rounded as printed
        std::int64_t sizeUlp = 0;    ///< how far the printed size may be from the real one
        std::string description;     ///< the text after the size: "parameter 6, shape |…| …"
        std::int64_t parameter = -1; ///< `parameter N`
        bool maybeLiveOut = false;
        bool preallocatedTemp = false;
        bool constant = false;
        bool threadLocal = false;
        std::vector<Group> groups;     ///< by size, as printed (empty: one value, or not listed)
        std::int64_t hiddenGroups = 0; ///< "The rest N values are … not shown."
        /// The 2026 layout: rows were left out of its table (not by XLA): `size` is what the
        /// cumulative column says, not the sum of the rows that remain.
        bool rowsLeftOut = false;

        /// The kind by the attributes printed, as the parser decides a dump allocation's.
        AllocationKind kind() const
        {
            return parameter >= 0 ? AllocationKind::Parameter
                   : constant     ? AllocationKind::Constant
                   : threadLocal  ? AllocationKind::ThreadLocal
                   : maybeLiveOut ? AllocationKind::Output
                                  : AllocationKind::Temp;
        }
        bool donated() const { return parameter >= 0 && maybeLiveOut; }
        /// "allocation 78", or where the 2026 layout gave no number "S(1) #3" (its place in
        /// its memory space, largest first).
        std::string label(std::size_t placeInSpace) const
        {
            return index >= 0
                       ? "allocation " + std::to_string(index)
                       : "S(" + std::to_string(color) + ") #" + std::to_string(placeInSpace + 1);
        }
    };
    /// A memory space of the 2026 layout: `Memory Space: hbm (color=3)`, `Total bytes: N (H)`.
    struct MemorySpace
    {
        std::int32_t color = 0;
        std::string name;                ///< XLA's: default, vmem, smem, hbm, host, cmem, color_N
        std::int64_t totalBytes = -1;    ///< exact: every allocation of the space, listed or not
        std::size_t firstAllocation = 0; ///< its allocations in `allocations`
        std::size_t allocationCount = 0;
    };
    struct Problem
    {
        std::int64_t line = 0;
        std::string message;
    };

    /// 1: the 2024 layout (`Total bytes used:`, two lists with allocation headers); 2: the
    /// 2026 layout (by memory space, each allocation's values only; docs/FORMAT.md §5).
    int layout = 1;
    std::vector<MemorySpace> memorySpaces; ///< the 2026 layout's, by color
    std::int64_t totalBytes = -1;
    /// The first list's allocations, largest first, then those only the second list shows.
    std::vector<Allocation> allocations;
    std::int64_t sortedListed = 0;      ///< how many the first list shows
    std::int64_t hiddenAllocations = 0; ///< "The rest N allocations are … not shown." there

    /// How many allocations the module has: the first list's and the rest it left out.
    std::int64_t allocationCount() const
    {
        return std::max<std::int64_t>(sortedListed + hiddenAllocations,
                                      static_cast<std::int64_t>(allocations.size()));
    }
    std::vector<Problem> problems;

    /// Allocation `i` as a person names it (Allocation::label).
    std::string allocationLabel(std::size_t i) const
    {
        std::size_t place = i;
        for (const MemorySpace &space : memorySpaces)
            if (i >= space.firstAllocation && i < space.firstAllocation + space.allocationCount)
                place = i - space.firstAllocation;
        return allocations[i].label(place);
    }
};

} // namespace bufferscope
