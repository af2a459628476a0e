#pragma once

#include "model/FileRole.h"
#include "model/ModuleNames.h"

#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// The names of one XLA module's dump files, in one place for the parser, the folder scan of
/// the app and `bufferscope list` (docs/FORMAT.md, "File names"):
/// - up to 2026 one file, `<stem>-buffer-assignment.txt`;
/// - since April 2026 three: `<stem>-buffer-assignment.txt` (allocations),
///   `<stem>-buffer-assignment-values.txt` (values) and `<stem>-live-range.txt`;
/// - `<stem>.txt` beside them is the module's optimized HLO text.
/// `.` instead of `-` before a suffix is accepted too (renamed copies, our samples).
struct ModuleFiles : ModuleNames
{
    using Role = DumpFileRole;

    /// What one module is known by: folder and stem for dump names (the three files of a split
    /// module share it), the path itself for any other name (two such files are two modules).
    static std::string moduleKey(std::string_view path);
    /// The module's files that exist, in reading order (allocations, values, live ranges), for
    /// a path to any one of them (the memory-usage report too, which is not among them); just
    /// `path` when it has no dump suffix or no dump file exists.
    static std::vector<std::string> siblings(const std::string &path);
    /// The role of a file that is one of `count` files of a module.
    static Role roleOf(std::string_view path, std::size_t count);
    /// The module's optimized HLO text (`<stem>.txt` in the same folder) when it exists, else "".
    static std::string optimizedHlo(const std::string &path);
    /// The module's memory-usage report (`<stem>-memory-usage-report.txt`) when it exists.
    static std::string memoryUsageReport(const std::string &path);
};

} // namespace bufferscope
