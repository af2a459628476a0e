#pragma once

#include "model/Dump.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

struct ParseOptions
{
    /// Called from the parsing thread with bytes consumed so far and the total, about every MiB.
    std::function<void(std::int64_t done, std::int64_t total)> progress;
    /// Polled every few thousand lines; when set, parsing stops and the result is `cancelled`.
    const std::atomic<bool> *cancel = nullptr;
    /// Warnings kept in the Dump; the rest are only counted (Dump::suppressedWarnings).
    std::size_t maxWarnings = 1000;
    /// Threads for the parse (util/Parallel.h threadsFor): 0 is every core, 1 the serial path.
    /// The Dump is the same for every count.
    int threads = 0;
    /// Also read the files beside a module's dump that add to what it says: XLA's memory-usage
    /// report (checked against the dump, warnings where they differ) and the optimized HLO text
    /// (the call stacks). Off for a folder's figures (`list`, the Modules dock): they use
    /// neither.
    bool companions = true;
    /// Read the Used values section (each value's positions, uses and instruction text). Off
    /// for a folder's figures: totals, what the device holds and the live-bytes peak come from
    /// the allocations and the live ranges alone, and the section is most of a dump's bytes.
    /// Its lines are then passed over, not read: no warning about them, no value it alone names.
    bool usedValues = true;
};

struct LoadResult
{
    std::shared_ptr<const Dump> dump; ///< null on error or cancel
    std::string error;                ///< "FILE:LINE: what was wrong", empty on success
    std::string errorFile;
    std::int64_t errorLine = 0;
    bool cancelled = false;
    /// The threaded parse met something only the serial parse decides (damage it must report
    /// in file order) and the file was read again on one thread.
    bool readAgainSerially = false;

    bool ok() const { return dump != nullptr; }
};

/// Reads XLA buffer-assignment dumps of every era (docs/FORMAT.md Part B) into an immutable Dump.
/// One pass over a memory-mapped file, no regular expressions; all strings are interned.
class DumpParser
{
public:
    /// Loads a text dump from any of its files; a 2026 split module's siblings are found by
    /// stem (ModuleFiles). Text only: a module of any format is read by open/ModuleReader.
    static LoadResult loadFile(const std::string &path, const ParseOptions &options = {});
    /// loadFile, with `reportPath`: the memory-usage report the dump was opened through, read
    /// with it and checked against it.
    static LoadResult loadText(const std::string &path, const ParseOptions &options,
                               const std::string &reportPath);
    /// loadText of a module whose files are known (a folder's listing found them: no look for
    /// each sibling on disk), in reading order: the allocations first, then the values and the
    /// live ranges of XLA's 2026 split.
    static LoadResult loadFiles(const std::vector<std::string> &files, const ParseOptions &options,
                                const std::string &reportPath);
    /// Parses text held in memory (tests, the embedded sample). `name` stands for its path.
    static LoadResult loadBuffer(std::string_view text, const std::string &name,
                                 const ParseOptions &options = {});

private:
    /// `path` as opened (the part a user gave), `paths` its module's files in reading order.
    static LoadResult loadParts(const std::string &path, const std::vector<std::string> &paths,
                                const ParseOptions &options, const std::string &reportPath);
};

} // namespace bufferscope
