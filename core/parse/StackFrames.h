#pragma once

#include "model/Dump.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bufferscope {

/// The deepest call stack kept (Python's default recursion limit); deeper chains are cut, with
/// a warning, so walking a stack is bounded whatever the tables say.
inline constexpr std::uint32_t kMaxStackDepth = 1000;

/// Reads the call-stack tables XLA prints at the top of a module's optimized HLO text
/// (`FileNames`, `FunctionNames`, `FileLocations`, `StackFrames`; `HloModule::
/// PrintStackFrameIndex`, docs/FORMAT.md Part B §13) into `dump.stackFrames`, then gives every
/// instruction that names a frame (`stack_frame_id=N`) and has no inline `source_file` the
/// innermost frame's file and line as its source.
///
/// Only the tables are read: reading stops at the first computation, so a file of hundreds of
/// MB costs what its header costs. Damage (bad entries, ids out of range, a parent cycle) is a
/// warning naming `fileIndex`'s line, never an error: the buffer assignment stands without it.
/// Returns the number of frames read.
std::size_t readStackFrames(std::string_view text, std::uint32_t fileIndex, Dump &dump,
                            std::size_t maxWarnings);

} // namespace bufferscope
