#include "Opened.h"

#include "OomJoin.h"
#include "parse/FileKind.h"
#include "parse/MappedFile.h"
#include "parse/MemoryUsageReport.h"
#include "parse/OomMessage.h"
#include "parse/XPlaneModules.h"

namespace bufferscope {

bool Opened::holdsOomMessage(const std::string &text)
{
    return OomLog::looksLike(text);
}

Opened::Report Opened::readReport(const QString &path)
{
    Report r;
    r.path = path;
    std::string error;
    MemoryUsageReport read = MemoryUsageReports::readFile(path.toStdString(), &error);
    if (!error.empty()) {
        r.error = path + QStringLiteral(": ") + QString::fromStdString(error);
        return r;
    }
    r.report = std::make_shared<const MemoryUsageReport>(std::move(read));
    return r;
}

Opened Opened::classify(const QStringList &paths)
{
    Opened out;
    QStringList rest;
    for (const QString &path : paths) {
        switch (FileKinds::of(path.toStdString())) {
        case FileKind::OomLog: {
            MappedFile file;
            std::string error;
            if (file.open(path.toStdString(), error))
                out.oomLogs.push_back({path, oomFindingsOf(path, std::string(file.data()))});
            else
                out.problems << OpenProblem{path, QString::fromStdString(error)};
            break;
        }
        case FileKind::MemoryUsageReport:
            out.reports.push_back(readReport(path));
            break;
        case FileKind::Folder:
            out.runs << path;
            rest << path;
            break;
        case FileKind::Dump:
            if (XPlaneModules::isCaptureName(path.toStdString()))
                out.runs << path;
            rest << path;
            break;
        }
    }
    if (rest.isEmpty())
        return out;
    out.modules = DumpFiles::collect(rest);
    if (out.modules.files.size() == 1 &&
        FileKinds::isLoneMemoryUsageReport(out.modules.files.front().toStdString())) {
        out.reports.push_back(readReport(out.modules.files.front()));
        out.modules = {};
    }
    return out;
}

} // namespace bufferscope
