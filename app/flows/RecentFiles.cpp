#include "RecentFiles.h"

#include "WindowServices.h"
#include "models/QtText.h"
#include "open/Catalog.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace bufferscope {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
} // namespace

RecentFiles::RecentFiles(WindowServices *window, QMenu *menu)
    : QObject(window->mainWindow()), m_window(window), m_menu(menu)
{
    connect(menu, &QMenu::aboutToShow, this, &RecentFiles::fill);
}

QStringList RecentFiles::files() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void RecentFiles::add(const QString &path)
{
    QStringList recent = files();
    const QString absolute = QFileInfo(path).absoluteFilePath();
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
    for (const QString &path : recent) {
        // A capture's module (`capture.xplane.pb#NAME`) exists when its capture does; a folder
        // is named as one.
        std::string capture;
        std::string member;
        const QString file = Catalog::splitMember(path.toStdString(), &capture, &member)
                                 ? QString::fromStdString(capture)
                                 : path;
        const QFileInfo info(file);
        QAction *a = m_menu->addAction(info.isDir() ? info.fileName() + QLatin1Char('/')
                                                    : QFileInfo(path).fileName(),
                                       this, [this, path] { m_window->openPaths({path}); });
        a->setToolTip(plainToolTip(path));
        a->setEnabled(info.exists());
    }
    if (recent.isEmpty())
        m_menu->addAction(tr("(none yet)"))->setEnabled(false);
    m_menu->addSeparator();
    m_menu->addAction(tr("Clear List"), this, [] { QSettings().remove(kRecentKey); });
}

} // namespace bufferscope
