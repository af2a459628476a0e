#pragma once

#include "analysis/DiffCauses.h"
#include "analysis/RunSummary.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bufferscope {

/// Two runs compared function by function (`bufferscope diff RUN_A RUN_B`): functions are paired
/// by jit name, and within a function its compiles by signature (the same parameters' shapes;
/// the rest in the order compiled). What appeared, what vanished, which function was compiled a
/// different number of times, and, for each pair of compiles whose held bytes or live peak
/// changed, the deltas and the module diff's main cause (analysis/DiffCauses). A function
/// renamed between the runs is matched where the module diff says its largest compile and the
/// other run's are the same program.
struct RunDiff
{
    /// What comparing two modules gives (DumpDiff, computed by the caller, who loads them).
    struct Comparison
    {
        bool ok = false; ///< both modules read and compared
        std::int64_t heldDelta = 0;
        std::int64_t peakDelta = 0;
        std::string cause; ///< the first cause's sentence; empty when none
        CauseKind causeKind = CauseKind::Other;
        bool hasCause = false;
        bool lostDonation = false;
        /// The share of values matched by structure, on the smaller side (0 to 1): 0.8 or
        /// more is the same program.
        double matched = 0;
    };
    using Compare = std::function<Comparison(const RunSummary::Module &before,
                                             const RunSummary::Module &after)>;

    struct Changed
    {
        std::string name;        ///< the function (the after run's name when renamed)
        std::string renamedFrom; ///< the before run's name, when it was renamed
        std::string signature;   ///< the compile's parameters' shapes, "(f32[8,128], s32[])"
        std::string before;      ///< module names
        std::string after;
        std::string beforeFile; ///< and their files
        std::string afterFile;
        std::int64_t heldBefore = 0, heldAfter = 0;
        std::int64_t peakBefore = -1, peakAfter = -1;
        Comparison comparison;
        std::int64_t heldDelta() const { return heldAfter - heldBefore; }
        std::int64_t peakDelta() const
        {
            return peakBefore >= 0 && peakAfter >= 0 ? peakAfter - peakBefore : 0;
        }
    };
    struct Recompiled
    {
        std::string name;
        std::size_t before = 0, after = 0; ///< compiles in each run
    };

    std::vector<std::string> appeared;  ///< functions only the after run has
    std::vector<std::string> vanished;  ///< only the before run
    std::vector<Recompiled> recompiled; ///< compiled another number of times
    std::vector<Changed> changed;       ///< the largest |held delta| first
    std::size_t pairedCompiles = 0;     ///< compiles paired across the runs
    std::size_t unchangedCompiles = 0;  ///< of which held and peak are the same

    static constexpr double kSameProgram = 0.8;

    static RunDiff of(const RunSummary &before, const RunSummary &after, const Compare &compare);
    static std::string signatureText(const std::vector<RunSummary::Parameter> &parameters);
};

} // namespace bufferscope
