#include "FitFlow.h"

#include "OomFlow.h"
#include "WindowServices.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "windows/FitView.h"
#include "windows/OomView.h"

#include <QPointer>
#include <QStatusBar>

namespace bufferscope {

FitFlow::FitFlow(WindowServices *window, Workspace *workspace, OomFlow *oom)
    : QObject(window->mainWindow()), m_window(window), m_workspace(workspace), m_oom(oom)
{}

FitView *FitFlow::show(const QString &limit)
{
    // The run open (the workspace's Run), else the module on show.
    QStringList files = m_workspace->run().modules.files;
    if (const LoadedDump &shown = m_workspace->current();
        files.isEmpty() && shown.dump && !shown.isEmbedded())
        files << shown.path;
    auto *view = new FitView(m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    // One budget: a limit chosen in Device Fit is the Memory Usage budget too.
    connect(view, &FitView::limitChosen, m_workspace, &Workspace::setBudget);
    if (!limit.isEmpty())
        view->setLimit(limit);
    else if (m_workspace->budget() > 0)
        view->setLimit(QString::number(m_workspace->budget())); // exact, in bytes
    // An out-of-memory message open: the device's limit and InUse it states.
    if (const OomView *oom = m_oom->last(); oom && limit.isEmpty()) {
        const OomMessage &m =
            oom->findings().log.messages[static_cast<std::size_t>(oom->message())];
        if (m.capacity > 0 || m.inUse > 0)
            view->setLogFigures(toQString(oom->findings().file), m.capacity, m.inUse);
    }
    view->show();
    if (files.isEmpty()) {
        view->setModules({});
        Q_EMIT ready(view);
        return view;
    }
    QPointer<FitView> guard(view);
    view->setMeasuring(0, static_cast<int>(files.size()));
    m_workspace->measureModules(
        files, view,
        [guard](int done, int total) {
            if (guard)
                guard->setMeasuring(done, total);
        },
        [this, guard](const std::vector<DeviceFit::Module> &modules, const QStringList &errors) {
            if (!guard)
                return;
            guard->setModules(modules);
            if (!errors.isEmpty())
                m_window->status()->showMessage(errors.join(QStringLiteral("; ")), 10000);
            Q_EMIT ready(guard);
        });
    return view;
}

} // namespace bufferscope
