#pragma once

#include "analysis/MemoryAnalysis.h"
#include "parse/XPlaneMemory.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bufferscope {

/// A module's plan as its buffer assignment gives it (MemoryAnalysis), for the runtime's
/// allocations to be joined to: what it holds while it runs and the allocations the runtime
/// makes for it when it starts (the temp, and the outputs that are not donated parameters),
/// device memory and host memory (S(5)) apart.
struct ModulePlan
{
    std::string name;   ///< the module ("jit_f"), as the capture's events name it
    std::string member; ///< the capture's member it was read from ("jit_f(12)")
    MemoryAnalysis::Side device;
    MemoryAnalysis::Side host;
    struct Buffer
    {
        std::int64_t index = 0; ///< the buffer allocation's index
        std::int64_t size = 0;
    };
    std::vector<Buffer> deviceBuffers; ///< the allocations made when it starts
    std::vector<Buffer> hostBuffers;

    /// The plans of a capture's modules, one per compile (a name may have several); a
    /// module that does not load is named in `*warnings` and left out.
    static std::vector<ModulePlan> ofCapture(const std::string &capture,
                                             std::vector<std::string> *warnings);
};

/// What an allocator really did over a profiled capture (docs/FORMAT.md Part B §18): its bytes
/// in use over time, its peak and what was live then, as XProf's Memory Profile computes them
/// (xprof/convert/xplane_to_memory_profile.cc) — except that events are ordered by the
/// capture's clock (each line's start plus the event's offset), where XProf orders them by
/// their offset within their own line, and the lifetime peak is the largest the allocator
/// reported, where XProf takes the last event's.
struct RuntimeAllocator
{
    std::string name;
    std::size_t allocations = 0;
    std::size_t deallocations = 0;
    /// The peak: the event with the most heap + stack (the last of a tie, in time order).
    std::int64_t peakBytes = 0;
    std::int64_t peakTimePs = -1;   ///< on the capture's clock
    std::int64_t peakOffsetPs = -1; ///< within its line (XProf's figure)
    std::string peakLine;
    std::int64_t heapBytes = 0;         ///< at the peak
    std::int64_t stackBytes = 0;        ///< at the peak
    std::int64_t freeBytes = 0;         ///< at the peak
    double fragmentation = 0;           ///< at the peak
    std::int64_t capacityBytes = 0;     ///< heap + stack + free at the peak
    std::int64_t lifetimePeakBytes = 0; ///< the largest peak_bytes_in_use reported
    std::int64_t lastPeakStat = 0;      ///< the last event's peak_bytes_in_use (XProf's figure)
    std::int64_t peakStep = 0;          ///< XProf's step of the peak (group_id, filled in)

    /// The allocations live at the peak, as XProf's table groups them: identical rows (bytes,
    /// requested, op, region, data type, shape) merged with their count, the largest first;
    /// the heap the events do not account for as "unused preallocated device memory" and the
    /// stack reservation as "stack".
    struct Row
    {
        std::int64_t bytes = 0;
        std::int64_t requested = 0;
        std::int64_t count = 1;
        std::string op;
        std::string region;
        std::string dataType;
        std::string shape;
        bool special = false; ///< the unused preallocation or the stack, not an allocation
        /// Who made its allocations, each with how many: the module whose run made them
        /// (XPlaneMemory's attribution), else the one module with an allocation of exactly
        /// their requested size; module "" and Made::Unknown for those not attributed.
        struct Maker
        {
            std::string module;
            MemoryEvent::Made made = MemoryEvent::Made::Unknown;
            std::string member;           ///< the capture's member of its plan, when known
            std::int64_t allocation = -1; ///< its plan's allocation of that size, when one
            std::int64_t count = 0;
            int plan = -1; ///< its compile, into RuntimeMemory::plans, when known
        };
        std::vector<Maker> madeBy;
        std::int64_t madeByCount(const std::string &module) const
        {
            std::int64_t n = 0;
            for (const Maker &m : madeBy)
                n += m.module == module ? m.count : 0;
            return n;
        }
    };
    std::vector<Row> atPeak;
    /// What the peak's heap + stack is made of: the bytes each module's runs made that are
    /// live then (in the peak's step), those made outside any module's run, the heap no
    /// event of the step accounts for (the allocator's unused preallocation and what earlier
    /// steps left), and the stack. They add up to the peak where that heap is not negative.
    struct Part
    {
        enum class Kind : std::uint8_t
        {
            Running,   ///< made by the run of the module running at the peak
            Kept,      ///< made by an earlier run of another module
            BySize,    ///< made outside any run, the size of one module's allocation
            Outside,   ///< made outside any run, not attributed
            NotInStep, ///< heap no event of the peak's step accounts for
            Stack,     ///< the stack reservation
        };
        Kind kind = Kind::Outside;
        std::string what;
        std::int64_t bytes = 0;
        std::string module; ///< the module's name, for the parts that are a module's
        /// Beside a module's part, its plan: what its run allocates (output − alias + temp)
        /// for the module running at the peak, its outputs (output − alias) for a module
        /// whose earlier runs left arrays; -1 where the capture holds no plan of it.
        std::int64_t planned = -1;
        std::int64_t arguments = -1; ///< the running module's planned arguments, else -1
        int plan = -1;               ///< the compile beside it, into RuntimeMemory::plans
        /// The compiles of `module` the capture holds: 0 where it holds no buffer assignment
        /// of it; more than 0 with `planned` -1 where none has an allocation of these sizes.
        int compiles = 0;
    };
    std::vector<Part> peakParts;
    std::string peakModule;     ///< the module whose run the peak happened in ("": none)
    int peakPlan = -1;          ///< its plan, into RuntimeMemory::plans; -1: none
    std::size_t liveAtPeak = 0; ///< allocations live at the peak (of its step)

    /// Heap + stack after each event, in time order: the curve; of more than kCurvePoints
    /// events, each point the most of the run of events it stands for (no peak is lost).
    static constexpr std::size_t kCurvePoints = std::size_t{1} << 17;
    struct Point
    {
        std::int64_t timePs = 0;
        std::int64_t bytes = 0;
    };
    std::vector<Point> curve;
};

struct RuntimeMemory
{
    std::vector<RuntimeAllocator> allocators; ///< by name
    std::vector<std::string> warnings;
    std::size_t events = 0;
    std::vector<ModulePlan> plans; ///< the capture's modules' plans the events were joined to

    /// O(events log events) per allocator; what it keeps is the curve and the rows. With
    /// `plans`, the allocations live at each peak that no run made are matched by size, and
    /// each module's part of the peak has its plan beside it.
    static RuntimeMemory of(XPlaneMemory memory, std::vector<ModulePlan> plans = {});
    /// A capture on disk: its allocators' events (XPlaneMemory::readFile) joined to its
    /// modules' plans (ModulePlan::ofCapture); `*error` says why there are no events.
    static RuntimeMemory readCapture(const std::string &capture, std::string *error);
    /// The allocator that peaked highest (the device's, not the host's), the first of a tie;
    /// -1 when there is none.
    int largest() const;
};

} // namespace bufferscope
