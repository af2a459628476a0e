#pragma once

#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "model/MemorySpaces.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// Several modules that run one after another on one device (a training step's compiled
/// functions): what the device holds while each runs, against a limit (docs/FORMAT.md Part A,
/// "Several modules on one device").
///
/// While module m runs the device holds what stays resident between modules, which includes
/// m's own arguments (they are on the device before it starts), plus what m allocates when it
/// starts — output − alias + temp (MemoryAnalysis) — plus the constants of every module, which
/// stay while the executables are loaded. Memory spaces other than S(5) share the device and
/// add up; S(5) is host memory and is reported apart.
struct DeviceFit
{
    /// What stays on the device between modules.
    struct Resident
    {
        bool arguments = true;  ///< each module's own arguments
        std::int64_t fixed = 0; ///< and a number (typed, or a log's InUse)
        /// "args" (the default), "SIZE" or "args+SIZE"; nullopt when malformed. `parseSize`
        /// reads "10GiB", "512MiB", "1234".
        static std::optional<Resident> parse(std::string_view text,
                                             std::int64_t (*parseSize)(std::string_view));
        std::string describe() const; ///< "each module's arguments + 1.00GiB"
    };
    struct Module
    {
        std::string name;
        std::string file;
        MemoryAnalysis analysis;
        std::int64_t livePeak = -1; ///< device live bytes at their peak; -1 without live ranges
        std::int64_t livePeakStep = -1;
        /// Device live bytes over the program order, at most kCurvePoints (each the most of
        /// the steps it stands for, so no peak is lost); empty without live ranges.
        std::vector<std::int64_t> curve;
        std::int64_t steps = 0; ///< how many steps the curve stands for
        /// Its dump was cut short: what it needs may be more than it lists, so no verdict on
        /// it is definite.
        bool truncated = false;
        /// The platform it was compiled for (its file name, else its layouts): a TPU module is
        /// also weighed by the compiler's check (Row::tempHeadroom).
        Platform platform = Platform::Unknown;

        /// A module as `fit` and the window weigh it: its figures and its curve.
        static Module of(std::string name, std::string file, const Dump &dump,
                         const MemoryTimeline &timeline);
    };
    static constexpr std::size_t kCurvePoints = 1500;
    /// `values` cut to at most `points`, each the maximum of the run it stands for.
    static std::vector<std::int64_t> downsample(const std::vector<std::int64_t> &values,
                                                std::size_t points);
    struct Row
    {
        std::int64_t resident = 0;  ///< held before it starts, its arguments included
        std::int64_t allocated = 0; ///< output − alias + temp: what it allocates at its start
        std::int64_t device = 0;    ///< resident + allocated + constants loaded: while it runs
        std::int64_t headroom = 0;  ///< limit − device (negative: over)
        std::int64_t host = 0;      ///< S(5): argument + output − alias + temp, apart
        bool residentBelowArguments = false; ///< a typed resident smaller than its arguments
        /// TPU only: the compiler's own check, the temporaries alone against the HBM available
        /// (libtpu since 2026-05-22 aborts the compile when they exceed it: "the total memory
        /// required for HLO temporaries (X) exceeds available HBM (Y)"). limit − temp;
        /// meaningful when `compileCheck`.
        bool compileCheck = false;
        std::int64_t tempHeadroom = 0;
    };
    std::int64_t limit = 0;
    Resident resident;
    std::int64_t constantsLoaded = 0; ///< every module's constants
    std::vector<Row> rows;            ///< parallel to the modules
    int limiting = -1;                ///< the module that sets the device peak (first of equals)
    std::int64_t peak = 0;            ///< the most the device holds, while `limiting` runs
    bool fits() const { return limiting < 0 || peak <= limit; }
    /// The first TPU module whose temporaries alone exceed the limit: its compile aborts
    /// before anything runs; -1 for none.
    int compileAborts = -1;
    /// Whether every module's figures are whole (no dump was cut short): only then is a "fits"
    /// definite. A module over the limit does not fit however much more it might need.
    bool certain = true;

    static DeviceFit compute(const std::vector<Module> &modules, const Resident &resident,
                             std::int64_t limit);
    /// The module's device live bytes at every step: the sum of the live bytes of every memory
    /// space but S(5) (MemoryTimeline's per-space curves).
    static std::vector<std::int64_t> deviceLiveBytes(const MemoryTimeline &timeline);
    /// The device's live peak: the most device live bytes at one step (the maximum of
    /// deviceLiveBytes) and the earliest step that has them (-1 without steps).
    struct DevicePeak
    {
        std::int64_t bytes = 0;
        std::int64_t step = -1;
    };
    /// The device's live peak, without building the curve.
    static DevicePeak devicePeak(const MemoryTimeline &timeline);
    /// devicePeak(timeline).bytes.
    static std::int64_t deviceLivePeak(const MemoryTimeline &timeline)
    {
        return devicePeak(timeline).bytes;
    }
    /// A device the tool knows by name: its id on the command line ("a100-80gb"), its name
    /// for people ("A100 80GB") and its memory as its maker states it, in GiB.
    struct Device
    {
        std::string_view id;
        std::string_view name;
        std::int64_t gib = 0;
        bool gpu() const { return !id.starts_with("tpu-"); }
    };
    /// Every known device, smallest memory first: the one list every choice of a device uses.
    static std::span<const Device> devices();

    /// The share of a GPU that XLA's allocator may use when nothing says otherwise: the
    /// default of XLA_CLIENT_MEM_FRACTION (formerly XLA_PYTHON_CLIENT_MEM_FRACTION), which
    /// JAX and PyTorch/XLA keep (xla/pjrt/plugin/xla_gpu/xla_gpu_allocator_config.h).
    static constexpr double kGpuMemFraction = 0.75;
    /// What XLA's GPU allocator may use of `memory` bytes at `fraction`: memory × fraction,
    /// rounded up to 2 MiB as XLA rounds it (xla/pjrt/gpu/gpu_helpers.cc, CreateBFCAllocator;
    /// docs/FORMAT.md Part A, "The limit a verdict uses").
    static std::int64_t gpuAllocatorLimit(std::int64_t memory, double fraction);

    /// The limit a verdict compares with, and where it comes from: what the runtime acts on.
    struct Limit
    {
        std::int64_t bytes = 0;  ///< what every verdict compares with
        std::string_view device; ///< a named device's id ("a100-80gb"), empty otherwise
        std::int64_t memory = 0; ///< a named device's memory as its maker states it
        double fraction = 0;     ///< the GPU allocator's share applied (0: none)
        /// "device a100-80gb: XLA's GPU allocator gets 75 % of the 80.00GiB its maker states"
        std::string describe() const;
    };
    /// A named device ("a100-80gb"), at what the runtime gets of it: a GPU at `gpuFraction` of
    /// its memory (gpuAllocatorLimit), a TPU at its memory; nullopt when unknown.
    static std::optional<Limit> preset(std::string_view name, double gpuFraction = kGpuMemFraction);
    static std::string presetNames(); ///< "a100-40gb, a100-80gb, …"

    /// The distinct limits the known devices give (a GPU's allocator share, a TPU's memory),
    /// ascending, each with the devices that give it: what the Budget box and Device Fit
    /// offer.
    struct DeviceSize
    {
        std::int64_t bytes = 0; ///< the limit
        /// Its devices, a GPU's with the share and the memory it is of ("A100 80GB, H100 80GB
        /// (75 % of 80.00GiB)").
        std::string devices;
        /// How the runtime comes to that figure: on a GPU XLA's allocator gets a share of what
        /// the driver reports (a little less than the maker's figure); on a TPU the runtime
        /// keeps a part (the out-of-memory report's `reserved` line).
        std::string runtime;
        bool gpu = false; ///< a GPU among its devices: the limit is the allocator's share
        bool tpu = false; ///< a TPU among them: the limit is its memory
    };
    static std::vector<DeviceSize> deviceSizes(double gpuFraction = kGpuMemFraction);
    /// "75 %", "87.5 %": a fraction as people read it, never in the locale's digits.
    static std::string percent(double fraction);
};

} // namespace bufferscope
