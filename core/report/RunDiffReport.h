#pragma once

#include "analysis/RunDiff.h"

#include <string>

namespace bufferscope {

/// `bufferscope diff RUN_A RUN_B`: two runs compared function by function (analysis/RunDiff),
/// as text or JSON. Names go through safetext::forTerminal or JsonWriter.
struct RunDiffReport
{
    static std::string text(const RunDiff &diff, const std::string &before,
                            const std::string &after, std::size_t top);
    static std::string json(const RunDiff &diff, const std::string &before,
                            const std::string &after);
};

} // namespace bufferscope
