#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace bufferscope {

/// The thread count is a parameter of every computation in core/ that splits its work (the
/// parse's ParseOptions::threads, MemoryTimeline::compute, DumpMatch, CoverageSweep): the app
/// decides it once (`--threads N`, else the Preferences setting, else every core) and passes it
/// down. There is no process-wide setting.
///
/// The most threads core/ will use: the number of cores (at least 1).
int maxThreads();
/// The threads a computation asked for `threads` runs on: 0 (the default everywhere) is every
/// core, 1 the serial code paths, and no request gets more than maxThreads(): more threads
/// than cores only add chunks, stacks and heap to the same work (`--threads 1024` on two cores
/// cost 29x the time and 36x the memory).
int threadsFor(int threads);

/// Lets glibc give a heap (an arena) to each of as many threads as there are cores, besides the
/// main one, and no more: the threads that parse, sweep and scan side by side then do not wait
/// on one heap's lock. (Until 2026-11 every thread shared the main heap, because the other
/// arenas were filled in 4 KiB page faults where the main heap gets huge pages; with the app's
/// `glibc.malloc.hugetlb` start and today's parse that no longer pays: `report` on the 1M
/// dump takes the same time or less and 1/5 less CPU with the arenas, despite 4x the faults,
/// and a folder of 5,000 modules is listed in the window in 0.26-0.34 s instead of 0.41-0.43 s;
/// tests/bench/README.md.) Call it first thing in main(), before any thread starts: glibc reads
/// the limit once.
void heapPerCore();
/// Has glibc keep freed memory in the heap (up to 256 MiB) rather than give it back to the
/// kernel at once, serve blocks under 32 MiB from the heap rather than mmap, and allow up to
/// eight heaps: for a run that loads many small modules side by side (`list`), where each
/// load's tables were taken from fresh huge pages the kernel zeroed (a fifth of the time). Not
/// for the window: there the memory a closed dump held must go back.
void keepHeapBetweenLoads();

/// Starts up to `helpers` threads that each run `helper()`, runs `main()` on the calling thread,
/// and returns when all are done: the one place core/ starts threads. Returns how many helpers
/// started; fewer (even none) when the system has no thread to give, so `main` must not count
/// on them. What a helper throws (std::bad_alloc, when a file asks for more memory than there
/// is) is thrown again here, on the calling thread, once every thread is done: it never ends
/// the process from a thread where nothing can catch it.
template <class Helper, class Main>
std::size_t withHelpers(std::size_t helpers, const Helper &helper, const Main &main)
{
    std::vector<std::thread> pool;
    std::mutex failedMutex;
    std::exception_ptr failed;
    const auto keep = [&failedMutex, &failed](std::exception_ptr e) {
        const std::lock_guard lock(failedMutex);
        if (!failed)
            failed = std::move(e);
    };
    try {
        pool.reserve(helpers);
    } catch (const std::bad_alloc &) {
        helpers = 0; // no room for the threads' handles: main does it all
    }
    for (std::size_t t = 0; t < helpers; ++t) {
        try {
            pool.emplace_back([&helper, &keep] {
                try {
                    helper();
                } catch (...) {
                    keep(std::current_exception());
                }
            });
        } catch (const std::system_error &) {
            break; // fewer threads: the ones there are do the work
        }
    }
    try {
        main();
    } catch (...) {
        keep(std::current_exception());
    }
    for (std::thread &t : pool)
        t.join();
    if (failed)
        std::rethrow_exception(failed);
    return pool.size();
}

/// Runs `a` on the calling thread and `b` on a second one, and returns when both are done: the
/// way core/ splits a computation in two (the timeline's sweeps). Background work that outlives
/// a call goes through the app's JobRunner instead. With `threads` resolving to one
/// (threadsFor), or without a thread to be had, `b` runs after `a`, on the calling thread.
template <class A, class B> void runBoth(const A &a, const B &b, int threads)
{
    if (withHelpers(threadsFor(threads) > 1 ? 1 : 0, b, a) == 0)
        b();
}

/// Has the kernel back the whole pages of large arrays with zeroed memory ahead of the thread
/// that fills them, instead of one page fault at a time on that thread: for arrays reserved
/// just before a parse fills them, where zeroing fresh pages was a fifth of a big load. The
/// pages of several regions are faulted in a 2 MiB slice at a time by whichever thread has a
/// moment (the parse's helpers between the stretches they split), the rest at the end by
/// finish(); the contents are untouched. Regions are added before any thread takes a slice;
/// step() and finish() may then run on any threads at once. Nothing is added for a parse on one
/// thread, for less than 4 MiB, or where the kernel cannot (before Linux 5.14): the pages
/// then fault in as usual.
class Prefaulter
{
public:
    static constexpr std::size_t kSlice = std::size_t{2} << 20;

    /// For a computation on `threads` (as threadsFor takes them).
    explicit Prefaulter(int threads) : m_threads(threadsFor(threads)) {}

    /// Adds the whole pages of [data, data + bytes); returns whether they will be faulted in.
    bool add(const void *data, std::size_t bytes);
    /// Faults in the next slice no thread has taken; false when there was none.
    bool step();
    /// Faults in every slice left, on up to `threads` threads; returns whether every
    /// populate call succeeded.
    bool finish(int threads);
    /// Slices taken so far, of all there are (for --verbose).
    std::size_t taken() const { return std::min(m_next.load(), m_slices); }
    std::size_t slices() const { return m_slices; }

private:
    struct Region
    {
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        std::size_t firstSlice = 0;
    };
    void populate(std::size_t slice);

    int m_threads = 1;
    std::vector<Region> m_regions;
    std::size_t m_slices = 0;
    std::atomic<std::size_t> m_next{0};
    std::atomic<bool> m_ok{true};
};

/// Calls `work(i)` for every i in [0, count), on up to `threads` threads (the calling one
/// among them), handing out indices in ascending order as threads come free. Returns when all
/// calls are done; what a call throws is thrown again then (withHelpers).
template <class Work> void parallelFor(std::size_t count, int threads, const Work &work)
{
    std::atomic<std::size_t> next{0};
    const auto drain = [&] {
        for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1))
            work(i);
    };
    const std::size_t helpers =
        std::min<std::size_t>(count, static_cast<std::size_t>(std::max(threads, 1))) - (count > 0);
    withHelpers(helpers, drain, drain);
}

} // namespace bufferscope
