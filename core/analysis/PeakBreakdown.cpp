#include "PeakBreakdown.h"

#include "analysis/MemoryTimeline.h"

#include <algorithm>
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

} // namespace

Breakdown Breakdown::compute(const Dump &dump, std::int64_t step, std::int32_t memorySpace)
{
    Breakdown b;
    b.step = step;
    b.memorySpace = memorySpace;
    Grouper opName;
    Grouper source;
    Grouper opType;
    Grouper kind;
    for (std::uint32_t vi : MemoryTimeline::valuesLiveAt(dump, step, memorySpace)) {
        const Value &v = dump.values[vi];
        const Instruction *ins = dump.instructionOf(v);
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
    return b;
}

} // namespace bufferscope
