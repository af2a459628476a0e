#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bufferscope {

/// The platform a dump was compiled for, as its file name says (`…_gpu_after_optimizations…`,
/// `…tpu…`); Unknown when it does not.
enum class Platform
{
    Unknown,
    Gpu,
    Tpu
};
Platform platformOf(std::string_view fileName);

/// What XLA calls memory space `space` (the `S(n)` of a layout, the @n colour of a value) on
/// `platform`, or "" when XLA's open source does not name it (docs/FORMAT.md Part B §14):
/// 0 is the default device memory and 5 the host everywhere (`Layout::kDefaultMemorySpace`,
/// `Layout::kHostMemorySpace`); on GPU 1 is collective memory and 2 the temp buffers' own colour.
std::string_view memorySpaceName(Platform platform, std::int32_t space);
/// "S(1) collective", or "S(3)" when the space has no name.
std::string memorySpaceLabel(Platform platform, std::int32_t space);

} // namespace bufferscope
