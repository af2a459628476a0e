#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QSize>

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

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Each docked, visible dock's size (by its object name).
    using Sizes = QHash<QString, QSize>;
    /// Each docked, visible dock's width and height as shares of the window's.
    using Shares = QHash<QString, QPointF>;
    Sizes dockSizes() const;
    static Shares sharesOf(const Sizes &sizes, QSize window);
    /// The window was resized: the docks take their shares of its new size.
    void applyShares();
    /// Reads the shares off the docks once the layout has settled (the user arranged them).
    void queueCapture();
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
    /// The docks' shares of the window as the user arranged them (a separator dragged, a dock
    /// moved) or the default did: not read at a window resize, so a window made small and
    /// large again gets its arrangement back rather than keep the squeeze (QMainWindow hands
    /// the grown space to one column).
    Shares m_shares;
    bool m_applyPending = false;
    /// The default arrangement, not yet changed by the user: sized by sizeDefaults' rule at
    /// every window size (not by shares).
    bool m_defaultSizes = true;
    bool m_compact = false; ///< which default arrangement arrange() chose
    int m_generation = 0;   ///< bumped by each restore and reset (see queueCapture)
};

} // namespace bufferscope
