#include "MemoryAnalysis.h"

namespace bufferscope {

MemoryAnalysis MemoryAnalysis::of(const Dump &dump)
{
    MemoryAnalysis m;
    for (const Allocation &a : dump.allocations) {
        Side &side = a.color == kHostMemorySpace ? m.host : m.device;
        if (a.isParameter) {
            side.argument += a.size;
            if (a.isMaybeLiveOut)
                side.alias += a.size;
        }
        if (a.isMaybeLiveOut)
            side.output += a.size;
        if (a.isPreallocatedTemp)
            side.temp += a.size;
        if (a.isConstant)
            side.constant += a.size;
    }
    return m;
}

} // namespace bufferscope
