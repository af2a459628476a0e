#include "RunFacts.h"

#include "DumpFiles.h"
#include "LoadedDump.h"
#include "analysis/DeviceFit.h"
#include "analysis/DumpDiff.h"
#include "analysis/MemoryAnalysis.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "open/ModuleReader.h"
#include "parse/MappedFile.h"
#include "parse/ModuleFiles.h"
#include "util/Parallel.h"

#include <QFileInfo>

#include <map>
#include <mutex>

namespace bufferscope {

namespace {

/// The ENTRY signature of a module's HLO text beside its dump, or none. Whether the texts are
/// there is the listing's answer where it listed the module (ModuleRef::hasBeside).
std::vector<RunSummary::Parameter> signatureBeside(const ModuleRef &ref, std::string *from)
{
    const std::string &path = ref.path;
    const std::string name = ModuleFiles::moduleName(path);
    const std::string function = RunSummary::functionOf(name);
    const std::size_t at = name.find(function);
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    std::vector<std::pair<std::string, std::string>> candidates; // names in `dir`
    if (at != std::string::npos && function != name)
        candidates.push_back({name.substr(0, at + function.size()) + ".before_optimizations.txt",
                              "before_optimizations"});
    if (const std::string stem = ModuleNames::stemOf(ModuleNames::baseName(path)); !stem.empty())
        candidates.push_back({stem + ".txt", "optimized HLO"});
    for (const auto &[file, kind] : candidates) {
        MappedFile map;
        std::string error;
        if (!ref.hasBeside(dir, file) || !map.open(dir + file, error))
            continue;
        std::vector<RunSummary::Parameter> signature = RunSummary::entrySignature(map.data());
        if (!signature.empty() || map.data().find("\nENTRY ") != std::string_view::npos) {
            *from = kind;
            return signature;
        }
    }
    return {};
}

} // namespace

namespace {

ParseOptions factOptions(const std::atomic<bool> *cancel, int threads)
{
    ParseOptions options;
    options.cancel = cancel;
    options.threads = threads;
    options.companions = false;
    options.usedValues = true; // the collectives' opcodes and sources are in its value blocks
    return options;
}

/// Whether a module read by factsOf gets its categories (RunSummary::Module::setCategories).
using CategorizeIf = std::function<bool(const RunSummary::Module &)>;

RunFacts::Scanned factsOf(LoadResult result, const ModuleRef &ref, const ParseOptions &options,
                          const CategorizeIf &categorizeIf = {}, bool withFit = false)
{
    const std::string &file = ref.path;
    LoadedDump loaded;
    QString error;
    if (!finishLoad(std::move(result), pathFromBytes(file), loaded, error, options)) {
        RunFacts::Scanned both;
        both.figures = ModuleFigures::failed(error);
        RunSummary::Module &m = both.module;
        m.file = file;
        m.name = ModuleFiles::moduleName(file);
        m.function = RunSummary::functionOf(m.name);
        m.number = RunSummary::numberOf(m.name);
        m.error = error.isEmpty() ? std::string("not read") : error.toStdString();
        return both;
    }
    RunFacts::Scanned both;
    both.figures = ModuleFigures::of(loaded);
    if (withFit)
        both.fit = DeviceFit::Module::of(ModuleFiles::moduleName(file), file, *loaded.dump,
                                         *loaded.timeline);
    const ModuleFigures &f = both.figures;
    both.module = RunSummary::of(
        *loaded.dump, f.analysis, loaded.dump->hasLiveRanges() ? f.peak : -1, file,
        loaded.dump->module.empty() ? ModuleFiles::moduleName(file) : loaded.dump->module);
    RunSummary::Module &m = both.module;
    std::string from;
    std::vector<RunSummary::Parameter> beside = signatureBeside(ref, &from);
    if (!from.empty()) {
        if (from == "before_optimizations" && beside.size() == m.signature.size() &&
            beside != m.signature) {
            bool shapesDiffer = false;
            for (std::size_t k = 0; k < beside.size(); ++k)
                shapesDiffer = shapesDiffer || beside[k].shape != m.signature[k].shape;
            if (shapesDiffer)
                m.deviceSignature = m.signature; // partitioned: global and per-device differ
        }
        m.signature = std::move(beside);
        m.signatureFrom = from;
    }
    // With its signature final: its family (a name and a number of arguments) is known.
    if (!categorizeIf || categorizeIf(m)) {
        const ValueCategories categories = ValueCategories::of(*loaded.dump);
        CategoryReport::Options o;
        o.trees = false;
        m.setCategories(CategoryReport::of(*loaded.dump, *loaded.timeline, categories, o));
    }
    return both;
}

} // namespace

void RunFacts::readEach(const std::vector<ModuleRef> &refs, int threads,
                        const std::atomic<bool> *cancel,
                        const std::function<void(std::size_t, RunSummary::Module)> &done)
{
    scanEach(refs, threads, cancel, false,
             [&](std::size_t i, Scanned scanned) { done(i, std::move(scanned.module)); });
}

void RunFacts::scanEach(const std::vector<ModuleRef> &refs, int threads,
                        const std::atomic<bool> *cancel, bool withFit,
                        const std::function<void(std::size_t, Scanned)> &done)
{
    // Every view shows a family's categories for its largest compile only (RunSummaryReport,
    // RunSummaryView), and they cost a tenth of the scan: a module gets them when it holds at
    // least as much as every compile of its family read before it. The family's largest, tie
    // or not, always does (none read before it holds more); in a family of n compiles read in
    // no set order, about ln n others do.
    std::mutex mutex;
    std::map<std::pair<std::string, std::size_t>, std::int64_t> mostHeld;
    const CategorizeIf mayBeLargest = [&](const RunSummary::Module &m) {
        const std::lock_guard lock(mutex);
        const auto [it, fresh] = mostHeld.try_emplace({m.function, m.signature.size()}, m.held);
        if (!fresh && m.held < it->second)
            return false;
        it->second = m.held;
        return true;
    };
    ModuleReader::readEach(refs, threads, factOptions(cancel, threads),
                           [&](std::size_t i, LoadResult result, int used) {
                               Scanned both =
                                   factsOf(std::move(result), refs[i], factOptions(cancel, used),
                                           mayBeLargest, withFit);
                               if (refs[i].format == ModuleFormat::CaptureMember) {
                                   both.module.host = refs[i].container;
                                   both.module.member = refs[i].member;
                               }
                               if (refs[i].isReport())
                                   both.figures =
                                       ModuleFigures::ofReport(pathFromBytes(refs[i].path));
                               done(i, std::move(both));
                           });
}

RunSummary RunFacts::summarize(const QString &folder, int threads, std::size_t top,
                               QStringList *problems, const std::atomic<bool> *cancel)
{
    const DumpFiles found = DumpFiles::collect({folder});
    if (problems)
        for (const OpenProblem &p : found.problems)
            *problems << p.text();
    return summarize(found.refs, threads, top, cancel);
}

RunSummary RunFacts::summarize(const std::vector<ModuleRef> &refs, int threads, std::size_t top,
                               const std::atomic<bool> *cancel)
{
    return summarize(refs, {}, threads, top, cancel);
}

RunSummary RunFacts::summarize(const std::vector<ModuleRef> &refs,
                               const QHash<QString, RunSummary::Module> &known, int threads,
                               std::size_t top, const std::atomic<bool> *cancel,
                               const std::function<void(std::size_t, std::size_t)> &progress)
{
    std::vector<RunSummary::Module> modules(refs.size());
    std::vector<ModuleRef> toRead;
    std::vector<std::size_t> at; // toRead[k] is modules[at[k]]
    for (std::size_t i = 0; i < refs.size(); ++i) {
        const auto found = known.constFind(pathFromBytes(refs[i].path));
        if (found != known.cend()) {
            modules[i] = *found;
        } else {
            toRead.push_back(refs[i]);
            at.push_back(i);
        }
    }
    std::mutex lock;
    std::size_t read = 0;
    readEach(toRead, threads, cancel, [&](std::size_t k, RunSummary::Module m) {
        modules[at[k]] = std::move(m);
        const std::lock_guard<std::mutex> hold(lock);
        ++read;
        if (progress)
            progress(read, toRead.size());
    });
    return RunSummary::of(std::move(modules), top);
}

namespace {

/// A module of a run summary as the catalog lists it: a capture's member by its capture and
/// name, as the scan found it.
ModuleRef refOfModule(const RunSummary::Module &m)
{
    return m.member.empty() ? Catalog::refOf(m.file) : Catalog::memberOf(m.host, m.member);
}

/// The two loaded modules compared (DumpDiff).
RunDiff::Comparison comparisonOf(const LoadedDump &a, const LoadedDump &b, int threads)
{
    RunDiff::Comparison c;
    const DumpDiff d =
        DumpDiff::compute(*a.dump, *a.timeline, *b.dump, *b.timeline, nullptr, threads);
    c.ok = true;
    c.heldDelta = d.why.heldAfter - d.why.heldBefore;
    c.peakDelta = d.peakDelta();
    c.cause = d.why.headline;
    if (!d.why.causes.empty()) {
        c.hasCause = true;
        c.causeText = d.why.causes.front().text;
        c.causeKind = d.why.causes.front().kind;
    }
    c.lostDonation = d.lostDonations() > 0;
    const auto share = [&d](std::size_t values) {
        return values == 0 ? 1.0 : static_cast<double>(d.matched) / static_cast<double>(values);
    };
    c.matchedBefore = share(a.dump->values.size());
    c.matchedAfter = share(b.dump->values.size());
    c.identical = d.added.empty() && d.removed.empty() && d.changed.empty() && d.why.causes.empty();
    return c;
}

ParseOptions compareOptions(int threads, const std::atomic<bool> *cancel)
{
    ParseOptions options;
    options.threads = threads;
    options.cancel = cancel;
    options.companions = false;
    return options;
}

} // namespace

RunDiff::Comparison RunFacts::compare(const RunSummary::Module &before,
                                      const RunSummary::Module &after, int threads)
{
    LoadedDump a;
    LoadedDump b;
    QString error;
    const ParseOptions options = compareOptions(threads, nullptr);
    if (!loadDump(refOfModule(before), a, error, options) ||
        !loadDump(refOfModule(after), b, error, options)) {
        RunDiff::Comparison c;
        c.error = error.toStdString();
        return c;
    }
    return comparisonOf(a, b, threads);
}

std::vector<RunDiff::Comparison> RunFacts::compareEach(const std::vector<RunDiff::Pair> &pairs,
                                                       int threads, const std::atomic<bool> *cancel)
{
    std::vector<RunDiff::Comparison> out(pairs.size());
    std::vector<std::pair<ModuleRef, ModuleRef>> refs;
    refs.reserve(pairs.size());
    for (const RunDiff::Pair &p : pairs)
        refs.emplace_back(refOfModule(*p.first), refOfModule(*p.second));
    const ParseOptions options = compareOptions(1, cancel);
    ModuleReader::readPairs(
        refs, threads, options, [&](std::size_t i, LoadResult first, LoadResult second) {
            if (cancel && cancel->load())
                return; // not compared: "cancelled"
            LoadedDump a;
            LoadedDump b;
            QString error;
            if (!finishLoad(std::move(first), pathFromBytes(refs[i].first.path), a, error,
                            options) ||
                !finishLoad(std::move(second), pathFromBytes(refs[i].second.path), b, error,
                            options)) {
                out[i].error = error.toStdString();
                return;
            }
            out[i] = comparisonOf(a, b, 1);
        });
    return out;
}

} // namespace bufferscope
