#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace bufferscope {

/// The window's docks and their two default arrangements (a laptop's 1366 × 768 and a large
/// screen), the saved layout and geometry, and Reset Layout.
class DockLayout : public QObject
{
    Q_OBJECT
public:
    /// Bump when docks are added, removed or renamed: an older saved layout is then ignored.
    static constexpr int kLayoutVersion = 6;

    /// The views the docks hold.
    struct Views
    {
        QWidget *usage, *gantt, *map, *values, *breakdown, *peak, *categories, *inspector,
            *allocations, *instructions, *warnings, *modules, *source;
    };
    DockLayout(QMainWindow *window, const Views &views);

    QDockWidget *dockOf(QWidget *view) const;
    QDockWidget *warnings() const { return m_warnings; }
    QDockWidget *modules() const { return m_modules; }
    QDockWidget *source() const { return m_source; }
    QList<QDockWidget *> docks() const;
    /// Shows `view`'s dock and brings it to the front.
    void raise(QWidget *view) const;

    /// The default arrangement for the window's size; every dock shown but Modules.
    void reset();
    /// The geometry and layout saved last, where they still fit (settings).
    void restore();
    void save() const;
    /// The window is shown at its real size: the default dock sizes again (not over a saved
    /// layout).
    void shown();
    /// A first window's size: the screen's available area up to 2400 × 1400, centred.
    static void sizeToScreen(QWidget *window);

private:
    QDockWidget *add(QWidget *widget, const QString &title, const QString &objectName);
    void arrange();
    void sizeDefaults();
    bool isCompact() const;
    QDockWidget *named(const char *objectName) const;

    QMainWindow *m_window;
    QDockWidget *m_warnings = nullptr;
    QDockWidget *m_modules = nullptr;
    QDockWidget *m_source = nullptr;
    QByteArray m_defaultState;
    bool m_defaultSizesPending = true; ///< until shown, unless a saved layout was restored
};

} // namespace bufferscope
