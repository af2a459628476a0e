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
/// Part A "Why memory changed"). A change is put down to the first mechanism of this order that
/// accounts for it: donation, in place, dtype, input shape, collective, resized, restructured,
/// new or gone, schedule, packing, other.
enum class CauseKind : std::uint8_t
{
    DonationLost,   ///< an entry parameter aliased with an output before, not after
    DonationGained, ///< the other way round
    InputShape,     ///< entry parameter dimensions differ, and the values that scale with them
    Dtype,          ///< the same dimensions with another element type (inputs, and what follows)
    Resized,        ///< matched values of another size, not explained by the inputs
    NewBuffer,      ///< an intermediate only after (a copy, a buffer of a new computation)
    BufferGone,     ///< an intermediate only before
    Restructured,   ///< instructions of one side replaced by others where neither side matches
    InPlaceLost,    ///< a value that shared its operand's or the output's buffer has its own
    InPlaceGained,  ///< the other way round
    Collective,     ///< the buffers of all-gather, all-reduce, …: new, gone or resized
    Packing,        ///< a temp allocation grows or shrinks more than its most live bytes
    Schedule,       ///< the same values at the same sizes, whose lifetimes overlap differently
    Other           ///< what no rule above explains
};
inline constexpr int kCauseKindCount = 14;

/// "donation_lost", "input_shape", … (the JSON and `--fail-on` names).
std::string_view causeKindKey(CauseKind kind);
/// The kind a name stands for; false when there is none.
bool causeKindByKey(std::string_view key, CauseKind &kind);

/// One cause of the change, with the values behind it and its share of both changes. There is
/// at most one cause of each kind, and every cause's share of a figure has that figure's sign:
/// a term of the other sign (a value that left the peak while another of its size joined it)
/// is netted into a cause of the figure's sign, and said in `netted`, so no two causes cancel.
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
    std::int64_t parameter = -1;          ///< donation_*: the first entry parameter's number
    std::vector<std::int64_t> parameters; ///< donation_*: every parameter's number
    /// Opposite terms folded into this cause: what they were, and what they took off it.
    struct Netted
    {
        CauseKind kind = CauseKind::Other;
        std::int64_t peakDelta = 0;
        std::int64_t heldDelta = 0;
        std::string text; ///< a clause: "all-gather-start{1} (999.00MiB) joined the peak"
    };
    std::vector<Netted> netted;
    /// A sentence a user can act on (names as the dump has them: made safe at each exit).
    std::string text;
    /// The same in a clause, for the headline: "all-to-all.1.1{} is 2× smaller".
    std::string clause;
};

/// The causes of a DumpDiff, computed by DumpDiff::compute.
struct DiffCauses
{
    std::vector<Cause> causes;   ///< largest |peak delta| + |held delta| first; zero ones left out
    std::int64_t heldBefore = 0; ///< argument + output − alias + temp, device memory spaces
    std::int64_t heldAfter = 0;
    /// The first line to read: one sentence on what changed most and why.
    std::string headline;
    /// The live peak moved by less than kBarelyMoved of the larger peak (or not at all).
    bool peakBarelyMoved = false;
    static constexpr double kBarelyMoved = 0.005;
    /// The after peak is not at the before peak's place in the program (the aligned step), and
    /// the sentence that says where it went.
    bool peakMoved = false;
    std::string peakMovedText;
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
