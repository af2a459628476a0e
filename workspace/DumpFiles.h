#pragma once

#include <QStringList>

namespace bufferscope {

/// Turns what the user opened (files and --xla_dump_to folders) into one file per module:
/// folders and their direct subfolders are searched for buffer-assignment dumps, the three files of
/// a 2026 split module count once, and folders list their largest modules first.
/// A module of at least this many bytes is read on every thread, alone; smaller ones are read
/// one per thread, side by side, on the parse's serial path (`list`, the Modules dock's scan):
/// a folder's modules are mostly small, and helper threads started per file cost more than
/// they gave. Measured in tests/bench/README.md, "A folder of modules".
constexpr qint64 kReadAloneFrom = qint64{16} << 20;

/// Something opened that could not be used: the path and what is wrong, apart (a path may hold
/// a ':').
struct OpenProblem
{
    QString path;
    QString message;
    QString text() const { return path + QStringLiteral(": ") + message; } ///< "PATH: message"
};

struct DumpFiles
{
    QStringList files;
    QList<OpenProblem> problems; ///< e.g. DIR, "no buffer-assignment dumps in this folder …"
    /// Per file in `files` found in a folder: its module's dump files as the listing found them
    /// (ModuleFiles::siblings without a stat: allocations, values, live ranges), and their bytes
    /// together. Empty, and -1, for a file given by name.
    QList<QStringList> members;
    QList<qint64> bytes;

    static DumpFiles collect(const QStringList &paths);
    /// Whether `path` is a run rather than one module: a folder, or a profiler capture of more
    /// than one module (what `list`, `summary` and a run `diff` take).
    static bool isRun(const QString &path);
    /// One module's file, known to be one (no listing).
    static DumpFiles ofFile(const QString &path)
    {
        DumpFiles one;
        one.files << path;
        one.members << QStringList();
        one.bytes << -1;
        return one;
    }
};

} // namespace bufferscope
