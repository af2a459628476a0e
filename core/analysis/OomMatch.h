#pragma once

#include "analysis/MemoryAnalysis.h"
#include "model/Dump.h"
#include "parse/OomMessage.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// How an out-of-memory message points at a module, and at the values and allocation in it.
/// Only exact evidence selects anything: an instruction name, a byte count printed in full,
/// the one value of an opcode, shape and op_name; whatever is not exact is unmatched, with why.
struct OomMatch
{
    /// What ties one module to the message.
    struct ModuleEvidence
    {
        int score = 0;                    ///< 0: nothing ties it
        std::vector<std::string> reasons; ///< "its temp allocation is exactly 2110783616 B"
        std::string contradiction;        ///< non-empty: the message cannot be about it
    };
    static ModuleEvidence moduleEvidence(const OomMessage &message, const Dump &dump,
                                         std::string_view moduleName);
    /// "module_0012.jit_train_step" → "jit_train_step" (what `executable_name` says). A message
    /// that names a `module_NNNN` (OomMessage::modules) is about that module only.
    static std::string_view executableOf(std::string_view moduleName);
    /// Whether the module is the executable: "module_0003.jit_step.sm_8.0_gpu…" is jit_step.
    static bool isExecutable(std::string_view moduleName, std::string_view executable);
    /// Whether `moduleName` may be the message's module by name alone (for narrowing a folder
    /// scan before loading): true when the message names no executable.
    static bool nameMayMatch(const OomMessage &message, std::string_view moduleName);
    /// Which of the modules (by evidence) the message is about: the index of the one with the
    /// highest score when it alone has it and nothing contradicts it; -1 otherwise.
    static int choose(const std::vector<ModuleEvidence> &evidence);

    struct BufferMatch
    {
        std::vector<std::uint32_t> values; ///< empty: unmatched
        std::string how;                   ///< "by its label", or why it is unmatched
    };
    struct Join
    {
        std::uint32_t failingAllocation = kNone;
        std::string failingHow;           ///< how it was found, or why not
        std::vector<BufferMatch> buffers; ///< parallel to message.buffers
        std::int64_t matched = 0;
    };
    static Join join(const OomMessage &message, const Dump &dump);

    /// One rule the platform applies to decide whether the module fits, with the figure it
    /// compares (the module's own, and the message's for the same thing beside it) and the
    /// limit the message prints (docs/FORMAT.md Part A, "Which figure meets the limit").
    struct Check
    {
        std::string name;         ///< "compile_time" (TPU) or "run_time"
        std::string figure;       ///< "temp_size_in_bytes" or "held_bytes"
        std::string rule;         ///< the rule, in a sentence
        std::int64_t bytes = 0;   ///< the module's figure
        std::int64_t said = -1;   ///< the message's figure for the same thing; -1: none
        std::int64_t saidUlp = 0; ///< its rounding
        std::int64_t limit = -1;  ///< the message's limit; -1: none printed
        std::int64_t limitUlp = 0;
        std::int64_t headroom = 0; ///< limit − bytes (when limit ≥ 0)
    };
    /// The checks for `dump` as the message's module: on a TPU (the message's form or the
    /// module's layouts) the compiler's, the temporaries alone against the HBM available, then
    /// the run time's, what the device holds against the limit; elsewhere the run time's
    /// against the allocator's limit.
    static std::vector<Check> checks(const OomMessage &message, const Dump &dump);
};

} // namespace bufferscope
