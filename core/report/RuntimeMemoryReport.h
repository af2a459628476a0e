#pragma once

#include "analysis/RuntimeMemory.h"

#include <string>

namespace bufferscope {

/// `bufferscope memory CAPTURE`: what each allocator of a capture really did (analysis/
/// RuntimeMemory), as text for a terminal (the capture's strings made safe for it) or JSON.
namespace RuntimeMemoryReport {

/// At most this many rows of the allocations live at the peak, per allocator.
inline constexpr std::size_t kTopRows = 20;

std::string text(const std::string &capture, const RuntimeMemory &memory);
std::string json(const std::string &capture, const RuntimeMemory &memory);

} // namespace RuntimeMemoryReport

} // namespace bufferscope
