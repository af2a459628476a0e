#pragma once

#include "open/Catalog.h"
#include "open/ModuleReader.h"

#include <QHash>
#include <QList>
#include <QStringList>

#include <vector>

namespace bufferscope {

/// Something opened that could not be used: the path and what is wrong, apart (a path may hold
/// a ':').
struct OpenProblem
{
    QString path;
    QString message;
    QString text() const { return path + QStringLiteral(": ") + message; } ///< "PATH: message"
};

/// The catalog's modules (open/Catalog) as the window's and the commands' Qt side holds them:
/// one entry per module, its address in `files`, the reference the reader takes in `refs`.
struct DumpFiles
{
    QStringList files;
    QList<OpenProblem> problems; ///< e.g. DIR, "no buffer-assignment dumps in this folder …"
    /// Per file in `files` found in a folder: its module's files as the listing found them
    /// (allocations, values, live ranges; a capture's module by its address), and their
    /// bytes together. Empty, and -1, for a file given by name.
    QList<QStringList> members;
    QList<qint64> bytes;
    /// Per file in `files`: the module as the catalog found it.
    std::vector<ModuleRef> refs;

    /// Every path given as modules: folders and captures listed, every other file a module.
    static DumpFiles collect(const QStringList &paths);
    static DumpFiles of(const Catalog &catalog);
    /// Catalog::isRun.
    static bool isRun(const QString &path);
    /// One module's file, known to be one (no listing).
    static DumpFiles ofFile(const QString &path);
    /// The references of addresses handed back by a view (Catalog::refOf each).
    static std::vector<ModuleRef> refsOf(const QStringList &files);
    void append(const ModuleRef &ref);
    /// The reference listed for `file` (an entry of `files`), or null: a capture's member is
    /// found as the catalog listed it, its capture and name apart, not split from the address.
    const ModuleRef *find(const QString &file) const;

private:
    QHash<QString, std::size_t> m_at; ///< `files` → its index in `refs`
};

} // namespace bufferscope
