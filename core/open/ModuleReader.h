#pragma once

#include "open/ModuleRef.h"
#include "parse/DumpParser.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace bufferscope {

/// A module of at least this many bytes is read alone, on every thread; smaller ones are read
/// one per thread, side by side: a folder's modules are mostly small, and helper threads
/// started per file cost more than they gave. Measured in tests/bench/README.md, "A folder of
/// modules".
constexpr std::int64_t kReadAloneFrom = std::int64_t{16} << 20;

/// Reads a module the catalog found (open/Catalog), by its format: the one place a module's
/// format picks its reader.
struct ModuleReader
{
    /// A module that takes more memory than there is is an error naming its file (std::bad_alloc
    /// is caught here, wherever the reading threw it), never the end of the process.
    static LoadResult load(const ModuleRef &ref, const ParseOptions &options = {});
    /// load(Catalog::refOf(path)): a path named by the user or handed back by a view.
    static LoadResult loadPath(const std::string &path, const ParseOptions &options = {});

    /// Every module of a run, read under one memory policy: modules of kReadAloneFrom bytes
    /// or more alone on `threads` threads; the others side by side, one per thread; each
    /// profiler capture read once, its modules loaded from that one read, one capture at a
    /// time. `done(i, result, threads)` is called on the reading thread as module `i` is read
    /// (in no set order), with the threads it was read on (for the work that follows). A
    /// memory-usage report's result is the reader's error: the caller reads reports itself.
    /// `base.cancel` stops it between modules.
    static void readEach(const std::vector<ModuleRef> &refs, int threads, const ParseOptions &base,
                         const std::function<void(std::size_t, LoadResult, int)> &done);

    /// Pairs of modules (a run comparison's pairs), each pair read on one thread and the pairs
    /// side by side; a profiler capture is read once for every pair with a member in it
    /// (pairs of the same two captures read together, after one read of each), where loading
    /// pair by pair read it once per member. `done(i, first, second)` is called on the
    /// reading thread as pair `i` is read, in no set order. `base.cancel` stops it between
    /// pairs.
    static void readPairs(const std::vector<std::pair<ModuleRef, ModuleRef>> &pairs, int threads,
                          const ParseOptions &base,
                          const std::function<void(std::size_t, LoadResult, LoadResult)> &done);

    /// How many times this process has read a module's file so far: each load and loadPath,
    /// each module readEach reads on its own, and each capture readEach or readPairs reads
    /// once for all its members. For the tests that check a run's files are read once.
    static std::uint64_t reads();

private:
    static LoadResult loadAs(const ModuleRef &ref, const ParseOptions &options);
};

} // namespace bufferscope
