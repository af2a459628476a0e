#pragma once

#include "analysis/RunSummary.h"

#include <string>

namespace bufferscope {

/// `bufferscope summary DIR`: the run as a whole (analysis/RunSummary) as text for a terminal,
/// Markdown to paste into an issue, or JSON for scripts and agents. Every name from the folder
/// goes through safetext (forTerminal, forMarkdown) or JsonWriter.
struct RunSummaryReport
{
    static std::string text(const RunSummary &summary, const std::string &folder, std::size_t top);
    static std::string markdown(const RunSummary &summary, const std::string &folder,
                                std::size_t top);
    static std::string json(const RunSummary &summary, const std::string &folder);
};

} // namespace bufferscope
