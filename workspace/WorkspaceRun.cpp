// The Workspace's run: what was opened, classified on a job; the modules of a folder or
// capture scanned for the Modules dock; the run the dock and the run views read.
#include "OomJoin.h"
#include "RunFacts.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "open/ModuleReader.h"

#include <mutex>
#include <utility>

namespace bufferscope {

void Workspace::open(const QStringList &paths, QObject *requester, OpenedDone done)
{
    m_jobs->run(
        laneFor(m_openLanes, requester, "open"), requester,
        [paths](const JobControl &) { return Opened::classify(paths); },
        [done = std::move(done)](const Opened &opened) { done(opened); });
}

void Workspace::openText(const QString &name, std::string text, const QStringList &paths,
                         QObject *requester, TextOpened done)
{
    struct Read
    {
        OomFindings findings;
        Opened opened;
    };
    m_jobs->run(
        laneFor(m_openLanes, requester, "open"), requester,
        [name, text = std::move(text), paths](const JobControl &) {
            Read read;
            read.findings = oomFindingsOf(name, text);
            if (!paths.isEmpty())
                read.opened = Opened::classify(paths);
            return read;
        },
        [done = std::move(done)](Read read) { done(std::move(read.findings), read.opened); });
}

void Workspace::scanModules(const DumpFiles &found, const QString &skip)
{
    std::vector<ModuleRef> refs;
    for (qsizetype i = 0; i < found.files.size(); ++i)
        if (found.files[i] != skip)
            refs.push_back(found.refs[static_cast<std::size_t>(i)]);
    const int threads = scanThreads();
    // The dock's figures and the run views' facts of each module, from one read (RunFacts).
    struct Part
    {
        QList<ScannedModule> figures;
        std::vector<std::pair<QString, RunFacts::Scanned>> facts;
        bool isEmpty() const { return figures.isEmpty(); }
    };
    m_jobs->stream<Part>(
        m_scanLane, this,
        [refs = std::move(refs), threads](const JobControl &control, const auto &send) {
            // Handed over a few times a second: the dock fills as they come, without a
            // GUI-thread turn per module.
            std::mutex lock;
            Part pending;
            QElapsedTimer since;
            since.start();
            RunFacts::scanEach(refs, threads, control.flag(), true,
                               [&](std::size_t i, RunFacts::Scanned scanned) {
                                   const QString file = pathFromBytes(refs[i].path);
                                   const std::lock_guard<std::mutex> hold(lock);
                                   pending.figures.push_back({file, scanned.figures});
                                   if (scanned.figures.status != ModuleFigures::Status::NotRead)
                                       pending.facts.emplace_back(file, std::move(scanned));
                                   if (since.elapsed() >= 100) {
                                       send(std::exchange(pending, {}));
                                       since.restart();
                                   }
                               });
            if (!pending.isEmpty())
                send(std::move(pending));
        },
        [this](Part part) {
            // Moved in, not copied: this is the GUI thread.
            for (const ScannedModule &m : part.figures)
                m_run.figures.insert(m.file, m.figures);
            for (auto &[file, scanned] : part.facts) {
                m_run.facts.emplace(file, std::move(scanned.module));
                if (scanned.fit)
                    m_run.fits.emplace(file, std::move(*scanned.fit));
            }
            Q_EMIT modulesScanned(part.figures);
        },
        [this] {
            Q_EMIT scanFinished();
            if (m_runSkipped.isEmpty())
                finishRun();
        });
}

void Workspace::setRun(Run run, const QString &loadedElsewhere)
{
    m_showLargestWhenRead = false;
    m_run = std::move(run);
    m_run.figures.clear();
    m_run.facts.clear();
    m_run.fits.clear();
    m_runSkipped = m_run.modules.files.contains(loadedElsewhere) ? loadedElsewhere : QString();
    scanModules(m_run.modules, m_runSkipped);
}

void Workspace::noteFigures(const QString &file, const ModuleFigures &figures)
{
    if (file.isEmpty() || file != m_runSkipped)
        return;
    m_runSkipped.clear();
    m_run.figures.insert(file, figures);
    Q_EMIT modulesScanned({{file, figures}});
    if (!isScanning())
        finishRun();
}

Workspace::RunShown Workspace::openRun(Run run)
{
    const DumpFiles &found = run.modules;
    if (found.files.size() == 1) {
        // One module: it opens at once, and the run takes its figures from the load.
        const QString only = found.files.front();
        setRun(std::move(run), only);
        load(only);
        return RunShown::AtOnce;
    }
    // Several: each is read for its figures (a fraction of a load, many at a time), then the
    // one the device holds most for opens, the one that runs out of memory first. A big
    // first file (a load of seconds) starts loading at once, before the scan, which then
    // reads on one thread beside it; should another module hold more, that one opens when
    // all are read.
    const QString bigFirst =
        found.bytes.value(0) >= kReadAloneFrom ? found.files.front() : QString();
    if (!bigFirst.isEmpty())
        load(bigFirst);
    setRun(std::move(run), bigFirst);
    m_showLargestWhenRead = true;
    return bigFirst.isEmpty() ? RunShown::WhenRead : RunShown::AtOnce;
}

void Workspace::finishRun()
{
    if (std::exchange(m_showLargestWhenRead, false)) {
        const QString largest = m_run.largest();
        // A run's module, listed already: loaded, not classified again.
        if (!largest.isEmpty() && largest != m_current.path && largest != m_loadingPath)
            loadModule(largest);
    }
    Q_EMIT runRead();
}

bool Workspace::isScanning() const
{
    return m_jobs->isBusy(m_scanLane);
}

} // namespace bufferscope
