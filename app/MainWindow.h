#pragma once

#include "LoadedDump.h"
#include "analysis/PeakBreakdown.h"
#include "charts/ChartView.h"
#include "flows/WindowServices.h"

#include <QMainWindow>

#include <memory>
#include <string>

class QDockWidget;
class QFileSystemWatcher;
class QToolBar;
class QMenu;
class QTableView;
class QTreeView;

namespace bufferscope {

class ChartExportFlow;
class DockLayout;
class RecentFiles;
class FileNotice;
class FitFlow;
class RunFlow;
class LoadStatus;
class OomFlow;
class OpenFlow;

class AllocationTreeModel;
class BreakdownChart;
class BreakdownPanel;
class CategoriesView;
class CompareView;
struct DumpFiles;
class ModuleBrowser;
class InstructionListModel;
class InstructionsView;
class LiveRangeGantt;
class MemoryMap;
class Selection;
class SourceView;
class UsageChart;
class ValueInspector;
class ValueTableModel;
class ValueTableView;
class WarningsView;
class Workspace;
struct ModuleComparison;
struct DumpDiff;
struct SourcePlace;
struct Preferences;

class MainWindow : public QMainWindow, public WindowServices
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens files and folders (OpenFlow): what each is is found on a job; folders are
    /// searched for dumps; with several modules the Modules dock lists them as they are read,
    /// and then the one the device holds most for is loaded; logs and reports open their
    /// windows.
    void openPaths(const QStringList &paths) override;
    /// Opens one dump file (or ":/…" resource) off the GUI thread.
    void openPath(const QString &path) override;
    void openAllocation(const QString &path, qint64 allocation) override;
    /// A folder's modules, listed (an out-of-memory message's folder with no module of it).
    void openListed(const DumpFiles &found) override;
    void openEmbeddedSample();
    /// Opens an out-of-memory message (a log's text) in a window of its own; with `dumps`
    /// (folders or files) its module is looked for there and opened with what the message
    /// lists selected and the device's limit drawn. `name` is the log's path or "(pasted)".
    /// False, with the error shown, when the text holds no message.
    bool openOomText(const QString &name, const std::string &text, const QStringList &dumps = {});
    /// Edit ▸ Paste: an out-of-memory message from the clipboard, or paths to open.
    void pasteFromClipboard();
    /// Tools ▸ Device Fit: the modules of the open folder (or the open module) on one device,
    /// measured on a job; returns the window. `limit` as FitView::setLimit, empty: the budget.
    class FitView *showDeviceFit(const QString &limit = {});
    /// Tools ▸ Run Summary (RunFlow).
    RunFlow *runFlow() const { return m_run; }
    FitFlow *fitFlow() const { return m_fit; }
    /// Exports `view` without asking; returns false and shows why on failure. A CSV is made
    /// and written in the background (ChartView::writeCsvInBackground): true means it was
    /// started, and the status bar or a warning says how it ended.
    bool exportView(ChartView *view, const QString &path, const ExportOptions &options);

    QMainWindow *mainWindow() override { return this; }
    Workspace *workspace() const override { return m_workspace; }
    Selection *selection() const;
    const LoadedDump &current() const;
    UsageChart *usageChart() const override { return m_usage; }
    LiveRangeGantt *gantt() const { return m_gantt; }
    MemoryMap *memoryMap() const { return m_map; }
    BreakdownChart *breakdownChart() const { return m_breakdown; }
    BreakdownPanel *peakPanel() const { return m_peakPanel; }
    CategoriesView *categoriesView() const { return m_categories; }
    ValueInspector *inspector() const { return m_inspector; }
    SourceView *sourceView() const { return m_source; }
    /// Applies the library patterns, path mappings, editor command and threads.
    void applyPreferences(const Preferences &preferences);
    /// `--threads N`: it decides for the whole run, whatever the Preferences say.
    void setCommandLineThreads(int threads);
    /// Brings What Fills Memory to the front, grouped by `grouping`.
    void showBreakdownBy(Breakdown::Grouping grouping);
    /// Edit ▸ Preferences.
    void showPreferences();
    /// Shows `place` in the Source dock and brings the dock to the front.
    void showSource(const SourcePlace &place);
    ValueTableView *valueTable() const { return m_valueView; }
    QTreeView *allocationTree() const { return m_allocationView; }
    QTableView *instructionTable() const;
    ModuleBrowser *modules() const { return m_modules; }
    QList<ChartView *> chartViews() const override;
    QList<QDockWidget *> docks() const;
    QStringList recentFiles() const;
    /// The bar above the views: the open dump changed or vanished on disk, or the first-run
    /// hint on the bundled sample (hidden otherwise).
    QToolBar *fileNotice() const;
    QString fileNoticeText() const;
    QFileSystemWatcher *fileWatcher() const;

    /// The first window's size: the screen's available area (a 1366 × 768 laptop) up to
    /// 2400 × 1400, centred.
    void sizeToScreen();
    /// The folder of the dump on screen; empty for none or the embedded sample.
    QString shownFolder() const override;
    void rememberRecent(const QString &path) override;
    /// Says that `path` could not be opened, in a message box and on stderr.
    void showError(const QString &path, const QString &error) override;

public Q_SLOTS:
    void resetLayout();
    /// Loads the open dump again, keeping the selected value (if it still exists), the step
    /// and each chart's zoom.
    void reload();
    /// Compares the open dump (before) with `path` (after): the workspace loads and compares
    /// on a job, then a comparison window opens (compareOpened) or the error shows.
    void compareWith(const QString &path);
    /// Compares two modules (neither need be on show), as compareWith.
    void compareFiles(const QString &before, const QString &after) override;

Q_SIGNALS:
    void compareOpened(bufferscope::CompareView *view);
    /// A comparison asked for could not be made (the error was shown).
    void compareFailed(const QString &path);
    /// A memory-usage report without its dump was opened in a window of its own.
    void memoryUsageReportOpened(QWidget *view);
    /// An out-of-memory message was opened in a window of its own.
    void oomOpened(QWidget *view);
    /// The device-fit window has its modules measured.
    void deviceFitReady(QWidget *view);
    /// Every view shows the dump that current() now returns.
    void dumpShown();
    /// An error was shown in the window (a message box): for a headless host to say it too
    /// (ScreenshotMode writes it on stderr).
    void errorShown(const QString &error);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createViews();
    void createActions();
    void connectViews();
    void takeDump();
    void finishShowing();
    /// The allocation openAllocation waits to select, once its module is shown.
    struct PendingAllocation
    {
        QString path;
        qint64 allocation = -1;
    };
    PendingAllocation m_pendingAllocation;
    void selectAllocation(qint64 allocation);
    /// A comparison's answer: its window, or the error; `request` (its token) is done.
    void compared(QObject *request, const ModuleComparison &c);
    void openComparison(const LoadedDump &before, const LoadedDump &after,
                        std::shared_ptr<const DumpDiff> diff);

    Workspace *m_workspace;
    bool m_threadsFromCommandLine = false; ///< `--threads N` outranks the Preferences
    ValueTableModel *m_valueModel;
    AllocationTreeModel *m_allocationModel;
    InstructionListModel *m_instructionModel;
    UsageChart *m_usage = nullptr;
    LiveRangeGantt *m_gantt = nullptr;
    MemoryMap *m_map = nullptr;
    BreakdownChart *m_breakdown = nullptr;
    BreakdownPanel *m_peakPanel = nullptr;
    CategoriesView *m_categories = nullptr;
    ValueInspector *m_inspector = nullptr;
    SourceView *m_source = nullptr;
    ValueTableView *m_valueView = nullptr;
    QTreeView *m_allocationView = nullptr;
    InstructionsView *m_instructionView = nullptr;
    WarningsView *m_warnings = nullptr;
    ModuleBrowser *m_modules = nullptr;
    ChartView *m_lastChart = nullptr;
    // The flows the window is made of, each with the workspace and the widgets it needs.
    DockLayout *m_docks = nullptr;
    LoadStatus *m_status = nullptr;
    FileNotice *m_notice = nullptr;
    OomFlow *m_oom = nullptr;
    FitFlow *m_fit = nullptr;
    RunFlow *m_run = nullptr;
    OpenFlow *m_open = nullptr;
    RecentFiles *m_recent = nullptr;
    ChartExportFlow *m_export = nullptr;
};

} // namespace bufferscope
