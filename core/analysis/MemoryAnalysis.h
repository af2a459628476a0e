#pragma once

#include "model/Dump.h"

#include <cstdint>
#include <string>

namespace bufferscope {

/// What a module needs on the device while it runs, from the allocations a dump prints, under
/// the names of XLA's CompiledMemoryStats (what JAX's `compiled.memory_analysis()` returns;
/// `PopulateBufferStatsFromAllocations`, docs/FORMAT.md Part A "What the device holds"):
/// argument = Σ entry-parameter allocations, alias = Σ of those also maybe-live-out (donated),
/// output = Σ maybe-live-out allocations, temp = Σ preallocated-temp allocations, each at its
/// full `size`, device and host (memory space S(5)) apart. The runtime allocates the temp and
/// every live-out allocation that is not a donated parameter at full size when the module
/// starts, so the device holds argument + output − alias + temp (plus the constants, listed
/// apart) while it runs: more than the peak of live bytes, whose difference is packing loss.
struct MemoryAnalysis
{
    struct Side
    {
        std::int64_t argument = 0;
        std::int64_t output = 0;
        std::int64_t alias = 0;
        std::int64_t temp = 0;
        std::int64_t constant = 0; ///< in none of the four: held while the executable is loaded
        /// argument + output − alias + temp: what XLA calls the least needed to run it.
        std::int64_t held() const { return argument + output - alias + temp; }
        /// Counts one allocation into the figures its flags say.
        void add(const Allocation &a);
    };
    Side device; ///< every memory space but S(5)
    Side host;   ///< S(5)

    static constexpr std::int32_t kHostMemorySpace = 5; ///< Layout::kHostMemorySpace

    static MemoryAnalysis of(const Dump &dump);
    /// What one allocation adds to the device's held() (0 for S(5) host memory).
    static std::int64_t heldBy(const Allocation &a);
    /// Why a side holds held(), in a sentence with its figures: the temp and the outputs that
    /// are not donated allocated whole when the module starts, beside its arguments.
    static std::string whyHeld(const Side &side);
};

} // namespace bufferscope
