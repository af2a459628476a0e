#include "RecentFiles.h"

#include "WindowServices.h"
#include "models/QtText.h"
#include "open/Catalog.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace bufferscope {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");

/// One spelling per place: absolute, without a trailing '/' or `.`/`..` parts, so that
/// `xla_dump/` and `xla_dump` are one entry.
QString cleaned(const QString &path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}
} // namespace

RecentFiles::RecentFiles(WindowServices *window, QMenu *menu)
    : QObject(window->mainWindow()), m_window(window), m_menu(menu)
{
    connect(menu, &QMenu::aboutToShow, this, &RecentFiles::fill);
}

QStringList RecentFiles::files() const
{
    // Entries kept by an earlier version may spell one place twice.
    QStringList out;
    for (const QString &path : QSettings().value(kRecentKey).toStringList()) {
        const QString clean = cleaned(path);
        if (!clean.isEmpty() && !out.contains(clean))
            out << clean;
    }
    return out;
}

void RecentFiles::add(const QString &path)
{
    QStringList recent = files();
    const QString absolute = cleaned(path);
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
}

void RecentFiles::fill()
{
    m_menu->clear();
    const QStringList recent = files();
    // Each entry by its name (a folder's with a '/'); two of one name (two runs' `xla_dump/`)
    // say their folders too, so that no two lines read alike.
    QStringList labels;
    QList<bool> exists;
    for (const QString &path : recent) {
        // A capture's module (`capture.xplane.pb#NAME`) exists when its capture does; a folder
        // is named as one.
        std::string capture;
        std::string member;
        const QString file = Catalog::splitMember(path.toStdString(), &capture, &member)
                                 ? QString::fromStdString(capture)
                                 : path;
        const QFileInfo info(file);
        labels << (info.isDir() ? info.fileName() + QLatin1Char('/') : QFileInfo(path).fileName());
        exists << info.exists();
    }
    for (qsizetype i = 0; i < recent.size(); ++i) {
        QString label = labels[i];
        if (labels.count(labels[i]) > 1)
            label += QStringLiteral("  \u2014  ") +
                     QDir::toNativeSeparators(QFileInfo(recent[i]).path());
        label.replace(QLatin1Char('&'), QStringLiteral("&&")); // a name's '&' is no shortcut
        const QString path = recent[i];
        QAction *a = m_menu->addAction(label, this, [this, path] { m_window->openPaths({path}); });
        a->setToolTip(plainToolTip(path));
        a->setEnabled(exists[i]);
    }
    if (recent.isEmpty())
        m_menu->addAction(tr("(none yet)"))->setEnabled(false);
    m_menu->addSeparator();
    m_menu->addAction(tr("Clear List"), this, [] { QSettings().remove(kRecentKey); });
}

} // namespace bufferscope
