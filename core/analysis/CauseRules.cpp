#include "analysis/detail/CauseRules.h"

#include "analysis/Collectives.h"
#include "analysis/DumpDiff.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

namespace bufferscope::causes {

namespace {

/// Shape of a value, parsed (an invalid shape when it does not parse).
Shape shapeOf(const Dump &d, const Value &v)
{
    ShapeParseResult r = ShapeParser::parse(d.shapeText(v));
    return r.ok ? std::move(r.shape) : Shape();
}

bool sameDimensions(const Shape &x, const Shape &y)
{
    return x.isArray() && y.isArray() && x.dims.size() == y.dims.size() &&
           std::equal(x.dims.begin(), x.dims.end(), y.dims.begin(),
                      [](const Dimension &p, const Dimension &q) { return p.size == q.size; });
}

bool isParameterValue(const Dump &d, const Value &v)
{
    return v.allocation != kNone && d.allocations[v.allocation].isParameter;
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

/// Readers or operands looked at per value for the in-place rule: a value read by thousands
/// (a parameter) is not written in place by any of them that it would not share bytes with.
constexpr std::uint32_t kNeighbours = 64;

bool overlaps(const Value &x, const Value &y)
{
    return x.allocation == y.allocation && x.allocation != kNone && x.size > 0 && y.size > 0 &&
           x.offset < y.offset + y.size && y.offset < x.offset + x.size;
}

/// Per value: whether it shares bytes with a value its instruction reads, or with a value of an
/// instruction that reads it (one of the two was written in place over the other).
std::vector<bool> sharesInPlace(const Dump &d)
{
    std::vector<bool> out(d.values.size(), false);
    for (std::uint32_t v = 0; v < d.values.size(); ++v) {
        const Value &x = d.values[v];
        if (x.instruction == kNone || x.allocation == kNone || out[v])
            continue;
        // Operands: the values the defining instruction reads.
        const auto [first, last] = d.usersOf(x.instruction);
        std::uint32_t seen = 0;
        for (const std::uint32_t *u = first; u != last && seen < kNeighbours; ++u, ++seen)
            if (*u != v && overlaps(x, d.values[*u])) {
                out[v] = true;
                out[*u] = true;
            }
    }
    return out;
}

/// A value that is the module's output when it ends: in an output allocation and live to the
/// end of the program. XLA also places values that die earlier in an output allocation (the
/// bytes are free until the output is written); those are not the output.
bool isLiveOut(const Dump &d, const Value &v)
{
    return isOutput(d, v) && (!d.hasLiveRanges() || v.end >= d.maxStep());
}

} // namespace

bool isOutput(const Dump &d, const Value &v)
{
    if (v.allocation == kNone)
        return false;
    const Allocation &x = d.allocations[v.allocation];
    return x.isMaybeLiveOut && !x.isParameter && !x.isPreallocatedTemp;
}

bool isTemp(const Dump &d, const Value &v)
{
    return v.allocation != kNone && d.allocations[v.allocation].isPreallocatedTemp;
}

int rankOf(CauseKind kind)
{
    switch (kind) {
    case CauseKind::DonationLost:
    case CauseKind::DonationGained:
        return 0;
    case CauseKind::InPlaceLost:
    case CauseKind::InPlaceGained:
        return 1;
    case CauseKind::Dtype:
        return 2;
    case CauseKind::InputShape:
        return 3;
    case CauseKind::Collective:
        return 4;
    case CauseKind::Resized:
        return 5;
    case CauseKind::Restructured:
        return 6;
    case CauseKind::NewBuffer:
    case CauseKind::BufferGone:
        return 7;
    case CauseKind::Schedule:
        return 8;
    case CauseKind::Packing:
        return 9;
    case CauseKind::Other:
        break;
    }
    return 10;
}

bool sameFamily(CauseKind x, CauseKind y)
{
    return rankOf(x) == rankOf(y);
}

Rules::Rules(const DumpDiff &d, const Dump &da, const Dump &db) : diff(d), a(da), b(db)
{
    const DumpMatch &m = diff.match;
    // Donations lost or gained (DumpDiff::donations): the values of that parameter's
    // allocation on the side that donates it, and their counterparts, belong to that cause.
    m_lostOfA.assign(a.values.size(), -1);
    m_gainedOfB.assign(b.values.size(), -1);
    std::set<ParameterKey> lost;
    std::set<ParameterKey> gained;
    for (const DonationChange &c : diff.donations)
        (c.lost ? lost : gained).insert({c.parameter, c.index});
    const auto mark = [](const Dump &dump, const std::set<ParameterKey> &keys,
                         std::vector<std::int64_t> &of) {
        if (keys.empty())
            return;
        for (const Allocation &x : dump.allocations)
            if (x.isParameter && x.isMaybeLiveOut && keys.count(parameterKey(dump, x)))
                for (std::uint32_t k = 0; k < x.valueCount; ++k)
                    of[dump.allocationValues[x.firstValue + k]] = x.parameterNumber;
    };
    mark(a, lost, m_lostOfA);
    mark(b, gained, m_gainedOfB);

    // Entry parameters whose shape changed: their dimensions' ratios (after / before) say
    // which other values scale with them; those of one shape and another element type are a
    // dtype change.
    for (const Allocation &x : a.allocations) {
        if (!x.isParameter || x.valueCount == 0)
            continue;
        const std::uint32_t va = a.allocationValues[x.firstValue];
        const std::uint32_t vb = m.valueInB[va];
        if (vb == kNone || a.shapeText(a.values[va]) == b.shapeText(b.values[vb]))
            continue;
        const Shape sa = shapeOf(a, a.values[va]);
        const Shape sb = shapeOf(b, b.values[vb]);
        if (sameDimensions(sa, sb)) {
            if (sa.type != sb.type)
                dtypeInputs.push_back({va, vb});
            continue; // a layout alone
        }
        shapeInputs.push_back({va, vb});
        if (sa.isArray() && sb.isArray() && sa.dims.size() == sb.dims.size())
            for (std::size_t k = 0; k < sa.dims.size(); ++k)
                if (sa.dims[k].size != sb.dims[k].size && sa.dims[k].size > 0)
                    m_inputRatios.insert(static_cast<double>(sb.dims[k].size) /
                                         static_cast<double>(sa.dims[k].size));
    }
    findRegions();
    findPlacement();
    findFed();
}

void Rules::findFed()
{
    // A value whose instruction reads a collective's value that the other side does not have:
    // the buffers a removed all-gather fed (the full-size FFT of the gathered array, written
    // in place of its operand or into a buffer of its own) change because the collective went,
    // one mechanism. Only the first kNeighbours operands are looked at, as for in place.
    const DumpMatch &m = diff.match;
    const auto fed = [](const Dump &d, const std::vector<std::uint32_t> &counterpart) {
        std::vector<bool> gone(d.values.size(), false);
        bool any = false;
        for (std::uint32_t v = 0; v < d.values.size(); ++v)
            if (counterpart[v] == kNone && collectives::isValue(d, d.values[v]))
                any = gone[v] = true;
        std::vector<bool> out(d.values.size(), false);
        if (!any)
            return out;
        for (std::uint32_t v = 0; v < d.values.size(); ++v) {
            const Value &x = d.values[v];
            if (x.instruction == kNone || gone[v])
                continue;
            const auto [first, last] = d.usersOf(x.instruction);
            std::uint32_t seen = 0;
            for (const std::uint32_t *u = first; u != last && seen < kNeighbours; ++u, ++seen)
                if (*u != v && gone[*u]) {
                    out[v] = true;
                    break;
                }
        }
        return out;
    };
    m_fedA = fed(a, m.valueInB);
    m_fedB = fed(b, m.valueInA);
}

void Rules::findRegions()
{
    // Regions: the unmatched instructions of both sides, joined where they read each other's
    // values, and across the sides where they read, or are read by, the two halves of one
    // matched pair (one read by more than a few joins nothing). A region with unmatched
    // instructions on both sides is one computation restructured: what it defines has no
    // counterpart because it is another computation, not because a buffer came or went.
    // Matched instructions are never part of one: a matched value of another size is resized.
    const DumpMatch &m = diff.match;
    const std::size_t na = a.instructions.size();
    const std::size_t nb = b.instructions.size();
    m_regionOfA.assign(na, kNone);
    m_regionOfB.assign(nb, kNone);
    if (!m.sameProgram)
        return;
    const auto unmatchedA = [&](std::uint32_t x) { return m.instructionInB[x] == kNone; };
    const auto unmatchedB = [&](std::uint32_t y) { return m.instructionInA[y] == kNone; };
    bool anyA = false;
    bool anyB = false;
    for (std::uint32_t x = 0; x < na && !anyA; ++x)
        anyA = unmatchedA(x);
    for (std::uint32_t y = 0; y < nb && !anyB; ++y)
        anyB = unmatchedB(y);
    if (!anyA || !anyB)
        return; // only one side has instructions of its own: nothing was replaced
    Regions regions(na + nb);
    const auto B_ = [na](std::uint32_t y) { return static_cast<std::uint32_t>(na + y); };
    const Reads readsA = readsOf(a);
    const Reads readsB = readsOf(b);
    std::vector<std::uint32_t> readersA(na, 0);
    std::vector<std::uint32_t> readersB(nb, 0);
    for (const std::uint32_t x : readsA.items)
        ++readersA[x];
    for (const std::uint32_t x : readsB.items)
        ++readersB[x];
    constexpr std::uint32_t kFew = 4;
    // For each matched pair (by its B instruction), A's unmatched instructions next to it.
    std::vector<std::vector<std::uint32_t>> nearA(nb);
    for (std::uint32_t x = 0; x < na; ++x) {
        for (const std::uint32_t r : readsA[x]) {
            if (unmatchedA(x) && unmatchedA(r))
                regions.join(x, r);
            else if (unmatchedA(x) && readersA[r] <= kFew)
                nearA[m.instructionInB[r]].push_back(x); // x reads the pair's value
            else if (unmatchedA(r) && !unmatchedA(x) && readsA[x].size() <= kFew)
                nearA[m.instructionInB[x]].push_back(r); // the pair reads r's value
        }
    }
    for (std::uint32_t y = 0; y < nb; ++y) {
        for (const std::uint32_t r : readsB[y]) {
            if (unmatchedB(y) && unmatchedB(r))
                regions.join(B_(y), B_(r));
            else if (unmatchedB(y) && readersB[r] <= kFew)
                for (const std::uint32_t x : nearA[r])
                    regions.join(x, B_(y));
            else if (unmatchedB(r) && !unmatchedB(y) && readsB[y].size() <= kFew)
                for (const std::uint32_t x : nearA[y])
                    regions.join(x, B_(r));
        }
    }
    std::vector<std::uint8_t> sides(na + nb, 0);
    for (std::uint32_t x = 0; x < na; ++x)
        if (unmatchedA(x))
            sides[regions.find(x)] |= 1;
    for (std::uint32_t y = 0; y < nb; ++y)
        if (unmatchedB(y))
            sides[regions.find(B_(y))] |= 2;
    for (std::uint32_t x = 0; x < na; ++x)
        if (unmatchedA(x) && sides[regions.find(x)] == 3)
            m_regionOfA[x] = regions.find(x);
    for (std::uint32_t y = 0; y < nb; ++y)
        if (unmatchedB(y) && sides[regions.find(B_(y))] == 3)
            m_regionOfB[y] = regions.find(B_(y));
}

void Rules::findPlacement()
{
    const DumpMatch &m = diff.match;
    m_sharesA = sharesInPlace(a);
    m_sharesB = sharesInPlace(b);
    // An unmatched value that a lost in-place write or a lost donation brings (the copy XLA
    // makes into the output, or the output buffer of its own): an output value whose
    // instruction reads a value of that mechanism.
    const auto follows = [&](const Dump &d, bool isB, std::vector<CauseKind> &kind,
                             std::vector<std::int64_t> &parameter) {
        kind.assign(d.values.size(), CauseKind::Other);
        parameter.assign(d.values.size(), -1);
        for (std::uint32_t v = 0; v < d.values.size(); ++v) {
            const Value &x = d.values[v];
            if ((isB ? m.valueInA[v] : m.valueInB[v]) != kNone || x.instruction == kNone ||
                !isOutput(d, x))
                continue;
            const auto [first, last] = d.usersOf(x.instruction);
            std::uint32_t seen = 0;
            for (const std::uint32_t *u = first; u != last && seen < kNeighbours; ++u, ++seen) {
                const std::uint32_t other = isB ? m.valueInA[*u] : m.valueInB[*u];
                if (other == kNone)
                    continue;
                const std::uint32_t va = isB ? other : *u;
                const std::uint32_t vb = isB ? *u : other;
                if (m_lostOfA[va] >= 0 || m_gainedOfB[vb] >= 0) {
                    kind[v] =
                        m_lostOfA[va] >= 0 ? CauseKind::DonationLost : CauseKind::DonationGained;
                    parameter[v] = m_lostOfA[va] >= 0 ? m_lostOfA[va] : m_gainedOfB[vb];
                    break;
                }
                CauseKind k = CauseKind::Other;
                if (inPlaceChange(va, vb, k)) {
                    kind[v] = k;
                    break;
                }
            }
        }
    };
    follows(a, false, m_followsA, m_followsParameterA);
    follows(b, true, m_followsB, m_followsParameterB);
}

bool Rules::inPlaceChange(std::uint32_t va, std::uint32_t vb, CauseKind &kind) const
{
    if (va == kNone || vb == kNone)
        return false;
    const Value &x = a.values[va];
    const Value &y = b.values[vb];
    // Written in place over an operand (or over by a reader) on one side only.
    if (m_sharesA[va] != m_sharesB[vb]) {
        kind = m_sharesA[va] ? CauseKind::InPlaceLost : CauseKind::InPlaceGained;
        return true;
    }
    // The output itself on one side (written straight into the output's buffer), in temp on
    // the other (and copied into the output).
    if (isLiveOut(a, x) && isTemp(b, y)) {
        kind = CauseKind::InPlaceLost;
        return true;
    }
    if (isTemp(a, x) && isLiveOut(b, y)) {
        kind = CauseKind::InPlaceGained;
        return true;
    }
    return false;
}

bool Rules::inRegion(const Dump &d, const std::vector<std::uint32_t> &regionOf,
                     std::uint32_t v) const
{
    const Value &x = d.values[v];
    return x.instruction != kNone && regionOf[x.instruction] != kNone;
}

std::pair<CauseKind, std::int64_t> Rules::classifyAlone(std::uint32_t va, std::uint32_t vb) const
{
    if (va == kNone && vb == kNone)
        return {CauseKind::Other, -1}; // an allocation without values
    if (va != kNone && m_lostOfA[va] >= 0)
        return {CauseKind::DonationLost, m_lostOfA[va]};
    if (vb != kNone && m_gainedOfB[vb] >= 0)
        return {CauseKind::DonationGained, m_gainedOfB[vb]};
    if (vb == kNone) {
        if (m_followsA[va] != CauseKind::Other)
            return {m_followsA[va], m_followsParameterA[va]};
        if (collectives::isValue(a, a.values[va]))
            return {CauseKind::Collective, -1};
        if (inRegion(a, m_regionOfA, va))
            return {CauseKind::Restructured, -1};
        return {CauseKind::BufferGone, -1};
    }
    if (va == kNone) {
        if (m_followsB[vb] != CauseKind::Other)
            return {m_followsB[vb], m_followsParameterB[vb]};
        if (collectives::isValue(b, b.values[vb]))
            return {CauseKind::Collective, -1};
        if (inRegion(b, m_regionOfB, vb))
            return {CauseKind::Restructured, -1};
        return {CauseKind::NewBuffer, -1};
    }
    if (CauseKind k = CauseKind::Other; inPlaceChange(va, vb, k))
        return {k, -1};
    const Value &x = a.values[va];
    const Value &y = b.values[vb];
    if (x.size == y.size)
        return {CauseKind::Other, -1};
    // Another size with the same shape text (padding the text does not show): resized.
    if (a.shapeText(x) == b.shapeText(y))
        return {collectives::isValue(b, y) ? CauseKind::Collective : CauseKind::Resized, -1};
    const Shape sa = shapeOf(a, x);
    const Shape sb = shapeOf(b, y);
    if (sameDimensions(sa, sb) && sa.type != sb.type)
        return {CauseKind::Dtype, -1};
    if (isParameterValue(a, x) || isParameterValue(b, y))
        return {CauseKind::InputShape, -1};
    if (!shapeInputs.empty() && scalesWithInputs(va, vb))
        return {CauseKind::InputShape, -1};
    if (collectives::isValue(a, x) || collectives::isValue(b, y))
        return {CauseKind::Collective, -1};
    return {CauseKind::Resized, -1};
}

std::pair<CauseKind, std::int64_t> Rules::classify(std::uint32_t va, std::uint32_t vb) const
{
    const std::pair<CauseKind, std::int64_t> alone = classifyAlone(va, vb);
    // What a collective that came or went fed is told under it, where its own change is one
    // that losing or gaining that collective makes: gone or new, written in place or not,
    // another size or computation. A donation, the inputs' shapes or element types stay theirs.
    switch (alone.first) {
    case CauseKind::InPlaceLost:
    case CauseKind::InPlaceGained:
    case CauseKind::Resized:
    case CauseKind::Restructured:
    case CauseKind::NewBuffer:
    case CauseKind::BufferGone:
        if ((va != kNone && m_fedA[va]) || (vb != kNone && m_fedB[vb]))
            return {CauseKind::Collective, -1};
        break;
    default:
        break;
    }
    return alone;
}

bool Rules::scalesWithInputs(std::uint32_t va, std::uint32_t vb) const
{
    // Each dimension that differs (or, for another rank, the element count) by a ratio some
    // parameter's dimension has.
    const auto known = [this](double r) {
        for (const double k : m_inputRatios)
            if (std::abs(k - r) < 1e-9 * std::max(1.0, r))
                return true;
        return false;
    };
    const Value &x = a.values[va];
    const Value &y = b.values[vb];
    const Shape sa = shapeOf(a, x);
    const Shape sb = shapeOf(b, y);
    if (sa.isArray() && sb.isArray() && sa.dims.size() == sb.dims.size()) {
        bool any = false;
        for (std::size_t k = 0; k < sa.dims.size(); ++k) {
            if (sa.dims[k].size == sb.dims[k].size)
                continue;
            if (sa.dims[k].size <= 0 ||
                !known(static_cast<double>(sb.dims[k].size) / static_cast<double>(sa.dims[k].size)))
                return false;
            any = true;
        }
        return any;
    }
    return x.size > 0 && known(static_cast<double>(y.size) / static_cast<double>(x.size));
}

} // namespace bufferscope::causes
