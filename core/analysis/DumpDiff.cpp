#include "DumpDiff.h"

#include "analysis/PeakBreakdown.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

namespace bufferscope {

namespace {

ValueChange change(DiffSide before, DiffSide after, std::uint8_t flags)
{
    ValueChange c;
    c.before = std::move(before);
    c.after = std::move(after);
    c.flags = flags;
    return c;
}

PeakChange peakChange(PeakChange::Kind kind, DiffSide before, DiffSide after,
                      std::int64_t contribution)
{
    PeakChange c;
    c.kind = kind;
    c.before = std::move(before);
    c.after = std::move(after);
    c.contribution = contribution;
    return c;
}

const SpaceTimeline *peakSpace(const MemoryTimeline &t)
{
    return t.space(0) ? t.space(0) : t.primary();
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

/// Merges two hierarchies by label, down to (not including) the instruction-name leaves, whose
/// names a recompile renumbers.
/// Merges two trees by label. `renamed` (a label of A's children, one of B's) pairs two
/// children with different labels as one, shown as "A → B".
DeltaNode mergeTrees(const BreakdownNode *a, const BreakdownNode *b, std::string label,
                     const std::pair<std::string, std::string> &renamed = {})
{
    DeltaNode node;
    node.label = std::move(label);
    node.before = a ? a->bytes : 0;
    node.after = b ? b->bytes : 0;
    const std::string pairedLabel =
        renamed.first.empty() ? std::string() : renamed.first + " → " + renamed.second;
    std::map<std::string, std::pair<const BreakdownNode *, const BreakdownNode *>> children;
    if (a)
        for (const BreakdownNode &c : a->children)
            if (!c.instructions)
                children[!pairedLabel.empty() && c.label == renamed.first ? pairedLabel : c.label]
                    .first = &c;
    if (b)
        for (const BreakdownNode &c : b->children)
            if (!c.instructions)
                children[!pairedLabel.empty() && c.label == renamed.second ? pairedLabel : c.label]
                    .second = &c;
    for (const auto &[key, pair] : children) {
        DeltaNode child = mergeTrees(pair.first, pair.second, key);
        if (child.delta() != 0 || !child.children.empty())
            node.children.push_back(std::move(child));
    }
    std::stable_sort(node.children.begin(), node.children.end(),
                     [](const DeltaNode &x, const DeltaNode &y) {
                         return std::llabs(x.delta()) > std::llabs(y.delta());
                     });
    return node;
}

using DonationKey = std::pair<std::int64_t, std::string>; ///< (parameter number, ShapeIndex)

/// An allocation's parameter number and index when it holds a donated parameter (both
/// `parameter N` and `maybe-live-out`; docs/FORMAT.md §15).
std::optional<DonationKey> donationOf(const Dump &d, const Allocation &a)
{
    if (!a.isParameter || !a.isMaybeLiveOut)
        return std::nullopt;
    return parameterKey(d, a);
}

/// Bytes of each donated parameter.
std::map<DonationKey, std::int64_t> donatedParameters(const Dump &d)
{
    std::map<DonationKey, std::int64_t> out;
    for (const Allocation &a : d.allocations)
        if (const auto key = donationOf(d, a))
            out[*key] += a.size;
    return out;
}

} // namespace

std::pair<std::int64_t, std::string> parameterKey(const Dump &dump, const Allocation &a)
{
    return {a.parameterNumber, a.parameterIndex == kNoString
                                   ? std::string("{}")
                                   : std::string(dump.str(a.parameterIndex))};
}

DiffSide DiffSide::of(const Dump &dump, std::uint32_t value)
{
    DiffSide s;
    if (value == kNone)
        return s;
    const Value &v = dump.values[value];
    s.value = value;
    s.name = dump.valueKey(v);
    s.bytes = v.size;
    s.start = v.start;
    s.end = v.end;
    s.allocation = v.allocation == kNone ? -1 : dump.allocations[v.allocation].index;
    return s;
}

std::int64_t DumpDiff::lostDonations() const
{
    return std::count_if(donations.begin(), donations.end(),
                         [](const DonationChange &c) { return c.lost; });
}

std::string DumpDiff::differentProgramsText() const
{
    return "Only " + std::to_string(matched) + " of " + std::to_string(fewerValues) +
           " values match: these look like different programs, and the differences below say "
           "little";
}

DumpDiff DumpDiff::compute(const Dump &a, const MemoryTimeline &ta, const Dump &b,
                           const MemoryTimeline &tb, const std::atomic<bool> *cancel, int threads)
{
    DumpDiff diff;
    diff.fewerValues = static_cast<std::int64_t>(std::min(a.values.size(), b.values.size()));
    diff.totalBefore = a.totalBytes();
    diff.totalAfter = b.totalBytes();
    const SpaceTimeline *sa = peakSpace(ta);
    const SpaceTimeline *sb = peakSpace(tb);
    diff.peakBefore = sa ? sa->peak.bytes : 0;
    diff.peakStepBefore = sa ? sa->peak.step : -1;
    diff.peakAfter = sb ? sb->peak.bytes : 0;
    diff.peakStepAfter = sb ? sb->peak.step : -1;
    for (const auto &[dump, timeline, side] : {std::tuple{&a, &ta, &diff.categoriesBefore},
                                               std::tuple{&b, &tb, &diff.categoriesAfter}}) {
        CategoryReport::Options o;
        o.trees = false;
        const CategoryReport r =
            CategoryReport::of(*dump, *timeline, ValueCategories::of(*dump), o);
        side->training = r.training;
        for (std::size_t c = 0; c < kCategoryCount; ++c) {
            side->held[c] = r.totals[c].heldBytes;
            side->peak[c] = r.peakStep >= 0 ? r.totals[c].peakBytes : -1;
        }
    }

    const Stopwatch clock;
    diff.match = DumpMatch::compute(a, b, cancel, threads);
    spdlog::debug("diff: values matched in {:.3f} s", clock.seconds());
    if (diff.match.cancelled)
        return diff;
    const DumpMatch &m = diff.match;

    // Each value of A: gone, or what became of it.
    for (std::uint32_t va = 0; va < a.values.size(); ++va) {
        const std::uint32_t vb = m.valueInB[va];
        if (vb == kNone) {
            diff.removed.push_back(change(DiffSide::of(a, va), DiffSide(), 0));
            continue;
        }
        ++diff.matched;
        const Value &x = a.values[va];
        const Value &y = b.values[vb];
        std::uint8_t flags = 0;
        if (x.size != y.size)
            flags |= ValueChange::Resized;
        if (!m.sameStep(a, x.start, b, y.start) || !m.sameStep(a, x.end, b, y.end))
            flags |= ValueChange::LiveRange;
        if (x.allocation != kNone && y.allocation != kNone &&
            m.allocationInB[x.allocation] != y.allocation)
            flags |= ValueChange::Moved;
        if (x.instruction != kNone && y.instruction != kNone &&
            a.str(a.instructions[x.instruction].name) != b.str(b.instructions[y.instruction].name))
            ++diff.renamed;
        if (flags != 0)
            diff.changed.push_back(change(DiffSide::of(a, va), DiffSide::of(b, vb), flags));
    }
    for (std::uint32_t vb = 0; vb < b.values.size(); ++vb)
        if (m.valueInA[vb] == kNone)
            diff.added.push_back(change(DiffSide(), DiffSide::of(b, vb), 0));
    auto bySize = [](const ValueChange &x, const ValueChange &y) {
        const std::int64_t sx = std::max(x.before.bytes, x.after.bytes);
        const std::int64_t sy = std::max(y.before.bytes, y.after.bytes);
        return sx != sy ? sx > sy : x.name() < y.name();
    };
    std::sort(diff.added.begin(), diff.added.end(), bySize);
    std::sort(diff.removed.begin(), diff.removed.end(), bySize);
    std::sort(diff.changed.begin(), diff.changed.end(),
              [](const ValueChange &x, const ValueChange &y) {
                  const std::int64_t dx = std::llabs(x.delta());
                  const std::int64_t dy = std::llabs(y.delta());
                  return dx != dy ? dx > dy : x.name() < y.name();
              });

    // Where the curves first part, on the aligned steps.
    if (sa && sb) {
        bool parted = false;
        m.steps.forEachHeld([&](std::size_t, std::int64_t x, std::int64_t y) {
            const auto ia = static_cast<std::size_t>(x);
            const auto ib = static_cast<std::size_t>(y);
            if (parted || ia >= sa->liveBytes.size() || ib >= sb->liveBytes.size() ||
                sa->liveBytes[ia] == sb->liveBytes[ib])
                return;
            parted = true;
            diff.partStepBefore = x;
            diff.partStepAfter = y;
            diff.partBytesBefore = sa->liveBytes[ia];
            diff.partBytesAfter = sb->liveBytes[ib];
        });
    }
    diff.peakStepBeforeInB = m.steps.bAt(diff.peakStepBefore);

    // What differs at the peaks.
    diff.hasStacks = !a.stackFrames.empty() || !b.stackFrames.empty();
    BreakdownOptions options;
    options.callStacks = diff.hasStacks;
    const Breakdown ba =
        Breakdown::compute(a, diff.peakStepBefore, sa ? sa->memorySpace : 0, options);
    const Breakdown bb =
        Breakdown::compute(b, diff.peakStepAfter, sb ? sb->memorySpace : 0, options);
    {
        std::vector<bool> liveA(a.values.size(), false);
        std::vector<bool> liveB(b.values.size(), false);
        for (std::uint32_t v : ba.live)
            liveA[v] = true;
        for (std::uint32_t v : bb.live)
            liveB[v] = true;
        for (std::uint32_t v : bb.live) {
            const std::uint32_t va = m.valueInA[v];
            const std::int64_t bytes = b.values[v].size;
            if (va == kNone) {
                diff.atPeak.push_back(
                    peakChange(PeakChange::Kind::Added, DiffSide(), DiffSide::of(b, v), bytes));
            } else if (!liveA[va]) {
                diff.atPeak.push_back(peakChange(PeakChange::Kind::Joined, DiffSide::of(a, va),
                                                 DiffSide::of(b, v), bytes));
            } else if (a.values[va].size != bytes) {
                const std::int64_t d = bytes - a.values[va].size;
                diff.atPeak.push_back(
                    peakChange(d > 0 ? PeakChange::Kind::Grown : PeakChange::Kind::Shrunk,
                               DiffSide::of(a, va), DiffSide::of(b, v), d));
            }
        }
        for (std::uint32_t v : ba.live) {
            const std::uint32_t vb = m.valueInB[v];
            const std::int64_t bytes = a.values[v].size;
            if (vb == kNone)
                diff.atPeak.push_back(
                    peakChange(PeakChange::Kind::Removed, DiffSide::of(a, v), DiffSide(), -bytes));
            else if (!liveB[vb])
                diff.atPeak.push_back(peakChange(PeakChange::Kind::Left, DiffSide::of(a, v),
                                                 DiffSide::of(b, vb), -bytes));
        }
        std::stable_sort(diff.atPeak.begin(), diff.atPeak.end(),
                         [](const PeakChange &x, const PeakChange &y) {
                             const std::int64_t cx = std::llabs(x.contribution);
                             const std::int64_t cy = std::llabs(y.contribution);
                             if (cx != cy)
                                 return cx > cy;
                             return (x.after.value != kNone ? x.after.name : x.before.name) <
                                    (y.after.value != kNone ? y.after.name : y.before.name);
                         });
    }

    diff.bySource = deltas(ba.bySource, bb.bySource);
    diff.byKind = deltas(ba.byKind, bb.byKind);
    // Two variants of a program (jit(f_x) against jit(f_y)): every group would show as gone
    // and new. When each side's largest top-level group is missing from the other, the two
    // are taken for the same function and compared below their roots.
    const auto largestRoot = [](const BreakdownNode &tree) -> const BreakdownNode * {
        const BreakdownNode *best = nullptr;
        for (const BreakdownNode &c : tree.children)
            if (!c.instructions && c.label != Breakdown::kNoOpName &&
                (!best || c.bytes > best->bytes))
                best = &c;
        return best;
    };
    const auto hasRoot = [](const BreakdownNode &tree, const std::string &label) {
        return std::any_of(tree.children.begin(), tree.children.end(), [&](const BreakdownNode &c) {
            return !c.instructions && c.label == label;
        });
    };
    const BreakdownNode *rootA = largestRoot(ba.opNameTree);
    const BreakdownNode *rootB = largestRoot(bb.opNameTree);
    // Taken for the same function only when both are a transform of one kind, `jit(…)`, hold
    // most of their side's bytes, and have a group below them in common (`jit(main)`).
    const auto kindOf = [](const std::string &label) {
        const auto open = label.find('(');
        return open == std::string::npos || !label.ends_with(')') ? std::string()
                                                                  : label.substr(0, open);
    };
    const auto sharesChild = [](const BreakdownNode &x, const BreakdownNode &y) {
        for (const BreakdownNode &c : x.children)
            for (const BreakdownNode &o : y.children)
                if (!c.instructions && !o.instructions && c.label == o.label)
                    return true;
        return false;
    };
    if (rootA && rootB && rootA->label != rootB->label && !hasRoot(bb.opNameTree, rootA->label) &&
        !hasRoot(ba.opNameTree, rootB->label) && !kindOf(rootA->label).empty() &&
        kindOf(rootA->label) == kindOf(rootB->label) && 2 * rootA->bytes >= ba.opNameTree.bytes &&
        2 * rootB->bytes >= bb.opNameTree.bytes && sharesChild(*rootA, *rootB)) {
        diff.opNameRootBefore = rootA->label;
        diff.opNameRootAfter = rootB->label;
        diff.opNameTree =
            mergeTrees(&ba.opNameTree, &bb.opNameTree, "(all)", {rootA->label, rootB->label});
    } else {
        diff.opNameTree = mergeTrees(&ba.opNameTree, &bb.opNameTree, "(all)");
    }
    // The flat op_name groups the same way: "jit(f_x)/…" and "jit(f_y)/…" as one key.
    const auto underPair = [&diff](std::vector<BreakdownRow> rows, const std::string &root) {
        if (diff.opNameRootBefore.empty())
            return rows;
        const std::string pair = diff.opNameRootBefore + " → " + diff.opNameRootAfter;
        for (BreakdownRow &r : rows)
            if (r.key == root || r.key.starts_with(root + "/"))
                r.key = pair + r.key.substr(root.size());
        return rows;
    };
    diff.byOpName = deltas(underPair(ba.byOpName, diff.opNameRootBefore),
                           underPair(bb.byOpName, diff.opNameRootAfter));
    if (diff.hasStacks)
        diff.stackTree = mergeTrees(&ba.callersTree, &bb.callersTree, "(all)");

    // Donations: parameters aliased with an output on one side only.
    const auto da = donatedParameters(a);
    const auto db = donatedParameters(b);
    for (const auto &[key, bytes] : da)
        if (!db.count(key))
            diff.donations.push_back({key.first, key.second, bytes, true});
    for (const auto &[key, bytes] : db)
        if (!da.count(key))
            diff.donations.push_back({key.first, key.second, bytes, false});
    for (const Allocation &alloc : a.allocations) {
        const auto key = donationOf(a, alloc);
        if (!key || db.count(*key))
            continue;
        for (std::uint32_t k = 0; k < alloc.valueCount; ++k) {
            const std::uint32_t va = a.allocationValues[alloc.firstValue + k];
            diff.lostDonationValues.push_back(
                change(DiffSide::of(a, va), DiffSide::of(b, m.valueInB[va]), 0));
        }
    }
    const double listed = clock.seconds();
    diff.why = DiffCauses::compute(diff, a, ta, b, tb);
    spdlog::debug("diff: listed and broken down by {:.3f} s, causes in {:.3f} s", listed,
                  clock.seconds() - listed);
    return diff;
}

} // namespace bufferscope
