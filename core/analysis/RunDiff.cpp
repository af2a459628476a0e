#include "analysis/RunDiff.h"

#include <algorithm>
#include <map>

namespace bufferscope {

namespace {

using Module = RunSummary::Module;

const RunSummary::Family *familyNamed(const RunSummary &s, const std::string &name)
{
    for (const RunSummary::Family &f : s.families)
        if (f.name == name)
            return &f;
    return nullptr;
}

/// A family's compiles paired with another's: the same signature first, in the order
/// compiled; the rest by the order compiled.
std::vector<std::pair<std::size_t, std::size_t>> pairCompiles(const RunSummary &a,
                                                              const RunSummary::Family &fa,
                                                              const RunSummary &b,
                                                              const RunSummary::Family &fb)
{
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<bool> usedB(fb.modules.size(), false);
    std::vector<std::size_t> restA;
    for (const std::size_t i : fa.modules) {
        if (!a.modules[i].read)
            continue;
        bool paired = false;
        for (std::size_t k = 0; k < fb.modules.size() && !paired; ++k) {
            const Module &m = b.modules[fb.modules[k]];
            if (!usedB[k] && m.read && m.signature == a.modules[i].signature) {
                usedB[k] = true;
                pairs.push_back({i, fb.modules[k]});
                paired = true;
            }
        }
        if (!paired)
            restA.push_back(i);
    }
    std::size_t k = 0;
    for (const std::size_t i : restA) {
        while (k < fb.modules.size() && (usedB[k] || !b.modules[fb.modules[k]].read))
            ++k;
        if (k == fb.modules.size())
            break;
        usedB[k] = true;
        pairs.push_back({i, fb.modules[k]});
    }
    return pairs;
}

RunDiff::Changed changedOf(const std::string &name, const Module &before, const Module &after)
{
    RunDiff::Changed c;
    c.name = name;
    c.signature = RunDiff::signatureText(after.signature);
    c.before = before.name;
    c.after = after.name;
    c.beforeFile = before.file;
    c.afterFile = after.file;
    c.heldBefore = before.held;
    c.heldAfter = after.held;
    c.peakBefore = before.livePeak;
    c.peakAfter = after.livePeak;
    return c;
}

} // namespace

std::string RunDiff::signatureText(const std::vector<RunSummary::Parameter> &parameters)
{
    std::string out = "(";
    for (std::size_t i = 0; i < parameters.size(); ++i)
        out += (i ? ", " : "") + parameters[i].shape;
    return out + ")";
}

RunDiff RunDiff::of(const RunSummary &a, const RunSummary &b, const Compare &compare)
{
    RunDiff d;
    for (const RunSummary::Family &fa : a.families)
        if (!familyNamed(b, fa.name))
            d.vanished.push_back(fa.name);
    for (const RunSummary::Family &fb : b.families)
        if (!familyNamed(a, fb.name))
            d.appeared.push_back(fb.name);
    // A function renamed between the runs: its largest compile and one that appeared are the
    // same program (most values matched by structure across the rename).
    std::vector<std::pair<std::string, std::string>> renamed;
    for (auto v = d.vanished.begin(); v != d.vanished.end();) {
        const RunSummary::Family &fa = *familyNamed(a, *v);
        const Module &ma = a.modules[fa.largest];
        bool found = false;
        for (auto p = d.appeared.begin(); p != d.appeared.end() && ma.read; ++p) {
            const RunSummary::Family &fb = *familyNamed(b, *p);
            const Module &mb = b.modules[fb.largest];
            if (!mb.read)
                continue;
            const Comparison c = compare(ma, mb);
            if (c.ok && c.matched >= kSameProgram) {
                renamed.push_back({*v, *p});
                d.appeared.erase(p);
                found = true;
                break;
            }
        }
        v = found ? d.vanished.erase(v) : v + 1;
    }
    std::vector<std::pair<std::string, std::string>> pairsOfNames;
    for (const RunSummary::Family &fa : a.families)
        if (familyNamed(b, fa.name))
            pairsOfNames.push_back({fa.name, fa.name});
    pairsOfNames.insert(pairsOfNames.end(), renamed.begin(), renamed.end());
    for (const auto &[nameA, nameB] : pairsOfNames) {
        const RunSummary::Family &fa = *familyNamed(a, nameA);
        const RunSummary::Family &fb = *familyNamed(b, nameB);
        if (fa.modules.size() != fb.modules.size())
            d.recompiled.push_back({nameB, fa.modules.size(), fb.modules.size()});
        for (const auto &[i, k] : pairCompiles(a, fa, b, fb)) {
            ++d.pairedCompiles;
            const Module &ma = a.modules[i];
            const Module &mb = b.modules[k];
            const bool sameFigures = ma.held == mb.held && ma.livePeak == mb.livePeak;
            if (sameFigures && nameA == nameB) {
                ++d.unchangedCompiles;
                continue;
            }
            Changed c = changedOf(nameB, ma, mb);
            if (nameA != nameB)
                c.renamedFrom = nameA;
            c.comparison = compare(ma, mb);
            d.changed.push_back(std::move(c));
        }
    }
    std::stable_sort(d.changed.begin(), d.changed.end(), [](const Changed &x, const Changed &y) {
        return std::llabs(x.heldDelta()) > std::llabs(y.heldDelta());
    });
    return d;
}

} // namespace bufferscope
