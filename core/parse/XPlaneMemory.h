#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// One event of an allocator, as the profiler records it on the "/host:CPU" plane of a capture
/// (an event "MemoryAllocation" or "MemoryDeallocation" and its stats; docs/FORMAT.md Part B
/// §18): what it allocated or freed, and what the allocator held after it. 48 bytes: a capture
/// may hold millions. The heap, stack, free bytes and fragmentation after it are kept only
/// for the events that may be the peak (XPlaneMemory::Allocator::peaks).
struct MemoryEvent
{
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
    static constexpr std::uint32_t kMaxModules = (std::uint32_t{1} << 29) - 1;
    /// The largest size an event may report (2^60 bytes); one past it is left out, said.
    static constexpr std::int64_t kMaxSize = std::int64_t{1} << 60;

    std::int64_t timePs = 0; ///< on the capture's clock: its line's timestamp_ns × 1000 + offset
    std::int64_t inUse = 0;  ///< bytes_allocated + bytes_reserved after it: the curve
    std::int64_t requested = 0; ///< requested_bytes
    std::int64_t bytes = 0;     ///< allocation_bytes
    std::uint64_t address = 0;
    /// Its op, region, data type, shape and group_id, into XPlaneMemory::details.
    std::uint32_t detail = 0;
    /// The module whose run on the host the event happened in (an event "jit_f:XLA GPU module",
    /// "PjitFunction(f)" or one with an hlo_module stat of its line around it, the innermost,
    /// else through the links to the thread that handed it the work), into strings; 0: none.
    std::uint32_t module : 29 = 0;
    Made made : 2 = Made::Unknown;
    bool allocation : 1 = true;
};

/// Events in chunks of a fixed size: no reallocation, and no copy, as millions are read.
class MemoryEvents
{
public:
    static constexpr std::size_t kChunk = 8192;
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    MemoryEvent &operator[](std::size_t k) { return m_chunks[k / kChunk][k % kChunk]; }
    const MemoryEvent &operator[](std::size_t k) const { return m_chunks[k / kChunk][k % kChunk]; }
    void push_back(const MemoryEvent &e)
    {
        if (m_size % kChunk == 0)
            m_chunks.push_back(std::make_unique<MemoryEvent[]>(kChunk));
        (*this)[m_size++] = e;
    }
    void clear()
    {
        m_chunks.clear();
        m_size = 0;
    }

private:
    std::vector<std::unique_ptr<MemoryEvent[]>> m_chunks;
    std::size_t m_size = 0;
};

/// The allocators' events of a capture: per allocator (its allocator_name, or the device
/// number of a TPU's HBM), in the order the capture holds them.
struct XPlaneMemory
{
    /// What the allocator held after an event that may be its peak: one with the most bytes
    /// in use read so far, the last (by time, then order) of its line.
    struct PeakCandidate
    {
        std::size_t event = 0;  ///< into events
        std::int64_t heap = 0;  ///< bytes_allocated
        std::int64_t stack = 0; ///< bytes_reserved
        std::int64_t free = 0;  ///< bytes_available
        double fragmentation = 0;
        std::int64_t offsetPs = 0; ///< within its line (the figure XProf orders by)
        std::uint32_t line = 0;    ///< into lines
    };
    struct Allocator
    {
        std::string name;
        MemoryEvents events;
        std::vector<PeakCandidate> peaks; ///< the events with the most in use, at most one a line
        std::int64_t lifetimePeak = 0;    ///< the largest peak_bytes_in_use reported
        std::int64_t lastPeakStat = 0;    ///< that of the last event in the capture's order
    };
    struct Detail
    {
        std::uint32_t op = 0;       ///< tf_op, into strings
        std::uint32_t region = 0;   ///< region_type
        std::uint32_t dataType = 0; ///< data_type, as TensorFlow names it ("float", "INVALID")
        std::uint32_t shape = 0;
        std::int64_t group = -1; ///< group_id (a step), -1 when absent
    };
    std::vector<Allocator> allocators; ///< by name
    std::vector<std::string> lines;    ///< the host plane's line names
    /// Events it could not read whole, said once each kind: "an event without an allocator".
    std::vector<std::string> warnings;
    std::size_t events = 0;                          ///< memory events read, over every allocator
    std::vector<std::string> strings{std::string()}; ///< the events' strings, each once
    std::vector<Detail> details{Detail{}};           ///< the events' details, each once
    const std::string &str(std::uint32_t id) const
    {
        return id < strings.size() ? strings[id] : strings.front();
    }
    const Detail &detail(std::uint32_t id) const
    {
        return id < details.size() ? details[id] : details.front();
    }
    /// An event's step as XProf reads group_id: the group, or -1 where it has none.
    std::int64_t groupOf(const MemoryEvent &e) const { return detail(e.detail).group; }

    /// The events of a capture's bytes; `*error` says why there are none to read (not a
    /// capture, a damaged one, no "/host:CPU" plane). Linear in the bytes; what it keeps is
    /// the events, not the capture. `release(end)` is told, as it goes, that the bytes before
    /// `end` (a pointer into `bytes`) will not be read again.
    static XPlaneMemory read(std::string_view bytes, std::string *error,
                             const std::function<void(const char *)> &release = {});
    /// The same for a capture on disk (compressed or not); a plain one is mapped, not read,
    /// and its pages let go behind the reader.
    static XPlaneMemory readFile(const std::string &capture, std::string *error);
};

} // namespace bufferscope
