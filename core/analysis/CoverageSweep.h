#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace bufferscope {

/// A value's bytes and live range, copied out of Dump::values so the sweep reads memory in order.
struct LiveBox
{
    std::int64_t offset = 0;
    std::int64_t size = 0;
    std::int64_t start = 0; ///< first live step
    std::int64_t end = 0;   ///< last live step (inclusive)
};

/// The live bytes of one allocation over time: at each step, the length of the union of the
/// byte ranges of its boxes live at that step (docs/FORMAT.md Part A).
///
/// Adds covered(t) - covered(t - 1) to `delta[t]` (delta has steps + 1 entries) and returns the
/// most bytes covered at a step before `steps` with the earliest such step (0 bytes at step -1
/// when nothing is ever covered). Every box must satisfy 0 <= start <= end < steps and size > 0.
///
/// Boxes whose byte ranges are disjoint are summed. Otherwise the byte axis goes through a
/// segment tree; an allocation with at least `splitFrom` boxes is cut into byte slabs at offset
/// quantiles, two per thread of the budget (util/Parallel.h), swept in parallel (the union is
/// additive over disjoint slabs): runGathered().
struct CoverageSweep
{
    struct Largest
    {
        std::int64_t bytes = 0;
        std::int64_t step = -1;
        /// The first step where boxes at different offsets cover some bytes twice (a partial
        /// overlap XLA never assigns), -1 when there is none; boxes at one offset are one
        /// buffer (an in-place chain, a loop's carry) and never count. A hint to confirm: a
        /// byte slab's clipping may hide an overlap, never invent one.
        std::int64_t overlapStep = -1;
    };
    static constexpr std::size_t kDefaultSplitFrom = 65536;

    /// Working memory, kept by the caller across allocations.
    struct Scratch
    {
        struct Event
        {
            std::int64_t time;
            std::uint32_t box;
            int delta;
        };
        std::vector<Event> events;
        std::vector<std::uint32_t> bucket;
        std::vector<std::int64_t> coords;
        std::vector<std::uint32_t> lo; ///< per box: index of its first byte in coords
        std::vector<std::uint32_t> hi; ///< per box: index of its end in coords
        std::vector<std::pair<std::int64_t, std::uint32_t>> ends;
        std::vector<int> count;
        std::vector<std::int64_t> length;
        std::vector<std::uint32_t> group;     ///< per box: the first box at its offset
        std::vector<std::int64_t> groupSize;  ///< per group: its smallest box
        std::vector<std::uint32_t> groupLive; ///< per group: its boxes live now
    };

    /// Reorders `boxes`.
    static Largest run(std::vector<LiveBox> &boxes, std::size_t steps,
                       std::vector<std::int64_t> &delta, Scratch &scratch,
                       std::size_t splitFrom = kDefaultSplitFrom, int threads = 0);

    /// Appends the boxes of items [from, to) to `out`, in any order; called on several threads
    /// at once, for disjoint ranges.
    using Gather = std::function<void(std::size_t from, std::size_t to, std::vector<LiveBox> &out)>;
    /// run() for a big set of `count` items (the values of a temp heap) read where they are:
    /// gathered in ranges on every thread, cut into byte slabs at quantiles of a sample of
    /// the offsets, and each slab sorted and swept on its own thread. Nothing runs on one
    /// thread alone but the sum of the slabs. `threads` as util/Parallel.h threadsFor takes them.
    static Largest runGathered(std::size_t count, const Gather &gather, std::size_t steps,
                               std::vector<std::int64_t> &delta, int threads = 0);
};

} // namespace bufferscope
