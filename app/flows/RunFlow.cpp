#include "RunFlow.h"

#include "FitFlow.h"
#include "RunSummaryView.h"
#include "WindowServices.h"
#include "Workspace.h"

#include <QFileInfo>
#include <QMenu>
#include <QPointer>

namespace bufferscope {

RunFlow::RunFlow(WindowServices *window, Workspace *workspace, FitFlow *fit)
    : QObject(window->mainWindow()), m_window(window), m_workspace(workspace), m_fit(fit)
{}

void RunFlow::addActions(QMenu *tools)
{
    QAction *run = tools->addAction(tr("&Run Summary…"), this, [this] { show(); });
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    run->setToolTip(tr("The open folder as one run: its functions and why each was compiled "
                       "again, the largest modules and collective buffers"));
}

RunSummaryView *RunFlow::show()
{
    QStringList files = m_fit->moduleFiles();
    if (const LoadedDump &shown = m_workspace->current();
        files.isEmpty() && shown.dump && !shown.isEmbedded())
        files << shown.path;
    auto *view = new RunSummaryView(m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    connect(view, &RunSummaryView::moduleActivated, this,
            [this](const QString &file) { m_window->openPaths({file}); });
    view->show();
    QString folder = m_window->shownFolder();
    if (folder.isEmpty() && !files.isEmpty())
        folder = QFileInfo(files.front()).path();
    QPointer<RunSummaryView> guard(view);
    view->setReading(0, static_cast<int>(files.size()));
    m_workspace->summarizeRun(
        files, view,
        [guard](int done, int total) {
            if (guard)
                guard->setReading(done, total);
        },
        [this, guard, folder](const RunSummary &summary) {
            if (!guard)
                return;
            guard->setSummary(summary, folder);
            Q_EMIT ready(guard);
        });
    return view;
}

} // namespace bufferscope
