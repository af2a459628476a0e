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
        std::int64_t index = -1;
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
    };
    struct Problem
    {
        std::int64_t line = 0;
        std::string message;
    };

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
};

} // namespace bufferscope
