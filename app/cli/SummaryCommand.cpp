#include "Commands.h"
#include "DumpFiles.h"
#include "Output.h"
#include "RunFacts.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "parse/XPlaneMemory.h"
#include "report/RunSummaryReport.h"
#include "util/Parallel.h"
#include "util/SafeText.h"
#include "util/Stopwatch.h"

#include <QDir>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace bufferscope {

using cli::fail;

/// `summary DIR`: the run as a whole (analysis/RunSummary), as text, Markdown or JSON.
int runSummary(const Args &args, int threads)
{
    const bool json = args.isSet("json");
    const bool md = args.isSet("md");
    if (json && md)
        return fail(QStringLiteral("summary takes --md or --json, not both\n") +
                        cli::usageOf(u"summary"),
                    1);
    const auto top = args.integer("top", 1, std::numeric_limits<int>::max(), 20);
    if (!top)
        return 1;
    if (args.positional().size() != 1)
        return fail(QStringLiteral("summary needs one DIR (an --xla_dump_to folder, or a "
                                   "profile)\n") +
                        cli::usageOf(u"summary"),
                    1);
    const QString dir = args.positional().front();
    if (!pathExists(dir))
        return fail(dir + QStringLiteral(": no such folder"), 2);
    const Stopwatch clock;
    const DumpFiles found = DumpFiles::collect({dir});
    for (const OpenProblem &p : found.problems)
        fail(p.text(), 0);
    if (found.files.isEmpty())
        return 2;
    keepHeapBetweenLoads();
    std::vector<RunSummary::Module> modules(static_cast<std::size_t>(found.files.size()));
    std::atomic<std::size_t> done{0};
    std::mutex progressLock;
    const bool tty = ::isatty(fileno(stderr));
    RunFacts::readEach(found.refs, threads, nullptr, [&](std::size_t i, RunSummary::Module m) {
        modules[i] = std::move(m);
        const std::size_t n = done.fetch_add(1) + 1;
        if (tty) {
            const std::lock_guard<std::mutex> hold(progressLock);
            std::fprintf(stderr, "\rread %zu/%zu\033[K", n, modules.size());
        }
    });
    if (tty)
        std::fprintf(stderr, "\r\033[K");
    RunSummary summary = RunSummary::of(std::move(modules), static_cast<std::size_t>(*top));
    for (const OpenProblem &p : found.problems)
        summary.skipped.push_back({pathBytes(p.path), p.message.toStdString()});
    spdlog::debug("summary: {} modules read in {:.3f} s", summary.modules.size(), clock.seconds());
    const std::string folder = pathBytes(QDir(dir).path());
    // A capture: what its allocators held beside what the plans hold (issue 73).
    std::optional<RuntimeMemory> runtime;
    if (pathIsFile(dir) && Catalog::refOf(pathBytes(dir)).format == ModuleFormat::Capture) {
        std::string why;
        XPlaneMemory events = XPlaneMemory::readFile(pathBytes(dir), &why);
        if (why.empty())
            runtime = RuntimeMemory::of(std::move(events));
        else
            spdlog::debug("summary: no runtime memory: {}", why);
    }
    const RuntimeMemory *held = runtime ? &*runtime : nullptr;
    const std::string out =
        json ? RunSummaryReport::json(summary, folder, held)
        : md ? RunSummaryReport::markdown(summary, folder, static_cast<std::size_t>(*top), held)
             : RunSummaryReport::text(summary, folder, static_cast<std::size_t>(*top), held);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    // A module that could not be read is said on stderr too, as the exit status says it.
    std::vector<std::string> unread;
    for (const RunSummary::Module &m : summary.modules)
        if (!m.read)
            unread.push_back(m.error);
    cli::sayNotRead(unread);
    return unread.empty() ? 0 : 2;
}

} // namespace bufferscope
