#include "Report.h"

#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/SourceFrames.h"
#include "analysis/ValueFlow.h"
#include "model/MemorySpaces.h"
#include "parse/ModuleFiles.h"
#include "report/JsonWriter.h"
#include "report/ValueCard.h"
#include "util/SafeText.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>

namespace bufferscope {

namespace {

std::string bytesText(std::int64_t bytes)
{
    return humanBytes(bytes) + " (" + std::to_string(bytes) + " bytes)";
}

/// Display columns of UTF-8 text (continuation bytes take no column).
std::size_t columns(std::string_view text)
{
    std::size_t n = 0;
    for (char c : text)
        n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    return n;
}

std::string clip(std::string_view text, std::size_t width)
{
    if (columns(text) <= width)
        return std::string(text);
    std::size_t bytes = 0;
    for (std::size_t cols = 0; bytes < text.size(); ++bytes) {
        if ((static_cast<unsigned char>(text[bytes]) & 0xc0) != 0x80 && ++cols == width)
            break;
    }
    return std::string(text.substr(0, bytes)) + "…";
}

std::string pad(std::string_view text, std::size_t width)
{
    std::string out(text);
    const std::size_t n = columns(text);
    if (n < width)
        out.append(width - n, ' ');
    return out;
}

std::string padLeft(std::string_view text, std::size_t width)
{
    std::string out;
    const std::size_t n = columns(text);
    if (n < width)
        out.append(width - n, ' ');
    out += text;
    return out;
}

/// The file a report names first: the one the user gave, unless that was the memory-usage
/// report the dump was read through.
std::string_view baseName(std::string_view path)
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string shownFile(const Dump &dump, const ReportOptions &options)
{
    if (options.file.empty())
        return dump.files.front().path;
    for (const SourceFile &f : dump.files)
        if (f.path == options.file && f.role == ModuleFiles::Role::MemoryUsageReport)
            return dump.files.front().path;
    return options.file;
}

std::string stepInstruction(const Dump &dump, std::int64_t step)
{
    const std::uint32_t ins = dump.instructionAtStep(step);
    if (ins == kNone)
        return step == dump.maxStep() ? "(end of program)" : "(unknown)";
    return std::string(dump.str(dump.instructions[ins].name));
}

std::string percent(std::int64_t part, std::int64_t whole)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%5.1f%%",
                  whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

struct KindTotals
{
    std::array<std::int64_t, kAllocationKindCount> bytes{};
    std::array<std::int64_t, kAllocationKindCount> count{};
    /// Parameter allocations that are also maybe-live-out: donated, the output written in
    /// place (docs/FORMAT.md Part B §15). Counted in bytes[Parameter] too.
    std::int64_t donatedBytes = 0;
    std::int64_t donatedCount = 0;
};

KindTotals kindTotals(const Dump &dump)
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

void writeRows(JsonWriter &w, std::string_view name, const std::vector<BreakdownRow> &rows)
{
    w.key(name).beginArray();
    for (const BreakdownRow &row : rows) {
        w.beginObject();
        w.key("key").value(row.key);
        w.key("bytes").value(row.bytes);
        w.key("values").value(row.values);
        w.endObject();
    }
    w.endArray();
}

void writeStepBytes(JsonWriter &w, const Dump &dump, std::string_view name, const StepBytes &sb)
{
    w.key(name).beginObject();
    w.key("step").value(sb.step);
    w.key("instruction").value(stepInstruction(dump, sb.step));
    w.key("bytes").value(sb.bytes);
    w.endObject();
}

/// "stack": [{file, line, function, column?}], innermost first; nothing when `frames` is empty.
void writeStack(JsonWriter &w, const std::vector<SourcePlace> &frames)
{
    if (frames.empty())
        return;
    w.key("stack").beginArray();
    for (const SourcePlace &f : frames) {
        w.beginObject();
        w.key("file");
        if (f.file.empty())
            w.null();
        else
            w.value(f.file);
        w.key("line").value(static_cast<std::int64_t>(f.line));
        w.key("function");
        if (f.function.empty())
            w.null();
        else
            w.value(f.function);
        if (f.column > 0)
            w.key("column").value(static_cast<std::int64_t>(f.column));
        w.endObject();
    }
    w.endArray();
}

void writeValueFields(JsonWriter &w, const Dump &dump, const Value &v)
{
    const Instruction *ins = dump.instructionOf(v);
    w.key("id").value(v.id);
    w.key("name").value(dump.valueDisplayName(v));
    w.key("bytes").value(v.size);
    w.key("shape").value(dump.shapeText(v));
    w.key("allocation");
    if (v.allocation == kNone)
        w.null();
    else
        w.value(dump.allocations[v.allocation].index);
    w.key("offset").value(v.offset);
    w.key("start").value(v.start);
    w.key("end").value(v.end);
    w.key("op_name");
    if (ins && ins->opName != kNoString)
        w.value(dump.str(ins->opName));
    else
        w.null();
    w.key("source");
    const std::string src = ins ? dump.sourceLocation(*ins) : std::string();
    if (src.empty())
        w.null();
    else
        w.value(src);
    // The call stack, innermost first: the optimized HLO's frames, else the inline source as
    // one frame; absent when neither is known.
    writeStack(w, ins ? placesOf(dump, *ins) : std::vector<SourcePlace>());
}

} // namespace

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

std::string Report::text(const Dump &dump, const MemoryTimeline &timeline,
                         const ReportOptions &options)
{
    std::string out;
    auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text); // names are the dump's: no control reaches a terminal
        out += '\n';
    };
    const std::int64_t step = reportStep(timeline, options);
    const SpaceTimeline *primary = timeline.primary();
    const std::int32_t space = primary ? primary->memorySpace : 0;

    line("BufferScope report: " + dump.module);
    // The file as the user named it, then every other file the module was read from (a split
    // module opened through its -values or -live-range file lists its -buffer-assignment.txt).
    const std::string shown = shownFile(dump, options);
    line("  file          " + shown);
    for (const SourceFile &f : dump.files)
        if (f.path != shown && baseName(f.path) != baseName(shown))
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
    const KindTotals kinds = kindTotals(dump);
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
        const MemoryAnalysis m = MemoryAnalysis::of(dump);
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

        // One scan of the values serves the top list, the breakdown and the findings.
        const Breakdown b = Breakdown::compute(dump, step, space);
        const std::vector<std::uint32_t> &live = b.live;
        const SpaceTimeline *st = timeline.space(space);
        const std::int64_t union_ =
            st && step >= 0 && step < static_cast<std::int64_t>(st->liveBytes.size())
                ? st->liveBytes[static_cast<std::size_t>(step)]
                : 0;
        line("Values live at step " + std::to_string(step) + " (" + stepInstruction(dump, step) +
             "), memory space " + std::to_string(space) + ": " + std::to_string(live.size()) +
             " values, " + bytesText(union_) + " live");
        const std::size_t top =
            std::min<std::size_t>(live.size(), static_cast<std::size_t>(std::max(options.top, 0)));
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
        const auto findings = PeakExplainer::explain(dump, timeline, step, space, live);
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

    const auto warnings = Report::warnings(dump, timeline);
    if (warnings.empty()) {
        line("Warnings: none");
    } else {
        line("Warnings (" + std::to_string(Report::warningCount(dump, timeline)) + ")");
        for (const Diagnostic &w : warnings)
            line("  " + dump.diagnosticText(w));
        if (dump.suppressedWarnings > 0)
            line("  … " + std::to_string(dump.suppressedWarnings) + " more not shown");
    }
    return out;
}

std::string Report::json(const Dump &dump, const MemoryTimeline &timeline,
                         const ReportOptions &options)
{
    JsonWriter w;
    const std::int64_t step = reportStep(timeline, options);
    const SpaceTimeline *primary = timeline.primary();
    const std::int32_t space = primary ? primary->memorySpace : 0;
    w.beginObject();
    w.key("file").value(shownFile(dump, options));
    w.key("files").beginArray();
    for (const SourceFile &f : dump.files)
        w.value(f.path);
    w.endArray();
    w.key("module").value(dump.module);
    // By the file's name, else by its layouts (MemorySpaces.h); null when neither tells.
    w.key("platform");
    switch (platformOf(dump)) {
    case Platform::Gpu:
        w.value("gpu");
        break;
    case Platform::Tpu:
        w.value("tpu");
        break;
    case Platform::Cpu:
        w.value("cpu");
        break;
    case Platform::Unknown:
        w.null();
        break;
    }
    w.key("notes").beginArray();
    for (const std::string &note : dump.notes)
        w.value(note);
    w.endArray();
    w.key("total_bytes").value(dump.totalBytes());
    w.key("allocation_count").value(static_cast<std::int64_t>(dump.allocations.size()));
    w.key("value_count").value(static_cast<std::int64_t>(dump.values.size()));
    w.key("instruction_count").value(dump.maxStep());
    w.key("allocations_by_kind").beginObject();
    const KindTotals kinds = kindTotals(dump);
    for (int k = 0; k < kAllocationKindCount; ++k)
        w.key(allocationKindName(static_cast<AllocationKind>(k)))
            .value(kinds.bytes[static_cast<std::size_t>(k)]);
    w.endObject();
    // The parameters that are also outputs (donated, updated in place); they stay counted in
    // allocations_by_kind.parameter.
    w.key("donated_parameters").beginObject();
    w.key("bytes").value(kinds.donatedBytes);
    w.key("allocations").value(kinds.donatedCount);
    w.endObject();
    {
        // The figures of CompiledMemoryStats / compiled.memory_analysis(), under its names.
        const MemoryAnalysis m = MemoryAnalysis::of(dump);
        w.key("memory_analysis").beginObject();
        w.key("argument_size_in_bytes").value(m.device.argument);
        w.key("output_size_in_bytes").value(m.device.output);
        w.key("alias_size_in_bytes").value(m.device.alias);
        w.key("temp_size_in_bytes").value(m.device.temp);
        w.key("host_argument_size_in_bytes").value(m.host.argument);
        w.key("host_output_size_in_bytes").value(m.host.output);
        w.key("host_alias_size_in_bytes").value(m.host.alias);
        w.key("host_temp_size_in_bytes").value(m.host.temp);
        w.key("constant_size_in_bytes").value(m.device.constant + m.host.constant);
        w.key("held_bytes").value(m.device.held());
        w.key("host_held_bytes").value(m.host.held());
        w.endObject();
    }
    w.key("memory_spaces").beginArray();
    if (dump.hasLiveRanges()) {
        for (const SpaceTimeline &s : timeline.spaces()) {
            w.beginObject();
            w.key("memory_space").value(static_cast<std::int64_t>(s.memorySpace));
            writeStepBytes(w, dump, "peak", s.peak);
            writeStepBytes(w, dump, "logical_peak", s.logicalPeak);
            w.endObject();
        }
    }
    w.endArray();
    w.key("printed_peak");
    if (dump.printedPeak.present) {
        w.beginObject();
        w.key("step").value(dump.printedPeak.step);
        w.key("bytes").value(dump.printedPeak.bytes);
        w.key("values").value(static_cast<std::int64_t>(dump.printedPeak.entries.size()));
        if (!dump.printedPeak.stackTrace.empty()) {
            // XLA's stack trace breakdown (V4 peak lists), in its order, depth 0 at the roots.
            w.key("stack_trace").beginArray();
            for (const StackTraceNode &n : dump.printedPeak.stackTrace) {
                w.beginObject();
                w.key("depth").value(static_cast<std::int64_t>(n.depth));
                w.key("name").value(n.name);
                w.key("percent").value(n.percent);
                w.key("total").value(n.total);
                w.key("current").value(n.current);
                w.key("remaining").value(n.remaining);
                w.endObject();
            }
            w.endArray();
        }
        w.endObject();
    } else {
        w.null();
    }
    w.key("xla_peak_step");
    if (dump.hasLiveRanges())
        w.value(timeline.xlaPeak().step);
    else
        w.null();
    w.key("report_step").value(step);
    w.key("top_values_at_peak").beginArray();
    // One scan of the values serves the top list, the breakdown and the findings.
    const Breakdown b = dump.hasLiveRanges() ? Breakdown::compute(dump, step, space) : Breakdown{};
    const std::vector<std::uint32_t> &live = b.live;
    const std::size_t top =
        std::min<std::size_t>(live.size(), static_cast<std::size_t>(std::max(options.top, 0)));
    for (std::size_t i = 0; i < top; ++i) {
        w.beginObject();
        writeValueFields(w, dump, dump.values[live[i]]);
        w.endObject();
    }
    w.endArray();
    w.key("breakdown_at_peak");
    if (dump.hasLiveRanges()) {
        w.beginObject();
        writeRows(w, "by_op_name", b.byOpName);
        writeRows(w, "by_source", b.bySource);
        writeRows(w, "by_op_type", b.byOpType);
        writeRows(w, "by_kind", b.byKind);
        writeRows(w, "by_shape", b.byShape);
        w.endObject();
    } else {
        w.null();
    }
    w.key("findings").beginArray();
    if (dump.hasLiveRanges()) {
        for (const Finding &f : PeakExplainer::explain(dump, timeline, step, space, live)) {
            w.beginObject();
            w.key("kind").value(findingKindName(f.kind));
            w.key("bytes").value(f.bytes);
            w.key("title").value(f.title);
            w.key("detail").value(f.detail);
            w.key("values").beginArray();
            for (std::size_t k = 0; k < f.values.size() && k < 20; ++k)
                w.value(dump.values[f.values[k]].id);
            w.endArray();
            w.endObject();
        }
    }
    w.endArray();
    w.key("warnings");
    warningsJson(w, dump, warnings(dump, timeline));
    w.key("suppressed_warnings").value(dump.suppressedWarnings);
    w.endObject();
    std::string out = w.str();
    out += '\n';
    return out;
}

namespace {

std::string markInstruction(const Dump &dump, const ValueMark &m)
{
    return m.instruction == kNone ? std::string("?")
                                  : std::string(dump.str(dump.instructions[m.instruction].name));
}

std::string valueList(const Dump &dump, const std::vector<std::uint32_t> &values)
{
    std::string out;
    for (std::uint32_t v : values) {
        if (!out.empty())
            out += ", ";
        out +=
            dump.valueDisplayName(dump.values[v]) + " (" + std::to_string(dump.values[v].id) + ")";
    }
    return out.empty() ? "none" : out;
}

} // namespace

void Report::warningsJson(JsonWriter &w, const Dump &dump, const std::vector<Diagnostic> &warnings)
{
    w.beginArray();
    for (const Diagnostic &d : warnings) {
        w.beginObject();
        w.key("file").value(d.file < dump.files.size() ? dump.files[d.file].path : std::string());
        w.key("line").value(d.line);
        w.key("message").value(d.message);
        w.endObject();
    }
    w.endArray();
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
        field("allocation", std::to_string(card.allocation->index) + " (" +
                                std::string(allocationKindName(card.allocation->kind)) + ", " +
                                humanBytes(card.allocation->size) + "), offset " +
                                std::to_string(card.allocation->offset));
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

std::string Report::valueJson(const Dump &dump, const ValueCard &card, const ReportOptions &options)
{
    const ValueFlow &flow = card.flow;
    const auto orNull = [](JsonWriter &w, const std::string &text) {
        if (text.empty())
            w.null();
        else
            w.value(text);
    };
    JsonWriter w;
    w.beginObject();
    w.key("file").value(shownFile(dump, options));
    w.key("module").value(dump.module);
    w.key("id").value(card.id);
    w.key("name").value(card.name);
    w.key("key").value(card.key);
    w.key("bytes").value(card.bytes);
    w.key("logical_bytes");
    if (card.logicalBytes)
        w.value(*card.logicalBytes);
    else
        w.null();
    w.key("shape").value(card.shape);
    w.key("allocation");
    if (card.allocation)
        w.value(card.allocation->index);
    else
        w.null();
    w.key("allocation_kind");
    if (card.allocation)
        w.value(allocationKindName(card.allocation->kind));
    else
        w.null();
    w.key("offset").value(card.allocation ? card.allocation->offset : 0);
    w.key("start").value(card.start);
    w.key("end").value(card.end);
    w.key("op_name");
    orNull(w, card.opName);
    w.key("op_type");
    orNull(w, card.opType);
    w.key("opcode");
    orNull(w, card.opcode);
    w.key("instruction");
    if (card.instruction == kNone)
        w.null();
    else
        w.value(dump.str(dump.instructions[card.instruction].name));
    w.key("source");
    orNull(w, card.source);
    writeStack(w, card.stack);
    w.key("memory_space").value(static_cast<std::int64_t>(card.memorySpace));
    w.key("memory_space_label").value(card.memorySpaceText);
    w.key("listed_at").beginObject();
    w.key("file").value(card.listedFile);
    w.key("line").value(card.listedLine);
    w.endObject();
    const auto marks = [&](std::string_view name, const std::vector<ValueMark> &list, bool uses) {
        w.key(name).beginArray();
        for (const ValueMark &m : list) {
            w.beginObject();
            w.key("instruction").value(markInstruction(dump, m));
            if (uses)
                w.key("operand").value(m.operand);
            w.key("index");
            if (m.index == kNoString)
                w.null();
            else
                w.value(dump.str(m.index));
            w.key("step");
            if (m.step < 0)
                w.null();
            else
                w.value(m.step);
            w.endObject();
        }
        w.endArray();
    };
    marks("uses", flow.uses, true);
    w.key("uses_known").value(flow.usesKnown);
    marks("positions", flow.positions, false);
    const auto ids = [&](std::string_view name, const std::vector<std::uint32_t> &values) {
        w.key(name).beginArray();
        for (std::uint32_t x : values)
            w.value(dump.values[x].id);
        w.endArray();
    };
    ids("producers", flow.producers);
    ids("consumers", flow.consumers);
    w.endObject();
    std::string out = w.str();
    out += '\n';
    return out;
}

std::string Report::instructionAt(const Dump &dump, std::int64_t step)
{
    return stepInstruction(dump, step);
}

} // namespace bufferscope

namespace bufferscope {

namespace {

/// The kind of a memory-usage report's allocation, by the attributes it prints, as the parser
/// decides it for a dump's allocation line.
std::string_view reportKind(const MemoryUsageReport::Allocation &a)
{
    return a.donated() ? "parameter → output, donated" : allocationKindName(a.kind());
}

} // namespace

std::string Report::memoryUsageText(const MemoryUsageReport &r, const std::string &file, int top)
{
    std::string out;
    const auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text);
        out += '\n';
    };
    line("BufferScope report: " + ModuleFiles::moduleName(file) +
         " (XLA's memory-usage report, read without its dump)");
    line("  file          " + file);
    line("  total         " + (r.totalBytes >= 0 ? bytesText(r.totalBytes) : std::string("?")) +
         " in " + std::to_string(r.allocationCount()) + " allocations");
    line("  note          only the total is exact: the report prints every other size rounded "
         "(e.g. 2.70GiB); open the module's buffer-assignment dump for the rest");
    line();
    line("Allocations by kind (of those the report lists, sizes as rounded)");
    std::vector<std::pair<std::string_view, std::pair<std::int64_t, std::int64_t>>> kinds;
    for (const MemoryUsageReport::Allocation &a : r.allocations) {
        const std::string_view k = reportKind(a);
        auto it =
            std::find_if(kinds.begin(), kinds.end(), [k](const auto &e) { return e.first == k; });
        if (it == kinds.end())
            it = kinds.insert(kinds.end(), {k, {0, 0}});
        it->second.first += a.size;
        ++it->second.second;
    }
    for (const auto &[kind, figures] : kinds)
        line("  " + pad(kind, 29) + padLeft(humanBytes(figures.first), 10) + "  " +
             std::to_string(figures.second) + " allocations");
    if (static_cast<std::int64_t>(r.allocations.size()) < r.allocationCount())
        line("  (and " +
             std::to_string(r.allocationCount() - static_cast<std::int64_t>(r.allocations.size())) +
             " smaller allocations the report leaves out)");
    line();
    line("Largest allocations, each with its values by offset");
    const std::size_t shown = std::min<std::size_t>(r.allocations.size(), std::max(0, top));
    for (std::size_t i = 0; i < shown; ++i) {
        const MemoryUsageReport::Allocation &a = r.allocations[i];
        line("  " + padLeft(humanBytes(a.size), 10) + "  allocation " + std::to_string(a.index) +
             "  " + clip(a.description, 100));
        for (const MemoryUsageReport::Group &g : a.groups)
            line("      offset " + padLeft(std::to_string(g.offset), 12) + "  " +
                 padLeft(humanBytes(g.size), 10) + "  " + padLeft(std::to_string(g.values), 5) +
                 " values  " + clip(g.shapes, 80));
        if (a.hiddenGroups > 0)
            line("      … " + std::to_string(a.hiddenGroups) + " smaller offsets not shown");
    }
    if (r.allocations.size() > shown)
        line("  … " + std::to_string(r.allocations.size() - shown) + " more (--top)");
    line();
    if (r.problems.empty()) {
        line("Warnings: none");
    } else {
        line("Warnings (" + std::to_string(r.problems.size()) + ")");
        for (const MemoryUsageReport::Problem &p : r.problems)
            line("  " + file + ":" + std::to_string(p.line) + ": " + p.message);
    }
    return out;
}

std::string Report::memoryUsageJson(const MemoryUsageReport &r, const std::string &file)
{
    JsonWriter w;
    w.beginObject();
    w.key("file").value(file);
    w.key("module").value(ModuleFiles::moduleName(file));
    w.key("kind").value("memory_usage_report");
    w.key("total_bytes").value(r.totalBytes);
    w.key("allocation_count").value(r.allocationCount());
    w.key("hidden_allocations").value(r.hiddenAllocations);
    w.key("allocations").beginArray();
    for (const MemoryUsageReport::Allocation &a : r.allocations) {
        w.beginObject();
        w.key("index").value(a.index);
        w.key("kind").value(reportKind(a));
        w.key("size_rounded").value(a.size);
        w.key("size_rounding").value(a.sizeUlp);
        w.key("description").value(a.description);
        w.key("values_by_offset").beginArray();
        for (const MemoryUsageReport::Group &g : a.groups) {
            w.beginObject();
            w.key("offset").value(g.offset);
            w.key("size_rounded").value(g.size);
            w.key("values").value(g.values);
            w.key("shapes").value(g.shapes);
            w.endObject();
        }
        w.endArray();
        w.key("hidden_offsets").value(a.hiddenGroups);
        w.endObject();
    }
    w.endArray();
    w.key("warnings").beginArray();
    for (const MemoryUsageReport::Problem &p : r.problems) {
        w.beginObject();
        w.key("file").value(file);
        w.key("line").value(p.line);
        w.key("message").value(p.message);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
