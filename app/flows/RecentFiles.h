#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace bufferscope {

class WindowServices;

/// File ▸ Open Recent: the dumps shown last (ten, newest first, in the settings).
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    RecentFiles(WindowServices *window, QMenu *menu);

    QStringList files() const;
    void add(const QString &path);

private:
    void fill();

    WindowServices *m_window;
    QMenu *m_menu;
};

} // namespace bufferscope
