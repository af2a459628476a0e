#pragma once

namespace bufferscope {

/// Marks the calling thread as background work: on Linux its nice value goes up by 5, so on
/// a machine with few cores the GUI thread gets the CPU first whenever it has something to do
/// (loading a million-value dump on two cores otherwise makes it wait its turn). Threads it
/// starts inherit that. Idempotent; elsewhere a no-op.
void markBackgroundThread();

} // namespace bufferscope
