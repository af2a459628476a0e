#pragma once

#include <cstdint>
#include <thread>

namespace bufferscope {

/// What the files being read at one time may become in memory, shared by every thread of the
/// process: a compressed file's expanded bytes, a proto's text. Each read reserves what its file
/// may become (decompress::expandedLimit of its size) before it expands it, keeps what it used
/// and gives that back when it is done; so four bombs read on four threads are counted against
/// one budget, not four. A read that does not fit waits for others to finish. A thread that
/// already holds a reservation never waits for another (a capture's modules are read while the
/// capture is held), so no two reads wait on each other.
class MemoryBudget
{
public:
    /// The most that reservations may hold at once: 2 GiB, the most one file may become.
    static constexpr std::int64_t kProcess = std::int64_t{2} << 30;

    /// Bytes held until destroyed (or moved from).
    class Grant
    {
    public:
        Grant() = default;
        Grant(const Grant &) = delete;
        Grant &operator=(const Grant &) = delete;
        Grant(Grant &&other) noexcept;
        Grant &operator=(Grant &&other) noexcept;
        ~Grant();
        /// Keeps `bytes` (at most what is held) and gives the rest back.
        void keep(std::int64_t bytes);
        std::int64_t bytes() const { return m_bytes < 0 ? 0 : m_bytes; }

    private:
        friend class MemoryBudget;
        Grant(std::int64_t bytes, std::thread::id owner) : m_bytes(bytes), m_owner(owner) {}
        void release();
        std::int64_t m_bytes = -1; ///< -1: holds nothing (moved from, or never granted)
        std::thread::id m_owner;   ///< the thread that reserved it
    };

    /// Reserves `bytes` (at most kProcess), waiting while other threads hold too much.
    static Grant reserve(std::int64_t bytes);

    /// While one lives, no reservation waits: a thread that holds a grant and waits for helper
    /// threads (a capture's modules, read side by side from the capture it holds) would
    /// otherwise wait for helpers that wait for it.
    class Helpers
    {
    public:
        Helpers();
        Helpers(const Helpers &) = delete;
        Helpers &operator=(const Helpers &) = delete;
        ~Helpers();
    };
    /// What reservations hold now (for tests and --verbose).
    static std::int64_t held();
};

} // namespace bufferscope
