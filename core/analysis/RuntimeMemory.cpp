#include "analysis/RuntimeMemory.h"

#include "analysis/MemoryAnalysis.h"
#include "parse/XPlaneModules.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>
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

constexpr std::int64_t kHuge = std::numeric_limits<std::int64_t>::max();

/// a + b, held at the int64 range: sizes from a lying file never wrap.
std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return b > 0 ? kHuge : std::numeric_limits<std::int64_t>::min();
    return sum;
}

/// Whether an allocator hands out host memory (XLA:GPU's pinned host allocator
/// "xla_gpu_host_bfc", TensorFlow's "cuda_host_bfc"): its plans are the modules' S(5) side.
bool isHostAllocator(std::string_view name)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("host") != std::string::npos;
}

/// The plans by name, and their allocations by size, of one side (device or host memory),
/// for the joins. A name may have several compiles.
struct Plans
{
    const std::vector<ModulePlan> &all;
    bool host = false;
    std::unordered_map<std::string, std::vector<int>> byName;
    /// Size -> the plans with an allocation of that size (each once) and its first such.
    std::unordered_map<std::int64_t, std::vector<std::pair<int, std::int64_t>>> bySize;

    Plans(const std::vector<ModulePlan> &plans, bool hostSide) : all(plans), host(hostSide)
    {
        for (std::size_t k = 0; k < plans.size(); ++k) {
            byName[plans[k].name].push_back(static_cast<int>(k));
            for (const ModulePlan::Buffer &b : buffers(plans[k])) {
                auto &list = bySize[b.size];
                if (list.empty() || list.back().first != static_cast<int>(k))
                    list.emplace_back(static_cast<int>(k), b.index);
            }
        }
    }
    const std::vector<ModulePlan::Buffer> &buffers(const ModulePlan &p) const
    {
        return host ? p.hostBuffers : p.deviceBuffers;
    }
    const MemoryAnalysis::Side &side(const ModulePlan &p) const { return host ? p.host : p.device; }
    const std::vector<int> *compiles(const std::string &name) const
    {
        const auto at = byName.find(name);
        return at == byName.end() ? nullptr : &at->second;
    }
    /// The plan's allocation of `size`, -1 when it has none.
    std::int64_t allocationOf(const ModulePlan &plan, std::int64_t size) const
    {
        for (const ModulePlan::Buffer &b : buffers(plan))
            if (b.size == size && size > 0)
                return b.index;
        return -1;
    }
    /// Who made an allocation: the module its events name (the compile of that name with an
    /// allocation of its size), else the one module with an allocation of exactly the bytes
    /// it asked for (or got), else nobody known.
    Row::Maker maker(const std::string &module, MemoryEvent::Made made, std::int64_t requested,
                     std::int64_t bytes) const
    {
        Row::Maker m{module, made, {}, -1, 0, -1};
        if (!module.empty()) {
            const std::vector<int> *named = compiles(module);
            if (!named)
                return m;
            for (const std::int64_t size : {requested, bytes})
                for (const int k : *named) {
                    const ModulePlan &p = all[static_cast<std::size_t>(k)];
                    if (const std::int64_t index = allocationOf(p, size); index >= 0) {
                        m.member = p.member;
                        m.allocation = index;
                        m.plan = k;
                        return m;
                    }
                }
            m.member = all[static_cast<std::size_t>(named->front())].member;
            if (named->size() == 1)
                m.plan = named->front();
            return m;
        }
        for (const std::int64_t size : {requested, bytes}) {
            const auto at = bySize.find(size);
            if (at == bySize.end() || size <= 0)
                continue;
            // One module's, though it may be several of its compiles.
            const ModulePlan &first = all[static_cast<std::size_t>(at->second.front().first)];
            for (const auto &[k, index] : at->second)
                if (all[static_cast<std::size_t>(k)].name != first.name)
                    return m; // several modules have one of that size: none is the one
            return {first.name, MemoryEvent::Made::BySize, first.member, at->second.front().second,
                    0,          at->second.front().first};
        }
        return m;
    }
};

RuntimeAllocator allocatorOf(XPlaneMemory::Allocator &a, const XPlaneMemory &memory,
                             const std::vector<ModulePlan> &all)
{
    const Plans plans(all, isHostAllocator(a.name));
    RuntimeAllocator out;
    out.name = a.name;
    out.lifetimePeakBytes = a.lifetimePeak;
    out.lastPeakStat = a.lastPeakStat; // XProf's figure: the last event it visits
    const MemoryEvents &events = a.events;
    if (events.empty())
        return out;
    // The capture's clock; events at one time in the order the capture holds them. An index
    // is sorted, not the events: 4 bytes an event.
    std::vector<std::uint32_t> order(events.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = static_cast<std::uint32_t>(k);
    std::sort(order.begin(), order.end(), [&events](std::uint32_t x, std::uint32_t y) {
        return std::tie(events[x].timePs, x) < std::tie(events[y].timePs, y);
    });
    // The peak: of the events with the most in use (the reader kept the last of each line),
    // the last on the clock.
    const XPlaneMemory::PeakCandidate *pc = nullptr;
    for (const XPlaneMemory::PeakCandidate &c : a.peaks)
        if (!pc || std::tie(events[c.event].timePs, c.event) >
                       std::tie(events[pc->event].timePs, pc->event))
            pc = &c;
    const MemoryEvent &p = events[pc->event];
    out.peakBytes = p.inUse;
    out.peakTimePs = p.timePs;
    out.peakOffsetPs = pc->offsetPs;
    out.peakLine = pc->line < memory.lines.size() ? memory.lines[pc->line] : std::string();
    out.heapBytes = pc->heap;
    out.stackBytes = pc->stack;
    out.freeBytes = pc->free;
    out.fragmentation = pc->fragmentation;
    out.capacityBytes = saturatingAdd(saturatingAdd(pc->heap, pc->stack), pc->free);

    // Steps as XProf fills them in: an event without a group is in the step after the last
    // one seen (the first ones in step 0). The curve, at most kCurvePoints: each point the
    // most of the run of events it stands for (the last of a tie), so no peak is lost.
    const std::size_t bucket =
        (events.size() + RuntimeAllocator::kCurvePoints - 1) / RuntimeAllocator::kCurvePoints;
    out.curve.reserve(std::min(events.size(), RuntimeAllocator::kCurvePoints));
    std::int64_t lastStep = -1;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::uint32_t i = order[k];
        const MemoryEvent &e = events[i];
        (e.allocation ? out.allocations : out.deallocations)++;
        const std::int64_t group = memory.groupOf(e);
        if (group >= 0)
            lastStep = group;
        if (i == pc->event)
            out.peakStep = group >= 0 ? group : lastStep + 1;
        if (k % bucket == 0)
            out.curve.push_back({e.timePs, e.inUse});
        else if (e.inUse >= out.curve.back().bytes)
            out.curve.back() = {e.timePs, e.inUse};
    }

    // What is live at the peak, in its step (XProf's ProcessActiveAllocations): allocations
    // not yet freed by the peak's time; the heap they do not account for is unused
    // preallocation, less what was freed of allocations made before the step.
    std::int64_t unmapped = pc->heap;
    std::int64_t unmappedFreed = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> live;
    lastStep = -1;
    for (std::size_t k = 0; k < order.size() && events[order[k]].timePs <= p.timePs; ++k) {
        const MemoryEvent &e = events[order[k]];
        const std::int64_t group = memory.groupOf(e);
        if (group >= 0)
            lastStep = group;
        if ((group >= 0 ? group : lastStep + 1) != out.peakStep)
            continue;
        if (e.allocation) {
            live[e.address] = order[k];
            unmapped = saturatingAdd(unmapped, -std::max<std::int64_t>(e.bytes, -kHuge));
        } else {
            if (live.erase(e.address) == 0)
                unmappedFreed = saturatingAdd(unmappedFreed, e.bytes);
            unmapped = saturatingAdd(unmapped, e.bytes);
        }
    }
    unmapped = saturatingAdd(unmapped, -std::max<std::int64_t>(unmappedFreed, -kHuge));
    out.liveAtPeak = live.size();
    std::vector<Row> rows;
    rows.reserve(live.size() + 2);
    // The bytes each module's runs made, and apart, those only their size matches to one.
    std::map<std::pair<std::string, bool>, std::int64_t> byModule;
    std::map<std::string, std::map<int, int>> planVotes; ///< module -> compile -> its rows
    for (const auto &[address, k] : live) {
        const MemoryEvent &e = events[k];
        const XPlaneMemory::Detail &d = memory.detail(e.detail);
        Row r{e.bytes,
              e.requested,
              1,
              memory.str(d.op),
              memory.str(d.region),
              memory.str(d.dataType),
              memory.str(d.shape),
              false,
              {}};
        Row::Maker maker = plans.maker(memory.str(e.module), e.made, e.requested, e.bytes);
        std::int64_t &made = byModule[{maker.module, maker.made == MemoryEvent::Made::BySize}];
        made = saturatingAdd(made, e.bytes);
        if (maker.plan >= 0 && maker.made != MemoryEvent::Made::BySize)
            ++planVotes[maker.module][maker.plan];
        maker.count = 1;
        r.madeBy.push_back(std::move(maker));
        rows.push_back(std::move(r));
    }
    // The module running at the peak made its plan's buffers; what other modules' runs made
    // and is still live are arrays kept from earlier calls (their outputs).
    const std::string &running = memory.str(p.module);
    out.peakModule = running;
    // A module's compile: the one its live allocations' sizes match most, or its only one.
    const auto planOf = [&](const std::string &module) {
        if (const auto votes = planVotes.find(module); votes != planVotes.end()) {
            const auto best =
                std::max_element(votes->second.begin(), votes->second.end(),
                                 [](const auto &x, const auto &y) { return x.second < y.second; });
            return best->first;
        }
        const std::vector<int> *named = plans.compiles(module);
        return named && named->size() == 1 ? named->front() : -1;
    };
    out.peakPlan = running.empty() ? -1 : planOf(running);
    for (const auto &[key, b] : byModule) {
        const auto &[module, bySize] = key;
        if (module.empty())
            continue;
        const std::vector<int> *named = plans.compiles(module);
        const int compiles = named ? static_cast<int>(named->size()) : 0;
        if (bySize) {
            RuntimeAllocator::Part part{RuntimeAllocator::Part::Kind::BySize,
                                        "made outside any module's run, each the size of an "
                                        "allocation of " +
                                            module + " (likely its outputs, kept)",
                                        b, module};
            part.compiles = compiles;
            out.peakParts.push_back(std::move(part));
            continue;
        }
        RuntimeAllocator::Part part{
            module == running ? RuntimeAllocator::Part::Kind::Running
                              : RuntimeAllocator::Part::Kind::Kept,
            module == running ? "made by the run of " + module + " at the peak (its plan's buffers)"
                              : "kept from an earlier run of " + module + " (its outputs)",
            b, module};
        part.compiles = compiles;
        if (const int plan = planOf(module); plan >= 0) {
            const MemoryAnalysis::Side &m = plans.side(plans.all[static_cast<std::size_t>(plan)]);
            part.planned = module == running ? m.output - m.alias + m.temp : m.output - m.alias;
            if (module == running)
                part.arguments = m.argument;
            part.plan = plan;
        }
        out.peakParts.push_back(std::move(part));
    }
    std::stable_sort(out.peakParts.begin(), out.peakParts.end(),
                     [](const RuntimeAllocator::Part &x, const RuntimeAllocator::Part &y) {
                         return x.bytes > y.bytes;
                     });
    if (const auto outside = byModule.find({std::string(), false}); outside != byModule.end())
        out.peakParts.push_back({RuntimeAllocator::Part::Kind::Outside,
                                 "made outside any module's run, not attributed (arrays put on "
                                 "the device, or kept from calls before)",
                                 outside->second,
                                 {}});
    if (unmapped != 0)
        out.peakParts.push_back({RuntimeAllocator::Part::Kind::NotInStep,
                                 "not made in the peak's step (the allocator's unused "
                                 "preallocation, and what earlier steps left)",
                                 unmapped,
                                 {}});
    if (pc->stack > 0)
        out.peakParts.push_back(
            {RuntimeAllocator::Part::Kind::Stack, "the stack reservation", pc->stack, {}});
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
    if (pc->stack > 0)
        rows.push_back({pc->stack, pc->stack, 1, "stack", "stack", "INVALID", "unknown", true, {}});
    std::sort(rows.begin(), rows.end(),
              [](const Row &x, const Row &y) { return rowKey(x) < rowKey(y); });
    for (Row &r : rows) {
        if (!out.atPeak.empty() && rowKey(out.atPeak.back()) == rowKey(r) &&
            out.atPeak.back().special == r.special) {
            Row &merged = out.atPeak.back();
            ++merged.count;
            std::move(r.madeBy.begin(), r.madeBy.end(), std::back_inserter(merged.madeBy));
            continue;
        }
        out.atPeak.push_back(std::move(r));
    }
    // Each row's makers, one per (module, how, allocation) with their counts: sorted, then
    // merged (n log n, however many modules a capture names).
    const auto makerKey = [](const Row::Maker &m) {
        return std::tie(m.module, m.made, m.allocation);
    };
    for (Row &r : out.atPeak) {
        std::sort(r.madeBy.begin(), r.madeBy.end(), [&](const Row::Maker &x, const Row::Maker &y) {
            return makerKey(x) < makerKey(y);
        });
        std::vector<Row::Maker> merged;
        merged.reserve(r.madeBy.size());
        for (Row::Maker &m : r.madeBy) {
            if (!merged.empty() && makerKey(merged.back()) == makerKey(m))
                merged.back().count += m.count;
            else
                merged.push_back(std::move(m));
        }
        r.madeBy = std::move(merged);
    }
    return out;
}

} // namespace

std::vector<ModulePlan> ModulePlan::ofCapture(const std::string &capture,
                                              std::vector<std::string> *warnings)
{
    std::vector<ModulePlan> out;
    const XPlaneModules::Index index = XPlaneModules::index(capture);
    if (!index.error.empty()) {
        warnings->push_back("the capture's modules: " + index.error);
        return out;
    }
    for (const XPlaneModules::Found &found : index.modules) {
        const LoadResult loaded = XPlaneModules::load(index, found.module.name);
        if (!loaded.ok()) {
            warnings->push_back(
                "the module " + found.module.name +
                " of the capture does not load, so its plan is not known: " + loaded.error);
            continue;
        }
        const MemoryAnalysis figures = MemoryAnalysis::of(*loaded.dump);
        ModulePlan plan;
        // XProf names a module "<name>(<program id>)"; its events name it "<name>".
        const std::string &member = found.module.name;
        const std::size_t open = member.rfind('(');
        plan.name = open != std::string::npos && open > 0 && member.ends_with(")")
                        ? member.substr(0, open)
                        : member;
        plan.member = member;
        plan.device = figures.device;
        plan.host = figures.host;
        for (const Allocation &a : loaded.dump->allocations)
            if ((a.isMaybeLiveOut && !a.isParameter) || a.isPreallocatedTemp)
                (a.color == MemoryAnalysis::kHostMemorySpace ? plan.hostBuffers
                                                             : plan.deviceBuffers)
                    .push_back({a.index, a.size});
        out.push_back(std::move(plan));
    }
    return out;
}

int RuntimeMemory::largest() const
{
    int best = -1;
    for (std::size_t i = 0; i < allocators.size(); ++i)
        if (best < 0 ||
            allocators[i].peakBytes > allocators[static_cast<std::size_t>(best)].peakBytes)
            best = static_cast<int>(i);
    return best;
}

RuntimeMemory RuntimeMemory::of(XPlaneMemory memory, std::vector<ModulePlan> plans)
{
    RuntimeMemory out;
    out.warnings = memory.warnings;
    out.events = memory.events;
    out.plans = std::move(plans);
    for (XPlaneMemory::Allocator &a : memory.allocators) {
        out.allocators.push_back(allocatorOf(a, memory, out.plans));
        a.events.clear(); // what is kept is the curve and the rows
    }
    return out;
}

RuntimeMemory RuntimeMemory::readCapture(const std::string &capture, std::string *error)
{
    XPlaneMemory events = XPlaneMemory::readFile(capture, error);
    if (!error->empty())
        return {};
    std::vector<ModulePlan> plans = ModulePlan::ofCapture(capture, &events.warnings);
    return of(std::move(events), std::move(plans));
}

} // namespace bufferscope
