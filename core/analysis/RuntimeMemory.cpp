#include "analysis/RuntimeMemory.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace bufferscope {

namespace {

using Row = RuntimeAllocator::Row;

auto rowKey(const Row &r)
{
    return std::make_tuple(-r.bytes, -r.requested, std::cref(r.op), std::cref(r.region),
                           std::cref(r.dataType), std::cref(r.shape));
}

RuntimeAllocator allocatorOf(XPlaneMemory::Allocator &a, const XPlaneMemory &memory)
{
    RuntimeAllocator out;
    out.name = a.name;
    std::vector<MemoryEvent> &events = a.events;
    // The capture's clock; events at one time in the order the capture holds them.
    std::stable_sort(events.begin(), events.end(), [](const MemoryEvent &x, const MemoryEvent &y) {
        return x.timePs < y.timePs;
    });
    // Steps as XProf fills them in: an event without a group is in the step after the last
    // one seen (the first ones in step 0).
    std::vector<std::int64_t> step(events.size(), 0);
    std::int64_t lastStep = -1;
    out.curve.reserve(events.size());
    std::size_t peak = 0;
    for (std::size_t k = 0; k < events.size(); ++k) {
        const MemoryEvent &e = events[k];
        (e.allocation ? out.allocations : out.deallocations)++;
        if (e.group >= 0)
            lastStep = e.group;
        step[k] = e.group >= 0 ? e.group : lastStep + 1;
        const std::int64_t bytes = e.heap + e.stack;
        out.curve.push_back({e.timePs, bytes});
        if (k == 0 || bytes >= out.peakBytes) {
            out.peakBytes = bytes;
            peak = k;
        }
        out.lifetimePeakBytes = std::max(out.lifetimePeakBytes, e.peakInUse);
    }
    if (events.empty())
        return out;
    // XProf's lifetime peak: the stat of the last event it visits, lines in order.
    const auto last = std::max_element(
        events.begin(), events.end(),
        [](const MemoryEvent &x, const MemoryEvent &y) { return x.order < y.order; });
    out.lastPeakStat = last->peakInUse;
    const MemoryEvent &p = events[peak];
    out.peakTimePs = p.timePs;
    out.peakOffsetPs = p.offsetPs;
    out.peakLine = p.line < memory.lines.size() ? memory.lines[p.line] : std::string();
    out.heapBytes = p.heap;
    out.stackBytes = p.stack;
    out.freeBytes = p.free;
    out.fragmentation = p.fragmentation;
    out.capacityBytes = p.heap + p.stack + p.free;
    out.peakStep = step[peak];

    // What is live at the peak, in its step (XProf's ProcessActiveAllocations): allocations
    // not yet freed by the peak's time; the heap they do not account for is unused
    // preallocation, less what was freed of allocations made before the step.
    std::int64_t unmapped = p.heap;
    std::int64_t unmappedFreed = 0;
    std::unordered_map<std::uint64_t, std::size_t> live;
    for (std::size_t k = 0; k < events.size() && events[k].timePs <= p.timePs; ++k) {
        const MemoryEvent &e = events[k];
        if (step[k] != out.peakStep)
            continue;
        if (e.allocation) {
            live[e.address] = k;
            unmapped -= e.bytes;
        } else {
            if (live.erase(e.address) == 0)
                unmappedFreed += e.bytes;
            unmapped += e.bytes;
        }
    }
    unmapped -= unmappedFreed;
    out.liveAtPeak = live.size();
    std::vector<Row> rows;
    rows.reserve(live.size() + 2);
    std::map<std::string, std::int64_t> byModule;
    for (const auto &[address, k] : live) {
        const MemoryEvent &e = events[k];
        Row r{e.bytes,
              e.requested,
              1,
              memory.str(e.op),
              memory.str(e.region),
              memory.str(e.dataType),
              memory.str(e.shape),
              false,
              {}};
        r.madeBy[memory.str(e.module)] = 1;
        byModule[memory.str(e.module)] += e.bytes;
        rows.push_back(std::move(r));
    }
    // The module running at the peak made its plan's buffers; what other modules' runs made
    // and is still live are arrays kept from earlier calls (their outputs).
    const std::string &running = memory.str(p.module);
    out.peakModule = running;
    for (const auto &[module, b] : byModule) {
        if (module.empty())
            continue;
        out.peakParts.push_back(
            {module == running
                 ? "made by the run of " + module + " at the peak (its plan's buffers)"
                 : "kept from an earlier run of " + module + " (its outputs)",
             b, module});
    }
    std::sort(out.peakParts.begin(), out.peakParts.end(),
              [](const RuntimeAllocator::Part &x, const RuntimeAllocator::Part &y) {
                  return x.bytes > y.bytes;
              });
    if (const auto outside = byModule.find(std::string()); outside != byModule.end())
        out.peakParts.push_back({"made outside any module's run (arrays put on the device, "
                                 "or kept from calls before)",
                                 outside->second,
                                 {}});
    if (unmapped != 0)
        out.peakParts.push_back({"not made in the peak's step (the allocator's unused "
                                 "preallocation, and what earlier steps left)",
                                 unmapped,
                                 {}});
    if (p.stack > 0)
        out.peakParts.push_back({"the stack reservation", p.stack, {}});
    if (unmapped > 0)
        rows.push_back({unmapped,
                        unmapped,
                        1,
                        "unused preallocated device memory",
                        "persist/dynamic",
                        "INVALID",
                        "unknown",
                        true,
                        {}});
    if (p.stack > 0)
        rows.push_back({p.stack, p.stack, 1, "stack", "stack", "INVALID", "unknown", true, {}});
    std::sort(rows.begin(), rows.end(),
              [](const Row &x, const Row &y) { return rowKey(x) < rowKey(y); });
    for (Row &r : rows) {
        if (!out.atPeak.empty() && rowKey(out.atPeak.back()) == rowKey(r) &&
            out.atPeak.back().special == r.special) {
            ++out.atPeak.back().count;
            for (const auto &[module, n] : r.madeBy)
                out.atPeak.back().madeBy[module] += n;
            continue;
        }
        out.atPeak.push_back(std::move(r));
    }
    return out;
}

} // namespace

RuntimeMemory RuntimeMemory::of(XPlaneMemory memory)
{
    RuntimeMemory out;
    out.warnings = memory.warnings;
    out.events = memory.events;
    for (XPlaneMemory::Allocator &a : memory.allocators) {
        out.allocators.push_back(allocatorOf(a, memory));
        a.events = {}; // what is kept is the curve and the rows
    }
    return out;
}

} // namespace bufferscope
