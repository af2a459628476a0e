#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace bufferscope::bench {

struct GeneratorOptions
{
    std::int64_t values = 10000;
    std::uint64_t seed = 1;
    /// 2026 style: metadata names `stack_frame_id=N` instead of an inline source; the frames are
    /// in the module's `<stem>.txt` (writeStackTables).
    bool stacks = false;
    /// Also write the module's memory-usage report here (`<stem>-memory-usage-report.txt`, as
    /// BufferAssignment::MemoryUsageReport prints it: percentile 5 %, at least 50 lines).
    std::FILE *memoryUsageReport = nullptr;
    /// Write that report in the 2026 layout (343fc3437b: by memory space, no allocation
    /// lines, docs/FORMAT.md §5.1) instead of the 2024 one.
    bool reportLayout2026 = false;
};

/// What the generator built into a dump, computed on its own (not with BufferScope's code):
/// the facts a correct reader must report.
struct GeneratedTruths
{
    std::int64_t totalBytes = 0;
    std::int64_t tempBytes = 0; ///< the preallocated-temp heap's size
    std::int64_t valueCount = 0;
    std::int64_t allocationCount = 0;
    std::int64_t instructionCount = 0; ///< max
    std::int64_t peakStep = -1;        ///< memory space 0, union of live byte ranges
    std::int64_t peakBytes = 0;
    std::int64_t logicalPeakStep = -1;
    std::int64_t logicalPeakBytes = 0;
    std::int64_t printedPeakStep = -1; ///< XLA's algorithm, as the dump prints it
    std::int64_t printedPeakEntries = 0;
    std::int64_t printedPeakBytes = 0;
    std::int64_t inPlaceLinks = 0; ///< chained values sharing bytes at one step
    std::int64_t fileBytes = 0;

    std::string toJson() const;
};

/// Writes a large, self-consistent XLA buffer-assignment dump (E2021-2026 layout, V3 peak):
/// parameters, constants, outputs behind a root tuple, tuple-shaped instructions (one in four
/// of 6 to 40 elements, printed with XLA's `/*index=N*/` comments), and a
/// preallocated-temp heap packed first-fit without overlaps except in-place chains that touch
/// at one step, long `from instruction:` lines with metadata and backend_config.
GeneratedTruths generateDump(const GeneratorOptions &options, std::FILE *out);

/// The optimized HLO text of a dump generated with `stacks`: an `HloModule` line, the four
/// stack-frame tables as XLA prints them (`HloModule::PrintStackFrameIndex`) and one small
/// computation. Every source line L of the dump is frame L - 96 (`layer_fn` at
/// /workspace/model/transformer.py:L), called from `forward` (transformer.py:30), `train_step`
/// (/workspace/train.py:57) and `main` (train.py:12), frames 3, 2 and 1.
void writeStackTables(const std::string &module, std::FILE *out);

} // namespace bufferscope::bench

namespace bufferscope::bench {

/// The same dump as a recompile that renumbered everything would print it: every numbered name
/// one number on (`fusion.27` → `fusion.28`, `Arg_0.1` → `Arg_0.2`; unnumbered names such as
/// `copy-start` stay), every value id `idShift` on (`<6 Arg_2.3 @0>` → `<1006 Arg_2.4 @0>`,
/// `(#6 @0)` likewise). Text in double quotes (op_name, source_file, backend_config strings)
/// is left as it is. Works on one line or a whole dump; independent of BufferScope's parser.
std::string renumberDump(std::string_view text, std::int64_t idShift = 1000);

} // namespace bufferscope::bench
