#include "PeakBreakdown.h"

#include "analysis/MemoryTimeline.h"
#include "analysis/SourceFrames.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace bufferscope {

namespace {

/// `text` cut to at most `max` bytes at a character boundary, with "…" when cut.
std::string clipBytes(std::string_view text, std::size_t max)
{
    if (text.size() <= max)
        return std::string(text);
    std::size_t end = max;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return std::string(text.substr(0, end)) + "…";
}

/// A child's path: the parent's, a '/', the child's label; cut at Breakdown::kMaxPathBytes.
std::string childPath(const std::string &parent, std::string_view label)
{
    if (parent.empty())
        return clipBytes(label, Breakdown::kMaxPathBytes);
    if (parent.size() >= Breakdown::kMaxPathBytes) // cut already
        return parent;
    std::string out = parent;
    out += '/';
    out.append(label.substr(0, Breakdown::kMaxPathBytes + 1));
    return clipBytes(out, Breakdown::kMaxPathBytes);
}

class Grouper
{
public:
    void add(std::string key, std::uint32_t value, std::int64_t bytes)
    {
        auto [it, inserted] = m_index.try_emplace(key, m_rows.size());
        if (inserted)
            m_rows.push_back({std::move(key), 0, 0, {}});
        BreakdownRow &row = m_rows[it->second];
        row.bytes += bytes;
        ++row.values;
        row.members.push_back(value);
    }
    std::vector<BreakdownRow> take()
    {
        std::sort(m_rows.begin(), m_rows.end(), [](const BreakdownRow &a, const BreakdownRow &b) {
            return a.bytes != b.bytes ? a.bytes > b.bytes : a.key < b.key;
        });
        return std::move(m_rows);
    }

private:
    std::unordered_map<std::string, std::size_t> m_index;
    std::vector<BreakdownRow> m_rows;
};

/// Builds the op_name tree: children found through a map while values are added, then frozen
/// into vectors sorted by bytes.
struct TreeBuilder
{
    struct Node
    {
        BreakdownNode data;
        std::map<std::string, std::size_t, std::less<>> index; ///< child key -> children
        std::vector<Node> children;
    };
    Node root;

    static Node &child(Node &parent, std::string_view key, bool instructions)
    {
        const std::string k = (instructions ? "\x01" : "") + std::string(key);
        auto it = parent.index.find(k);
        if (it == parent.index.end()) {
            it = parent.index.emplace(k, parent.children.size()).first;
            parent.children.emplace_back();
            BreakdownNode &d = parent.children.back().data;
            d.label = clipBytes(key, Breakdown::kMaxLabelBytes);
            d.instructions = instructions;
            d.path = instructions ? parent.data.path : childPath(parent.data.path, d.label);
        }
        return parent.children[it->second];
    }
    static void count(Node &n, std::uint32_t value, std::int64_t bytes)
    {
        n.data.bytes += bytes;
        ++n.data.values;
        n.data.members.push_back(value);
    }
    void add(const std::vector<std::string_view> &path, std::string_view stem,
             std::string_view name, std::uint32_t value, std::int64_t bytes)
    {
        Node *n = &root;
        count(*n, value, bytes);
        for (std::string_view segment : path) {
            n = &child(*n, segment, false);
            count(*n, value, bytes);
        }
        Node &leaf = child(*n, stem, true);
        count(leaf, value, bytes);
        // One name (a single value, or the elements of one tuple instruction) shows as itself;
        // several numbered names of one stem collapse into `stem.*`.
        const std::string label = clipBytes(name, Breakdown::kMaxLabelBytes);
        if (leaf.data.values == 1)
            leaf.data.label = label;
        else if (leaf.data.label != label)
            leaf.data.label = clipBytes(stem, Breakdown::kMaxLabelBytes) + ".*";
    }
    /// Recursive: no tree is deeper than Breakdown::kMaxDepth + 2.
    static BreakdownNode freeze(Node &n)
    {
        BreakdownNode out = std::move(n.data);
        for (Node &c : n.children)
            out.children.push_back(freeze(c));
        std::sort(out.children.begin(), out.children.end(),
                  [](const BreakdownNode &a, const BreakdownNode &b) {
                      return a.bytes != b.bytes ? a.bytes > b.bytes : a.label < b.label;
                  });
        return out;
    }
};

/// The two call-stack trees. Each distinct stack is walked once (its path of nodes is kept by
/// its innermost frame id), then every value adds itself along its stack's paths in the order
/// of the live list, so every node's members stay largest first. The top-down tree is built as
/// values are added; the bottom-up one in finish(), once the number of distinct stacks tells
/// how deep it may go (Breakdown::kBottomUpNodes).
class StackTrees
{
public:
    StackTrees(const Dump &dump, Breakdown &b) : m_dump(dump), m_b(b)
    {
        m_nodes.resize(2); // 0: the top-down root, 1: the bottom-up root
    }

    void add(const Instruction *ins, std::string_view name, std::uint32_t value, std::int64_t bytes)
    {
        Paths &paths = pathsOf(ins);
        if (paths.depth > Breakdown::kMaxDepth)
            ++m_cutValues;
        for (std::uint32_t n : paths.down)
            count(n, value, bytes);
        m_pending.push_back({&paths, value, bytes});
        // Under the innermost frame, the values' instructions, as in the op_name tree.
        const std::string stem = clipBytes(Breakdown::nameStem(name), Breakdown::kMaxLabelBytes);
        const std::uint32_t leaf = child(paths.down.back(), "\x01" + stem, [&](BreakdownNode &d) {
            d.label = stem;
            d.instructions = true;
            d.path = m_nodes[paths.down.back()].data.path;
        });
        count(leaf, value, bytes);
        BreakdownNode &d = m_nodes[leaf].data;
        const std::string label = clipBytes(name, Breakdown::kMaxLabelBytes);
        if (d.values == 1)
            d.label = label;
        else if (d.label != label)
            d.label = stem + ".*";
    }

    void finish()
    {
        // Each distinct stack adds at most `depth` nodes to the bottom-up tree.
        const std::size_t stacks = std::max<std::size_t>(1, m_distinct);
        const std::size_t budget = std::max(Breakdown::kBottomUpNodes, m_nodes.size());
        const std::size_t depth = std::clamp<std::size_t>(budget / stacks, 2, Breakdown::kMaxDepth);
        for (const Pending &p : m_pending) {
            if (p.paths->up.empty())
                walkUp(*p.paths, depth);
            for (std::uint32_t n : p.paths->up)
                count(n, p.value, p.bytes);
        }
        m_b.callersTree = freeze(0);
        m_b.calleesTree = freeze(1);
    }

    /// Values whose stack was cut in either tree.
    std::int64_t cutValues() const { return m_cutValues; }

private:
    struct Node
    {
        BreakdownNode data;
        std::unordered_map<std::string, std::uint32_t> index; ///< child key -> node
        std::vector<std::uint32_t> children;
    };
    struct Paths
    {
        std::vector<std::uint32_t> down; ///< top-down: root, outermost … innermost frame
        std::vector<std::uint32_t> up;   ///< bottom-up: root, innermost … outermost frame
        /// The innermost frames (innermost first), kept for the bottom-up walk.
        std::vector<StackFrame> inner;
        std::size_t depth = 0; ///< the whole stack's
    };
    struct Pending
    {
        Paths *paths;
        std::uint32_t value;
        std::int64_t bytes;
    };

    void count(std::uint32_t n, std::uint32_t value, std::int64_t bytes)
    {
        BreakdownNode &d = m_nodes[n].data;
        d.bytes += bytes;
        ++d.values;
        d.members.push_back(value);
    }

    template <typename Init>
    std::uint32_t child(std::uint32_t parent, const std::string &key, Init init)
    {
        auto it = m_nodes[parent].index.find(key);
        if (it != m_nodes[parent].index.end())
            return it->second;
        const auto n = static_cast<std::uint32_t>(m_nodes.size());
        m_nodes.emplace_back();
        init(m_nodes.back().data);
        m_nodes[parent].index.emplace(key, n);
        m_nodes[parent].children.push_back(n);
        return n;
    }

    /// The frame's index in Breakdown::frames, one per distinct place and function.
    std::int32_t frameIndex(const StackFrame &f)
    {
        const auto key = std::make_tuple(f.file, f.function, f.line, f.column);
        auto [it, added] =
            m_frameIndex.try_emplace(key, static_cast<std::int32_t>(m_b.frames.size()));
        if (added)
            m_b.frames.push_back(f);
        return it->second;
    }

    std::uint32_t frameChild(std::uint32_t parent, const StackFrame &f)
    {
        const std::int32_t k = frameIndex(f);
        return child(parent, "\x02" + std::to_string(k), [&](BreakdownNode &d) {
            d.frame = k;
            std::string place = f.file == kNoString
                                    ? std::string("?")
                                    : clipBytes(m_dump.str(f.file), Breakdown::kMaxLabelBytes);
            if (f.line >= 0)
                place += ":" + std::to_string(f.line);
            const std::string_view base = std::string_view(place).substr(
                std::min(place.size(), place.rfind('/', place.rfind(':')) + 1));
            if (f.function == kNoString) {
                d.label = std::string(base);
                d.path = place;
            } else {
                const std::string fn = clipBytes(m_dump.str(f.function), Breakdown::kMaxLabelBytes);
                d.label = fn + " · " + std::string(base);
                d.path = fn + " (" + place + ")";
            }
        });
    }

    /// The node that stands for the `hidden` frames a cut stack leaves out.
    std::uint32_t moreFrames(std::uint32_t parent, std::size_t hidden)
    {
        const std::string label = "⋯ " + std::to_string(hidden) + " more frames";
        return child(parent, "\x04" + label, [&](BreakdownNode &d) {
            d.label = label;
            d.path = childPath(m_nodes[parent].data.path, label);
        });
    }

    Paths &pathsOf(const Instruction *ins)
    {
        // One walk per distinct stack: by innermost frame id, by inline source, or none.
        Paths *p = nullptr;
        if (ins && ins->stackFrame != 0) {
            auto [it, added] = m_byFrame.try_emplace(ins->stackFrame);
            if (!added)
                return it->second;
            p = &it->second;
        } else if (ins && ins->sourceFile != kNoString) {
            auto [it, added] = m_byInline.try_emplace({ins->sourceFile, ins->sourceLine});
            if (!added)
                return it->second;
            p = &it->second;
        } else {
            if (!m_none.down.empty())
                return m_none;
            p = &m_none;
        }
        ++m_distinct;
        std::vector<StackFrame> stack =
            ins ? framesOf(m_dump, *ins) : std::vector<StackFrame>(); // innermost first
        p->down.push_back(0);
        p->depth = stack.size();
        if (stack.empty()) {
            p->down.push_back(
                child(0, "\x03", [](BreakdownNode &d) { d.label = d.path = Breakdown::kNoStack; }));
            return *p;
        }
        // Top-down: the outermost frames, then one node for the inner ones past the depth.
        const std::size_t shown = std::min(stack.size(), Breakdown::kMaxDepth);
        for (std::size_t i = 0; i < shown; ++i)
            p->down.push_back(frameChild(p->down.back(), stack[stack.size() - 1 - i]));
        if (stack.size() > shown)
            p->down.push_back(moreFrames(p->down.back(), stack.size() - shown));
        stack.resize(shown);
        p->inner = std::move(stack);
        return *p;
    }

    /// Bottom-up: the innermost `depth` frames, then one node for the outer ones.
    void walkUp(Paths &p, std::size_t depth)
    {
        p.up.push_back(1);
        if (p.depth == 0) {
            p.up.push_back(
                child(1, "\x03", [](BreakdownNode &d) { d.label = d.path = Breakdown::kNoStack; }));
            return;
        }
        const std::size_t shown = std::min(p.inner.size(), depth);
        for (std::size_t i = 0; i < shown; ++i)
            p.up.push_back(frameChild(p.up.back(), p.inner[i]));
        if (p.depth > shown)
            p.up.push_back(moreFrames(p.up.back(), p.depth - shown));
        p.inner = {};
    }

    /// Recursive: no tree is deeper than Breakdown::kMaxDepth + 2.
    BreakdownNode freeze(std::uint32_t n)
    {
        BreakdownNode out = std::move(m_nodes[n].data);
        for (std::uint32_t c : m_nodes[n].children)
            out.children.push_back(freeze(c));
        std::sort(out.children.begin(), out.children.end(),
                  [](const BreakdownNode &a, const BreakdownNode &b) {
                      return a.bytes != b.bytes ? a.bytes > b.bytes : a.label < b.label;
                  });
        return out;
    }

    const Dump &m_dump;
    Breakdown &m_b;
    std::vector<Node> m_nodes;
    std::unordered_map<std::uint32_t, Paths> m_byFrame;
    std::map<std::pair<StringId, std::int64_t>, Paths> m_byInline;
    Paths m_none;
    std::vector<Pending> m_pending;
    std::size_t m_distinct = 0;
    std::int64_t m_cutValues = 0;
    std::map<std::tuple<StringId, StringId, std::int32_t, std::int32_t>, std::int32_t> m_frameIndex;
};

} // namespace

/// What each live value adds to the live bytes (docs/FORMAT.md Part A): its bytes not already
/// counted for a value before it in `live` (largest first) in the same allocation. Values
/// written in place share their bytes at the step where one ends and the next starts; those
/// bytes count once, for the larger, so the groups add up to the curve.
std::vector<std::int64_t> Breakdown::countedBytes(const Dump &dump,
                                                  const std::vector<std::uint32_t> &live)
{
    std::vector<std::int64_t> out(live.size());
    // Allocation -> the byte ranges counted so far, [begin, end) sorted and disjoint.
    std::unordered_map<std::uint32_t, std::map<std::int64_t, std::int64_t>> covered;
    for (std::size_t i = 0; i < live.size(); ++i) {
        const Value &v = dump.values[live[i]];
        if (v.allocation == kNone || v.size <= 0) {
            out[i] = std::max<std::int64_t>(v.size, 0);
            continue;
        }
        auto &ranges = covered[v.allocation];
        std::int64_t begin = v.offset;
        std::int64_t end = v.offset + v.size;
        std::int64_t overlap = 0;
        // Merge every range that touches [begin, end), counting what they cover of it.
        auto it = ranges.upper_bound(begin);
        if (it != ranges.begin() && std::prev(it)->second >= begin)
            --it;
        while (it != ranges.end() && it->first <= end) {
            overlap += std::max<std::int64_t>(0, std::min(v.offset + v.size, it->second) -
                                                     std::max(v.offset, it->first));
            begin = std::min(begin, it->first);
            end = std::max(end, it->second);
            it = ranges.erase(it);
        }
        ranges.emplace(begin, end);
        out[i] = v.size - overlap;
    }
    return out;
}

const BreakdownNode *Breakdown::tree(Grouping grouping) const
{
    switch (grouping) {
    case Grouping::OpName:
        return &opNameTree;
    case Grouping::CallersTopDown:
        return &callersTree;
    case Grouping::CallersBottomUp:
        return &calleesTree;
    case Grouping::Source:
    case Grouping::OpType:
    case Grouping::Kind:
    case Grouping::Shape:
        break;
    }
    return nullptr;
}

const std::vector<BreakdownRow> &Breakdown::rows(Grouping grouping) const
{
    switch (grouping) {
    case Grouping::Source:
        return bySource;
    case Grouping::OpType:
        return byOpType;
    case Grouping::Kind:
        return byKind;
    case Grouping::Shape:
        return byShape;
    case Grouping::OpName:
    case Grouping::CallersTopDown:
    case Grouping::CallersBottomUp:
        break;
    }
    return byOpName;
}

namespace {
constexpr std::pair<Breakdown::Grouping, std::string_view> kGroupingNames[] = {
    {Breakdown::Grouping::OpName, "op_name"},
    {Breakdown::Grouping::Source, "source"},
    {Breakdown::Grouping::OpType, "op_type"},
    {Breakdown::Grouping::Kind, "kind"},
    {Breakdown::Grouping::CallersTopDown, "stack"},
    {Breakdown::Grouping::CallersBottomUp, "stack-bottom-up"},
    {Breakdown::Grouping::Shape, "shape"},
};
} // namespace

std::string_view Breakdown::groupingName(Grouping grouping)
{
    for (const auto &[g, name] : kGroupingNames)
        if (g == grouping)
            return name;
    return "op_name";
}

bool Breakdown::groupingByName(std::string_view name, Grouping &grouping)
{
    for (const auto &[g, n] : kGroupingNames) {
        if (n == name) {
            grouping = g;
            return true;
        }
    }
    return false;
}

std::string Breakdown::rowLabel(Grouping grouping, const BreakdownRow &row)
{
    if (grouping != Grouping::Shape)
        return row.key;
    return std::to_string(row.values) + " × " + row.key;
}

std::string Breakdown::nameStem(std::string_view name)
{
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size())
        return std::string(name);
    for (std::size_t i = dot + 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return std::string(name);
    }
    return std::string(name.substr(0, dot));
}

std::vector<std::string_view> Breakdown::opNamePath(std::string_view opName)
{
    std::vector<std::string_view> out;
    int depth = 0;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < opName.size(); ++i) {
        const char c = opName[i];
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            --depth;
        else if (c == '/' && depth == 0) {
            if (i > begin)
                out.push_back(opName.substr(begin, i - begin));
            begin = i + 1;
        }
    }
    if (begin < opName.size())
        out.push_back(opName.substr(begin));
    return out;
}

namespace {

/// An instruction's op_name segments ("(no op_name)" without one), those past kMaxDepth as one
/// (kept in `rest`, empty when none were cut).
std::vector<std::string_view> cutPath(const Dump &dump, const Instruction *ins, std::string &rest)
{
    std::vector<std::string_view> path = ins && ins->opName != kNoString
                                             ? Breakdown::opNamePath(dump.str(ins->opName))
                                             : std::vector<std::string_view>{Breakdown::kNoOpName};
    if (path.size() > Breakdown::kMaxDepth) {
        const char *from = path[Breakdown::kMaxDepth - 1].data();
        const std::string_view last = path.back();
        rest = "⋯ " + std::to_string(path.size() - Breakdown::kMaxDepth + 1) + " more segments: " +
               std::string(from, static_cast<std::size_t>(last.data() + last.size() - from));
        path.resize(Breakdown::kMaxDepth - 1);
        path.push_back(rest);
    }
    return path;
}

} // namespace

BreakdownNode Breakdown::pathTree(const Dump &dump, const std::vector<std::uint32_t> &values,
                                  const std::vector<std::int64_t> &bytes,
                                  const std::function<std::string(std::uint32_t)> &prefix)
{
    TreeBuilder tree;
    for (std::size_t k = 0; k < values.size() && k < bytes.size(); ++k) {
        const std::uint32_t vi = values[k];
        const Value &v = dump.values[vi];
        std::string rest;
        std::vector<std::string_view> path = cutPath(dump, dump.instructionOf(v), rest);
        const std::string first = prefix ? prefix(vi) : std::string();
        if (!first.empty())
            path.insert(path.begin(), first);
        const std::string_view name = dump.valueName(v);
        tree.add(path, nameStem(name), name, vi, bytes[k]);
    }
    return TreeBuilder::freeze(tree.root);
}

Breakdown Breakdown::compute(const Dump &dump, std::int64_t step, std::int32_t memorySpace,
                             const BreakdownOptions &options)
{
    Breakdown b;
    b.step = step;
    b.memorySpace = memorySpace;
    Grouper opName;
    Grouper source;
    Grouper opType;
    Grouper kind;
    Grouper shape;
    // Layout-free shape text per shape id: a few thousand distinct shapes, a million values.
    std::unordered_map<ShapeId, std::string> shapeKey;
    TreeBuilder tree;
    StackTrees stacks(dump, b);
    std::int64_t cutOpNames = 0;
    // By source with library patterns: the row of each stack, found once per innermost frame.
    std::unordered_map<std::uint32_t, std::string> userSourceOf;
    b.live = MemoryTimeline::valuesLiveAt(dump, step, memorySpace);
    b.counted = countedBytes(dump, b.live);
    const std::vector<std::int64_t> &counted = b.counted;
    for (std::size_t li = 0; li < b.live.size(); ++li) {
        const std::uint32_t vi = b.live[li];
        const Value &v = dump.values[vi];
        const std::int64_t bytes = counted[li];
        const Instruction *ins = dump.instructionOf(v);
        const std::string_view name = dump.valueName(v);
        std::string rest; // the segments past kMaxDepth, as one
        const std::vector<std::string_view> path = cutPath(dump, ins, rest);
        if (!rest.empty())
            ++cutOpNames;
        tree.add(path, nameStem(name), name, vi, bytes);
        b.bytes += bytes;
        ++b.valueCount;
        opName.add(ins && ins->opName != kNoString ? std::string(dump.str(ins->opName))
                                                   : std::string(kNoOpName),
                   vi, bytes);
        std::string src;
        if (ins && ins->stackFrame != 0 && !options.libraryPatterns.empty()) {
            auto [it, added] = userSourceOf.try_emplace(ins->stackFrame);
            if (added)
                it->second = userSource(dump, *ins, options.libraryPatterns);
            src = it->second;
        } else if (ins) {
            src = dump.sourceLocation(*ins);
        }
        source.add(src.empty() ? std::string(kNoSource) : src, vi, bytes);
        if (options.callStacks)
            stacks.add(ins, name, vi, bytes);
        opType.add(ins && ins->opType != kNoString ? std::string(dump.str(ins->opType))
                                                   : std::string(kNoOpType),
                   vi, bytes);
        // A donated parameter (also maybe-live-out) is the output written in place: a group of
        // its own, as in the report's kind table.
        const Allocation *alloc = v.allocation == kNone ? nullptr : &dump.allocations[v.allocation];
        kind.add(!alloc ? std::string("unallocated")
                 : alloc->kind == AllocationKind::Parameter && alloc->isMaybeLiveOut
                     ? std::string("parameter → output, donated")
                     : std::string(allocationKindName(alloc->kind)),
                 vi, bytes);
        auto [sk, fresh] = shapeKey.try_emplace(v.shape);
        if (fresh) {
            sk->second = ShapeParser::withoutLayout(dump.shapeText(v));
        }
        shape.add(sk->second, vi, bytes);
    }
    b.byOpName = opName.take();
    b.bySource = source.take();
    b.byOpType = opType.take();
    b.byKind = kind.take();
    b.byShape = shape.take();
    b.opNameTree = TreeBuilder::freeze(tree.root);
    if (options.callStacks)
        stacks.finish();
    b.cutValues = std::max(cutOpNames, stacks.cutValues());
    return b;
}

} // namespace bufferscope
