#include "Parallel.h"

#include <algorithm>
#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

namespace bufferscope {

void heapPerCore()
{
#if defined(__GLIBC__)
    ::mallopt(M_ARENA_MAX, 1 + maxThreads());
#endif
}

void keepHeapBetweenLoads()
{
#if defined(__GLIBC__)
    ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
    ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
    // More heaps than heapPerCore allows, before any thread starts: the threads of a list load
    // files of their own.
    ::mallopt(M_ARENA_MAX, 8);
#endif
}

int maxThreads()
{
    // Asked once: glibc reads /sys/devices/system/cpu/online on every call, and a folder's
    // list asks for every module.
    static const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return cores;
}

int threadsFor(int threads)
{
    return threads > 0 ? std::min(threads, maxThreads()) : maxThreads();
}

bool Prefaulter::add(const void *data, std::size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    // With one thread there is nothing to gain, and a small array is not worth a thread.
    if (m_threads < 2 || bytes < (std::size_t{4} << 20))
        return false;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
    const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
    if (to <= from)
        return false;
    m_regions.push_back({from, to, m_slices});
    m_slices += (to - from + kSlice - 1) / kSlice;
    return true;
#else
    (void)data;
    (void)bytes;
    return false;
#endif
}

void Prefaulter::populate(std::size_t slice)
{
#ifdef MADV_POPULATE_WRITE
    auto region = m_regions.begin();
    while (region + 1 != m_regions.end() && (region + 1)->firstSlice <= slice)
        ++region;
    const std::uintptr_t begin = region->begin + (slice - region->firstSlice) * kSlice;
    const std::uintptr_t end = std::min(region->end, begin + kSlice);
    if (::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE) != 0)
        m_ok.store(false, std::memory_order_relaxed);
#else
    (void)slice;
#endif
}

bool Prefaulter::step()
{
    if (m_next.load(std::memory_order_relaxed) >= m_slices)
        return false;
    const std::size_t slice = m_next.fetch_add(1);
    if (slice >= m_slices)
        return false;
    populate(slice);
    return true;
}

bool Prefaulter::finish(int threads)
{
    const std::size_t left = m_slices - std::min(m_slices, m_next.load());
    const auto drain = [this] {
        while (step()) {
        }
    };
    if (left > 0)
        withHelpers(std::min<std::size_t>(left, static_cast<std::size_t>(std::max(threads, 1))) - 1,
                    drain, drain);
    return m_ok.load();
}

} // namespace bufferscope
