#pragma once

#include "analysis/Categories.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "model/Dump.h"
#include "parse/MemoryUsageReport.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bufferscope {

class JsonWriter;
struct ValueCard;

struct ReportOptions
{
    int top = 10;                     ///< how many values to list
    std::optional<std::int64_t> step; ///< report at this step instead of the peak
    std::string file;                 ///< the path as the user gave it
    /// The text's breakdown in this one grouping, with up to `top` rows (JSON has them all);
    /// unset: op_name, source, op_type, kind and shape, eight rows each.
    std::optional<Breakdown::Grouping> groupBy;
};

/// The allocations' bytes by kind (Parameter, Output, …).
struct KindTotals
{
    static KindTotals of(const Dump &dump);
    std::array<std::int64_t, kAllocationKindCount> bytes{};
    std::array<std::int64_t, kAllocationKindCount> count{};
    /// Parameter allocations that are also maybe-live-out: donated, the output written in
    /// place (docs/FORMAT.md Part B §15). Counted in bytes[Parameter] too.
    std::int64_t donatedBytes = 0;
    std::int64_t donatedCount = 0;
};

/// What a report says of a dump, worked out once; the text and the JSON are two renderers of
/// it (Report::text in Report.cpp, Report::json in ReportJson.cpp).
struct ReportFacts
{
    std::string file;       ///< the file the report names first
    std::int64_t step = -1; ///< the step it is about (the option's, else the peak)
    std::int32_t space = 0; ///< the memory space: the primary one
    KindTotals kinds;
    MemoryAnalysis analysis; ///< what the device holds while it runs
    bool hasLiveRanges = false;
    /// What is live at `step` in `space`, largest first, grouped (empty without live ranges).
    Breakdown breakdown;
    std::int64_t liveBytes = 0; ///< the union of live byte ranges at `step`
    std::size_t top = 0;        ///< how many of breakdown.live the report lists
    std::vector<Finding> findings;
    ValueCategories categories; ///< every value's category (analysis/Categories.h)
    CategoryReport byCategory;  ///< held and peak bytes by category, and the levers
    std::vector<Diagnostic> warnings;
    std::size_t warningCount = 0;

    static ReportFacts of(const Dump &dump, const MemoryTimeline &timeline,
                          const ReportOptions &options);
};

/// The `bufferscope report` output, text and JSON, from one Dump and its timeline.
class Report
{
public:
    static std::string text(const Dump &dump, const MemoryTimeline &timeline,
                            const ReportOptions &options);
    static std::string json(const Dump &dump, const MemoryTimeline &timeline,
                            const ReportOptions &options);
    /// `report --value`: one value's card (report/ValueCard: what the inspector shows) with its
    /// uses, positions, producers and consumers.
    static std::string valueText(const Dump &dump, const ValueCard &card,
                                 const ReportOptions &options);
    static std::string valueJson(const Dump &dump, const ValueCard &card,
                                 const ReportOptions &options);
    /// The step the report is about: the option's, else memory space 0's peak.
    static std::int64_t reportStep(const MemoryTimeline &timeline, const ReportOptions &options);
    /// The instruction at `step`: its name, "(end of program)" or "(unknown)".
    static std::string instructionAt(const Dump &dump, std::int64_t step);
    /// What a memory-usage report holds, for one opened without its dump: its total, its
    /// allocations by kind, the largest with their values by offset (sizes as XLA rounds them).
    static std::string memoryUsageText(const MemoryUsageReport &report, const std::string &file,
                                       int top);
    static std::string memoryUsageJson(const MemoryUsageReport &report, const std::string &file);
    /// Writes `warnings` of `dump` as a JSON array of {file, line, message}, as every command's
    /// JSON gives them.
    static void warningsJson(JsonWriter &w, const Dump &dump,
                             const std::vector<Diagnostic> &warnings);
    /// Every warning: the parser's, then the analysis's.
    static std::vector<Diagnostic> warnings(const Dump &dump, const MemoryTimeline &timeline);
    /// How many warnings reading `dump` gave: those kept (warnings()) and those past the stored
    /// limit. The one count the report, the status bar and the Warnings dock say.
    static std::size_t warningCount(const Dump &dump, const MemoryTimeline &timeline);
};

} // namespace bufferscope
