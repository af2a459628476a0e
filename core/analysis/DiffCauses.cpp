#include "DiffCauses.h"

#include "analysis/DumpDiff.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "parse/ShapeParser.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <span>

namespace bufferscope {

namespace {

constexpr std::array<std::string_view, kCauseKindCount> kKeys = {
    "donation_lost", "donation_gained", "input_shape",  "dtype",         "resized",
    "new_buffer",    "buffer_gone",     "restructured", "in_place_lost", "in_place_gained",
    "collective",    "packing",         "schedule",     "other"};

/// How many values a sentence names before "and N more".
constexpr std::size_t kNamed = 3;

/// Whether a value is the buffer of a collective: defined by all-gather, all-reduce,
/// reduce-scatter, all-to-all, collective-permute or collective-broadcast, their async
/// start/done forms, or an async wrapper named after one (`reduce-scatter-start`).
bool isCollective(const Dump &d, const Value &v)
{
    const Instruction *in = d.instructionOf(v);
    if (!in)
        return false;
    static constexpr std::string_view kWords[] = {"all-gather",         "all-reduce",
                                                  "reduce-scatter",     "all-to-all",
                                                  "collective-permute", "collective-broadcast"};
    const std::string_view opcode = d.opcode(*in);
    const std::string_view name = d.str(in->name);
    for (const std::string_view w : kWords) {
        if (opcode.find(w) != std::string_view::npos)
            return true;
        if (opcode.starts_with("async-") && name.find(w) != std::string_view::npos)
            return true;
    }
    return false;
}

using ParameterKey = std::pair<std::int64_t, std::string>; ///< number, ShapeIndex

/// The shape of a value, parsed (an invalid shape when it does not parse).
Shape shapeOf(const Dump &d, const Value &v)
{
    ShapeParseResult r = ShapeParser::parse(d.shapeText(v));
    return r.ok ? std::move(r.shape) : Shape();
}

/// Union-find over the instructions of both sides (B's after A's).
struct Regions
{
    std::vector<std::uint32_t> parent;
    explicit Regions(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    std::uint32_t find(std::uint32_t x)
    {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
    void join(std::uint32_t x, std::uint32_t y) { parent[find(x)] = find(y); }
};

/// For each instruction, the instructions whose values it reads (from the `uses:` lists),
/// each once, in increasing order: one array with an offset per instruction.
struct Reads
{
    std::vector<std::uint32_t> start; ///< instruction -> first of its reads; one past the end last
    std::vector<std::uint32_t> items;
    std::span<const std::uint32_t> operator[](std::size_t i) const
    {
        return {items.data() + start[i], items.data() + start[i + 1]};
    }
};

Reads readsOf(const Dump &d)
{
    const std::size_t n = d.instructions.size();
    Reads r;
    r.start.assign(n + 1, 0);
    const auto forEachRead = [&](const auto &fn) {
        for (const Value &v : d.values) {
            if (v.instruction == kNone)
                continue;
            for (std::uint32_t k = 0; k < v.useCount; ++k) {
                const Use &u = d.uses[v.firstUse + k];
                if (u.instruction < n && u.instruction != v.instruction)
                    fn(u.instruction, v.instruction);
            }
        }
    };
    forEachRead([&](std::uint32_t reader, std::uint32_t) { ++r.start[reader + 1]; });
    for (std::size_t i = 0; i < n; ++i)
        r.start[i + 1] += r.start[i];
    r.items.resize(r.start[n]);
    std::vector<std::uint32_t> next(r.start.begin(), r.start.end() - 1);
    forEachRead(
        [&](std::uint32_t reader, std::uint32_t definer) { r.items[next[reader]++] = definer; });
    // Each reader's list sorted and without repeats, compacted in place.
    std::uint32_t out = 0;
    for (std::size_t i = 0; i < n; ++i) {
        auto first = r.items.begin() + r.start[i];
        auto last = r.items.begin() + r.start[i + 1];
        std::sort(first, last);
        last = std::unique(first, last);
        r.start[i] = out;
        out = static_cast<std::uint32_t>(std::move(first, last, r.items.begin() + out) -
                                         r.items.begin());
    }
    r.start[n] = out;
    r.items.resize(out);
    return r;
}

/// The explanation being built: terms per cause, keyed by kind and, for a donation, the
/// parameter, for a restructure, the region.
class Builder
{
public:
    Builder(const DumpDiff &diff, const Dump &a, const Dump &b) : D(diff), A(a), B(b)
    {
        const DumpMatch &m = diff.match;
        // Donations lost or gained (DumpDiff::donations): the values of that parameter's
        // allocation on the side that donates it, and their counterparts, belong to that cause.
        lostOfA.assign(a.values.size(), -1);
        gainedOfB.assign(b.values.size(), -1);
        std::set<ParameterKey> lost;
        std::set<ParameterKey> gained;
        for (const DonationChange &c : diff.donations)
            (c.lost ? lost : gained).insert({c.parameter, c.index});
        const auto mark = [](const Dump &d, const std::set<ParameterKey> &keys,
                             std::vector<std::int64_t> &of) {
            if (keys.empty())
                return;
            for (const Allocation &x : d.allocations)
                if (x.isParameter && x.isMaybeLiveOut && keys.count(parameterKey(d, x)))
                    for (std::uint32_t k = 0; k < x.valueCount; ++k)
                        of[d.allocationValues[x.firstValue + k]] = x.parameterNumber;
        };
        mark(a, lost, lostOfA);
        mark(b, gained, gainedOfB);

        // Entry parameters whose shape changed: their dimensions' ratios (after / before) say
        // which other values scale with them.
        for (const Allocation &x : a.allocations) {
            if (!x.isParameter || x.valueCount == 0)
                continue;
            const std::uint32_t va = a.allocationValues[x.firstValue];
            const std::uint32_t vb = m.valueInB[va];
            if (vb == kNone || a.shapeText(a.values[va]) == b.shapeText(b.values[vb]))
                continue;
            inputChanged = true;
            const Shape sa = shapeOf(a, a.values[va]);
            const Shape sb = shapeOf(b, b.values[vb]);
            if (sa.isArray() && sb.isArray() && sa.dims.size() == sb.dims.size())
                for (std::size_t k = 0; k < sa.dims.size(); ++k)
                    if (sa.dims[k].size != sb.dims[k].size && sa.dims[k].size > 0)
                        inputRatios.insert(static_cast<double>(sb.dims[k].size) /
                                           static_cast<double>(sa.dims[k].size));
        }

        // Regions: the instructions a restructure touches, on both sides — unmatched ones, and
        // matched pairs whose shapes differ (one node on each side, joined) — joined where
        // they read each other's values, and across the sides where they read, or are read
        // by, the two halves of an unchanged pair (one read by more than a few joins nothing).
        // A region with unmatched instructions on both sides, or unmatched ones beside a
        // changed pair, is one computation restructured.
        const std::size_t na = a.instructions.size();
        const std::size_t nb = b.instructions.size();
        const auto changed = [&](std::uint32_t x) {
            const std::uint32_t y = m.instructionInB[x];
            return y != kNone && a.str(a.shapes[a.instructions[x].shape].text) !=
                                     b.str(b.shapes[b.instructions[y].shape].text);
        };
        std::vector<bool> nodeA(na);
        std::vector<bool> nodeB(nb);
        for (std::uint32_t x = 0; x < na; ++x)
            nodeA[x] = m.instructionInB[x] == kNone || changed(x);
        for (std::uint32_t y = 0; y < nb; ++y)
            nodeB[y] = m.instructionInA[y] == kNone || changed(m.instructionInA[y]);
        regionOfA.assign(na, kNone);
        regionOfB.assign(nb, kNone);
        if (std::none_of(nodeA.begin(), nodeA.end(), [](bool x) { return x; }) &&
            std::none_of(nodeB.begin(), nodeB.end(), [](bool x) { return x; }))
            return; // every instruction paired and of its shape: no region
        Regions regions(na + nb);
        const auto B_ = [na](std::uint32_t y) { return static_cast<std::uint32_t>(na + y); };
        for (std::uint32_t x = 0; x < na; ++x)
            if (nodeA[x] && m.instructionInB[x] != kNone)
                regions.join(x, B_(m.instructionInB[x]));
        const auto readsA = readsOf(a);
        const auto readsB = readsOf(b);
        std::vector<std::uint32_t> readersA(na, 0);
        std::vector<std::uint32_t> readersB(nb, 0);
        for (const std::uint32_t x : readsA.items)
            ++readersA[x];
        for (const std::uint32_t x : readsB.items)
            ++readersB[x];
        constexpr std::uint32_t kFew = 4;
        // For each unchanged pair (by its B instruction), A's nodes next to it.
        std::vector<std::vector<std::uint32_t>> nearA(nb);
        for (std::uint32_t x = 0; x < na; ++x) {
            for (std::uint32_t r : readsA[x]) {
                if (nodeA[x] && nodeA[r])
                    regions.join(x, r);
                else if (nodeA[x] && readersA[r] <= kFew)
                    nearA[m.instructionInB[r]].push_back(x); // x reads the pair's value
                else if (nodeA[r] && !nodeA[x] && readsA[x].size() <= kFew)
                    nearA[m.instructionInB[x]].push_back(r); // the pair reads x's value
            }
        }
        for (std::uint32_t y = 0; y < nb; ++y) {
            for (std::uint32_t r : readsB[y]) {
                if (nodeB[y] && nodeB[r])
                    regions.join(B_(y), B_(r));
                else if (nodeB[y] && readersB[r] <= kFew)
                    for (std::uint32_t x : nearA[r])
                        regions.join(x, B_(y));
                else if (nodeB[r] && !nodeB[y] && readsB[y].size() <= kFew)
                    for (std::uint32_t x : nearA[y])
                        regions.join(x, B_(r));
            }
        }
        // What each region holds: 1 unmatched of A, 2 unmatched of B, 4 a changed pair.
        std::vector<std::uint8_t> sides(na + nb, 0);
        for (std::uint32_t x = 0; x < na; ++x)
            if (nodeA[x])
                sides[regions.find(x)] |= m.instructionInB[x] == kNone ? 1 : 4;
        for (std::uint32_t y = 0; y < nb; ++y)
            if (nodeB[y] && m.instructionInA[y] == kNone)
                sides[regions.find(B_(y))] |= 2;
        const auto restructured = [&](std::uint32_t root) {
            const std::uint8_t k = sides[root];
            return m.sameProgram && (((k & 3) == 3) || ((k & 3) != 0 && (k & 4) != 0));
        };
        for (std::uint32_t x = 0; x < na; ++x)
            if (nodeA[x] && restructured(regions.find(x)))
                regionOfA[x] = regions.find(x);
        for (std::uint32_t y = 0; y < nb; ++y)
            if (nodeB[y] && restructured(regions.find(B_(y))))
                regionOfB[y] = regions.find(B_(y));
        // The values of each region, both sides, for its sentence.
        for (std::uint32_t x = 0; x < na; ++x)
            if (regionOfA[x] != kNone) {
                const auto [first, last] = a.valuesOf(x);
                regionValuesA[regionOfA[x]].insert(regionValuesA[regionOfA[x]].end(), first, last);
            }
        for (std::uint32_t y = 0; y < nb; ++y)
            if (regionOfB[y] != kNone) {
                const auto [first, last] = b.valuesOf(y);
                regionValuesB[regionOfB[y]].insert(regionValuesB[regionOfB[y]].end(), first, last);
            }
    }

    /// The cause of a value of A and its counterpart in B (either may be kNone), and its
    /// sub-key (the parameter of a donation, the region of a restructure). Other for a pair of
    /// one shape: what changed is then how it is counted, which the caller knows.
    std::pair<CauseKind, std::int64_t> classify(std::uint32_t va, std::uint32_t vb) const
    {
        if (va == kNone && vb == kNone)
            return {CauseKind::Other, -1}; // an allocation without values
        if (va != kNone && lostOfA[va] >= 0)
            return {CauseKind::DonationLost, lostOfA[va]};
        if (vb != kNone && gainedOfB[vb] >= 0)
            return {CauseKind::DonationGained, gainedOfB[vb]};
        if (vb == kNone) {
            const Value &x = A.values[va];
            if (x.instruction != kNone && regionOfA[x.instruction] != kNone)
                return {CauseKind::Restructured, regionOfA[x.instruction]};
            return {isCollective(A, x) ? CauseKind::Collective : CauseKind::BufferGone, -1};
        }
        if (va == kNone) {
            const Value &y = B.values[vb];
            if (y.instruction != kNone && regionOfB[y.instruction] != kNone)
                return {CauseKind::Restructured, regionOfB[y.instruction]};
            return {isCollective(B, y) ? CauseKind::Collective : CauseKind::NewBuffer, -1};
        }
        const Value &x = A.values[va];
        const Value &y = B.values[vb];
        if (x.size == y.size || A.shapeText(x) == B.shapeText(y))
            return {CauseKind::Other, -1};

        const auto isParameter = [](const Dump &d, const Value &v) {
            return v.allocation != kNone && d.allocations[v.allocation].isParameter;
        };
        if (isParameter(A, x) || isParameter(B, y))
            return {CauseKind::InputShape, -1};
        if (isCollective(B, y))
            return {CauseKind::Collective, -1};
        const Shape sa = shapeOf(A, x);
        const Shape sb = shapeOf(B, y);
        if (sa.isArray() && sb.isArray() && sa.type != sb.type &&
            sa.dims.size() == sb.dims.size() &&
            std::equal(sa.dims.begin(), sa.dims.end(), sb.dims.begin(),
                       [](const Dimension &p, const Dimension &q) { return p.size == q.size; }))
            return {CauseKind::Dtype, -1};
        if (inputChanged && scalesWithInputs(sa, sb, x, y))
            return {CauseKind::InputShape, -1};
        if (x.instruction != kNone && regionOfA[x.instruction] != kNone)
            return {CauseKind::Restructured, regionOfA[x.instruction]};
        return {CauseKind::Resized, -1};
    }

    /// Adds one value pair's share of a change to its cause.
    void add(std::uint32_t va, std::uint32_t vb, CauseKind kind, std::int64_t sub,
             std::int64_t peak, std::int64_t held)
    {
        Cause &c = causes[{kind, sub}];
        c.kind = kind;
        c.peakDelta += peak;
        c.heldDelta += held;
        if (kind == CauseKind::DonationLost || kind == CauseKind::DonationGained)
            c.parameter = sub;
        if (va != kNone)
            c.valuesBefore.push_back(va);
        if (vb != kNone)
            c.valuesAfter.push_back(vb);
    }

    /// The terms of a change between the values `la` live at a step of A and `lb` at a step of
    /// B (each largest first): what each value counts there (Breakdown::countedBytes, so they
    /// add up to the curve), after minus before, per value pair. `peak` says which figure the
    /// terms go to.
    void attribute(const std::vector<std::uint32_t> &la, const std::vector<std::uint32_t> &lb,
                   bool peak)
    {
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
            // Live on both sides at one size: the bytes it shares in place changed. Live on
            // one side only: the lifetimes overlap differently.
            CauseKind same = CauseKind::Schedule;
            if (liveBoth)
                same = delta > 0 ? CauseKind::InPlaceLost : CauseKind::InPlaceGained;
            auto [kind, sub] = classify(va, vb);
            if (kind == CauseKind::Other)
                kind = same;
            add(va, vb, kind, sub, peak ? delta : 0, peak ? 0 : delta);
        };
        for (std::size_t k = 0; k < lb.size(); ++k) {
            const std::uint32_t vb = lb[k];
            const std::uint32_t va = D.match.valueInA[vb];
            const bool live = va != kNone && countedA[va] >= 0;
            term(va, vb, live ? countedA[va] : 0, cb[k], live);
            if (live)
                countedA[va] = -2; // taken
        }
        for (std::size_t k = 0; k < la.size(); ++k)
            if (countedA[la[k]] != -2)
                term(la[k], D.match.valueInB[la[k]], ca[k], 0, false);
        for (std::uint32_t v : la)
            countedA[v] = -1; // ready for the next call
    }

    const DumpDiff &D;
    const Dump &A;
    const Dump &B;
    std::vector<std::int64_t> lostOfA;
    std::vector<std::int64_t> gainedOfB;
    std::vector<std::uint32_t> regionOfA;
    std::vector<std::uint32_t> regionOfB;
    bool inputChanged = false;
    std::set<double> inputRatios;
    std::map<std::pair<CauseKind, std::int64_t>, Cause> causes;
    std::map<std::int64_t, std::vector<std::uint32_t>> regionValuesA;
    std::map<std::int64_t, std::vector<std::uint32_t>> regionValuesB;

private:
    std::vector<std::int64_t> countedA;

    /// Whether a value's shape changed the way an input's did: each dimension that differs
    /// (or, for another rank, the element count) by a ratio some parameter's dimension has.
    bool scalesWithInputs(const Shape &sa, const Shape &sb, const Value &x, const Value &y) const
    {
        const auto known = [this](double r) {
            for (const double k : inputRatios)
                if (std::abs(k - r) < 1e-9 * std::max(1.0, r))
                    return true;
            return false;
        };
        const Instruction *in = B.instructionOf(y);
        if (in && B.opcode(*in) == "parameter")
            return true;
        if (sa.isArray() && sb.isArray() && sa.dims.size() == sb.dims.size()) {
            bool any = false;
            for (std::size_t k = 0; k < sa.dims.size(); ++k) {
                if (sa.dims[k].size == sb.dims[k].size)
                    continue;
                if (sa.dims[k].size <= 0 || !known(static_cast<double>(sb.dims[k].size) /
                                                   static_cast<double>(sa.dims[k].size)))
                    return false;
                any = true;
            }
            return any;
        }
        return x.size > 0 && known(static_cast<double>(y.size) / static_cast<double>(x.size));
    }
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

std::string name(const Dump &d, std::uint32_t v)
{
    if (v >= d.values.size())
        return "?";
    return d.valueKey(d.values[v]);
}

std::string shapeBytes(const Dump &d, std::uint32_t v)
{
    if (v >= d.values.size())
        return "?";
    return std::string(d.shapeText(d.values[v])) + ", " + humanBytes(d.values[v].size);
}

/// "a, b and 3 more" of up to kNamed values.
std::string names(const Dump &d, const std::vector<std::uint32_t> &values)
{
    std::string out;
    for (std::size_t k = 0; k < values.size() && k < kNamed; ++k)
        out += (k == 0 ? "" : k + 1 == values.size() ? " and " : ", ") + name(d, values[k]);
    if (values.size() > kNamed)
        out += " and " + std::to_string(values.size() - kNamed) + " more";
    return out;
}

std::string signedHuman(std::int64_t delta)
{
    return (delta > 0 ? "+" : delta < 0 ? "-" : "±") + humanBytes(std::llabs(delta));
}

/// "parameter 1 (f32[64,32]{1,0}, 16.0KiB)": an entry parameter with its shape and size.
std::string parameterText(const Dump &d, std::int64_t number)
{
    std::string out = "parameter " + std::to_string(number);
    for (const Allocation &x : d.allocations) {
        if (!x.isParameter || x.parameterNumber != number)
            continue;
        for (std::uint32_t k = 0; k < x.valueCount; ++k) {
            const std::uint32_t v = d.allocationValues[x.firstValue + k];
            if (const Instruction *in = d.instructionOf(d.values[v]);
                in && d.opcode(*in) == "parameter")
                return out + " (" + shapeBytes(d, v) + ")";
        }
    }
    return out;
}

std::string sentence(const Cause &c, const Dump &a, const Dump &b, const DumpDiff &diff)
{
    const std::uint32_t firstA = c.valuesBefore.empty() ? kNone : c.valuesBefore.front();
    const std::uint32_t firstB = c.valuesAfter.empty() ? kNone : c.valuesAfter.front();
    const auto count = [](std::size_t n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    switch (c.kind) {
    case CauseKind::DonationLost:
        return parameterText(a, c.parameter) +
               " is no longer donated: XLA copies the output into a buffer of its own instead "
               "of writing it in place — check donate_argnums (or the input_output_alias) of "
               "this function";
    case CauseKind::DonationGained:
        return parameterText(b, c.parameter) +
               " is now donated: XLA writes the output into its buffer";
    case CauseKind::InputShape: {
        std::string out = "the inputs changed shape";
        std::size_t shown = 0;
        for (std::size_t k = 0; k < c.valuesBefore.size() && k < c.valuesAfter.size(); ++k) {
            const Instruction *in = b.instructionOf(b.values[c.valuesAfter[k]]);
            if (!in || b.opcode(*in) != "parameter" || shown == kNamed)
                continue;
            const std::uint32_t vb = c.valuesAfter[k];
            const std::uint32_t va = diff.match.valueInA[vb];
            if (va == kNone)
                continue;
            const Value &y = b.values[vb];
            const Allocation *alloc =
                y.allocation == kNone ? nullptr : &b.allocations[y.allocation];
            out += std::string(shown == 0 ? ": " : "; ") +
                   (alloc && alloc->isParameter
                        ? "parameter " + std::to_string(alloc->parameterNumber) + " "
                        : name(b, vb) + " ") +
                   std::string(a.shapeText(a.values[va])) + " → " + std::string(b.shapeText(y));
            ++shown;
        }
        // The values that scale with them, parameters aside.
        std::vector<std::uint32_t> scaled;
        for (const std::uint32_t v : c.valuesAfter) {
            const Value &y = b.values[v];
            if (y.allocation == kNone || !b.allocations[y.allocation].isParameter)
                scaled.push_back(v);
        }
        const std::string check = " — check the shapes the function is called with (batch, "
                                  "sequence length)";
        if (scaled.empty())
            return out + check;
        return out + "; " + count(scaled.size(), "value scales", "values scale") + " with them (" +
               names(b, scaled) + ")" + check;
    }
    case CauseKind::Dtype:
    case CauseKind::Resized: {
        // The largest value after, with what it was.
        const std::uint32_t vb = firstB;
        const std::uint32_t va = vb == kNone ? firstA : diff.match.valueInA[vb];
        if (va == kNone || vb == kNone)
            return count(c.valuesAfter.size(), "value", "values") + " changed shape";
        const std::string more =
            c.valuesAfter.size() > 1
                ? " (and " + std::to_string(c.valuesAfter.size() - 1) + " more)"
                : std::string();
        if (c.kind == CauseKind::Dtype)
            return count(c.valuesAfter.size(), "value has", "values have") +
                   " another element type: " + name(a, va) + " " +
                   std::string(a.shapeText(a.values[va])) + " → " +
                   std::string(b.shapeText(b.values[vb])) + more +
                   " — check the dtypes of the inputs and the casts (x64, a mixed-precision "
                   "policy)";
        return count(c.valuesAfter.size(), "value", "values") +
               " changed shape while the inputs did not: " + name(a, va) + " " + shapeBytes(a, va) +
               " → " + shapeBytes(b, vb) + more;
    }
    case CauseKind::NewBuffer:
        return count(c.valuesAfter.size(), "buffer exists", "buffers exist") +
               " only after: " + names(b, c.valuesAfter) + " (largest " + shapeBytes(b, firstB) +
               ") — a copy or an intermediate XLA no longer fuses away";
    case CauseKind::BufferGone:
        return count(c.valuesBefore.size(), "buffer exists", "buffers exist") +
               " only before: " + names(a, c.valuesBefore) + " (largest " + shapeBytes(a, firstA) +
               ")";
    case CauseKind::Restructured: {
        std::int64_t before = 0;
        std::int64_t after = 0;
        for (std::uint32_t v : c.valuesBefore)
            before += a.values[v].size;
        for (std::uint32_t v : c.valuesAfter)
            after += b.values[v].size;
        if (c.valuesBefore.empty())
            return names(b, c.valuesAfter) + " (" + humanBytes(after) +
                   ") stand where the before program had instructions without buffers of "
                   "their own: the computation was fused or split differently";
        if (c.valuesAfter.empty())
            return names(a, c.valuesBefore) + " (" + humanBytes(before) +
                   ") gave way to instructions without buffers of their own: the computation "
                   "was fused or split differently";
        return names(a, c.valuesBefore) + " (" + humanBytes(before) + ") became " +
               names(b, c.valuesAfter) + " (" + humanBytes(after) +
               ") at the same place in the data flow: the computation was fused or split "
               "differently";
    }
    case CauseKind::InPlaceLost:
        return count(c.valuesAfter.size(), "value no longer shares", "values no longer share") +
               " its operand's or the output's buffer: " + names(b, c.valuesAfter) +
               " — XLA copies where it wrote in place: a later read of the old value, or a "
               "buffer it may not overwrite (a parameter not donated), forces the copy";
    case CauseKind::InPlaceGained:
        return count(c.valuesAfter.size(), "value now shares", "values now share") +
               " its operand's or the output's buffer: " + names(b, c.valuesAfter) +
               " — written in place";
    case CauseKind::Collective: {
        const bool after = firstB != kNone;
        return std::string("collective buffers changed: ") +
               (after ? names(b, c.valuesAfter) : names(a, c.valuesBefore)) + " (largest " +
               (after ? shapeBytes(b, firstB) : shapeBytes(a, firstA)) +
               ") — check the sharding of their operands and the mesh";
    }
    case CauseKind::Packing:
        return std::string("the temporary allocation ") + (c.heldDelta > 0 ? "grew" : "shrank") +
               " by " + humanBytes(std::llabs(c.heldDelta)) +
               " more than its most live bytes moved: the heap simulator packed the buffers "
               "with " +
               (c.heldDelta > 0 ? "more" : "less") + " left unused";
    case CauseKind::Schedule:
        return count(std::max(c.valuesBefore.size(), c.valuesAfter.size()), "value is",
                     "values are") +
               " live at one peak and not the other (" +
               names(firstB != kNone ? b : a, firstB != kNone ? c.valuesAfter : c.valuesBefore) +
               "): the schedule overlaps their lifetimes differently";
    case CauseKind::Other:
        break;
    }
    return "the rest, which no rule above explains: an allocation whose values are the same on "
           "both sides changed size, or the two dumps are not compiles of one program";
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
    Builder builder(diff, a, b);
    const double built = clock.seconds();

    // The live peak: what each value counts at each side's peak, after minus before.
    const SpaceTimeline *sa = ta.space(0) ? ta.space(0) : ta.primary();
    const SpaceTimeline *sb = tb.space(0) ? tb.space(0) : tb.primary();
    if (sa && sb) {
        builder.attribute(liveAt(a, diff.peakStepBefore, sa->memorySpace),
                          liveAt(b, diff.peakStepAfter, sb->memorySpace), true);
        out.peakMoved = diff.peakStepBefore >= 0 && diff.peakStepAfter >= 0 &&
                        diff.peakStepBeforeInB != diff.peakStepAfter;
    }

    // What the device holds: per allocation what it adds to argument + output − alias + temp.
    // Parameters pair by number and index, the rest through the match; the temp allocations
    // apart, as the change of their most live bytes (per value, as for the peak) and the
    // change of what the heap simulator left unused (packing).
    const MemoryAnalysis ma = MemoryAnalysis::of(a);
    const MemoryAnalysis mb = MemoryAnalysis::of(b);
    out.heldBefore = ma.device.held();
    out.heldAfter = mb.device.held();
    {
        // Without live ranges on a side (a dump printed by BufferAssignment::ToString) no temp
        // allocation has most live bytes: temps are then allocations like the others, put
        // down to their values.
        const bool liveRanges = a.hasLiveRanges() && b.hasLiveRanges();
        std::map<ParameterKey, std::uint32_t> paramB;
        for (std::uint32_t k = 0; k < b.allocations.size(); ++k)
            if (b.allocations[k].isParameter)
                paramB[parameterKey(b, b.allocations[k])] = k;
        std::vector<std::uint32_t> pairOfA(a.allocations.size(), kNone);
        std::vector<bool> pairedB(b.allocations.size(), false);
        for (std::uint32_t k = 0; k < a.allocations.size(); ++k) {
            const Allocation &x = a.allocations[k];
            std::uint32_t y = kNone;
            if (x.isParameter) {
                const auto it = paramB.find(parameterKey(a, x));
                y = it == paramB.end() ? kNone : it->second;
            } else if (m.allocationInB[k] != kNone &&
                       !b.allocations[m.allocationInB[k]].isParameter) {
                y = m.allocationInB[k];
            }
            if (y != kNone && !pairedB[y]) {
                pairOfA[k] = y;
                pairedB[y] = true;
            }
        }
        // The value an allocation's change is put down to: its largest (the parameter's own
        // value for a parameter), with its counterpart.
        const auto largest = [](const Dump &d, const Allocation &x) {
            std::uint32_t best = kNone;
            for (std::uint32_t k = 0; k < x.valueCount; ++k) {
                const std::uint32_t v = d.allocationValues[x.firstValue + k];
                const Instruction *in = d.instructionOf(d.values[v]);
                if (x.isParameter && in && d.opcode(*in) == "parameter")
                    return v;
                if (best == kNone || d.values[v].size > d.values[best].size)
                    best = v;
            }
            return best;
        };
        // When the representative pair is one shape on both sides, the allocation changed for
        // another of its values: the largest of them with a cause of its own.
        const auto other = [&](std::uint32_t alloc, const Dump &d, bool isB, std::uint32_t &va,
                               std::uint32_t &vb) {
            if (alloc == kNone)
                return false;
            const Allocation &x = d.allocations[alloc];
            std::uint32_t best = kNone;
            for (std::uint32_t k = 0; k < x.valueCount; ++k) {
                const std::uint32_t v = d.allocationValues[x.firstValue + k];
                const std::uint32_t w = isB ? m.valueInA[v] : m.valueInB[v];
                if (builder.classify(isB ? w : v, isB ? v : w).first != CauseKind::Other &&
                    (best == kNone || d.values[v].size > d.values[best].size))
                    best = v;
            }
            if (best == kNone)
                return false;
            va = isB ? m.valueInA[best] : best;
            vb = isB ? best : m.valueInB[best];
            return true;
        };
        const auto put = [&](std::uint32_t va, std::uint32_t vb, std::int64_t delta,
                             std::uint32_t allocA, std::uint32_t allocB) {
            if (delta == 0)
                return;
            if (builder.classify(va, vb).first == CauseKind::Other)
                other(allocB, b, true, va, vb) || other(allocA, a, false, va, vb);
            const auto [kind, sub] = builder.classify(va, vb);
            builder.add(va, vb, kind, sub, 0, delta);
        };
        for (std::uint32_t k = 0; k < a.allocations.size(); ++k) {
            const Allocation &x = a.allocations[k];
            if (x.isPreallocatedTemp && liveRanges)
                continue;
            const std::uint32_t y = pairOfA[k];
            const std::int64_t before = MemoryAnalysis::heldBy(x);
            const std::int64_t after = y == kNone ? 0 : MemoryAnalysis::heldBy(b.allocations[y]);
            // Its largest value, and that value's counterpart when the paired allocation
            // holds it (else the pair's own largest).
            const std::uint32_t va = largest(a, x);
            std::uint32_t vb = va != kNone ? m.valueInB[va] : kNone;
            if (y != kNone && (vb == kNone || b.values[vb].allocation != y))
                vb = largest(b, b.allocations[y]);
            put(va, vb, after - before, k, y);
        }
        for (std::uint32_t k = 0; k < b.allocations.size(); ++k) {
            const Allocation &y = b.allocations[k];
            if (pairedB[k] || (y.isPreallocatedTemp && liveRanges))
                continue;
            const std::uint32_t vb = largest(b, y);
            // e.g. an output buffer of its own for what a donated parameter held before.
            const std::uint32_t va = vb == kNone ? kNone : m.valueInA[vb];
            put(va, vb, MemoryAnalysis::heldBy(y), kNone, k);
        }
        // Each temp allocation paired with the one of its colour in the same place on the
        // other side: what its values count at the step where most of it is live (the
        // timeline's largestLiveStep), and its unused bytes (size − that, the packing).
        const double allocations = clock.seconds();
        const auto tempsA = liveRanges ? tempsByColor(a) : decltype(tempsByColor(a))();
        const auto tempsB = liveRanges ? tempsByColor(b) : decltype(tempsByColor(b))();
        std::int64_t packing = 0;
        const auto usageOf = [](const MemoryTimeline &t, std::uint32_t k) {
            return k < t.allocations().size() ? t.allocations()[k] : AllocationUsage();
        };
        const auto temp = [&](std::uint32_t x, std::uint32_t y) {
            const AllocationUsage ua = x == kNone ? AllocationUsage() : usageOf(ta, x);
            const AllocationUsage ub = y == kNone ? AllocationUsage() : usageOf(tb, y);
            builder.attribute(x == kNone ? std::vector<std::uint32_t>()
                                         : liveIn(a, a.allocations[x], ua.largestLiveStep),
                              y == kNone ? std::vector<std::uint32_t>()
                                         : liveIn(b, b.allocations[y], ub.largestLiveStep),
                              false);
            const std::int64_t unusedA =
                x == kNone ? 0 : a.allocations[x].size - ua.largestLiveBytes;
            const std::int64_t unusedB =
                y == kNone ? 0 : b.allocations[y].size - ub.largestLiveBytes;
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
            builder.add(kNone, kNone, CauseKind::Packing, -1, 0, packing);
        spdlog::debug("causes: regions {:.3f} s, peak and allocations {:.3f} s, temps {:.3f} s",
                      built, allocations - built, clock.seconds() - allocations);
    }

    // Whatever the terms do not add up to (nothing, unless a value sits in no allocation).
    {
        std::int64_t peak = 0;
        std::int64_t held = 0;
        for (const auto &[key, c] : builder.causes) {
            peak += c.peakDelta;
            held += c.heldDelta;
        }
        const std::int64_t restPeak = diff.peakDelta() - peak;
        const std::int64_t restHeld = (out.heldAfter - out.heldBefore) - held;
        if (restPeak != 0 || restHeld != 0)
            builder.add(kNone, kNone, CauseKind::Other, -1, restPeak, restHeld);
    }

    for (auto &[key, c] : builder.causes) {
        if (c.peakDelta == 0 && c.heldDelta == 0)
            continue;
        if (c.kind == CauseKind::Restructured) {
            c.valuesBefore = builder.regionValuesA[key.second];
            c.valuesAfter = builder.regionValuesB[key.second];
        }
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
        c.text = sentence(c, a, b, diff);
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
                        humanBytes(*field) + " (" + names(*d, unseen) + ")" +
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
            std::string why = "XLA's printed peaks change by " + signedHuman(printed) +
                              " where the live peaks change by " + signedHuman(real) +
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
