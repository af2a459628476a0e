#include "Commands.h"

#include "Output.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "parse/MappedFile.h"

#include <QFileInfo>

namespace bufferscope {

bool loadForCommand(const QString &file, LoadedDump &out, int threads)
{
    if (pathIsDir(file)) {
        cli::fail(
            file + QStringLiteral(": is a directory; give one dump file (use 'list' for a folder)"),
            2);
        return false;
    }
    QString error;
    if (!loadDump(file, out, error, nullptr, {}, threads)) {
        // Only a file that failed as a dump is sniffed: a log given where a dump belongs.
        if (Catalog::kindOf(pathBytes(file)) == FileKind::OomLog)
            error += QStringLiteral("\nit reads as an out-of-memory log: the 'oom' command reads "
                                    "those");
        cli::fail(error, 2);
        return false;
    }
    return true;
}

bool readLog(const QString &path, std::string &text)
{
    MappedFile file;
    std::string error;
    if (!file.open(pathBytes(path), error)) {
        cli::fail(QString::fromStdString(error), 2);
        return false;
    }
    text.assign(file.data());
    return true;
}

} // namespace bufferscope
