#include "PeakExplainer.h"

#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakBreakdown.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string_view>

namespace bufferscope {

namespace {

constexpr std::int64_t kMiB = std::int64_t{1024} * 1024;
/// A fragmentation finding ranks this many of its allocation's values by size (see Finding).
constexpr std::size_t kRankedValues = 100;

std::string percent(std::int64_t part, std::int64_t whole)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%",
                  whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

/// "1 value" / "3 values".
std::string plural(std::size_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// `f32[16,32]` for an array shape text with or without layout (ShapeParser::withoutLayout);
/// empty for tuples or junk.
std::string layoutFree(std::string_view text)
{
    const ShapeParseResult r = ShapeParser::parse(text);
    if (!r.ok || !r.shape.isArray())
        return {};
    return r.shape.toStringWithoutLayout();
}

} // namespace

std::string_view findingKindName(Finding::Kind kind)
{
    switch (kind) {
    case Finding::Kind::Padding:
        return "padding";
    case Finding::Kind::LargeValue:
        return "large_value";
    case Finding::Kind::F32:
        return "f32";
    case Finding::Kind::LongLivedTemp:
        return "long_lived_temp";
    case Finding::Kind::Donation:
        return "donation_candidate";
    case Finding::Kind::Fragmentation:
        return "fragmentation";
    case Finding::Kind::HeldWhole:
        return "held_above_live_peak";
    }
    return "finding";
}

std::vector<Finding> PeakExplainer::explain(const Dump &dump, const MemoryTimeline &timeline,
                                            std::int64_t step, std::int32_t memorySpace)
{
    return explain(dump, timeline, step, memorySpace,
                   MemoryTimeline::valuesLiveAt(dump, step, memorySpace));
}

std::vector<Finding> PeakExplainer::explain(const Dump &dump, const MemoryTimeline &timeline,
                                            std::int64_t step, std::int32_t memorySpace,
                                            const std::vector<std::uint32_t> &live,
                                            const std::vector<std::string> &libraryPatterns)
{
    std::vector<Finding> out;
    // The live bytes as the curve counts them: bytes two values share in place count once.
    const std::vector<std::int64_t> counted = Breakdown::countedBytes(dump, live);
    std::int64_t liveSum = 0;
    for (std::int64_t bytes : counted)
        liveSum += bytes;
    const std::string at = "step " + std::to_string(step);

    if (liveSum > 0) {
        // -- padding: assigned bytes beyond the shape's own bytes.
        Finding padding{Finding::Kind::Padding, {}, {}, 0, {}, kNone};
        std::vector<std::pair<std::int64_t, std::uint32_t>> padded;
        for (std::uint32_t vi : live) {
            const Value &v = dump.values[vi];
            const ShapeInfo &s = dump.shapes[v.shape];
            if (s.valid && s.bytesKnown && v.size > s.logicalBytes) {
                padding.bytes += v.size - s.logicalBytes;
                padded.emplace_back(v.size - s.logicalBytes, vi);
            }
        }
        if (padding.bytes * 20 >= liveSum && padding.bytes > 0) {
            std::sort(padded.begin(), padded.end(), [](const auto &a, const auto &b) {
                return a.first != b.first ? a.first > b.first : a.second < b.second;
            });
            for (const auto &p : padded)
                padding.values.push_back(p.second);
            padding.title = humanBytes(padding.bytes) + " (" + percent(padding.bytes, liveSum) +
                            ") of the memory live at " + at +
                            " is layout padding: the assigned sizes exceed the shapes' bytes in " +
                            plural(padded.size(), "value", "values") + ".";
            padding.detail = "Layouts round dimensions up to tiles (e.g. TPU (8,128)); small or "
                             "odd minor dimensions pad most. Padding to tile multiples in the "
                             "model, or reordering dimensions, can reclaim it.";
            out.push_back(std::move(padding));
        }

        // -- single values above 10 % of the live bytes.
        for (std::size_t li = 0; li < live.size(); ++li) {
            const std::uint32_t vi = live[li];
            const Value &v = dump.values[vi];
            if (v.size * 10 <= liveSum)
                break; // `live` is largest first
            if (counted[li] == 0)
                continue; // the same bytes as a larger value, handed over in place
            Finding f{Finding::Kind::LargeValue, {}, {}, v.size, {vi}, v.allocation};
            f.title = dump.valueDisplayName(v) + " alone is " + percent(v.size, liveSum) +
                      " of the memory live at " + at + " (" + humanBytes(v.size) + ", " +
                      std::string(dump.shapeText(v)) + ").";
            const Instruction *ins = dump.instructionOf(v);
            // Where it was made: the user's own line (the innermost frame outside library code),
            // as the text report and the GUI's "by source" show it.
            const std::string src = ins ? userSource(dump, *ins, libraryPatterns) : std::string();
            const AllocationKind kind =
                v.allocation == kNone ? AllocationKind::Temp : dump.allocations[v.allocation].kind;
            std::string advice;
            // A parameter or an output is live from the start or to the end; another value
            // that only reuses such an allocation (written in place) is not.
            const bool wholeProgram = v.start <= 0 && v.end >= dump.maxStep();
            const bool toTheEnd = v.end >= dump.maxStep();
            if (kind == AllocationKind::Parameter && wholeProgram)
                advice = "It is a parameter, live for the whole program: only sharding it across "
                         "devices (or offloading it) makes it smaller here.";
            else if (kind == AllocationKind::Output && toTheEnd)
                advice = "It is an output, live until the program ends: sharding it, or "
                         "returning less, makes it smaller.";
            else if (kind == AllocationKind::Parameter || kind == AllocationKind::Output)
                advice = "It reuses " +
                         std::string(kind == AllocationKind::Parameter ? "a parameter's"
                                                                       : "an output's") +
                         " allocation, written in place, and the allocation stays whatever it "
                         "holds; shortening this value's life does not free it, making the "
                         "values that share it smaller does.";
            else
                advice = "Rematerializing it, sharding it, or shortening its life lowers the "
                         "peak.";
            f.detail = "Live from step " + std::to_string(v.start) + " to " +
                       std::to_string(v.end) + (src.empty() ? std::string() : "; made at " + src) +
                       ". " + advice;
            out.push_back(std::move(f));
        }

        // -- f32 values: bf16 would halve them.
        Finding f32{Finding::Kind::F32, {}, {}, 0, {}, kNone};
        std::int64_t f32Bytes = 0;
        for (std::uint32_t vi : live) {
            const Value &v = dump.values[vi];
            if (dump.shapes[v.shape].elementType == ElementType::F32) {
                f32Bytes += v.size;
                f32.values.push_back(vi);
            }
        }
        if (f32Bytes * 10 >= liveSum && f32Bytes > 0) {
            f32.bytes = f32Bytes / 2;
            f32.title = plural(f32.values.size(), "f32 value holds", "f32 values hold") + " " +
                        humanBytes(f32Bytes) + " (" + percent(f32Bytes, liveSum) + ") at " + at +
                        "; in bf16 " + std::string(f32.values.size() == 1 ? "it" : "they") +
                        " would take half, saving about " + humanBytes(f32.bytes) + ".";
            f32.detail = "Activations and optimizer state often tolerate bf16; keep f32 where "
                         "accuracy needs it (e.g. master weights, reductions).";
            out.push_back(std::move(f32));
        }

        // -- temporaries that live across this step and most of the program.
        Finding temps{Finding::Kind::LongLivedTemp, {}, {}, 0, {}, kNone};
        const std::int64_t steps = std::max<std::int64_t>(1, dump.stepCount());
        for (std::uint32_t vi : live) {
            const Value &v = dump.values[vi];
            if (v.allocation == kNone ||
                dump.allocations[v.allocation].kind != AllocationKind::Temp)
                continue;
            if ((v.end - v.start + 1) * 2 >= steps && v.size * 100 >= liveSum) {
                temps.bytes += v.size;
                temps.values.push_back(vi);
            }
        }
        if (!temps.values.empty()) {
            const Value &first = dump.values[temps.values.front()];
            temps.title = plural(temps.values.size(), "temporary", "temporaries") + " (" +
                          humanBytes(temps.bytes) + ") " +
                          (temps.values.size() == 1 ? "is" : "are") + " live at " + at +
                          " and for at least half of the program, e.g. " +
                          dump.valueDisplayName(first) + " from step " +
                          std::to_string(first.start) + " to " + std::to_string(first.end) + ".";
            temps.detail = "A value made early and used late holds memory in between: computing "
                           "it later (or again, rematerializing) shortens its life.";
            out.push_back(std::move(temps));
        }
    }

    // -- donation candidates: a parameter and an output of the same shape in separate buffers.
    {
        struct Buffer
        {
            std::uint32_t allocation;
            std::string shape;
            std::int64_t size;
        };
        std::vector<Buffer> params;
        std::vector<Buffer> outputs;
        for (std::uint32_t ai = 0; ai < dump.allocations.size(); ++ai) {
            const Allocation &a = dump.allocations[ai];
            if (a.color != memorySpace || a.size <= 0)
                continue;
            if (a.kind == AllocationKind::Parameter && !a.isMaybeLiveOut &&
                a.parameterShape != kNoString) {
                const std::string shape = layoutFree(dump.str(a.parameterShape));
                if (!shape.empty())
                    params.push_back({ai, shape, a.size});
            } else if (a.kind == AllocationKind::Output) {
                for (std::uint32_t k = 0; k < a.valueCount; ++k) {
                    const Value &v = dump.values[dump.allocationValues[a.firstValue + k]];
                    if (v.offset == 0 && v.size == a.size) {
                        const std::string shape = layoutFree(dump.shapeText(v));
                        if (!shape.empty())
                            outputs.push_back({ai, shape, a.size});
                        break;
                    }
                }
            }
        }
        std::sort(outputs.begin(), outputs.end(),
                  [](const Buffer &x, const Buffer &y) { return x.size > y.size; });
        // Each output takes the first parameter (in allocation order) of its shape and size
        // not yet taken: the parameters by (shape, size), each key's in order, and a cursor.
        std::map<std::pair<std::string_view, std::int64_t>,
                 std::pair<std::vector<std::size_t>, std::size_t>>
            byShape;
        for (std::size_t p = 0; p < params.size(); ++p)
            byShape[{params[p].shape, params[p].size}].first.push_back(p);
        for (const Buffer &o : outputs) {
            const auto same = byShape.find({o.shape, o.size});
            if (same == byShape.end() || same->second.second == same->second.first.size())
                continue;
            const std::size_t p = same->second.first[same->second.second++];
            const Allocation &pa = dump.allocations[params[p].allocation];
            Finding f{Finding::Kind::Donation, {}, {}, o.size, {}, params[p].allocation};
            for (std::uint32_t k = 0; k < pa.valueCount; ++k)
                f.values.push_back(dump.allocationValues[pa.firstValue + k]);
            const Allocation &oa = dump.allocations[o.allocation];
            for (std::uint32_t k = 0; k < oa.valueCount; ++k)
                f.values.push_back(dump.allocationValues[oa.firstValue + k]);
            f.title = "Parameter " + std::to_string(pa.parameterNumber) + " and output " +
                      "allocation " + std::to_string(oa.index) + " have the same shape " + o.shape +
                      " (" + humanBytes(o.size) + ") but separate buffers.";
            f.detail = "If the caller does not need the argument afterwards, donating it "
                       "(jax.jit(..., donate_argnums=...)) lets XLA write the output in "
                       "place and saves " +
                       humanBytes(o.size) + ".";
            out.push_back(std::move(f));
        }
    }

    // -- fragmentation: allocations never filled at any one step.
    {
        std::vector<Finding> frag;
        const auto &usage = timeline.allocations();
        for (std::uint32_t ai = 0; ai < dump.allocations.size() && ai < usage.size(); ++ai) {
            const Allocation &a = dump.allocations[ai];
            const std::int64_t unused = usage[ai].fragmentation;
            if (a.color != memorySpace || a.size < kMiB || unused * 10 < a.size)
                continue;
            Finding f{Finding::Kind::Fragmentation, {}, {}, unused, {}, ai};
            // The largest first, which is all the report prints and the panel selects; a heap
            // reused by a million values would take a full sort ~70 ms for nothing.
            const auto first = dump.allocationValues.begin() + a.firstValue;
            const auto last = first + a.valueCount;
            const auto largestFirst = [&](std::uint32_t x, std::uint32_t y) {
                const std::int64_t sx = dump.values[x].size;
                const std::int64_t sy = dump.values[y].size;
                return sx != sy ? sx > sy : x < y;
            };
            f.values.resize(std::min<std::size_t>(a.valueCount, kRankedValues));
            std::partial_sort_copy(first, last, f.values.begin(), f.values.end(), largestFirst);
            std::vector<std::uint32_t> ranked = f.values;
            std::sort(ranked.begin(), ranked.end());
            for (auto it = first; it != last; ++it) {
                if (!std::binary_search(ranked.begin(), ranked.end(), *it))
                    f.values.push_back(*it);
            }
            f.title = "Allocation " + std::to_string(a.index) + " (" +
                      std::string(allocationKindName(a.kind)) + ", " + humanBytes(a.size) +
                      ") is never more than " + percent(usage[ai].largestLiveBytes, a.size) +
                      " full: " + humanBytes(unused) + " of it is never live at once.";
            f.detail = "Values of different sizes reusing one buffer leave gaps the heap "
                       "simulator cannot fill; this is memory the allocation reserves but no "
                       "step uses.";
            frag.push_back(std::move(f));
        }
        std::sort(frag.begin(), frag.end(),
                  [](const Finding &x, const Finding &y) { return x.bytes > y.bytes; });
        if (frag.size() > 5)
            frag.resize(5);
        for (Finding &f : frag)
            out.push_back(std::move(f));
    }

    // -- held whole: the temp and the outputs are allocated at full size when the module starts.
    if (memorySpace != MemoryAnalysis::kHostMemorySpace && dump.hasLiveRanges()) {
        const MemoryAnalysis::Side d = MemoryAnalysis::of(dump).device;
        const std::int64_t held = d.held();
        const std::int64_t livePeak = DeviceFit::deviceLivePeak(timeline);
        const std::int64_t gap = held - livePeak;
        if (gap > 0 && gap * 10 >= held) {
            std::uint32_t temp = kNone;
            for (std::uint32_t ai = 0; ai < dump.allocations.size(); ++ai) {
                const Allocation &a = dump.allocations[ai];
                if (a.isPreallocatedTemp && a.color != MemoryAnalysis::kHostMemorySpace &&
                    (temp == kNone || a.size > dump.allocations[temp].size))
                    temp = ai;
            }
            Finding f{Finding::Kind::HeldWhole, {}, {}, gap, {}, temp};
            f.title = "While it runs the device holds " + humanBytes(held) + ", " +
                      humanBytes(gap) + " (" + percent(gap, held) +
                      ") more than its live-bytes peak of " + humanBytes(livePeak) +
                      ": budget against " + humanBytes(held) + ".";
            f.detail = MemoryAnalysis::whyHeld(d);
            out.push_back(std::move(f));
        }
    }

    std::stable_sort(out.begin(), out.end(),
                     [](const Finding &x, const Finding &y) { return x.bytes > y.bytes; });
    return out;
}

} // namespace bufferscope
