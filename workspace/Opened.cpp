#include "Opened.h"

#include "OomJoin.h"
#include "models/QtText.h"
#include "parse/MappedFile.h"
#include "parse/MemoryUsageReport.h"
#include "parse/OomMessage.h"

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
    MemoryUsageReport read = MemoryUsageReports::readFile(pathBytes(path), &error);
    if (!error.empty()) {
        r.error = path + QStringLiteral(": ") + QString::fromStdString(error);
        return r;
    }
    r.report = std::make_shared<const MemoryUsageReport>(std::move(read));
    return r;
}

Opened Opened::classify(const QStringList &paths)
{
    std::vector<std::string> given;
    for (const QString &path : paths)
        given.push_back(pathBytes(path));
    const Catalog catalog = Catalog::of(given);
    Opened out;
    for (const std::string &log : catalog.logs) {
        const QString path = pathFromBytes(log);
        MappedFile file;
        std::string error;
        if (file.open(log, error))
            out.oomLogs.push_back({path, oomFindingsOf(path, std::string(file.data()))});
        else
            out.problems << OpenProblem{path, QString::fromStdString(error)};
    }
    for (const ModuleRef &report : catalog.reports)
        out.reports.push_back(readReport(pathFromBytes(report.path)));
    for (const std::string &run : catalog.runs)
        out.runs << QString::fromStdString(run);
    out.modules = DumpFiles::of(catalog);
    return out;
}

} // namespace bufferscope
