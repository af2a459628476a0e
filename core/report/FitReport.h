#pragma once

#include "analysis/DeviceFit.h"

#include <string>
#include <vector>

namespace bufferscope {

/// The `bufferscope fit` output: per module what the device holds while it runs against the
/// limit, and the module that sets the device peak. Names go through safetext::forTerminal.
class FitReport
{
public:
    static std::string text(const DeviceFit &fit, const std::vector<DeviceFit::Module> &modules,
                            const std::string &limitSource);
    static std::string json(const DeviceFit &fit, const std::vector<DeviceFit::Module> &modules,
                            const std::string &limitSource);
};

} // namespace bufferscope
