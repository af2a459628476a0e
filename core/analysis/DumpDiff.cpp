#include "DumpDiff.h"

#include "analysis/PeakBreakdown.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unordered_map>

namespace bufferscope {

namespace {

DiffSide sideOf(const Dump &d, std::uint32_t vi)
{
    const Value &v = d.values[vi];
    return {vi, v.size, v.start, v.end};
}

std::int64_t peakOf(const MemoryTimeline &t, std::int64_t &step)
{
    const SpaceTimeline *s = t.space(0);
    if (!s)
        s = t.primary();
    step = s ? s->peak.step : -1;
    return s ? s->peak.bytes : 0;
}

std::vector<KeyDelta> deltas(const std::vector<BreakdownRow> &before,
                             const std::vector<BreakdownRow> &after)
{
    std::map<std::string, KeyDelta> byKey;
    for (const BreakdownRow &r : before)
        byKey[r.key].before = r.bytes;
    for (const BreakdownRow &r : after)
        byKey[r.key].after = r.bytes;
    std::vector<KeyDelta> out;
    for (auto &[key, d] : byKey) {
        if (d.delta() == 0)
            continue;
        d.key = key;
        out.push_back(d);
    }
    std::stable_sort(out.begin(), out.end(), [](const KeyDelta &x, const KeyDelta &y) {
        return std::llabs(x.delta()) > std::llabs(y.delta());
    });
    return out;
}

} // namespace

DumpDiff DumpDiff::compute(const Dump &a, const MemoryTimeline &ta, const Dump &b,
                           const MemoryTimeline &tb)
{
    DumpDiff diff;
    diff.totalBefore = a.totalBytes();
    diff.totalAfter = b.totalBytes();
    diff.peakBefore = peakOf(ta, diff.peakStepBefore);
    diff.peakAfter = peakOf(tb, diff.peakStepAfter);

    // A key is unique in a well-formed dump; a damaged one may repeat it, and then the k-th
    // value with a key in A is matched with the k-th in B (so a dump equals itself).
    std::unordered_map<std::string, std::vector<std::uint32_t>> inB;
    inB.reserve(b.values.size());
    for (std::uint32_t i = 0; i < b.values.size(); ++i)
        inB[b.valueKey(b.values[i])].push_back(i);
    std::unordered_map<std::string, std::size_t> used;
    std::vector<bool> matched(b.values.size(), false);
    for (std::uint32_t i = 0; i < a.values.size(); ++i) {
        std::string key = a.valueKey(a.values[i]);
        const auto it = inB.find(key);
        std::size_t &k = used[key];
        if (it == inB.end() || k >= it->second.size()) {
            diff.removed.push_back({std::move(key), sideOf(a, i), {}});
            continue;
        }
        const std::uint32_t j = it->second[k++];
        matched[j] = true;
        const DiffSide before = sideOf(a, i);
        const DiffSide after = sideOf(b, j);
        if (before.bytes != after.bytes || before.start != after.start || before.end != after.end)
            diff.changed.push_back({std::move(key), before, after});
    }
    for (std::uint32_t i = 0; i < b.values.size(); ++i) {
        if (!matched[i])
            diff.added.push_back({b.valueKey(b.values[i]), {}, sideOf(b, i)});
    }
    auto bySize = [](const ValueChange &x, const ValueChange &y) {
        const std::int64_t sx = std::max(x.before.bytes, x.after.bytes);
        const std::int64_t sy = std::max(y.before.bytes, y.after.bytes);
        return sx != sy ? sx > sy : x.key < y.key;
    };
    std::sort(diff.added.begin(), diff.added.end(), bySize);
    std::sort(diff.removed.begin(), diff.removed.end(), bySize);
    std::sort(diff.changed.begin(), diff.changed.end(),
              [](const ValueChange &x, const ValueChange &y) {
                  const std::int64_t dx = std::llabs(x.after.bytes - x.before.bytes);
                  const std::int64_t dy = std::llabs(y.after.bytes - y.before.bytes);
                  return dx != dy ? dx > dy : x.key < y.key;
              });

    const Breakdown ba = Breakdown::compute(a, diff.peakStepBefore, 0);
    const Breakdown bb = Breakdown::compute(b, diff.peakStepAfter, 0);
    diff.byOpName = deltas(ba.byOpName, bb.byOpName);
    diff.bySource = deltas(ba.bySource, bb.bySource);
    return diff;
}

} // namespace bufferscope
