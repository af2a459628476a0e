#pragma once

#include "DumpFiles.h"
#include "parse/MemoryUsageReport.h"
#include "report/OomReport.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>

namespace bufferscope {

/// What the user opened, each path classified once (core/parse/FileKind) and what the window
/// needs of it read: the one way in for files, on a job (Workspace::open) for the window and
/// at once for the commands and the tests.
struct Opened
{
    /// Out-of-memory logs, their messages read (on the job: a long log is never parsed on
    /// the GUI thread).
    struct Log
    {
        QString path;
        OomFindings findings;
    };
    /// XLA's memory-usage reports without their dump, read.
    struct Report
    {
        QString path;
        std::shared_ptr<const MemoryUsageReport> report; ///< null when it could not be read
        QString error;
    };
    QList<Log> oomLogs;
    QList<Report> reports;
    /// Every other path as one file per module (folders searched, split modules once).
    DumpFiles modules;
    /// Logs or files that could not be read.
    QList<OpenProblem> problems;
    /// The paths given that are runs, folders and profiler captures, as given (what Open
    /// Recent records: a capture's modules are not files of their own).
    QStringList runs;

    bool isEmpty() const
    {
        return oomLogs.isEmpty() && reports.isEmpty() && modules.files.isEmpty();
    }

    /// Classifies `paths` and reads what each kind needs. A folder whose only module is a lone
    /// memory-usage report is that report.
    static Opened classify(const QStringList &paths);
    /// Whether `text` (pasted, dropped) holds an out-of-memory message.
    static bool holdsOomMessage(const std::string &text);
    /// Reads a memory-usage report file.
    static Report readReport(const QString &path);
};

} // namespace bufferscope
