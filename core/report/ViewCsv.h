#pragma once

#include "analysis/PeakBreakdown.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bufferscope {

struct Dump;
struct DumpDiff;
class MemoryTimeline;
struct MemoryMapLayout;

/// The data behind each chart, as RFC 4180 CSV (Csv.h) with a header row: what a reader of an
/// exported chart needs to redo the analysis. Columns are documented in the README's export
/// section; byte columns are exact integers, steps are XLA's program-order steps.
namespace ViewCsv {

/// One row per step 0..maxStep: `step,instruction`, then per memory space
/// `live_bytes_space<N>,logical_bytes_space<N>` (FORMAT.md's live bytes and logical bytes).
std::string usage(const Dump &dump, const MemoryTimeline &timeline);

/// One row per value: those in `rows` first, in that order (the live-range chart's rows), then
/// the values with no live range in id order (`row`, `start` and `end` left empty).
/// `row,id,name,start,end,bytes,logical_bytes,kind,allocation,offset,memory_space,shape,
/// op_name,source`.
std::string values(const Dump &dump, const std::vector<std::uint32_t> &rows);

/// One row per box of the memory map, in the layout's order:
/// `id,name,allocation,kind,offset,bytes,start,end,memory_space`.
std::string memoryMap(const Dump &dump, const MemoryMapLayout &layout);

/// Every group of the breakdown in `grouping` (not only the bars drawn), largest first:
/// `step,memory_space,<grouping>,bytes,values`.
std::string breakdown(const Breakdown &breakdown, Breakdown::Grouping grouping);

/// The compare window's curves: one row per aligned step (DumpMatch's StepAlignment),
/// `row,step_before,step_after,instruction_before,instruction_after,live_bytes_before,
/// live_bytes_after,delta_bytes` on memory space 0 (the first there is otherwise). A side with
/// no step in a row leaves its step and instruction empty and holds its previous bytes, as the
/// curve does.
std::string alignedUsage(const DumpDiff &diff, const Dump &before, const MemoryTimeline &tb,
                         const Dump &after, const MemoryTimeline &ta);

/// The column name of a flat grouping: `op_name`, `source`, `op_type`, `kind`.
const char *groupingColumn(Breakdown::Grouping grouping);

} // namespace ViewCsv

} // namespace bufferscope
