#include "MainWindow.h"

#include "BreakdownChart.h"
#include "BreakdownPanel.h"
#include "ColorScheme.h"
#include "CommandLine.h"
#include "CompareView.h"
#include "DialogFolders.h"
#include "DumpFiles.h"
#include "ElidedLabel.h"
#include "ExportDialog.h"
#include "FitView.h"
#include "HelpDialogs.h"
#include "InstructionsView.h"
#include "LiveRangeGantt.h"
#include "MemoryMap.h"
#include "MemoryUsageReportView.h"
#include "ModuleBrowser.h"
#include "OomView.h"
#include "Preferences.h"
#include "SourceView.h"
#include "TableCsv.h"
#include "UsageChart.h"
#include "ValueInspector.h"
#include "ValueTableView.h"
#include "WarningsView.h"
#include "Workspace.h"
#include "models/AllocationTreeModel.h"
#include "models/InstructionListModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"
#include "parse/DumpParser.h"
#include "parse/MappedFile.h"
#include "parse/ModuleFiles.h"
#include "parse/OomMessage.h"
#include "util/Parallel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <qcustomplot.h>

#include <spdlog/spdlog.h>

namespace bufferscope {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kSampleHintKey = QStringLiteral("hints/sampleDismissed");
const QString kColorSchemeKey = QStringLiteral("view/colorScheme");
const QString kBudgetKey = QStringLiteral("usage/budget");
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
    createDocks();
    // Text fields take a file manager's drop as typed text (it offers the paths as text/plain
    // too): files dropped on one go on to the window, which opens them.
    for (QLineEdit *edit : findChildren<QLineEdit *>())
        edit->installEventFilter(this);
    createActions();
    connectViews();

    m_statusFile = new ElidedLabel(this);
    m_statusTotals = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(220);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, m_workspace, &Workspace::cancelLoad);
    statusBar()->addWidget(m_statusFile, 1);
    statusBar()->addPermanentWidget(m_statusTotals);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_statusFile->setText(tr("Drop a *-buffer-assignment.txt file or an --xla_dump_to folder "
                             "here, or use File → Open."));

    connect(m_workspace, &Workspace::loadStarted, this, [this](const QString &path) {
        m_loadingName = QFileInfo(path).fileName();
        m_statusFile->setText(tr("Loading %1…").arg(m_loadingName));
        m_loadClock.start();
        m_progress->setValue(0);
        m_progress->setFormat(QStringLiteral("%p%"));
        m_progress->show();
        m_cancel->show();
    });
    connect(m_workspace, &Workspace::loadProgress, this, [this](qint64 done, qint64 total) {
        m_progress->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 0);
        // The bar shows the percentage; the status line the bytes and the time left.
        m_statusFile->setText(
            tr("Loading %1: %2")
                .arg(m_loadingName, progressText(done, total, m_loadClock.elapsed())));
    });
    connect(m_workspace, &Workspace::dumpChanged, this, &MainWindow::takeDump);
    connect(m_workspace, &Workspace::dumpShown, this, &MainWindow::finishShowing);
    connect(m_workspace, &Workspace::loadFailed, this, &MainWindow::showError);
    connect(m_workspace, &Workspace::loadCancelled, this, [this](const QString &path) {
        m_progress->hide();
        m_cancel->hide();
        m_statusFile->setText(tr("Loading %1 cancelled").arg(QFileInfo(path).fileName()));
        ModuleFigures notRead;
        notRead.status = ModuleFigures::Status::NotRead;
        notRead.error = tr("loading was cancelled");
        m_modules->setKnownResult(path, notRead);
    });
    connect(m_workspace, &Workspace::compareReady, this, &MainWindow::openComparison);
    // Another memory space on show is said, whoever switched it: selecting an S(2) value moves
    // the usage chart there (issue 35, item 21).
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
    connect(m_workspace, &Workspace::compareFailed, this,
            [this](const QString &path, const QString &error) {
                statusBar()->clearMessage();
                showError(path, error);
            });
    createFileNotice();
    restoreSettings();
    applyPreferences(Preferences::load());
    m_usage->setBudget(QSettings().value(kBudgetKey, 0).toLongLong());
    connect(m_usage, &UsageChart::heldExplanationRequested, this, [this] {
        if (auto *dock = qobject_cast<QDockWidget *>(m_peakPanel->parentWidget())) {
            dock->show();
            dock->raise();
        }
        m_peakPanel->revealFinding(Finding::Kind::HeldWhole);
    });
    connect(m_usage, &UsageChart::budgetChanged, this,
            [](qint64 bytes) { QSettings().setValue(kBudgetKey, bytes); });
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
    // The screen's available area (less the window manager's frame), up to 2400 × 1400: a tool
    // kept open all day, with charts that want width. Smaller screens (1366 × 768) likewise, so
    // the status bar and the right-hand docks are on screen.
    const QScreen *screen = QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000);
    const QSize frame(16, 40); // title bar and borders the window manager adds
    const QSize size(std::min(2400, available.width() - frame.width()),
                     std::min(1400, available.height() - frame.height()));
    resize(size);
    move(available.topLeft() + QPoint((available.width() - size.width()) / 2,
                                      (available.height() - size.height() - frame.height()) / 2));
}

void MainWindow::createFileNotice()
{
    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::fileChangedOnDisk);
    m_notice = new QToolBar(tr("File Notice"), this);
    m_notice->setObjectName(QStringLiteral("FileNotice"));
    m_notice->setMovable(false);
    m_notice->setFloatable(false);
    m_notice->toggleViewAction()->setVisible(false);
    auto *icon = new QLabel(m_notice);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(16, 16));
    m_notice->addWidget(icon);
    m_noticeText = new QLabel(m_notice);
    m_noticeText->setContentsMargins(6, 0, 12, 0);
    // It quotes file names, module names and the dump's own warnings: text, never markup.
    m_noticeText->setTextFormat(Qt::PlainText);
    m_notice->addWidget(m_noticeText);
    m_noticeReload = m_notice->addAction(tr("Reload"), this, &MainWindow::reload);
    m_noticeHelp =
        m_notice->addAction(tr("Getting a Dump…"), this, [this] { showGettingADump(this); });
    m_noticeWarnings = m_notice->addAction(tr("Show Warnings"), this, [this] {
        m_warningsDock->show();
        m_warningsDock->raise();
    });
    m_notice->addAction(tr("Dismiss"), this, [this] {
        // The first-run hint stays dismissed; file notices come back on the next change.
        if (m_noticeHelp->isVisible())
            QSettings().setValue(kSampleHintKey, true);
        m_notice->hide();
    });
    addToolBar(Qt::TopToolBarArea, m_notice);
}

void MainWindow::showNotice(const QString &text, bool offerReload, bool offerHelp,
                            bool offerWarnings)
{
    m_noticeText->setText(text);
    m_noticeReload->setVisible(offerReload);
    m_noticeHelp->setVisible(offerHelp);
    m_noticeWarnings->setVisible(offerWarnings);
    m_notice->show();
}

QString MainWindow::fileNoticeText() const
{
    return m_notice->isHidden() ? QString() : m_noticeText->text();
}

void MainWindow::watch(const LoadedDump &loaded)
{
    if (const QStringList old = m_watcher->files(); !old.isEmpty())
        m_watcher->removePaths(old);
    if (loaded.path.startsWith(QLatin1Char(':')))
        return;
    for (const SourceFile &f : loaded.dump->files)
        m_watcher->addPath(toQString(f.path));
}

void MainWindow::fileChangedOnDisk(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (QFileInfo::exists(path)) {
        // Editors and copy tools often replace a file (delete + rename): watch the new one.
        if (!m_watcher->files().contains(path))
            m_watcher->addPath(path);
        showNotice(tr("%1 changed on disk. Reload it to see the new version (F5).").arg(name), true,
                   false);
    } else {
        showNotice(tr("%1 was deleted or moved. BufferScope keeps showing the version it loaded.")
                       .arg(name),
                   false, false);
    }
}

void MainWindow::compareWith(const QString &path)
{
    if (!current().dump)
        return;
    statusBar()->showMessage(tr("Comparing with %1…").arg(QFileInfo(path).fileName()));
    m_workspace->compareWith(path);
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
    const LoadedDump &shown = current();
    if (!shown.dump || shown.isEmbedded())
        return;
    ReloadState state;
    state.path = shown.path;
    if (const int v = selection()->currentValue(); v >= 0)
        state.valueKey = toQString(shown.dump->valueKey(shown.dump->values[v]));
    state.step = selection()->currentStep();
    for (ChartView *view : chartViews())
        state.ranges.emplace_back(view, view->ranges());
    m_reload = std::move(state);
    m_notice->hide();
    openPath(m_reload->path);
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
    m_inspector = new ValueInspector(selection(), this);
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
    m_allocationView->setUniformRowHeights(true);
    m_allocationView->setSelectionBehavior(QAbstractItemView::SelectRows);
    TableCsv::addActions(m_allocationView, QStringLiteral("allocations"));

    m_instructionView = new InstructionsView(m_instructionModel, m_workspace, this);

    m_warnings = new WarningsView(selection(), this);
    m_modules = new ModuleBrowser(m_workspace, this);

    // The chart views and What Fills Memory take each dump the workspace shows themselves; the
    // tables, the inspector and the warnings are handed it here, after them.
    m_workspace->subscribe(m_valueModel, tr("values"), [this](const LoadedDump &loaded) {
        m_valueModel->setDump(loaded.dump);
    });
    m_workspace->subscribe(
        m_allocationModel, tr("allocations, instructions"), [this](const LoadedDump &loaded) {
            m_allocationModel->setDump(loaded.dump, loaded.timeline->allocations());
            m_instructionView->setDump(loaded.dump, loaded.timeline);
            m_allocationView->resizeColumnToContents(0);
        });
    m_workspace->subscribe(m_inspector, tr("inspector, warnings"),
                           [this](const LoadedDump &loaded) {
                               m_inspector->setDump(loaded.dump);
                               m_warnings->setDiagnostics(loaded.dump, loaded.timeline->warnings());
                           });
}

QDockWidget *MainWindow::addDock(QWidget *widget, const QString &title, const QString &objectName)
{
    auto *dock = new QDockWidget(title, this);
    // Fixed object names: saveState()/restoreState() find docks by them.
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    return dock;
}

void MainWindow::createDocks()
{
    // Default arrangement for 1600x1000: charts on the left two thirds (usage on top, Gantt and
    // map side by side), tables below them; inspector and the tree/sequence on the right.
    QDockWidget *usage = addDock(m_usage, tr("Memory Usage"), QStringLiteral("UsageDock"));
    QDockWidget *gantt = addDock(m_gantt, tr("Live Ranges"), QStringLiteral("GanttDock"));
    QDockWidget *map = addDock(m_map, tr("Memory Map"), QStringLiteral("MemoryMapDock"));
    QDockWidget *values = addDock(m_valueView, tr("Values"), QStringLiteral("ValuesDock"));
    QDockWidget *breakdown = addDock(m_breakdown, tr("Breakdown"), QStringLiteral("BreakdownDock"));
    QDockWidget *peak =
        addDock(m_peakPanel, tr("What Fills Memory"), QStringLiteral("WhatFillsMemoryDock"));
    QDockWidget *inspector =
        addDock(m_inspector, tr("Value Inspector"), QStringLiteral("InspectorDock"));
    QDockWidget *allocations =
        addDock(m_allocationView, tr("Allocations"), QStringLiteral("AllocationsDock"));
    QDockWidget *instructions =
        addDock(m_instructionView, tr("Instructions"), QStringLiteral("InstructionsDock"));
    m_warningsDock = addDock(m_warnings, tr("Warnings"), QStringLiteral("WarningsDock"));
    m_modulesDock = addDock(m_modules, tr("Modules"), QStringLiteral("ModulesDock"));
    m_sourceDock = addDock(m_source, tr("Source"), QStringLiteral("SourceDock"));

    // Two defaults, each giving every chart room. On a laptop screen (1366 × 768) rows under the
    // usage chart would leave each view a few dozen pixels: the charts and the values are one
    // tab group under the usage chart (Live Ranges first), the right-hand tables another. On a
    // larger screen the Gantt and the memory map sit side by side under the usage chart, the
    // values and What Fills Memory under them; the right-hand column is the inspector over one
    // tab group of tables, each as wide as the column (side by side they were ~200 px each).
    const bool compact = isCompactLayout();
    addDockWidget(Qt::LeftDockWidgetArea, usage);
    splitDockWidget(usage, gantt, Qt::Vertical);
    if (!compact) {
        // Rows first, then each row split: the map beside the Gantt only, not beside the values.
        splitDockWidget(gantt, values, Qt::Vertical);
        splitDockWidget(gantt, map, Qt::Horizontal);
        splitDockWidget(values, peak, Qt::Horizontal);
    }
    addDockWidget(Qt::RightDockWidgetArea, inspector);
    splitDockWidget(inspector, instructions, Qt::Vertical);
    for (QDockWidget *dock : {allocations, m_warningsDock, m_modulesDock})
        tabifyDockWidget(instructions, dock);
    if (compact) {
        for (QDockWidget *dock : {map, peak, breakdown, values})
            tabifyDockWidget(gantt, dock);
        // Source lines need width: with the right-hand tables on a laptop, beside the memory
        // map on a large screen.
        tabifyDockWidget(instructions, m_sourceDock);
    } else {
        tabifyDockWidget(peak, breakdown);
        tabifyDockWidget(map, m_sourceDock);
    }
    // The breakdown views cost O(values) per step: they follow the step only when seen.
    connect(breakdown, &QDockWidget::visibilityChanged, m_breakdown, &BreakdownChart::setOnScreen);
    connect(peak, &QDockWidget::visibilityChanged, m_peakPanel, &BreakdownPanel::setOnScreen);
    peak->raise();
    map->raise();
    gantt->raise();
    instructions->raise();
    sizeDefaultDocks();
    m_modulesDock->hide();
    m_defaultState = saveState(kLayoutVersion);
}

void MainWindow::sizeDefaultDocks()
{
    const auto dock = [this](const char *name) {
        return findChild<QDockWidget *>(QLatin1String(name), Qt::FindDirectChildrenOnly);
    };
    QDockWidget *usage = dock("UsageDock");
    QDockWidget *gantt = dock("GanttDock");
    QDockWidget *map = dock("MemoryMapDock");
    QDockWidget *values = dock("ValuesDock");
    QDockWidget *peak = dock("WhatFillsMemoryDock");
    QDockWidget *inspector = dock("InspectorDock");
    QDockWidget *instructions = dock("InstructionsDock");
    const bool compact = isCompactLayout();
    // Sizes as shares of the window: the right column a fixed-ish width for the inspector's
    // card, the usage chart tall enough to read its levels (a third on a laptop).
    const int right = std::clamp(width() * 30 / 100, 400, 560);
    const int left = width() - right;
    resizeDocks({usage, inspector}, {left, right}, Qt::Horizontal);
    const int tall = height() - 60; // menu and status bar
    if (compact) {
        resizeDocks({usage, gantt}, {tall * 40 / 100, tall * 60 / 100}, Qt::Vertical);
    } else {
        resizeDocks({usage, gantt, values}, {tall * 29 / 100, tall * 40 / 100, tall * 31 / 100},
                    Qt::Vertical);
        resizeDocks({gantt, map}, {left * 55 / 100, left * 45 / 100}, Qt::Horizontal);
        resizeDocks({values, peak}, {left * 40 / 100, left * 60 / 100}, Qt::Horizontal);
    }
    resizeDocks({inspector, instructions}, {tall * 55 / 100, tall * 45 / 100}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // Dock sizes set before the first show are rescaled by the layout's first pass: set them
    // again at the window's real size (not over a layout the user saved).
    if (m_defaultSizesPending) {
        m_defaultSizesPending = false;
        sizeDefaultDocks();
        m_defaultState = saveState(kLayoutVersion);
    }
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open buffer-assignment dumps"), DialogFolders::openFolder(shownFolder()),
            tr("XLA buffer assignment (*buffer-assignment*.txt *live-range.txt);;All files (*)"));
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
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addAction(tr("Open &Sample"), this, &MainWindow::openEmbeddedSample);
    m_reloadAction = file->addAction(tr("Re&load"), this, &MainWindow::reload);
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    QAction *compare = file->addAction(tr("&Compare With…"), this, [this] {
        if (!current().dump)
            return;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare %1 with…").arg(toQString(current().dump->module)),
            DialogFolders::openFolder(shownFolder()),
            tr("XLA buffer assignment (*buffer-assignment*.txt *live-range.txt);;All files (*)"));
        if (!path.isEmpty()) {
            DialogFolders::rememberOpened(path);
            compareWith(path);
        }
    });
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    file->addSeparator();
    QAction *exportAction =
        file->addAction(tr("&Export Chart…"), this, [this] { showExportDialog(m_lastChart); });
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
        m_valueView->parentWidget()->show();
        m_valueView->parentWidget()->raise();
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
        QAction *a = schemes->addAction(label, this, [scheme] {
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
    return findChildren<QDockWidget *>(QString(), Qt::FindDirectChildrenOnly);
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
    connect(m_modules, &ModuleBrowser::moduleActivated, this, &MainWindow::openPath);
    connect(m_modules, &ModuleBrowser::allRead, this, &MainWindow::openLargestModule);
    connect(m_workspace, &Workspace::modulesListed, this, &MainWindow::openListed);
    for (ChartView *view : chartViews()) {
        connect(view, &ChartView::exportRequested, this, &MainWindow::showExportDialog);
        connect(
            view, &ChartView::csvWritten, this, [this](const QString &path, const QString &error) {
                if (!error.isEmpty())
                    ChartExport::warnNotWritten(this, tr("Export Failed"), path, error);
                else if (path.isEmpty())
                    statusBar()->showMessage(tr("Copied the data behind the chart as CSV"), 8000);
                else
                    statusBar()->showMessage(tr("Exported %1 (the data behind the chart)")
                                                 .arg(QDir::toNativeSeparators(path)),
                                             8000);
            });
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
    connect(selection(), &Selection::highlightedGroupChanged, this,
            [this](const QVector<int> &values, const QString &label) {
                if (values.isEmpty())
                    statusBar()->clearMessage();
                else
                    statusBar()->showMessage(
                        values.size() == 1
                            ? tr("Picked: %1 (1 value)").arg(label)
                            : tr("Picked: %1 (%2 values)").arg(label).arg(values.size()));
            });
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    // A saved geometry only where it still fits the screen (it may come from a larger monitor).
    if (settings.contains(kGeometryKey) &&
        restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QScreen *screen = QGuiApplication::screenAt(frameGeometry().center());
        if (!screen || !screen->availableGeometry().contains(frameGeometry()))
            sizeToScreen();
    }
    // A layout saved by another version of the dock set is ignored (restoreState checks it).
    if (settings.contains(kStateKey)) {
        if (restoreState(settings.value(kStateKey).toByteArray(), kLayoutVersion))
            m_defaultSizesPending = false;
        else
            spdlog::debug("ignoring a saved window layout of another version");
    }
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
    if (auto *dock = qobject_cast<QDockWidget *>(m_peakPanel->parentWidget())) {
        dock->show();
        dock->raise();
    }
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
    m_sourceDock->show();
    m_sourceDock->raise();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, kLayoutVersion);
    for (QDockWidget *dock : docks())
        if (dock != m_modulesDock)
            dock->show();
}

QStringList MainWindow::oomLogsAmong(const QStringList &paths) const
{
    QStringList logs;
    for (const QString &p : paths) {
        const QFileInfo info(p);
        if (!info.isFile() || ModuleFiles::isDumpName(info.fileName().toStdString()) ||
            DumpParser::isLoneMemoryUsageReport(p.toStdString()))
            continue;
        MappedFile file;
        std::string error;
        if (file.open(p.toStdString(), error) && OomLog::looksLike(file.data()))
            logs << p;
    }
    return logs;
}

bool MainWindow::openOomText(const QString &name, const std::string &text, const QStringList &dumps)
{
    OomFindings findings;
    findings.file = name.toStdString();
    findings.log = OomLog::parse(text);
    if (findings.log.messages.empty()) {
        showError(name, tr("No out-of-memory message in it: BufferScope reads XLA's GPU \"Out of "
                           "memory while trying to allocate\" and \"BufferAssignment OOM "
                           "Debugging\" messages and the TPU \"Ran out of memory\" reports."));
        return false;
    }
    auto *view = new OomView(std::move(findings), this);
    view->setAttribute(Qt::WA_DeleteOnClose);
    m_lastOom = view;
    connect(view, &OomView::findModuleRequested, this, [this, view, name] {
        // Beside the log when it is a file, else where dialogs open.
        const QString start = name.startsWith(QLatin1Char('('))
                                  ? DialogFolders::openFolder(shownFolder())
                                  : QFileInfo(name).absolutePath();
        const QString dir = QFileDialog::getExistingDirectory(
            view, tr("The --xla_dump_to folder of the run that ran out of memory"), start);
        if (!dir.isEmpty()) {
            DialogFolders::rememberOpened(dir);
            weighOomModules(view, {dir});
        }
    });
    connect(view, &OomView::openModuleRequested, this,
            [this, view](int message) { openOomModule(view, message); });
    view->show();
    Q_EMIT oomOpened(view);
    // With dumps given, look there; else try the module on screen, which costs one load.
    if (!dumps.isEmpty())
        weighOomModules(view, dumps);
    else if (current().dump && !current().isEmbedded())
        weighOomModules(view, {current().path});
    return true;
}

void MainWindow::weighOomModules(OomView *view, const QStringList &dumps)
{
    const DumpFiles found = DumpFiles::collect(dumps);
    view->setWeighing(tr("Weighing %n module(s) against the message…", nullptr,
                         static_cast<int>(found.files.size())));
    QPointer<OomView> guard(view);
    // The result goes to this window (the request's own callback, not the broadcast
    // oomWeighed: two logs dropped at once left the first window showing the second log).
    m_workspace->weighOomModules(
        view->findings(), found.files, view,
        [this, guard, dumps](const OomFindings &findings, const QStringList &errors) {
            if (!guard)
                return;
            guard->setFindings(findings);
            if (!errors.isEmpty())
                statusBar()->showMessage(errors.join(QStringLiteral("; ")), 10000);
            const int m = guard->message();
            if (m < static_cast<int>(findings.messages.size()) &&
                findings.messages[static_cast<std::size_t>(m)].chosen >= 0) {
                openOomModule(guard, m);
            } else if ((!current().dump || current().isEmbedded()) && findings.dumpsGiven > 0) {
                // No module fits the message and the window shows none: the folder
                // as it opens alone (its modules listed, the largest shown), not an
                // empty window.
                m_openLargestWhenRead = false;
                m_workspace->listModules(dumps);
            }
        });
}

void MainWindow::openOomModule(OomView *view, int message)
{
    const OomFindings &f = view->findings();
    if (message < 0 || message >= static_cast<int>(f.messages.size()))
        return;
    const OomFindings::PerMessage &per = f.messages[static_cast<std::size_t>(message)];
    if (per.chosen < 0 || !per.dump)
        return;
    OomTarget target;
    target.path = toQString(per.candidates[static_cast<std::size_t>(per.chosen)].file);
    for (const OomMatch::BufferMatch &b : per.join.buffers)
        for (std::uint32_t v : b.values)
            target.valueIds.push_back(per.dump->values[v].id);
    if (per.join.failingAllocation != kNone)
        target.allocation = per.dump->allocations[per.join.failingAllocation].index;
    target.limit = f.log.messages[static_cast<std::size_t>(message)].capacity;
    m_oomTarget = target;
    if (current().dump && QFileInfo(current().path) == QFileInfo(target.path))
        selectOomTarget();
    else
        openPaths({target.path});
}

void MainWindow::selectOomTarget()
{
    if (!m_oomTarget || !current().dump)
        return;
    const OomTarget target = *m_oomTarget;
    m_oomTarget.reset();
    const Dump &dump = *current().dump;
    QVector<int> group;
    QString label;
    for (std::int64_t id : target.valueIds)
        if (const std::uint32_t v = dump.findValueById(id); v != kNone)
            group << static_cast<int>(v);
    if (!group.isEmpty()) {
        label = tr("the buffers the out-of-memory message lists");
        selection()->setCurrentValue(group.front());
    } else if (target.allocation >= 0 &&
               target.allocation < static_cast<std::int64_t>(dump.allocations.size())) {
        const Allocation &a = dump.allocations[static_cast<std::size_t>(target.allocation)];
        for (std::uint32_t k = 0; k < a.valueCount; ++k)
            group << static_cast<int>(dump.allocationValues[a.firstValue + k]);
        label = tr("allocation %1, the one that failed").arg(a.index);
    }
    if (!group.isEmpty())
        selection()->setHighlightedGroup(group, label);
    if (target.limit > 0)
        m_usage->setBudget(target.limit);
    const QString what = label.isEmpty() ? tr("nothing it lists is known exactly") : label;
    statusBar()->showMessage(
        target.limit > 0 ? tr("The out-of-memory message's module: %1 selected; the device's "
                              "limit (%2) is the budget line")
                               .arg(what, humanBytesText(target.limit))
                         : tr("The out-of-memory message's module: %1 selected").arg(what),
        15000);
}

FitView *MainWindow::showDeviceFit(const QString &limit)
{
    QStringList files = m_moduleFiles;
    if (files.isEmpty() && current().dump && !current().isEmbedded())
        files << current().path;
    auto *view = new FitView(this);
    view->setAttribute(Qt::WA_DeleteOnClose);
    // One budget: a limit chosen in Device Fit is the Memory Usage budget too.
    connect(view, &FitView::limitChosen, m_usage, &UsageChart::setBudget);
    if (!limit.isEmpty())
        view->setLimit(limit);
    else if (m_usage->budget() > 0)
        view->setLimit(humanBytesText(m_usage->budget()));
    // An out-of-memory message open: the device's limit and InUse it states.
    if (m_lastOom && limit.isEmpty()) {
        const OomMessage &m =
            m_lastOom->findings().log.messages[static_cast<std::size_t>(m_lastOom->message())];
        if (m.capacity > 0 || m.inUse > 0)
            view->setLogFigures(toQString(m_lastOom->findings().file), m.capacity, m.inUse);
    }
    view->show();
    if (files.isEmpty()) {
        view->setModules({});
        Q_EMIT deviceFitReady(view);
        return view;
    }
    QPointer<FitView> guard(view);
    auto progress = std::make_shared<QMetaObject::Connection>();
    auto done = std::make_shared<QMetaObject::Connection>();
    *progress = connect(m_workspace, &Workspace::measureProgress, view, [guard](int d, int total) {
        if (guard)
            guard->setMeasuring(d, total);
    });
    *done = connect(m_workspace, &Workspace::modulesMeasured, view,
                    [this, guard, progress, done](const std::vector<DeviceFit::Module> &modules,
                                                  const QStringList &errors) {
                        disconnect(*progress);
                        disconnect(*done);
                        if (!guard)
                            return;
                        guard->setModules(modules);
                        if (!errors.isEmpty())
                            statusBar()->showMessage(errors.join(QStringLiteral("; ")), 10000);
                        Q_EMIT deviceFitReady(guard);
                    });
    view->setMeasuring(0, static_cast<int>(files.size()));
    m_workspace->measureModules(files);
    return view;
}

void MainWindow::pasteFromClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (OomLog::looksLike(text.toStdString())) {
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
    if (!paths.isEmpty())
        DialogFolders::rememberOpened(paths.front());
    // An out-of-memory log among them: its window, with the rest as where its module is.
    if (const QStringList logs = oomLogsAmong(paths); !logs.isEmpty()) {
        QStringList rest = paths;
        for (const QString &log : logs)
            rest.removeAll(log);
        for (const QString &log : logs) {
            MappedFile file;
            std::string error;
            if (!file.open(log.toStdString(), error)) {
                showError(log, toQString(error));
                continue;
            }
            openOomText(log, std::string(file.data()), rest);
        }
        return;
    }
    // Listed on a job: a folder of thousands of modules never holds the window up. A folder
    // opened before is no longer waited on.
    m_openLargestWhenRead = false;
    m_workspace->listModules(paths);
}

void MainWindow::openListed(const DumpFiles &found)
{
    if (!found.problems.isEmpty() && found.files.isEmpty()) {
        showError(found.problems.front().section(QLatin1Char(':'), 0, 0),
                  found.problems.join(QLatin1Char('\n')));
        return;
    }
    if (!found.problems.isEmpty())
        statusBar()->showMessage(found.problems.join(QStringLiteral("; ")), 10000);
    m_moduleFiles = found.files;
    if (found.files.size() == 1) {
        // One module: it opens at once, and the Modules list takes its figures from the load.
        m_modules->setFiles(found, found.files.front());
        openPath(found.files.front());
        return;
    }
    // A folder: its modules are read for their figures (a fraction of a load each, many at a
    // time), then the one the device holds most for opens: the one that runs out of memory
    // first. A big largest file (a load of seconds) starts loading at once, beside the scan;
    // should another module hold more, that one opens when all are read. Opening another
    // meanwhile keeps that one.
    const bool bigFirst = found.bytes.value(0) >= kReadAloneFrom;
    if (bigFirst)
        openPath(found.files.front()); // first, so the scan starts narrow beside the load
    m_modules->setFiles(found, bigFirst ? found.files.front() : QString());
    m_modulesDock->show();
    m_modulesDock->raise();
    if (!bigFirst)
        m_statusFile->setText(tr("Reading %1 modules; the one the device holds most for opens "
                                 "when they are read")
                                  .arg(found.files.size()));
    m_openLargestWhenRead = true;
}

void MainWindow::openLargestModule()
{
    if (!std::exchange(m_openLargestWhenRead, false))
        return;
    const QString largest = m_modules->largestModule();
    if (largest == m_workspace->current().path)
        return; // the big file loaded at once was the largest module
    if (!largest.isEmpty()) {
        openPath(largest);
        return;
    }
    m_statusFile->setText(tr("None of the %1 modules could be read; the Modules list says why")
                              .arg(m_moduleFiles.size()));
}

void MainWindow::openPath(const QString &path)
{
    m_openLargestWhenRead = false; // the user chose; or this is the largest, chosen for them
    // XLA's memory-usage report without its dump: what it holds, in a window of its own.
    if (DumpParser::isLoneMemoryUsageReport(path.toStdString())) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            showError(path, file.errorString());
            return;
        }
        auto *view = new MemoryUsageReportView(
            MemoryUsageReport::parse(file.readAll().toStdString()), path, this);
        view->setAttribute(Qt::WA_DeleteOnClose);
        view->show();
        Q_EMIT memoryUsageReportOpened(view);
        statusBar()->showMessage(
            tr("%1 is XLA's memory-usage report; its module's dump is not beside it")
                .arg(QFileInfo(path).fileName()),
            10000);
        return;
    }
    // The Gantt's rows and the memory map's boxes are built on the load job, in the order and
    // allocation the views asked the workspace for last.
    m_workspace->load(path);
}

QString MainWindow::progressText(qint64 done, qint64 total, qint64 elapsedMs)
{
    if (total <= 0)
        return tr("reading…");
    if (done >= total)
        return tr("%1 read · analysing…").arg(humanBytesText(total));
    QString text = tr("%1 of %2").arg(humanBytesText(done), humanBytesText(total));
    // A rate needs a little history to mean anything.
    if (elapsedMs >= 300 && done > 0) {
        const double left = static_cast<double>(total - done) * static_cast<double>(elapsedMs) /
                            static_cast<double>(done) / 1000.0;
        text += left < 1.0 ? tr(" · under a second left")
                           : tr(" · about %1 s left").arg(static_cast<qint64>(std::ceil(left)));
    }
    return text;
}

void MainWindow::openEmbeddedSample()
{
    openPath(QStringLiteral(":/sample/gpu_decoder_layer.buffer-assignment.txt"));
}

void MainWindow::takeDump()
{
    // The workspace hands the new dump to the views, a few per turn of the event loop, so the
    // window keeps painting and answering: the summary first, the charts as they are filled.
    const LoadedDump &loaded = current();
    m_progress->hide();
    m_cancel->hide();
    setWindowTitle(tr("%1 — BufferScope").arg(toQString(loaded.dump->module)));
    updateStatus(loaded);
    // A frame's relative file is looked for next to the dump, never in the current folder.
    m_source->setDumpFolder(loaded.path.startsWith(QLatin1Char(':'))
                                ? QString()
                                : QFileInfo(loaded.path).absolutePath());
}

void MainWindow::finishShowing()
{
    // Every view holds the new dump now; the selection is live again, at the peak.
    const LoadedDump &loaded = current();
    const auto warningCount = loaded.dump->warnings.size() + loaded.timeline->warnings().size();
    m_warningsDock->setWindowTitle(warningCount > 0 ? tr("Warnings (%1)").arg(warningCount)
                                                    : tr("Warnings"));
    if (!loaded.isEmbedded())
        addRecent(loaded.path);
    watch(loaded);
    m_notice->hide();
    // Warnings where the user looks, over the charts: a truncated dump draws empty axes that
    // would otherwise pass for "nothing is live".
    if (warningCount > 0) {
        const Diagnostic &first = !loaded.dump->warnings.empty()
                                      ? loaded.dump->warnings.front()
                                      : loaded.timeline->warnings().front();
        QString firstText = toQString(loaded.dump->diagnosticText(first));
        if (firstText.size() > 160)
            firstText = firstText.left(159) + QStringLiteral("…");
        const QString count = warningCount == 1
                                  ? tr("1 warning")
                                  : tr("%1 warnings").arg(static_cast<qint64>(warningCount));
        showNotice(loaded.dump->traits.truncated
                       ? tr("This dump looks truncated: what the charts show may be incomplete "
                            "(%1). %2")
                             .arg(count, firstText)
                       : tr("%1 while reading this dump. %2").arg(count, firstText),
                   false, false, true);
    }
    if (loaded.path.startsWith(QLatin1Char(':')) && !QSettings().value(kSampleHintKey).toBool())
        showNotice(tr("This is a bundled sample (a GPU decoder layer). To see your own program, "
                      "run it with XLA_FLAGS=--xla_dump_to=DIR and drop DIR here."),
                   false, true);
    if (m_reload && m_reload->path == loaded.path) {
        const Dump &dump = *loaded.dump;
        if (!m_reload->valueKey.isEmpty()) {
            const std::uint32_t v = dump.findValue(m_reload->valueKey.toStdString());
            if (v != kNone)
                selection()->setCurrentValue(static_cast<int>(v));
            else
                statusBar()->showMessage(
                    tr("%1 is not in the reloaded dump").arg(m_reload->valueKey), 8000);
        }
        if (m_reload->step >= 0 && m_reload->step < dump.stepCount())
            selection()->setCurrentStep(m_reload->step);
        for (const auto &[view, ranges] : m_reload->ranges)
            view->restoreRanges(ranges);
    }
    m_reload.reset();
    m_modules->setKnownResult(loaded.path, ModuleFigures::of(loaded));
    m_modules->setOpenFile(loaded.path);
    if (m_oomTarget && QFileInfo(m_oomTarget->path) == QFileInfo(loaded.path))
        selectOomTarget();
    Q_EMIT dumpShown();
}

void MainWindow::showError(const QString &path, const QString &error)
{
    ModuleFigures unreadable;
    unreadable.status = ModuleFigures::Status::Unreadable;
    unreadable.error = error;
    m_modules->setKnownResult(path, unreadable);
    m_reload.reset(); // the loaded dump stays as it was
    m_progress->hide();
    m_cancel->hide();
    m_statusFile->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
    // The dump on screen is the one before: say so, so it is not taken for the new one.
    if (current().dump)
        showNotice(tr("Could not open %1; still showing %2.")
                       .arg(QFileInfo(path).fileName(), toQString(current().dump->module)),
                   false, false);
    CommandLine::fail(error, 0);
    // Window-modal but not blocking: loading, tests and --screenshot runs carry on.
    auto *box = new QMessageBox(QMessageBox::Critical, tr("Cannot open dump"), error,
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::PlainText); // the error quotes the file's own text
    box->open();
}

void MainWindow::updateStatus(const LoadedDump &shown)
{
    if (!shown.dump)
        return;
    const Dump &d = *shown.dump;
    // The module as people name it, then its file; too long, the path gives way in its middle
    // (ElidedLabel), never the end mid-word.
    m_statusFile->setText(tr("%1 · %2").arg(
        toQString(ModuleFiles::shortNameOfStem(d.module)),
        shown.path.startsWith(QLatin1Char(':')) ? tr("embedded sample") : shown.path));
    QString totals = tr("total %1").arg(humanBytesText(d.totalBytes()));
    if (const SpaceTimeline *primary = shown.timeline->primary(); primary && d.hasLiveRanges())
        totals += tr(" · peak %1 at step %2")
                      .arg(humanBytesText(primary->peak.bytes))
                      .arg(primary->peak.step);
    if (!d.warnings.empty())
        totals += tr(" · %n warning(s)", nullptr, static_cast<int>(d.warnings.size()));
    m_statusTotals->setText(totals);
    m_statusTotals->setToolTip(exactBytesText(d.totalBytes()));
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecent(const QString &path)
{
    QStringList recent = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString &path : recent) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName(), this,
                                             [this, path] { openPaths({path}); });
        a->setToolTip(plainToolTip(path));
        a->setEnabled(QFileInfo::exists(path));
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear List"), this, [] { QSettings().remove(kRecentKey); });
}

bool MainWindow::exportView(ChartView *view, const QString &path, const ExportOptions &options)
{
    const std::optional<ExportFormat> format = ChartExport::formatOf(path);
    if (format == ExportFormat::Csv) {
        const bool busy = view->isWritingCsv();
        if (busy || !view->writeCsvInBackground(path)) {
            ChartExport::warnNotWritten(this, tr("Export Failed"), path,
                                        busy ? ChartView::csvBusyText() : tr("no dump is open"));
            return false;
        }
        statusBar()->showMessage(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
        return true;
    }
    QString why;
    if (!view->exportTo(path, options, &why)) {
        ChartExport::warnNotWritten(this, tr("Export Failed"), path, why);
        return false;
    }
    const QString what = format == ExportFormat::Png
                             ? tr("%1 × %2 px")
                                   .arg(qRound(options.width * options.scale))
                                   .arg(qRound(options.height * options.scale))
                             : tr("%1 × %2, vector").arg(options.width).arg(options.height);
    statusBar()->showMessage(tr("Exported %1 (%2)").arg(QDir::toNativeSeparators(path), what),
                             8000);
    return true;
}

void MainWindow::showExportDialog(ChartView *view)
{
    if (!view)
        view = m_usage;
    // Where the last export went, not the dump's folder (often read-only).
    ExportDialog dialog(chartViews(), view, DialogFolders::saveFolder(), this);
    if (dialog.exec() != QDialog::Accepted || !dialog.view() || dialog.path().isEmpty())
        return;
    DialogFolders::rememberSaved(dialog.path());
    exportView(dialog.view(), dialog.path(), dialog.options());
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
        (urls.isEmpty() && mime->hasText() && OomLog::looksLike(mime->text().toStdString())))
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
        if (OomLog::looksLike(text.toStdString())) {
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
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kLayoutVersion));
    QMainWindow::closeEvent(event);
}

} // namespace bufferscope
