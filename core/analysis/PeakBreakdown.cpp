#include "PeakBreakdown.h"

#include "analysis/MemoryTimeline.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace bufferscope {

namespace {

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
            d.label = std::string(key);
            d.instructions = instructions;
            d.path = instructions || parent.data.path.empty()
                         ? (instructions ? parent.data.path : std::string(key))
                         : parent.data.path + "/" + std::string(key);
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
        if (leaf.data.values == 1)
            leaf.data.label = std::string(name);
        else if (leaf.data.label != name)
            leaf.data.label = std::string(stem) + ".*";
    }
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

} // namespace

const std::vector<BreakdownRow> &Breakdown::rows(Grouping grouping) const
{
    switch (grouping) {
    case Grouping::Source:
        return bySource;
    case Grouping::OpType:
        return byOpType;
    case Grouping::Kind:
        return byKind;
    case Grouping::OpName:
        break;
    }
    return byOpName;
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

Breakdown Breakdown::compute(const Dump &dump, std::int64_t step, std::int32_t memorySpace)
{
    Breakdown b;
    b.step = step;
    b.memorySpace = memorySpace;
    Grouper opName;
    Grouper source;
    Grouper opType;
    Grouper kind;
    TreeBuilder tree;
    b.live = MemoryTimeline::valuesLiveAt(dump, step, memorySpace);
    for (std::uint32_t vi : b.live) {
        const Value &v = dump.values[vi];
        const Instruction *ins = dump.instructionOf(v);
        const std::string_view name = dump.valueName(v);
        tree.add(ins && ins->opName != kNoString ? opNamePath(dump.str(ins->opName))
                                                 : std::vector<std::string_view>{kNoOpName},
                 nameStem(name), name, vi, v.size);
        b.bytes += v.size;
        ++b.valueCount;
        opName.add(ins && ins->opName != kNoString ? std::string(dump.str(ins->opName))
                                                   : std::string(kNoOpName),
                   vi, v.size);
        const std::string src = ins ? dump.sourceLocation(*ins) : std::string();
        source.add(src.empty() ? std::string(kNoSource) : src, vi, v.size);
        opType.add(ins && ins->opType != kNoString ? std::string(dump.str(ins->opType))
                                                   : std::string(kNoOpType),
                   vi, v.size);
        kind.add(v.allocation == kNone
                     ? std::string("unallocated")
                     : std::string(allocationKindName(dump.allocations[v.allocation].kind)),
                 vi, v.size);
    }
    b.byOpName = opName.take();
    b.bySource = source.take();
    b.byOpType = opType.take();
    b.byKind = kind.take();
    b.opNameTree = TreeBuilder::freeze(tree.root);
    return b;
}

} // namespace bufferscope
