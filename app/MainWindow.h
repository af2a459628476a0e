#pragma once

#include "ChartView.h"
#include "LoadedDump.h"
#include "analysis/PeakBreakdown.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QToolBar;
class QMenu;
class QProgressBar;
class QPushButton;
class QTableView;
class QTreeView;

namespace bufferscope {

class ElidedLabel;

class AllocationTreeModel;
class BreakdownChart;
class BreakdownPanel;
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
struct DumpDiff;
struct SourcePlace;
struct Preferences;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Bump when docks are added, removed or renamed: an older saved layout is then ignored.
    static constexpr int kLayoutVersion = 5;

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens files and folders: folders are searched for dumps (on a job); with several
    /// modules the Modules dock lists them as they are read, and then the one the device holds
    /// most for is loaded.
    void openPaths(const QStringList &paths);
    /// Opens one dump file (or ":/…" resource) off the GUI thread.
    void openPath(const QString &path);
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
    /// Exports `view` without asking; returns false and shows why on failure. A CSV is made
    /// and written in the background (ChartView::writeCsvInBackground): true means it was
    /// started, and the status bar or a warning says how it ended.
    bool exportView(ChartView *view, const QString &path, const ExportOptions &options);

    Workspace *workspace() const { return m_workspace; }
    Selection *selection() const;
    const LoadedDump &current() const;
    UsageChart *usageChart() const { return m_usage; }
    LiveRangeGantt *gantt() const { return m_gantt; }
    MemoryMap *memoryMap() const { return m_map; }
    BreakdownChart *breakdownChart() const { return m_breakdown; }
    BreakdownPanel *peakPanel() const { return m_peakPanel; }
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
    QList<ChartView *> chartViews() const;
    /// The loading progress text: bytes read of the total and an estimate of the time left.
    static QString progressText(qint64 done, qint64 total, qint64 elapsedMs);
    QList<QDockWidget *> docks() const;
    QStringList recentFiles() const;
    /// The bar above the views: the open dump changed or vanished on disk, or the first-run
    /// hint on the bundled sample (hidden otherwise).
    QToolBar *fileNotice() const { return m_notice; }
    QString fileNoticeText() const;
    QFileSystemWatcher *fileWatcher() const { return m_watcher; }

    /// The first window's size: 1600 × 1000 where there is room, else the screen's available
    /// area (a 1366 × 768 laptop), centred.
    void sizeToScreen();

public Q_SLOTS:
    void resetLayout();
    /// Loads the open dump again, keeping the selected value (if it still exists), the step
    /// and each chart's zoom.
    void reload();
    /// Compares the open dump (before) with `path` (after): the workspace loads and compares
    /// on a job, then a comparison window opens (compareOpened) or the error shows.
    void compareWith(const QString &path);

Q_SIGNALS:
    void compareOpened(bufferscope::CompareView *view);
    /// A memory-usage report without its dump was opened in a window of its own.
    void memoryUsageReportOpened(QWidget *view);
    /// An out-of-memory message was opened in a window of its own.
    void oomOpened(QWidget *view);
    /// The device-fit window has its modules measured.
    void deviceFitReady(QWidget *view);
    /// Every view shows the dump that current() now returns.
    void dumpShown();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// The folder of the dump on screen; empty for none or the embedded sample.
    QString shownFolder() const;
    void createViews();
    void createDocks();
    // The default dock sizes as shares of the window; again once it is shown at its real size.
    void sizeDefaultDocks();
    bool isCompactLayout() const { return height() < 900 || width() < 1500; }
    void createActions();
    void connectViews();
    void restoreSettings();
    QDockWidget *addDock(QWidget *widget, const QString &title, const QString &objectName);
    void takeDump();
    void showError(const QString &path, const QString &error);
    void updateStatus(const LoadedDump &shown);
    void finishShowing();
    void openComparison(const LoadedDump &before, const LoadedDump &after,
                        std::shared_ptr<const DumpDiff> diff);
    void addRecent(const QString &path);
    void fillRecentMenu();
    void showExportDialog(ChartView *view);
    void createFileNotice();
    void watch(const LoadedDump &loaded);
    void fileChangedOnDisk(const QString &path);
    void showNotice(const QString &text, bool offerReload, bool offerHelp,
                    bool offerWarnings = false);

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
    ValueInspector *m_inspector = nullptr;
    SourceView *m_source = nullptr;
    QDockWidget *m_sourceDock = nullptr;
    ValueTableView *m_valueView = nullptr;
    QTreeView *m_allocationView = nullptr;
    InstructionsView *m_instructionView = nullptr;
    WarningsView *m_warnings = nullptr;
    ModuleBrowser *m_modules = nullptr;
    QDockWidget *m_modulesDock = nullptr;
    QDockWidget *m_warningsDock = nullptr;
    QMenu *m_recentMenu = nullptr;
    ElidedLabel *m_statusFile = nullptr;
    QLabel *m_statusTotals = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QByteArray m_defaultState;
    bool m_defaultSizesPending = true; // until shown, unless a saved layout was restored
    ChartView *m_lastChart = nullptr;
    QElapsedTimer m_loadClock; ///< since the load started, for the time-left estimate
    QString m_loadingName;     ///< file name of the dump being loaded
    QFileSystemWatcher *m_watcher = nullptr;
    QToolBar *m_notice = nullptr;
    QLabel *m_noticeText = nullptr;
    QAction *m_noticeReload = nullptr;
    QAction *m_noticeHelp = nullptr;
    QAction *m_noticeWarnings = nullptr;
    QAction *m_reloadAction = nullptr;
    /// What to put back once a reload arrives.
    struct ReloadState
    {
        QString path;
        QString valueKey; ///< "name{idx}" of the selected value
        qint64 step = -1;
        std::vector<std::pair<ChartView *, ChartView::Ranges>> ranges;
    };
    std::optional<ReloadState> m_reload;
    /// What to select once the module an out-of-memory message is about arrives.
    struct OomTarget
    {
        QString path;
        std::vector<std::int64_t> valueIds; ///< the values the message lists, as XLA ids
        std::int64_t allocation = -1;       ///< the allocation that failed
        qint64 limit = -1;                  ///< the device's limit the message states
    };
    std::optional<OomTarget> m_oomTarget;
    QStringList m_moduleFiles;          ///< the modules of the folder opened last (one file each)
    bool m_openLargestWhenRead = false; ///< a folder was opened and nothing since
    QPointer<class OomView> m_lastOom;  ///< the out-of-memory message opened last
    void weighOomModules(class OomView *view, const QStringList &dumps);
    void openOomModule(class OomView *view, int message);
    void selectOomTarget();
    /// The paths among `paths` that hold an out-of-memory message rather than a dump.
    QStringList oomLogsAmong(const QStringList &paths) const;
    void openListed(const DumpFiles &found);
    void openLargestModule();
};

} // namespace bufferscope
