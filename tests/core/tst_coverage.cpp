// The live-bytes sweep (docs/FORMAT.md Part A: per allocation, the union of the live values' byte
// ranges) against a brute force written here: at every step, sort the live ranges and measure
// their union. Random box sets of every shape, swept whole and cut into slabs.
#include "analysis/CoverageSweep.h"
#include "util/Parallel.h"

#include <QScopeGuard>
#include <QTest>

#include <algorithm>
#include <array>
#include <limits>
#include <random>

using namespace bufferscope;

namespace {

struct Expected
{
    std::vector<std::int64_t> covered; ///< per step 0..steps
    CoverageSweep::Largest largest;
};

Expected bruteForce(const std::vector<LiveBox> &boxes, std::size_t steps)
{
    Expected e;
    e.covered.assign(steps + 1, 0);
    for (std::size_t t = 0; t <= steps; ++t) {
        std::vector<std::pair<std::int64_t, std::int64_t>> live;
        for (const LiveBox &b : boxes) {
            if (b.start <= static_cast<std::int64_t>(t) && static_cast<std::int64_t>(t) <= b.end)
                live.emplace_back(b.offset, b.offset + b.size);
        }
        std::sort(live.begin(), live.end());
        std::int64_t total = 0;
        std::int64_t reach = std::numeric_limits<std::int64_t>::min();
        for (const auto &[from, to] : live) {
            if (to <= reach)
                continue;
            total += to - std::max(from, reach);
            reach = to;
        }
        e.covered[t] = total;
        if (t < steps && total > e.largest.bytes)
            e.largest = {total, static_cast<std::int64_t>(t)};
    }
    return e;
}

enum class Kind
{
    Disjoint,   ///< no two boxes share a byte
    Heap,       ///< bytes reused over time; chains touch at one step (in-place ops)
    Arbitrary,  ///< anything overlaps (damaged or hostile input)
    SameOffset, ///< every box starts at byte 0 (no median to cut at)
    Wide        ///< a few boxes span most of the allocation, across any cut
};

std::vector<LiveBox> makeBoxes(Kind kind, std::size_t n, std::size_t steps, std::uint32_t seed)
{
    std::mt19937_64 rng(seed);
    auto uniform = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    const auto last = static_cast<std::int64_t>(steps) - 1; // a range may end at the last step
    std::vector<LiveBox> boxes;
    std::int64_t cursor = 0;
    for (std::size_t k = 0; k < n; ++k) {
        LiveBox b;
        b.start = uniform(0, last);
        b.end = std::min(last, b.start + uniform(0, 20));
        switch (kind) {
        case Kind::Disjoint:
            b.offset = cursor + uniform(0, 3);
            b.size = uniform(1, 64);
            cursor = b.offset + b.size;
            break;
        case Kind::Heap: {
            // Slots of 32 bytes; a slot's values follow each other in time, the next starting
            // where the previous ends (sharing that step) or later.
            const std::int64_t slot = static_cast<std::int64_t>(k % 64);
            b.offset = slot * 32 + uniform(0, 8);
            b.size = uniform(1, 24);
            const std::int64_t round = static_cast<std::int64_t>(k / 64);
            b.start = std::min(last, round * 3 + uniform(0, 1));
            b.end = std::min(last, b.start + uniform(0, 3));
            break;
        }
        case Kind::Arbitrary:
            b.offset = uniform(0, 4000);
            b.size = uniform(1, 500);
            break;
        case Kind::SameOffset:
            b.offset = 0;
            b.size = uniform(1, 1000);
            break;
        case Kind::Wide:
            b.offset = k % 50 == 0 ? uniform(0, 100) : uniform(0, 10000);
            b.size = k % 50 == 0 ? uniform(5000, 10000) : uniform(1, 100);
            break;
        }
        boxes.push_back(b);
    }
    return boxes;
}

} // namespace

class TestCoverage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesBruteForce_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("splitFrom");
        const struct
        {
            const char *name;
            Kind kind;
        } kinds[] = {{"disjoint", Kind::Disjoint},
                     {"heap", Kind::Heap},
                     {"arbitrary", Kind::Arbitrary},
                     {"same offset", Kind::SameOffset},
                     {"wide", Kind::Wide}};
        for (const auto &k : kinds) {
            for (const int split : {0, 1, 2}) {
                // 0: the default threshold (these sets are below it, so swept whole);
                // 1 and 2: always cut into slabs.
                const int splitFrom =
                    split == 0 ? static_cast<int>(CoverageSweep::kDefaultSplitFrom) : split;
                for (const auto &[count, steps] :
                     {std::pair{1, 1}, {7, 3}, {3000, 200}, {3000, 5000}}) {
                    QTest::addRow("%s, %d boxes, %d steps, split from %d", k.name, count, steps,
                                  splitFrom)
                        << static_cast<int>(k.kind) << count << steps << splitFrom;
                }
            }
        }
    }
    void matchesBruteForce()
    {
        QFETCH(int, kind);
        QFETCH(int, count);
        QFETCH(int, steps);
        QFETCH(int, splitFrom);
        // The thread count sets the number of slabs (two per thread): 2, 4, 6 and 14.
        for (std::uint32_t seed = 1; seed <= 4; ++seed) {
            const int budget = std::array{1, 2, 3, 7}[seed - 1];
            std::vector<LiveBox> boxes =
                makeBoxes(static_cast<Kind>(kind), static_cast<std::size_t>(count),
                          static_cast<std::size_t>(steps), seed);
            const Expected expected = bruteForce(boxes, static_cast<std::size_t>(steps));
            std::vector<std::int64_t> delta(static_cast<std::size_t>(steps) + 1, 0);
            CoverageSweep::Scratch scratch;
            const CoverageSweep::Largest largest =
                CoverageSweep::run(boxes, static_cast<std::size_t>(steps), delta, scratch,
                                   static_cast<std::size_t>(splitFrom), budget);
            std::int64_t running = 0;
            for (std::size_t t = 0; t < delta.size(); ++t) {
                running += delta[t];
                if (running != expected.covered[t])
                    QFAIL(qPrintable(QStringLiteral("seed %1 (%5 threads) step %2: swept %3 "
                                                    "bytes, brute force %4")
                                         .arg(seed)
                                         .arg(t)
                                         .arg(running)
                                         .arg(expected.covered[t])
                                         .arg(budget)));
            }
            QCOMPARE(largest.bytes, expected.largest.bytes);
            QCOMPARE(largest.step, expected.largest.step);
        }
    }

    void addsToWhatIsThere()
    {
        // Allocations of one memory space share a delta array: the sweep adds, never overwrites.
        std::vector<LiveBox> boxes{{0, 10, 0, 1}, {5, 10, 1, 2}};
        std::vector<std::int64_t> delta{100, 0, 0, -100};
        CoverageSweep::Scratch scratch;
        const auto largest = CoverageSweep::run(boxes, 3, delta, scratch, 1);
        QCOMPARE(delta, (std::vector<std::int64_t>{110, 5, -5, -110}));
        QCOMPARE(largest.bytes, 15);
        QCOMPARE(largest.step, 1);
    }

    // The hint of a partial overlap, by hand: A [0, 100) live 0-9 and B [50, 150) live 3-7
    // share bytes from step 3; C at A's offset (one buffer with A, live 2-4) never counts.
    // Swept whole and cut into slabs (split from 1, two threads: B's offset is a cut, and A,
    // clipped there, keeps its own offset, so it is not taken for one buffer with B).
    void overlapStep()
    {
        for (const std::size_t splitFrom : {CoverageSweep::kDefaultSplitFrom, std::size_t{1}}) {
            CoverageSweep::Scratch scratch;
            std::vector<std::int64_t> delta(11, 0);
            std::vector<LiveBox> apart{{0, 100, 0, 9}, {0, 60, 2, 4}, {100, 50, 3, 7}};
            QCOMPARE(CoverageSweep::run(apart, 10, delta, scratch, splitFrom, 2).overlapStep,
                     std::int64_t(-1));
            std::vector<LiveBox> over{{0, 100, 0, 9}, {0, 60, 2, 4}, {50, 100, 3, 7}};
            delta.assign(11, 0);
            QCOMPARE(CoverageSweep::run(over, 10, delta, scratch, splitFrom, 2).overlapStep,
                     std::int64_t(3));
            // Live at different times, the same bytes are reuse, not an overlap.
            std::vector<LiveBox> reuse{{0, 100, 0, 2}, {50, 100, 3, 7}};
            delta.assign(11, 0);
            QCOMPARE(CoverageSweep::run(reuse, 10, delta, scratch, splitFrom, 2).overlapStep,
                     std::int64_t(-1));
        }
    }

    void nothingLive()
    {
        std::vector<LiveBox> boxes;
        std::vector<std::int64_t> delta(4, 0);
        CoverageSweep::Scratch scratch;
        const auto largest = CoverageSweep::run(boxes, 3, delta, scratch);
        QCOMPARE(largest.bytes, 0);
        QCOMPARE(largest.step, -1);
        QCOMPARE(delta, (std::vector<std::int64_t>(4, 0)));
    }
};

QTEST_GUILESS_MAIN(TestCoverage)
#include "tst_coverage.moc"
