#pragma once

#include "model/Dump.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

struct DumpDiff;
class MemoryTimeline;

/// Why memory changed between two compiles, in a fixed vocabulary (the JSON `kind`; docs/FORMAT.md
/// Part A "Why memory changed").
enum class CauseKind : std::uint8_t
{
    DonationLost,   ///< an entry parameter aliased with an output before, not after
    DonationGained, ///< the other way round
    InputShape,     ///< entry parameter shapes differ, and the values that scale with them
    Dtype,          ///< the same values with another element type
    Resized,        ///< matched values of another shape, not explained by the inputs
    NewBuffer,      ///< an intermediate only after (a copy, a buffer of a new computation)
    BufferGone,     ///< an intermediate only before
    Restructured,   ///< values of one side replaced by others at the same place in the data flow
    InPlaceLost,    ///< a value that shared a buffer in place before has bytes of its own after
    InPlaceGained,  ///< the other way round
    Collective,     ///< the buffers of all-gather, all-reduce, reduce-scatter, all-to-all, …
    Packing,        ///< a temp allocation grows or shrinks more than its most live bytes
    Schedule,       ///< the same values, live at one peak and not the other
    Other           ///< what no rule above explains
};
inline constexpr int kCauseKindCount = 14;

/// "donation_lost", "input_shape", … (the JSON and `--fail-on` names).
std::string_view causeKindKey(CauseKind kind);
/// The kind a name stands for; false when there is none.
bool causeKindByKey(std::string_view key, CauseKind &kind);

/// One cause of the change, with the values behind it and its share of both changes.
struct Cause
{
    CauseKind kind = CauseKind::Other;
    /// Its share of the change of the live peak (after − before), and of what the device holds
    /// while the module runs (argument + output − alias + temp). The causes add up to both.
    std::int64_t peakDelta = 0;
    std::int64_t heldDelta = 0;
    /// The values behind it on each side (indices into each dump), largest first; a value
    /// the cause concerns on one side only is listed on that side.
    std::vector<std::uint32_t> valuesBefore;
    std::vector<std::uint32_t> valuesAfter;
    std::int64_t parameter = -1; ///< donation_*: the entry parameter's number
    std::string
        text; ///< a sentence a user can act on (names as the dump has them: made safe at each exit)
};

/// The causes of a DumpDiff, computed by DumpDiff::compute.
struct DiffCauses
{
    std::vector<Cause> causes;   ///< largest |peak delta| + |held delta| first; zero ones left out
    std::int64_t heldBefore = 0; ///< argument + output − alias + temp, device memory spaces
    std::int64_t heldAfter = 0;
    /// The after peak is not at the before peak's place in the program (the aligned step).
    bool peakMoved = false;
    /// XLA's printed peaks (`Live ranges at T (peak)`) when both dumps have one, and why they
    /// may not agree with the real ones.
    bool printedPeaks = false;
    std::int64_t printedBefore = 0;
    std::int64_t printedAfter = 0;
    /// Bytes live at each side's live peak that XLA's peak rule does not see (tuple and
    /// async-collective elements counted at their tuple table's size).
    std::int64_t printedUndercountBefore = 0;
    std::int64_t printedUndercountAfter = 0;
    /// Set when the printed change and the real one differ in sign, or by more than a tenth.
    std::string printedDisagree;

    static DiffCauses compute(const DumpDiff &diff, const Dump &a, const MemoryTimeline &ta,
                              const Dump &b, const MemoryTimeline &tb);
};

} // namespace bufferscope
