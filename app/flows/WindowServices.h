#pragma once

#include <QList>
#include <QMainWindow>
#include <QStatusBar>
#include <QString>
#include <QStringList>

namespace bufferscope {

class ChartView;
class UsageChart;
class Workspace;
struct DumpFiles;

/// What a flow (app/flows) may ask of the window it is part of: the flows know this, not the
/// window's class, so the window stands above its flows and assembles them (MainWindow
/// implements it).
class WindowServices
{
public:
    virtual ~WindowServices() = default;

    /// The window: the parent of the flows' windows and dialogs, and its status bar.
    virtual QMainWindow *mainWindow() = 0;
    QStatusBar *status() { return mainWindow()->statusBar(); }
    virtual Workspace *workspace() const = 0;
    virtual UsageChart *usageChart() const = 0;
    virtual QList<ChartView *> chartViews() const = 0;
    /// Opens what the user chose (OpenFlow).
    virtual void openPaths(const QStringList &paths) = 0;
    /// Opens one module of the run on show, as the Modules dock does: the run stays listed.
    virtual void openPath(const QString &path) = 0;
    /// openPath, then the allocation `allocation` of that module selected once it is shown
    /// (its largest value current in every view); -1 selects nothing.
    virtual void openAllocation(const QString &path, qint64 allocation) = 0;
    /// A folder's modules, listed (an out-of-memory message's folder with no module of it).
    virtual void openListed(const DumpFiles &found) = 0;
    /// Two modules compared in a window of their own (a run comparison's changed compile).
    virtual void compareFiles(const QString &before, const QString &after) = 0;
    /// Says that `path` could not be opened, in a message box and on stderr.
    virtual void showError(const QString &path, const QString &error) = 0;
    /// The folder of the dump on screen; empty for none or the embedded sample.
    virtual QString shownFolder() const = 0;
    /// Records a run (a folder, a capture) the user opened in File ▸ Open Recent.
    virtual void rememberRecent(const QString &path) = 0;
};

} // namespace bufferscope
