#pragma once

#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bufferscope {

/// One value's side of a comparison: its index in its dump, size and live range.
struct DiffSide
{
    std::uint32_t value = kNone;
    std::int64_t bytes = 0;
    std::int64_t start = -1;
    std::int64_t end = -1;
};

struct ValueChange
{
    std::string key; ///< "name{idx}", the match key
    DiffSide before;
    DiffSide after;
};

struct KeyDelta
{
    std::string key;
    std::int64_t before = 0;
    std::int64_t after = 0;
    std::int64_t delta() const { return after - before; }
};

/// Two dumps of the same or a related module compared (before → after a change of code, flag
/// or XLA version). Values are matched by (instruction name, shape index).
struct DumpDiff
{
    std::int64_t totalBefore = 0, totalAfter = 0;
    std::int64_t peakBefore = 0, peakAfter = 0; ///< memory space 0's peak live bytes
    std::int64_t peakStepBefore = -1, peakStepAfter = -1;
    std::vector<ValueChange> added;   ///< only in B, largest first
    std::vector<ValueChange> removed; ///< only in A, largest first
    std::vector<ValueChange> changed; ///< in both with another size or live range
    /// Assigned bytes live at each dump's own peak, by op_name (breakdown_at_peak.by_op_name),
    /// keys of either side, largest |delta| first; unchanged keys are left out.
    std::vector<KeyDelta> byOpName;
    std::vector<KeyDelta> bySource;

    std::int64_t totalDelta() const { return totalAfter - totalBefore; }
    std::int64_t peakDelta() const { return peakAfter - peakBefore; }

    static DumpDiff compute(const Dump &a, const MemoryTimeline &ta, const Dump &b,
                            const MemoryTimeline &tb);
};

} // namespace bufferscope
