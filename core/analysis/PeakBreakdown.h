#pragma once

#include "model/Dump.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bufferscope {

struct BreakdownRow
{
    std::string key;
    std::int64_t bytes = 0; ///< assigned bytes (`size=`) of the group's values
    std::int64_t values = 0;
    std::vector<std::uint32_t> members; ///< value indices, largest first
};

/// One node of the op_name hierarchy: a path segment of `jit(train_step)/jit(main)/…/dot`, or
/// at the leaves the values' instruction names, repeated names (`fusion.1` … `fusion.28`)
/// collapsed into one `fusion.*` row with their count.
struct BreakdownNode
{
    std::string label;
    std::string path;          ///< the op_name prefix down to this node ("" for the root)
    bool instructions = false; ///< a leaf row of instruction names, not an op_name segment
    std::int64_t bytes = 0;
    std::int64_t values = 0;
    std::vector<std::uint32_t> members;  ///< every value below, largest first
    std::vector<BreakdownNode> children; ///< largest first
};

/// What the values live at one step are made of, grouped four ways. Every grouping adds up to
/// the sum of the assigned bytes of the values of `memorySpace` live at `step`.
struct Breakdown
{
    /// The four ways the values are grouped.
    enum class Grouping
    {
        OpName,
        Source,
        OpType,
        Kind
    };

    std::int64_t step = -1;
    std::int32_t memorySpace = 0;
    std::int64_t bytes = 0;
    std::int64_t valueCount = 0;
    /// The values live at the step (MemoryTimeline::valuesLiveAt: largest first), for callers
    /// that need them too, so the dump is scanned once.
    std::vector<std::uint32_t> live;
    std::vector<BreakdownRow> byOpName;
    std::vector<BreakdownRow> bySource;
    std::vector<BreakdownRow> byOpType;
    std::vector<BreakdownRow> byKind;
    BreakdownNode opNameTree; ///< the by-op_name grouping as a hierarchy split on '/'

    const std::vector<BreakdownRow> &rows(Grouping grouping) const;

    static Breakdown compute(const Dump &dump, std::int64_t step, std::int32_t memorySpace = 0);
    /// `fusion.12` → `fusion`, `copy-start.3` → `copy-start`: the name without its number.
    static std::string nameStem(std::string_view name);
    /// Splits an op_name on '/' outside parentheses.
    static std::vector<std::string_view> opNamePath(std::string_view opName);

    static constexpr const char *kNoOpName = "(no op_name)";
    static constexpr const char *kNoSource = "(no source)";
    static constexpr const char *kNoOpType = "(no op_type)";
};

} // namespace bufferscope
