#pragma once

#include "analysis/Categories.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "layout/GanttRows.h"
#include "layout/MemoryMapLayout.h"
#include "model/Dump.h"
#include "open/ModuleRef.h"
#include "parse/DumpParser.h"

#include <QMetaType>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace bufferscope {

/// A loaded module: the immutable dump and its analyses, shared by every model and view.
struct LoadedDump
{
    std::shared_ptr<const Dump> dump;
    std::shared_ptr<const MemoryTimeline> timeline;
    /// What kind of memory each value is, and the categories' bytes and levers (the window's
    /// load job computes them: categorize()).
    std::shared_ptr<const ValueCategories> categories;
    std::shared_ptr<const CategoryReport> byCategory;
    QString path; ///< what was opened (":/…" for the embedded sample)
    /// Built by the load job alongside the analyses, in the order and allocation the views
    /// asked for last (null when not built: the workspace builds them on request).
    std::shared_ptr<const GanttRows> ganttRows;
    std::shared_ptr<const MemoryMapLayout> mapLayout;

    /// Computes categories and byCategory, once (after the timeline).
    void categorize();
    bool isEmbedded() const { return path.startsWith(QLatin1Char(':')); }
    /// Report::warningCount: the one count of warnings the window says.
    std::size_t warningCount() const;
};

/// What the Modules list shows of one module file.
struct ModuleFigures
{
    enum class Status
    {
        Read,
        Unreadable,
        NotRead ///< the scan was stopped before this file (or its load was cancelled)
    };
    Status status = Status::Read;
    qint64 total = 0;
    qint64 held = 0; ///< device: argument + output - alias + temp (analysis.device.held())
    MemoryAnalysis analysis;
    qint64 peak = 0;
    qint64 step = -1; ///< of the peak; -1 without live ranges
    int files = 0;
    QString error; ///< why it is unreadable
    /// Only the module's memory-usage report is there: its total, no held figure or peak
    /// (`held` is -1).
    bool reportOnly = false;

    /// The one ranking of modules, for the Modules dock and `list`: what the device holds while
    /// each runs first (what decides whether it fits), then the total; a module known only by
    /// its report after those with a held figure, unreadable ones last; ties by file path.
    static bool ranksAbove(const ModuleFigures &a, const QString &fileA, const ModuleFigures &b,
                           const QString &fileB);

    /// The figures of a loaded module: total bytes, held bytes, the device's live peak
    /// (DeviceFit::devicePeak) and its step.
    static ModuleFigures of(const LoadedDump &loaded);
    static ModuleFigures of(const Dump &dump, const MemoryTimeline &timeline);
    /// A module of which only the memory-usage report is here (a folder's listing keeps a
    /// module's report only when none of its dump files is beside it): its total, no peak.
    static ModuleFigures ofReport(const QString &path);
    /// A module whose load failed with `error` (Unreadable), or was cancelled (empty: NotRead).
    static ModuleFigures failed(const QString &error);
    /// Every module of `refs` read for its figures alone, the quickest way: the dump without
    /// what adds nothing to them (its Used values section, the memory-usage report and
    /// optimized HLO beside it: ParseOptions), nothing kept, under ModuleReader::readEach's
    /// memory policy. For `bufferscope list`, which shows the figures and nothing else (the
    /// window's scan reads the run's facts too: RunFacts::scanEach). `done(i, figures)` is
    /// called on the reading threads, in no set order.
    static void readEach(const std::vector<ModuleRef> &refs, int threads,
                         const std::atomic<bool> *cancel,
                         const std::function<void(std::size_t, ModuleFigures)> &done);
};

/// A module's figures as the folder scan read them (Workspace::modulesScanned).
struct ScannedModule
{
    QString file;
    ModuleFigures figures;
};

struct DumpDiff;

/// Two modules compared (Workspace::compareWith, compareFiles): the two and their diff, or why
/// not (`error`, "FILE:LINE: message"); `path` is the module asked for (after).
struct ModuleComparison
{
    LoadedDump before, after;
    std::shared_ptr<const DumpDiff> diff;
    QString path;
    QString error;
};

/// Parses `path` (a file, or ":/…" for an embedded resource) and computes its timeline, on the
/// calling thread: for the command line, tests and the workspace's load job. On failure
/// returns false and fills `error` ("FILE:LINE: message"); a cancelled load returns false
/// with `error` empty. `threads` for the parse and the timeline, as util/Parallel.h threadsFor
/// takes them (0: every core).
bool loadDump(const QString &path, LoadedDump &out, QString &error,
              const std::atomic<bool> *cancel = nullptr,
              const std::function<void(qint64, qint64)> &progress = {}, int threads = 0);
/// The same with the parse's options given: what to read (ParseOptions::usedValues,
/// companions), and the threads, cancel flag and progress, which the timeline shares.
bool loadDump(const QString &path, LoadedDump &out, QString &error, const ParseOptions &options);
/// The same for a module as the catalog listed it (a capture's member by its capture and
/// name): what the window's run hands its jobs, so no address is split again.
bool loadDump(const ModuleRef &ref, LoadedDump &out, QString &error,
              const std::atomic<bool> *cancel = nullptr,
              const std::function<void(qint64, qint64)> &progress = {}, int threads = 0);
bool loadDump(const ModuleRef &ref, LoadedDump &out, QString &error, const ParseOptions &options);
/// The rest of loadDump for a module already read (ModuleReader): its timeline computed.
bool finishLoad(LoadResult result, const QString &path, LoadedDump &out, QString &error,
                const ParseOptions &options);
/// Every module of `refs` loaded as loadDump loads one, under ModuleReader::readEach's policy:
/// a capture read once for all its members, small modules side by side. `done(i, loaded,
/// error)` on the reading threads as each is loaded, in no set order; `loaded.dump` is null
/// where it failed (`error` says why; empty when cancelled). A memory-usage report is not a
/// dump: its error says so, and the caller decides what to do with it.
void loadEach(const std::vector<ModuleRef> &refs, int threads, const std::atomic<bool> *cancel,
              const std::function<void(std::size_t, LoadedDump, QString)> &done);

} // namespace bufferscope

Q_DECLARE_METATYPE(bufferscope::LoadedDump)
Q_DECLARE_METATYPE(bufferscope::ModuleFigures)
