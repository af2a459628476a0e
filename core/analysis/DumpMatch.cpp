#include "DumpMatch.h"

#include "analysis/PeakBreakdown.h"
#include "analysis/detail/MatchGraph.h"
#include "util/Parallel.h"
#include "util/Stopwatch.h"

#include <queue>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace bufferscope {

using namespace match_detail;

namespace {

class Matcher
{
public:
    Matcher(Side &a, Side &b, DumpMatch &m, int threads) : A(a), B(b), M(m), m_threads(threads) {}

    void run(const std::atomic<bool> *cancel)
    {
        const auto stop = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
        // Sure pairs: a key one instruction has on each side; or, off the schedule (where
        // there is no step to go by), groups as large on both sides, in order of appearance.
        const auto sure = [this](const Span &la, const Span &lb) {
            if (la.size() != lb.size())
                return;
            if (la.size() > 1) {
                for (std::uint32_t x : la)
                    if (A.dump->instructions[x].step >= 0)
                        return;
                for (std::uint32_t x : lb)
                    if (B.dump->instructions[x].step >= 0)
                        return;
            }
            for (std::size_t k = 0; k < la.size(); ++k)
                link(la[k], lb[k]);
        };
        const auto nearest = [this](const Span &la, const Span &lb) { pairNearest(la, lb); };
        // For each key, strictest first: the sure pairs, spread to their neighbours; then the
        // rest nearest first on the steps aligned by what is matched so far, spread again. The
        // refined keys only give sure pairs (they differ where the neighbourhood does: the
        // instruction's own key decides). The next three levels are the first three without
        // what a rename changes (scope names, source lines, stacks); then the structure alone
        // (opcode, shapes and neighbours), then the name as the last resort.
        struct Level
        {
            const std::vector<Hash> *keyA, *keyB;     // the key that groups
            const std::vector<Hash> *alikeA, *alikeB; // what spreading a match requires
            bool nearestToo;
        };
        const Level levels[] = {
            {&A.refined, &B.refined, &A.own, &B.own, false},
            {&A.own, &B.own, &A.own, &B.own, true},
            {&A.loose, &B.loose, &A.loose, &B.loose, true},
            {&A.refinedRenamed, &B.refinedRenamed, &A.ownRenamed, &B.ownRenamed, false},
            {&A.ownRenamed, &B.ownRenamed, &A.ownRenamed, &B.ownRenamed, true},
            {&A.looseRenamed, &B.looseRenamed, &A.looseRenamed, &B.looseRenamed, true},
            {&A.refinedJitFree, &B.refinedJitFree, &A.ownJitFree, &B.ownJitFree, false},
            {&A.ownJitFree, &B.ownJitFree, &A.ownJitFree, &B.ownJitFree, true},
            {&A.looseJitFree, &B.looseJitFree, &A.looseJitFree, &B.looseJitFree, true},
            {&A.refinedBare, &B.refinedBare, &A.bare, &B.bare, false},
            {&A.bare, &B.bare, &A.bare, &B.bare, true},
            {&A.named, &B.named, &A.bare, &B.bare, false},
        };
        for (const Level &level : levels) {
            if (stop() || allPaired())
                return;
            // The refinements of the looser keys, only when a level gets that far.
            if (level.keyA == &A.refinedRenamed && A.refinedRenamed.empty())
                runBoth([&] { A.buildLooser(); }, [&] { B.buildLooser(); }, m_threads);
            // Structure alone says which is which only between compiles of one program: when
            // the metadata paired fewer than half of the smaller side's instructions, these are
            // other programs and the rest stays unpaired.
            if (level.keyA == &A.refinedBare && !sameProgram())
                return;
            if (level.keyA == &A.refinedJitFree && A.refinedJitFree.empty())
                runBoth([&] { A.refineJitFree(); }, [&] { B.refineJitFree(); }, m_threads);
            if (level.keyA == &A.refinedBare && A.refinedBare.empty())
                runBoth([&] { A.refineBare(); }, [&] { B.refineBare(); }, m_threads);
            forEachGroup(*level.keyA, *level.keyB, sure);
            propagate(*level.alikeA, *level.alikeB);
            if (!level.nearestToo)
                continue;
            if (stop())
                return;
            anchors = monotoneAnchors(*A.dump, M.instructionInB, *B.dump);
            forEachGroup(*level.keyA, *level.keyB, nearest);
            propagate(*level.alikeA, *level.alikeB);
        }
        // Last, from every pair: an operand or a single user of the same kind on each side.
        if (stop())
            return;
        for (std::uint32_t a = 0; a < M.instructionInB.size(); ++a)
            if (M.instructionInB[a] != kNone)
                queue.push_back({a, M.instructionInB[a]});
        propagate(A.kind, B.kind);
        forEachGroup(A.nameOnly, B.nameOnly, sure);
        queue.clear();
    }

private:
    using Span = std::vector<std::uint32_t>;

    /// Every instruction of one side has its pair: nothing is left to pair.
    bool allPaired() const
    {
        const auto all = [](const std::vector<std::uint32_t> &v) {
            return std::none_of(v.begin(), v.end(), [](std::uint32_t x) { return x == kNone; });
        };
        return all(M.instructionInB) || all(M.instructionInA);
    }

    bool sameProgram() const
    {
        const std::size_t matched =
            static_cast<std::size_t>(std::count_if(M.instructionInB.begin(), M.instructionInB.end(),
                                                   [](std::uint32_t b) { return b != kNone; }));
        return 2 * matched >= std::min(M.instructionInB.size(), M.instructionInA.size());
    }

    void link(std::uint32_t a, std::uint32_t b)
    {
        M.instructionInB[a] = b;
        M.instructionInA[b] = a;
        queue.push_back({a, b});
    }

    /// Calls fn(A's unmatched instructions, B's) for each key both sides have, each list in
    /// schedule order.
    template <class Fn>
    void forEachGroup(const std::vector<Hash> &keyA, const std::vector<Hash> &keyB, Fn fn)
    {
        const auto collect = [](const std::vector<Hash> &key,
                                const std::vector<std::uint32_t> &order,
                                const std::vector<std::uint32_t> &matched) {
            Keyed out; // (key, rank), in rank order, then sorted by key keeping it
            for (std::uint32_t r = 0; r < order.size(); ++r)
                if (matched[order[r]] == kNone)
                    out.emplace_back(key[order[r]], r);
            radixSortByKey(out);
            return out;
        };
        // A level groups twice on one key (sure pairs, then nearest): the second time the
        // sorted lists are the first's without what was paired in between.
        Keyed &ka = m_keyedA;
        Keyed &kb = m_keyedB;
        if (m_keyed == &keyA) {
            const auto unpaired = [](Keyed &k, const std::vector<std::uint32_t> &order,
                                     const std::vector<std::uint32_t> &matched) {
                k.erase(std::remove_if(k.begin(), k.end(),
                                       [&](const std::pair<Hash, std::uint32_t> &e) {
                                           return matched[order[e.second]] != kNone;
                                       }),
                        k.end());
            };
            unpaired(ka, A.order, M.instructionInB);
            unpaired(kb, B.order, M.instructionInA);
        } else {
            runBoth([&] { ka = collect(keyA, A.order, M.instructionInB); },
                    [&] { kb = collect(keyB, B.order, M.instructionInA); }, m_threads);
            m_keyed = &keyA;
        }
        Span la;
        Span lb;
        forEachCommonKey(ka, kb, [&](std::size_t i, std::size_t ie, std::size_t j, std::size_t je) {
            la.clear();
            lb.clear();
            for (; i < ie; ++i)
                la.push_back(A.order[ka[i].second]);
            for (; j < je; ++j)
                lb.push_back(B.order[kb[j].second]);
            fn(la, lb);
        });
    }

    /// A's step `s` on B's program, interpolated between the anchors.
    double predictB(std::int64_t s) const
    {
        const double maxA = static_cast<double>(std::max<std::int64_t>(1, A.dump->maxStep()));
        const double maxB = static_cast<double>(B.dump->maxStep());
        if (anchors.empty())
            return static_cast<double>(s) * maxB / maxA;
        const auto it = std::lower_bound(anchors.begin(), anchors.end(), s,
                                         [](const std::pair<std::int64_t, std::int64_t> &p,
                                            std::int64_t v) { return p.first < v; });
        std::pair<double, double> lo{-1.0, -1.0};
        std::pair<double, double> hi{static_cast<double>(A.dump->maxStep()), maxB};
        if (it != anchors.end())
            hi = {static_cast<double>(it->first), static_cast<double>(it->second)};
        if (it != anchors.begin())
            lo = {static_cast<double>((it - 1)->first), static_cast<double>((it - 1)->second)};
        if (hi.first <= lo.first)
            return hi.second;
        return lo.second + (static_cast<double>(s) - lo.first) * (hi.second - lo.second) /
                               (hi.first - lo.first);
    }

    /// Pairs two groups of alike instructions, the closest on the aligned program first; equal
    /// names break ties. Scheduled and unscheduled instructions pair among themselves.
    void pairNearest(const Span &la, const Span &lb)
    {
        struct Item
        {
            double position;
            std::uint32_t instruction;
            bool fromA;
        };
        std::vector<Item> scheduled;
        std::vector<std::uint32_t> restA;
        std::vector<std::uint32_t> restB;
        for (std::uint32_t x : la) {
            const std::int64_t s = A.dump->instructions[x].step;
            if (s >= 0)
                scheduled.push_back({predictB(s), x, true});
            else
                restA.push_back(x);
        }
        for (std::uint32_t x : lb) {
            const std::int64_t s = B.dump->instructions[x].step;
            if (s >= 0)
                scheduled.push_back({static_cast<double>(s), x, false});
            else
                restB.push_back(x);
        }
        // Unscheduled ones by their order of appearance, stretched to the same length.
        for (std::size_t k = 0; k < restA.size(); ++k)
            scheduled.push_back(
                {-1.0e12 + static_cast<double>(k) * static_cast<double>(restB.size()) /
                               static_cast<double>(restA.size()),
                 restA[k], true});
        for (std::size_t k = 0; k < restB.size(); ++k)
            scheduled.push_back({-1.0e12 + static_cast<double>(k), restB[k], false});
        std::stable_sort(scheduled.begin(), scheduled.end(),
                         [](const Item &x, const Item &y) { return x.position < y.position; });
        const std::size_t n = scheduled.size();
        std::vector<std::size_t> prev(n);
        std::vector<std::size_t> next(n);
        std::vector<bool> alive(n, true);
        for (std::size_t k = 0; k < n; ++k) {
            prev[k] = k - 1; // wraps for the first: never read as alive
            next[k] = k + 1;
        }
        using Candidate = std::tuple<double, std::size_t, std::size_t>;
        std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
        const auto consider = [&](std::size_t x, std::size_t y) {
            if (x >= n || y >= n || scheduled[x].fromA == scheduled[y].fromA)
                return;
            const Item &ia = scheduled[x].fromA ? scheduled[x] : scheduled[y];
            const Item &ib = scheduled[x].fromA ? scheduled[y] : scheduled[x];
            const bool sameName = A.dump->str(A.dump->instructions[ia.instruction].name) ==
                                  B.dump->str(B.dump->instructions[ib.instruction].name);
            heap.emplace(std::abs(ia.position - ib.position) + (sameName ? 0.0 : 0.25), x, y);
        };
        for (std::size_t k = 0; k + 1 < n; ++k)
            consider(k, k + 1);
        while (!heap.empty()) {
            const auto [gap, x, y] = heap.top();
            heap.pop();
            if (!alive[x] || !alive[y] || next[x] != y)
                continue;
            const Item &ix = scheduled[x];
            const Item &iy = scheduled[y];
            link(ix.fromA ? ix.instruction : iy.instruction,
                 ix.fromA ? iy.instruction : ix.instruction);
            alive[x] = alive[y] = false;
            const std::size_t before = prev[x];
            const std::size_t after = next[y];
            if (before < n)
                next[before] = after;
            if (after < n)
                prev[after] = before;
            if (before < n && after < n)
                consider(before, after);
        }
    }

    /// From each matched pair outwards: definers of the same operands, and users alike on
    /// both sides.
    void propagate(const std::vector<Hash> &keyA, const std::vector<Hash> &keyB)
    {
        const auto alike = [&keyA, &keyB](std::uint32_t a, std::uint32_t b) {
            return keyA[a] == keyB[b];
        };
        Keyed ua;
        Keyed ub;
        const auto unmatchedUsers = [](const Side &s, const std::vector<Hash> &key, std::uint32_t x,
                                       const std::vector<std::uint32_t> &matched, Keyed &out) {
            out.clear();
            for (std::uint32_t k = s.userStart[x]; k < s.userStart[x + 1]; ++k) {
                const std::uint32_t u = s.users[k];
                if (matched[u] == kNone)
                    out.emplace_back(key[u], u);
            }
            std::sort(out.begin(), out.end());
        };
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const auto [a, b] = queue[head];
            std::uint32_t i = A.operandStart[a];
            std::uint32_t j = B.operandStart[b];
            while (i < A.operandStart[a + 1] && j < B.operandStart[b + 1]) {
                const Operand &oa = A.operands[i];
                const Operand &ob = B.operands[j];
                if (oa.number < ob.number || (oa.number == ob.number && oa.index < ob.index)) {
                    ++i;
                } else if (ob.number < oa.number || ob.index < oa.index) {
                    ++j;
                } else {
                    if (M.instructionInB[oa.definer] == kNone &&
                        M.instructionInA[ob.definer] == kNone && alike(oa.definer, ob.definer))
                        link(oa.definer, ob.definer);
                    ++i;
                    ++j;
                }
            }
            // Users spread a match only from an instruction read by a few: the last unmatched
            // reader of a parameter read by hundreds says nothing of where it is.
            if (A.userStart[a + 1] - A.userStart[a] > kFewUsers ||
                B.userStart[b + 1] - B.userStart[b] > kFewUsers)
                continue;
            unmatchedUsers(A, keyA, a, M.instructionInB, ua);
            if (ua.empty())
                continue;
            unmatchedUsers(B, keyB, b, M.instructionInA, ub);
            // A key held by exactly one user on each side pairs them.
            forEachCommonKey(ua, ub,
                             [&](std::size_t p, std::size_t pe, std::size_t q, std::size_t qe) {
                                 if (pe - p == 1 && qe - q == 1)
                                     link(ua[p].second, ub[q].second);
                             });
        }
        queue.clear();
    }

    Side &A;
    Side &B;
    const std::vector<Hash> *m_keyed = nullptr; ///< the key m_keyedA and m_keyedB are sorted by
    Keyed m_keyedA;
    Keyed m_keyedB;
    DumpMatch &M;
    int m_threads;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> queue;
    std::vector<std::pair<std::int64_t, std::int64_t>> anchors;
};

} // namespace

bool DumpMatch::sameStep(const Dump &a, std::int64_t sa, const Dump &b, std::int64_t sb) const
{
    if (sa < 0 || sb < 0)
        return sa < 0 && sb < 0;
    if (sa > a.maxStep() || sb > b.maxStep() || steps.rowOfA.empty() || steps.rowOfB.empty())
        return false;
    return steps.rowOfA[static_cast<std::size_t>(sa)] == steps.rowOfB[static_cast<std::size_t>(sb)];
}

DumpMatch DumpMatch::compute(const Dump &a, const Dump &b, const std::atomic<bool> *cancel,
                             int threads)
{
    DumpMatch m;
    m.instructionInB.assign(a.instructions.size(), kNone);
    m.instructionInA.assign(b.instructions.size(), kNone);
    m.valueInB.assign(a.values.size(), kNone);
    m.valueInA.assign(b.values.size(), kNone);
    m.allocationInB.assign(a.allocations.size(), kNone);
    m.allocationInA.assign(b.allocations.size(), kNone);

    Side sa;
    Side sb;
    const Stopwatch clock;
    runBoth([&] { sa.build(a); }, [&] { sb.build(b); }, threads);
    const double built = clock.seconds();
    if (cancel && cancel->load()) {
        m.cancelled = true;
        return m;
    }
    Matcher(sa, sb, m, threads).run(cancel);
    {
        // As the matcher's gate for structure alone: pairs for at least half of the smaller
        // side's instructions (structure alone runs only past that gate, so the count after
        // it says the same).
        const auto matched =
            static_cast<std::size_t>(std::count_if(m.instructionInB.begin(), m.instructionInB.end(),
                                                   [](std::uint32_t x) { return x != kNone; }));
        m.sameProgram = 2 * matched >= std::min(a.instructions.size(), b.instructions.size());
    }
    if (cancel && cancel->load()) {
        m.cancelled = true;
        return m;
    }

    const double paired = clock.seconds();
    // Values: within matched instructions, by shape index.
    for (std::uint32_t ia = 0; ia < a.instructions.size(); ++ia) {
        const std::uint32_t ib = m.instructionInB[ia];
        if (ib == kNone)
            continue;
        const auto [fa, la] = a.valuesOf(ia);
        const auto [fb, lb] = b.valuesOf(ib);
        for (const std::uint32_t *va = fa; va != la; ++va) {
            const std::string_view index = a.str(a.values[*va].index);
            for (const std::uint32_t *vb = fb; vb != lb; ++vb) {
                if (m.valueInA[*vb] == kNone && b.str(b.values[*vb].index) == index) {
                    m.valueInB[*va] = *vb;
                    m.valueInA[*vb] = *va;
                    break;
                }
            }
        }
    }
    // Values left over on both sides with one name and size: the same value (their
    // instructions were not paired, or are the same instruction with another tuple layout),
    // and every value without a defining instruction (damaged dumps), by name.
    {
        // Per key, B's values and how many of them are taken (in order).
        std::unordered_map<std::string, std::pair<std::vector<std::uint32_t>, std::size_t>> orphans;
        for (std::uint32_t vb = 0; vb < b.values.size(); ++vb)
            if (m.valueInA[vb] == kNone)
                orphans[b.valueKey(b.values[vb]) + '#' + std::to_string(b.values[vb].size)]
                    .first.push_back(vb);
        if (!orphans.empty()) {
            for (std::uint32_t va = 0; va < a.values.size(); ++va) {
                if (m.valueInB[va] != kNone)
                    continue;
                const auto it = orphans.find(a.valueKey(a.values[va]) + '#' +
                                             std::to_string(a.values[va].size));
                if (it == orphans.end() || it->second.second == it->second.first.size())
                    continue;
                const std::uint32_t vb = it->second.first[it->second.second++];
                m.valueInB[va] = vb;
                m.valueInA[vb] = va;
            }
        }
    }

    m.steps = align(a, b, monotoneAnchors(a, m.instructionInB, b));
    // Values still left over on both sides of one size, defined by one opcode, live over the
    // same stretch of the aligned program: the same value under a name an upgrade renumbered
    // (`cudnn-conv.1.0{1}` → `cudnn-conv.1{1}`), whose instruction no key paired because
    // something beside it changed. Never a value listed as both gone and new.
    {
        std::unordered_map<std::string, std::vector<std::uint32_t>> byKind; // size#opcode -> B
        const auto kindOf = [](const Dump &d, const Value &v) {
            const Instruction *in = d.instructionOf(v);
            return std::to_string(v.size) + '#' + std::string(in ? d.opcode(*in) : "") + '#' +
                   std::string(d.str(v.index));
        };
        for (std::uint32_t vb = 0; vb < b.values.size(); ++vb)
            if (m.valueInA[vb] == kNone && b.values[vb].hasLiveRange())
                byKind[kindOf(b, b.values[vb])].push_back(vb);
        if (!byKind.empty()) {
            for (std::uint32_t va = 0; va < a.values.size(); ++va) {
                const Value &x = a.values[va];
                if (m.valueInB[va] != kNone || !x.hasLiveRange())
                    continue;
                const auto it = byKind.find(kindOf(a, x));
                if (it == byKind.end())
                    continue;
                for (std::uint32_t &vb : it->second) {
                    if (vb == kNone)
                        continue;
                    const Value &y = b.values[vb];
                    if (m.sameStep(a, x.start, b, y.start) && m.sameStep(a, x.end, b, y.end)) {
                        m.valueInB[va] = vb;
                        m.valueInA[vb] = va;
                        vb = kNone; // taken
                        break;
                    }
                }
            }
        }
    }

    // Allocations: each with the one that holds most of its matched bytes, one to one.
    {
        // Bytes per (A allocation, B allocation), summed in a map: few distinct pairs.
        std::unordered_map<std::uint64_t, std::int64_t> votes;
        for (std::uint32_t va = 0; va < a.values.size(); ++va) {
            const std::uint32_t vb = m.valueInB[va];
            if (vb != kNone && a.values[va].allocation != kNone && b.values[vb].allocation != kNone)
                votes[(std::uint64_t(a.values[va].allocation) << 32) | b.values[vb].allocation] +=
                    std::max<std::int64_t>(1, a.values[va].size);
        }
        std::vector<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>> sums;
        sums.reserve(votes.size());
        for (const auto &[key, bytes] : votes)
            sums.emplace_back(-bytes, static_cast<std::uint32_t>(key >> 32),
                              static_cast<std::uint32_t>(key & 0xffffffffu));
        std::sort(sums.begin(), sums.end());
        for (const auto &[bytes, x, y] : sums) {
            if (m.allocationInB[x] == kNone && m.allocationInA[y] == kNone) {
                m.allocationInB[x] = y;
                m.allocationInA[y] = x;
            }
        }
    }

    spdlog::debug("match: graphs and keys {:.3f} s, instructions paired {:.3f} s, values, "
                  "allocations and steps {:.3f} s",
                  built, paired - built, clock.seconds() - paired);
    return m;
}

} // namespace bufferscope
