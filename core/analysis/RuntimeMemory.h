#pragma once

#include "parse/XPlaneMemory.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bufferscope {

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
        /// The modules whose runs made its allocations (XPlaneMemory's attribution), each
        /// with how many; "" for those made outside any module's run.
        std::map<std::string, std::int64_t> madeBy;
    };
    std::vector<Row> atPeak;
    /// What the peak's heap + stack is made of: the bytes each module's runs made that are
    /// live then (in the peak's step), those made outside any module's run, the heap no
    /// event of the step accounts for (the allocator's unused preallocation and what earlier
    /// steps left), and the stack. They add up to the peak where that heap is not negative.
    struct Part
    {
        std::string what;
        std::int64_t bytes = 0;
        std::string module; ///< the module's name, for the parts that are a module's
    };
    std::vector<Part> peakParts;
    std::string peakModule;     ///< the module whose run the peak happened in ("": none)
    std::size_t liveAtPeak = 0; ///< allocations live at the peak (of its step)

    /// Heap + stack after each event, in time order: the curve.
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

    /// O(events log events) per allocator; what it keeps is the curve and the rows.
    static RuntimeMemory of(XPlaneMemory memory);
};

} // namespace bufferscope
