#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace bufferscope {

class FitView;
class WindowServices;
class OomFlow;
class Workspace;

/// Tools ▸ Device Fit: the modules of the open folder (or the open module) on one device,
/// measured on a job, in a window of its own that shares the budget with Memory Usage.
class FitFlow : public QObject
{
    Q_OBJECT
public:
    FitFlow(WindowServices *window, Workspace *workspace, OomFlow *oom);

    /// Opens the window; `limit` as FitView::setLimit, empty: the budget, or the limit of the
    /// out-of-memory message open.
    FitView *show(const QString &limit = {});

Q_SIGNALS:
    /// The window has its modules measured.
    void ready(QWidget *view);

private:
    WindowServices *m_window;
    Workspace *m_workspace;
    OomFlow *m_oom;
};

} // namespace bufferscope
