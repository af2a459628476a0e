#include "MemoryAnalysis.h"

namespace bufferscope {

void MemoryAnalysis::Side::add(const Allocation &a)
{
    if (a.isParameter) {
        argument += a.size;
        if (a.isMaybeLiveOut)
            alias += a.size;
    }
    if (a.isMaybeLiveOut)
        output += a.size;
    if (a.isPreallocatedTemp)
        temp += a.size;
    if (a.isConstant)
        constant += a.size;
}

MemoryAnalysis MemoryAnalysis::of(const Dump &dump)
{
    MemoryAnalysis m;
    for (const Allocation &a : dump.allocations)
        (a.color == kHostMemorySpace ? m.host : m.device).add(a);
    return m;
}

std::int64_t MemoryAnalysis::heldBy(const Allocation &a)
{
    if (a.color == kHostMemorySpace)
        return 0;
    Side s;
    s.add(a);
    return s.held();
}

} // namespace bufferscope
