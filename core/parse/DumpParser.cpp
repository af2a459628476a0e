#include "DumpParser.h"

#include "parse/MemoryUsageReport.h"
#include "parse/ModuleFiles.h"
#include "parse/detail/Builder.h"
#include "parse/detail/FileTextSource.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

namespace bufferscope {

using namespace parse_detail;

namespace {

LoadResult finishLoad(std::unique_ptr<Dump> dump, Builder &builder,
                      std::shared_ptr<FileTextSource> source,
                      const std::function<void(Dump &)> &more = {})
{
    LoadResult result;
    if (builder.cancelled) {
        result.cancelled = true;
        return result;
    }
    if (!builder.fatal)
        builder.finish();
    if (builder.fatal) {
        const Diagnostic &f = *builder.fatal;
        result.errorFile = f.file < dump->files.size() ? dump->files[f.file].path : "<input>";
        result.errorLine = f.line;
        result.error = dump->diagnosticText(f);
        return result;
    }
    if (more)
        more(*dump);
    dump->textSource = std::move(source);
    result.dump = std::move(dump);
    return result;
}

/// The one restart protocol. `feed` gives a builder the text; when the chunked parse meets what
/// only the serial one decides (Builder::restartSerial), everything read is dropped and the text
/// is read again on one thread into a fresh dump that keeps what the caller had set on the first
/// (module, files, split-file trait). `how` ends as the options the kept parse ran with.
std::unique_ptr<Builder> parseRestarting(std::unique_ptr<Dump> &dump, ParseOptions &how,
                                         const std::string &name,
                                         const std::function<void(Builder &)> &feed)
{
    for (;;) {
        auto builder = std::make_unique<Builder>(*dump, how);
        feed(*builder);
        if (!builder->restartSerial || how.threads == 1)
            return builder;
        spdlog::debug("{}: the chunked parse met what only the serial one decides; reading it "
                      "again on one thread",
                      name);
        how.threads = 1;
        auto fresh = std::make_unique<Dump>();
        fresh->module = dump->module;
        fresh->files = dump->files;
        fresh->traits.splitFiles = dump->traits.splitFiles;
        builder.reset();
        dump = std::move(fresh);
    }
}

} // namespace

LoadResult DumpParser::loadBuffer(std::string_view text, const std::string &name,
                                  const ParseOptions &options)
{
    auto source = std::make_shared<FileTextSource>();
    source->files.push_back(
        {name, static_cast<std::int64_t>(text.size()), std::string(text), true});
    auto dump = std::make_unique<Dump>();
    dump->module = ModuleFiles::moduleName(name);
    dump->files.push_back(
        {name, ModuleFiles::Role::Combined, static_cast<std::int64_t>(text.size())});
    ParseOptions how = options;
    const std::unique_ptr<Builder> builder = parseRestarting(dump, how, name, [text](Builder &b) {
        std::int64_t done = 0;
        b.parseText(text, 0, nullptr, done, static_cast<std::int64_t>(text.size()));
    });
    LoadResult result = finishLoad(std::move(dump), *builder, std::move(source));
    result.readAgainSerially = how.threads != options.threads;
    return result;
}

namespace {

/// The 2026 layout (docs/FORMAT.md §5) prints no allocation numbers: its allocations are the
/// dump's of each memory space, largest first, then by number (GetMemoryUsageReportProto), the
/// smallest past 50 left out without a word. Each space's total is exact; an allocation's values
/// are counted in its groups. Returns whether the two agree.
template <class Warn>
bool checkMemoryUsageReportByOrder(const Dump &d, const MemoryUsageReport &r, const Warn &warn)
{
    bool agree = true;
    std::size_t differ = 0;
    std::vector<std::int32_t> colors;
    for (const Allocation &a : d.allocations)
        if (std::find(colors.begin(), colors.end(), a.color) == colors.end())
            colors.push_back(a.color);
    for (const std::int32_t color : colors)
        if (std::none_of(r.memorySpaces.begin(), r.memorySpaces.end(),
                         [color](const auto &space) { return space.color == color; })) {
            warn(0, "the memory-usage report has no memory space of color " +
                        std::to_string(color) + ", which the dump's allocations use");
            agree = false;
        }
    for (const MemoryUsageReport::MemorySpace &space : r.memorySpaces) {
        std::vector<const Allocation *> mine;
        std::int64_t total = 0;
        for (const Allocation &a : d.allocations)
            if (a.color == space.color) {
                mine.push_back(&a);
                total += a.size;
            }
        std::sort(mine.begin(), mine.end(), [](const Allocation *a, const Allocation *b) {
            return a->size != b->size ? a->size > b->size : a->index < b->index;
        });
        if (space.totalBytes >= 0 && space.totalBytes != total) {
            warn(0, "memory space " + space.name + ": the memory-usage report's total is " +
                        std::to_string(space.totalBytes) +
                        " bytes, the dump's allocations of "
                        "color " +
                        std::to_string(space.color) + " add up to " + std::to_string(total));
            agree = false;
        }
        if (space.allocationCount > mine.size()) {
            warn(0, "memory space " + space.name + ": the memory-usage report lists " +
                        std::to_string(space.allocationCount) + " allocations, the dump has " +
                        std::to_string(mine.size()));
            agree = false;
        }
        for (std::size_t k = 0; k < space.allocationCount && k < mine.size(); ++k) {
            const MemoryUsageReport::Allocation &a = r.allocations[space.firstAllocation + k];
            const Allocation &m = *mine[k];
            std::int64_t grouped = 0;
            std::int64_t largest = 0;
            for (const MemoryUsageReport::Group &g : a.groups) {
                grouped += g.values;
                largest = std::max(largest, g.size);
            }
            // A group is the largest value at one offset: never more than its allocation (its
            // size as printed, rounded down by at most the rounding).
            const bool valuesDiffer =
                !a.groups.empty() && a.hiddenGroups == 0 && grouped != std::int64_t(m.valueCount);
            const bool tooLarge = largest > m.size + a.sizeUlp;
            if (valuesDiffer || tooLarge) {
                agree = false;
                if (++differ <= 10)
                    warn(0, "memory space " + space.name + ", allocation " +
                                std::to_string(m.index) + " (the " + std::to_string(k + 1) +
                                ". largest): the memory-usage report says " +
                                (valuesDiffer ? std::to_string(grouped) + " values (the dump: " +
                                                    std::to_string(m.valueCount) + ")"
                                              : "a value of " + humanBytes(largest) +
                                                    " (the allocation: " + std::to_string(m.size) +
                                                    " bytes)"));
            }
        }
    }
    if (differ > 10)
        warn(0, std::to_string(differ - 10) + " more allocations differ");
    return agree;
}

/// Reads the memory-usage report beside a dump and says where it disagrees with the dump
/// (docs/FORMAT.md Part B §5): its total is exact, its sizes are rounded as XLA prints them.
/// Returns whether the two agree.
bool checkMemoryUsageReport(Dump &d, const std::string &reportPath, std::string &checked)
{
    checked = "total, allocation sizes as it rounds them, values per allocation";
    std::string error;
    const MemoryUsageReport r = MemoryUsageReports::readFile(reportPath, &error);
    if (!error.empty()) {
        d.warnings.push_back({Severity::Warning, 0, 0, reportPath + ": " + error, kNone});
        return false;
    }
    std::error_code sizeError;
    const auto bytes = std::filesystem::file_size(reportPath, sizeError);
    d.files.push_back({reportPath, ModuleFiles::Role::MemoryUsageReport,
                       sizeError ? 0 : static_cast<std::int64_t>(bytes)});
    const auto file = static_cast<std::uint32_t>(d.files.size() - 1);
    const auto warn = [&](std::int64_t line, std::string message) {
        d.warnings.push_back({Severity::Warning, file, line, std::move(message), kNone});
    };
    for (const MemoryUsageReport::Problem &p : r.problems)
        warn(p.line, p.message);
    if (r.layout == 2) {
        checked = "each memory space's total, its allocations by order of size, values per "
                  "allocation";
        return checkMemoryUsageReportByOrder(d, r, warn) && r.problems.empty();
    }
    if (r.layout == 3) {
        // The binary report: the 2026 report's order and groups, with each allocation's number
        // and exact size, which must be the dump's allocation of that number.
        checked = "each memory space's total, every allocation's number and exact size, values "
                  "per allocation";
        bool agree = checkMemoryUsageReportByOrder(d, r, warn) && r.problems.empty();
        std::unordered_map<std::int64_t, const Allocation *> byIndex;
        for (const Allocation &candidate : d.allocations)
            byIndex.emplace(candidate.index, &candidate);
        std::size_t differ = 0;
        for (const MemoryUsageReport::Allocation &a : r.allocations) {
            const auto found = byIndex.find(a.index);
            if (found != byIndex.end() && found->second->size == a.size &&
                found->second->color == a.color)
                continue;
            agree = false;
            if (++differ <= 10)
                warn(0,
                     "allocation " + std::to_string(a.index) + " of the memory-usage report is " +
                         std::to_string(a.size) + " bytes in S(" + std::to_string(a.color) + "), " +
                         (found == byIndex.end()
                              ? std::string("not in the dump")
                              : "the dump's is " + std::to_string(found->second->size) +
                                    " bytes in S(" + std::to_string(found->second->color) + ")"));
        }
        if (differ > 10)
            warn(0, std::to_string(differ - 10) + " more allocations differ");
        return agree;
    }
    if (r.totalBytes >= 0 && r.totalBytes != d.allocationSizeSum())
        warn(0, "the memory-usage report's total is " + std::to_string(r.totalBytes) +
                    " bytes, the dump's allocations add up to " +
                    std::to_string(d.allocationSizeSum()));
    const std::int64_t listed = r.allocationCount();
    if (listed != static_cast<std::int64_t>(d.allocations.size()))
        warn(0, "the memory-usage report lists " + std::to_string(listed) +
                    " allocations, the dump " + std::to_string(d.allocations.size()));
    std::unordered_map<std::int64_t, const Allocation *> byIndex;
    for (const Allocation &candidate : d.allocations)
        byIndex.emplace(candidate.index, &candidate);
    std::size_t differ = 0;
    for (const MemoryUsageReport::Allocation &a : r.allocations) {
        const auto found = byIndex.find(a.index);
        const Allocation *mine = found == byIndex.end() ? nullptr : found->second;
        if (!mine) {
            warn(0, "allocation " + std::to_string(a.index) +
                        " of the memory-usage report is not in the dump");
            continue;
        }
        const bool sizeDiffers = std::llabs(mine->size - a.size) > a.sizeUlp;
        std::int64_t grouped = 0;
        for (const MemoryUsageReport::Group &g : a.groups)
            grouped += g.values;
        const bool valuesDiffer =
            !a.groups.empty() && a.hiddenGroups == 0 && grouped != std::int64_t(mine->valueCount);
        if ((sizeDiffers || valuesDiffer) && ++differ <= 10)
            warn(0, "allocation " + std::to_string(a.index) + ": the memory-usage report says " +
                        (sizeDiffers ? "size " + humanBytes(a.size) +
                                           " (the dump: " + std::to_string(mine->size) + " bytes)"
                                     : std::to_string(grouped) + " values (the dump: " +
                                           std::to_string(mine->valueCount) + ")"));
    }
    if (differ > 10)
        warn(0, std::to_string(differ - 10) + " more allocations differ");
    return r.problems.empty() && differ == 0 &&
           listed == static_cast<std::int64_t>(d.allocations.size()) &&
           r.totalBytes == d.allocationSizeSum();
}

} // namespace

LoadResult DumpParser::loadFile(const std::string &path, const ParseOptions &options)
{
    return loadText(path, options, {});
}

LoadResult DumpParser::loadText(const std::string &path, const ParseOptions &options,
                                const std::string &reportPath)
{
    return loadParts(path, ModuleFiles::siblings(path), options, reportPath);
}

LoadResult DumpParser::loadFiles(const std::vector<std::string> &files, const ParseOptions &options,
                                 const std::string &reportPath)
{
    if (files.empty())
        return loadText(std::string(), options, reportPath);
    return loadParts(files.front(), files, options, reportPath);
}

LoadResult DumpParser::loadParts(const std::string &path, const std::vector<std::string> &paths,
                                 const ParseOptions &options, const std::string &reportPath)
{
    auto dump = std::make_unique<Dump>();
    dump->module = ModuleFiles::moduleName(path);
    std::vector<std::unique_ptr<MappedFile>> maps;
    std::int64_t total = 0;
    for (const std::string &p : paths) {
        auto map = std::make_unique<MappedFile>();
        std::string error;
        if (!map->open(p, error)) {
            LoadResult result;
            result.errorFile = p;
            result.error = p + ": " + error;
            return result;
        }
        total += map->size();
        maps.push_back(std::move(map));
    }
    const std::string stem = ModuleFiles::stemOf(path.substr(path.rfind('/') + 1));
    auto source = std::make_shared<FileTextSource>();
    for (std::size_t i = 0; i < paths.size(); ++i) {
        dump->files.push_back(
            {paths[i], ModuleFiles::roleOf(paths[i], paths.size()), maps[i]->size()});
        source->files.push_back({paths[i], maps[i]->size(), {}, false, maps[i]->takeDescriptor()});
    }
    if (paths.size() > 1 || (!stem.empty() && !path.ends_with("buffer-assignment.txt")))
        dump->traits.splitFiles = true;
    if (dump->files.front().role != ModuleFiles::Role::Combined &&
        dump->files.front().role != ModuleFiles::Role::BufferAssignment) {
        LoadResult result;
        result.errorFile = path;
        result.error = path + ": this is part of a split module, but its '" + stem +
                       "-buffer-assignment.txt' (the allocations) is not next to it";
        return result;
    }
    spdlog::debug("loading {} ({} file(s), {} bytes)", path, paths.size(), total);
    ParseOptions how = options;
    const std::unique_ptr<Builder> builder =
        parseRestarting(dump, how, path, [&maps, total](Builder &b) {
            std::int64_t done = 0;
            for (std::size_t i = 0; i < maps.size(); ++i) {
                if (!b.parseText(maps[i]->data(), static_cast<std::uint32_t>(i), maps[i].get(),
                                 done, total))
                    break;
            }
        });
    // A file cut short while it was read: what was read past its new end was zeros.
    for (std::size_t i = 0; i < maps.size() && !builder->cancelled; ++i) {
        const std::int64_t now = maps[i]->shrank();
        if (now < 0)
            continue;
        LoadResult result;
        result.errorFile = paths[i];
        result.error = paths[i] + ": the file shrank while it was being read (from " +
                       std::to_string(maps[i]->size()) + " bytes" +
                       (now > 0 ? " to " + std::to_string(now) : std::string()) +
                       "): it is still being written or was replaced; open it again when it "
                       "is complete";
        return result;
    }
    // The call stacks of 2026 dumps are in the module's optimized HLO text, when it is there.
    const std::string hlo = options.companions ? ModuleFiles::optimizedHlo(path) : std::string();
    LoadResult result = finishLoad(
        std::move(dump), *builder, std::move(source), [&hlo, &options, &reportPath](Dump &d) {
            // The module's memory-usage report, when it is there, is checked against the dump.
            const std::string report = !reportPath.empty() ? reportPath
                                       : options.companions
                                           ? ModuleFiles::memoryUsageReport(d.files.front().path)
                                           : std::string();
            if (!report.empty()) {
                std::string checked;
                const bool agrees = checkMemoryUsageReport(d, report, checked);
                d.notes.push_back((reportPath.empty()
                                       ? "the module's memory-usage report "
                                       : "opened XLA's memory-usage report: read its module's "
                                         "dump; the report ") +
                                  std::string(agrees ? "agrees with the dump (" + checked + ")"
                                                     : "differs from the dump (see the warnings)"));
            }
            if (hlo.empty())
                return;
            MappedFile map;
            std::string error;
            if (!map.open(hlo, error)) {
                d.warnings.push_back({Severity::Warning, 0, 0,
                                      hlo + ": " + error + " (call stacks not read)", kNone});
                return;
            }
            d.files.push_back({hlo, ModuleFiles::Role::OptimizedHlo, map.size()});
            const std::size_t warningsBefore = d.warnings.size() + d.suppressedWarnings;
            const Stopwatch clock;
            const std::size_t frames = readStackFrames(
                map.data(), static_cast<std::uint32_t>(d.files.size() - 1), d, options.maxWarnings);
            spdlog::debug("{} stack frames read from {} in {:.3f} s", frames, hlo, clock.seconds());
            if (map.shrank() >= 0)
                d.warnings.push_back({Severity::Warning, 0, 0,
                                      hlo + ": the file shrank while it was being read; its call "
                                            "stacks may be incomplete",
                                      kNone});
            // A module's files are those that gave it something.
            if (frames == 0 && d.warnings.size() + d.suppressedWarnings == warningsBefore)
                d.files.pop_back();
        });
    result.readAgainSerially = how.threads != options.threads;
    return result;
}

} // namespace bufferscope
