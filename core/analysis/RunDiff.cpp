#include "analysis/RunDiff.h"

#include "util/Parallel.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace bufferscope {

namespace {

using Module = RunSummary::Module;
using Family = RunSummary::Family;

/// A shape with its dimensions' sizes left out: `c128[9,80,80]` → `c128[#,#,#]`. Two
/// signatures of one kind have the same element types and ranks.
std::string kindOf(const std::string &shape)
{
    std::string out;
    bool inDims = false;
    bool digit = false;
    for (const char c : shape) {
        if (c == '[')
            inDims = true;
        else if (c == ']')
            inDims = false;
        const bool isDigit = c >= '0' && c <= '9';
        if (inDims && isDigit) {
            if (!digit)
                out += '#';
            digit = true;
            continue;
        }
        digit = false;
        out += c;
    }
    return out;
}

bool sameKind(const std::vector<RunSummary::Parameter> &x,
              const std::vector<RunSummary::Parameter> &y)
{
    if (x.size() != y.size())
        return false;
    for (std::size_t k = 0; k < x.size(); ++k)
        if (kindOf(x[k].shape) != kindOf(y[k].shape))
            return false;
    return true;
}

/// How many dimensions differ between two signatures of one kind.
std::size_t dimensionsApart(const std::vector<RunSummary::Parameter> &x,
                            const std::vector<RunSummary::Parameter> &y)
{
    std::size_t apart = 0;
    for (std::size_t k = 0; k < x.size() && k < y.size(); ++k) {
        // Both are of one kind: the digit runs line up.
        const std::string &p = x[k].shape;
        const std::string &q = y[k].shape;
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < p.size() && j < q.size()) {
            if (std::isdigit(static_cast<unsigned char>(p[i])) &&
                std::isdigit(static_cast<unsigned char>(q[j]))) {
                std::size_t ie = i;
                std::size_t je = j;
                while (ie < p.size() && std::isdigit(static_cast<unsigned char>(p[ie])))
                    ++ie;
                while (je < q.size() && std::isdigit(static_cast<unsigned char>(q[je])))
                    ++je;
                apart += p.compare(i, ie - i, q, j, je - j) != 0;
                i = ie;
                j = je;
            } else {
                ++i;
                ++j;
            }
        }
    }
    return apart;
}

/// A family's readable compiles, in the order compiled.
/// A family's compiles that can be compared: read, and not paired already with a byte-for-byte
/// twin of another function (`twinned`, by module index; empty: none).
std::vector<std::size_t> readable(const RunSummary &s, const Family &f,
                                  const std::vector<bool> &twinned = {})
{
    std::vector<std::size_t> out;
    for (const std::size_t i : f.modules)
        if (s.modules[i].read && (twinned.empty() || !twinned[i]))
            out.push_back(i);
    return out;
}

/// Two functions' compiles paired by what they are (RunDiff's rules), with those left over on
/// each side.
struct Pairing
{
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<std::size_t> goneA;
    std::vector<std::size_t> newB;
};

Pairing pairCompiles(const RunSummary &a, const Family &fa, const RunSummary &b, const Family &fb,
                     const std::vector<bool> &twinnedA, const std::vector<bool> &twinnedB)
{
    const std::vector<std::size_t> xs = readable(a, fa, twinnedA);
    const std::vector<std::size_t> ys = readable(b, fb, twinnedB);
    std::vector<bool> usedA(xs.size(), false);
    std::vector<bool> usedB(ys.size(), false);
    Pairing out;
    const auto pass = [&](const auto &fits) {
        for (std::size_t i = 0; i < xs.size(); ++i) {
            if (usedA[i])
                continue;
            std::size_t best = ys.size();
            std::size_t bestScore = SIZE_MAX;
            for (std::size_t k = 0; k < ys.size(); ++k) {
                if (usedB[k])
                    continue;
                const std::size_t score = fits(a.modules[xs[i]], b.modules[ys[k]]);
                if (score < bestScore) {
                    best = k;
                    bestScore = score;
                }
            }
            if (best < ys.size() && bestScore != SIZE_MAX) {
                usedA[i] = true;
                usedB[best] = true;
                out.pairs.emplace_back(xs[i], ys[best]);
            }
        }
    };
    // The same buffer assignment; the same signature; the same kind, fewest dimensions apart.
    pass([](const Module &x, const Module &y) {
        return x.fingerprint == y.fingerprint ? std::size_t{0} : SIZE_MAX;
    });
    pass([](const Module &x, const Module &y) {
        return x.signature == y.signature ? std::size_t{0} : SIZE_MAX;
    });
    pass([](const Module &x, const Module &y) {
        return sameKind(x.signature, y.signature) ? dimensionsApart(x.signature, y.signature)
                                                  : SIZE_MAX;
    });
    // The one left on each side.
    const auto left = [](const std::vector<bool> &used) {
        return static_cast<std::size_t>(std::count(used.begin(), used.end(), false));
    };
    if (left(usedA) == 1 && left(usedB) == 1)
        pass([](const Module &, const Module &) { return std::size_t{0}; });
    for (std::size_t i = 0; i < xs.size(); ++i)
        if (!usedA[i])
            out.goneA.push_back(xs[i]);
    for (std::size_t k = 0; k < ys.size(); ++k)
        if (!usedB[k])
            out.newB.push_back(ys[k]);
    return out;
}

RunDiff::Row rowOf(RunDiff::Change change, const std::string &name, const Module *before,
                   const Module *after, std::size_t arguments)
{
    RunDiff::Row r;
    r.change = change;
    r.name = name;
    r.arguments = arguments;
    const Module *shown = after ? after : before;
    r.signature = RunDiff::signatureText(shown->signature);
    if (before) {
        r.before = before->name;
        r.beforeFile = before->file;
        r.heldBefore = std::max<std::int64_t>(before->held, 0);
        r.peakBefore = before->livePeak;
    }
    if (after) {
        r.after = after->name;
        r.afterFile = after->file;
        r.heldAfter = std::max<std::int64_t>(after->held, 0);
        r.peakAfter = after->livePeak;
    }
    r.sameInputs = before && after && before->signature == after->signature;
    if (change == RunDiff::Change::New)
        r.whatChanged = "a new compile: no compile of the before run is its counterpart";
    else if (change == RunDiff::Change::Gone)
        r.whatChanged = "gone: no compile of the after run is its counterpart";
    else if (before->signature == after->signature)
        r.whatChanged = "same inputs, another program";
    else
        r.whatChanged = RunDiff::signatureChange(before->signature, after->signature);
    // Shapes of a partitioned program: the signature's are global (before partitioning), the
    // module diff's per device; both said, so that the two columns do not seem to disagree.
    if (change == RunDiff::Change::Changed && before->signature != after->signature &&
        (!before->deviceSignature.empty() || !after->deviceSignature.empty())) {
        const auto &devBefore =
            before->deviceSignature.empty() ? before->signature : before->deviceSignature;
        const auto &devAfter =
            after->deviceSignature.empty() ? after->signature : after->deviceSignature;
        r.whatChanged += " (global shapes; per device: " +
                         (devBefore == devAfter ? std::string("the same")
                                                : RunDiff::signatureChange(devBefore, devAfter)) +
                         ")";
    }
    return r;
}

} // namespace

std::int64_t RunDiff::Row::peakDelta() const
{
    switch (change) {
    case Change::New:
        return std::max<std::int64_t>(peakAfter, 0);
    case Change::Gone:
        return -std::max<std::int64_t>(peakBefore, 0);
    case Change::Changed:
        break;
    }
    return peakBefore >= 0 && peakAfter >= 0 ? peakAfter - peakBefore : 0;
}

std::size_t RunDiff::count(Change change) const
{
    return static_cast<std::size_t>(std::count_if(
        rows.begin(), rows.end(), [change](const Row &r) { return r.change == change; }));
}

std::string RunDiff::signatureText(const std::vector<RunSummary::Parameter> &parameters)
{
    std::string out = "(";
    for (std::size_t i = 0; i < parameters.size(); ++i)
        out += (i ? ", " : "") + parameters[i].shape;
    return out + ")";
}

std::string RunDiff::signatureChange(const std::vector<RunSummary::Parameter> &before,
                                     const std::vector<RunSummary::Parameter> &after)
{
    if (before == after)
        return "same inputs";
    if (before.size() != after.size())
        return std::to_string(before.size()) + " arguments → " + std::to_string(after.size());
    std::string out;
    std::size_t shown = 0;
    std::size_t differ = 0;
    for (std::size_t k = 0; k < before.size(); ++k) {
        if (before[k].shape == after[k].shape)
            continue;
        ++differ;
        if (shown == 3)
            continue;
        out +=
            (shown ? "; " : "") + after[k].name + ": " + before[k].shape + " → " + after[k].shape;
        ++shown;
    }
    if (differ > shown)
        out += "; and " + std::to_string(differ - shown) + " more";
    return out.empty() ? "the parameters' names" : out;
}

RunDiff RunDiff::of(const RunSummary &a, const RunSummary &b, const Compare &compare, int threads)
{
    return of(a, b, compare, [&compare, threads](const std::vector<Pair> &pairs) {
        std::vector<Comparison> out(pairs.size());
        parallelFor(pairs.size(), threadsFor(threads),
                    [&](std::size_t k) { out[k] = compare(*pairs[k].first, *pairs[k].second); });
        return out;
    });
}

RunDiff RunDiff::of(const RunSummary &a, const RunSummary &b, const Compare &compare,
                    const CompareAll &compareAll)
{
    RunDiff d;
    for (const auto &[run, after] : {std::pair{&a, false}, std::pair{&b, true}}) {
        std::vector<Unreadable> these;
        for (const Module &m : run->modules)
            if (!m.read)
                these.push_back({after, m.name, m.file, m.error});
        std::sort(these.begin(), these.end(),
                  [](const Unreadable &x, const Unreadable &y) { return x.file < y.file; });
        d.unreadable.insert(d.unreadable.end(), these.begin(), these.end());
    }
    {
        std::set<std::string> shared(a.sharedNames.begin(), a.sharedNames.end());
        shared.insert(b.sharedNames.begin(), b.sharedNames.end());
        d.sharedNames.assign(shared.begin(), shared.end());
    }
    // A compile with a byte-for-byte twin (the same fingerprint) under another function of the
    // other run is that twin, renamed, before any pairing by function: pairing by function
    // alone paired it with another compile of its name and reported a change, while its twin
    // was "new". A twin under its own function is left to that function's pairing, which
    // takes twins first.
    const auto familiesOf = [](const RunSummary &run) {
        std::vector<const Family *> out(run.modules.size(), nullptr);
        for (const Family &f : run.families)
            for (const std::size_t m : f.modules)
                out[m] = &f;
        return out;
    };
    const std::vector<const Family *> familyA = familiesOf(a);
    const std::vector<const Family *> familyB = familiesOf(b);
    std::vector<bool> twinnedA(a.modules.size(), false);
    std::vector<bool> twinnedB(b.modules.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> twins;
    {
        std::unordered_map<std::uint64_t, std::vector<std::size_t>> byFingerprint;
        for (std::size_t k = 0; k < b.modules.size(); ++k)
            if (b.modules[k].read)
                byFingerprint[b.modules[k].fingerprint].push_back(k);
        const auto sameFunction = [&](std::size_t i, std::size_t k) {
            const Family *x = familyA[i];
            const Family *y = familyB[k];
            return x && y && x->name == y->name && x->arguments == y->arguments;
        };
        // A twin under its own function is kept for that function's pairing (reserved); the
        // others may go to a compile of another function.
        std::vector<bool> reserved(b.modules.size(), false);
        std::vector<std::size_t> crossed;
        for (std::size_t i = 0; i < a.modules.size(); ++i) {
            const Module &x = a.modules[i];
            const auto found = byFingerprint.find(x.fingerprint);
            if (!x.read || found == byFingerprint.end())
                continue;
            const auto own =
                std::find_if(found->second.begin(), found->second.end(),
                             [&](std::size_t k) { return !reserved[k] && sameFunction(i, k); });
            if (own != found->second.end())
                reserved[*own] = true;
            else
                crossed.push_back(i);
        }
        for (const std::size_t i : crossed) {
            const std::vector<std::size_t> &left = byFingerprint[a.modules[i].fingerprint];
            // A twin is the same buffer assignment for the same inputs (its ENTRY signature).
            const auto free = std::find_if(left.begin(), left.end(), [&](std::size_t k) {
                return !twinnedB[k] && !reserved[k] && !sameFunction(i, k) &&
                       a.modules[i].signature == b.modules[k].signature;
            });
            if (free == left.end())
                continue;
            twinnedA[i] = true;
            twinnedB[*free] = true;
            twins.emplace_back(i, *free);
        }
    }
    // Functions are a name and a number of arguments.
    std::vector<const Family *> goneF;
    std::vector<const Family *> newF;
    std::vector<std::pair<const Family *, const Family *>> pairsF;
    for (const Family &fa : a.families) {
        if (const Family *fb = b.family(fa.name, fa.arguments))
            pairsF.emplace_back(&fa, fb);
        else
            goneF.push_back(&fa);
    }
    for (const Family &fb : b.families)
        if (!a.family(fb.name, fb.arguments))
            newF.push_back(&fb);
    // A function renamed between the runs: its largest compile and one that appeared are the
    // same program, judged on both sides (a small module against part of a large one is not),
    // with the same number of arguments; a small module only when identical. An identical one
    // (the same fingerprint) is taken first; then the candidates most alike in size, and only
    // those whose sizes allow a match at all (the larger's matched share is at most the
    // smaller's count over its own).
    std::vector<bool> taken(newF.size(), false);
    // The comparison that found a rename is that pair's: not made again below.
    std::map<std::pair<std::size_t, std::size_t>, Comparison> found;
    std::vector<bool> paired(goneF.size(), false);
    for (std::size_t gi = 0; gi < goneF.size(); ++gi) {
        const Family *g = goneF[gi];
        const Module &ma = a.modules[g->largest];
        if (!ma.read || twinnedA[g->largest])
            continue;
        std::vector<std::size_t> candidates;
        std::size_t identical = newF.size();
        for (std::size_t ni = 0; ni < newF.size(); ++ni) {
            const Module &mb = b.modules[newF[ni]->largest];
            if (taken[ni] || !mb.read || twinnedB[newF[ni]->largest] ||
                newF[ni]->arguments != g->arguments)
                continue;
            if (ma.fingerprint == mb.fingerprint) {
                identical = ni;
                break;
            }
            if (!sameKind(ma.signature, mb.signature))
                continue;
            const std::size_t lo = std::min(ma.valueCount, mb.valueCount);
            const std::size_t hi = std::max(ma.valueCount, mb.valueCount);
            if (lo < kSmallModule
                    ? lo != hi
                    : static_cast<double>(lo) < kSameProgramLarger * static_cast<double>(hi))
                continue;
            candidates.push_back(ni);
        }
        std::size_t match = identical;
        if (match == newF.size()) {
            // The candidates most alike in what their programs are made of first (the scan's
            // sketches), then in size; at most kRenameTries of them compared, each comparison
            // reading both modules again: without the cap, N functions that vanished while N
            // unrelated ones of one size appeared made N² comparisons.
            const auto order = [&](std::size_t ni) {
                const Module &mb = b.modules[newF[ni]->largest];
                const auto apart = [](std::int64_t x, std::int64_t y) {
                    return x > y ? x - y : y - x;
                };
                return std::make_tuple(
                    -RunSummary::likeness(ma, mb),
                    apart(static_cast<std::int64_t>(ma.valueCount),
                          static_cast<std::int64_t>(mb.valueCount)),
                    apart(std::max<std::int64_t>(ma.held, 0), std::max<std::int64_t>(mb.held, 0)),
                    ni);
            };
            std::vector<std::pair<decltype(order(0)), std::size_t>> ranked;
            ranked.reserve(candidates.size());
            for (const std::size_t ni : candidates)
                ranked.emplace_back(order(ni), ni);
            const std::size_t tries = std::min(ranked.size(), kRenameTries);
            std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(tries),
                              ranked.end());
            for (std::size_t t = 0; t < tries; ++t) {
                const std::size_t ni = ranked[t].second;
                const Module &mb = b.modules[newF[ni]->largest];
                const Comparison c = compare(ma, mb);
                ++d.renameComparisons;
                const bool small = std::min(ma.valueCount, mb.valueCount) < kSmallModule;
                // Most of the smaller module matched, and much of the larger: a rename may
                // come with a fusion split in two, never with a program five times the size.
                if (c.ok &&
                    (small ? c.identical
                           : std::max(c.matchedBefore, c.matchedAfter) >= kSameProgram &&
                                 std::min(c.matchedBefore, c.matchedAfter) >= kSameProgramLarger)) {
                    match = ni;
                    found.emplace(std::pair{g->largest, newF[ni]->largest}, c);
                    break;
                }
            }
        }
        if (match == newF.size())
            continue;
        taken[match] = true;
        paired[gi] = true;
        pairsF.emplace_back(g, newF[match]);
    }
    {
        std::vector<const Family *> stillGone;
        std::vector<const Family *> stillNew;
        for (std::size_t gi = 0; gi < goneF.size(); ++gi)
            if (!paired[gi])
                stillGone.push_back(goneF[gi]);
        for (std::size_t ni = 0; ni < newF.size(); ++ni)
            if (!taken[ni])
                stillNew.push_back(newF[ni]);
        goneF = std::move(stillGone);
        newF = std::move(stillNew);
    }
    // Every compile of a function that vanished or appeared is gone or new, unless an
    // unreadable module stands in the way: a function none of whose compiles could be read is
    // unreadable (listed so), not vanished or appeared; one whose compile in the other run
    // could not be read is not compared, not gone or new.
    const auto unreadNames = [](const RunSummary &run) {
        std::set<std::string> out;
        for (const Module &m : run.modules)
            if (!m.read)
                out.insert(m.function);
        return out;
    };
    const std::set<std::string> unreadA = unreadNames(a);
    const std::set<std::string> unreadB = unreadNames(b);
    for (const Family *f : goneF) {
        const std::vector<std::size_t> read = readable(a, *f, twinnedA);
        const bool otherUnread = unreadB.count(f->name) > 0;
        if (!read.empty() && !otherUnread)
            d.vanished.push_back(f->label);
        for (const std::size_t i : read) {
            Row r = rowOf(Change::Gone, f->label, &a.modules[i], nullptr, f->arguments);
            r.whatChanged = otherUnread
                                ? "not compared: the after run's compile of its function "
                                  "could not be read"
                                : "its function vanished: the after run has no compile of it";
            d.rows.push_back(std::move(r));
        }
    }
    for (const Family *f : newF) {
        const std::vector<std::size_t> read = readable(b, *f, twinnedB);
        const bool otherUnread = unreadA.count(f->name) > 0;
        if (!read.empty() && !otherUnread)
            d.appeared.push_back(f->label);
        for (const std::size_t k : read) {
            Row r = rowOf(Change::New, f->label, nullptr, &b.modules[k], f->arguments);
            r.whatChanged = otherUnread
                                ? "not compared: the before run's compile of its function "
                                  "could not be read"
                                : "its function appeared: the before run has no compile of it";
            d.rows.push_back(std::move(r));
        }
    }
    // The pairs to compare, after the rows are known: then side by side.
    struct ToCompare
    {
        std::size_t row;
        const Module *before;
        const Module *after;
    };
    std::vector<ToCompare> toCompare;
    std::vector<std::size_t> comparedRows; ///< rows given a comparison made in the search
    for (const auto &[fa, fb] : pairsF) {
        const bool renamed = fa->name != fb->name;
        if (fa->modules.size() != fb->modules.size())
            d.recompiled.push_back({fb->label, fa->modules.size(), fb->modules.size()});
        const Pairing p = pairCompiles(a, *fa, b, *fb, twinnedA, twinnedB);
        for (const auto &[i, k] : p.pairs) {
            ++d.pairedCompiles;
            const Module &ma = a.modules[i];
            const Module &mb = b.modules[k];
            const bool sameFigures = ma.held == mb.held && ma.livePeak == mb.livePeak;
            if (sameFigures && !renamed) {
                ++d.unchangedCompiles;
                continue;
            }
            Row r = rowOf(Change::Changed, fb->label, &ma, &mb, fb->arguments);
            if (renamed)
                r.renamedFrom = fa->label;
            if (ma.fingerprint == mb.fingerprint) {
                r.comparison.ok = true;
                r.comparison.identical = true;
                r.comparison.matchedBefore = r.comparison.matchedAfter = 1;
                r.whatChanged = "renamed, the same buffer assignment";
            } else {
                if (const auto known = found.find({i, k}); known != found.end()) {
                    r.comparison = known->second;
                    comparedRows.push_back(d.rows.size());
                } else
                    toCompare.push_back({d.rows.size(), &ma, &mb});
            }
            d.rows.push_back(std::move(r));
        }
        for (const std::size_t i : p.goneA)
            d.rows.push_back(rowOf(Change::Gone, fa->label, &a.modules[i], nullptr, fa->arguments));
        for (const std::size_t k : p.newB)
            d.rows.push_back(rowOf(Change::New, fb->label, nullptr, &b.modules[k], fb->arguments));
    }
    // The twins of another function: renamed, nothing else changed.
    for (const auto &[i, k] : twins) {
        ++d.pairedCompiles;
        const Module &ma = a.modules[i];
        const Module &mb = b.modules[k];
        const Family *fa = familyA[i];
        const Family *fb = familyB[k];
        Row r = rowOf(Change::Changed, fb ? fb->label : mb.function, &ma, &mb,
                      fb ? fb->arguments : mb.signature.size());
        r.renamedFrom = fa ? fa->label : ma.function;
        r.comparison.ok = true;
        r.comparison.identical = true;
        r.comparison.matchedBefore = r.comparison.matchedAfter = 1;
        r.whatChanged = "renamed, the same buffer assignment";
        d.rows.push_back(std::move(r));
    }
    {
        std::vector<Pair> pairs;
        pairs.reserve(toCompare.size());
        for (const ToCompare &c : toCompare)
            pairs.emplace_back(c.before, c.after);
        std::vector<Comparison> compared = compareAll(pairs);
        for (std::size_t k = 0; k < toCompare.size() && k < compared.size(); ++k)
            d.rows[toCompare[k].row].comparison = std::move(compared[k]);
    }
    // A pair of one signature whose comparison matched every value with nothing changed is
    // the same program, whatever its names and value ids (a renamed function recompiled):
    // not "another program".
    const auto settled = [](Row &r) {
        if (r.sameInputs && r.comparison.ok && r.comparison.identical)
            r.whatChanged = "the same program: every value matched, nothing changed";
    };
    for (const std::size_t row : comparedRows)
        settled(d.rows[row]);
    for (const ToCompare &c : toCompare)
        settled(d.rows[c.row]);
    std::stable_sort(d.rows.begin(), d.rows.end(), [](const Row &x, const Row &y) {
        return std::llabs(x.heldDelta()) > std::llabs(y.heldDelta());
    });
    return d;
}

} // namespace bufferscope
