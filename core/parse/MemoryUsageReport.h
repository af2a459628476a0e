#pragma once

#include "model/MemoryUsageReport.h"

#include <cstdint>
#include <string>
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
    /// XLA's binary report (`<stem>-memory-usage-report.pb`, an xla.MemoryUsageReportProto;
    /// docs/FORMAT.md §5.2): the 2026 report's memory spaces and allocations, each with its
    /// number and exact size (`layout` 3). What cannot be read is a problem, never a guess.
    static MemoryUsageReport parseProto(std::string_view bytes);
    /// `.pb` and `.pb.gz` by their name, a text report otherwise; `*error` when the file cannot
    /// be read at all.
    static MemoryUsageReport readFile(const std::string &path, std::string *error);
    static bool isBinaryName(std::string_view path)
    {
        return path.ends_with(".pb") || path.ends_with(".pb.gz");
    }
    /// "2.70GiB" → 2899102924 (±0.005 GiB), "802B" → 802; -1 when not a size. `ulp` is set to
    /// the rounding the printed digits allow.
    static std::int64_t parseHumanBytes(std::string_view text, std::int64_t *ulp = nullptr);
};

} // namespace bufferscope
