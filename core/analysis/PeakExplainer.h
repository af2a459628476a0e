#pragma once

#include "analysis/MemoryTimeline.h"
#include "analysis/SourceFrames.h"
#include "model/Dump.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bufferscope {

/// A plain-language finding about what fills memory, linked to the values it is about.
struct Finding
{
    enum class Kind : std::uint8_t
    {
        Padding,       ///< assigned bytes beyond the shapes' bytes (layout tiles)
        LargeValue,    ///< one value above 10 % of the live bytes
        F32,           ///< f32 values that bf16 would halve
        LongLivedTemp, ///< temporaries live across the step and most of the program
        Donation,      ///< a parameter and an output of the same shape, not aliased
        Fragmentation, ///< an allocation never filled: size vs its largest live bytes
        HeldWhole,     ///< the device holds ≥ 10 % more than the live peak (MemoryAnalysis)
    };
    Kind kind = Kind::Padding;
    std::string title;      ///< one sentence
    std::string detail;     ///< what to try
    std::int64_t bytes = 0; ///< the bytes concerned (or that a change could save)
    /// Related values, most important first. A fragmentation finding lists every value of its
    /// allocation: the 100 largest by size (ties by index), then the rest in allocation order.
    std::vector<std::uint32_t> values;
    std::uint32_t allocation = kNone;
};

std::string_view findingKindName(Finding::Kind kind); ///< "padding", "large_value", ...

/// Findings about the values of `memorySpace` live at `step`, largest bytes first. Thresholds:
/// padding ≥ 5 % of the live bytes, a value > 10 %, f32 ≥ 10 %, temporaries spanning half the
/// program and ≥ 1 % each, donation pairs of equal layout-free shape and size, fragmentation
/// ≥ 10 % of an allocation of at least 1 MiB, what the device holds while the module runs ≥ 10 %
/// above its device live-bytes peak (not for S(5)).
class PeakExplainer
{
public:
    static std::vector<Finding> explain(const Dump &dump, const MemoryTimeline &timeline,
                                        std::int64_t step, std::int32_t memorySpace = 0);
    /// The same, with the values live at `step` already known (a Breakdown's `live`). A value's
    /// "made at" is the innermost frame of its stack outside `libraryPatterns` (SourceFrames.h).
    static std::vector<Finding>
    explain(const Dump &dump, const MemoryTimeline &timeline, std::int64_t step,
            std::int32_t memorySpace, const std::vector<std::uint32_t> &live,
            const std::vector<std::string> &libraryPatterns = defaultLibraryPatterns());
};

} // namespace bufferscope
