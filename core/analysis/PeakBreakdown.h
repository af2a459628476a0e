#pragma once

#include "model/Dump.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bufferscope {

struct BreakdownRow
{
    std::string key;
    std::int64_t bytes = 0; ///< the group's values' bytes, in-place sharing counted once
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
    std::int32_t frame = -1;   ///< call-stack trees: the node's frame, in Breakdown::frames
    std::int64_t bytes = 0;
    std::int64_t values = 0;
    std::vector<std::uint32_t> members;  ///< every value below, largest first
    std::vector<BreakdownNode> children; ///< largest first
};

/// How Breakdown::compute groups by source, and whether it builds the call-stack trees.
struct BreakdownOptions
{
    /// By source: a value's row is the innermost frame of its call stack outside these
    /// patterns (SourceFrames.h), so the user's own line shows; empty (the command line's
    /// `by_source`): the innermost frame, which equals the inline `source_file:source_line`.
    std::vector<std::string> libraryPatterns;
    /// Also build callersTree and calleesTree (the GUI's "by call stack").
    bool callStacks = false;
};

/// What the values live at one step are made of, grouped five ways, and by call stack when
/// asked. Every grouping adds up to the live bytes of `memorySpace` at `step` (the curve): a
/// value counts its assigned bytes except those a larger live value of its allocation already
/// counted (values written in place share bytes at the step one hands over to the next).
struct Breakdown
{
    /// The ways the values are grouped.
    enum class Grouping
    {
        OpName,
        Source,
        OpType,
        Kind,
        CallersTopDown,  ///< outermost caller at the root, down to the instructions
        CallersBottomUp, ///< innermost frame at the root, out to the callers
        Shape,           ///< shape and dtype without layout: "bf16[32768,4096]" (op metadata aside)
    };
    /// "op_name", "source", "op_type", "kind", "stack", "stack-bottom-up", "shape": the names
    /// the command line takes.
    static std::string_view groupingName(Grouping grouping);
    /// The grouping a command-line name stands for; false when there is none.
    static bool groupingByName(std::string_view name, Grouping &grouping);
    /// "83 × bf16[32768,4096]" for a by-shape row, else the row's key.
    static std::string rowLabel(Grouping grouping, const BreakdownRow &row);

    std::int64_t step = -1;
    std::int32_t memorySpace = 0;
    std::int64_t bytes = 0;
    std::int64_t valueCount = 0;
    /// The values live at the step (MemoryTimeline::valuesLiveAt: largest first), for callers
    /// that need them too, so the dump is scanned once.
    std::vector<std::uint32_t> live;
    std::vector<std::int64_t> counted; ///< what each of `live` adds (countedBytes)
    std::vector<BreakdownRow> byOpName;
    std::vector<BreakdownRow> bySource;
    std::vector<BreakdownRow> byOpType;
    std::vector<BreakdownRow> byKind;
    std::vector<BreakdownRow> byShape; ///< layout-free shape and dtype
    BreakdownNode opNameTree;          ///< the by-op_name grouping as a hierarchy split on '/'
    /// By call stack, top-down: the outermost callers at the root, each frame's callees below
    /// it, and under a stack's innermost frame its values' instruction names. A value without
    /// a stack sits in one "(no call stack)" group. Built when BreakdownOptions::callStacks.
    BreakdownNode callersTree;
    /// By call stack, bottom-up: the innermost frames at the root (the by-source grouping
    /// without library patterns), each frame's callers below it.
    BreakdownNode calleesTree;
    /// The frames the call-stack trees name (BreakdownNode::frame): the optimized HLO's frames,
    /// and an inline `source_file:source_line` as a frame without a function or caller.
    std::vector<StackFrame> frames;

    const std::vector<BreakdownRow> &rows(Grouping grouping) const;
    /// The hierarchy of a tree grouping (op_name, call stacks); null for the flat ones.
    const BreakdownNode *tree(Grouping grouping) const;

    static Breakdown compute(const Dump &dump, std::int64_t step, std::int32_t memorySpace = 0,
                             const BreakdownOptions &options = {});
    /// What each of `live` (largest first) adds to the live bytes: its assigned bytes except
    /// those a value before it in `live` already counted in the same allocation (values written
    /// in place share bytes at the step one hands over to the next). Sums to the curve.
    static std::vector<std::int64_t> countedBytes(const Dump &dump,
                                                  const std::vector<std::uint32_t> &live);
    /// A tree like opNameTree of any values: each value's path is `prefix(value)` (at most a
    /// few segments: a category) then its op_name's segments, cut as opNameTree's are, its
    /// instruction's name at the leaf; `values` and `bytes` in step, largest first.
    static BreakdownNode pathTree(const Dump &dump, const std::vector<std::uint32_t> &values,
                                  const std::vector<std::int64_t> &bytes,
                                  const std::function<std::string(std::uint32_t)> &prefix);
    /// `fusion.12` → `fusion`, `copy-start.3` → `copy-start`: the name without its number.
    static std::string nameStem(std::string_view name);
    /// Splits an op_name on '/' outside parentheses.
    static std::vector<std::string_view> opNamePath(std::string_view opName);

    static constexpr const char *kNoOpName = "(no op_name)";
    static constexpr const char *kNoSource = "(no source)";
    static constexpr const char *kNoOpType = "(no op_type)";
    static constexpr const char *kNoStack = "(no call stack)";

    /// The deepest a tree built from dump text goes (op_name segments, call-stack frames, not
    /// counting the root and the instruction leaves): the segments past the last level are one
    /// node, "⋯ N more segments", and a stack keeps its outermost frames in the top-down tree
    /// and its innermost in the bottom-up one, the rest as one "⋯ N more frames" node. Every
    /// walk of a tree may then recurse.
    static constexpr std::size_t kMaxDepth = 64;
    /// A node's label and path are cut (with "…") at these many bytes.
    static constexpr std::size_t kMaxLabelBytes = 400;
    static constexpr std::size_t kMaxPathBytes = 2000;
    /// The bottom-up tree has one path per distinct stack, so it can hold stacks × depth nodes
    /// where the top-down tree shares their common callers: its depth is cut so that it has no
    /// more nodes than this or the top-down tree, whichever is more.
    static constexpr std::size_t kBottomUpNodes = 20000;

    /// Values whose op_name or call stack was deeper than kMaxDepth (shown cut, see above).
    std::int64_t cutValues = 0;
};

} // namespace bufferscope
