#pragma once

#include "Derived.h"
#include "DumpFiles.h"
#include "JobRunner.h"
#include "LoadedDump.h"
#include "Opened.h"
#include "Run.h"
#include "analysis/DeviceFit.h"
#include "analysis/DumpDiff.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/RunDiff.h"
#include "analysis/RunSummary.h"
#include "analysis/RuntimeMemory.h"
#include "analysis/ValueFlow.h"
#include "report/OomReport.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

class QAction;

namespace bufferscope {

class Selection;

/// What is live at one step of one memory space, grouped, with the explainer's findings:
/// computed once and shared by every view that shows it.
struct StepBreakdown
{
    std::weak_ptr<const Dump> dump;
    std::int64_t step = -1;
    std::int32_t memorySpace = 0;
    Breakdown breakdown;
    std::vector<Finding> findings;
};

/// The one object between the loader and the views, after heaptrack's staged results and
/// hotspot's FilterAndZoomStack:
/// - it owns the dump on screen and what is derived from it per dump — the Gantt rows in each
///   order asked for, the memory-map layout, the breakdown at the current step;
/// - it holds the selection rules (a value moves the step into its live range, steps are
///   clamped, Go to Peak uses the memory space on show, which is state here) and the actions
///   that apply them;
/// - every background task goes through its JobRunner: load, layouts, breakdown, compare,
///   module scan, release.
/// Views ask it for derived data and only draw; MainWindow only arranges docks and menus.
class Workspace : public QObject
{
    Q_OBJECT
public:
    enum class Action
    {
        PreviousStep,
        NextStep,
        GoToPeak,
        ClearSelection,
        GoToProducer,
        GoToConsumer
    };

    explicit Workspace(QObject *parent = nullptr);
    ~Workspace() override;

    /// The threads every computation the workspace starts may use (util/Parallel.h threadsFor:
    /// 0 is every core, 1 the serial paths); decided by the app (`--threads`, Preferences).
    /// The module scan reads on one thread while a load runs, so the two do not compete.
    void setThreads(int threads) { m_threads = threads; }
    int threads() const { return m_threads; }

    Selection *selection() const { return m_selection; }
    JobRunner *jobs() const { return m_jobs; }
    /// The shared action (with its shortcut) that applies a selection rule.
    QAction *action(Action which) const;

    // --- The dump on screen ---------------------------------------------------------------

    const LoadedDump &current() const { return m_current; }

    /// How a view (a chart, a model, the inspector) takes the dump on screen.
    using Taker = std::function<void(const LoadedDump &)>;
    /// `subscriber` is handed every dump shown from now on, after those that subscribed before
    /// it, until it is destroyed. Chart views subscribe themselves; `name` is what the cost
    /// log at --verbose calls it.
    void subscribe(QObject *subscriber, const QString &name, Taker take);
    enum class Fill
    {
        Staggered, ///< one subscriber per turn of the event loop: the window keeps painting
        AtOnce     ///< all before show() returns (exports, tests)
    };
    /// Makes `loaded` the dump on screen and hands it to every subscriber: jobs about the old
    /// dump are dropped and it is freed off the GUI thread once no view holds it. Emits
    /// dumpChanged first; the selection is cleared and frozen until every subscriber has the
    /// new dump, so a view that has not taken it never hears of its values; then it thaws, the
    /// step goes to the peak, and dumpShown follows. A newer show() stops an older fill.
    /// A load (load()) shows what it loaded itself.
    void show(LoadedDump loaded, Fill fill = Fill::Staggered);
    /// show() has not handed the dump on screen to every subscriber yet.
    bool isFilling() const { return m_filling; }

    // --- Loading ----------------------------------------------------------------------------

    /// Loads `path` on a job (a newer load replaces an older one); loadStarted, loadProgress,
    /// then loaded (and show()), loadFailed or loadCancelled. The Gantt rows and the memory-map
    /// layout are built on the job too, in the order and allocation last asked for.
    void load(const QString &path);
    void cancelLoad();
    bool isLoading() const;

    /// What open() hands its requester: the paths classified and read (Opened).
    using OpenedDone = std::function<void(const Opened &)>;
    /// Classifies what the user opened (files, --xla_dump_to folders, logs, reports: Opened)
    /// on a job, so a folder of thousands of files or a big log never holds the window up;
    /// `done` gets the result on the GUI thread while `requester` lives. A newer request of the
    /// same requester replaces its older one; another requester's runs on.
    void open(const QStringList &paths, QObject *requester, OpenedDone done);
    /// What openText() hands its requester: the text's out-of-memory messages, read, and the
    /// paths given with it, classified.
    using TextOpened = std::function<void(OomFindings, const Opened &)>;
    /// Reads pasted or dropped text (`name`: "(pasted)") for its out-of-memory messages, and
    /// classifies `paths` (where its modules are), on open()'s job and lane: a long paste
    /// never holds the window up.
    void openText(const QString &name, std::string text, const QStringList &paths,
                  QObject *requester, TextOpened done);
    /// Reads every module once on one job (RunFacts::scanEach): a module of kReadAloneFrom
    /// bytes or more alone on every thread, the rest side by side, one per thread,
    /// scanThreads() of them. modulesScanned hands the figures over a few times a second as
    /// they are read, scanFinished follows the last; the run keeps the figures, the facts and
    /// the fits (Run). A newer scan replaces an older one. `skip` is not read (it is being
    /// loaded anyway).
    void scanModules(const DumpFiles &found, const QString &skip = {});
    bool isScanning() const;
    /// The threads the scan reads its next batch on: one while a load runs (the two do not
    /// compete for the cores), else threads().
    int scanThreads() const { return isLoading() ? 1 : m_threads; }

    using Compared = std::function<void(const ModuleComparison &)>;
    /// Loads `path` and compares the dump on screen (before) with it (after) on a job; `done`
    /// reaches `requester` while it lives. Each requester has its own lane: two comparisons
    /// asked at once by two requesters are both answered.
    void compareWith(const QString &path, QObject *requester, Compared done);
    /// Two modules compared (neither need be on show), as compareWith.
    void compareFiles(const QString &before, const QString &after, QObject *requester,
                      Compared done);
    /// What compareRuns hands its requester.
    using RunsCompared = std::function<void(const RunDiff &)>;
    /// The run open (`before`: its modules as listed, else its one folder, listed on the job)
    /// and the folder or capture `after` read
    /// as runs and compared function by function (RunFacts, RunDiff) on a job; `done` reaches
    /// `requester` while it lives.
    void compareRuns(const Run &before, const QString &after, QObject *requester,
                     RunsCompared done);

    /// The run the window has open (Run): set when what was opened is listed. Starts reading
    /// its modules into it (scanModules) but for `loadedElsewhere`, being loaded (load())
    /// anyway, whose figures its load hands over: a big dump is parsed once. Shows nothing
    /// itself (openRun does).
    void setRun(Run run, const QString &loadedElsewhere = {});
    const Run &run() const { return m_run; }
    /// When openRun's module is shown.
    enum class RunShown : std::uint8_t
    {
        AtOnce,  ///< a run of one module, or a first file big enough to load beside the scan
        WhenRead ///< once every module is read (runRead)
    };
    /// Makes `run` the one open and shows its module, with no more asked of the caller: a run
    /// of one module loads it at once; a run of several is read (setRun), a first file of
    /// kReadAloneFrom bytes or more (the catalog lists the largest file first) loading at
    /// once beside the scan; when all are read, the one the device holds most for
    /// (Run::largest) loads, unless it is on show or loading already, or another module was
    /// asked for meanwhile (load()) or another run set.
    RunShown openRun(Run run);
    /// What weighOomModules hands its requester: the findings with the modules weighed, and the
    /// files that could not be read.
    using OomWeighed = std::function<void(const OomFindings &, const QStringList &)>;
    /// Weighs the modules in `files` for the messages of `findings` on a job (OomJoin); `done`
    /// gets the result on the GUI thread while `requester` lives, then oomWeighed says it
    /// happened. A newer request of the same requester replaces the one running; another
    /// requester's runs on (two logs dropped at once: each window gets its own result, not the
    /// last one's).
    void weighOomModules(OomFindings findings, const QStringList &files, QObject *requester,
                         OomWeighed done);
    /// What measureModules hands its requester: the modules measured, in the order given, and
    /// the files that did not load.
    using Measured =
        std::function<void(const std::vector<DeviceFit::Module> &, const QStringList &)>;
    /// Loads each of `files` (one per module) on a job and measures what the device holds
    /// while it runs (DeviceFit::Module::of); `progress(done, total)` as it goes and `done` at
    /// the end reach `requester` while it lives. A newer request of the same requester
    /// replaces its older one; another requester's runs on.
    void measureModules(const QStringList &files, QObject *requester,
                        std::function<void(int, int)> progress, Measured done);
    /// What readRuntimeMemory hands its requester: a capture's allocators (analysis/
    /// RuntimeMemory), or why there are none (its error, in words).
    using RuntimeRead =
        std::function<void(std::shared_ptr<const RuntimeMemory>, const QString &error)>;
    /// Reads the allocators' events of the profiler capture `capture` on a job; `done`
    /// reaches `requester` while it lives. A newer request of the same requester replaces its
    /// older one.
    void readRuntimeMemory(const QString &capture, QObject *requester, RuntimeRead done);
    /// What summarizeRun hands its requester: the run as a whole (analysis/RunSummary).
    using RunSummarized = std::function<void(const RunSummary &)>;
    /// Reads every module of `files` for the run summary (RunFacts), side by side on a job,
    /// `progress(done, total)` as they are read; `done` gets the summary. A newer request of
    /// the same requester replaces its older one; another requester's runs on.
    void summarizeRun(const QStringList &files, QObject *requester,
                      std::function<void(int, int)> progress, RunSummarized done);

    // --- Derived data -----------------------------------------------------------------------

    /// Dumps with at least this many values (50,000 unless set) build layouts and breakdowns
    /// on jobs; smaller ones at once.
    void setBackgroundFrom(std::size_t values) { m_backgroundFrom = values; }
    bool buildsInBackground(const Dump &dump) const;

    /// The Gantt rows of `dump` in `order`: at once when known or small; else null while a job
    /// builds them (ganttRowsReady follows). Remembered as the order to prepare next load.
    std::shared_ptr<const GanttRows> ganttRows(const std::shared_ptr<const Dump> &dump,
                                               GanttOrder order);
    /// The memory-map layout of `dump` for `allocation` (or kAllAllocations), likewise.
    std::shared_ptr<const MemoryMapLayout> mapLayout(const std::shared_ptr<const Dump> &dump,
                                                     int allocation);
    /// What is live at `step` (the memory space's peak when outside the program) in the
    /// memory space on show: at once when known or small, else null while a job computes it
    /// (breakdownReady follows). One job runs at a time: asked for another step meanwhile, it
    /// returns null and the caller asks again on breakdownReady. `now`: computed on the calling
    /// thread whatever the size (an export the user asked for).
    std::shared_ptr<const StepBreakdown>
    breakdown(const std::shared_ptr<const Dump> &dump,
              const std::shared_ptr<const MemoryTimeline> &timeline, qint64 step, bool now = false);
    bool isComputingBreakdown() const;
    /// The patterns of library files that the breakdown's "by source" looks past, so the
    /// user's own line shows (SourceFrames.h; the defaults until set). Another list drops the
    /// breakdown at hand and emits libraryPatternsChanged: the views ask again.
    void setLibraryPatterns(std::vector<std::string> patterns);
    const std::vector<std::string> &libraryPatterns() const { return m_libraryPatterns; }
    /// The uses, positions, producers and consumers of `value` (kept for the last value asked
    /// for, which every view asks for in turn after a click).
    std::shared_ptr<const ValueFlow> flow(const std::shared_ptr<const Dump> &dump, int value);
    /// Shows lever `lever` of the dump on show (CategoryReport::levers) as a curve: the live
    /// bytes with it applied (CategoryReport::leverCurve), worked out on a job and handed over
    /// by leverShown; -1 takes it away. Another dump takes it away too.
    void showLever(int lever);
    int shownLever() const { return m_lever; }

    // --- Selection rules --------------------------------------------------------------------

    /// The memory space on show (its @N colour): the one chosen when `timeline` has it, else
    /// its primary space.
    int memorySpaceIn(const MemoryTimeline &timeline) const;
    int memorySpace() const;
    void setMemorySpace(int memorySpace);
    /// The device memory budget of the session, in bytes (0: none): one for every view and
    /// window — the Memory Usage line and headroom, Device Fit's limit, an out-of-memory
    /// message's capacity. budgetChanged when it changes.
    qint64 budget() const { return m_budget; }
    void setBudget(qint64 bytes);
    /// Moves the step by `delta`, clamped to the program (from step 0 when there is none).
    void stepBy(qint64 delta);
    /// The step, clamped to the program.
    void setStep(qint64 step);
    /// The peak step of the memory space on show.
    void goToPeak();
    /// Walks the data flow from the selected value: to the largest value its instruction reads
    /// (producer) or the largest value defined by one of its readers (consumer). Ties: the
    /// lowest id. Nothing happens when there is none.
    void goToProducer();
    void goToConsumer();

Q_SIGNALS:
    void loadStarted(const QString &path);
    void loadProgress(qint64 done, qint64 total);
    void loaded(const bufferscope::LoadedDump &loaded);
    void loadFailed(const QString &path, const QString &error);
    void loadCancelled(const QString &path);
    /// current() is another dump; the subscribers are being handed it (the selection is
    /// frozen until dumpShown).
    void dumpChanged();
    /// Every subscriber holds current(); the selection is live again, at the peak.
    void dumpShown();
    void modulesScanned(const QList<bufferscope::ScannedModule> &modules);
    void scanFinished();
    /// Every module of the run has its figures: the scan finished and the module loaded
    /// beside it handed its over. Run::largest is then final (and openRun's module loading).
    void runRead();
    /// An out-of-memory message had its modules weighed (the result went to its requester):
    /// a state change, for observers such as the screenshot mode.
    void oomWeighed();
    void ganttRowsReady();
    void mapLayoutReady();
    void breakdownReady();
    void memorySpaceChanged(int memorySpace);
    void budgetChanged(qint64 bytes);
    void libraryPatternsChanged();
    /// The lever showLever asked for, and its curve (empty: none shown).
    void leverShown(int lever, const std::vector<std::int64_t> &curve);

private:
    /// The selection rule: the step that goes with choosing `value` at `step`.
    qint64 stepFor(int value, qint64 step) const;
    void handTo(std::size_t subscriber);
    void fillNext(std::size_t next, quint64 generation);
    void finishShowing();
    bool isCurrent(const std::shared_ptr<const Dump> &dump) const;

    Selection *m_selection;
    JobRunner *m_jobs;
    std::map<Action, QAction *> m_actions;
    JobRunner::Lane m_loadLane;
    JobRunner::Lane m_scanLane;
    int m_threads = 0;
    JobRunner::Lane m_leverLane;
    int m_lever = -1;
    /// A lane per requester of every request a window makes — weighOomModules (per
    /// out-of-memory window), open (the window's opening, each out-of-memory window's
    /// folder), measureModules (per Device Fit), summarizeRun and compareRuns (per run
    /// window): a newer request replaces only the same requester's older one, so any two
    /// windows may ask at once and each gets its answer.
    QHash<const QObject *, JobRunner::Lane> m_oomLanes;
    QHash<const QObject *, JobRunner::Lane> m_openLanes;
    QHash<const QObject *, JobRunner::Lane> m_fitLanes;
    QHash<const QObject *, JobRunner::Lane> m_compareLanes;
    qint64 m_budget = 0;
    QHash<const QObject *, JobRunner::Lane> m_runLanes;
    QHash<const QObject *, JobRunner::Lane> m_runtimeLanes; ///< per Runtime Memory window
    JobRunner::Lane laneFor(QHash<const QObject *, JobRunner::Lane> &lanes, QObject *requester,
                            const char *name);
    LoadedDump m_current;
    Run m_run;
    QString m_runSkipped;               ///< the run's module its scan left to a load (noteFigures)
    bool m_showLargestWhenRead = false; ///< openRun waits for the run to be read
    /// load() without forgetting that openRun waits for the run.
    void loadModule(const QString &path);
    /// The figures of the run's module the scan skipped, from its load (or why it has none):
    /// kept in the run and handed over as modulesScanned. Ignored for any other file, and
    /// once the module has its figures.
    void noteFigures(const QString &file, const ModuleFigures &figures);
    /// Every module of the run has its figures: openRun's module loads, and runRead.
    void finishRun();
    struct Subscriber
    {
        QPointer<QObject> object;
        QString name;
        Taker take;
    };
    std::vector<Subscriber> m_subscribers;
    quint64 m_fillGeneration = 0; ///< a newer show() stops an older fill
    bool m_filling = false;
    QStringList m_fillCosts; ///< what each subscriber cost the GUI thread (--verbose)
    QElapsedTimer m_fillClock;
    /// Dumps replaced by show() that views may still hold, until the fill is done.
    struct Retiring
    {
        LoadedDump loaded;
        std::shared_ptr<const GanttRows> rows;
        std::shared_ptr<const MemoryMapLayout> layout;
        std::shared_ptr<const StepBreakdown> breakdown;
    };
    std::vector<std::shared_ptr<Retiring>> m_retiring;
    QString m_loadingPath;
    int m_memorySpace = -1; ///< chosen by the user; -1: the primary space
    std::size_t m_backgroundFrom = 50000;
    GanttOrder m_ganttOrder = GanttOrder::ByStart; ///< prepared by the next load
    int m_mapAllocation = MemoryMapLayout::kAllAllocations;
    /// Derived data of the dump on screen, the last of each asked for.
    Derived<GanttOrder, GanttRows> m_rows;
    Derived<int, MemoryMapLayout> m_layout;
    Derived<std::pair<qint64, int>, StepBreakdown> m_breakdown; ///< (step, memory space)
    std::vector<std::string> m_libraryPatterns;
    std::weak_ptr<const Dump> m_flowDump;
    int m_flowValue = -1;
    std::shared_ptr<const ValueFlow> m_flow;
};

} // namespace bufferscope
