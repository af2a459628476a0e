#pragma once

// What DiffCauses decides a change is, value pair by value pair (docs/FORMAT.md Part A "Why
// memory changed"): the rules, and the sentences that say it. Internal to analysis/.

#include "analysis/DiffCauses.h"
#include "model/Dump.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bufferscope {

struct DumpDiff;

namespace causes {

using ParameterKey = std::pair<std::int64_t, std::string>; ///< number, ShapeIndex

/// Whether a value is in an output allocation (maybe-live-out, neither a parameter's nor temp).
bool isOutput(const Dump &d, const Value &v);
/// Whether a value is in a temp allocation.
bool isTemp(const Dump &d, const Value &v);

/// How specific a mechanism is: a change is put down to the most specific one that accounts
/// for it. Lower is more specific.
int rankOf(CauseKind kind);

/// The two sides of a cause family (lost and gained, new and gone), for netting.
bool sameFamily(CauseKind x, CauseKind y);

/// The rules that say which mechanism a value pair's change belongs to.
class Rules
{
public:
    Rules(const DumpDiff &diff, const Dump &a, const Dump &b);

    /// The mechanism of a value of A and its counterpart in B (either may be kNone), with the
    /// parameter of a donation (else -1). Other for a pair of one size and placement: what
    /// changed is then when it is live, which the caller knows (schedule, or in place).
    std::pair<CauseKind, std::int64_t> classify(std::uint32_t va, std::uint32_t vb) const;

    /// Whether the pair's placement changed between in place and a buffer of its own; the kind
    /// (InPlaceLost or InPlaceGained) in `kind`.
    bool inPlaceChange(std::uint32_t va, std::uint32_t vb, CauseKind &kind) const;

    /// Whether the value is defined by an instruction that reads a collective's value with no
    /// counterpart on the other side: what a removed all-gather fed (A's side, `after` false)
    /// or what a new one feeds (B's). Its change is a consequence of the collective's.
    bool fedByCollective(bool after, std::uint32_t v) const { return (after ? m_fedB : m_fedA)[v]; }

    const DumpDiff &diff;
    const Dump &a;
    const Dump &b;

    /// Entry parameters whose dimensions changed, and whose element type alone changed (the
    /// parameters' own values, A's and B's).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> shapeInputs;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> dtypeInputs;

private:
    /// classify without the collective's consequences (fedByCollective).
    std::pair<CauseKind, std::int64_t> classifyAlone(std::uint32_t va, std::uint32_t vb) const;
    bool scalesWithInputs(std::uint32_t va, std::uint32_t vb) const;
    bool inRegion(const Dump &d, const std::vector<std::uint32_t> &regionOf, std::uint32_t v) const;
    void findRegions();
    void findPlacement();
    void findFed();

    std::vector<std::int64_t> m_lostOfA;    ///< value of A -> the lost donation's parameter
    std::vector<std::int64_t> m_gainedOfB;  ///< value of B -> the gained donation's parameter
    std::vector<std::uint32_t> m_regionOfA; ///< instruction -> its restructured region
    std::vector<std::uint32_t> m_regionOfB;
    std::set<double> m_inputRatios;
    /// Per value: it shares its bytes with an operand or a reader (written in place), and the
    /// kind of allocation that holds it.
    std::vector<bool> m_sharesA, m_sharesB;
    /// Per unmatched value: the mechanism it follows (a copy that a lost in-place write or a
    /// lost donation makes), else Other.
    std::vector<CauseKind> m_followsA, m_followsB;
    std::vector<std::int64_t> m_followsParameterA, m_followsParameterB;
    std::vector<bool> m_fedA, m_fedB; ///< fedByCollective
};

/// Cause sentences (analysis/CauseText.cpp).
struct TextFacts
{
    const Rules &rules;
    const Dump &a;
    const Dump &b;
    const DumpDiff &diff;
};
std::string sentence(const Cause &c, const TextFacts &f);
std::string clause(const Cause &c, const TextFacts &f);
/// The clause an opposite term is netted with: "all-gather-start{1} (999.00MiB) joined the
/// peak at the schedule's doing".
std::string nettedClause(const Cause &c, const TextFacts &f, bool peak);
std::string headline(const DiffCauses &why, const DumpDiff &diff);
/// "a, b and 3 more" of up to three values.
std::string names(const Dump &d, const std::vector<std::uint32_t> &values);

} // namespace causes
} // namespace bufferscope
