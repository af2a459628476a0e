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
};

} // namespace bufferscope
