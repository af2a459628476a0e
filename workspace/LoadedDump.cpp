#include "LoadedDump.h"

#include "DumpFiles.h"
#include "Opened.h"
#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "open/ModuleReader.h"
#include "parse/DumpParser.h"
#include "report/Report.h"
#include "util/Parallel.h"
#include "util/Stopwatch.h"

#include <QFile>
#include <QFileInfo>

#include <spdlog/spdlog.h>

namespace bufferscope {

std::size_t LoadedDump::warningCount() const
{
    return dump && timeline ? Report::warningCount(*dump, *timeline) : 0;
}

namespace {

ParseOptions optionsOf(const std::atomic<bool> *cancel,
                       const std::function<void(qint64, qint64)> &progress, int threads)
{
    ParseOptions options;
    options.cancel = cancel;
    options.threads = threads;
    if (progress)
        options.progress = [progress](std::int64_t done, std::int64_t total) {
            progress(done, total);
        };
    return options;
}

} // namespace

bool loadDump(const QString &path, LoadedDump &out, QString &error, const std::atomic<bool> *cancel,
              const std::function<void(qint64, qint64)> &progress, int threads)
{
    return loadDump(path, out, error, optionsOf(cancel, progress, threads));
}

bool loadDump(const ModuleRef &ref, LoadedDump &out, QString &error,
              const std::atomic<bool> *cancel, const std::function<void(qint64, qint64)> &progress,
              int threads)
{
    return loadDump(ref, out, error, optionsOf(cancel, progress, threads));
}

bool loadDump(const ModuleRef &ref, LoadedDump &out, QString &error, const ParseOptions &options)
{
    if (ref.path.starts_with(':')) // an embedded resource, not a file
        return loadDump(pathFromBytes(ref.path), out, error, options);
    if (pathIsDir(pathFromBytes(ref.path))) {
        error = pathFromBytes(ref.path) +
                QStringLiteral(": is a directory; open one dump file from it");
        return false;
    }
    return finishLoad(ModuleReader::load(ref, options), pathFromBytes(ref.path), out, error,
                      options);
}

bool loadDump(const QString &path, LoadedDump &out, QString &error, const ParseOptions &options)
{
    LoadResult result;
    if (path.startsWith(QLatin1Char(':'))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            error = path + QStringLiteral(": cannot open the embedded resource");
            return false;
        }
        const QByteArray data = file.readAll();
        result = DumpParser::loadBuffer(
            std::string_view(data.constData(), static_cast<std::size_t>(data.size())),
            QFileInfo(path).fileName().toStdString(), options);
    } else {
        return loadDump(Catalog::refOf(pathBytes(path)), out, error, options);
    }
    return finishLoad(std::move(result), path, out, error, options);
}

bool finishLoad(LoadResult result, const QString &path, LoadedDump &out, QString &error,
                const ParseOptions &options)
{
    const std::atomic<bool> *const cancel = options.cancel;
    const int threads = options.threads;
    if (result.cancelled)
        return false;
    if (!result.ok()) {
        error = QString::fromStdString(result.error);
        return false;
    }
    const Stopwatch timing;
    auto timeline = MemoryTimeline::compute(*result.dump, cancel, threads);
    spdlog::debug("memory timeline {:.3f} s", timing.seconds());
    if (!timeline)
        return false;
    out.dump = std::move(result.dump);
    out.timeline = std::make_shared<const MemoryTimeline>(std::move(*timeline));
    out.path = path;
    return true;
}

void loadEach(const std::vector<ModuleRef> &refs, int threads, const std::atomic<bool> *cancel,
              const std::function<void(std::size_t, LoadedDump, QString)> &done)
{
    ModuleReader::readEach(refs, threads, optionsOf(cancel, {}, threads),
                           [&](std::size_t i, LoadResult result, int used) {
                               LoadedDump loaded;
                               QString error;
                               if (!finishLoad(std::move(result), pathFromBytes(refs[i].path),
                                               loaded, error, optionsOf(cancel, {}, used)))
                                   loaded = LoadedDump();
                               done(i, std::move(loaded), std::move(error));
                           });
}

void LoadedDump::categorize()
{
    if (!dump || !timeline || categories)
        return;
    const Stopwatch timing;
    auto values = std::make_shared<const ValueCategories>(ValueCategories::of(*dump));
    byCategory =
        std::make_shared<const CategoryReport>(CategoryReport::of(*dump, *timeline, *values));
    categories = std::move(values);
    spdlog::debug("categories and levers {:.3f} s", timing.seconds());
}

ModuleFigures ModuleFigures::of(const LoadedDump &loaded)
{
    return of(*loaded.dump, *loaded.timeline);
}

ModuleFigures ModuleFigures::of(const Dump &dump, const MemoryTimeline &timeline)
{
    ModuleFigures figures;
    figures.total = dump.totalBytes();
    figures.analysis = MemoryAnalysis::of(dump);
    figures.held = figures.analysis.device.held();
    figures.files = static_cast<int>(dump.files.size());
    // The device's peak (every memory space but the host's), as Run Summary and `summary`
    // give it: the Modules dock and `list` name the same figure "live peak".
    if (dump.hasLiveRanges()) {
        const DeviceFit::DevicePeak peak = DeviceFit::devicePeak(timeline);
        figures.peak = peak.bytes;
        figures.step = peak.step;
    }
    return figures;
}

bool ModuleFigures::ranksAbove(const ModuleFigures &a, const QString &fileA, const ModuleFigures &b,
                               const QString &fileB)
{
    const auto key = [](const ModuleFigures &f) {
        return f.status != Status::Read ? std::pair<qint64, qint64>(-2, -1)
                                        : std::pair<qint64, qint64>(f.held, f.total);
    };
    const auto ka = key(a);
    const auto kb = key(b);
    return ka != kb ? ka > kb : fileA < fileB;
}

namespace {

ParseOptions figureOptions(const std::atomic<bool> *cancel, int threads)
{
    ParseOptions options;
    options.cancel = cancel;
    options.threads = threads;
    options.companions = false;
    options.usedValues = false;
    return options;
}

} // namespace

ModuleFigures ModuleFigures::ofReport(const QString &path)
{
    ModuleFigures figures;
    const Opened::Report report = Opened::readReport(path);
    figures.status =
        report.report ? ModuleFigures::Status::Read : ModuleFigures::Status::Unreadable;
    figures.error = report.error;
    figures.reportOnly = true;
    figures.held = -1;
    figures.files = 1;
    if (report.report)
        figures.total = report.report->totalBytes;
    return figures;
}

ModuleFigures ModuleFigures::failed(const QString &error)
{
    ModuleFigures figures;
    figures.status = error.isEmpty() ? Status::NotRead : Status::Unreadable; // empty: cancelled
    figures.error = error;
    return figures;
}

namespace {

ModuleFigures figuresOf(LoadResult result, const QString &path, const ParseOptions &options)
{
    LoadedDump loaded;
    QString error;
    if (!finishLoad(std::move(result), path, loaded, error, options))
        return ModuleFigures::failed(error);
    return ModuleFigures::of(loaded);
}

} // namespace

void ModuleFigures::readEach(const std::vector<ModuleRef> &refs, int threads,
                             const std::atomic<bool> *cancel,
                             const std::function<void(std::size_t, ModuleFigures)> &done)
{
    ModuleReader::readEach(refs, threads, figureOptions(cancel, threads),
                           [&](std::size_t i, LoadResult result, int used) {
                               const QString path = pathFromBytes(refs[i].path);
                               done(i, refs[i].isReport() ? ofReport(path)
                                                          : figuresOf(std::move(result), path,
                                                                      figureOptions(cancel, used)));
                           });
}

} // namespace bufferscope
