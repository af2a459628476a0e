#include "ModuleReader.h"

#include "open/Catalog.h"
#include "parse/HloProtoDump.h"
#include "parse/ModuleFiles.h"
#include "parse/XPlaneModules.h"
#include "util/MemoryBudget.h"
#include "util/Parallel.h"

#include <map>

namespace bufferscope {

namespace {

std::atomic<std::uint64_t> g_reads{0};

/// `read()`, or, when it takes more memory than there is, an error naming `path`: said of the
/// file, never the end of the run.
template <class Read> LoadResult guarded(const std::string &path, const Read &read)
{
    try {
        return read();
    } catch (const std::bad_alloc &) {
        LoadResult result;
        result.errorFile = path;
        result.error = path + ": there is not enough memory to read it (the machine, or the "
                              "limit it runs under, ran out while it was read)";
        return result;
    }
}

} // namespace

std::uint64_t ModuleReader::reads()
{
    return g_reads.load(std::memory_order_relaxed);
}

LoadResult ModuleReader::load(const ModuleRef &ref, const ParseOptions &options)
{
    g_reads.fetch_add(1, std::memory_order_relaxed);
    return guarded(ref.path, [&] { return loadAs(ref, options); });
}

LoadResult ModuleReader::loadAs(const ModuleRef &ref, const ParseOptions &options)
{
    switch (ref.format) {
    case ModuleFormat::DumpText:
        // Its files as the catalog found them; looked for beside it only when it has none.
        return ref.files.empty() ? DumpParser::loadText(ref.path, options, ref.report)
                                 : DumpParser::loadFiles(ref.files, options, ref.report);
    case ModuleFormat::HloProto:
        // XLA's binary module (--xla_dump_hlo_as_proto): the same Dump, worked out from the
        // proto.
        return HloProtoDumps::load(ref.files.front(), options);
    case ModuleFormat::CaptureMember:
    case ModuleFormat::Capture:
        return XPlaneModules::load(ref.container, ref.member, options);
    case ModuleFormat::ReportText:
    case ModuleFormat::ReportProto:
        break;
    }
    LoadResult result;
    result.errorFile = ref.path;
    result.error = ref.path + ": this is XLA's memory-usage report " +
                   "(BufferAssignment::MemoryUsageReport), not a buffer-assignment dump, and its " +
                   "module's '" + ModuleFiles::moduleName(ref.path) +
                   "-buffer-assignment.txt' is not beside it; 'bufferscope report' prints what the "
                   "report holds";
    return result;
}

LoadResult ModuleReader::loadPath(const std::string &path, const ParseOptions &options)
{
    return load(Catalog::refOf(path), options);
}

void ModuleReader::readEach(const std::vector<ModuleRef> &refs, int threads,
                            const ParseOptions &base,
                            const std::function<void(std::size_t, LoadResult, int)> &done)
{
    const std::atomic<bool> *cancel = base.cancel;
    const auto stopped = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    std::vector<std::size_t> alone;
    std::vector<std::size_t> sideBySide;
    std::map<std::string, std::vector<std::size_t>> captures; // container → its members
    for (std::size_t i = 0; i < refs.size(); ++i) {
        if (refs[i].format == ModuleFormat::CaptureMember)
            captures[refs[i].container].push_back(i);
        else
            (refs[i].bytes >= kReadAloneFrom ? alone : sideBySide).push_back(i);
    }
    const int all = threadsFor(threads);
    for (const std::size_t i : alone)
        if (!stopped()) {
            ParseOptions options = base;
            options.threads = threads;
            done(i, load(refs[i], options), threads);
        }
    ParseOptions one = base;
    one.threads = 1;
    parallelFor(sideBySide.size(), all, [&](std::size_t k) {
        if (!stopped())
            done(sideBySide[k], load(refs[sideBySide[k]], one), 1);
    });
    for (const auto &entry : captures) {
        const std::vector<std::size_t> &members = entry.second; // a lambda captures no binding
        if (stopped())
            break;
        // One read of the capture; its index holds every module's proto until they are read.
        const XPlaneModules::Index index = XPlaneModules::index(entry.first);
        g_reads.fetch_add(1, std::memory_order_relaxed);
        // This thread holds the capture's budget while helpers read its modules: none waits.
        const MemoryBudget::Helpers helpers;
        parallelFor(members.size(), all, [&](std::size_t k) {
            if (!stopped())
                done(members[k],
                     guarded(
                         refs[members[k]].path,
                         [&] { return XPlaneModules::load(index, refs[members[k]].member, one); }),
                     1);
        });
    }
}

} // namespace bufferscope
