#include "ViewCsv.h"

#include "analysis/DumpDiff.h"
#include "analysis/MemoryTimeline.h"
#include "layout/MemoryMapLayout.h"
#include "model/Dump.h"
#include "report/Csv.h"
#include "report/Report.h"

namespace bufferscope {

namespace {

void writeValueFields(CsvWriter &csv, const Dump &dump, const Value &v)
{
    csv.field(v.id).field(dump.valueDisplayName(v));
    if (v.hasLiveRange())
        csv.field(v.start).field(v.end);
    else
        csv.blank().blank();
    csv.field(v.size).field(dump.logicalBytes(v));
    if (v.allocation != kNone) {
        const Allocation &a = dump.allocations[v.allocation];
        csv.field(allocationKindName(a.kind)).field(a.index);
    } else {
        csv.blank().blank();
    }
    csv.field(v.offset).field(static_cast<std::int64_t>(v.color)).field(dump.shapeText(v));
    if (const Instruction *ins = dump.instructionOf(v))
        csv.field(dump.str(ins->opName)).field(dump.sourceLocation(*ins));
    else
        csv.blank().blank();
}

} // namespace

std::string ViewCsv::usage(const Dump &dump, const MemoryTimeline &timeline)
{
    CsvWriter csv;
    csv.field("step").field("instruction");
    for (const SpaceTimeline &s : timeline.spaces()) {
        const std::string n = std::to_string(s.memorySpace);
        csv.field("live_bytes_space" + n).field("logical_bytes_space" + n);
    }
    csv.endRow();
    for (std::int64_t step = 0; step < dump.stepCount(); ++step) {
        csv.field(step).field(Report::instructionAt(dump, step));
        for (const SpaceTimeline &s : timeline.spaces()) {
            const auto at = static_cast<std::size_t>(step);
            csv.field(at < s.liveBytes.size() ? s.liveBytes[at] : 0)
                .field(at < s.logicalBytes.size() ? s.logicalBytes[at] : 0);
        }
        csv.endRow();
    }
    return csv.take();
}

std::string ViewCsv::values(const Dump &dump, const std::vector<std::uint32_t> &rows)
{
    CsvWriter csv;
    for (const char *column :
         {"row", "id", "name", "start", "end", "bytes", "logical_bytes", "kind", "allocation",
          "offset", "memory_space", "shape", "op_name", "source"})
        csv.field(column);
    csv.endRow();
    std::vector<bool> listed(dump.values.size(), false);
    std::int64_t row = 0;
    for (const std::uint32_t value : rows) {
        if (value >= dump.values.size() || listed[value])
            continue;
        listed[value] = true;
        csv.field(row++);
        writeValueFields(csv, dump, dump.values[value]);
        csv.endRow();
    }
    for (std::size_t i = 0; i < dump.values.size(); ++i) {
        if (listed[i])
            continue;
        csv.blank(); // no row in the chart: listed apart
        writeValueFields(csv, dump, dump.values[i]);
        csv.endRow();
    }
    return csv.take();
}

std::string ViewCsv::memoryMap(const Dump &dump, const MemoryMapLayout &layout)
{
    CsvWriter csv;
    for (const char *column :
         {"id", "name", "allocation", "kind", "offset", "bytes", "start", "end", "memory_space"})
        csv.field(column);
    csv.endRow();
    for (const Box &box : layout.boxes->boxes()) {
        if (box.value >= dump.values.size())
            continue;
        const Value &v = dump.values[box.value];
        csv.field(v.id).field(dump.valueDisplayName(v));
        if (v.allocation != kNone) {
            const Allocation &a = dump.allocations[v.allocation];
            csv.field(a.index).field(allocationKindName(a.kind));
        } else {
            csv.blank().blank();
        }
        csv.field(v.offset).field(v.size).field(v.start).field(v.end).field(
            static_cast<std::int64_t>(v.color));
        csv.endRow();
    }
    return csv.take();
}

std::string ViewCsv::alignedUsage(const DumpDiff &diff, const Dump &before,
                                  const MemoryTimeline &tb, const Dump &after,
                                  const MemoryTimeline &ta)
{
    const SpaceTimeline *a = tb.space(0) ? tb.space(0) : tb.primary();
    const SpaceTimeline *b = ta.space(0) ? ta.space(0) : ta.primary();
    const auto bytes = [](const SpaceTimeline *s, std::int64_t step) {
        return s && step >= 0 && static_cast<std::size_t>(step) < s->liveBytes.size()
                   ? s->liveBytes[static_cast<std::size_t>(step)]
                   : std::int64_t{0};
    };
    CsvWriter csv;
    for (const char *column :
         {"row", "step_before", "step_after", "instruction_before", "instruction_after",
          "live_bytes_before", "live_bytes_after", "delta_bytes"})
        csv.field(column);
    csv.endRow();
    const std::vector<StepAlignment::Row> &rows = diff.match.steps.rows;
    diff.match.steps.forEachHeld([&](std::size_t r, std::int64_t x, std::int64_t y) {
        csv.field(static_cast<std::int64_t>(r));
        const StepAlignment::Row &row = rows[r];
        row.a >= 0 ? csv.field(row.a) : csv.blank();
        row.b >= 0 ? csv.field(row.b) : csv.blank();
        row.a >= 0 ? csv.field(Report::instructionAt(before, row.a)) : csv.blank();
        row.b >= 0 ? csv.field(Report::instructionAt(after, row.b)) : csv.blank();
        const std::int64_t va = bytes(a, x);
        const std::int64_t vb = bytes(b, y);
        csv.field(va).field(vb).field(vb - va);
        csv.endRow();
    });
    return csv.take();
}

const char *ViewCsv::groupingColumn(Breakdown::Grouping grouping)
{
    switch (grouping) {
    case Breakdown::Grouping::OpName:
        return "op_name";
    case Breakdown::Grouping::Source:
        return "source";
    case Breakdown::Grouping::OpType:
        return "op_type";
    case Breakdown::Grouping::Kind:
        return "kind";
    case Breakdown::Grouping::Shape:
        return "shape";
    case Breakdown::Grouping::CallersTopDown:
    case Breakdown::Grouping::CallersBottomUp:
        break;
    }
    return "call_stack";
}

std::string ViewCsv::breakdown(const Breakdown &breakdown, Breakdown::Grouping grouping)
{
    CsvWriter csv;
    csv.field("step")
        .field("memory_space")
        .field(groupingColumn(grouping))
        .field("bytes")
        .field("values");
    csv.endRow();
    for (const BreakdownRow &r : breakdown.rows(grouping)) {
        csv.field(breakdown.step)
            .field(static_cast<std::int64_t>(breakdown.memorySpace))
            .field(r.key)
            .field(r.bytes)
            .field(r.values);
        csv.endRow();
    }
    return csv.take();
}

} // namespace bufferscope
