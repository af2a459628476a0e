#include "MemoryTimeline.h"

#include "CoverageSweep.h"
#include "PeakBreakdown.h"
#include "util/Parallel.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <optional>

namespace bufferscope {

namespace {

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

/// One warning for the op_names deeper than the op_name tree shows (Breakdown::kMaxDepth).
void warnDeepOpNames(const Dump &dump, std::vector<Diagnostic> &warnings)
{
    std::size_t deep = 0;
    std::size_t deepest = 0;
    std::string example;
    std::vector<bool> seen;
    for (const Instruction &ins : dump.instructions) {
        if (ins.opName == kNoString)
            continue;
        const std::string_view text = dump.str(ins.opName);
        // More than kMaxDepth segments need at least kMaxDepth slashes.
        if (text.size() <= 2 * Breakdown::kMaxDepth ||
            std::count(text.begin(), text.end(), '/') < std::ptrdiff_t(Breakdown::kMaxDepth))
            continue;
        if (seen.size() <= ins.opName)
            seen.resize(ins.opName + 1, false);
        if (seen[ins.opName])
            continue;
        seen[ins.opName] = true;
        const std::size_t segments = Breakdown::opNamePath(text).size();
        if (segments <= Breakdown::kMaxDepth)
            continue;
        ++deep;
        if (segments > deepest) {
            deepest = segments;
            example = std::string(dump.str(ins.name));
        }
    }
    if (deep > 0)
        warnings.push_back({Severity::Warning, 0, 0,
                            std::to_string(deep) + " op_name(s) have more than " +
                                std::to_string(Breakdown::kMaxDepth) + " segments (the deepest, " +
                                std::to_string(deepest) + ", on instruction " + example +
                                "): the op_name tree shows the first " +
                                std::to_string(Breakdown::kMaxDepth - 1) +
                                " segments and the rest as one node",
                            kNone});
}

/// At most this many allocations are named for values that share bytes they should not.
constexpr std::size_t kOverlapWarnings = 8;

/// Two values of `a` at different offsets that share bytes while both are live at `step`
/// (CoverageSweep's hint), confirmed among the values live there and said once: XLA's heap
/// simulator places the buffers live at one time apart, and only the values of one buffer
/// (one offset) share bytes. A pair that only touches (one is live to the step the other
/// starts) is not one. O(values of the allocation), only where the sweep saw an overlap.
void warnOverlap(const Dump &dump, const Allocation &a, std::int64_t step,
                 std::vector<Diagnostic> &warnings)
{
    std::vector<std::uint32_t> live;
    for (std::uint32_t k = 0; k < a.valueCount; ++k) {
        const std::uint32_t v = dump.allocationValues[a.firstValue + k];
        if (dump.values[v].liveAt(step) && dump.values[v].size > 0)
            live.push_back(v);
    }
    std::sort(live.begin(), live.end(), [&dump](std::uint32_t x, std::uint32_t y) {
        return dump.values[x].offset < dump.values[y].offset;
    });
    // Sorted by offset, a box overlapping an earlier one overlaps the one reaching furthest.
    std::uint32_t reach = kNone;
    for (const std::uint32_t v : live) {
        const Value &b = dump.values[v];
        if (reach != kNone) {
            const Value &r = dump.values[reach];
            const bool apart = r.offset == b.offset || r.offset + r.size <= b.offset;
            const bool together = std::max(r.start, b.start) < std::min(r.end, b.end);
            if (!apart && together) {
                const std::int64_t shared =
                    std::min(r.offset + r.size, b.offset + b.size) - b.offset;
                warnings.push_back(
                    {Severity::Warning, b.file, b.line,
                     "allocation " + std::to_string(a.index) + ": " + dump.valueKey(r) +
                         " (offset " + std::to_string(r.offset) + ", " + std::to_string(r.size) +
                         " bytes, steps " + std::to_string(r.start) + "-" + std::to_string(r.end) +
                         ") and " + dump.valueKey(b) + " (offset " + std::to_string(b.offset) +
                         ", " + std::to_string(b.size) + " bytes, steps " +
                         std::to_string(b.start) + "-" + std::to_string(b.end) + ") share " +
                         std::to_string(shared) + " bytes while both are live at step " +
                         std::to_string(step) +
                         ": XLA places the buffers live at one time apart, so the dump "
                         "contradicts itself here; the live bytes count the shared bytes once",
                     v});
                return;
            }
        }
        if (reach == kNone ||
            b.offset + b.size > dump.values[reach].offset + dump.values[reach].size)
            reach = v;
    }
}

/// XLA's peak moment and the warnings it gives.
void computeXlaPeak(const Dump &dump, std::size_t steps, XlaPeak &peak,
                    std::vector<Diagnostic> &warnings)
{
    // XLA's peak moment (docs/FORMAT.md 8.1): instruction-shape bytes, liveness [start, end + 1],
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

MemoryTimeline::Unseen MemoryTimeline::unseenByPrintedRule(const Dump &dump, std::int64_t step,
                                                           std::int32_t color)
{
    Unseen out;
    if (step < 0)
        return out;
    for (const std::uint32_t v : valuesLiveAt(dump, step, color)) {
        const auto xla = instructionBytes(dump, dump.values[v]);
        if (xla && *xla < dump.values[v].size) {
            out.bytes += dump.values[v].size - *xla;
            out.values.push_back(v);
        }
    }
    return out;
}

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
                                                      const std::atomic<bool> *cancel, int threads)
{
    MemoryTimeline tl;
    const auto steps = static_cast<std::size_t>(dump.stepCount());
    tl.m_allocations.resize(dump.allocations.size());

    // Memory spaces: every allocation color and value color, ascending. Neighbours mostly share
    // one, so repeats of the last color are skipped before the sort (a damaged file with a
    // color per value still sorts in O(n log n)).
    std::vector<std::int32_t> colors;
    auto addColor = [&colors](std::int32_t color) {
        if (colors.empty() || colors.back() != color)
            colors.push_back(color);
    };
    for (const Allocation &a : dump.allocations)
        addColor(a.color);
    for (const Value &v : dump.values)
        addColor(v.color);
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
    double valueSeconds = 0;
    const auto valueSweeps = [&] {
        const Stopwatch timing;
        computeLogical(dump, steps, colors, logicalDelta, xlaWarnings);
        computeXlaPeak(dump, steps, tl.m_xlaPeak, xlaWarnings);
        valueSeconds = timing.seconds();
    };

    // Live bytes: per allocation, the union of live byte ranges (in-place chains share bytes).
    bool stopped = false;
    double sweepSeconds = 0;
    std::vector<Diagnostic> overlapWarnings; // the allocation sweep's own, merged below
    const auto allocationSweep = [&] {
        const Stopwatch sweepTiming;
        std::vector<LiveBox> boxes;
        CoverageSweep::Scratch scratch;
        for (std::size_t ai = 0; ai < dump.allocations.size(); ++ai) {
            if (cancelled(cancel)) {
                stopped = true;
                break;
            }
            const Allocation &a = dump.allocations[ai];
            AllocationUsage &usage = tl.m_allocations[ai];
            const auto gather = [&dump, &a, steps](std::size_t from, std::size_t to,
                                                   std::vector<LiveBox> &out) {
                for (std::size_t k = from; k < to && steps > 0; ++k) {
                    const Value &v = dump.values[dump.allocationValues[a.firstValue + k]];
                    if (v.hasLiveRange() && v.size > 0)
                        out.push_back({v.offset, v.size, v.start, v.end});
                }
            };
            std::vector<std::int64_t> &delta = liveDelta[spaceIndex(a.color)];
            CoverageSweep::Largest largest;
            if (a.valueCount >= CoverageSweep::kDefaultSplitFrom) {
                // A temp heap with most of the dump's values: read in place, on every thread.
                largest = CoverageSweep::runGathered(a.valueCount, gather, steps, delta, threads);
            } else {
                boxes.clear();
                gather(0, a.valueCount, boxes);
                largest = CoverageSweep::run(boxes, steps, delta, scratch);
            }
            if (largest.overlapStep >= 0 && overlapWarnings.size() < kOverlapWarnings)
                warnOverlap(dump, a, largest.overlapStep, overlapWarnings);
            usage.largestLiveBytes = largest.bytes;
            usage.largestLiveStep = largest.step;
            usage.fragmentation = std::max<std::int64_t>(0, a.size - usage.largestLiveBytes);
        }
        sweepSeconds = sweepTiming.seconds();
    };
    runBoth(allocationSweep, valueSweeps, threads);
    spdlog::debug("memory timeline: allocation sweep {:.3f} s, value sweeps {:.3f} s", sweepSeconds,
                  valueSeconds);
    if (stopped)
        return std::nullopt;
    tl.m_warnings = std::move(xlaWarnings);
    tl.m_warnings.insert(tl.m_warnings.end(), overlapWarnings.begin(), overlapWarnings.end());
    warnDeepOpNames(dump, tl.m_warnings);

    for (std::size_t s = 0; s < colors.size(); ++s) {
        SpaceTimeline space;
        space.memorySpace = colors[s];
        space.peak = integrate(liveDelta[s], space.liveBytes, steps);
        space.logicalPeak = integrate(logicalDelta[s], space.logicalBytes, steps);
        tl.m_spaces.push_back(std::move(space));
    }

    return tl;
}

std::optional<std::vector<std::int64_t>>
MemoryTimeline::liveBytesOf(const Dump &dump, std::vector<std::uint32_t> values, std::int32_t color,
                            const std::atomic<bool> *cancel, int threads)
{
    const auto steps = static_cast<std::size_t>(dump.stepCount());
    // By allocation, then value: each allocation's boxes are one run of the list.
    const auto allocationOf = [&dump](std::uint32_t v) { return dump.values[v].allocation; };
    std::erase_if(values, [&](std::uint32_t v) {
        if (v >= dump.values.size())
            return true;
        const Value &value = dump.values[v];
        return value.color != color || !value.hasLiveRange() || value.size <= 0 ||
               value.allocation == kNone || steps == 0;
    });
    std::sort(values.begin(), values.end(), [&](std::uint32_t a, std::uint32_t b) {
        return allocationOf(a) != allocationOf(b) ? allocationOf(a) < allocationOf(b) : a < b;
    });
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::vector<std::int64_t> delta(steps + 1, 0);
    std::vector<LiveBox> boxes;
    CoverageSweep::Scratch scratch;
    for (std::size_t first = 0; first < values.size();) {
        if (cancelled(cancel))
            return std::nullopt;
        std::size_t last = first;
        boxes.clear();
        while (last < values.size() && allocationOf(values[last]) == allocationOf(values[first])) {
            const Value &v = dump.values[values[last]];
            boxes.push_back({v.offset, v.size, v.start, v.end});
            ++last;
        }
        CoverageSweep::run(boxes, steps, delta, scratch, CoverageSweep::kDefaultSplitFrom, threads);
        first = last;
    }
    std::vector<std::int64_t> out;
    integrate(delta, out, steps);
    return out;
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
