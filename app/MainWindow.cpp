#include "MainWindow.h"

#include "ColorScheme.h"
#include "HelpDialogs.h"
#include "Preferences.h"
#include "Workspace.h"
#include "charts/BreakdownChart.h"
#include "charts/LiveRangeGantt.h"
#include "charts/MemoryMap.h"
#include "charts/UsageChart.h"
#include "flows/ChartExportFlow.h"
#include "flows/DockLayout.h"
#include "flows/FileNotice.h"
#include "flows/FitFlow.h"
#include "flows/LoadStatus.h"
#include "flows/OomFlow.h"
#include "flows/OpenFlow.h"
#include "flows/RecentFiles.h"
#include "flows/RunFlow.h"
#include "model/ModuleNames.h"
#include "models/AllocationTreeModel.h"
#include "models/ByteSize.h"
#include "models/InstructionListModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"
#include "panels/BreakdownPanel.h"
#include "panels/CategoriesView.h"
#include "panels/SourceView.h"
#include "panels/ValueInspector.h"
#include "tables/CategorySwatchDelegate.h"
#include "tables/InstructionsView.h"
#include "tables/ModuleBrowser.h"
#include "tables/TableCsv.h"
#include "tables/ValueTableView.h"
#include "tables/WarningsView.h"
#include "windows/CompareView.h"
#include "windows/DialogFolders.h"
#include "windows/ExportDialog.h"
#include "windows/FitView.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <qcustomplot.h>

#include <spdlog/spdlog.h>

namespace bufferscope {

namespace {
const QString kColorSchemeKey = QStringLiteral("view/colorScheme");
const QString kBudgetKey = QStringLiteral("usage/budget");

/// The Open and Compare dialogs' filter: every kind of module file BufferScope reads (the one
/// table, ModuleNames::fileKinds) and profiler captures first; for Open, out-of-memory logs
/// too (the catalog knows them by their messages); then all files (a file whose name says
/// nothing is known by its bytes).
QString dumpFilter(bool logs = false)
{
    return QObject::tr("XLA modules and profiles (%1 *.xplane.pb);;%2All files (*)")
        .arg(QString::fromStdString(ModuleNames::dialogPatterns()),
             logs ? QObject::tr("Out-of-memory logs (*.log *.txt);;") : QString());
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_workspace(new Workspace(this)),
      m_valueModel(new ValueTableModel(this)), m_allocationModel(new AllocationTreeModel(this)),
      m_instructionModel(new InstructionListModel(this))
{
    setWindowTitle(tr("BufferScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/bufferscope.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks |
                   QMainWindow::AllowTabbedDocks);
    sizeToScreen();
    createViews();
    // The window is its flows, each with the workspace and the widgets it needs.
    m_docks = new DockLayout(this, {m_usage, m_gantt, m_map, m_valueView, m_breakdown, m_peakPanel,
                                    m_categories, m_inspector, m_allocationView, m_instructionView,
                                    m_warnings, m_modules, m_source});
    m_status = new LoadStatus(statusBar(), m_workspace);
    m_oom = new OomFlow(this, m_workspace);
    m_fit = new FitFlow(this, m_workspace, m_oom);
    m_run = new RunFlow(this, m_workspace);
    m_open = new OpenFlow(this, m_workspace, m_modules, m_docks->modules(), m_status, m_oom, m_fit);
    // A capture opened shows what its allocators did, beside the plan (issue 73).
    connect(m_open, &OpenFlow::captureOpened, m_run, &RunFlow::showRuntimeOfOpened);
    connect(m_oom, &OomFlow::opened, this, &MainWindow::oomOpened);
    connect(m_fit, &FitFlow::ready, this, &MainWindow::deviceFitReady);
    connect(m_open, &OpenFlow::reportOpened, this, &MainWindow::memoryUsageReportOpened);
    connect(m_workspace->jobs(), &JobRunner::outOfMemory, this, [this](const QString &lane) {
        const QString error =
            tr("BufferScope ran out of memory in its \"%1\" work, which stopped; the window "
               "and what it shows are as they were. A file it was reading may ask for more "
               "memory than this machine has.")
                .arg(lane);
        m_status->stopped(tr("Out of memory"));
        Q_EMIT errorShown(error);
        auto *box = new QMessageBox(QMessageBox::Critical, tr("Out of memory"), error,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setTextFormat(Qt::PlainText);
        box->open();
    });
    m_export = new ChartExportFlow(this);
    // Text fields take a file manager's drop as typed text (it offers the paths as text/plain
    // too): files dropped on one go on to the window, which opens them.
    for (QLineEdit *edit : findChildren<QLineEdit *>())
        edit->installEventFilter(this);
    createActions();
    connectViews();

    connect(m_workspace, &Workspace::dumpChanged, this, &MainWindow::takeDump);
    connect(m_workspace, &Workspace::dumpShown, this, &MainWindow::finishShowing);
    connect(m_workspace, &Workspace::loadFailed, this, &MainWindow::showError);
    // Another memory space on show is said, whoever switched it (an S(2) value selected).
    connect(m_workspace, &Workspace::memorySpaceChanged, this, [this](int space) {
        const int value = selection()->currentValue();
        const bool followed =
            current().dump && value >= 0 &&
            static_cast<std::size_t>(value) < current().dump->values.size() &&
            current().dump->values[static_cast<std::size_t>(value)].color == space;
        statusBar()->showMessage(
            followed
                ? tr("Memory Usage and What Fills Memory now show memory space S(%1), the "
                     "selected value's")
                      .arg(space)
                : tr("Memory Usage and What Fills Memory now show memory space S(%1)").arg(space),
            8000);
    });
    m_notice = new FileNotice(this);
    connect(m_notice, &FileNotice::warningsRequested, this, [this] { m_docks->raise(m_warnings); });
    m_docks->restore();
    applyPreferences(Preferences::load());
    m_workspace->setBudget(QSettings().value(kBudgetKey, 0).toLongLong());
    connect(m_usage, &UsageChart::heldExplanationRequested, this, [this] {
        m_docks->raise(m_peakPanel);
        m_peakPanel->revealFinding(Finding::Kind::HeldWhole);
    });
    connect(m_workspace, &Workspace::budgetChanged, this,
            [](qint64 bytes) { QSettings().setValue(kBudgetKey, bytes); });
    // The breakdown views cost O(values) per step: they follow the step only when seen.
    connect(m_docks->dockOf(m_breakdown), &QDockWidget::visibilityChanged, m_breakdown,
            &BreakdownChart::setOnScreen);
    connect(m_docks->dockOf(m_peakPanel), &QDockWidget::visibilityChanged, m_peakPanel,
            &BreakdownPanel::setOnScreen);
    m_notice->hide(); // a saved layout must not bring back an old notice
}

MainWindow::~MainWindow()
{
    // The windows it opened (Compare, out of memory, Device Fit) hand what they hold to the
    // workspace's job runner when they go: they go first, while the runner is there. Qt would
    // delete them after the workspace, which was created before them.
    const auto children = findChildren<QWidget *>(Qt::FindDirectChildrenOnly);
    for (QWidget *child : children)
        if (child->isWindow())
            delete child;
}

Selection *MainWindow::selection() const
{
    return m_workspace->selection();
}

const LoadedDump &MainWindow::current() const
{
    return m_workspace->current();
}

void MainWindow::sizeToScreen()
{
    DockLayout::sizeToScreen(this);
}

QToolBar *MainWindow::fileNotice() const
{
    return m_notice->bar();
}

QString MainWindow::fileNoticeText() const
{
    return m_notice->text();
}

QFileSystemWatcher *MainWindow::fileWatcher() const
{
    return m_notice->watcher();
}

void MainWindow::compareWith(const QString &path)
{
    // A folder (`bufferscope RUN_A --compare RUN_B`) is another run: the run on show compared
    // with it function by function, as File ▸ Compare With Another Run does.
    if (pathIsDir(path) && !m_workspace->run().roots.isEmpty()) {
        m_run->compareRuns(path);
        return;
    }
    if (!current().dump)
        return;
    statusBar()->showMessage(tr("Comparing with %1…").arg(QFileInfo(path).fileName()));
    auto *request = new QObject(this); // its own request, answered on its own
    m_workspace->compareWith(path, request,
                             [this, request](const ModuleComparison &c) { compared(request, c); });
}

void MainWindow::compareFiles(const QString &before, const QString &after)
{
    statusBar()->showMessage(
        tr("Comparing %1 with %2…").arg(QFileInfo(before).fileName(), QFileInfo(after).fileName()));
    auto *request = new QObject(this);
    m_workspace->compareFiles(before, after, request,
                              [this, request](const ModuleComparison &c) { compared(request, c); });
}

void MainWindow::compared(QObject *request, const ModuleComparison &c)
{
    // Each comparison asked is a request of its own (two asked at once open two windows; one
    // lane for all cancelled the first), and its token goes with its answer.
    request->deleteLater();
    if (c.diff) {
        openComparison(c.before, c.after, c.diff);
        return;
    }
    statusBar()->clearMessage();
    showError(c.path, c.error.isEmpty() ? tr("%1: comparison stopped").arg(c.path) : c.error);
    Q_EMIT compareFailed(c.path);
}

void MainWindow::openComparison(const LoadedDump &before, const LoadedDump &after,
                                std::shared_ptr<const DumpDiff> diff)
{
    statusBar()->clearMessage();
    auto *view = new CompareView(m_workspace->jobs(), this, Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    const QString beforeName = toQString(before.dump->module);
    const QString afterName = toQString(after.dump->module);
    view->setWindowTitle(tr("Compare %1 → %2 — BufferScope").arg(beforeName, afterName));
    view->setDumps(before.dump, before.timeline, beforeName, after.dump, after.timeline, afterName,
                   std::move(diff));
    // A row picked there selects its value here, when the dump on screen has it.
    connect(view, &CompareView::valuePicked, this,
            [this, shown = std::weak_ptr<const Dump>(before.dump)](int value, const QString &name) {
                const std::shared_ptr<const Dump> d = current().dump;
                if (value < 0 || !d || d != shown.lock()) {
                    statusBar()->showMessage(
                        tr("%1 is not in the dump on screen (added in the other one, or another "
                           "dump is open)")
                            .arg(name),
                        5000);
                    return;
                }
                selection()->setCurrentValue(value);
            });
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1100, 760);
    // Large enough for both curves and the tables; most of a large screen.
    view->resize(std::min(std::max(1100, available.width() * 3 / 4), available.width() - 16),
                 std::min(std::max(760, available.height() * 4 / 5), available.height() - 40));
    view->show();
    spdlog::debug("comparison window shown");
    Q_EMIT compareOpened(view);
}

void MainWindow::reload()
{
    m_notice->reload();
}

void MainWindow::createViews()
{
    m_usage = new UsageChart(m_workspace, this);
    m_usage->setWindowTitle(tr("Memory Usage"));
    m_gantt = new LiveRangeGantt(m_workspace, this);
    m_gantt->setWindowTitle(tr("Live Ranges"));
    m_map = new MemoryMap(m_workspace, this);
    m_map->setWindowTitle(tr("Memory Map"));
    m_breakdown = new BreakdownChart(m_workspace, this);
    m_breakdown->setWindowTitle(tr("Breakdown"));
    m_peakPanel = new BreakdownPanel(m_workspace, this);
    m_categories = new CategoriesView(m_workspace, this);
    m_inspector = new ValueInspector(m_workspace, this);
    m_source = new SourceView(this);
    connect(m_inspector, &ValueInspector::frameActivated, this, &MainWindow::showSource);
    // A frame picked in What Fills Memory shows in the Source dock when it is open.
    connect(m_peakPanel, &BreakdownPanel::framePicked, m_source, &SourceView::showPlace);
    connect(m_source, &SourceView::preferencesRequested, this, [this] {
        PreferencesDialog dialog(Preferences::load(), this);
        if (m_source->place().isValid())
            dialog.addMapping(QFileInfo(toQString(m_source->place().file)).absolutePath());
        if (dialog.exec() == QDialog::Accepted) {
            dialog.preferences().save();
            applyPreferences(dialog.preferences());
        }
    });
    m_valueView = new ValueTableView(m_valueModel, m_workspace, this);

    m_allocationView = new QTreeView(this);
    m_allocationView->setModel(m_allocationModel);
    m_allocationView->setItemDelegateForColumn(AllocationTreeModel::CategoryColumn,
                                               new CategorySwatchDelegate(m_allocationView));
    m_allocationView->setUniformRowHeights(true);
    m_allocationView->setSelectionBehavior(QAbstractItemView::SelectRows);
    TableCsv::addActions(m_allocationView, QStringLiteral("allocations"));

    m_instructionView = new InstructionsView(m_instructionModel, m_workspace, this);

    m_warnings = new WarningsView(m_workspace, this);
    m_modules = new ModuleBrowser(m_workspace, this);

    // The chart views and What Fills Memory take each dump the workspace shows themselves; the
    // tables, the inspector and the warnings are handed it here, after them.
    m_workspace->subscribe(m_valueModel, tr("values"), [this](const LoadedDump &loaded) {
        m_valueModel->setDump(loaded.dump);
        m_valueModel->setCategories(loaded.categories);
    });
    m_workspace->subscribe(
        m_allocationModel, tr("allocations, instructions"), [this](const LoadedDump &loaded) {
            m_allocationModel->setDump(loaded.dump, loaded.timeline->allocations());
            m_allocationModel->setCategories(loaded.categories);
            m_instructionView->setDump(loaded.dump, loaded.timeline);
            m_allocationView->resizeColumnToContents(0);
        });
    m_workspace->subscribe(m_inspector, tr("inspector, warnings"),
                           [this](const LoadedDump &loaded) {
                               m_inspector->setDump(loaded.dump);
                               m_warnings->setDiagnostics(loaded.dump, loaded.timeline->warnings());
                           });
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    m_docks->shown();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open buffer-assignment dumps"), DialogFolders::openFolder(shownFolder()),
            dumpFilter(true));
        if (!paths.isEmpty())
            openPaths(paths);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Open an --xla_dump_to folder"), DialogFolders::openFolder(shownFolder()));
        if (!dir.isEmpty())
            openPaths({dir});
    });
    m_recent = new RecentFiles(this, file->addMenu(tr("Open &Recent")));
    file->addAction(tr("Open &Sample"), this, &MainWindow::openEmbeddedSample);
    file->addAction(tr("Re&load"), this, &MainWindow::reload)->setShortcut(QKeySequence::Refresh);
    QAction *compare = file->addAction(tr("&Compare With…"), this, [this] {
        if (!current().dump)
            return;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare %1 with…").arg(toQString(current().dump->module)),
            DialogFolders::openFolder(shownFolder()), dumpFilter());
        if (!path.isEmpty()) {
            DialogFolders::rememberOpened(path);
            compareWith(path);
        }
    });
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    file->addSeparator();
    QAction *exportAction =
        file->addAction(tr("&Export Chart…"), this, [this] { m_export->showDialog(m_lastChart); });
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *paste =
        edit->addAction(tr("&Paste Out-of-Memory Message"), this, &MainWindow::pasteFromClipboard);
    paste->setShortcut(QKeySequence::Paste);
    paste->setToolTip(tr("Open the out-of-memory error on the clipboard, as copied from a "
                         "terminal, a log or an issue"));
    QAction *preferences = edit->addAction(tr("&Preferences…"), this, &MainWindow::showPreferences);
    preferences->setShortcut(QKeySequence::Preferences);
    preferences->setMenuRole(QAction::PreferencesRole);

    // The selection rules and their actions are the workspace's.
    QMenu *go = menuBar()->addMenu(tr("&Go"));
    go->addAction(m_workspace->action(Workspace::Action::PreviousStep));
    go->addAction(m_workspace->action(Workspace::Action::NextStep));
    go->addAction(m_workspace->action(Workspace::Action::GoToPeak));
    go->addSeparator();
    go->addAction(m_workspace->action(Workspace::Action::GoToProducer));
    go->addAction(m_workspace->action(Workspace::Action::GoToConsumer));
    go->addSeparator();
    go->addAction(m_workspace->action(Workspace::Action::ClearSelection));
    go->addSeparator();
    go->addAction(tr("In charts: ← → step, Shift ×10, Home/End"))->setEnabled(false);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *find = view->addAction(tr("&Find Value…"), this, [this] {
        m_docks->raise(m_valueView);
        m_valueView->filterEdit()->setFocus(Qt::ShortcutFocusReason);
        m_valueView->filterEdit()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    QAction *fit = view->addAction(tr("&Zoom to Fit"), this, [this] {
        for (ChartView *chart : chartViews())
            chart->resetZoom();
    });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    for (QDockWidget *dock : docks())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    QMenu *schemes = view->addMenu(tr("&Color Scheme"));
    auto *schemeGroup = new QActionGroup(this);
    const ColorScheme saved = colorSchemeFromName(QSettings().value(kColorSchemeKey).toString());
    for (const auto &[scheme, label] :
         {std::pair{ColorScheme::System, tr("Follow &System")},
          std::pair{ColorScheme::Light, tr("&Light")}, std::pair{ColorScheme::Dark, tr("&Dark")}}) {
        QAction *a = schemes->addAction(label, this, [scheme = scheme] {
            applyColorScheme(scheme);
            QSettings().setValue(kColorSchemeKey, colorSchemeName(scheme));
        });
        a->setCheckable(true);
        a->setChecked(scheme == saved);
        schemeGroup->addAction(a);
    }
    applyColorScheme(saved);

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    QAction *deviceFit = tools->addAction(tr("&Device Fit…"), this, [this] { showDeviceFit(); });
    deviceFit->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    deviceFit->setToolTip(tr("The open folder's modules on one device: what it holds while each "
                             "runs, against a limit"));
    m_run->addActions(tools, file, compare);
    tools->addAction(tr("Open an &Out-of-Memory Log…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open the log of a run that ran out of memory"),
                                         DialogFolders::openFolder(shownFolder()),
                                         tr("Logs (*.log *.txt *.out *.err);;All files (*)"));
        if (!path.isEmpty())
            openPaths({path});
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Getting a Dump…"), this, [this] { showGettingADump(this); });
    QAction *keys =
        help->addAction(tr("&Keyboard Shortcuts…"), this, [this] { showKeyboardShortcuts(this); });
    keys->setShortcut(QKeySequence::HelpContents);
    help->addSeparator();
    help->addAction(tr("&About BufferScope"), this, [this] { showAbout(this); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QTableView *MainWindow::instructionTable() const
{
    return m_instructionView->table();
}

QList<ChartView *> MainWindow::chartViews() const
{
    return {m_usage, m_gantt, m_map, m_breakdown};
}

QList<QDockWidget *> MainWindow::docks() const
{
    return m_docks->docks();
}

void MainWindow::connectViews()
{
    // All cross-view wiring lives here: views write the Selection and react to it, never to
    // each other.
    const auto selectFromTree = [this](const QModelIndex &index) {
        const int value = index.data(ValueIndexRole).toInt();
        if (value >= 0)
            selection()->setCurrentValue(value);
    };
    connect(m_allocationView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            selectFromTree);
    for (ChartView *view : chartViews()) {
        connect(view, &ChartView::exportRequested, m_export, &ChartExportFlow::showDialog);
        connect(view, &ChartView::csvWritten, m_export, &ChartExportFlow::csvWritten);
        // File → Export offers the chart last worked with first.
        connect(view->plot(), &QCustomPlot::mousePress, this, [this, view] { m_lastChart = view; });
    }

    connect(selection(), &Selection::currentValueChanged, this, [this](int value) {
        const QModelIndex index = m_allocationModel->indexOfValue(value);
        if (index.isValid()) {
            const QSignalBlocker blocker(m_allocationView->selectionModel());
            m_allocationView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_allocationView->scrollTo(index);
        }
    });
    connect(
        selection(), &Selection::highlightedGroupChanged, this,
        [this](const QVector<int> &values, const QString &label) {
            if (values.isEmpty())
                statusBar()->clearMessage();
            else
                statusBar()->showMessage(
                    values.size() == 1
                        ? tr("Picked: %1 (1 value)").arg(label)
                        : tr("Picked: %1 (%2 values)").arg(label, QString::number(values.size())));
        });
}

void MainWindow::applyPreferences(const Preferences &preferences)
{
    m_workspace->setLibraryPatterns(preferences.libraryPatterns);
    m_inspector->setLibraryPatterns(preferences.libraryPatterns);
    m_source->setPathMappings(preferences.pathMappings);
    m_source->setEditorCommand(preferences.editorCommand);
    if (!m_threadsFromCommandLine)
        m_workspace->setThreads(preferences.threads);
}

void MainWindow::setCommandLineThreads(int threads)
{
    m_threadsFromCommandLine = true;
    m_workspace->setThreads(threads);
}

void MainWindow::showBreakdownBy(Breakdown::Grouping grouping)
{
    m_peakPanel->setGrouping(grouping);
    m_docks->raise(m_peakPanel);
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(Preferences::load(), this);
    if (dialog.exec() == QDialog::Accepted) {
        dialog.preferences().save();
        applyPreferences(dialog.preferences());
    }
}

void MainWindow::showSource(const SourcePlace &place)
{
    m_source->showPlace(place);
    m_docks->raise(m_source);
}

void MainWindow::resetLayout()
{
    m_docks->reset();
}

bool MainWindow::openOomText(const QString &name, const std::string &text, const QStringList &dumps)
{
    // Text with no message is said so at once (the check is a scan for a few phrases); the
    // messages are read, and the folders listed, on a job.
    if (!Opened::holdsOomMessage(text))
        return m_oom->open(name, text);
    m_workspace->openText(name, text, dumps, this,
                          [this](OomFindings findings, const Opened &opened) {
                              m_oom->open(std::move(findings), opened.modules);
                          });
    return true;
}

FitView *MainWindow::showDeviceFit(const QString &limit)
{
    return m_fit->show(limit);
}

void MainWindow::pasteFromClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (Opened::holdsOomMessage(text.toStdString())) {
        openOomText(tr("(pasted)"), text.toStdString());
        return;
    }
    // Paths, one per line (a file manager's copy).
    QStringList paths;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString p = line.trimmed();
        const QString local = p.startsWith(QLatin1String("file://")) ? QUrl(p).toLocalFile() : p;
        if (!local.isEmpty() && QFileInfo::exists(local))
            paths << local;
    }
    if (!paths.isEmpty()) {
        openPaths(paths);
        return;
    }
    statusBar()->showMessage(tr("The clipboard holds no out-of-memory message and no path to open"),
                             8000);
}

QString MainWindow::shownFolder() const
{
    return current().dump && !current().isEmbedded() && !current().path.isEmpty()
               ? QFileInfo(current().path).absolutePath()
               : QString();
}

void MainWindow::openPaths(const QStringList &paths)
{
    m_open->openPaths(paths);
}

void MainWindow::openListed(const DumpFiles &found)
{
    m_open->openListed(found);
}

void MainWindow::openPath(const QString &path)
{
    m_open->openPath(path);
}

void MainWindow::openAllocation(const QString &path, qint64 allocation)
{
    // Asked from another window (Runtime Memory): the module is shown here, so come forward.
    raise();
    activateWindow();
    if (current().dump && !current().isEmbedded() && current().path == path) {
        selectAllocation(allocation);
        return;
    }
    m_pendingAllocation = {path, allocation};
    openPath(path);
}

void MainWindow::selectAllocation(qint64 allocation)
{
    const LoadedDump &loaded = current();
    if (!loaded.dump || allocation < 0)
        return;
    const Dump &dump = *loaded.dump;
    for (const Allocation &a : dump.allocations) {
        if (a.index != allocation)
            continue;
        // Its largest value stands for it: current in every view, its row in Allocations.
        int best = -1;
        for (std::uint32_t k = 0; k < a.valueCount; ++k) {
            const auto v = static_cast<int>(dump.allocationValues[a.firstValue + k]);
            if (best < 0 || dump.values[static_cast<std::size_t>(v)].size >
                                dump.values[static_cast<std::size_t>(best)].size)
                best = v;
        }
        if (best >= 0)
            selection()->setCurrentValue(best);
        statusBar()->showMessage(tr("Allocation %1 (%2), where the runtime's allocation of "
                                    "that size belongs")
                                     .arg(allocation)
                                     .arg(humanBytesText(a.size)));
        return;
    }
}

void MainWindow::openEmbeddedSample()
{
    m_workspace->load(QStringLiteral(":/sample/gpu_decoder_layer.buffer-assignment.txt"));
}

void MainWindow::takeDump()
{
    // The workspace hands the new dump to the views, a few per turn of the event loop, so the
    // window keeps painting and answering: the summary first, the charts as they are filled.
    const LoadedDump &loaded = current();
    setWindowTitle(tr("%1 — BufferScope").arg(toQString(loaded.dump->module)));
    m_status->show(loaded);
    // A frame's relative file is looked for next to the dump, never in the current folder.
    m_source->setDumpFolder(loaded.isEmbedded() ? QString()
                                                : QFileInfo(loaded.path).absolutePath());
}

void MainWindow::finishShowing()
{
    // Every view holds the new dump now; the selection is live again, at the peak.
    const LoadedDump &loaded = current();
    const std::size_t warningCount = loaded.warningCount();
    m_docks->warnings()->setWindowTitle(warningCount > 0 ? tr("Warnings (%1)").arg(warningCount)
                                                         : tr("Warnings"));
    if (!loaded.isEmbedded()) {
        // A capture's member is no place of its own: Open Recent keeps its capture (the run
        // OpenFlow recorded), never the joined `capture#member` address.
        const ModuleRef ref = m_workspace->run().refOf(loaded.path);
        m_recent->add(ref.format == ModuleFormat::CaptureMember ? pathFromBytes(ref.container)
                                                                : loaded.path);
    }
    m_notice->dumpShown(loaded);
    m_modules->setOpenFile(loaded.path);
    m_oom->dumpShown();
    if (!m_pendingAllocation.path.isEmpty() && m_pendingAllocation.path == loaded.path)
        selectAllocation(std::exchange(m_pendingAllocation, {}).allocation);
    Q_EMIT dumpShown();
}

void MainWindow::showError(const QString &path, const QString &error)
{
    m_status->stopped(tr("Could not open %1").arg(QFileInfo(path).fileName()));
    m_notice->openFailed(path, current());
    spdlog::debug("could not open: {}", error.toStdString());
    Q_EMIT errorShown(error);
    // Window-modal but not blocking: loading, tests and --screenshot runs carry on.
    auto *box = new QMessageBox(QMessageBox::Critical, tr("Cannot open dump"), error,
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::PlainText); // the error quotes the file's own text
    box->open();
}

void MainWindow::rememberRecent(const QString &path)
{
    m_recent->add(path);
}

QStringList MainWindow::recentFiles() const
{
    return m_recent->files();
}

bool MainWindow::exportView(ChartView *view, const QString &path, const ExportOptions &options)
{
    return m_export->exportView(view, path, options);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    // Taken only what a drop would open: a local file or folder, or the text of an
    // out-of-memory message (a web address or stray text is refused at once, not on drop).
    const QMimeData *mime = event->mimeData();
    const QList<QUrl> urls = mime->urls();
    const bool files =
        std::any_of(urls.begin(), urls.end(), [](const QUrl &url) { return url.isLocalFile(); });
    if (files ||
        (urls.isEmpty() && mime->hasText() && Opened::holdsOomMessage(mime->text().toStdString())))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls)
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (paths.isEmpty()) {
        // Dropped text: an out-of-memory message selected in a terminal or a browser.
        const QString text = event->mimeData()->text();
        if (Opened::holdsOomMessage(text.toStdString())) {
            event->acceptProposedAction();
            openOomText(tr("(dropped)"), text.toStdString());
        }
        return;
    }
    event->acceptProposedAction();
    openPaths(paths);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (type == QEvent::DragEnter || type == QEvent::DragMove || type == QEvent::Drop) {
        const QList<QUrl> urls = static_cast<QDropEvent *>(event)->mimeData()->urls();
        if (std::any_of(urls.begin(), urls.end(),
                        [](const QUrl &url) { return url.isLocalFile(); })) {
            event->ignore(); // QApplication passes it to the parents: this window
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_workspace->cancelLoad();
    m_docks->save();
    QMainWindow::closeEvent(event);
}

} // namespace bufferscope
