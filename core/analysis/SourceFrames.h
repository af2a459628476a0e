#pragma once

#include "model/Dump.h"

#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// Which frames of a call stack are library code rather than the user's own: a frame is
/// library code when its file contains one of the patterns (plain substrings). The defaults
/// cover Python packages and the frameworks' internals, as XProf's source stack and heaptrack
/// skip them, so the line a user wrote shows.
std::vector<std::string> defaultLibraryPatterns();
bool isLibraryFile(std::string_view file, const std::vector<std::string> &patterns);

/// The frame of `instruction`'s stack to show as "where it comes from": the innermost frame
/// outside the library patterns, else the innermost frame; null without a stack.
const StackFrame *userFrame(const Dump &dump, const Instruction &instruction,
                            const std::vector<std::string> &patterns);
/// "file:line" of userFrame, or the instruction's inline source when it has no stack.
std::string userSource(const Dump &dump, const Instruction &instruction,
                       const std::vector<std::string> &patterns);

} // namespace bufferscope
