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

void ModuleReader::readPairs(const std::vector<std::pair<ModuleRef, ModuleRef>> &pairs, int threads,
                             const ParseOptions &base,
                             const std::function<void(std::size_t, LoadResult, LoadResult)> &done)
{
    const std::atomic<bool> *cancel = base.cancel;
    const auto stopped = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto containerOf = [](const ModuleRef &ref) {
        return ref.format == ModuleFormat::CaptureMember ? ref.container : std::string();
    };
    // The pairs by the captures their two modules are members of ("": none).
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        groups[{containerOf(pairs[i].first), containerOf(pairs[i].second)}].push_back(i);
    ParseOptions one = base;
    one.threads = 1;
    const int all = threadsFor(threads);
    // The capture of each side read last: the groups come in order of the first side's
    // capture, so a run of one capture per host reads each once.
    XPlaneModules::Index first;
    XPlaneModules::Index second;
    const auto indexed = [](XPlaneModules::Index &held, const std::string &capture) {
        if (capture.empty() || held.capture == capture)
            return;
        held = XPlaneModules::Index(); // its budget given back before the next is read
        held = XPlaneModules::index(capture);
        g_reads.fetch_add(1, std::memory_order_relaxed);
    };
    for (const auto &[captures, members] : groups) {
        if (stopped())
            break;
        indexed(first, captures.first);
        // Both sides in one capture: read once.
        const bool same = !captures.second.empty() && captures.second == captures.first;
        if (!same)
            indexed(second, captures.second);
        const XPlaneModules::Index &secondIndex = same ? first : second;
        const auto read = [&](const ModuleRef &ref, const XPlaneModules::Index &index) {
            if (ref.format != ModuleFormat::CaptureMember)
                return load(ref, one);
            return guarded(ref.path, [&] { return XPlaneModules::load(index, ref.member, one); });
        };
        // This thread holds the captures' budget while helpers read their modules: none waits.
        const MemoryBudget::Helpers helpers;
        const std::vector<std::size_t> &group = members; // a lambda captures no binding
        parallelFor(group.size(), all, [&](std::size_t k) {
            if (stopped())
                return;
            const std::pair<ModuleRef, ModuleRef> &pair = pairs[group[k]];
            LoadResult a = read(pair.first, first);
            LoadResult b = read(pair.second, secondIndex);
            done(group[k], std::move(a), std::move(b));
        });
    }
}

} // namespace bufferscope
