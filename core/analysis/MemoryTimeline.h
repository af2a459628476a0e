#pragma once

#include "model/Dump.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace bufferscope {

struct StepBytes
{
    std::int64_t step = -1;
    std::int64_t bytes = 0;
};

/// Memory over the program order for one memory space (docs/FORMAT.md Part A).
struct SpaceTimeline
{
    std::int32_t memorySpace = 0;
    /// Live bytes at every step 0..max: per allocation the union of the live values' byte
    /// ranges, summed over the allocations of this space.
    std::vector<std::int64_t> liveBytes;
    /// Plain sum of the logical (shape) bytes of the values of this space live at each step.
    std::vector<std::int64_t> logicalBytes;
    StepBytes peak;        ///< earliest step with the most live bytes
    StepBytes logicalPeak; ///< the same on logical live bytes
};

struct AllocationUsage
{
    std::int64_t largestLiveBytes = 0; ///< the most bytes of it live at any one step
    std::int64_t largestLiveStep = -1;
    std::int64_t fragmentation = 0; ///< size - largestLiveBytes (never negative)
};

/// XLA's own peak moment, recomputed with HloLiveRange::ComputePeakMemoryMoment's rule.
struct XlaPeak
{
    std::int64_t step = -1; ///< -1: no live ranges
    bool exact = true;      ///< false when some instruction shape was unknown
    std::int64_t usage = 0; ///< XLA's internal usage at that step (never printed by XLA)
};

/// Per-step memory analyses of a Dump. Immutable once computed; O(V log V) in the values.
class MemoryTimeline
{
public:
    /// Returns nullopt only when cancelled. `threads` as util/Parallel.h threadsFor takes them.
    static std::optional<MemoryTimeline>
    compute(const Dump &dump, const std::atomic<bool> *cancel = nullptr, int threads = 0);

    const std::vector<SpaceTimeline> &spaces() const { return m_spaces; }
    /// The timeline of memory space `color`, or nullptr.
    const SpaceTimeline *space(std::int32_t color) const;
    /// Memory space 0's timeline (the headline), or the first there is.
    const SpaceTimeline *primary() const;
    const std::vector<AllocationUsage> &allocations() const { return m_allocations; }
    const XlaPeak &xlaPeak() const { return m_xlaPeak; }
    /// Warnings the analysis found (e.g. XLA's printed peak step not reproduced).
    const std::vector<Diagnostic> &warnings() const { return m_warnings; }

    /// Values of memory space `color` live at `step`, largest assigned size first (then id).
    static std::vector<std::uint32_t> valuesLiveAt(const Dump &dump, std::int64_t step,
                                                   std::int32_t color);
    /// The live bytes at every step of the values `values` (indices, any order, repeats
    /// allowed) that are of memory space `color`, by the curve's own rule: per allocation the
    /// union of their live byte ranges (bytes shared in place counted once), summed. A picked
    /// group's share of the curve. Returns nullopt only when cancelled.
    static std::optional<std::vector<std::int64_t>>
    liveBytesOf(const Dump &dump, std::vector<std::uint32_t> values, std::int32_t color,
                const std::atomic<bool> *cancel = nullptr, int threads = 0);
    /// XLA's ByteSizeOf(defining instruction's shape, 8) for a value; nullopt when unknown.
    static std::optional<std::int64_t> instructionBytes(const Dump &dump, const Value &value);
    /// What XLA's printed-peak rule does not see at `step` of memory space `color`: the values
    /// live there that it counts at their defining instruction's size (a tuple element at its
    /// tuple's index table), below the bytes they are assigned, and how many bytes short.
    struct Unseen
    {
        std::int64_t bytes = 0;
        std::vector<std::uint32_t> values; ///< largest assigned size first
    };
    static Unseen unseenByPrintedRule(const Dump &dump, std::int64_t step, std::int32_t color);

private:
    std::vector<SpaceTimeline> m_spaces;
    std::vector<AllocationUsage> m_allocations;
    XlaPeak m_xlaPeak;
    std::vector<Diagnostic> m_warnings;
};

} // namespace bufferscope
