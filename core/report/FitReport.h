#pragma once

#include "analysis/DeviceFit.h"

#include <string>
#include <vector>

namespace bufferscope {

/// The `bufferscope fit` output: per module what the device holds while it runs against the
/// limit, and the module that needs the most. Names go through safetext::forTerminal.
class FitReport
{
public:
    static std::string text(const DeviceFit &fit, const std::vector<DeviceFit::Module> &modules,
                            const std::string &limitSource);
    /// `named`: the device the limit was named by (DeviceFit::preset), if it was: its memory
    /// and, for a GPU, the allocator's share that makes the limit.
    static std::string json(const DeviceFit &fit, const std::vector<DeviceFit::Module> &modules,
                            const std::string &limitSource, const DeviceFit::Limit &named = {});
    /// Sizes said in one sentence, human-readable; those that would read alike but differ
    /// (16.00GiB under a limit of 16.00GiB) with their byte counts too.
    static std::vector<std::string> apart(const std::vector<std::int64_t> &sizes);
};

} // namespace bufferscope
