#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// One event of an allocator, as the profiler records it on the "/host:CPU" plane of a capture
/// (an event "MemoryAllocation" or "MemoryDeallocation" and its stats; docs/FORMAT.md Part B
/// §18): what the allocator held after it.
struct MemoryEvent
{
    std::int64_t timePs = 0;   ///< on the capture's clock: its line's timestamp_ns × 1000 + offset
    std::int64_t offsetPs = 0; ///< within its line alone (the figure XProf orders by)
    std::int64_t heap = 0;     ///< bytes_allocated
    std::int64_t stack = 0;    ///< bytes_reserved
    std::int64_t free = 0;     ///< bytes_available
    std::int64_t peakInUse = 0; ///< peak_bytes_in_use: the allocator's own lifetime peak
    std::int64_t requested = 0; ///< requested_bytes
    std::int64_t bytes = 0;     ///< allocation_bytes
    double fragmentation = 0;
    std::uint64_t address = 0;
    std::int64_t group = -1; ///< group_id (a step), -1 when absent
    std::uint32_t line = 0;  ///< its line, into XPlaneMemory::lines
    std::uint32_t order = 0; ///< its place in the capture (lines in order, events in order)
    // Its strings, into XPlaneMemory::strings (0: none): a million events name a few ops.
    std::uint32_t op = 0;       ///< tf_op
    std::uint32_t region = 0;   ///< region_type
    std::uint32_t dataType = 0; ///< data_type, as TensorFlow names it ("float", "INVALID")
    std::uint32_t shape = 0;
    /// The module whose run on the host the event happened in (an event "jit_f:XLA GPU module",
    /// "PjitFunction(f)" or one with an hlo_module stat of its line around it, the innermost,
    /// else through the links to the thread that handed it the work), into strings; 0: none.
    std::uint32_t module = 0;
    /// How its module is known: the run around it on its line, a link from the thread that
    /// handed it the work (producer and consumer ids), the size of one of the module's
    /// allocations (RuntimeMemory matches those), or not at all.
    enum class Made : std::uint8_t
    {
        Unknown,
        InRun,
        Linked,
        BySize,
    };
    Made made = Made::Unknown;
    bool allocation = true;
};

/// The allocators' events of a capture: per allocator (its allocator_name, or the device
/// number of a TPU's HBM), in the order the capture holds them.
struct XPlaneMemory
{
    struct Allocator
    {
        std::string name;
        std::vector<MemoryEvent> events;
    };
    std::vector<Allocator> allocators; ///< by name
    std::vector<std::string> lines;    ///< the host plane's line names
    /// Events it could not read whole, said once each kind: "an event without an allocator".
    std::vector<std::string> warnings;
    std::size_t events = 0;                          ///< memory events read, over every allocator
    std::vector<std::string> strings{std::string()}; ///< the events' strings, each once
    const std::string &str(std::uint32_t id) const
    {
        return id < strings.size() ? strings[id] : strings.front();
    }

    /// The events of a capture's bytes; `*error` says why there are none to read (not a
    /// capture, a damaged one, no "/host:CPU" plane). Linear in the bytes; what it keeps is
    /// the events, not the capture.
    static XPlaneMemory read(std::string_view bytes, std::string *error);
    /// The same for a capture on disk (compressed or not).
    static XPlaneMemory readFile(const std::string &capture, std::string *error);
};

} // namespace bufferscope
