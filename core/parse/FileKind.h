#pragma once

#include <string>

namespace bufferscope {

/// What a path the user gave is: the one classification of opened files, for the window (on a
/// job: workspace/Opened), every command and the tests. A new kind of file (a binary proto, a
/// profile) is added here, once.
enum class FileKind
{
    Folder,            ///< searched for modules (workspace/DumpFiles)
    Dump,              ///< a module's dump file, or any file no other kind claims: the
                       ///< parser reads it and says what is wrong with it, by line
    MemoryUsageReport, ///< XLA's memory-usage report with no dump of its module beside it
    OomLog             ///< a log (or any text) that holds an out-of-memory message
};

struct FileKinds
{
    /// What `path` is, by its name and, where the name does not say, its text. A report with
    /// its module's dump beside it is a Dump (the dump is read, the report checked against
    /// it: DumpParser::loadFile). A path that does not exist or cannot be read is a Dump, so
    /// that the load names it and says why.
    static FileKind of(const std::string &path);
    /// Whether `path` is XLA's memory-usage report, by its name or by what it begins with
    /// (a dump's own name is never sniffed).
    static bool isMemoryUsageReport(const std::string &path);
    /// A memory-usage report with no dump of its module beside it.
    static bool isLoneMemoryUsageReport(const std::string &path);
    static const char *name(FileKind kind);
};

} // namespace bufferscope
