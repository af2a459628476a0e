#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bufferscope {

struct Dump;

/// The platform a dump was compiled for, as its file name says (`…sm_8.0_gpu_after_…`,
/// `…tpu…`, `…cpu_after_…`); Unknown when it does not.
enum class Platform
{
    Unknown,
    Gpu,
    Tpu,
    Cpu
};
Platform platformOf(std::string_view fileName);
/// The platform by the dump's name, else by what it holds: 2026 TPU dumps are named
/// `module_0294.jit_train_step.cl_854318611.after_optimizations-…` with no platform in it, but
/// only TPU layouts carry tiles (`{1,0:T(8,128)(2,1)}`).
Platform platformOf(const Dump &dump);
/// "gpu", "tpu", "cpu", "unknown": the platform in JSON.
std::string_view platformName(Platform platform);

/// What XLA calls memory space `space` (the `S(n)` of a layout, the @n colour of a value) on
/// `platform`, or "" when XLA's open source does not name it (docs/FORMAT.md Part B §14):
/// 0 is the default device memory and 5 the host everywhere (`Layout::kDefaultMemorySpace`,
/// `Layout::kHostMemorySpace`); on GPU 1 is collective memory and 2 the temp buffers' own colour.
std::string_view memorySpaceName(Platform platform, std::int32_t space);
/// "S(1) collective", or "S(3)" when the space has no name.
std::string memorySpaceLabel(Platform platform, std::int32_t space);

} // namespace bufferscope
