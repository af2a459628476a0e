#include "Commands.h"
#include "DumpFiles.h"
#include "LoadedDump.h"
#include "Output.h"
#include "RunFacts.h"
#include "analysis/DumpDiff.h"
#include "models/QtText.h"
#include "report/DiffReport.h"
#include "report/Report.h"
#include "report/RunDiffReport.h"
#include "util/Parallel.h"
#include "util/SafeText.h"
#include "util/Stopwatch.h"

#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace bufferscope {

using cli::fail;

namespace {

/// `diff RUN_A RUN_B`: two folders compared function by function (analysis/RunDiff). The gates
/// are diff's, judged on every changed compile.
int runRunDiff(const QString &before, const QString &after, bool json, int top,
               std::int64_t failAboveDelta, bool failOnLostDonation,
               const std::vector<CauseKind> &failOn, int threads)
{
    const Stopwatch clock;
    keepHeapBetweenLoads(); // many small modules loaded side by side, twice each
    QStringList problems;
    const RunSummary a = RunFacts::summarize(before, threads, 20, &problems);
    const RunSummary b = RunFacts::summarize(after, threads, 20, &problems);
    for (const QString &p : problems)
        fail(p, 0);
    if (a.modules.empty() || b.modules.empty())
        return 2;
    // Each pair on one thread, the pairs side by side and read together (a capture once).
    const RunDiff d = RunDiff::of(
        a, b,
        [](const RunSummary::Module &x, const RunSummary::Module &y) {
            return RunFacts::compare(x, y, 1);
        },
        [threads](const std::vector<RunDiff::Pair> &pairs) {
            return RunFacts::compareEach(pairs, threads);
        });
    spdlog::debug("runs compared in {:.3f} s", clock.seconds());
    const std::string out = json ? RunDiffReport::json(d, before.toStdString(), after.toStdString())
                                 : RunDiffReport::text(d, before.toStdString(), after.toStdString(),
                                                       static_cast<std::size_t>(top));
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    // A module that could not be read is named, and no gate is judged on runs missing one.
    for (const RunDiff::Unreadable &u : d.unreadable)
        fail(QString::fromStdString(u.said() + " (" + (u.after ? "after" : "before") +
                                    " run; not compared)"),
             0);
    if (!d.unreadable.empty() && (failAboveDelta >= 0 || failOnLostDonation || !failOn.empty()))
        return fail(QString::number(d.unreadable.size()) +
                        (d.unreadable.size() == 1
                             ? QStringLiteral(" module could not be read: the gate cannot be "
                                              "judged")
                             : QStringLiteral(" modules could not be read: the gate cannot be "
                                              "judged")),
                    cli::kUnjudged);
    // A pair that was not compared is judged by no gate: the run fails them all.
    const bool gated = failAboveDelta >= 0 || failOnLostDonation || !failOn.empty();
    std::size_t notCompared = 0;
    for (const RunDiff::Row &c : d.rows)
        if (c.change == RunDiff::Change::Changed && !c.comparison.ok) {
            ++notCompared;
            fail(QString::fromStdString(c.name + " " + c.signature + ": " +
                                        c.comparison.notCompared()),
                 0);
        }
    if (notCompared > 0 && gated)
        return fail(QString::number(notCompared) +
                        QStringLiteral(" changed compile(s) could not be compared: the gate "
                                       "cannot be judged"),
                    cli::kUnjudged);
    int code = 0;
    for (const RunDiff::Row &c : d.rows) {
        const QString who = QString::fromStdString(c.name + " " + c.signature);
        if (failAboveDelta >= 0 && c.peakDelta() > failAboveDelta)
            code =
                fail((c.change == RunDiff::Change::New
                          ? QStringLiteral("%1: a new compile whose live peak, %2, is more than "
                                           "the allowed growth of %3")
                          : QStringLiteral("%1: the live peak grew by %2, more than the "
                                           "allowed %3"))
                         .arg(who, humanBytesText(c.peakDelta()), humanBytesText(failAboveDelta)),
                     3);
        if (failOnLostDonation && c.comparison.lostDonation)
            code = fail(who + QStringLiteral(": a donated parameter is no longer donated"), 3);
        if (c.comparison.hasCause &&
            std::find(failOn.begin(), failOn.end(), c.comparison.causeKind) != failOn.end())
            code = fail(QStringLiteral("%1: %2: %3")
                            .arg(QString::fromLatin1(causeKindKey(c.comparison.causeKind)), who,
                                 QString::fromStdString(c.comparison.causeText)),
                        3);
    }
    return code;
}

} // namespace

int runDiff(const Args &args, int threads)
{
    const bool json = args.isSet("json");
    DiffReportOptions options;
    const auto top = args.integer("top", 0, std::numeric_limits<int>::max(), options.top);
    const auto failAboveDelta = args.size("fail-above-delta", 0, -1);
    if (!top || !failAboveDelta)
        return 1;
    options.top = static_cast<int>(*top);
    const bool failOnLostDonation = args.isSet("fail-on-lost-donation");
    std::vector<CauseKind> failOn;
    if (args.isSet("fail-on")) {
        // One cause kind, or several separated by commas.
        QStringList kinds = args.value("fail-on").split(QLatin1Char(','));
        for (const QString &k : kinds) {
            CauseKind kind{};
            if (!causeKindByKey(k.trimmed().toStdString(), kind))
                kinds.clear();
            else
                failOn.push_back(kind);
        }
        if (kinds.isEmpty()) {
            QStringList names;
            for (int k = 0; k < kCauseKindCount; ++k)
                names << QString::fromLatin1(causeKindKey(static_cast<CauseKind>(k)));
            return fail(QStringLiteral("--fail-on needs a cause kind (or several, comma "
                                       "separated): ") +
                            names.join(QStringLiteral(", ")),
                        1);
        }
    }
    const QStringList &files = args.positional();
    if (files.size() != 2)
        return fail(QStringLiteral("diff needs two dump files, A (before) and B (after), or two "
                                   "dump folders (runs)\n") +
                        cli::usageOf(u"diff"),
                    1);
    // Two runs (folders, or captures of several modules) are compared function by function.
    const bool runA = DumpFiles::isRun(files[0]);
    const bool runB = DumpFiles::isRun(files[1]);
    if (runA && runB)
        return runRunDiff(files[0], files[1], json, options.top, *failAboveDelta,
                          failOnLostDonation, failOn, threads);
    if (runA || runB)
        return fail(QStringLiteral("diff compares two dumps or two runs (folders, or captures of "
                                   "several modules), not one of each"),
                    1);
    // Both files at once, each on half the threads.
    const int half = std::max(1, threadsFor(threads) / 2);
    LoadedDump a;
    LoadedDump b;
    bool okA = false;
    bool okB = false;
    const Stopwatch timing;
    runBoth([&] { okA = loadForCommand(files[0], a, half); },
            [&] { okB = loadForCommand(files[1], b, half); }, threads);
    if (!okA || !okB)
        return 2;
    spdlog::debug("both dumps loaded in {:.3f} s", timing.seconds());
    const DumpDiff d =
        DumpDiff::compute(*a.dump, *a.timeline, *b.dump, *b.timeline, nullptr, threads);
    spdlog::debug("compared in {:.3f} s", timing.seconds());
    options.before = pathBytes(files[0]);
    options.after = pathBytes(files[1]);
    options.beforeWarnings = Report::warnings(*a.dump, *a.timeline);
    options.afterWarnings = Report::warnings(*b.dump, *b.timeline);
    const std::string out = json ? DiffReport::json(d, *a.dump, *b.dump, options)
                                 : DiffReport::text(d, *a.dump, *b.dump, options);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    // A gate cannot be judged on a dump that lacks part of itself: it fails, on its own.
    if (*failAboveDelta >= 0 || failOnLostDonation || !failOn.empty()) {
        int untrusted = 0;
        for (const auto &[loaded, file] : {std::pair{&a, files[0]}, std::pair{&b, files[1]}})
            if (loaded->dump->traits.truncated)
                untrusted = fail(file + QStringLiteral(": the dump looks truncated (see its "
                                                       "warnings): the gate cannot be judged"),
                                 cli::kUnjudged);
        if (untrusted != 0)
            return untrusted;
    }
    int code = 0;
    if (*failAboveDelta >= 0 && d.peakDelta() > *failAboveDelta) {
        std::fprintf(stderr,
                     "bufferscope: the peak grew by %lld bytes (%s), more than the allowed %lld "
                     "bytes (%s): %s at step %lld -> %s at step %lld\n",
                     static_cast<long long>(d.peakDelta()), humanBytes(d.peakDelta()).c_str(),
                     static_cast<long long>(*failAboveDelta), humanBytes(*failAboveDelta).c_str(),
                     humanBytes(d.peakBefore).c_str(), static_cast<long long>(d.peakStepBefore),
                     humanBytes(d.peakAfter).c_str(), static_cast<long long>(d.peakStepAfter));
        code = 3;
    }
    if (failOnLostDonation && d.lostDonations() > 0) {
        for (const DonationChange &c : d.donations)
            if (c.lost)
                fail(QStringLiteral("parameter %1 %2 (%3) was aliased with an output in %4 and is "
                                    "not in %5: the donation is no longer honoured")
                         .arg(c.parameter)
                         .arg(QString::fromStdString(c.index), humanBytesText(c.bytes), files[0],
                              files[1]),
                     3);
        code = 3;
    }
    for (const Cause &c : d.why.causes) {
        if (std::find(failOn.begin(), failOn.end(), c.kind) == failOn.end())
            continue;
        const std::string line = safetext::forTerminal(c.text);
        std::fprintf(stderr, "bufferscope: %s: %s (peak %s, held %s)\n",
                     std::string(causeKindKey(c.kind)).c_str(), line.c_str(),
                     DiffReport::signedBytes(c.peakDelta).c_str(),
                     DiffReport::signedBytes(c.heldDelta).c_str());
        code = 3;
    }
    return code;
}

} // namespace bufferscope
