#include "Parallel.h"

namespace bufferscope {

namespace {
std::atomic<int> g_threadBudget{0};
} // namespace

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

} // namespace bufferscope
