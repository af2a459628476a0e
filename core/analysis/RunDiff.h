#pragma once

#include "analysis/DiffCauses.h"
#include "analysis/RunSummary.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bufferscope {

/// Two runs compared function by function (`bufferscope diff RUN_A RUN_B`, docs/FORMAT.md Part A
/// "Two runs"). Functions are the run summaries' families: a name and a number of arguments,
/// so two functions that share a name are never each other's. Within a function its compiles
/// are paired by what they are: the same buffer assignment first (unchanged), then the same
/// signature, then the same element types and ranks with other dimensions (the inputs changed
/// shape), and a compile left over only when it is the one left on each side; a compile with no
/// counterpart is new or gone, under its function. A function renamed between the runs is
/// matched only where its largest compile and the other run's are the same program on both
/// sides (most values of each matched by structure), with the same number of arguments, and a
/// small module (a reduction, a convert) only when it is identical.
struct RunDiff
{
    /// What comparing two modules gives (DumpDiff, computed by the caller, who loads them).
    struct Comparison
    {
        bool ok = false; ///< both modules read and compared
        std::int64_t heldDelta = 0;
        std::int64_t peakDelta = 0;
        std::string cause;     ///< the headline (DiffCauses::headline); empty when none
        std::string causeText; ///< the first cause's sentence; empty when none
        CauseKind causeKind = CauseKind::Other;
        bool hasCause = false;
        bool lostDonation = false;
        /// The share of each side's values matched by structure (0 to 1).
        double matchedBefore = 0;
        double matchedAfter = 0;
        /// Every value matched and nothing changed: the same program.
        bool identical = false;
        /// Why the two were not compared (a module that did not load); empty when they were,
        /// or when the comparison was cancelled.
        std::string error;
        /// What a Changed row says when the comparison failed, and what the gates say:
        /// "could not compare: WHY".
        std::string notCompared() const
        {
            return "could not compare: " + (error.empty() ? std::string("cancelled") : error);
        }
    };
    using Compare = std::function<Comparison(const RunSummary::Module &before,
                                             const RunSummary::Module &after)>;

    enum class Change : std::uint8_t
    {
        Changed, ///< paired, and what it holds or its live peak differs
        New,     ///< a compile only the after run has
        Gone     ///< only the before run
    };
    struct Row
    {
        Change change = Change::Changed;
        std::string name;        ///< the function's label (the after run's when renamed)
        std::string renamedFrom; ///< the before run's label, when it was renamed
        std::size_t arguments = 0;
        std::string signature; ///< the compile's parameters' shapes, "(f32[8,128], s32[])"
        /// What differs between the two compiles: "Arg_0: f32[8,128] → f32[16,128]", "same
        /// inputs, another program"; for a new or gone compile, that it has no counterpart.
        std::string whatChanged;
        /// Paired, and the two compiles' signatures are the same: what changed is the
        /// program, or (when its comparison matched every value) nothing.
        bool sameInputs = false;
        std::string before; ///< module names (empty on the side that has none)
        std::string after;
        std::string beforeFile; ///< and their files
        std::string afterFile;
        std::int64_t heldBefore = 0, heldAfter = 0;
        std::int64_t peakBefore = -1, peakAfter = -1;
        Comparison comparison; ///< Changed rows only
        std::int64_t heldDelta() const { return heldAfter - heldBefore; }
        /// After − before; 0 for a pair where a side has no live ranges.
        std::int64_t peakDelta() const;
    };
    struct Recompiled
    {
        std::string name;
        std::size_t before = 0, after = 0; ///< compiles in each run
    };

    std::vector<std::string> appeared;  ///< functions only the after run has
    std::vector<std::string> vanished;  ///< only the before run
    std::vector<Recompiled> recompiled; ///< compiled another number of times
    /// Every compile that changed, is new or is gone: the largest |held delta| first.
    std::vector<Row> rows;
    std::size_t pairedCompiles = 0; ///< compiles paired across the runs
    /// Comparisons made to find renamed functions: at most kRenameTries per vanished function.
    std::size_t renameComparisons = 0;
    std::size_t unchangedCompiles = 0; ///< of which held and peak are the same
    /// Names shared by functions of another number of arguments, in either run.
    std::vector<std::string> sharedNames;
    /// A module that could not be read, in either run: it is compared with nothing, so no
    /// gate can be judged on its run.
    struct Unreadable
    {
        bool after = false; ///< of the after run (else the before run)
        std::string name;   ///< the module's name
        std::string file;
        std::string error;
        /// The error, led by the file unless it names it already.
        std::string said() const { return error.starts_with(file) ? error : file + ": " + error; }
    };
    std::vector<Unreadable> unreadable; ///< the before run's first, each in file order

    std::size_t count(Change change) const;

    /// A rename: this share of the smaller module's values matched, and kSameProgramLarger of
    /// the larger's.
    static constexpr double kSameProgram = 0.8;
    static constexpr double kSameProgramLarger = 0.6;
    /// Below this many values on either side, a module is a rename only when identical.
    static constexpr std::size_t kSmallModule = 24;
    /// A vanished function is compared with at most this many of the functions that appeared
    /// (the most alike first, RunSummary::likeness): the rename search is linear in the run.
    static constexpr std::size_t kRenameTries = 3;

    /// `compare` is called for the rename candidates (at most kRenameTries per vanished
    /// function), one after another, and then for every
    /// changed pair side by side on `threads` (util/Parallel.h threadsFor): it must be safe to
    /// call from several threads.
    static RunDiff of(const RunSummary &before, const RunSummary &after, const Compare &compare,
                      int threads = 0);
    /// Two modules to compare, the before run's and the after run's.
    using Pair = std::pair<const RunSummary::Module *, const RunSummary::Module *>;
    /// Every changed pair compared at once, a comparison per pair in their order: a caller
    /// that loads the pairs together reads a capture once for all its members.
    using CompareAll = std::function<std::vector<Comparison>(const std::vector<Pair> &)>;
    /// The same, with the changed pairs handed to `compareAll` together (the rename
    /// candidates still one by one to `compare`).
    static RunDiff of(const RunSummary &before, const RunSummary &after, const Compare &compare,
                      const CompareAll &compareAll);
    static std::string signatureText(const std::vector<RunSummary::Parameter> &parameters);
    /// "Arg_0: f32[8,128] → f32[16,128]; Arg_2: s32[] → s32[4]" (at most three), or "same
    /// inputs" when the signatures are the same.
    static std::string signatureChange(const std::vector<RunSummary::Parameter> &before,
                                       const std::vector<RunSummary::Parameter> &after);
};

} // namespace bufferscope
