#include "Commands.h"
#include "LoadedDump.h"
#include "Opened.h"
#include "Output.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakBreakdown.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "report/Report.h"
#include "report/ValueCard.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <limits>

namespace bufferscope {

using cli::fail;

int runReport(const Args &args, int threads)
{
    const bool json = args.isSet("json");
    ReportOptions options;
    const auto top = args.integer("top", 0, std::numeric_limits<int>::max(), options.top);
    const auto step = args.integer("step", 0, std::numeric_limits<qint64>::max(), -1);
    const auto failAbove = args.size("fail-above", 0, -1);
    if (!top || !step || !failAbove)
        return 1;
    options.top = static_cast<int>(*top);
    if (*step >= 0)
        options.step = *step;
    const QString valueName = args.value("value");
    if (args.isSet("value") && valueName.isEmpty())
        return Args::needs("value");
    if (args.isSet("group-by")) {
        Breakdown::Grouping grouping = Breakdown::Grouping::OpName;
        if (!Breakdown::groupingByName(args.value("group-by").toStdString(), grouping) ||
            grouping == Breakdown::Grouping::CallersTopDown ||
            grouping == Breakdown::Grouping::CallersBottomUp)
            return Args::needs("group-by");
        options.groupBy = grouping;
    }
    if (args.positional().size() > 1)
        return fail(QStringLiteral("report takes one FILE"), 1);
    const QString file = args.positional().value(0);
    if (file.isEmpty())
        return fail(QStringLiteral("report needs a FILE\n") + cli::usageOf(u"report"), 1);
    // XLA's memory-usage report without its dump: what it holds.
    if (const std::string path = pathBytes(file);
        Catalog::kindOf(path) == FileKind::MemoryUsageReport) {
        const Opened::Report read = Opened::readReport(file);
        if (!read.report)
            return fail(read.error, 2);
        const MemoryUsageReport &r = *read.report;
        const std::string out =
            json ? Report::memoryUsageJson(r, path) : Report::memoryUsageText(r, path, options.top);
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
        return 0;
    }
    LoadedDump loaded;
    if (!loadForCommand(file, loaded, threads))
        return 2;
    const Dump &dump = *loaded.dump;
    options.file = pathBytes(file);
    if (options.step && (!dump.hasLiveRanges() || *options.step > dump.maxStep()))
        return fail(QStringLiteral("--step %1 is outside the program's steps 0..%2")
                        .arg(*options.step)
                        .arg(dump.maxStep()),
                    1);
    if (!valueName.isEmpty()) {
        const std::uint32_t value = dump.findValue(valueName.toStdString());
        if (value == kNone)
            return fail(QStringLiteral("%1: no value '%2' (give an id, a name or NAME{INDEX} "
                                       "as the Values table shows them)")
                            .arg(file, valueName),
                        2);
        const ValueCategories categories = ValueCategories::of(dump);
        const ValueCard facts = ValueCard::of(dump, value, nullptr, &categories);
        const std::string card = json ? Report::valueJson(dump, facts, options)
                                      : Report::valueText(dump, facts, options);
        std::fwrite(card.data(), 1, card.size(), stdout);
        std::fflush(stdout);
        return 0;
    }
    const Stopwatch timing;
    const std::string text = json ? Report::json(dump, *loaded.timeline, options)
                                  : Report::text(dump, *loaded.timeline, options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    spdlog::debug("report written in {:.3f} s", timing.seconds());
    if (*failAbove >= 0 && dump.traits.truncated)
        return fail(file + QStringLiteral(": the dump looks truncated (see its warnings): the "
                                          "--fail-above gate cannot be judged"),
                    cli::kUnjudged);
    if (*failAbove >= 0) {
        // What the device holds while the module runs decides whether it fits, not the live
        // peak (MemoryAnalysis.h): the temp and the outputs are allocated whole.
        const qint64 held = MemoryAnalysis::of(dump).device.held();
        if (held > *failAbove) {
            const SpaceTimeline *primary = loaded.timeline->primary();
            const QString live =
                primary && dump.hasLiveRanges()
                    ? QStringLiteral("; the live-bytes peak is %1 bytes at step %2")
                          .arg(primary->peak.bytes)
                          .arg(primary->peak.step)
                    : QString();
            return fail(QStringLiteral("%1: the device holds %2 bytes (%3) while it runs "
                                       "(argument + output - alias + temp), more than the budget "
                                       "of %4 bytes (%5) by %6 bytes%7")
                            .arg(file, QString::number(held), humanBytesText(held),
                                 QString::number(*failAbove), humanBytesText(*failAbove),
                                 QString::number(held - *failAbove), live),
                        3);
        }
    }
    return 0;
}

} // namespace bufferscope
