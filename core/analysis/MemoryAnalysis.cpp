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

std::string MemoryAnalysis::whyHeld(const Side &side)
{
    return "XLA allocates the temp allocation (" + humanBytes(side.temp) +
           ") and the outputs that are not donated parameters (" +
           humanBytes(side.output - side.alias) +
           ") whole when the module starts, beside its arguments (" + humanBytes(side.argument) +
           "); the live bytes are what it uses inside them at one step. This is argument + "
           "output - alias + temp, the figure of JAX's compiled.memory_analysis().";
}

} // namespace bufferscope
