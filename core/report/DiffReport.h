#pragma once

#include "analysis/DumpDiff.h"

#include <string>
#include <vector>

namespace bufferscope {

struct DiffReportOptions
{
    int top = 20;       ///< rows per list in the text
    std::string before; ///< the paths as the user gave them
    std::string after;
    /// The warnings of each dump (Report::warnings), listed as `report` lists them.
    std::vector<Diagnostic> beforeWarnings;
    std::vector<Diagnostic> afterWarnings;
};

/// The `bufferscope diff` output, text and JSON, from a DumpDiff and the two dumps.
class DiffReport
{
public:
    static std::string text(const DumpDiff &diff, const Dump &a, const Dump &b,
                            const DiffReportOptions &options);
    static std::string json(const DumpDiff &diff, const Dump &a, const Dump &b,
                            const DiffReportOptions &options);
    /// "resized, live range, moved" for a change's flags.
    static std::string flagsText(std::uint8_t flags);
    /// "new", "gone", "now live at the peak", ... for a peak change.
    static const char *peakKindText(PeakChange::Kind kind);
    /// The JSON names of the same: "added", "removed", "joined", "left", "grown", "shrunk".
    static const char *peakKindKey(PeakChange::Kind kind);
    /// "+8.0KiB (+8192 bytes)", "-512B (-512 bytes)", "±0B (0 bytes)".
    static std::string signedBytes(std::int64_t delta);
};

} // namespace bufferscope
