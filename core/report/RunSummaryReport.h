#pragma once

#include "analysis/RunSummary.h"
#include "analysis/RuntimeMemory.h"

#include <string>

namespace bufferscope {

/// `bufferscope summary DIR`: the run as a whole (analysis/RunSummary) as text for a terminal,
/// Markdown to paste into an issue, or JSON for scripts and agents. Every name from the folder
/// goes through safetext (forTerminal, forMarkdown) or JsonWriter.
struct RunSummaryReport
{
    /// `runtime`: a capture's allocators (analysis/RuntimeMemory), said after the modules:
    /// what the runtime held at its peak beside what the plans hold.
    static std::string text(const RunSummary &summary, const std::string &folder, std::size_t top,
                            const RuntimeMemory *runtime = nullptr);
    static std::string markdown(const RunSummary &summary, const std::string &folder,
                                std::size_t top, const RuntimeMemory *runtime = nullptr);
    static std::string json(const RunSummary &summary, const std::string &folder,
                            const RuntimeMemory *runtime = nullptr);
    /// One line per allocator: "GPU_0_bfc: peak 640.19MiB at 7.212859 ms of 143.99GiB".
    static std::vector<std::string> runtimeLines(const RuntimeMemory &runtime);
};

} // namespace bufferscope
