#include "Parallel.h"

#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

namespace bufferscope {

namespace {
std::atomic<int> g_threadBudget{0};
} // namespace

void shareMainHeap()
{
#if defined(__GLIBC__)
    ::mallopt(M_ARENA_MAX, 1);
#endif
}

int threadBudget()
{
    return g_threadBudget.load(std::memory_order_relaxed);
}

void setThreadBudget(int threads)
{
    g_threadBudget.store(std::max(threads, 0), std::memory_order_relaxed);
}

int threadsToUse()
{
    const int budget = threadBudget();
    if (budget > 0)
        return budget;
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

bool prefault(const void *data, std::size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    // With one thread there is nothing to gain, and a small array is not worth a thread.
    if (threadsToUse() < 2 || bytes < (std::size_t{4} << 20))
        return false;
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
    const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
    // Halves of whole pages; each thread asks for its own.
    const std::uintptr_t middle = from + (to - from) / 2 / page * page;
    std::atomic<bool> ok{true};
    const auto populate = [&ok](std::uintptr_t begin, std::uintptr_t end) {
        if (end > begin &&
            ::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE) != 0)
            ok = false;
    };
    runBoth([&] { populate(from, middle); }, [&] { populate(middle, to); });
    return ok;
#else
    (void)data;
    (void)bytes;
    return false;
#endif
}

} // namespace bufferscope
