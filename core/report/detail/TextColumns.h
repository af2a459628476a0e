#pragma once

// The text helpers of the report renderers (Report.cpp, ReportJson.cpp,
// MemoryUsageReportText.cpp): columns of UTF-8 text, byte figures, the file and the step a
// report names.

#include "analysis/ValueFlow.h"
#include "model/Dump.h"
#include "parse/ModuleFiles.h"
#include "report/Report.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace bufferscope::report_detail {

inline std::string bytesText(std::int64_t bytes)
{
    return humanBytes(bytes) + " (" + std::to_string(bytes) + " bytes)";
}

/// Display columns of UTF-8 text (continuation bytes take no column).
inline std::size_t columns(std::string_view text)
{
    std::size_t n = 0;
    for (char c : text)
        n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    return n;
}

inline std::string clip(std::string_view text, std::size_t width)
{
    if (columns(text) <= width)
        return std::string(text);
    std::size_t bytes = 0;
    for (std::size_t cols = 0; bytes < text.size(); ++bytes) {
        if ((static_cast<unsigned char>(text[bytes]) & 0xc0) != 0x80 && ++cols == width)
            break;
    }
    return std::string(text.substr(0, bytes)) + "…";
}

inline std::string pad(std::string_view text, std::size_t width)
{
    std::string out(text);
    const std::size_t n = columns(text);
    if (n < width)
        out.append(width - n, ' ');
    return out;
}

inline std::string padLeft(std::string_view text, std::size_t width)
{
    std::string out;
    const std::size_t n = columns(text);
    if (n < width)
        out.append(width - n, ' ');
    out += text;
    return out;
}

/// The file a report names first: the one the user gave, unless that was the memory-usage
/// report the dump was read through.
inline std::string shownFile(const Dump &dump, const ReportOptions &options)
{
    if (options.file.empty())
        return dump.files.front().path;
    for (const SourceFile &f : dump.files)
        if (f.path == options.file && f.role == ModuleFiles::Role::MemoryUsageReport)
            return dump.files.front().path;
    return options.file;
}

inline std::string stepInstruction(const Dump &dump, std::int64_t step)
{
    const std::uint32_t ins = dump.instructionAtStep(step);
    if (ins == kNone)
        return step == dump.maxStep() ? "(end of program)" : "(unknown)";
    return std::string(dump.str(dump.instructions[ins].name));
}

inline std::string percent(std::int64_t part, std::int64_t whole)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%5.1f%%",
                  whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

inline std::string markInstruction(const Dump &dump, const ValueMark &m)
{
    return m.instruction == kNone ? std::string("?")
                                  : std::string(dump.str(dump.instructions[m.instruction].name));
}

inline std::string valueList(const Dump &dump, const std::vector<std::uint32_t> &values)
{
    std::string out;
    for (std::uint32_t v : values) {
        if (!out.empty())
            out += ", ";
        out +=
            dump.valueDisplayName(dump.values[v]) + " (" + std::to_string(dump.values[v].id) + ")";
    }
    return out.empty() ? "none" : out;
}

} // namespace bufferscope::report_detail
