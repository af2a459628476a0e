#include "DiffCauses.h"

#include "analysis/DumpDiff.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/detail/CauseRules.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>

namespace bufferscope {

namespace {

using causes::ParameterKey;
using causes::Rules;

constexpr std::array<std::string_view, kCauseKindCount> kKeys = {
    "donation_lost", "donation_gained", "input_shape",  "dtype",         "resized",
    "new_buffer",    "buffer_gone",     "restructured", "in_place_lost", "in_place_gained",
    "collective",    "packing",         "schedule",     "other"};

int sign(std::int64_t x)
{
    return (x > 0) - (x < 0);
}

/// The terms of the explanation, one cause per kind, as they are added up.
class Terms
{
public:
    explicit Terms(const Rules &rules) : R(rules) {}

    void add(CauseKind kind, std::int64_t parameter, std::uint32_t va, std::uint32_t vb,
             std::int64_t peak, std::int64_t held)
    {
        Cause &c = rows[static_cast<std::size_t>(kind)];
        c.kind = kind;
        c.peakDelta += peak;
        c.heldDelta += held;
        if (parameter >= 0 &&
            std::find(c.parameters.begin(), c.parameters.end(), parameter) == c.parameters.end())
            c.parameters.push_back(parameter);
        if (va != kNone)
            c.valuesBefore.push_back(va);
        if (vb != kNone)
            c.valuesAfter.push_back(vb);
        used[static_cast<std::size_t>(kind)] = true;
    }

    /// The terms of a change between the values `la` live at a step of A and `lb` at a step of
    /// B (each largest first): what each value counts there (Breakdown::countedBytes, so they
    /// add up to the curve), after minus before, per value pair. `peak` says which figure the
    /// terms go to. A pair of one size and placement changed how it is counted: live on both
    /// sides, the bytes it shares in place; live on one side only, its lifetime (schedule).
    void attribute(const std::vector<std::uint32_t> &la, const std::vector<std::uint32_t> &lb,
                   bool peak)
    {
        const Dump &A = R.a;
        const Dump &B = R.b;
        const DumpMatch &m = R.diff.match;
        const std::vector<std::int64_t> ca = Breakdown::countedBytes(A, la);
        const std::vector<std::int64_t> cb = Breakdown::countedBytes(B, lb);
        if (countedA.size() != A.values.size())
            countedA.assign(A.values.size(), -1); // value of A -> what it counts, -1: not live
        for (std::size_t k = 0; k < la.size(); ++k)
            countedA[la[k]] = ca[k];
        const auto term = [&](std::uint32_t va, std::uint32_t vb, std::int64_t before,
                              std::int64_t after, bool liveBoth) {
            const std::int64_t delta = after - before;
            if (delta == 0)
                return;
            auto [kind, parameter] = R.classify(va, vb);
            if (kind == CauseKind::Other && liveBoth)
                // Sharing bytes as counted: in place, or what a collective that came or went
                // fed (Rules::classify).
                kind = (va != kNone && R.fedByCollective(false, va)) ||
                               (vb != kNone && R.fedByCollective(true, vb))
                           ? CauseKind::Collective
                       : delta > 0 ? CauseKind::InPlaceLost
                                   : CauseKind::InPlaceGained;
            else if (kind == CauseKind::Other)
                kind = CauseKind::Schedule;
            add(kind, parameter, va, vb, peak ? delta : 0, peak ? 0 : delta);
        };
        for (std::size_t k = 0; k < lb.size(); ++k) {
            const std::uint32_t vb = lb[k];
            const std::uint32_t va = m.valueInA[vb];
            const bool live = va != kNone && countedA[va] >= 0;
            term(va, vb, live ? countedA[va] : 0, cb[k], live);
            if (live)
                countedA[va] = -2; // taken
        }
        for (std::size_t k = 0; k < la.size(); ++k)
            if (countedA[la[k]] != -2)
                term(la[k], m.valueInB[la[k]], ca[k], 0, false);
        for (const std::uint32_t v : la)
            countedA[v] = -1; // ready for the next call
    }

    /// An allocation pair's change of what it adds to held (either side may be kNone), put down
    /// to the most specific mechanism among the values the two hold, counting only those that
    /// account for a quarter of the change or more; else to the one that accounts for most.
    void allocation(std::uint32_t x, std::uint32_t y, std::int64_t delta)
    {
        if (delta == 0)
            return;
        const Dump &A = R.a;
        const Dump &B = R.b;
        const DumpMatch &m = R.diff.match;
        struct Involved
        {
            std::uint32_t va, vb;
            CauseKind kind;
            std::int64_t parameter;
            std::int64_t weight;
        };
        std::vector<Involved> involved;
        const auto consider = [&](std::uint32_t va, std::uint32_t vb) {
            const auto [kind, parameter] = R.classify(va, vb);
            const bool inX = va != kNone && A.values[va].allocation == x;
            const bool inY = vb != kNone && B.values[vb].allocation == y;
            const std::int64_t sa = va != kNone ? A.values[va].size : 0;
            const std::int64_t sb = vb != kNone ? B.values[vb].size : 0;
            const std::int64_t weight =
                inX && inY ? std::llabs(sb - sa) : std::max(inX ? sa : 0, inY ? sb : 0);
            involved.push_back({va, vb, kind, parameter, weight});
        };
        std::uint32_t largestA = kNone;
        std::uint32_t largestB = kNone;
        if (x != kNone) {
            const Allocation &ax = A.allocations[x];
            for (std::uint32_t k = 0; k < ax.valueCount; ++k) {
                const std::uint32_t v = A.allocationValues[ax.firstValue + k];
                consider(v, m.valueInB[v]);
                if (largestA == kNone || A.values[v].size > A.values[largestA].size)
                    largestA = v;
            }
        }
        if (y != kNone) {
            const Allocation &by = B.allocations[y];
            for (std::uint32_t k = 0; k < by.valueCount; ++k) {
                const std::uint32_t v = B.allocationValues[by.firstValue + k];
                const std::uint32_t va = m.valueInA[v];
                if (va == kNone || x == kNone || A.values[va].allocation != x)
                    consider(va, v);
                if (largestB == kNone || B.values[v].size > B.values[largestB].size)
                    largestB = v;
            }
        }
        const Involved *best = nullptr;
        for (const Involved &i : involved) {
            if (i.kind == CauseKind::Other || i.weight * 4 < std::llabs(delta))
                continue;
            if (!best || causes::rankOf(i.kind) < causes::rankOf(best->kind) ||
                (causes::rankOf(i.kind) == causes::rankOf(best->kind) && i.weight > best->weight))
                best = &i;
        }
        if (!best)
            for (const Involved &i : involved)
                if (i.kind != CauseKind::Other && (!best || i.weight > best->weight))
                    best = &i;
        if (best)
            add(best->kind, best->parameter, best->va, best->vb, 0, delta);
        else
            add(CauseKind::Other, -1, largestA, largestB, 0, delta);
    }

    std::array<Cause, kCauseKindCount> rows;
    std::array<bool, kCauseKindCount> used{};

private:
    const Rules &R;
    std::vector<std::int64_t> countedA;
};

/// The values of allocation `x` live at `step`, largest first (then by id), as
/// MemoryTimeline::valuesLiveAt orders them.
std::vector<std::uint32_t> liveIn(const Dump &d, const Allocation &x, std::int64_t step)
{
    std::vector<std::uint32_t> out;
    if (step < 0)
        return out;
    for (std::uint32_t k = 0; k < x.valueCount; ++k) {
        const std::uint32_t v = d.allocationValues[x.firstValue + k];
        if (d.values[v].liveAt(step))
            out.push_back(v);
    }
    std::sort(out.begin(), out.end(), [&d](std::uint32_t p, std::uint32_t q) {
        const Value &vp = d.values[p];
        const Value &vq = d.values[q];
        return vp.size != vq.size ? vp.size > vq.size : vp.id < vq.id;
    });
    return out;
}

std::vector<std::uint32_t> liveAt(const Dump &d, std::int64_t step, std::int32_t color)
{
    return step < 0 ? std::vector<std::uint32_t>() : MemoryTimeline::valuesLiveAt(d, step, color);
}

/// The device's temp allocations, by colour, in the order of the dump.
std::map<std::int32_t, std::vector<std::uint32_t>> tempsByColor(const Dump &d)
{
    std::map<std::int32_t, std::vector<std::uint32_t>> out;
    for (std::uint32_t k = 0; k < d.allocations.size(); ++k)
        if (d.allocations[k].isPreallocatedTemp &&
            d.allocations[k].color != MemoryAnalysis::kHostMemorySpace)
            out[d.allocations[k].color].push_back(k);
    return out;
}

/// The allocations that add to held and are not temps (with live ranges), paired: parameters
/// by number and index, outputs through the match when the counterpart is an output too, the
/// outputs left over in the order of the dump.
std::vector<std::pair<std::uint32_t, std::uint32_t>> pairHeld(const Dump &a, const Dump &b,
                                                              const DumpMatch &m, bool tempsApart)
{
    const auto counts = [tempsApart](const Allocation &x) {
        return (x.isParameter || x.isMaybeLiveOut || x.isPreallocatedTemp) &&
               !(tempsApart && x.isPreallocatedTemp && !x.isParameter && !x.isMaybeLiveOut);
    };
    std::map<ParameterKey, std::uint32_t> paramB;
    for (std::uint32_t k = 0; k < b.allocations.size(); ++k)
        if (b.allocations[k].isParameter)
            paramB[parameterKey(b, b.allocations[k])] = k;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    std::vector<bool> pairedA(a.allocations.size(), false);
    std::vector<bool> pairedB(b.allocations.size(), false);
    for (std::uint32_t k = 0; k < a.allocations.size(); ++k) {
        const Allocation &x = a.allocations[k];
        if (!counts(x))
            continue;
        std::uint32_t y = kNone;
        if (x.isParameter) {
            const auto it = paramB.find(parameterKey(a, x));
            y = it == paramB.end() ? kNone : it->second;
        } else if (const std::uint32_t c = m.allocationInB[k]; c != kNone) {
            const Allocation &by = b.allocations[c];
            if (!by.isParameter && counts(by) && by.isMaybeLiveOut == x.isMaybeLiveOut)
                y = c;
        }
        if (y != kNone && !pairedB[y]) {
            out.emplace_back(k, y);
            pairedA[k] = true;
            pairedB[y] = true;
        }
    }
    // Outputs left over, in order: the one output of a module whose root changed.
    std::vector<std::uint32_t> outsA;
    std::vector<std::uint32_t> outsB;
    for (std::uint32_t k = 0; k < a.allocations.size(); ++k)
        if (!pairedA[k] && counts(a.allocations[k]) && a.allocations[k].isMaybeLiveOut &&
            !a.allocations[k].isParameter)
            outsA.push_back(k);
    for (std::uint32_t k = 0; k < b.allocations.size(); ++k)
        if (!pairedB[k] && counts(b.allocations[k]) && b.allocations[k].isMaybeLiveOut &&
            !b.allocations[k].isParameter)
            outsB.push_back(k);
    for (std::size_t i = 0; i < outsA.size() && i < outsB.size(); ++i) {
        out.emplace_back(outsA[i], outsB[i]);
        pairedA[outsA[i]] = true;
        pairedB[outsB[i]] = true;
    }
    for (std::uint32_t k = 0; k < a.allocations.size(); ++k)
        if (!pairedA[k] && counts(a.allocations[k]))
            out.emplace_back(k, kNone);
    for (std::uint32_t k = 0; k < b.allocations.size(); ++k)
        if (!pairedB[k] && counts(b.allocations[k]))
            out.emplace_back(kNone, k);
    return out;
}

/// Whether two causes concern one of the same values.
bool shareValues(const Cause &x, const Cause &y)
{
    const auto common = [](const std::vector<std::uint32_t> &p,
                           const std::vector<std::uint32_t> &q) {
        for (const std::uint32_t v : p)
            if (std::find(q.begin(), q.end(), v) != q.end())
                return true;
        return false;
    };
    return common(x.valuesBefore, y.valuesBefore) || common(x.valuesAfter, y.valuesAfter);
}

/// Folds every term whose sign is not its figure's into causes of the figure's sign, so that no
/// two causes cancel: first into one that concerns the same values, then into the other side
/// of its own mechanism (lost and gained, new and gone), then into the one of the nearest size
/// that can take it whole, then the largest. What is folded is said in the taker's `netted`.
void net(std::vector<Cause> &rows, bool peak, const causes::TextFacts &facts)
{
    const auto figure = [peak](Cause &c) -> std::int64_t & {
        return peak ? c.peakDelta : c.heldDelta;
    };
    std::int64_t total = 0;
    for (Cause &c : rows)
        total += figure(c);
    const int want = sign(total);
    while (true) {
        // The opposite term of the largest size.
        Cause *o = nullptr;
        for (Cause &c : rows)
            if (figure(c) != 0 && sign(figure(c)) != want &&
                (!o || std::llabs(figure(c)) > std::llabs(figure(*o))))
                o = &c;
        if (!o)
            return;
        const int takerSign = want != 0 ? want : -sign(figure(*o));
        const std::string said = causes::nettedClause(*o, facts, peak);
        std::int64_t left = std::llabs(figure(*o));
        while (left > 0) {
            Cause *t = nullptr;
            int tScore = -1;
            for (Cause &c : rows) {
                if (&c == o || sign(figure(c)) != takerSign)
                    continue;
                const std::int64_t size = std::llabs(figure(c));
                const int score = shareValues(c, *o)                    ? 3
                                  : causes::sameFamily(c.kind, o->kind) ? 2
                                  : size >= left                        ? 1
                                                                        : 0;
                if (!t || score > tScore ||
                    (score == tScore && (score == 1 ? size < std::llabs(figure(*t))
                                                    : size > std::llabs(figure(*t))))) {
                    t = &c;
                    tScore = score;
                }
            }
            if (!t)
                break; // cannot happen: the terms add up to the total
            const std::int64_t take = std::min<std::int64_t>(left, std::llabs(figure(*t)));
            figure(*t) += sign(figure(*o)) * take;
            Cause::Netted n;
            n.kind = o->kind;
            (peak ? n.peakDelta : n.heldDelta) = sign(figure(*o)) * take;
            n.text = said;
            t->netted.push_back(std::move(n));
            left -= take;
        }
        figure(*o) = sign(figure(*o)) * left; // 0 unless nothing could take it
        if (left > 0)
            return;
    }
}

/// What a cause's sentence adds for the terms netted into it: one in full ("; at the peak this
/// is net of +999.00MiB of schedule (…)"), several as a list per figure ("; net of +5.62MiB
/// restructured and +3.75MiB collective in what is held").
std::string nettedText(const Cause &c)
{
    if (c.netted.empty())
        return {};
    if (c.netted.size() == 1) {
        const Cause::Netted &n = c.netted.front();
        return std::string("; ") + (n.peakDelta != 0 ? "at the peak" : "in what is held") +
               " this is net of " + signedHumanBytes(n.peakDelta + n.heldDelta) + " " + n.text;
    }
    std::string out;
    for (const bool peak : {true, false}) {
        std::vector<std::string> parts;
        for (const Cause::Netted &n : c.netted) {
            const std::int64_t x = peak ? n.peakDelta : n.heldDelta;
            if (x == 0)
                continue;
            std::string kind(causeKindKey(n.kind));
            std::replace(kind.begin(), kind.end(), '_', ' ');
            parts.push_back(signedHumanBytes(x) + " " + kind);
        }
        if (parts.empty())
            continue;
        out += "; net of ";
        for (std::size_t k = 0; k < parts.size(); ++k)
            out += (k == 0 ? "" : k + 1 == parts.size() ? " and " : ", ") + parts[k];
        out += peak ? " at the peak" : " in what is held";
    }
    return out;
}

std::string instructionName(const Dump &d, std::int64_t step)
{
    const std::uint32_t i = d.instructionAtStep(step);
    return i == kNone ? std::string("the end") : std::string(d.str(d.instructions[i].name));
}

} // namespace

std::string_view causeKindKey(CauseKind kind)
{
    return kKeys[static_cast<std::size_t>(kind)];
}

bool causeKindByKey(std::string_view key, CauseKind &kind)
{
    for (std::size_t k = 0; k < kKeys.size(); ++k)
        if (kKeys[k] == key) {
            kind = static_cast<CauseKind>(k);
            return true;
        }
    return false;
}

DiffCauses DiffCauses::compute(const DumpDiff &diff, const Dump &a, const MemoryTimeline &ta,
                               const Dump &b, const MemoryTimeline &tb)
{
    DiffCauses out;
    const DumpMatch &m = diff.match;
    const Stopwatch clock;
    const Rules rules(diff, a, b);
    Terms terms(rules);
    const double built = clock.seconds();

    // The live peak: what each value counts at each side's peak, after minus before.
    const SpaceTimeline *sa = ta.space(0) ? ta.space(0) : ta.primary();
    const SpaceTimeline *sb = tb.space(0) ? tb.space(0) : tb.primary();
    if (sa && sb) {
        terms.attribute(liveAt(a, diff.peakStepBefore, sa->memorySpace),
                        liveAt(b, diff.peakStepAfter, sb->memorySpace), true);
        out.peakMoved = diff.peakMoved();
        if (out.peakMoved)
            out.peakMovedText = "The peak moved to another part of the program: step " +
                                std::to_string(diff.peakStepAfter) + " (" +
                                instructionName(b, diff.peakStepAfter) +
                                ") after, where the before peak's place is step " +
                                std::to_string(diff.peakStepBeforeInB);
    }

    // What the device holds: per allocation pair what it adds to argument + output − alias +
    // temp. The temp allocations apart, as the change of their most live bytes (per value, as
    // for the peak) and of what the heap simulator left unused (packing). Without live ranges
    // on a side (a dump printed by BufferAssignment::ToString) no temp allocation has most live
    // bytes: temps are then allocations like the others.
    const MemoryAnalysis ma = MemoryAnalysis::of(a);
    const MemoryAnalysis mb = MemoryAnalysis::of(b);
    out.heldBefore = ma.device.held();
    out.heldAfter = mb.device.held();
    const bool liveRanges = a.hasLiveRanges() && b.hasLiveRanges();
    for (const auto &[x, y] : pairHeld(a, b, m, liveRanges)) {
        const std::int64_t before = x == kNone ? 0 : MemoryAnalysis::heldBy(a.allocations[x]);
        const std::int64_t after = y == kNone ? 0 : MemoryAnalysis::heldBy(b.allocations[y]);
        terms.allocation(x, y, after - before);
    }
    const double allocations = clock.seconds();
    if (liveRanges) {
        // Each temp allocation paired with the one of its colour in the same place on the
        // other side: what its values count at the step where most of it is live (the
        // timeline's largestLiveStep), and its unused bytes (size − that, the packing).
        const auto tempsA = tempsByColor(a);
        const auto tempsB = tempsByColor(b);
        std::int64_t packing = 0;
        const auto usageOf = [](const MemoryTimeline &t, std::uint32_t k) {
            return k < t.allocations().size() ? t.allocations()[k] : AllocationUsage();
        };
        const auto temp = [&](std::uint32_t x, std::uint32_t y) {
            const AllocationUsage ua = x == kNone ? AllocationUsage() : usageOf(ta, x);
            const AllocationUsage ub = y == kNone ? AllocationUsage() : usageOf(tb, y);
            // A temp that is also a parameter or an output counted with the allocations.
            const bool countA =
                x != kNone && !a.allocations[x].isParameter && !a.allocations[x].isMaybeLiveOut;
            const bool countB =
                y != kNone && !b.allocations[y].isParameter && !b.allocations[y].isMaybeLiveOut;
            terms.attribute(countA ? liveIn(a, a.allocations[x], ua.largestLiveStep)
                                   : std::vector<std::uint32_t>(),
                            countB ? liveIn(b, b.allocations[y], ub.largestLiveStep)
                                   : std::vector<std::uint32_t>(),
                            false);
            const std::int64_t unusedA = countA ? a.allocations[x].size - ua.largestLiveBytes : 0;
            const std::int64_t unusedB = countB ? b.allocations[y].size - ub.largestLiveBytes : 0;
            packing += unusedB - unusedA;
        };
        for (const auto &[color, xs] : tempsA) {
            const auto it = tempsB.find(color);
            for (std::size_t k = 0; k < xs.size(); ++k)
                temp(xs[k], it != tempsB.end() && k < it->second.size() ? it->second[k] : kNone);
        }
        for (const auto &[color, ys] : tempsB) {
            const auto it = tempsA.find(color);
            for (std::size_t k = it == tempsA.end() ? 0 : it->second.size(); k < ys.size(); ++k)
                temp(kNone, ys[k]);
        }
        if (packing != 0)
            terms.add(CauseKind::Packing, -1, kNone, kNone, 0, packing);
    }

    // Whatever the terms do not add up to (nothing, unless a value sits in no allocation).
    {
        std::int64_t peak = 0;
        std::int64_t held = 0;
        for (const Cause &c : terms.rows) {
            peak += c.peakDelta;
            held += c.heldDelta;
        }
        const std::int64_t restPeak = diff.peakDelta() - peak;
        const std::int64_t restHeld = (out.heldAfter - out.heldBefore) - held;
        if (restPeak != 0 || restHeld != 0)
            terms.add(CauseKind::Other, -1, kNone, kNone, restPeak, restHeld);
    }

    // Each cause's values once, largest first; its sentence before any netting (the sentence
    // says what the cause's own values did).
    const causes::TextFacts facts{rules, a, b, diff};
    std::vector<Cause> rows;
    for (std::size_t k = 0; k < terms.rows.size(); ++k) {
        if (!terms.used[k])
            continue;
        Cause c = std::move(terms.rows[k]);
        for (auto *list : {&c.valuesBefore, &c.valuesAfter}) {
            std::sort(list->begin(), list->end());
            list->erase(std::unique(list->begin(), list->end()), list->end());
        }
        std::stable_sort(
            c.valuesBefore.begin(), c.valuesBefore.end(),
            [&a](std::uint32_t x, std::uint32_t y) { return a.values[x].size > a.values[y].size; });
        std::stable_sort(
            c.valuesAfter.begin(), c.valuesAfter.end(),
            [&b](std::uint32_t x, std::uint32_t y) { return b.values[x].size > b.values[y].size; });
        std::sort(c.parameters.begin(), c.parameters.end());
        c.parameter = c.parameters.empty() ? -1 : c.parameters.front();
        if (c.peakDelta == 0 && c.heldDelta == 0)
            continue;
        rows.push_back(std::move(c));
    }
    for (Cause &c : rows) {
        c.text = causes::sentence(c, facts);
        c.clause = causes::clause(c, facts);
    }
    net(rows, true, facts);
    net(rows, false, facts);
    for (Cause &c : rows) {
        if (c.peakDelta == 0 && c.heldDelta == 0)
            continue;
        c.text += nettedText(c);
        out.causes.push_back(std::move(c));
    }
    std::stable_sort(out.causes.begin(), out.causes.end(), [](const Cause &x, const Cause &y) {
        const bool ox = x.kind == CauseKind::Other;
        const bool oy = y.kind == CauseKind::Other;
        if (ox != oy)
            return oy;
        return std::llabs(x.peakDelta) + std::llabs(x.heldDelta) >
               std::llabs(y.peakDelta) + std::llabs(y.heldDelta);
    });
    const std::int64_t larger = std::max(diff.peakBefore, diff.peakAfter);
    out.peakBarelyMoved = static_cast<double>(std::llabs(diff.peakDelta())) <=
                          kBarelyMoved * static_cast<double>(larger);
    out.headline = causes::headline(out, diff);
    spdlog::debug("causes: rules {:.3f} s, peak and allocations {:.3f} s, temps and text {:.3f} s",
                  built, allocations - built, clock.seconds() - allocations);

    // XLA's printed peaks against the real ones.
    if (a.printedPeak.present && b.printedPeak.present && !a.printedPeak.undetermined &&
        !b.printedPeak.undetermined) {
        out.printedPeaks = true;
        out.printedBefore = a.printedPeak.bytes;
        out.printedAfter = b.printedPeak.bytes;
        // What XLA does not see at each live peak: values it counts at their defining
        // instruction's size (a tuple element at its tuple's index table), below what they are
        // assigned.
        std::vector<std::uint32_t> unseen;
        const auto undercount = [&unseen](const Dump &d, std::int64_t step,
                                          const SpaceTimeline *space) {
            MemoryTimeline::Unseen u;
            if (space)
                u = MemoryTimeline::unseenByPrintedRule(d, step, space->memorySpace);
            unseen = std::move(u.values);
            return u.bytes;
        };
        std::string seen;
        for (const auto &[d, step, space, printedStep, side, field] :
             {std::tuple{&a, diff.peakStepBefore, sa, a.printedPeak.step, "before",
                         &out.printedUndercountBefore},
              std::tuple{&b, diff.peakStepAfter, sb, b.printedPeak.step, "after",
                         &out.printedUndercountAfter}}) {
            *field = undercount(*d, step, space);
            if (*field > 0)
                seen += std::string(seen.empty() ? "" : "; ") + "at the " + side +
                        " live peak (step " + std::to_string(step) + ") it does not see " +
                        humanBytes(*field) + " (" + causes::names(*d, unseen) + ")" +
                        (printedStep != step ? " and prints step " + std::to_string(printedStep)
                                             : std::string());
        }
        const std::int64_t printed = out.printedAfter - out.printedBefore;
        const std::int64_t real = diff.peakDelta();
        const bool otherSign = (printed > 0 && real < 0) || (printed < 0 && real > 0) ||
                               ((printed == 0) != (real == 0));
        const std::int64_t gap = std::llabs(printed - real);
        const std::int64_t scale =
            std::max<std::int64_t>(1, std::max(diff.peakBefore, diff.peakAfter));
        if (otherSign || gap * 10 > scale) {
            std::string why = "XLA's printed peaks change by " + signedHumanBytes(printed) +
                              " where the live peaks change by " + signedHumanBytes(real) +
                              ": XLA counts each value at its defining instruction's logical "
                              "size — a tuple or async-collective element at its tuple's index "
                              "table, a padded array at its unpadded bytes (docs/FORMAT.md §8.1)";
            if (!seen.empty())
                why += "; " + seen;
            why += ". The live peaks count the bytes assigned: compare those";
            out.printedDisagree = why;
        }
    }
    return out;
}

} // namespace bufferscope
