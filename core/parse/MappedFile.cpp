#include "MappedFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bufferscope {

MappedFile::~MappedFile()
{
    if (m_data != nullptr && m_size > 0)
        ::munmap(const_cast<char *>(m_data), m_size);
    if (m_fd >= 0)
        ::close(m_fd);
}

int MappedFile::takeDescriptor()
{
    const int fd = m_fd;
    m_fd = -1;
    return fd;
}

bool MappedFile::open(const std::string &path, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
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
        error = "is not a regular file";
        ::close(fd);
        return false;
    }
    m_mtime = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
    m_size = static_cast<std::size_t>(st.st_size);
    m_fd = fd;
    if (m_size == 0)
        return true;
    void *p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        error = std::string("cannot map the file: ") + std::strerror(errno);
        m_size = 0;
        return false;
    }
    ::madvise(p, m_size, MADV_SEQUENTIAL);
    m_data = static_cast<const char *>(p);
    return true;
}

void MappedFile::releaseBefore(std::size_t offset)
{
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    offset = offset / page * page;
    if (m_data == nullptr || offset <= m_released)
        return;
    ::madvise(const_cast<char *>(m_data) + m_released, offset - m_released, MADV_DONTNEED);
    m_released = offset;
}

void MappedFile::releaseRange(std::size_t begin, std::size_t end) const
{
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    begin = (begin + page - 1) / page * page;
    end = std::min(end, m_size) / page * page;
    if (m_data == nullptr || begin >= end)
        return;
    ::madvise(const_cast<char *>(m_data) + begin, end - begin, MADV_DONTNEED);
}

bool MappedFile::populate(std::size_t begin, std::size_t end) const
{
#ifdef MADV_POPULATE_READ
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    begin = begin / page * page;
    end = std::min(end, m_size);
    if (m_data == nullptr || begin >= end)
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
