#include "CoverageSweep.h"

#include "util/Parallel.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <system_error>
#include <thread>

namespace bufferscope {

namespace {

using Scratch = CoverageSweep::Scratch;
using Largest = CoverageSweep::Largest;

/// The events of `boxes` (a start at `start`, an end at `end + 1`) in time order. Box sets with
/// many boxes relative to the step count (the big temp heaps) are bucketed by time in O(n +
/// steps); the rest are sorted.
void sortedEvents(const std::vector<LiveBox> &boxes, std::size_t steps, Scratch &s)
{
    auto &events = s.events;
    events.clear();
    if (boxes.size() * 4 < steps) {
        for (std::uint32_t k = 0; k < boxes.size(); ++k) {
            events.push_back({boxes[k].start, k, +1});
            events.push_back({boxes[k].end + 1, k, -1});
        }
        std::sort(events.begin(), events.end(),
                  [](const Scratch::Event &x, const Scratch::Event &y) { return x.time < y.time; });
        return;
    }
    auto &bucket = s.bucket;
    bucket.assign(steps + 3, 0);
    for (const LiveBox &b : boxes) {
        ++bucket[static_cast<std::size_t>(b.start) + 1];
        ++bucket[static_cast<std::size_t>(b.end) + 2];
    }
    for (std::size_t t = 1; t < bucket.size(); ++t)
        bucket[t] += bucket[t - 1];
    events.resize(boxes.size() * 2);
    for (std::uint32_t k = 0; k < boxes.size(); ++k) {
        const LiveBox &b = boxes[k];
        events[bucket[static_cast<std::size_t>(b.start)]++] = {b.start, k, +1};
        events[bucket[static_cast<std::size_t>(b.end) + 1]++] = {b.end + 1, k, -1};
    }
}

/// The distinct byte boundaries of `boxes` (sorted by offset) into s.coords, and each box's
/// first and end boundary index into s.lo / s.hi. One sort of the ends, then a merge.
void compressCoordinates(const std::vector<LiveBox> &boxes, Scratch &s)
{
    const std::size_t n = boxes.size();
    s.ends.resize(n);
    for (std::uint32_t k = 0; k < n; ++k)
        s.ends[k] = {boxes[k].offset + boxes[k].size, k};
    std::sort(s.ends.begin(), s.ends.end(),
              [](const auto &x, const auto &y) { return x.first < y.first; });
    s.lo.resize(n);
    s.hi.resize(n);
    s.coords.clear();
    constexpr std::int64_t kPast = std::numeric_limits<std::int64_t>::max();
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < n || j < n) {
        const std::int64_t c =
            std::min(i < n ? boxes[i].offset : kPast, j < n ? s.ends[j].first : kPast);
        const auto index = static_cast<std::uint32_t>(s.coords.size());
        s.coords.push_back(c);
        for (; i < n && boxes[i].offset == c; ++i)
            s.lo[i] = index;
        for (; j < n && s.ends[j].first == c; ++j)
            s.hi[s.ends[j].second] = index;
    }
}

/// Length of the union of segment ranges under insertions and removals: a bottom-up segment
/// tree over the elementary segments between coordinates, a power of two leaves wide (the
/// padding leaves have no width). A node's length is its width when a range covers it whole,
/// else its children's sum; widths are computed, not stored.
class UnionTree
{
public:
    UnionTree(const std::vector<std::int64_t> &coords, std::vector<int> &count,
              std::vector<std::int64_t> &length)
        : m_coords(coords), m_count(count), m_length(length), m_segments(coords.size() - 1)
    {
        while ((std::size_t{1} << m_levels) < m_segments)
            ++m_levels;
        m_size = std::size_t{1} << m_levels;
        m_count.assign(2 * m_size, 0);
        m_length.assign(2 * m_size, 0);
    }

    std::int64_t covered() const { return m_length[1]; }

    /// Adds `delta` to the cover count of segments [lo, hi), lo < hi.
    void update(std::size_t lo, std::size_t hi, int delta)
    {
        std::size_t l = lo + m_size;
        std::size_t r = hi + m_size;
        std::size_t left = l >> 1;
        std::size_t right = (r - 1) >> 1;
        for (; l < r; l >>= 1, r >>= 1) {
            if (l & 1) {
                m_count[l] += delta;
                pull(l++);
            }
            if (r & 1) {
                m_count[--r] += delta;
                pull(r);
            }
        }
        // The ancestors of both ends, bottom-up (all leaves sit at one depth, so the two paths
        // climb in step and meet).
        for (; left != right; left >>= 1, right >>= 1) {
            pull(left);
            pull(right);
        }
        for (; left > 0; left >>= 1)
            pull(left);
    }

private:
    std::int64_t width(std::size_t node) const
    {
        const int depth = 63 - __builtin_clzll(node);
        const int height = m_levels - depth;
        const std::size_t first = (node << height) - m_size;
        const std::size_t last = first + (std::size_t{1} << height);
        return m_coords[std::min(last, m_segments)] - m_coords[std::min(first, m_segments)];
    }
    void pull(std::size_t node)
    {
        if (m_count[node] > 0)
            m_length[node] = width(node);
        else if (node >= m_size)
            m_length[node] = 0;
        else
            m_length[node] = m_length[2 * node] + m_length[2 * node + 1];
    }

    const std::vector<std::int64_t> &m_coords;
    std::vector<int> &m_count;
    std::vector<std::int64_t> &m_length;
    std::size_t m_segments;
    int m_levels = 0;
    std::size_t m_size = 1;
};

/// One byte range's sweep over time; `boxes` sorted by offset (and by `origin`, each box's
/// offset before a slab clipped it, at one offset: boxes of different buffers clipped to one
/// slab's edge are not one buffer).
Largest sweep(const std::vector<LiveBox> &boxes, std::size_t steps,
              std::vector<std::int64_t> &delta, Scratch &s,
              const std::vector<std::int64_t> *origin = nullptr)
{
    Largest largest;
    if (boxes.empty())
        return largest;
    // Disjoint byte ranges (the common case): the union is the plain sum.
    bool disjoint = true;
    for (std::size_t k = 1; k < boxes.size() && disjoint; ++k)
        disjoint = boxes[k - 1].offset + boxes[k - 1].size <= boxes[k].offset;
    sortedEvents(boxes, steps, s);
    std::optional<UnionTree> tree;
    if (!disjoint) {
        compressCoordinates(boxes, s);
        tree.emplace(s.coords, s.count, s.length);
        // The boxes at one offset are one group (one buffer); a group counts its smallest
        // box once while any of it is live. More than the union at a step: groups overlap.
        s.group.resize(boxes.size());
        s.groupSize.assign(boxes.size(), 0);
        s.groupLive.assign(boxes.size(), 0);
        for (std::uint32_t k = 0; k < boxes.size(); ++k) {
            const bool first = k == 0 || boxes[k - 1].offset != boxes[k].offset ||
                               (origin && (*origin)[k - 1] != (*origin)[k]);
            s.group[k] = first ? k : s.group[k - 1];
            std::int64_t &size = s.groupSize[s.group[k]];
            size = first ? boxes[k].size : std::min(size, boxes[k].size);
        }
    }
    const auto &events = s.events;
    std::int64_t covered = 0;
    std::int64_t prevCovered = 0;
    std::int64_t groups = 0; // the live groups' smallest sizes, summed
    for (std::size_t k = 0; k < events.size();) {
        const std::int64_t t = events[k].time;
        for (; k < events.size() && events[k].time == t; ++k) {
            const std::uint32_t box = events[k].box;
            if (tree) {
                tree->update(s.lo[box], s.hi[box], events[k].delta);
                const std::uint32_t g = s.group[box];
                if (events[k].delta > 0 && s.groupLive[g]++ == 0)
                    groups += s.groupSize[g];
                else if (events[k].delta < 0 && --s.groupLive[g] == 0)
                    groups -= s.groupSize[g];
            } else {
                covered += events[k].delta * boxes[box].size;
            }
        }
        if (tree)
            covered = tree->covered();
        delta[static_cast<std::size_t>(t)] += covered - prevCovered;
        prevCovered = covered;
        if (t < static_cast<std::int64_t>(steps)) {
            if (covered > largest.bytes) {
                largest.bytes = covered;
                largest.step = t;
            }
            if (groups > covered && largest.overlapStep < 0)
                largest.overlapStep = t;
        }
    }
    return largest;
}

} // namespace

Largest CoverageSweep::run(std::vector<LiveBox> &boxes, std::size_t steps,
                           std::vector<std::int64_t> &delta, Scratch &scratch,
                           std::size_t splitFrom, int threads)
{
    if (boxes.empty())
        return {};
    if (boxes.size() >= splitFrom) {
        return runGathered(
            boxes.size(),
            [&boxes](std::size_t from, std::size_t to, std::vector<LiveBox> &out) {
                out.insert(out.end(), boxes.begin() + static_cast<std::ptrdiff_t>(from),
                           boxes.begin() + static_cast<std::ptrdiff_t>(to));
            },
            steps, delta, threads);
    }
    const auto byOffset = [](const LiveBox &x, const LiveBox &y) { return x.offset < y.offset; };
    // XLA lists an allocation's values by offset, so the boxes usually come sorted.
    if (!std::is_sorted(boxes.begin(), boxes.end(), byOffset))
        std::sort(boxes.begin(), boxes.end(), byOffset);
    return sweep(boxes, steps, delta, scratch);
}

Largest CoverageSweep::runGathered(std::size_t count, const Gather &gather, std::size_t steps,
                                   std::vector<std::int64_t> &delta, int requested)
{
    const int threads = threadsFor(requested);
    const std::size_t parts = 2 * static_cast<std::size_t>(threads);
    std::vector<std::vector<LiveBox>> gathered(parts);
    parallelFor(parts, threads, [&](std::size_t i) {
        gather(count * i / parts, count * (i + 1) / parts, gathered[i]);
    });
    std::size_t total = 0;
    for (const auto &part : gathered)
        total += part.size();
    if (total == 0)
        return {};
    // Byte slabs cut at quantiles of a sample of the offsets, two per thread so that a slab
    // heavier than the rest (a stretch of overlapping boxes) does not hold the others up. Each
    // box is clipped to the slabs it reaches, each slab is swept on its own, and the union over
    // the allocation is the sum of the slabs' unions (whatever the cuts).
    const std::size_t stride = std::max<std::size_t>(1, total / 4096);
    std::vector<std::int64_t> sample;
    for (const auto &part : gathered) {
        for (std::size_t k = 0; k < part.size(); k += stride)
            sample.push_back(part[k].offset);
    }
    std::sort(sample.begin(), sample.end());
    constexpr std::int64_t kPast = std::numeric_limits<std::int64_t>::max();
    const std::size_t wanted = std::max<std::size_t>(2, 2 * static_cast<std::size_t>(threads));
    std::vector<std::int64_t> cuts{std::numeric_limits<std::int64_t>::min()};
    for (std::size_t k = 1; k < wanted; ++k) {
        const std::int64_t at = sample[k * sample.size() / wanted];
        if (at > cuts.back())
            cuts.push_back(at);
    }
    cuts.push_back(kPast);
    const std::size_t slabs = cuts.size() - 1; // slab i is [cuts[i], cuts[i + 1])
    std::vector<std::vector<std::int64_t>> deltas(slabs);
    std::vector<std::int64_t> overlaps(slabs, -1);
    parallelFor(slabs, threads, [&](std::size_t i) {
        const std::int64_t low = cuts[i];
        const std::int64_t high = cuts[i + 1];
        // Each box clipped to the slab, with the offset it had (its buffer's).
        std::vector<std::pair<LiveBox, std::int64_t>> cut;
        for (const auto &part : gathered) {
            for (const LiveBox &b : part) {
                const std::int64_t end = b.offset + b.size;
                if (b.offset >= high || end <= low)
                    continue;
                const std::int64_t from = std::max(b.offset, low);
                cut.push_back({{from, std::min(end, high) - from, b.start, b.end}, b.offset});
            }
        }
        std::sort(cut.begin(), cut.end(), [](const auto &x, const auto &y) {
            return x.first.offset != y.first.offset ? x.first.offset < y.first.offset
                                                    : x.second < y.second;
        });
        std::vector<LiveBox> slab;
        std::vector<std::int64_t> origin;
        slab.reserve(cut.size());
        origin.reserve(cut.size());
        for (const auto &[box, at] : cut) {
            slab.push_back(box);
            origin.push_back(at);
        }
        cut = {};
        deltas[i].assign(steps + 1, 0);
        Scratch own;
        overlaps[i] = sweep(slab, steps, deltas[i], own, &origin).overlapStep;
    });

    Largest largest;
    for (const std::int64_t at : overlaps)
        if (at >= 0 && (largest.overlapStep < 0 || at < largest.overlapStep))
            largest.overlapStep = at;
    std::int64_t covered = 0;
    for (std::size_t t = 0; t <= steps; ++t) {
        std::int64_t d = 0;
        for (const std::vector<std::int64_t> &slabDelta : deltas)
            d += slabDelta[t];
        delta[t] += d;
        covered += d;
        if (covered > largest.bytes && t < steps) {
            largest.bytes = covered;
            largest.step = static_cast<std::int64_t>(t);
        }
    }
    return largest;
}

} // namespace bufferscope
