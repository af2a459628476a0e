// DumpMatch's step alignment: monotone anchors from the matched instructions, the rows of
// the two programs between them, and a step's place on the other side (analysis/DumpMatch.h).

#include "analysis/DumpMatch.h"
#include "analysis/detail/MatchGraph.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace bufferscope {

namespace match_detail {

/// Monotone anchors (step in A, step in B) from the matched scheduled instructions.
std::vector<std::pair<std::int64_t, std::int64_t>>
monotoneAnchors(const Dump &a, const std::vector<std::uint32_t> &inB, const Dump &b)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    for (std::int64_t s = 0; s < a.maxStep(); ++s) {
        // An instruction listed at two steps (a damaged sequence) anchors at its own step only.
        const std::uint32_t ia = a.sequence[static_cast<std::size_t>(s)];
        if (ia >= inB.size() || a.instructions[ia].step != s)
            continue;
        const std::uint32_t ib = inB[ia];
        if (ib != kNone && b.instructions[ib].step >= 0 && b.instructions[ib].step < b.maxStep() &&
            b.sequence[static_cast<std::size_t>(b.instructions[ib].step)] == ib)
            pairs.emplace_back(s, b.instructions[ib].step);
    }
    // Longest strictly increasing run of B steps (patience sorting, with back links).
    std::vector<std::size_t> tails;
    std::vector<std::size_t> back(pairs.size(), static_cast<std::size_t>(-1));
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const auto it = std::lower_bound(
            tails.begin(), tails.end(), pairs[k].second,
            [&pairs](std::size_t t, std::int64_t v) { return pairs[t].second < v; });
        if (it != tails.begin())
            back[k] = *(it - 1);
        if (it == tails.end())
            tails.push_back(k);
        else
            *it = k;
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> out(tails.size());
    std::size_t k = tails.empty() ? static_cast<std::size_t>(-1) : tails.back();
    for (std::size_t r = tails.size(); r-- > 0;) {
        out[r] = pairs[k];
        k = back[k];
    }
    return out;
}

StepAlignment align(const Dump &a, const Dump &b,
                    const std::vector<std::pair<std::int64_t, std::int64_t>> &anchors)
{
    StepAlignment s;
    const std::int64_t endA = a.maxStep();
    const std::int64_t endB = b.maxStep();
    s.rowOfA.assign(static_cast<std::size_t>(endA + 1), 0);
    s.rowOfB.assign(static_cast<std::size_t>(endB + 1), 0);
    s.rows.reserve(static_cast<std::size_t>(endA + endB + 2));
    std::int64_t ia = 0;
    std::int64_t ib = 0;
    const auto emit = [&s](std::int64_t x, std::int64_t y) {
        const auto row = static_cast<std::uint32_t>(s.rows.size());
        if (x >= 0)
            s.rowOfA[static_cast<std::size_t>(x)] = row;
        if (y >= 0)
            s.rowOfB[static_cast<std::size_t>(y)] = row;
        s.rows.push_back({x, y});
    };
    const auto upTo = [&](std::int64_t pa, std::int64_t pb) {
        // Between two anchors, as many steps on each side: the same stretch of the program
        // with other instructions (or ones only the values tell apart), step for step.
        if (pa - ia == pb - ib)
            for (; ia < pa; ++ia, ++ib)
                emit(ia, ib);
        for (; ia < pa; ++ia)
            emit(ia, -1);
        for (; ib < pb; ++ib)
            emit(-1, ib);
        emit(pa, pb);
        ia = pa + 1;
        ib = pb + 1;
    };
    for (const auto &[pa, pb] : anchors)
        upTo(pa, pb);
    upTo(endA, endB); // the programs' ends
    return s;
}

} // namespace match_detail

namespace {

/// The other side's step in the row of step `step`, or the nearest one before it (0 when none).
std::int64_t stepAt(const StepAlignment &s, const std::vector<std::uint32_t> &rowOf,
                    std::int64_t step, bool wantB)
{
    if (step < 0 || static_cast<std::size_t>(step) >= rowOf.size())
        return -1;
    for (std::size_t r = rowOf[static_cast<std::size_t>(step)] + 1; r-- > 0;) {
        const std::int64_t other = wantB ? s.rows[r].b : s.rows[r].a;
        if (other >= 0)
            return other;
    }
    return 0;
}

} // namespace

std::int64_t StepAlignment::bAt(std::int64_t a) const
{
    return stepAt(*this, rowOfA, a, true);
}

std::int64_t StepAlignment::aAt(std::int64_t b) const
{
    return stepAt(*this, rowOfB, b, false);
}

} // namespace bufferscope
