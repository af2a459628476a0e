#include "MemoryTimeline.h"

#include <algorithm>
#include <map>

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

struct Event
{
    std::int64_t time;
    std::uint32_t value;
    int delta;
};

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

    // Logical live bytes: a plain sum per value.
    for (const Value &v : dump.values) {
        if (!v.hasLiveRange() || steps == 0)
            continue;
        auto &delta = logicalDelta[spaceIndex(v.color)];
        const std::int64_t bytes = dump.logicalBytes(v);
        delta[static_cast<std::size_t>(v.start)] += bytes;
        delta[static_cast<std::size_t>(v.end) + 1] -= bytes;
    }

    // Live bytes: per allocation, the union of live byte ranges (in-place chains share bytes).
    std::vector<std::uint32_t> live;
    std::vector<Event> events;
    for (std::size_t ai = 0; ai < dump.allocations.size(); ++ai) {
        if (cancelled(cancel))
            return std::nullopt;
        const Allocation &a = dump.allocations[ai];
        auto &delta = liveDelta[spaceIndex(a.color)];
        AllocationUsage &usage = tl.m_allocations[ai];
        live.clear();
        for (std::uint32_t k = 0; k < a.valueCount; ++k) {
            const std::uint32_t vi = dump.allocationValues[a.firstValue + k];
            const Value &v = dump.values[vi];
            if (v.hasLiveRange() && v.size > 0 && steps > 0)
                live.push_back(vi);
        }
        if (live.empty()) {
            usage.fragmentation = a.size;
            continue;
        }
        // Disjoint byte ranges (the common case): the union is the plain sum.
        std::sort(live.begin(), live.end(), [&](std::uint32_t x, std::uint32_t y) {
            return dump.values[x].offset < dump.values[y].offset;
        });
        bool disjoint = true;
        for (std::size_t k = 1; k < live.size() && disjoint; ++k) {
            const Value &p = dump.values[live[k - 1]];
            disjoint = p.offset + p.size <= dump.values[live[k]].offset;
        }
        events.clear();
        for (std::uint32_t vi : live) {
            const Value &v = dump.values[vi];
            events.push_back({v.start, vi, +1});
            events.push_back({v.end + 1, vi, -1});
        }
        std::sort(events.begin(), events.end(),
                  [](const Event &x, const Event &y) { return x.time < y.time; });
        std::int64_t covered = 0;
        std::int64_t prevCovered = 0;
        if (disjoint) {
            for (std::size_t k = 0; k < events.size();) {
                const std::int64_t t = events[k].time;
                for (; k < events.size() && events[k].time == t; ++k)
                    covered += events[k].delta * dump.values[events[k].value].size;
                delta[static_cast<std::size_t>(t)] += covered - prevCovered;
                prevCovered = covered;
                if (covered > usage.largestLiveBytes && t < static_cast<std::int64_t>(steps)) {
                    usage.largestLiveBytes = covered;
                    usage.largestLiveStep = t;
                }
            }
        } else {
            std::vector<std::int64_t> coords;
            coords.reserve(live.size() * 2);
            for (std::uint32_t vi : live) {
                coords.push_back(dump.values[vi].offset);
                coords.push_back(dump.values[vi].offset + dump.values[vi].size);
            }
            std::sort(coords.begin(), coords.end());
            coords.erase(std::unique(coords.begin(), coords.end()), coords.end());
            CoverageTree tree(coords);
            for (std::size_t k = 0; k < events.size();) {
                const std::int64_t t = events[k].time;
                for (; k < events.size() && events[k].time == t; ++k) {
                    const Value &v = dump.values[events[k].value];
                    tree.update(tree.indexOf(v.offset), tree.indexOf(v.offset + v.size),
                                events[k].delta);
                }
                covered = tree.covered();
                delta[static_cast<std::size_t>(t)] += covered - prevCovered;
                prevCovered = covered;
                if (covered > usage.largestLiveBytes && t < static_cast<std::int64_t>(steps)) {
                    usage.largestLiveBytes = covered;
                    usage.largestLiveStep = t;
                }
            }
        }
        usage.fragmentation = std::max<std::int64_t>(0, a.size - usage.largestLiveBytes);
    }

    for (std::size_t s = 0; s < colors.size(); ++s) {
        SpaceTimeline space;
        space.memorySpace = colors[s];
        space.peak = integrate(liveDelta[s], space.liveBytes, steps);
        space.logicalPeak = integrate(logicalDelta[s], space.logicalBytes, steps);
        tl.m_spaces.push_back(std::move(space));
    }

    // XLA's peak moment (FORMAT.md 8.1): instruction-shape bytes, liveness [start, end + 1],
    // starts before ends at equal times, earliest strict maximum, all memory spaces together.
    if (steps > 0) {
        std::vector<std::int64_t> starts(steps + 1, 0);
        std::vector<std::int64_t> ends(steps + 1, 0);
        std::int64_t unknown = 0;
        for (const Value &v : dump.values) {
            if (!v.hasLiveRange())
                continue;
            const auto bytes = instructionBytes(dump, v);
            if (!bytes)
                ++unknown;
            starts[static_cast<std::size_t>(v.start)] += bytes.value_or(0);
            ends[static_cast<std::size_t>(v.end) + 1] += bytes.value_or(0);
        }
        std::int64_t usage = 0;
        std::int64_t peak = 0;
        std::int64_t peakTime = 0;
        for (std::size_t t = 0; t <= steps; ++t) {
            usage += starts[t];
            if (usage > peak) {
                peak = usage;
                peakTime = static_cast<std::int64_t>(t);
            }
            usage -= ends[t];
        }
        tl.m_xlaPeak.step = peakTime;
        tl.m_xlaPeak.usage = peak;
        tl.m_xlaPeak.exact = unknown == 0;
        if (unknown > 0)
            tl.m_warnings.push_back({Severity::Warning, 0, 0,
                                     std::to_string(unknown) +
                                         " values have no known instruction shape; XLA's peak "
                                         "step is recomputed without them and may differ",
                                     kNone});
        const PrintedPeak &printed = dump.printedPeak;
        if (printed.present && printed.step != peakTime)
            tl.m_warnings.push_back(
                {Severity::Warning, printed.file, printed.line,
                 "XLA printed its peak at step " + std::to_string(printed.step) +
                     " but its algorithm recomputed on this dump gives step " +
                     std::to_string(peakTime) + "; the dump may be edited or from another XLA",
                 kNone});
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
