#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace bufferscope {

/// A read-only memory mapping of a whole file. The parser reads the file through one
/// string_view and releases the pages behind its cursor, so resident memory stays small even
/// for multi-GB dumps. A file under kReadBelow is read into memory instead: unmapping it would
/// cost more than reading it (in a process with threads every munmap interrupts the other
/// cores to flush their TLBs, which is most of a small module's cost in a folder's `list`).
class MappedFile
{
public:
    static constexpr std::size_t kReadBelow = std::size_t{1} << 20;

    MappedFile() = default;
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    /// Opens and maps `path`. On failure returns false and sets `error` to a sentence a user
    /// can act on ("no such file", "is a directory", ...).
    bool open(const std::string &path, std::string &error);
    std::string_view data() const { return {m_data, m_size}; }
    std::int64_t size() const { return static_cast<std::int64_t>(m_size); }
    /// Tells the kernel the bytes before `offset` are no longer needed.
    void releaseBefore(std::size_t offset);
    /// Tells the kernel the whole pages inside [begin, end) are no longer needed (a parsed
    /// chunk); safe from any thread. Reading them again brings them back from the page cache.
    void releaseRange(std::size_t begin, std::size_t end) const;
    /// Maps the pages of [begin, end) that are in the page cache now, in one call, instead of a
    /// page fault every 64 KiB as they are read; safe from any thread. Called just before a
    /// stretch is parsed. Returns false, having done nothing, where the kernel cannot (before
    /// Linux 5.14) or the range is empty; the pages then fault in as they are read.
    bool populate(std::size_t begin, std::size_t end) const;
    /// Whether the file became shorter than it was mapped while it was read (a dump still being
    /// written, or replaced): its size now (0 when unknown), or -1 when it did not. The pages
    /// past the new end read as zeros instead of ending the process with SIGBUS.
    std::int64_t shrank() const;
    /// A descriptor of the open file for the caller to keep and close (-1 if none): whoever
    /// holds it can still read the loaded version after the file is deleted or replaced on disk.
    int takeDescriptor();

private:
    int m_fd = -1;
    const char *m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_released = 0;
    int m_guard = -1;               ///< the slot of the SIGBUS guard that covers the mapping
    std::unique_ptr<char[]> m_read; ///< a small file's bytes, read (m_data points here)
};

} // namespace bufferscope
