#include "MemoryTimeline.h"

#include <algorithm>
#include <map>
#include <optional>
#include <thread>

namespace bufferscope {

namespace {

/// Length of the union of intervals under insertions and removals: a segment tree over the
/// allocation's distinct byte boundaries (the classic "area of union" sweep).
class CoverageTree
{
public:
    explicit CoverageTree(std::vector<std::int64_t> coords) : m_coords(std::move(coords))
    {
        const std::size_t n = m_coords.size() > 1 ? m_coords.size() - 1 : 1;
        m_count.assign(4 * n, 0);
        m_length.assign(4 * n, 0);
        m_n = n;
    }
    std::size_t indexOf(std::int64_t coord) const
    {
        return static_cast<std::size_t>(std::lower_bound(m_coords.begin(), m_coords.end(), coord) -
                                        m_coords.begin());
    }
    void update(std::size_t lo, std::size_t hi, int delta) { update(1, 0, m_n, lo, hi, delta); }
    std::int64_t covered() const { return m_length[1]; }

private:
    void update(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi,
                int delta)
    {
        if (hi <= l || r <= lo)
            return;
        if (lo <= l && r <= hi) {
            m_count[node] += delta;
        } else {
            const std::size_t mid = (l + r) / 2;
            update(2 * node, l, mid, lo, hi, delta);
            update(2 * node + 1, mid, r, lo, hi, delta);
        }
        if (m_count[node] > 0)
            m_length[node] = m_coords[r] - m_coords[l];
        else if (r - l == 1)
            m_length[node] = 0;
        else
            m_length[node] = m_length[2 * node] + m_length[2 * node + 1];
    }

    std::vector<std::int64_t> m_coords;
    std::vector<int> m_count;
    std::vector<std::int64_t> m_length;
    std::size_t m_n = 1;
};

/// A live value of one allocation, copied out of Dump::values so the sweeps read memory in order.
struct LiveBox
{
    std::int64_t offset;
    std::int64_t size;
    std::int64_t start;
    std::int64_t end;
    std::uint32_t lo = 0; ///< CoverageTree indices of offset and offset + size
    std::uint32_t hi = 0;
};

struct Event
{
    std::int64_t time;
    std::uint32_t box;
    int delta;
};

/// The events of `boxes` (a start at `start`, an end at `end + 1`) in time order. Allocations with
/// many values relative to the step count (the big temp heaps) are bucketed by time in O(n +
/// steps); the rest are sorted.
void sortedEvents(const std::vector<LiveBox> &boxes, std::size_t steps, std::vector<Event> &events,
                  std::vector<std::uint32_t> &bucket)
{
    events.clear();
    if (boxes.size() * 4 < steps) {
        for (std::uint32_t k = 0; k < boxes.size(); ++k) {
            events.push_back({boxes[k].start, k, +1});
            events.push_back({boxes[k].end + 1, k, -1});
        }
        std::sort(events.begin(), events.end(),
                  [](const Event &x, const Event &y) { return x.time < y.time; });
        return;
    }
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

/// Sums of byte counts beyond this (4 EiB) are damage; the analyses refuse rather than overflow.
constexpr std::int64_t kMaxAnalysedSum = std::int64_t{1} << 62;

bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

/// Running sum of a difference array into per-step values; returns the earliest maximum.
StepBytes integrate(const std::vector<std::int64_t> &delta, std::vector<std::int64_t> &out,
                    std::size_t steps)
{
    out.assign(steps, 0);
    StepBytes peak{steps > 0 ? 0 : -1, 0};
    std::int64_t running = 0;
    for (std::size_t t = 0; t < steps; ++t) {
        running += delta[t];
        out[t] = running;
        if (running > peak.bytes) {
            peak.bytes = running;
            peak.step = static_cast<std::int64_t>(t);
        }
    }
    return peak;
}

/// Logical live bytes: a plain sum of shape bytes per value, as difference arrays per space.
void computeLogical(const Dump &dump, std::size_t steps, const std::vector<std::int32_t> &colors,
                    std::vector<std::vector<std::int64_t>> &logicalDelta,
                    std::vector<Diagnostic> &warnings)
{
    if (steps == 0)
        return;
    // The parser keeps each shape's bytes under 2^48 but not their sum over a million values:
    // check it first, so no partial sum below can overflow.
    std::int64_t total = 0;
    for (const Value &v : dump.values) {
        if (v.hasLiveRange() && (__builtin_add_overflow(total, dump.logicalBytes(v), &total) ||
                                 total > kMaxAnalysedSum)) {
            warnings.push_back({Severity::Warning, 0, 0,
                                "the values' shapes add up to more than 4 EiB; logical live bytes "
                                "are not computed for this dump",
                                kNone});
            return;
        }
    }
    for (const Value &v : dump.values) {
        if (!v.hasLiveRange())
            continue;
        const auto space = static_cast<std::size_t>(
            std::lower_bound(colors.begin(), colors.end(), v.color) - colors.begin());
        auto &delta = logicalDelta[space];
        const std::int64_t bytes = dump.logicalBytes(v);
        delta[static_cast<std::size_t>(v.start)] += bytes;
        delta[static_cast<std::size_t>(v.end) + 1] -= bytes;
    }
}

/// XLA's peak moment and the warnings it gives.
void computeXlaPeak(const Dump &dump, std::size_t steps, XlaPeak &peak,
                    std::vector<Diagnostic> &warnings)
{
    // XLA's peak moment (FORMAT.md 8.1): instruction-shape bytes, liveness [start, end + 1],
    // starts before ends at equal times, earliest strict maximum, all memory spaces together.
    if (steps > 0) {
        std::vector<std::int64_t> starts(steps + 1, 0);
        std::vector<std::int64_t> ends(steps + 1, 0);
        std::int64_t unknown = 0;
        std::int64_t total = 0;
        for (const Value &v : dump.values) {
            if (!v.hasLiveRange())
                continue;
            const auto bytes = MemoryTimeline::instructionBytes(dump, v);
            if (!bytes)
                ++unknown;
            if (__builtin_add_overflow(total, bytes.value_or(0), &total) ||
                total > kMaxAnalysedSum) {
                warnings.push_back({Severity::Warning, 0, 0,
                                    "the instruction shapes add up to more than 4 EiB; XLA's peak "
                                    "step cannot be recomputed for this dump",
                                    kNone});
                peak.exact = false;
                return;
            }
            starts[static_cast<std::size_t>(v.start)] += bytes.value_or(0);
            ends[static_cast<std::size_t>(v.end) + 1] += bytes.value_or(0);
        }
        std::int64_t usage = 0;
        std::int64_t most = 0;
        std::int64_t peakTime = 0;
        for (std::size_t t = 0; t <= steps; ++t) {
            usage += starts[t];
            if (usage > most) {
                most = usage;
                peakTime = static_cast<std::int64_t>(t);
            }
            usage -= ends[t];
        }
        peak.step = peakTime;
        peak.usage = most;
        peak.exact = unknown == 0;
        if (unknown > 0)
            warnings.push_back({Severity::Warning, 0, 0,
                                std::to_string(unknown) +
                                    " values have no known instruction shape; XLA's peak "
                                    "step is recomputed without them and may differ",
                                kNone});
        const PrintedPeak &printed = dump.printedPeak;
        if (printed.present && printed.step != peakTime)
            warnings.push_back({Severity::Warning, printed.file, printed.line,
                                "XLA printed its peak at step " + std::to_string(printed.step) +
                                    " but its algorithm recomputed on this dump gives step " +
                                    std::to_string(peakTime) +
                                    "; the dump may be edited or from another XLA",
                                kNone});
    }
}

} // namespace

std::optional<std::int64_t> MemoryTimeline::instructionBytes(const Dump &dump, const Value &value)
{
    if (const Instruction *ins = dump.instructionOf(value); ins && ins->shape != 0) {
        const ShapeInfo &info = dump.shapes[ins->shape];
        if (info.valid && info.bytesKnown)
            return info.logicalBytes;
        return std::nullopt;
    }
    // No instruction text (dumps before 2021-09): a non-tuple value has the instruction's shape;
    // a tuple element is counted at the index table, whose size the `{}` value's shape gives.
    if (!value.printedIndex) {
        const ShapeInfo &info = dump.shapes[value.shape];
        if (info.valid && info.bytesKnown)
            return info.logicalBytes;
        return std::nullopt;
    }
    if (value.instruction != kNone) {
        for (auto [it, end] = dump.valuesOf(value.instruction); it != end; ++it) {
            const Value &sibling = dump.values[*it];
            if (dump.str(sibling.index) == "{}" && dump.shapes[sibling.shape].tupleArity >= 0)
                return std::int64_t{8} * dump.shapes[sibling.shape].tupleArity;
        }
    }
    return std::nullopt;
}

std::optional<MemoryTimeline> MemoryTimeline::compute(const Dump &dump,
                                                      const std::atomic<bool> *cancel)
{
    MemoryTimeline tl;
    const auto steps = static_cast<std::size_t>(dump.stepCount());
    tl.m_allocations.resize(dump.allocations.size());

    // Memory spaces: every allocation color and value color, ascending.
    std::vector<std::int32_t> colors;
    for (const Allocation &a : dump.allocations)
        colors.push_back(a.color);
    for (const Value &v : dump.values)
        colors.push_back(v.color);
    if (colors.empty())
        colors.push_back(0);
    std::sort(colors.begin(), colors.end());
    colors.erase(std::unique(colors.begin(), colors.end()), colors.end());
    auto spaceIndex = [&](std::int32_t color) {
        return static_cast<std::size_t>(std::lower_bound(colors.begin(), colors.end(), color) -
                                        colors.begin());
    };
    std::vector<std::vector<std::int64_t>> liveDelta(colors.size(),
                                                     std::vector<std::int64_t>(steps + 1, 0));
    std::vector<std::vector<std::int64_t>> logicalDelta = liveDelta;

    // Logical live bytes and XLA's peak moment read only the values; they run on a second
    // thread while this one sweeps the allocations.
    std::vector<Diagnostic> xlaWarnings;
    std::thread valueSweeps([&] {
        computeLogical(dump, steps, colors, logicalDelta, xlaWarnings);
        computeXlaPeak(dump, steps, tl.m_xlaPeak, xlaWarnings);
    });

    // Live bytes: per allocation, the union of live byte ranges (in-place chains share bytes).
    std::vector<LiveBox> boxes;
    std::vector<Event> events;
    std::vector<std::uint32_t> bucket;
    std::vector<std::int64_t> coords;
    bool stopped = false;
    for (std::size_t ai = 0; ai < dump.allocations.size(); ++ai) {
        if (cancelled(cancel)) {
            stopped = true;
            break;
        }
        const Allocation &a = dump.allocations[ai];
        auto &delta = liveDelta[spaceIndex(a.color)];
        AllocationUsage &usage = tl.m_allocations[ai];
        boxes.clear();
        for (std::uint32_t k = 0; k < a.valueCount && steps > 0; ++k) {
            const Value &v = dump.values[dump.allocationValues[a.firstValue + k]];
            if (v.hasLiveRange() && v.size > 0)
                boxes.push_back({v.offset, v.size, v.start, v.end});
        }
        if (boxes.empty()) {
            usage.fragmentation = a.size;
            continue;
        }
        // Disjoint byte ranges (the common case): the union is the plain sum.
        std::sort(boxes.begin(), boxes.end(),
                  [](const LiveBox &x, const LiveBox &y) { return x.offset < y.offset; });
        bool disjoint = true;
        for (std::size_t k = 1; k < boxes.size() && disjoint; ++k)
            disjoint = boxes[k - 1].offset + boxes[k - 1].size <= boxes[k].offset;
        sortedEvents(boxes, steps, events, bucket);
        std::optional<CoverageTree> tree;
        if (!disjoint) {
            coords.clear();
            for (const LiveBox &box : boxes) {
                coords.push_back(box.offset);
                coords.push_back(box.offset + box.size);
            }
            std::sort(coords.begin(), coords.end());
            coords.erase(std::unique(coords.begin(), coords.end()), coords.end());
            tree.emplace(coords);
            for (LiveBox &box : boxes) {
                box.lo = static_cast<std::uint32_t>(tree->indexOf(box.offset));
                box.hi = static_cast<std::uint32_t>(tree->indexOf(box.offset + box.size));
            }
        }
        std::int64_t covered = 0;
        std::int64_t prevCovered = 0;
        for (std::size_t k = 0; k < events.size();) {
            const std::int64_t t = events[k].time;
            for (; k < events.size() && events[k].time == t; ++k) {
                const LiveBox &box = boxes[events[k].box];
                if (tree)
                    tree->update(box.lo, box.hi, events[k].delta);
                else
                    covered += events[k].delta * box.size;
            }
            if (tree)
                covered = tree->covered();
            delta[static_cast<std::size_t>(t)] += covered - prevCovered;
            prevCovered = covered;
            if (covered > usage.largestLiveBytes && t < static_cast<std::int64_t>(steps)) {
                usage.largestLiveBytes = covered;
                usage.largestLiveStep = t;
            }
        }
        usage.fragmentation = std::max<std::int64_t>(0, a.size - usage.largestLiveBytes);
    }
    valueSweeps.join();
    if (stopped)
        return std::nullopt;
    tl.m_warnings = std::move(xlaWarnings);

    for (std::size_t s = 0; s < colors.size(); ++s) {
        SpaceTimeline space;
        space.memorySpace = colors[s];
        space.peak = integrate(liveDelta[s], space.liveBytes, steps);
        space.logicalPeak = integrate(logicalDelta[s], space.logicalBytes, steps);
        tl.m_spaces.push_back(std::move(space));
    }

    return tl;
}

const SpaceTimeline *MemoryTimeline::space(std::int32_t color) const
{
    for (const auto &s : m_spaces) {
        if (s.memorySpace == color)
            return &s;
    }
    return nullptr;
}

const SpaceTimeline *MemoryTimeline::primary() const
{
    if (const auto *s = space(0))
        return s;
    return m_spaces.empty() ? nullptr : &m_spaces.front();
}

std::vector<std::uint32_t> MemoryTimeline::valuesLiveAt(const Dump &dump, std::int64_t step,
                                                        std::int32_t color)
{
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < dump.values.size(); ++i) {
        const Value &v = dump.values[i];
        if (v.color == color && v.liveAt(step))
            out.push_back(i);
    }
    std::sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Value &x = dump.values[a];
        const Value &y = dump.values[b];
        return x.size != y.size ? x.size > y.size : x.id < y.id;
    });
    return out;
}

} // namespace bufferscope
