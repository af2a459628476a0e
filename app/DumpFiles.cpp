#include "DumpFiles.h"

#include "parse/ModuleFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>

namespace bufferscope {

DumpFiles DumpFiles::collect(const QStringList &paths)
{
    DumpFiles out;
    QSet<QString> modules; // one entry per module (the 2026 split has three files)
    const auto add = [&](const QFileInfo &info) {
        const QString key =
            QString::fromStdString(ModuleFiles::moduleKey(info.absoluteFilePath().toStdString()));
        if (modules.contains(key))
            return;
        modules.insert(key);
        out.files << info.filePath();
    };
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (!info.isDir()) {
            add(info);
            continue;
        }
        // The folder's files, then those of its direct subfolders (some tools write one folder
        // per module); deeper folders are not searched.
        QFileInfoList entries = QDir(path).entryInfoList(QDir::Files | QDir::Readable, QDir::Name);
        const QFileInfoList subdirs = QDir(path).entryInfoList(
            QDir::Dirs | QDir::NoDotAndDotDot | QDir::Readable, QDir::Name);
        for (const QFileInfo &sub : subdirs)
            entries += QDir(sub.filePath()).entryInfoList(QDir::Files | QDir::Readable, QDir::Name);
        entries.erase(std::remove_if(entries.begin(), entries.end(),
                                     [](const QFileInfo &e) {
                                         return !ModuleFiles::isDumpName(
                                             e.fileName().toStdString());
                                     }),
                      entries.end());
        // The main file of a split module first, so it is the one kept for the module.
        std::stable_sort(
            entries.begin(), entries.end(), [](const QFileInfo &a, const QFileInfo &b) {
                const bool am = a.fileName().endsWith(QLatin1String("-buffer-assignment.txt"));
                const bool bm = b.fileName().endsWith(QLatin1String("-buffer-assignment.txt"));
                return am && !bm;
            });
        const qsizetype before = out.files.size();
        QHash<QString, qint64> sizes; // as the listing read them: no stat per comparison
        for (const QFileInfo &e : entries) {
            add(e);
            sizes.insert(e.filePath(), e.size());
        }
        if (out.files.size() == before)
            out.problems << QStringLiteral("%1: no buffer-assignment dumps in this folder "
                                           "(expected files named *buffer-assignment.txt)")
                                .arg(path);
        // Largest modules first: they are the ones that run out of memory.
        std::stable_sort(out.files.begin() + before, out.files.end(),
                         [&sizes](const QString &a, const QString &b) {
                             return sizes.value(a) > sizes.value(b);
                         });
    }
    return out;
}

} // namespace bufferscope
