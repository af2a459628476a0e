#include "OpenFlow.h"

#include "FitFlow.h"
#include "LoadStatus.h"
#include "OomFlow.h"
#include "WindowServices.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "parse/XPlaneModules.h"
#include "tables/ModuleBrowser.h"
#include "windows/DialogFolders.h"
#include "windows/MemoryUsageReportView.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QStatusBar>

namespace bufferscope {

OpenFlow::OpenFlow(WindowServices *window, Workspace *workspace, ModuleBrowser *modules,
                   QDockWidget *modulesDock, LoadStatus *status, OomFlow *oom, FitFlow *fit)
    : QObject(window->mainWindow()), m_window(window), m_workspace(workspace), m_modules(modules),
      m_modulesDock(modulesDock), m_status(status), m_oom(oom), m_fit(fit)
{
    connect(modules, &ModuleBrowser::moduleActivated, this, &OpenFlow::openPath);
    connect(workspace, &Workspace::runRead, this, &OpenFlow::sayIfNoneRead);
}

void OpenFlow::openPaths(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    DialogFolders::rememberOpened(paths.front());
    m_workspace->open(paths, this, [this](const Opened &opened) { openClassified(opened); });
}

void OpenFlow::openPath(const QString &path)
{
    // The user chose (in the Modules dock, in Run Summary): a module of the run loads as
    // listed, neither classified again nor the list made again.
    if (m_workspace->run().modules.files.contains(path)) {
        m_workspace->load(path);
        return;
    }
    m_workspace->open({path}, this, [this](const Opened &opened) {
        for (const Opened::Report &r : opened.reports)
            openReport(r);
        for (const OpenProblem &problem : opened.problems)
            m_window->showError(problem.path, problem.text());
        for (const Opened::Log &log : opened.oomLogs)
            m_oom->open(log.findings);
        for (const QString &file : opened.modules.files)
            m_workspace->load(file);
    });
}

void OpenFlow::openClassified(const Opened &opened)
{
    // A folder or a capture is recorded as what was opened, not only the module shown.
    for (const QString &run : opened.runs)
        m_window->rememberRecent(run);
    for (const QString &run : opened.runs)
        if (XPlaneModules::isCaptureName(pathBytes(run)) && pathIsFile(run))
            Q_EMIT captureOpened(run);
    for (const OpenProblem &problem : opened.problems)
        m_window->showError(problem.path, problem.text());
    for (const Opened::Report &r : opened.reports)
        openReport(r);
    // An out-of-memory log among them: its window, with the rest as where its module is.
    if (!opened.oomLogs.isEmpty()) {
        for (const Opened::Log &log : opened.oomLogs)
            m_oom->open(log.findings, opened.modules);
        return;
    }
    if (!opened.modules.files.isEmpty() || !opened.modules.problems.isEmpty())
        openListed(opened.modules, opened.runs);
}

void OpenFlow::openReport(const Opened::Report &r)
{
    if (!r.report) {
        m_window->showError(r.path, r.error);
        return;
    }
    auto *view = new MemoryUsageReportView(*r.report, r.path, m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->show();
    Q_EMIT reportOpened(view);
    m_window->status()->showMessage(
        tr("%1 is XLA's memory-usage report; its module's dump is not beside it")
            .arg(QFileInfo(r.path).fileName()),
        10000);
}

void OpenFlow::openListed(const DumpFiles &found, const QStringList &roots)
{
    QStringList said;
    for (const OpenProblem &p : found.problems)
        said << p.text();
    if (!found.problems.isEmpty() && found.files.isEmpty()) {
        m_window->showError(found.problems.front().path, said.join(QLatin1Char('\n')));
        return;
    }
    if (!found.problems.isEmpty()) {
        // What the walk skipped, short enough for the status bar: the first by its file's
        // name and why, and how many more (the command line's `list` names every one).
        const OpenProblem &first = found.problems.front();
        const QString one = QFileInfo(first.path).fileName() + QStringLiteral(": ") + first.message;
        m_window->status()->showMessage(
            found.problems.size() == 1
                ? one
                : tr("%1 entries skipped (the first, %2); bufferscope list names them all")
                      .arg(QString::number(found.problems.size()), one),
            15000);
    }
    // The workspace shows the module itself: at once, or the one the device holds most for
    // when all are read (Workspace::openRun). Opening another meanwhile keeps that one.
    const Workspace::RunShown shown = m_workspace->openRun(Run(roots, found));
    m_modules->showRun();
    if (found.files.size() == 1)
        return;
    m_modulesDock->show();
    m_modulesDock->raise();
    if (shown == Workspace::RunShown::WhenRead)
        m_status->setText(tr("Reading %1 modules; the one the device holds most for opens "
                             "when they are read")
                              .arg(found.files.size()));
}

void OpenFlow::sayIfNoneRead()
{
    const Run &run = m_workspace->run();
    if (run.modules.files.size() > 1 && run.largest().isEmpty())
        m_status->setText(tr("None of the %1 modules could be read; the Modules list says why")
                              .arg(run.modules.files.size()));
}

} // namespace bufferscope
