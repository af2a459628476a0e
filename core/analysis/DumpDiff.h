#pragma once

#include "analysis/Categories.h"
#include "analysis/DiffCauses.h"
#include "analysis/DumpMatch.h"
#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace bufferscope {

/// One value's side of a comparison: its index in its dump, name, size, live range and
/// allocation. `value` is kNone on the side that does not have it.
struct DiffSide
{
    std::uint32_t value = kNone;
    std::string name; ///< "name{index}" as BufferLiveRange prints it
    std::int64_t bytes = 0;
    std::int64_t start = -1;
    std::int64_t end = -1;
    std::int64_t allocation = -1; ///< the allocation's printed index

    /// Value `value` of `dump` as one side of a comparison (an empty side for kNone).
    static DiffSide of(const Dump &dump, std::uint32_t value);
};

/// A value of A and what became of it in B (or a value only one of them has).
struct ValueChange
{
    enum Flag : std::uint8_t
    {
        Resized = 1,   ///< another assigned size
        LiveRange = 2, ///< starts or ends at another point of the program
        Moved = 4      ///< held by an allocation that is not its old one's counterpart
    };
    DiffSide before;
    DiffSide after;
    std::uint8_t flags = 0;

    std::int64_t delta() const { return after.bytes - before.bytes; }
    /// A's name, or B's for a value only B has.
    const std::string &name() const { return before.value != kNone ? before.name : after.name; }
    bool renamed() const
    {
        return before.value != kNone && after.value != kNone && before.name != after.name;
    }
};

struct KeyDelta
{
    std::string key;
    std::int64_t before = 0;
    std::int64_t after = 0;
    std::int64_t delta() const { return after - before; }
};

/// Two hierarchies of bytes at the peaks (op_name segments, call-stack frames) merged by label.
struct DeltaNode
{
    std::string label;
    std::int64_t before = 0;
    std::int64_t after = 0;
    std::vector<DeltaNode> children; ///< largest |delta| first; unchanged subtrees left out
    std::int64_t delta() const { return after - before; }
};

/// A value that is at one peak and not the other, or is at both with another size.
struct PeakChange
{
    enum class Kind : std::uint8_t
    {
        Added,   ///< only in B, live at B's peak
        Removed, ///< only in A, was live at A's peak
        Joined,  ///< in both, live at B's peak only
        Left,    ///< in both, live at A's peak only
        Grown,   ///< live at both peaks, larger in B
        Shrunk   ///< live at both peaks, smaller in B
    };
    Kind kind = Kind::Added;
    DiffSide before;
    DiffSide after;
    /// What it adds to B's peak minus A's (after bytes if at B's peak, minus before bytes if at
    /// A's).
    std::int64_t contribution = 0;
};

/// An entry parameter allocation's number and ShapeIndex (`{}` when none is printed): what
/// joins a parameter across two compiles.
std::pair<std::int64_t, std::string> parameterKey(const Dump &dump, const Allocation &a);

/// An entry parameter aliased with an output (its allocation also `maybe-live-out`: a donated
/// buffer XLA writes the output into) in one dump and not in the other.
struct DonationChange
{
    std::int64_t parameter = -1;
    std::string index; ///< the parameter's ShapeIndex, `{}` for a whole array
    std::int64_t bytes = 0;
    bool lost = true; ///< aliased in A, not in B (false: newly aliased in B)
};

/// Two dumps of the same or a related module compared (before → after a change of code, flag
/// or XLA version). Values are matched by structure (DumpMatch), so renumbered names and ids
/// and a reordered schedule do not count as changes.
struct DumpDiff
{
    std::int64_t totalBefore = 0, totalAfter = 0;
    std::int64_t peakBefore = 0, peakAfter = 0; ///< memory space 0's peak live bytes
    std::int64_t peakStepBefore = -1, peakStepAfter = -1;
    /// A's peak step on B's program (the aligned row's B step): where the peak would be had it
    /// not moved.
    std::int64_t peakStepBeforeInB = -1;
    /// Whether the peak moved to another part of the program: both sides have a peak and the
    /// after peak is not at the before peak's place. The one test for every renderer.
    bool peakMoved() const
    {
        return peakStepBefore >= 0 && peakStepAfter >= 0 && peakStepBeforeInB != peakStepAfter;
    }
    /// The first aligned row where the live bytes differ (-1: the curves never part).
    std::int64_t partStepBefore = -1, partStepAfter = -1;
    std::int64_t partBytesBefore = 0, partBytesAfter = 0;

    std::vector<ValueChange> added;   ///< only in B, largest first
    std::vector<ValueChange> removed; ///< only in A, largest first
    std::vector<ValueChange> changed; ///< in both, resized, live range changed or moved
    std::int64_t matched = 0;         ///< values in both (changed or not)
    std::int64_t fewerValues = 0;     ///< the values of the side that has fewer
    std::int64_t renamed = 0;         ///< of which their names differ

    std::vector<PeakChange> atPeak; ///< largest |contribution| first
    /// Assigned bytes live at each dump's own peak, by op_name (breakdown_at_peak.by_op_name),
    /// keys of either side, largest |delta| first; unchanged keys are left out.
    std::vector<KeyDelta> byOpName;
    std::vector<KeyDelta> bySource;
    std::vector<KeyDelta> byKind;
    DeltaNode opNameTree; ///< by op_name segment, at each peak
    /// When every op_name of each side sits under one root and the two roots differ (two
    /// functions of one program, `jit(reshard_xfirst)` against `jit(reshard_yfirst)`), the
    /// trees are compared below them: the two roots, else empty.
    std::string opNameRootBefore, opNameRootAfter;
    DeltaNode stackTree; ///< by call stack, outermost caller first (empty without stacks)
    bool hasStacks = false;
    std::vector<DonationChange> donations; ///< lost ones first
    /// The values of the parameters whose donation was lost, as A has them and what they became.
    std::vector<ValueChange> lostDonationValues;

    DumpMatch match;
    /// Why: the causes of the change of the peak and of what the device holds, each with its
    /// share of both (they add up to both changes).
    DiffCauses why;

    /// What kind of memory each side holds (analysis/Categories), in Category order: held
    /// while it runs, and live at its own peak (-1 without live ranges).
    struct CategorySide
    {
        bool training = false;
        std::array<std::int64_t, kCategoryCount> held{};
        std::array<std::int64_t, kCategoryCount> peak{};
    };
    CategorySide categoriesBefore, categoriesAfter;

    std::int64_t totalDelta() const { return totalAfter - totalBefore; }
    std::int64_t peakDelta() const { return peakAfter - peakBefore; }
    std::int64_t lostDonations() const;
    /// Two unrelated programs match only by accident: at least 20 values on each side and
    /// fewer than a tenth of the smaller side matched. The one test for every renderer.
    bool differentPrograms() const { return fewerValues >= 20 && matched * 10 < fewerValues; }
    /// The warning every renderer shows when differentPrograms(), as one sentence.
    std::string differentProgramsText() const;

    static DumpDiff compute(const Dump &a, const MemoryTimeline &ta, const Dump &b,
                            const MemoryTimeline &tb, const std::atomic<bool> *cancel = nullptr,
                            int threads = 0);
};

} // namespace bufferscope
