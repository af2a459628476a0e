#include "MappedFile.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bufferscope {

namespace {

/// A file that shrinks while it is mapped (a dump still being written, or replaced by a copy)
/// makes the kernel send SIGBUS for the pages past its new end. The mappings being read are
/// listed here; the handler puts a page of zeros where the fault was, notes it, and lets the
/// read go on: the parser meets NUL bytes, and the load then fails with a message
/// (MappedFile::shrank). A SIGBUS anywhere else goes to the handler there was before.
struct GuardSlot
{
    std::atomic<bool> used{false};
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    std::atomic<bool> faulted{false};
};
std::array<GuardSlot, 64> g_guarded;
struct sigaction g_previous
{};
std::uintptr_t g_pageSize = 4096;

void onSigbus(int signal, siginfo_t *info, void *context)
{
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (GuardSlot &slot : g_guarded) {
        const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
        if (begin == 0 || address < begin || address >= slot.end.load(std::memory_order_acquire))
            continue;
        void *page = reinterpret_cast<void *>(address & ~(g_pageSize - 1));
        if (::mmap(page, g_pageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
            MAP_FAILED) {
            slot.faulted.store(true, std::memory_order_release);
            return;
        }
    }
    if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
        g_previous.sa_sigaction(signal, info, context);
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
    } else {
        // Returning re-runs the access, which now ends the process as it would have.
        ::signal(SIGBUS, SIG_DFL);
    }
}

int guard(const void *data, std::size_t size)
{
    static std::once_flag installed;
    std::call_once(installed, [] {
        g_pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        struct sigaction action
        {};
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &g_previous);
    });
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    for (std::size_t i = 0; i < g_guarded.size(); ++i) {
        GuardSlot &slot = g_guarded[i];
        bool expected = false;
        if (!slot.used.compare_exchange_strong(expected, true, std::memory_order_acq_rel))
            continue;
        // The end before the begin: the handler never sees a begin without its end.
        slot.faulted.store(false, std::memory_order_relaxed);
        slot.end.store(begin + size, std::memory_order_release);
        slot.begin.store(begin, std::memory_order_release);
        return static_cast<int>(i);
    }
    spdlog::debug("more than {} files mapped at once: this one is read unguarded",
                  g_guarded.size());
    return -1;
}

} // namespace

MappedFile::~MappedFile()
{
    if (m_guard >= 0) {
        GuardSlot &slot = g_guarded[static_cast<std::size_t>(m_guard)];
        slot.begin.store(0, std::memory_order_release);
        slot.used.store(false, std::memory_order_release);
    }
    if (m_data != nullptr && m_size > 0 && !m_read)
        ::munmap(const_cast<char *>(m_data), m_size);
    if (m_fd >= 0)
        ::close(m_fd);
}

int MappedFile::takeDescriptor()
{
    // A second descriptor of the same open file: this one stays for shrank().
    return m_fd >= 0 ? ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0) : -1;
}

bool MappedFile::open(const std::string &path, std::string &error)
{
    // Non-blocking, so that a FIFO (or a device) named like a dump is refused at once below
    // instead of waiting for a writer forever; it changes nothing for a regular file.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        error = errno == ENOENT ? "no such file" : std::string(std::strerror(errno));
        return false;
    }
    struct stat st
    {};
    if (::fstat(fd, &st) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = "is a directory, not a dump file";
        ::close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        error = S_ISFIFO(st.st_mode)   ? "is a FIFO (a named pipe), not a dump file"
                : S_ISSOCK(st.st_mode) ? "is a socket, not a dump file"
                : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a dump file"
                                                             : "is not a regular file";
        ::close(fd);
        return false;
    }
    m_size = static_cast<std::size_t>(st.st_size);
    m_fd = fd;
    if (m_size == 0)
        return true;
    if (m_size < kReadBelow) {
        // Read whole. A file cut short meanwhile reads as zeros past its new end, as a mapping
        // would, and shrank() says so.
        m_read = std::make_unique_for_overwrite<char[]>(m_size); // every byte written below
        std::size_t got = 0;
        while (got < m_size) {
            const ssize_t n =
                ::pread(fd, m_read.get() + got, m_size - got, static_cast<off_t>(got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                error = std::string("cannot read the file: ") + std::strerror(errno);
                m_read.reset();
                m_size = 0;
                return false;
            }
            if (n == 0)
                break;
            got += static_cast<std::size_t>(n);
        }
        std::memset(m_read.get() + got, 0, m_size - got);
        m_data = m_read.get();
        return true;
    }
    void *p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        error = std::string("cannot map the file: ") + std::strerror(errno);
        m_size = 0;
        return false;
    }
    ::madvise(p, m_size, MADV_SEQUENTIAL);
    m_data = static_cast<const char *>(p);
    m_guard = guard(m_data, m_size);
    return true;
}

std::int64_t MappedFile::shrank() const
{
    const bool faulted = m_guard >= 0 && g_guarded[static_cast<std::size_t>(m_guard)].faulted.load(
                                             std::memory_order_acquire);
    struct stat st
    {};
    const bool smaller =
        m_fd >= 0 && ::fstat(m_fd, &st) == 0 && static_cast<std::size_t>(st.st_size) < m_size;
    if (!faulted && !smaller)
        return -1;
    return smaller ? static_cast<std::int64_t>(st.st_size) : 0;
}

void MappedFile::releaseBefore(std::size_t offset)
{
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    offset = offset / page * page;
    if (m_data == nullptr || m_read || offset <= m_released)
        return;
    ::madvise(const_cast<char *>(m_data) + m_released, offset - m_released, MADV_DONTNEED);
    m_released = offset;
}

void MappedFile::releaseRange(std::size_t begin, std::size_t end) const
{
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    begin = (begin + page - 1) / page * page;
    end = std::min(end, m_size) / page * page;
    if (m_data == nullptr || m_read || begin >= end)
        return;
    ::madvise(const_cast<char *>(m_data) + begin, end - begin, MADV_DONTNEED);
}

bool MappedFile::populate(std::size_t begin, std::size_t end) const
{
#ifdef MADV_POPULATE_READ
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    begin = begin / page * page;
    end = std::min(end, m_size);
    if (m_data == nullptr || m_read || begin >= end)
        return false;
    // A failure (a page that cannot be read) is left to the fault the parse then takes.
    return ::madvise(const_cast<char *>(m_data) + begin, end - begin, MADV_POPULATE_READ) == 0;
#else
    (void)begin;
    (void)end;
    return false;
#endif
}

} // namespace bufferscope
