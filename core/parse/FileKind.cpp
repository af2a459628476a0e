#include "FileKind.h"

#include "MappedFile.h"
#include "MemoryUsageReport.h"
#include "ModuleFiles.h"
#include "OomMessage.h"

#include <filesystem>
#include <system_error>
#include <vector>

namespace bufferscope {

bool FileKinds::isMemoryUsageReport(const std::string &path)
{
    if (ModuleFiles::isMemoryUsageReportName(path))
        return true;
    // A dump's own name is not sniffed: a folder of modules would open each file twice.
    if (ModuleFiles::isDumpName(path.substr(path.rfind('/') + 1)))
        return false;
    MappedFile map;
    std::string error;
    return map.open(path, error) && MemoryUsageReports::looksLike(map.data().substr(0, 4096));
}

bool FileKinds::isLoneMemoryUsageReport(const std::string &path)
{
    // The name first: a dump's name is answered without touching the disk, so a folder's scan
    // does not stat each module's siblings to learn it is not a report.
    return isMemoryUsageReport(path) &&
           ModuleFiles::siblings(path) == std::vector<std::string>{path};
}

FileKind FileKinds::of(const std::string &path)
{
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::is_directory(status))
        return FileKind::Folder;
    if (ec || !std::filesystem::is_regular_file(status))
        return FileKind::Dump; // the load says what it is (missing, a FIFO, …)
    if (isLoneMemoryUsageReport(path))
        return FileKind::MemoryUsageReport;
    if (ModuleFiles::isDumpName(path.substr(path.rfind('/') + 1)))
        return FileKind::Dump;
    MappedFile file;
    std::string error;
    if (file.open(path, error) && OomLog::looksLike(file.data()))
        return FileKind::OomLog;
    return FileKind::Dump;
}

const char *FileKinds::name(FileKind kind)
{
    switch (kind) {
    case FileKind::Folder:
        return "folder";
    case FileKind::Dump:
        return "dump";
    case FileKind::MemoryUsageReport:
        return "memory-usage report";
    case FileKind::OomLog:
        return "out-of-memory log";
    }
    return "?";
}

} // namespace bufferscope
