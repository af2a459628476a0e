#pragma once

#include <QObject>
#include <QPointer>

class QAction;
class QMenu;

namespace bufferscope {

class RunSummaryView;
class WindowServices;
class Workspace;

/// Tools ▸ Run Summary: the open folder as one run (its functions, why each was compiled again,
/// the largest modules and collectives), read on a job into a window of its own; a row opens
/// its module in the main window.
class RunFlow : public QObject
{
    Q_OBJECT
public:
    /// The run it reads is the workspace's (Workspace::run).
    RunFlow(WindowServices *window, Workspace *workspace);
    /// Puts Run Summary in `tools`, and Compare With Another Run after `compare` in `file`.
    void addActions(QMenu *tools, QMenu *file, QAction *compare);
    /// The folder on show compared, as a run, with `other` (File ▸ Compare With Another Run).
    class RunDiffView *compareRuns(const QString &other);
    RunSummaryView *show();
    /// Tools ▸ Runtime Memory: what the allocators of the capture open really did.
    class RuntimeMemoryView *showRuntime();
    /// A capture just opened: its Runtime Memory window, shown once its figures are read when
    /// it has allocators' events (a capture without them opens no window). One per capture:
    /// opening it again raises the window it has.
    void showRuntimeOfOpened(const QString &capture);

Q_SIGNALS:
    /// The window has its summary.
    void ready(RunSummaryView *view);
    /// The Runtime Memory window has its capture's figures (or says why there are none).
    void runtimeReady(class RuntimeMemoryView *view);
    /// The two runs are compared in `view`.
    void runsCompared(class RunDiffView *view);

private:
    WindowServices *m_window;
    Workspace *m_workspace;
    /// The workspace's Run, else the folder of the module on show as one.
    struct Run runOpen() const;
    /// A Runtime Memory window reading `capture`, shown now or (`whenRead`) once it has
    /// figures; with `whenRead` a capture without events closes it unseen.
    class RuntimeMemoryView *runtimeWindow(const QString &capture, bool whenRead);
    QPointer<class RuntimeMemoryView> m_opened; ///< showRuntimeOfOpened's window
};

} // namespace bufferscope
