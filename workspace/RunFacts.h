#pragma once

#include "LoadedDump.h"
#include "analysis/DeviceFit.h"
#include "analysis/RunDiff.h"
#include "analysis/RunSummary.h"
#include "open/ModuleRef.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace bufferscope {

/// Reads a folder's modules for the run summary (analysis/RunSummary): each module's figures,
/// collectives and ENTRY signature. The signature is read from the module's
/// `module_NNNN.NAME.before_optimizations.txt` beside it when there is one (the program as
/// traced, before XLA changed its parameters), else from its optimized HLO text
/// (`<stem>.txt`), else from the dump's parameter allocations.
struct RunFacts
{
    /// Every module of a run's listing, under ModuleReader::readEach's memory policy;
    /// `done(i, module)` on the reading threads as each is read, in no set order. Categories
    /// are worked out for every module that may be its family's largest (each family's largest
    /// among them), not for every module.
    static void readEach(const std::vector<ModuleRef> &refs, int threads,
                         const std::atomic<bool> *cancel,
                         const std::function<void(std::size_t, RunSummary::Module)> &done);
    /// One module as the run's scan read it.
    struct Scanned
    {
        ModuleFigures figures;                ///< what the Modules dock ranks and shows
        RunSummary::Module module;            ///< what Run Summary and the run comparison read
        std::optional<DeviceFit::Module> fit; ///< what Device Fit weighs, when asked for
    };
    /// The run's one scan (the Workspace's): readEach, each module read once for its figures,
    /// its facts and (`withFit`) what Device Fit weighs. A memory-usage report's figures are
    /// its own (ModuleFigures::ofReport).
    static void scanEach(const std::vector<ModuleRef> &refs, int threads,
                         const std::atomic<bool> *cancel, bool withFit,
                         const std::function<void(std::size_t, Scanned)> &done);
    /// A folder's summary: every module read (readEach), then RunSummary::of.
    static RunSummary summarize(const QString &folder, int threads, std::size_t top = 20,
                                QStringList *problems = nullptr,
                                const std::atomic<bool> *cancel = nullptr);
    /// The same for modules already listed (a Run's).
    static RunSummary summarize(const std::vector<ModuleRef> &refs, int threads,
                                std::size_t top = 20, const std::atomic<bool> *cancel = nullptr);
    /// The same, the facts already known of some (a Run's, by file) taken as they are: only the
    /// others are read, `progress(read, of)` after each.
    static RunSummary summarize(const std::vector<ModuleRef> &refs,
                                const QHash<QString, RunSummary::Module> &known, int threads,
                                std::size_t top, const std::atomic<bool> *cancel,
                                const std::function<void(std::size_t, std::size_t)> &progress = {});
    /// Two modules loaded whole and compared (DumpDiff): the deltas, the main cause and how
    /// much of each matched the other by structure; RunDiff asks for it.
    static RunDiff::Comparison compare(const RunSummary::Module &before,
                                       const RunSummary::Module &after, int threads);
    /// Every pair compared as compare() compares one, the pairs read together
    /// (ModuleReader::readPairs: a capture read once for all its members, where a pair at a
    /// time read it once per member), side by side on `threads`; RunDiff's CompareAll. None
    /// is compared once `cancel` is set.
    static std::vector<RunDiff::Comparison> compareEach(const std::vector<RunDiff::Pair> &pairs,
                                                        int threads,
                                                        const std::atomic<bool> *cancel = nullptr);
};

} // namespace bufferscope
