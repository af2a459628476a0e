#include "Report.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/SourceFrames.h"
#include "analysis/ValueFlow.h"
#include "model/MemorySpaces.h"
#include "report/JsonWriter.h"
#include "report/ValueCard.h"
#include "report/detail/CategorySections.h"
#include "report/detail/TextColumns.h"
#include "util/SafeText.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>

namespace bufferscope {

using namespace report_detail;

namespace {

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

std::string Report::json(const Dump &dump, const MemoryTimeline &timeline,
                         const ReportOptions &options)
{
    JsonWriter w;
    const ReportFacts facts = ReportFacts::of(dump, timeline, options);
    w.beginObject();
    w.key("file").value(facts.file);
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
    const KindTotals &kinds = facts.kinds;
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
        const MemoryAnalysis &m = facts.analysis;
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
    w.key("report_step").value(facts.step);
    w.key("top_values_at_peak").beginArray();
    const Breakdown &b = facts.breakdown;
    const std::vector<std::uint32_t> &live = b.live;
    for (std::size_t i = 0; i < facts.top; ++i) {
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
        for (const Finding &f : facts.findings) {
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
    report_detail::categoriesJson(w, dump, facts);
    w.key("warnings");
    warningsJson(w, dump, facts.warnings);
    w.key("suppressed_warnings").value(dump.suppressedWarnings);
    w.endObject();
    std::string out = w.str();
    out += '\n';
    return out;
}

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
    w.key("allocation_page");
    if (card.allocation && card.allocation->page >= 0)
        w.value(card.allocation->page);
    else
        w.null();
    w.key("start").value(card.start);
    w.key("end").value(card.end);
    w.key("op_name");
    orNull(w, card.opName);
    w.key("category");
    orNull(w, card.category);
    w.key("category_evidence");
    orNull(w, card.categoryEvidence);
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

} // namespace bufferscope
