#pragma once

#include <QObject>

class QMenu;

namespace bufferscope {

class FitFlow;
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
    /// `fit` knows the modules of the folder opened last (FitFlow::moduleFiles).
    RunFlow(WindowServices *window, Workspace *workspace, FitFlow *fit);
    /// Puts its action in `tools`.
    void addActions(QMenu *tools);
    RunSummaryView *show();

Q_SIGNALS:
    /// The window has its summary.
    void ready(RunSummaryView *view);

private:
    WindowServices *m_window;
    Workspace *m_workspace;
    FitFlow *m_fit;
};

} // namespace bufferscope
