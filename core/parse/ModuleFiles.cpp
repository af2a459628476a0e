#include "ModuleFiles.h"

#include <algorithm>
#include <array>
#include <filesystem>

namespace bufferscope {

std::string ModuleFiles::moduleKey(std::string_view path)
{
    const std::string_view name = ModuleNames::baseName(path);
    const std::string stem = stemOf(name);
    if (stem.empty())
        return std::string(path);
    return std::string(path.substr(0, path.size() - name.size())) + stem;
}

std::vector<std::string> ModuleFiles::siblings(const std::string &path)
{
    namespace fs = std::filesystem;
    const std::string_view name = ModuleNames::baseName(path);
    const std::string stem = stemOf(name);
    if (stem.empty())
        return {path};
    const std::string dir = path.substr(0, path.size() - name.size());
    const char sep = name[stem.size()]; // the separator the opened file used
    std::vector<std::string> files;
    for (std::string_view suffix :
         {"buffer-assignment.txt", "buffer-assignment-values.txt", "live-range.txt"}) {
        const std::string candidate = dir + stem + sep + std::string(suffix);
        std::error_code ec;
        if (candidate == path || fs::is_regular_file(candidate, ec))
            files.push_back(candidate);
    }
    if (files.empty())
        files.push_back(path);
    return files;
}

ModuleFiles::Role ModuleFiles::roleOf(std::string_view path, std::size_t count)
{
    const std::string_view name = ModuleNames::baseName(path);
    if (count <= 1 && (name.ends_with("buffer-assignment.txt") || stemOf(name).empty()))
        return Role::Combined;
    if (name.ends_with("buffer-assignment-values.txt"))
        return Role::Values;
    if (name.ends_with("live-range.txt"))
        return Role::LiveRange;
    if (isMemoryUsageReportName(name))
        return Role::MemoryUsageReport;
    return Role::BufferAssignment;
}

std::string ModuleFiles::optimizedHlo(const std::string &path)
{
    const std::string_view name = ModuleNames::baseName(path);
    const std::string stem = stemOf(name);
    if (stem.empty())
        return {};
    const std::string candidate = path.substr(0, path.size() - name.size()) + stem + ".txt";
    std::error_code ec;
    return std::filesystem::is_regular_file(candidate, ec) ? candidate : std::string();
}

std::string ModuleFiles::memoryUsageReport(const std::string &path)
{
    const std::string_view name = ModuleNames::baseName(path);
    const std::string stem = stemOf(name);
    if (stem.empty())
        return {};
    // The text report, else the binary one XLA writes beside a proto dump.
    for (const char *suffix :
         {"memory-usage-report.txt", "memory-usage-report.pb", "memory-usage-report.pb.gz"}) {
        std::string candidate =
            path.substr(0, path.size() - name.size()) + stem + name[stem.size()] + suffix;
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec))
            return candidate;
    }
    return {};
}

} // namespace bufferscope
