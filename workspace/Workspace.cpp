#include "Workspace.h"

#include "models/Selection.h"

#include <QAction>
#include <QKeySequence>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace bufferscope {

namespace {
/// The figures of a module a load did not read: why not.
ModuleFigures notRead(const QString &why)
{
    ModuleFigures figures;
    figures.status = ModuleFigures::Status::NotRead;
    figures.error = why;
    return figures;
}
} // namespace

Workspace::Workspace(QObject *parent)
    : QObject(parent), m_selection(new Selection(this)), m_jobs(new JobRunner(this)),
      m_loadLane(m_jobs->newLane("load", JobRunner::Scope::Session)),
      m_scanLane(m_jobs->newLane("module scan", JobRunner::Scope::Session)),
      m_leverLane(m_jobs->newLane("lever", JobRunner::Scope::Dump)),

      m_rows(m_jobs, m_jobs->newLane("gantt rows", JobRunner::Scope::Dump),
             decltype(m_rows)::Jobs::Latest, this, [this] { Q_EMIT ganttRowsReady(); }),
      m_layout(m_jobs, m_jobs->newLane("memory-map layout", JobRunner::Scope::Dump),
               decltype(m_layout)::Jobs::Latest, this, [this] { Q_EMIT mapLayoutReady(); }),
      // O(values) each: one at a time, so stepping faster than they compute never has two
      // share the cores, and the steps in between are never computed.
      m_breakdown(m_jobs, m_jobs->newLane("breakdown", JobRunner::Scope::Dump),
                  decltype(m_breakdown)::Jobs::OneAtATime, this,
                  [this] { Q_EMIT breakdownReady(); }),
      m_libraryPatterns(defaultLibraryPatterns())
{
    qRegisterMetaType<LoadedDump>();
    qRegisterMetaType<ModuleFigures>();
    m_selection->setStepRule([this](int value, qint64 step) { return stepFor(value, step); });

    const auto add = [this](Action which, const QString &text, const QKeySequence &keys,
                            auto slot) {
        auto *a = new QAction(text, this);
        a->setShortcut(keys);
        connect(a, &QAction::triggered, this, slot);
        m_actions[which] = a;
    };
    add(Action::PreviousStep, tr("&Previous Step"), QKeySequence(Qt::ALT | Qt::Key_Left),
        [this] { stepBy(-1); });
    add(Action::NextStep, tr("&Next Step"), QKeySequence(Qt::ALT | Qt::Key_Right),
        [this] { stepBy(1); });
    add(Action::GoToPeak, tr("Go to &Peak"), QKeySequence(Qt::CTRL | Qt::Key_P),
        [this] { goToPeak(); });
    add(Action::ClearSelection, tr("&Clear Selection"), QKeySequence(Qt::Key_Escape),
        [this] { m_selection->clear(); });
    add(Action::GoToProducer, tr("Go to P&roducer"), QKeySequence(Qt::ALT | Qt::Key_Up),
        [this] { goToProducer(); });
    add(Action::GoToConsumer, tr("Go to C&onsumer"), QKeySequence(Qt::ALT | Qt::Key_Down),
        [this] { goToConsumer(); });
    m_actions[Action::GoToProducer]->setToolTip(
        tr("Select the largest value the selected value's instruction reads"));
    m_actions[Action::GoToConsumer]->setToolTip(
        tr("Select the largest value made by an instruction that reads the selected value"));
}

Workspace::~Workspace()
{
    // The dump and what was derived from it are freed off the GUI thread, like any old dump.
    m_jobs->release(std::move(m_current), m_rows.drop(), m_layout.drop(), m_breakdown.drop(),
                    std::move(m_retiring));
}

QAction *Workspace::action(Action which) const
{
    return m_actions.at(which);
}

// --- The dump on screen ---------------------------------------------------------------------

void Workspace::show(LoadedDump loaded, Fill fill)
{
    m_jobs->dumpChanged();
    LoadedDump old = std::exchange(m_current, std::move(loaded));
    if (m_lever >= 0) {
        m_lever = -1;
        Q_EMIT leverShown(-1, {});
    }
    m_current.categorize(); // the load job's are kept; other callers' are computed here
    std::shared_ptr<const GanttRows> rows = m_rows.drop();
    std::shared_ptr<const MemoryMapLayout> layout = m_layout.drop();
    // The load job built them; the workspace keeps them from now on.
    if (m_current.ganttRows) {
        const GanttOrder order = m_current.ganttRows->order;
        m_rows.keep(order, std::exchange(m_current.ganttRows, nullptr));
    }
    if (m_current.mapLayout) {
        const int allocation = m_current.mapLayout->allocation;
        m_layout.keep(allocation, std::exchange(m_current.mapLayout, nullptr));
    }
    // The views still hold the old dump until they take the new one: it is kept here and freed
    // off the GUI thread once they all have (a view must not hold the last reference).
    m_retiring.push_back(std::make_shared<Retiring>(
        Retiring{std::move(old), std::move(rows), std::move(layout), m_breakdown.drop()}));
    m_selection->setFrozen(false);
    m_selection->clear();
    m_selection->setCurrentStep(-1);
    m_selection->setFrozen(true);
    std::erase_if(m_subscribers, [](const Subscriber &s) { return s.object.isNull(); });
    const quint64 generation = ++m_fillGeneration;
    m_filling = true;
    m_fillCosts.clear();
    m_fillClock.start();
    Q_EMIT dumpChanged();
    if (fill == Fill::AtOnce) {
        for (std::size_t i = 0; i < m_subscribers.size() && generation == m_fillGeneration; ++i)
            handTo(i);
        if (generation == m_fillGeneration)
            finishShowing();
        return;
    }
    QTimer::singleShot(0, this, [this, generation] { fillNext(0, generation); });
}

void Workspace::subscribe(QObject *subscriber, const QString &name, Taker take)
{
    // A destroyed subscriber's entry stays (its pointer nulls itself) until the next show(), so
    // a fill under way keeps its place in the list.
    m_subscribers.push_back({subscriber, name, std::move(take)});
}

void Workspace::handTo(std::size_t subscriber)
{
    // Copied: a taker may subscribe another view, which may move the list.
    const Subscriber s = m_subscribers[subscriber];
    if (!s.object)
        return;
    const qint64 start = m_fillClock.elapsed();
    QElapsedTimer clock;
    clock.start();
    s.take(m_current);
    m_fillCosts << QStringLiteral("%1 %2 ms (at %3)")
                       .arg(
                           s.name.isEmpty()
                               ? QString::fromLatin1(s.object->metaObject()->className())
                               : s.name,
                           QString::number(static_cast<double>(clock.nsecsElapsed()) / 1e6, 'f', 1),
                           QString::number(start));
}

void Workspace::fillNext(std::size_t next, quint64 generation)
{
    if (generation != m_fillGeneration)
        return; // a newer dump took over
    if (next >= m_subscribers.size()) {
        finishShowing();
        return;
    }
    handTo(next);
    // A timer, not a posted call: posted calls may all run in one pass of the event loop,
    // while a timer lets input, painting and the queued replots in between.
    QTimer::singleShot(1, this, [this, next, generation] { fillNext(next + 1, generation); });
}

void Workspace::finishShowing()
{
    spdlog::debug("showing the dump on the GUI thread, one view per event-loop turn: {}",
                  m_fillCosts.join(QStringLiteral(", ")).toStdString());
    m_filling = false;
    for (std::shared_ptr<Retiring> &old : m_retiring)
        m_jobs->release(std::move(old));
    m_retiring.clear();
    m_selection->setFrozen(false);
    m_selection->clear(); // nothing was set meanwhile, but the hover may have been
    goToPeak();
    Q_EMIT dumpShown();
}

bool Workspace::isCurrent(const std::shared_ptr<const Dump> &dump) const
{
    return dump && dump == m_current.dump;
}

// --- Loading --------------------------------------------------------------------------------

void Workspace::load(const QString &path)
{
    // Asked for: the run's largest no longer replaces it when the run is read.
    m_showLargestWhenRead = false;
    loadModule(path);
}

void Workspace::loadModule(const QString &path)
{
    m_loadingPath = path;
    Q_EMIT loadStarted(path);
    const GanttOrder order = m_ganttOrder;
    const int allocation = m_mapAllocation;
    struct Result
    {
        bool ok = false;
        LoadedDump loaded;
        ModuleFigures figures; ///< for the run, should its scan have left this module to the load
        QString error;
    };
    m_jobs->run(
        m_loadLane, this,
        [ref = m_run.refOf(path), order, allocation,
         threads = m_threads](const JobControl &control) {
            Result r;
            r.ok = loadDump(
                ref, r.loaded, r.error, control.flag(),
                [&control](qint64 done, qint64 total) { control.progress(done, total); }, threads);
            if (r.ok && !control.cancelled()) {
                // Built here, next to the analyses, so showing the dump costs the GUI thread
                // only the views' own work.
                r.loaded.ganttRows = GanttRows::layOut(r.loaded.dump, order);
                const bool exists = allocation >= 0 && static_cast<std::size_t>(allocation) <
                                                           r.loaded.dump->allocations.size();
                r.loaded.mapLayout = MemoryMapLayout::layOut(
                    r.loaded.dump, exists ? allocation : MemoryMapLayout::kAllAllocations);
                r.loaded.categorize();
                r.figures = ModuleFigures::of(r.loaded);
            }
            return r;
        },
        [this, path](Result r) {
            m_loadingPath.clear();
            if (r.ok) {
                Q_EMIT loaded(r.loaded);
                show(std::move(r.loaded));
                // The run's module its scan left to this load takes its figures from it.
                noteFigures(path, r.figures);
            } else if (r.error.isEmpty()) {
                Q_EMIT loadCancelled(path);
                noteFigures(path, notRead(tr("loading was cancelled")));
            } else {
                Q_EMIT loadFailed(path, r.error);
                ModuleFigures unreadable;
                unreadable.status = ModuleFigures::Status::Unreadable;
                unreadable.error = r.error;
                noteFigures(path, unreadable);
            }
        },
        [this](qint64 done, qint64 total) { Q_EMIT loadProgress(done, total); });
}

void Workspace::cancelLoad()
{
    if (!m_jobs->isBusy(m_loadLane))
        return;
    m_jobs->cancel(m_loadLane);
    const QString path = std::exchange(m_loadingPath, QString());
    Q_EMIT loadCancelled(path);
    noteFigures(path, notRead(tr("loading was cancelled")));
}

bool Workspace::isLoading() const
{
    return m_jobs->isBusy(m_loadLane);
}

// The run (WorkspaceRun.cpp) and the requests' lanes (WorkspaceRequests.cpp) are in
// files of their own.

// --- Derived data ---------------------------------------------------------------------------

bool Workspace::buildsInBackground(const Dump &dump) const
{
    return dump.values.size() >= m_backgroundFrom;
}

std::shared_ptr<const GanttRows> Workspace::ganttRows(const std::shared_ptr<const Dump> &dump,
                                                      GanttOrder order)
{
    if (!dump)
        return nullptr;
    if (!isCurrent(dump))
        return GanttRows::layOut(dump, order); // a dump not on show (export, tests): at once
    m_ganttOrder = order;
    // A million rows take a few hundred ms to sort: the view keeps the old ones meanwhile.
    return m_rows.get(order, !buildsInBackground(*dump),
                      [dump, order](const JobControl *) { return GanttRows::layOut(dump, order); });
}

std::shared_ptr<const MemoryMapLayout> Workspace::mapLayout(const std::shared_ptr<const Dump> &dump,
                                                            int allocation)
{
    if (!dump)
        return nullptr;
    if (!isCurrent(dump))
        return MemoryMapLayout::layOut(dump, allocation);
    m_mapAllocation = allocation;
    return m_layout.get(allocation, !buildsInBackground(*dump),
                        [dump, allocation](const JobControl *) {
                            return MemoryMapLayout::layOut(dump, allocation);
                        });
}

std::shared_ptr<const StepBreakdown>
Workspace::breakdown(const std::shared_ptr<const Dump> &dump,
                     const std::shared_ptr<const MemoryTimeline> &timeline, qint64 step, bool now)
{
    if (!dump || !timeline)
        return nullptr;
    const std::int32_t space = memorySpaceIn(*timeline);
    if (step < 0 || step >= dump->stepCount()) {
        const SpaceTimeline *s = timeline->space(space);
        step = s && dump->hasLiveRanges() ? s->peak.step : -1;
    }
    BreakdownOptions options;
    options.libraryPatterns = m_libraryPatterns;
    options.callStacks = true;
    const auto compute = [dump, timeline, step, space,
                          options = std::move(options)](const JobControl *control) {
        auto b = std::make_shared<StepBreakdown>();
        b->dump = dump;
        b->step = step;
        b->memorySpace = space;
        b->breakdown = Breakdown::compute(*dump, step, space, options);
        if (step >= 0 && !(control && control->cancelled()))
            b->findings = PeakExplainer::explain(*dump, *timeline, step, space, b->breakdown.live,
                                                 options.libraryPatterns);
        return std::shared_ptr<const StepBreakdown>(std::move(b));
    };
    if (!isCurrent(dump))
        return compute(nullptr);
    return m_breakdown.get({step, space}, now || !buildsInBackground(*dump), compute);
}

void Workspace::showLever(int lever)
{
    m_jobs->cancel(m_leverLane);
    const LoadedDump &shown = m_current;
    if (lever < 0 || !shown.dump || !shown.timeline || !shown.categories || !shown.byCategory ||
        static_cast<std::size_t>(lever) >= shown.byCategory->levers.size()) {
        if (m_lever >= 0) {
            m_lever = -1;
            Q_EMIT leverShown(-1, {});
        }
        return;
    }
    m_lever = lever;
    const Lever::Kind kind = shown.byCategory->levers[static_cast<std::size_t>(lever)].kind;
    m_jobs->run(
        m_leverLane, this,
        [dump = shown.dump, timeline = shown.timeline, categories = shown.categories,
         kind](const JobControl &) {
            return CategoryReport::leverCurve(*dump, *timeline, *categories, kind);
        },
        [this, lever, dump = shown.dump](const std::vector<std::int64_t> &curve) {
            if (m_lever == lever && m_current.dump == dump)
                Q_EMIT leverShown(lever, curve);
        });
}

bool Workspace::isComputingBreakdown() const
{
    return m_breakdown.isBuilding();
}

void Workspace::setLibraryPatterns(std::vector<std::string> patterns)
{
    if (patterns == m_libraryPatterns)
        return;
    m_libraryPatterns = std::move(patterns);
    m_jobs->release(m_breakdown.drop());
    Q_EMIT libraryPatternsChanged();
}

// --- Selection rules ------------------------------------------------------------------------

int Workspace::memorySpaceIn(const MemoryTimeline &timeline) const
{
    if (m_memorySpace >= 0 && timeline.space(m_memorySpace))
        return m_memorySpace;
    const SpaceTimeline *primary = timeline.primary();
    return primary ? primary->memorySpace : 0;
}

int Workspace::memorySpace() const
{
    return m_current.timeline ? memorySpaceIn(*m_current.timeline) : std::max(0, m_memorySpace);
}

void Workspace::setMemorySpace(int space)
{
    const int before = memorySpace();
    m_memorySpace = space;
    if (memorySpace() != before)
        Q_EMIT memorySpaceChanged(memorySpace());
}

void Workspace::setBudget(qint64 bytes)
{
    bytes = std::max<qint64>(0, bytes);
    if (bytes == m_budget)
        return;
    m_budget = bytes;
    Q_EMIT budgetChanged(bytes);
}

void Workspace::setStep(qint64 step)
{
    if (!m_current.dump || m_current.dump->stepCount() == 0)
        return;
    m_selection->setCurrentStep(std::clamp<qint64>(step, 0, m_current.dump->stepCount() - 1));
}

void Workspace::stepBy(qint64 delta)
{
    setStep(std::max<qint64>(0, m_selection->currentStep()) + delta);
}

void Workspace::goToPeak()
{
    if (!m_current.timeline || !m_current.dump->hasLiveRanges())
        return;
    if (const SpaceTimeline *space = m_current.timeline->space(memorySpace()))
        m_selection->setCurrentStep(space->peak.step);
}

qint64 Workspace::stepFor(int value, qint64 step) const
{
    // Choosing a value moves the step into its live range (unless it is there already).
    if (value < 0 || !m_current.dump ||
        static_cast<std::size_t>(value) >= m_current.dump->values.size())
        return step;
    const Value &v = m_current.dump->values[static_cast<std::size_t>(value)];
    return v.hasLiveRange() && !v.liveAt(step) ? v.start : step;
}

std::shared_ptr<const ValueFlow> Workspace::flow(const std::shared_ptr<const Dump> &dump, int value)
{
    if (!dump || value < 0 || static_cast<std::size_t>(value) >= dump->values.size())
        return std::make_shared<const ValueFlow>();
    if (m_flow && m_flowValue == value && m_flowDump.lock() == dump)
        return m_flow;
    m_flowDump = dump;
    m_flowValue = value;
    m_flow =
        std::make_shared<const ValueFlow>(ValueFlow::of(*dump, static_cast<std::uint32_t>(value)));
    return m_flow;
}

namespace {
int largestOf(const Dump &dump, const std::vector<std::uint32_t> &values)
{
    int best = -1;
    for (std::uint32_t v : values)
        if (best < 0 || dump.values[v].size > dump.values[static_cast<std::size_t>(best)].size)
            best = static_cast<int>(v);
    return best;
}
} // namespace

void Workspace::goToProducer()
{
    const int value = m_selection->currentValue();
    if (!m_current.dump || value < 0)
        return;
    const int next = largestOf(*m_current.dump, flow(m_current.dump, value)->producers);
    if (next >= 0)
        m_selection->setCurrentValue(next);
}

void Workspace::goToConsumer()
{
    const int value = m_selection->currentValue();
    if (!m_current.dump || value < 0)
        return;
    const int next = largestOf(*m_current.dump, flow(m_current.dump, value)->consumers);
    if (next >= 0)
        m_selection->setCurrentValue(next);
}

} // namespace bufferscope
