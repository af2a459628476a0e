#include "windows/DialogFolders.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace bufferscope::DialogFolders {

namespace {
const QString kOpenKey = QStringLiteral("dialogs/openFolder");
const QString kSaveKey = QStringLiteral("dialogs/saveFolder");

/// `folder` if it is still there.
QString existing(const QString &folder)
{
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}
} // namespace

QString openFolder(const QString &fallback)
{
    if (QString last = existing(QSettings().value(kOpenKey).toString()); !last.isEmpty())
        return last;
    if (QString shown = existing(fallback); !shown.isEmpty())
        return shown;
    return QDir::homePath();
}

void rememberOpened(const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char(':')))
        return; // nothing, or the embedded sample
    const QFileInfo info(path);
    QSettings().setValue(kOpenKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString saveFolder()
{
    if (QString last = existing(QSettings().value(kSaveKey).toString()); !last.isEmpty())
        return last;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return existing(documents).isEmpty() ? QDir::homePath() : documents;
}

QString savePath(const QString &fileName)
{
    return QDir(saveFolder()).filePath(fileName);
}

void rememberSaved(const QString &path)
{
    if (!path.isEmpty())
        QSettings().setValue(kSaveKey, QFileInfo(path).absolutePath());
}

} // namespace bufferscope::DialogFolders
