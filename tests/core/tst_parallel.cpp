// core/util/Parallel: the thread budget, runBoth, parallelFor and the Prefaulter, which the
// parser and the timeline lean on.
#include "Resident.h"
#include "Sanitizers.h"
#include "util/MemoryBudget.h"
#include "util/Parallel.h"

#include <QtTest>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>
#include <vector>
#if defined(__GLIBC__)
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#endif

using namespace bufferscope;

namespace {
// One region faulted in at once, on `threads`.
bool prefault(const void *data, std::size_t bytes, int threads)
{
    Prefaulter pages(threads);
    return pages.add(data, bytes) && pages.finish(threadsFor(threads));
}
} // namespace

class TestParallel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { heapPerCore(); } // as main() does, before any thread starts

    // First, before the other tests' threads.
    void heapsAreBoundedByTheCores()
    {
#if defined(BUFFERSCOPE_ASAN) || defined(BUFFERSCOPE_TSAN)
        QSKIP("a sanitizer's allocator replaces glibc's: its heaps are not glibc's arenas");
#elif defined(__GLIBC__)
        // glibc's own report lists a heap per arena. heapPerCore: the threads that allocate side
        // by side get heaps of their own, one per core besides the main one, and no more however
        // many there are.
        const auto heaps = [] {
            char *text = nullptr;
            std::size_t size = 0;
            FILE *report = ::open_memstream(&text, &size);
            if (report == nullptr)
                return qsizetype{-1};
            ::malloc_info(0, report);
            std::fclose(report);
            const qsizetype count =
                QByteArray(text, static_cast<qsizetype>(size)).count("<heap nr=");
            std::free(text);
            return count;
        };
        const qsizetype limit = 1 + maxThreads();
        const int many = 4 * static_cast<int>(limit);
        std::atomic<int> allocated{0};
        std::atomic<bool> done{false};
        std::vector<std::thread> threads;
        for (int i = 0; i < many; ++i)
            threads.emplace_back([&] {
                std::vector<char> mine(1 << 16, 'b');
                ++allocated;
                while (!done.load())
                    std::this_thread::yield();
                QCOMPARE(mine.back(), 'b');
            });
        while (allocated.load() < many)
            std::this_thread::yield();
        const qsizetype during = heaps();
        done = true;
        for (std::thread &t : threads)
            t.join();
        QVERIFY2(during >= 2 && during <= limit,
                 qPrintable(QStringLiteral("%1 heaps, at most %2").arg(during).arg(limit)));
#else
        QSKIP("glibc only: other C libraries' allocators are left as they are");
#endif
    }

    void threadCounts()
    {
        QCOMPARE(threadsFor(1), 1);
        // No more threads than cores (issue 33: --threads 1024 cost 29x the time, 36x the
        // memory on two cores).
        const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
        QCOMPARE(maxThreads(), cores);
        QCOMPARE(threadsFor(1024), cores);
        QCOMPARE(threadsFor(0), cores);  // the default: every core
        QCOMPARE(threadsFor(-4), cores); // no such thing: every core
    }

    void runBothKeepsToTheBudget()
    {
        for (const int budget : {1, 2}) {
            std::thread::id a;
            std::thread::id b;
            runBoth([&] { a = std::this_thread::get_id(); },
                    [&] { b = std::this_thread::get_id(); }, budget);
            QCOMPARE(a, std::this_thread::get_id());
            if (budget == 1)
                QCOMPARE(b, std::this_thread::get_id()); // serial: both on the caller
            else
                QVERIFY(b != std::this_thread::get_id());
        }
    }

    void withHelpersRunsMainHereAndHelpersBeside()
    {
        for (const std::size_t helpers : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
            std::atomic<int> helped{0};
            std::mutex lock;
            std::set<std::thread::id> used;
            std::thread::id mainOn;
            const std::size_t started = withHelpers(
                helpers,
                [&] {
                    helped.fetch_add(1);
                    const std::lock_guard<std::mutex> hold(lock);
                    used.insert(std::this_thread::get_id());
                },
                [&] { mainOn = std::this_thread::get_id(); });
            QCOMPARE(started, helpers); // this machine has threads to give
            QCOMPARE(helped.load(), static_cast<int>(helpers));
            QCOMPARE(mainOn, std::this_thread::get_id());
            QCOMPARE(used.size(), helpers);
            QVERIFY(!used.count(std::this_thread::get_id()));
        }
    }

    // One budget for what the files read at once become, whatever thread reads them.
    void memoryBudgetIsSharedByThreads()
    {
        constexpr std::int64_t GiB = std::int64_t{1} << 30;
        const std::int64_t before = MemoryBudget::held();
        {
            MemoryBudget::Grant big = MemoryBudget::reserve(GiB + GiB / 2);
            QCOMPARE(MemoryBudget::held(), before + GiB + GiB / 2);
            // The thread that holds it is never made to wait for more (no two reads wait on
            // each other); it is counted.
            {
                const MemoryBudget::Grant more = MemoryBudget::reserve(GiB);
                QCOMPARE(MemoryBudget::held(), before + 2 * GiB + GiB / 2);
            }
            // Another thread waits until what it asks fits.
            std::atomic<bool> granted{false};
            std::thread other([&granted] {
                const MemoryBudget::Grant g = MemoryBudget::reserve(std::int64_t{1} << 30);
                granted = true;
            });
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            QVERIFY(!granted);
            big.keep(GiB / 4); // what the read kept: the rest goes back, and the other fits
            other.join();
            QVERIFY(granted);
            QCOMPARE(MemoryBudget::held(), before + GiB / 4);
            // While helpers read for a holder, nobody waits.
            MemoryBudget::Grant all = MemoryBudget::reserve(2 * GiB);
            {
                const MemoryBudget::Helpers helpers;
                std::thread helper([] {
                    const MemoryBudget::Grant g = MemoryBudget::reserve(std::int64_t{1} << 30);
                });
                helper.join();
            }
        }
        QCOMPARE(MemoryBudget::held(), before);
        // A moved grant is given back once.
        {
            MemoryBudget::Grant a = MemoryBudget::reserve(1000);
            MemoryBudget::Grant b = std::move(a);
            QCOMPARE(b.bytes(), std::int64_t{1000});
            QCOMPARE(MemoryBudget::held(), before + 1000);
        }
        QCOMPARE(MemoryBudget::held(), before);
    }

    void parallelForCallsEveryIndexOnce()
    {
        for (const int threads : {1, 2, 3, 7}) {
            for (const std::size_t count :
                 {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{1000}}) {
                std::vector<std::atomic<int>> calls(count);
                std::mutex lock;
                std::set<std::thread::id> used;
                parallelFor(count, threads, [&](std::size_t i) {
                    calls[i].fetch_add(1);
                    const std::lock_guard<std::mutex> hold(lock);
                    used.insert(std::this_thread::get_id());
                });
                for (std::size_t i = 0; i < count; ++i)
                    QCOMPARE(calls[i].load(), 1);
                QVERIFY(used.size() <= static_cast<std::size_t>(threads));
                if (threads == 1 && count > 0) // one thread: the caller's
                    QCOMPARE(*used.begin(), std::this_thread::get_id());
            }
        }
    }

    void prefaultLeavesTheContents()
    {
        // 24 MiB plus a ragged end, from an address that is not on a page boundary: every byte
        // reads back as written, at one thread and at two.
        for (const int budget : {1, 2}) {
            const std::size_t words = (std::size_t{24} << 20) / sizeof(std::uint64_t) + 77;
            std::vector<std::uint64_t> data(words);
            for (std::size_t i = 0; i < words; ++i)
                data[i] = i * 0x9e3779b97f4a7c15ull;
            prefault(reinterpret_cast<const char *>(data.data()) + 13, words * 8 - 13, budget);
            bool same = true;
            for (std::size_t i = 0; i < words && same; ++i)
                same = data[i] == i * 0x9e3779b97f4a7c15ull;
            QVERIFY(same);
            // Reserved, never written memory: what is written after reads back too.
            std::vector<std::uint64_t> fresh;
            fresh.reserve(words);
            prefault(fresh.data(), words * 8, budget);
            for (std::size_t i = 0; i < words; ++i)
                fresh.push_back(~i);
            QCOMPARE(fresh.size(), words);
            QCOMPARE(fresh[words / 2], ~(words / 2));
            // Empty and tiny ranges are nothing to do; nor is anything at one thread.
            QVERIFY(!prefault(nullptr, 0, budget));
            QVERIFY(!prefault(data.data(), 1, budget));
            if (budget == 1)
                QVERIFY(!prefault(data.data(), words * 8, budget));
        }
    }

    void prefaultBacksThePages()
    {
        // 64 MiB reserved and never written is not resident; once prefault says it did its
        // work, it is.
        const std::size_t bytes = std::size_t{64} << 20;
        std::vector<char> fresh;
        fresh.reserve(bytes);
        const std::int64_t before = testutil::residentBytes();
        if (!prefault(fresh.data(), bytes, 2))
            QSKIP("this kernel cannot populate pages ahead (MADV_POPULATE_WRITE, Linux 5.14)");
        const std::int64_t grown = testutil::residentBytes() - before;
        QVERIFY2(grown >= static_cast<std::int64_t>(bytes) * 9 / 10,
                 qPrintable(QStringLiteral("resident memory grew by %1 bytes").arg(grown)));
    }

    void prefaulterSharesTheSlices()
    {
        // Two reserved regions (one ragged), taken a slice at a time by three threads at once
        // and finished by two: every slice once, every page resident, the contents as written.
        const std::size_t big = (std::size_t{24} << 20) + 4096 * 3 + 100;
        const std::size_t small = std::size_t{6} << 20;
        std::vector<char> first;
        std::vector<char> second;
        first.reserve(big);
        second.reserve(small);
        const std::int64_t before = testutil::residentBytes();
        Prefaulter pages(2);
        if (!pages.add(first.data(), big))
            QSKIP("this kernel cannot populate pages ahead (MADV_POPULATE_WRITE, Linux 5.14)");
        QVERIFY(pages.add(second.data(), small));
        QVERIFY(!pages.add(second.data(), 4096)); // under 4 MiB: not worth it
        // 24 MiB + 3 pages in 2 MiB slices is 13 (whole pages only), 6 MiB is 3.
        QCOMPARE(pages.slices(), std::size_t{16});
        std::atomic<int> steps{0};
        parallelFor(3, 3, [&](std::size_t i) {
            for (int k = 0; k < 4 + static_cast<int>(i) && pages.step(); ++k)
                ++steps;
        });
        QCOMPARE(pages.taken(), static_cast<std::size_t>(steps.load()));
        QVERIFY(pages.finish(2));
        QCOMPARE(pages.taken(), pages.slices());
        QVERIFY(!pages.step());
        const std::int64_t grown = testutil::residentBytes() - before;
        QVERIFY2(grown >= static_cast<std::int64_t>(big + small) * 9 / 10,
                 qPrintable(QStringLiteral("resident memory grew by %1 bytes").arg(grown)));
        first.assign(big, 'a');
        second.assign(small, 'b');
        QCOMPARE(first[big - 1], 'a');
        QCOMPARE(second[small / 2], 'b');
        // At one thread nothing is added, and finishing nothing is a success.
        Prefaulter none(1);
        QVERIFY(!none.add(first.data(), big));
        QCOMPARE(none.slices(), std::size_t{0});
        QVERIFY(none.finish(1));
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
