#pragma once

#include "model/MemoryUsageReport.h"

#include <cstdint>
#include <string_view>

namespace bufferscope {

/// Reads XLA's memory-usage report (model/MemoryUsageReport.h, docs/FORMAT.md Part B §5).
struct MemoryUsageReports
{
    using Allocation = MemoryUsageReport::Allocation;
    using Group = MemoryUsageReport::Group;
    using Problem = MemoryUsageReport::Problem;

    /// Whether `text` is such a report: `Total bytes used:` first, then `Allocations sorted by
    /// size:` before any dump section.
    static bool looksLike(std::string_view text);
    /// Reads a report; what it cannot read is a problem with its line, never a guess.
    static MemoryUsageReport parse(std::string_view text);
    /// "2.70GiB" → 2899102924 (±0.005 GiB), "802B" → 802; -1 when not a size. `ulp` is set to
    /// the rounding the printed digits allow.
    static std::int64_t parseHumanBytes(std::string_view text, std::int64_t *ulp = nullptr);
};

} // namespace bufferscope
