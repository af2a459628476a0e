#include "RunFlow.h"

#include "WindowServices.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "parse/XPlaneModules.h"
#include "windows/DialogFolders.h"
#include "windows/RunDiffView.h"
#include "windows/RunSummaryView.h"
#include "windows/RuntimeMemoryView.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QPointer>

#include <spdlog/spdlog.h>

namespace bufferscope {

RunFlow::RunFlow(WindowServices *window, Workspace *workspace)
    : QObject(window->mainWindow()), m_window(window), m_workspace(workspace)
{}

void RunFlow::addActions(QMenu *tools, QMenu *file, QAction *compare)
{
    const QList<QAction *> fileActions = file->actions();
    const qsizetype at = fileActions.indexOf(compare);
    auto *runs = new QAction(tr("Compare With Another R&un…"), file);
    runs->setToolTip(tr("The open folder and another one compared as two runs, function by "
                        "function"));
    file->insertAction(at >= 0 && at + 1 < fileActions.size() ? fileActions[at + 1] : nullptr,
                       runs);
    connect(runs, &QAction::triggered, this, [this] {
        const QString folder = runOpen().label();
        if (folder.isEmpty()) {
            m_window->showError({}, tr("Open a dump folder first: a run is a folder of modules"));
            return;
        }
        const QString other = QFileDialog::getExistingDirectory(
            m_window->mainWindow(), tr("Compare %1 with the run in…").arg(folder),
            DialogFolders::openFolder(folder));
        if (!other.isEmpty())
            compareRuns(other);
    });
    QAction *run = tools->addAction(tr("&Run Summary…"), this, [this] { show(); });
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    QAction *runtime = tools->addAction(tr("Runtime &Memory…"), this, [this] { showRuntime(); });
    runtime->setToolTip(tr("What the allocators of the profiler capture open really did: "
                           "their bytes in use over time, the peak, and what was live then"));
    run->setToolTip(tr("The open folder as one run: its functions and why each was compiled "
                       "again, the largest modules and collective buffers"));
}

RuntimeMemoryView *RunFlow::showRuntime()
{
    // The capture open: the first capture among what was opened.
    QString capture;
    for (const QString &root : m_workspace->run().roots)
        if (capture.isEmpty() && XPlaneModules::isCaptureName(pathBytes(root)) && pathIsFile(root))
            capture = root;
    if (capture.isEmpty()) {
        auto *view = new RuntimeMemoryView(m_window->mainWindow());
        view->setAttribute(Qt::WA_DeleteOnClose);
        view->show();
        view->setError(tr("No capture"),
                       tr("open a profiler capture (*.xplane.pb, File ▸ Open) to see what its "
                          "allocators did"));
        Q_EMIT runtimeReady(view);
        return view;
    }
    return runtimeWindow(capture, false);
}

void RunFlow::showRuntimeOfOpened(const QString &capture)
{
    if (m_opened && m_opened->capture() == capture) {
        if (m_opened->isVisible()) {
            m_opened->raise();
            m_opened->activateWindow();
        }
        return;
    }
    if (m_opened && !m_opened->isVisible())
        m_opened->deleteLater(); // another capture's, still reading
    m_opened = runtimeWindow(capture, true);
}

RuntimeMemoryView *RunFlow::runtimeWindow(const QString &capture, bool whenRead)
{
    auto *view = new RuntimeMemoryView(m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    if (!whenRead)
        view->show();
    // An allocation live at the peak opens its module with the allocation of its size picked.
    connect(view, &RuntimeMemoryView::allocationActivated, this,
            [this, view](const QString &member, qint64 allocation) {
                m_window->openAllocation(pathFromBytes(Catalog::memberPath(
                                             pathBytes(view->capture()), pathBytes(member))),
                                         allocation);
            });
    view->setReading(capture);
    QPointer<RuntimeMemoryView> guard(view);
    m_workspace->readRuntimeMemory(
        capture, view,
        [this, guard, capture, whenRead](std::shared_ptr<const RuntimeMemory> memory,
                                         const QString &error) {
            if (!guard)
                return;
            if (!memory && whenRead) {
                spdlog::debug("no Runtime Memory window for {}: {}", capture.toStdString(),
                              error.toStdString());
                guard->deleteLater();
                return;
            }
            if (memory)
                guard->setMemory(capture, std::move(memory));
            else
                guard->setError(capture, error);
            guard->show();
            Q_EMIT runtimeReady(guard);
        });
    return view;
}

Run RunFlow::runOpen() const
{
    // The run the window has open; with none (a module given by name), the folder of the
    // module on show, listed as a run.
    if (!m_workspace->run().isEmpty())
        return m_workspace->run();
    const QString folder = m_window->shownFolder();
    if (folder.isEmpty())
        return {};
    return Run({folder}, {}); // listed on the compare job, not here on the GUI thread
}

RunDiffView *RunFlow::compareRuns(const QString &other)
{
    const Run opened = runOpen();
    const QString folder = opened.label();
    auto *view = new RunDiffView(m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    connect(view, &RunDiffView::compareModules, this,
            [this](const QString &before, const QString &after) {
                m_window->compareFiles(before, after);
            });
    // A module of either run opens as one of the Modules dock would: the run stays listed.
    connect(view, &RunDiffView::openModule, this,
            [this](const QString &file) { m_window->openPath(file); });
    view->setReading(tr("Reading both runs and comparing them: %1 and %2…").arg(folder, other));
    view->show();
    QPointer<RunDiffView> guard(view);
    m_workspace->compareRuns(opened, other, view, [this, guard, folder, other](const RunDiff &d) {
        if (!guard)
            return;
        guard->setDiff(d, folder, other);
        Q_EMIT runsCompared(guard);
    });
    return view;
}

RunSummaryView *RunFlow::show()
{
    QStringList files = m_workspace->run().modules.files;
    if (const LoadedDump &shown = m_workspace->current();
        files.isEmpty() && shown.dump && !shown.isEmbedded())
        files << shown.path;
    auto *view = new RunSummaryView(m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    // A module double-clicked opens as one of the Modules dock would: the run stays listed,
    // for the Modules dock, Device Fit and the next Run Summary.
    connect(view, &RunSummaryView::moduleActivated, this,
            [this](const QString &file) { m_window->openPath(file); });
    view->show();
    QString folder = m_workspace->run().label();
    if (folder.isEmpty())
        folder = m_window->shownFolder();
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
