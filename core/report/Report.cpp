#include "Report.h"

#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/SourceFrames.h"
#include "analysis/ValueFlow.h"
#include "model/MemorySpaces.h"
#include "model/ModuleNames.h"
#include "report/JsonWriter.h"
#include "report/ValueCard.h"
#include "report/detail/CategorySections.h"
#include "report/detail/TextColumns.h"
#include "util/SafeText.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>

namespace bufferscope {

using namespace report_detail;

ReportFacts ReportFacts::of(const Dump &dump, const MemoryTimeline &timeline,
                            const ReportOptions &options)
{
    ReportFacts f;
    f.file = report_detail::shownFile(dump, options);
    f.step = Report::reportStep(timeline, options);
    const SpaceTimeline *primary = timeline.primary();
    f.space = primary ? primary->memorySpace : 0;
    f.kinds = KindTotals::of(dump);
    f.analysis = MemoryAnalysis::of(dump);
    f.hasLiveRanges = dump.hasLiveRanges();
    if (f.hasLiveRanges) {
        // One scan of the values serves the top list, the breakdown and the findings.
        f.breakdown = Breakdown::compute(dump, f.step, f.space);
        const SpaceTimeline *st = timeline.space(f.space);
        f.liveBytes = st && f.step >= 0 && f.step < static_cast<std::int64_t>(st->liveBytes.size())
                          ? st->liveBytes[static_cast<std::size_t>(f.step)]
                          : 0;
        f.findings = PeakExplainer::explain(dump, timeline, f.step, f.space, f.breakdown.live);
    }
    const Stopwatch categoryTiming;
    f.categories = ValueCategories::of(dump);
    {
        // The breakdown's live list serves when the report is at the peak.
        CategoryReport::Options o;
        o.trees = false;
        if (f.hasLiveRanges && primary && f.step == primary->peak.step) {
            o.live = &f.breakdown.live;
            o.counted = &f.breakdown.counted;
        }
        f.byCategory = CategoryReport::of(dump, timeline, f.categories, o);
    }
    spdlog::debug("categories and levers {:.3f} s", categoryTiming.seconds());
    f.top = std::min<std::size_t>(f.breakdown.live.size(),
                                  static_cast<std::size_t>(std::max(options.top, 0)));
    f.warnings = Report::warnings(dump, timeline);
    f.warningCount = Report::warningCount(dump, timeline);
    return f;
}

KindTotals KindTotals::of(const Dump &dump)
{
    KindTotals t;
    for (const Allocation &a : dump.allocations) {
        t.bytes[static_cast<std::size_t>(a.kind)] += a.size;
        ++t.count[static_cast<std::size_t>(a.kind)];
        if (a.kind == AllocationKind::Parameter && a.isMaybeLiveOut) {
            t.donatedBytes += a.size;
            ++t.donatedCount;
        }
    }
    return t;
}

std::int64_t Report::reportStep(const MemoryTimeline &timeline, const ReportOptions &options)
{
    if (options.step)
        return *options.step;
    const SpaceTimeline *primary = timeline.primary();
    return primary ? primary->peak.step : -1;
}

std::vector<Diagnostic> Report::warnings(const Dump &dump, const MemoryTimeline &timeline)
{
    std::vector<Diagnostic> all = dump.warnings;
    all.insert(all.end(), timeline.warnings().begin(), timeline.warnings().end());
    return all;
}

std::size_t Report::warningCount(const Dump &dump, const MemoryTimeline &timeline)
{
    return dump.warnings.size() + timeline.warnings().size() +
           static_cast<std::size_t>(std::max<std::int64_t>(dump.suppressedWarnings, 0));
}

std::string Report::instructionAt(const Dump &dump, std::int64_t step)
{
    return stepInstruction(dump, step);
}

std::string Report::text(const Dump &dump, const MemoryTimeline &timeline,
                         const ReportOptions &options)
{
    std::string out;
    auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text); // names are the dump's: no control reaches a terminal
        out += '\n';
    };
    const ReportFacts facts = ReportFacts::of(dump, timeline, options);
    const std::int64_t step = facts.step;
    const std::int32_t space = facts.space;

    line("BufferScope report: " + dump.module);
    // The file as the user named it, then every other file the module was read from (a split
    // module opened through its -values or -live-range file lists its -buffer-assignment.txt).
    const std::string &shown = facts.file;
    line("  file          " + shown);
    for (const SourceFile &f : dump.files)
        if (f.path != shown && ModuleNames::baseName(f.path) != ModuleNames::baseName(shown))
            line("                + " + f.path);
    for (const std::string &note : dump.notes)
        line("  note          " + note);
    line("  total         " + bytesText(dump.totalBytes()) + " in " +
         std::to_string(dump.allocations.size()) + " allocations, " +
         std::to_string(dump.values.size()) + " values, " + std::to_string(dump.maxStep()) +
         (std::count(dump.sequence.begin(), dump.sequence.end(), kNone) ==
                      static_cast<std::ptrdiff_t>(dump.sequence.size()) &&
                  !dump.sequence.empty()
              ? " steps (no instruction sequence)"
              : " scheduled instructions"));
    line();
    line("Allocations by kind");
    const KindTotals &kinds = facts.kinds;
    const std::size_t nameWidth = kinds.donatedCount > 0 ? 29 : 14;
    const auto kindRow = [&](std::string_view name, std::int64_t bytes, std::int64_t count) {
        line("  " + pad(name, nameWidth) + padLeft(humanBytes(bytes), 10) + "  " +
             padLeft(std::to_string(bytes), 14) + " bytes  " + percent(bytes, dump.totalBytes()) +
             "  " + std::to_string(count) + " allocations");
    };
    for (int k = 0; k < kAllocationKindCount; ++k) {
        const auto kind = static_cast<AllocationKind>(k);
        const auto ki = static_cast<std::size_t>(k);
        if (kind != AllocationKind::Parameter) {
            kindRow(allocationKindName(kind), kinds.bytes[ki], kinds.count[ki]);
            continue;
        }
        // A donated parameter is also the output, written in place: a row of its own.
        kindRow("parameter", kinds.bytes[ki] - kinds.donatedBytes,
                kinds.count[ki] - kinds.donatedCount);
        if (kinds.donatedCount > 0)
            kindRow("parameter → output, donated", kinds.donatedBytes, kinds.donatedCount);
    }
    line();
    // What the device holds while the module runs (MemoryAnalysis.h): the number that decides
    // whether it fits, more than the peak of live bytes.
    {
        const MemoryAnalysis &m = facts.analysis;
        const auto row = [&](const std::string &name, std::int64_t bytes,
                             const std::string &note = {}) {
            line("  " + pad(name, 26) + padLeft(humanBytes(bytes), 10) + "  " +
                 padLeft(std::to_string(bytes), 14) + " bytes" + (note.empty() ? "" : "  " + note));
        };
        line("What the device holds while it runs (XLA's memory_analysis(), from the allocations)");
        row("argument_size_in_bytes", m.device.argument);
        row("output_size_in_bytes", m.device.output);
        row("alias_size_in_bytes", m.device.alias, "(donated: argument and output at once)");
        row("temp_size_in_bytes", m.device.temp);
        const SpaceTimeline *live = timeline.primary();
        std::string note = "argument + output - alias + temp";
        if (dump.hasLiveRanges() && live && live->memorySpace != MemoryAnalysis::kHostMemorySpace)
            note += "; the live-bytes peak is " + humanBytes(live->peak.bytes) +
                    (m.device.held() > live->peak.bytes
                         ? ", " + humanBytes(m.device.held() - live->peak.bytes) +
                               " less: the temp and the outputs are held whole while it runs"
                         : std::string());
        row("held while it runs", m.device.held(), "(" + note + ")");
        if (m.device.constant > 0)
            row("constants (apart)", m.device.constant);
        if (m.host.held() > 0 || m.host.constant > 0) {
            row("host_argument_size_in_bytes", m.host.argument);
            row("host_output_size_in_bytes", m.host.output);
            row("host_alias_size_in_bytes", m.host.alias);
            row("host_temp_size_in_bytes", m.host.temp);
            row("host held while it runs", m.host.held());
        }
        line();
    }
    if (!dump.hasLiveRanges()) {
        line(dump.noLiveRangesText());
    } else {
        line("Peak per memory space (live bytes = union of live byte ranges per allocation)");
        for (const SpaceTimeline &s : timeline.spaces()) {
            line("  space " + pad(std::to_string(s.memorySpace), 4) + "peak " +
                 bytesText(s.peak.bytes) + " at step " + std::to_string(s.peak.step) + " (" +
                 stepInstruction(dump, s.peak.step) + ")");
            line("            logical peak " + bytesText(s.logicalPeak.bytes) + " at step " +
                 std::to_string(s.logicalPeak.step) + " (" +
                 stepInstruction(dump, s.logicalPeak.step) + ")");
            // One rule (docs/FORMAT.md Part A): a value counts through its last step, and one
            // that reuses its bytes in place counts from its first, so both count at the step
            // they share, and the sum can pass what was allocated.
            if (s.logicalPeak.bytes > dump.totalBytes())
                line("            (above the " + humanBytes(dump.totalBytes()) +
                     " allocated: values that take over another's bytes in place count with it "
                     "at the step they share)");
        }
        line();
        const PrintedPeak &printed = dump.printedPeak;
        if (printed.present) {
            static constexpr std::array kFormats = {"?", "V1", "V2", "V3", "V4"};
            // What XLA's bytes are, by the era of the list (docs/FORMAT.md §3.7): up to V1 each
            // entry is sized by its defining instruction's whole shape, so a tuple's element
            // counts as the tuple's index table; from V2 on by the value's own shape.
            line("XLA's printed peak:  step " + std::to_string(printed.step) + ", " +
                 std::to_string(printed.entries.size()) + " entries, " + bytesText(printed.bytes) +
                 " (peak list " + kFormats[static_cast<std::size_t>(printed.format)] +
                 (printed.format == PeakFormat::V1
                      ? "; XLA sizes each entry by its instruction's shape: a tuple's element "
                        "counts as the tuple's 8-byte-per-element index table, and shape bytes "
                        "are not assigned bytes)"
                      : "; XLA counts each value's shape bytes, not its assigned bytes)"));
            if (!printed.stackTrace.empty()) {
                // XLA's own attribution of its printed peak to call paths (V4 peak lists).
                line("XLA's stack trace breakdown of that peak (" +
                     bytesText(printed.stackTraceBytes) + "):");
                for (const StackTraceNode &n : printed.stackTrace) {
                    char pct[32];
                    std::snprintf(pct, sizeof pct, "%.1f", n.percent);
                    line("  " + std::string(static_cast<std::size_t>(2 * n.depth), ' ') + n.name +
                         "  " + pct + "%, total " + bytesText(n.total) + ", current " +
                         bytesText(n.current));
                }
            }
        } else if (printed.undetermined) {
            line("XLA's printed peak:  could not be determined (unbounded dynamic shape)");
        } else {
            line("XLA's printed peak:  none in this dump");
        }
        const XlaPeak &xla = timeline.xlaPeak();
        std::string verdict;
        if (printed.present)
            verdict = xla.step == printed.step ? "reproduced" : "NOT reproduced (see warnings)";
        line("XLA's peak step:     " + std::to_string(xla.step) +
             " recomputed with XLA's algorithm" +
             (verdict.empty() ? std::string() : ", " + verdict) +
             (xla.exact ? std::string() : " (approximate: some instruction shapes unknown)"));
        line();

        const Breakdown &b = facts.breakdown;
        const std::vector<std::uint32_t> &live = b.live;
        const std::int64_t union_ = facts.liveBytes;
        line("Values live at step " + std::to_string(step) + " (" + stepInstruction(dump, step) +
             "), memory space " + std::to_string(space) + ": " + std::to_string(live.size()) +
             " values, " + bytesText(union_) + " live");
        const std::size_t top = facts.top;
        if (top > 0) {
            line("  " + padLeft("bytes", 10) + "  " + padLeft("id", 7) + "  " + pad("value", 34) +
                 pad("shape", 30) + pad("alloc", 6) + pad("live", 10) + "op_name / source");
        }
        for (std::size_t i = 0; i < top; ++i) {
            const Value &v = dump.values[live[i]];
            const Instruction *ins = dump.instructionOf(v);
            std::string where;
            if (ins && ins->opName != kNoString)
                where = std::string(dump.str(ins->opName));
            // The user's own line: the innermost frame outside library code.
            const std::string src =
                ins ? userSource(dump, *ins, defaultLibraryPatterns()) : std::string();
            if (!src.empty())
                where += (where.empty() ? "" : "  ") + src;
            line("  " + padLeft(humanBytes(v.size), 10) + "  " + padLeft(std::to_string(v.id), 7) +
                 "  " + pad(clip(dump.valueDisplayName(v), 33), 34) +
                 pad(clip(dump.shapeText(v), 29), 30) +
                 pad(v.allocation == kNone ? "-"
                                           : std::to_string(dump.allocations[v.allocation].index),
                     6) +
                 pad(std::to_string(v.start) + "-" + std::to_string(v.end), 10) + clip(where, 100));
        }
        if (live.size() > top)
            line("  … " + std::to_string(live.size() - top) + " more (use --top N)");
        line();

        auto group = [&](std::string_view title, Breakdown::Grouping grouping, std::size_t most) {
            const std::vector<BreakdownRow> &rows = b.rows(grouping);
            line("  by " + std::string(title));
            const std::size_t n = std::min<std::size_t>(rows.size(), most);
            for (std::size_t i = 0; i < n; ++i) {
                // By shape: "83 × bf16[32768,4096]", the count is the label.
                const std::string count =
                    grouping == Breakdown::Grouping::Shape
                        ? std::string()
                        : padLeft(std::to_string(rows[i].values), 5) + " values  ";
                line("    " + padLeft(humanBytes(rows[i].bytes), 10) + " " +
                     percent(rows[i].bytes, b.bytes) + "  " + count +
                     clip(Breakdown::rowLabel(grouping, rows[i]), 100));
            }
            if (rows.size() > n)
                line("    … " + std::to_string(rows.size() - n) + " more groups" +
                     (options.groupBy ? " (use --top N)" : ""));
        };
        line("Breakdown at step " + std::to_string(step) +
             " (live bytes, in-place sharing counted once: " + bytesText(b.bytes) + ")");
        using G = Breakdown::Grouping;
        if (options.groupBy) {
            group(Breakdown::groupingName(*options.groupBy), *options.groupBy,
                  static_cast<std::size_t>(std::max(options.top, 1)));
        } else {
            group("op_name", G::OpName, 8);
            group("source", G::Source, 8);
            group("op_type", G::OpType, 8);
            group("allocation kind", G::Kind, 8);
            group("shape and dtype", G::Shape, 8);
        }
        line();
        const std::vector<Finding> &findings = facts.findings;
        if (findings.empty()) {
            line("Findings at step " + std::to_string(step) + ": none");
        } else {
            line("Findings at step " + std::to_string(step));
            for (const Finding &f : findings) {
                line("  - " + f.title);
                line("    " + f.detail);
            }
        }
        line();
    }

    categoriesText(dump, facts, line);

    const std::vector<Diagnostic> &warnings = facts.warnings;
    if (warnings.empty()) {
        line("Warnings: none");
    } else {
        line("Warnings (" + std::to_string(facts.warningCount) + ")");
        for (const Diagnostic &w : warnings)
            line("  " + dump.diagnosticText(w));
        if (dump.suppressedWarnings > 0)
            line("  … " + std::to_string(dump.suppressedWarnings) + " more not shown");
    }
    return out;
}

std::string Report::valueText(const Dump &dump, const ValueCard &card, const ReportOptions &options)
{
    std::string out;
    const auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text); // names are the dump's: no control reaches a terminal
        out += '\n';
    };
    const auto field = [&line](std::string_view key, const std::string &text) {
        line("  " + pad(key, 14) + text);
    };
    line("BufferScope value: " + card.name + " (id " + std::to_string(card.id) + ") in " +
         dump.module);
    field("file", shownFile(dump, options));
    field("key", card.key);
    field("bytes", bytesText(card.bytes));
    field("logical bytes",
          card.logicalBytes
              ? bytesText(*card.logicalBytes) +
                    (card.bytes != *card.logicalBytes
                         ? ", padding " + std::to_string(card.bytes - *card.logicalBytes) + " bytes"
                         : std::string())
              : std::string("unknown (dynamic or unreadable shape)"));
    field("shape", card.shape);
    field("memory space", card.memorySpaceText);
    if (card.allocation)
        field("allocation",
              std::to_string(card.allocation->index) + " (" +
                  std::string(allocationKindName(card.allocation->kind)) + ", " +
                  humanBytes(card.allocation->size) +
                  (card.allocation->page >= 0 ? ", page " + std::to_string(card.allocation->page)
                                              : std::string()) +
                  "), offset " + std::to_string(card.allocation->offset));
    if (card.allocation && card.allocation->page > 0)
        field("page", pageNote(card.allocation->page));
    else
        field("allocation", "none");
    if (card.hasLiveRange())
        field("live", std::to_string(card.start) + " (" + stepInstruction(dump, card.start) +
                          ") – " + std::to_string(card.end) + " (" +
                          stepInstruction(dump, card.end) + "), " +
                          std::to_string(card.end - card.start + 1) + " steps");
    else
        field("live", "no live range");
    if (card.instruction != kNone)
        field("instruction", std::string(dump.str(dump.instructions[card.instruction].name)) +
                                 (card.opcode.empty() ? std::string() : " (" + card.opcode + ")"));
    if (!card.opType.empty())
        field("op_type", card.opType);
    if (!card.opName.empty())
        field("op_name", card.opName);
    if (!card.category.empty())
        field("category", card.category + ": " + card.categoryEvidence);
    if (!card.source.empty())
        field("source", card.source);
    field("listed at", card.listedFile + ":" + std::to_string(card.listedLine));
    const ValueFlow &flow = card.flow;
    const auto stepText = [](std::int64_t step) {
        return step < 0 ? std::string("     -") : padLeft(std::to_string(step), 6);
    };
    // The stack, when it says more than the source line above (2026 dumps' frames).
    if (card.stack.size() > 1 || (!card.stack.empty() && !card.stack.front().function.empty())) {
        line();
        line("Call stack (innermost first)");
        for (const SourcePlace &f : card.stack)
            line("  " + (f.function.empty() ? std::string() : f.function + "  ") +
                 (f.file.empty() ? std::string("?") : f.file) +
                 (f.line >= 0 ? ":" + std::to_string(f.line) : std::string()) +
                 (f.column > 0 ? ":" + std::to_string(f.column) : std::string()));
    }
    line();
    line("Positions (step, instruction, index)");
    for (const ValueMark &m : flow.positions)
        line("  " + stepText(m.step) + "  " + markInstruction(dump, m) +
             (m.index == kNoString ? std::string() : " " + std::string(dump.str(m.index))));
    line("Uses (step, instruction, operand)");
    if (card.usesNotInitialized)
        line("  not initialized yet (XLA printed no uses)");
    else if (!flow.usesKnown)
        line("  not in this dump");
    else if (flow.uses.empty())
        line("  none");
    for (const ValueMark &m : flow.uses)
        line("  " + stepText(m.step) + "  " + markInstruction(dump, m) + ", operand " +
             std::to_string(m.operand) +
             (m.index == kNoString ? std::string() : " " + std::string(dump.str(m.index))));
    if (std::any_of(flow.positions.begin(), flow.positions.end(),
                    [](const ValueMark &m) { return m.step < 0; }) ||
        std::any_of(flow.uses.begin(), flow.uses.end(),
                    [](const ValueMark &m) { return m.step < 0; }))
        line("  (- : the instruction is not in the scheduled sequence)");
    line();
    line("Producers (what its instruction reads): " + valueList(dump, flow.producers));
    line("Consumers (what its readers define):    " + valueList(dump, flow.consumers));
    return out;
}

} // namespace bufferscope
