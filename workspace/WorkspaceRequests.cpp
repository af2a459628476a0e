// The Workspace's requests: each asker has a lane of its own per kind of request (laneFor), so
// that two windows asking at once are both answered, and an asker that goes takes its lane's
// jobs with it. Comparisons, the runtime memory of a capture, the out-of-memory window's
// modules, Device Fit's figures and Run Summary.
#include "OomJoin.h"
#include "RunFacts.h"
#include "Workspace.h"
#include "analysis/RuntimeMemory.h"
#include "models/QtText.h"
#include "parse/ModuleFiles.h"
#include "util/Parallel.h"

#include <mutex>
#include <optional>

namespace bufferscope {

JobRunner::Lane Workspace::laneFor(QHash<const QObject *, JobRunner::Lane> &lanes,
                                   QObject *requester, const char *name)
{
    auto lane = lanes.find(requester);
    if (lane == lanes.end()) {
        lane = lanes.insert(requester, m_jobs->newLane(name, JobRunner::Scope::Session));
        connect(requester, &QObject::destroyed, this, [this, &lanes, requester] {
            if (const auto gone = lanes.find(requester); gone != lanes.end()) {
                m_jobs->retireLane(*gone);
                lanes.erase(gone);
            }
        });
    }
    return *lane;
}

void Workspace::compareFiles(const QString &before, const QString &after, QObject *requester,
                             Compared done)
{
    m_jobs->run(
        laneFor(m_compareLanes, requester, "compare"), requester,
        [before = m_run.refOf(before), after = m_run.refOf(after), path = after,
         threads = m_threads](const JobControl &control) {
            ModuleComparison c;
            c.path = path;
            if (loadDump(before, c.before, c.error, control.flag(), {}, threads) &&
                loadDump(after, c.after, c.error, control.flag(), {}, threads) &&
                !control.cancelled()) {
                auto diff = std::make_shared<DumpDiff>(
                    DumpDiff::compute(*c.before.dump, *c.before.timeline, *c.after.dump,
                                      *c.after.timeline, control.flag(), threads));
                if (!diff->match.cancelled)
                    c.diff = std::move(diff);
            }
            return c;
        },
        [done = std::move(done)](const ModuleComparison &c) { done(c); });
}

void Workspace::readRuntimeMemory(const QString &capture, QObject *requester, RuntimeRead done)
{
    struct Result
    {
        std::shared_ptr<const RuntimeMemory> memory;
        QString error;
    };
    m_jobs->run(
        laneFor(m_runtimeLanes, requester, "runtime"), requester,
        [capture](const JobControl &) {
            std::string error;
            RuntimeMemory memory = RuntimeMemory::readCapture(pathBytes(capture), &error);
            Result r;
            if (error.empty())
                r.memory = std::make_shared<const RuntimeMemory>(std::move(memory));
            else
                r.error = toQString(error);
            return r;
        },
        [done = std::move(done)](Result r) { done(std::move(r.memory), r.error); });
}

void Workspace::compareRuns(const Run &before, const QString &after, QObject *requester,
                            RunsCompared done)
{
    m_jobs->run(
        laneFor(m_runLanes, requester, "run"), requester,
        [before, after, threads = m_threads](const JobControl &control) {
            // A run known only by its folders is listed here, on the job.
            const RunSummary a = before.modules.refs.empty()
                                     ? RunFacts::summarize(before.roots.value(0), threads, 20,
                                                           nullptr, control.flag())
                                     : RunFacts::summarize(before.modules.refs, before.facts,
                                                           threads, 20, control.flag());
            const RunSummary b = RunFacts::summarize(after, threads, 20, nullptr, control.flag());
            // Each pair on one thread, the pairs side by side and read together (a capture
            // once); none once cancelled.
            const std::atomic<bool> *cancel = control.flag();
            return RunDiff::of(
                a, b,
                [cancel](const RunSummary::Module &x, const RunSummary::Module &y) {
                    return cancel && cancel->load() ? RunDiff::Comparison()
                                                    : RunFacts::compare(x, y, 1);
                },
                [cancel, threads](const std::vector<RunDiff::Pair> &pairs) {
                    return RunFacts::compareEach(pairs, threads, cancel);
                });
        },
        [done = std::move(done)](const RunDiff &d) { done(d); });
}

void Workspace::compareWith(const QString &path, QObject *requester, Compared done)
{
    if (!m_current.dump)
        return;
    m_jobs->run(
        laneFor(m_compareLanes, requester, "compare"), requester,
        [ref = m_run.refOf(path), path, before = m_current,
         threads = m_threads](const JobControl &control) {
            ModuleComparison c;
            c.path = path;
            c.before = before;
            if (loadDump(ref, c.after, c.error, control.flag(), {}, threads) &&
                !control.cancelled()) {
                auto diff = std::make_shared<DumpDiff>(
                    DumpDiff::compute(*before.dump, *before.timeline, *c.after.dump,
                                      *c.after.timeline, control.flag(), threads));
                if (!diff->match.cancelled)
                    c.diff = std::move(diff);
            }
            return c;
        },
        [done = std::move(done)](const ModuleComparison &c) { done(c); });
}

void Workspace::weighOomModules(OomFindings findings, const QStringList &files, QObject *requester,
                                OomWeighed done)
{
    const JobRunner::Lane lane = laneFor(m_oomLanes, requester, "oom");
    struct Result
    {
        OomFindings findings;
        QStringList errors;
        bool done = false;
    };
    m_jobs->run(
        lane, requester,
        [findings = std::move(findings), refs = m_run.refsOf(files),
         threads = m_threads](const JobControl &control) {
            Result r;
            r.findings = findings;
            r.done = weighModules(r.findings, refs, r.errors, control.flag(), threads);
            return r;
        },
        [this, done = std::move(done)](const Result &r) {
            if (!r.done)
                return;
            if (done)
                done(r.findings, r.errors);
            Q_EMIT oomWeighed();
        });
}

void Workspace::measureModules(const QStringList &files, QObject *requester,
                               std::function<void(int, int)> progress, Measured done)
{
    struct Result
    {
        std::vector<DeviceFit::Module> modules;
        QStringList errors;
        std::vector<std::pair<QString, DeviceFit::Module>> read; ///< measured here
    };
    // What the run's scan measured is taken as it is; only the others are read, under the
    // reader's policy (small modules side by side, a large one alone on every thread, a
    // capture once for all its members). Looked up and copied on the job, not here.
    m_jobs->run(
        laneFor(m_fitLanes, requester, "fit"), requester,
        [files, known = m_run.fits, all = m_run.refsOf(files),
         threads = m_threads](const JobControl &control) {
            std::vector<std::optional<DeviceFit::Module>> measured(all.size());
            std::vector<ModuleRef> refs;
            std::vector<std::size_t> at; // refs[k] is measured[at[k]]
            for (std::size_t i = 0; i < all.size(); ++i) {
                const auto found = known.constFind(files[static_cast<qsizetype>(i)]);
                if (found != known.cend()) {
                    measured[i] = *found;
                } else {
                    refs.push_back(all[i]);
                    at.push_back(i);
                }
            }
            std::vector<QString> errors(measured.size());
            std::mutex lock;
            std::size_t measuredSoFar = 0;
            loadEach(refs, threads, control.flag(),
                     [&](std::size_t k, const LoadedDump &d, const QString &error) {
                         const ModuleRef &ref = refs[k];
                         if (d.dump)
                             measured[at[k]] = DeviceFit::Module::of(
                                 ModuleFiles::moduleName(ref.path), ref.path, *d.dump, *d.timeline);
                         else
                             errors[at[k]] = error;
                         const std::lock_guard<std::mutex> hold(lock);
                         control.progress(static_cast<qint64>(++measuredSoFar),
                                          static_cast<qint64>(refs.size()));
                     });
            Result r;
            for (const std::size_t i : at)
                if (measured[i])
                    r.read.emplace_back(pathFromBytes(measured[i]->file), *measured[i]);
            for (std::size_t i = 0; i < measured.size(); ++i) {
                if (measured[i])
                    r.modules.push_back(std::move(*measured[i]));
                else if (!errors[i].isEmpty())
                    r.errors << errors[i];
            }
            return r;
        },
        [this, done = std::move(done)](const Result &r) {
            // What was measured here joins the run, for the next request.
            for (const auto &[file, m] : r.read)
                if (m_run.modules.find(file) && !m_run.fits.contains(file))
                    m_run.fits.insert(file, m);
            done(r.modules, r.errors);
        },
        [progress = std::move(progress)](qint64 at, qint64 total) {
            progress(static_cast<int>(at), static_cast<int>(total));
        });
}

void Workspace::summarizeRun(const QStringList &files, QObject *requester,
                             std::function<void(int, int)> progress, RunSummarized done)
{
    // The facts the run's scan read are taken as they are; only the modules it has none of
    // (the one loaded beside it, or all while it still reads) are read here.
    m_jobs->run(
        laneFor(m_runLanes, requester, "run"), requester,
        [refs = m_run.refsOf(files), known = m_run.facts,
         threads = m_threads](const JobControl &control) {
            return RunFacts::summarize(refs, known, threads, 50, control.flag(),
                                       [&control](std::size_t read, std::size_t of) {
                                           control.progress(static_cast<qint64>(read),
                                                            static_cast<qint64>(of));
                                       });
        },
        [this, done = std::move(done)](const RunSummary &s) {
            // What was read here joins the run's facts, for the next request.
            for (const RunSummary::Module &m : s.modules) {
                const QString file = pathFromBytes(m.file);
                if (m.read && m_run.modules.find(file) && !m_run.facts.contains(file))
                    m_run.facts.insert(file, m);
            }
            done(s);
        },
        [progress = std::move(progress)](qint64 at, qint64 total) {
            progress(static_cast<int>(at), static_cast<int>(total));
        });
}

} // namespace bufferscope
