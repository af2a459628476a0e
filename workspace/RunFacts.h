#pragma once

#include "analysis/RunDiff.h"
#include "analysis/RunSummary.h"
#include "open/ModuleRef.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace bufferscope {

/// Reads a folder's modules for the run summary (analysis/RunSummary): each module's figures,
/// collectives and ENTRY signature. The signature is read from the module's
/// `module_NNNN.NAME.before_optimizations.txt` beside it when there is one (the program as
/// traced, before XLA changed its parameters), else from its optimized HLO text
/// (`<stem>.txt`), else from the dump's parameter allocations.
struct RunFacts
{
    /// One module, on the calling thread; an unreadable one comes back with `read` false and
    /// its error.
    static RunSummary::Module read(const QString &path, int threads,
                                   const std::atomic<bool> *cancel = nullptr);
    /// Every module of a run's listing, under ModuleReader::readEach's memory policy;
    /// `done(i, module)` on the reading threads as each is read, in no set order. Categories
    /// are worked out for every module that may be its family's largest (each family's largest
    /// among them), not for every module.
    static void readEach(const std::vector<ModuleRef> &refs, int threads,
                         const std::atomic<bool> *cancel,
                         const std::function<void(std::size_t, RunSummary::Module)> &done);
    /// A folder's summary: every module read (readEach), then RunSummary::of.
    static RunSummary summarize(const QString &folder, int threads, std::size_t top = 20,
                                QStringList *problems = nullptr,
                                const std::atomic<bool> *cancel = nullptr);
    /// The same for modules already listed (a Run's).
    static RunSummary summarize(const std::vector<ModuleRef> &refs, int threads,
                                std::size_t top = 20, const std::atomic<bool> *cancel = nullptr);
    /// Two modules loaded whole and compared (DumpDiff): the deltas, the main cause and how
    /// much of each matched the other by structure; RunDiff asks for it.
    static RunDiff::Comparison compare(const RunSummary::Module &before,
                                       const RunSummary::Module &after, int threads);
};

} // namespace bufferscope
