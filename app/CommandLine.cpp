#include "CommandLine.h"

#include "DumpFiles.h"
#include "LoadedDump.h"
#include "OomJoin.h"
#include "Usage.h"
#include "analysis/DeviceFit.h"
#include "analysis/DumpDiff.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "models/ByteSize.h"
#include "parse/DumpParser.h"
#include "parse/FileKind.h"
#include "parse/MappedFile.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ModuleFiles.h"
#include "parse/OomMessage.h"
#include "report/DiffReport.h"
#include "report/FitReport.h"
#include "report/JsonWriter.h"
#include "report/OomReport.h"
#include "report/Report.h"
#include "report/ValueCard.h"
#include "util/Parallel.h"
#include "util/SafeText.h"
#include "util/Stopwatch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace bufferscope {

namespace {

int fail(const QString &message, int code)
{
    return CommandLine::fail(message, code);
}

/// Loads FILE for a command; prints the error (FILE:LINE: ...) and returns false on failure.
bool load(const QString &file, LoadedDump &out, int threads)
{
    if (QFileInfo(file).isDir()) {
        fail(file +
                 QStringLiteral(": is a directory; give one dump file (use 'list' for a folder)"),
             2);
        return false;
    }
    QString error;
    if (!loadDump(file, out, error, nullptr, {}, threads)) {
        fail(error, 2);
        return false;
    }
    return true;
}

int runReport(const QStringList &args, int threads)
{
    QString file;
    bool json = false;
    ReportOptions options;
    qint64 failAbove = -1;
    QString valueName;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        auto next = [&](QString &value) {
            if (i + 1 >= args.size())
                return false;
            value = args[++i];
            return true;
        };
        QString v;
        if (a == QLatin1String("--json")) {
            json = true;
        } else if (a == QLatin1String("--top")) {
            bool ok = false;
            if (!next(v) || (options.top = v.toInt(&ok), !ok) || options.top < 0)
                return fail(QStringLiteral("--top needs a number ≥ 0"), 1);
        } else if (a == QLatin1String("--step")) {
            bool ok = false;
            qint64 step = 0;
            if (!next(v) || (step = v.toLongLong(&ok), !ok) || step < 0)
                return fail(QStringLiteral("--step needs a step number ≥ 0"), 1);
            options.step = step;
        } else if (a == QLatin1String("--value")) {
            if (!next(v) || v.isEmpty())
                return fail(QStringLiteral("--value needs a value id, NAME or NAME{INDEX}"), 1);
            valueName = v;
        } else if (a == QLatin1String("--group-by")) {
            Breakdown::Grouping grouping = Breakdown::Grouping::OpName;
            if (!next(v) || !Breakdown::groupingByName(v.toStdString(), grouping) ||
                grouping == Breakdown::Grouping::CallersTopDown ||
                grouping == Breakdown::Grouping::CallersBottomUp)
                return fail(
                    QStringLiteral("--group-by needs op_name, source, op_type, kind or shape"), 1);
            options.groupBy = grouping;
        } else if (a == QLatin1String("--fail-above")) {
            if (!next(v) || (failAbove = CommandLine::parseSize(v)) < 0)
                return fail(QStringLiteral("--fail-above needs a size such as 16GiB, 512MiB or "
                                           "1234 (bytes)"),
                            1);
        } else if (a.startsWith(QLatin1String("--"))) {
            return fail(QStringLiteral("unknown option '%1' for report\n").arg(a) +
                            CommandLine::usageOf(u"report"),
                        1);
        } else if (file.isEmpty()) {
            file = a;
        } else {
            return fail(QStringLiteral("report takes one FILE"), 1);
        }
    }
    if (file.isEmpty())
        return fail(QStringLiteral("report needs a FILE\n") + CommandLine::usageOf(u"report"), 1);
    // XLA's memory-usage report without its dump: what it holds.
    if (const std::string path = file.toStdString(); FileKinds::isLoneMemoryUsageReport(path)) {
        std::string text;
        {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly))
                return fail(file + QStringLiteral(": ") + f.errorString(), 2);
            text = f.readAll().toStdString();
        }
        const MemoryUsageReport r = MemoryUsageReport::parse(text);
        const std::string out =
            json ? Report::memoryUsageJson(r, path) : Report::memoryUsageText(r, path, options.top);
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
        return 0;
    }
    LoadedDump loaded;
    if (!load(file, loaded, threads))
        return 2;
    const Dump &dump = *loaded.dump;
    options.file = file.toStdString();
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
        const ValueCard facts = ValueCard::of(dump, value);
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
    if (failAbove >= 0 && dump.traits.truncated)
        return fail(file + QStringLiteral(": the dump looks truncated (see its warnings): the "
                                          "--fail-above gate cannot be judged"),
                    CommandLine::kUnjudged);
    if (failAbove >= 0) {
        // What the device holds while the module runs decides whether it fits, not the live
        // peak (MemoryAnalysis.h): the temp and the outputs are allocated whole.
        const qint64 held = MemoryAnalysis::of(dump).device.held();
        if (held > failAbove) {
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
                            .arg(file)
                            .arg(held)
                            .arg(QString::fromStdString(humanBytes(held)))
                            .arg(failAbove)
                            .arg(QString::fromStdString(humanBytes(failAbove)))
                            .arg(held - failAbove)
                            .arg(live),
                        3);
        }
    }
    return 0;
}

int runDiff(const QStringList &args, int threads)
{
    QStringList files;
    bool json = false;
    DiffReportOptions options;
    qint64 failAboveDelta = -1;
    bool failOnLostDonation = false;
    std::vector<CauseKind> failOn;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--json")) {
            json = true;
        } else if (a == QLatin1String("--top")) {
            bool ok = false;
            if (i + 1 >= args.size() || (options.top = args[++i].toInt(&ok), !ok) ||
                options.top < 0)
                return fail(QStringLiteral("--top needs a number ≥ 0"), 1);
        } else if (a == QLatin1String("--fail-above-delta")) {
            if (i + 1 >= args.size() || (failAboveDelta = CommandLine::parseSize(args[++i])) < 0)
                return fail(QStringLiteral("--fail-above-delta needs a size such as 512MiB, 1GiB "
                                           "or 0 (bytes)"),
                            1);
        } else if (a == QLatin1String("--fail-on-lost-donation")) {
            failOnLostDonation = true;
        } else if (a == QLatin1String("--fail-on")) {
            // One cause kind, or several separated by commas.
            QStringList kinds;
            if (i + 1 < args.size())
                kinds = args[++i].split(QLatin1Char(','));
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
        } else if (a.startsWith(QLatin1String("--"))) {
            return fail(QStringLiteral("unknown option '%1' for diff\n").arg(a) +
                            CommandLine::usageOf(u"diff"),
                        1);
        } else {
            files << a;
        }
    }
    if (files.size() != 2)
        return fail(QStringLiteral("diff needs two dump files, A (before) and B (after)\n") +
                        CommandLine::usageOf(u"diff"),
                    1);
    // Both files at once, each on half the threads.
    const int half = std::max(1, threadsFor(threads) / 2);
    LoadedDump a;
    LoadedDump b;
    bool okA = false;
    bool okB = false;
    const Stopwatch timing;
    runBoth([&] { okA = load(files[0], a, half); }, [&] { okB = load(files[1], b, half); },
            threads);
    if (!okA || !okB)
        return 2;
    spdlog::debug("both dumps loaded in {:.3f} s", timing.seconds());
    const DumpDiff d =
        DumpDiff::compute(*a.dump, *a.timeline, *b.dump, *b.timeline, nullptr, threads);
    spdlog::debug("compared in {:.3f} s", timing.seconds());
    options.before = files[0].toStdString();
    options.after = files[1].toStdString();
    options.beforeWarnings = Report::warnings(*a.dump, *a.timeline);
    options.afterWarnings = Report::warnings(*b.dump, *b.timeline);
    const std::string out = json ? DiffReport::json(d, *a.dump, *b.dump, options)
                                 : DiffReport::text(d, *a.dump, *b.dump, options);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    // A gate cannot be judged on a dump that lacks part of itself: it fails, on its own.
    if (failAboveDelta >= 0 || failOnLostDonation || !failOn.empty()) {
        int untrusted = 0;
        for (const auto &[loaded, file] : {std::pair{&a, files[0]}, std::pair{&b, files[1]}})
            if (loaded->dump->traits.truncated)
                untrusted = fail(file + QStringLiteral(": the dump looks truncated (see its "
                                                       "warnings): the gate cannot be judged"),
                                 CommandLine::kUnjudged);
        if (untrusted != 0)
            return untrusted;
    }
    int code = 0;
    if (failAboveDelta >= 0 && d.peakDelta() > failAboveDelta) {
        std::fprintf(stderr,
                     "bufferscope: the peak grew by %lld bytes (%s), more than the allowed %lld "
                     "bytes (%s): %s at step %lld -> %s at step %lld\n",
                     static_cast<long long>(d.peakDelta()), humanBytes(d.peakDelta()).c_str(),
                     static_cast<long long>(failAboveDelta), humanBytes(failAboveDelta).c_str(),
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
                         .arg(QString::fromStdString(c.index),
                              QString::fromStdString(humanBytes(c.bytes)), files[0], files[1]),
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

int runList(const QStringList &args, int threads)
{
    QString dir;
    bool json = false;
    for (const QString &a : args) {
        if (a == QLatin1String("--json"))
            json = true;
        else if (a.startsWith(QLatin1String("--")))
            return fail(QStringLiteral("unknown option '%1' for list\n").arg(a) +
                            CommandLine::usageOf(u"list"),
                        1);
        else if (dir.isEmpty())
            dir = a;
        else
            return fail(QStringLiteral("list takes one DIR"), 1);
    }
    if (dir.isEmpty())
        return fail(QStringLiteral("list needs a DIR (an --xla_dump_to folder)\n") +
                        CommandLine::usageOf(u"list"),
                    1);
    if (!QFileInfo(dir).isDir())
        return fail(dir + (QFileInfo::exists(dir) ? QStringLiteral(": is not a folder")
                                                  : QStringLiteral(": no such folder")),
                    2);
    const Stopwatch clock;
    const DumpFiles found = DumpFiles::collect({dir});
    spdlog::debug("list: {} modules found in {:.3f} s", found.files.size(), clock.seconds());
    struct Entry
    {
        std::string module;
        std::vector<std::string> files;
        std::int64_t total = 0;
        std::int64_t peakStep = -1;
        std::int64_t peakBytes = 0;
        std::optional<MemoryAnalysis> analysis; ///< none for a lone memory-usage report
        std::string error;
        std::int64_t held() const { return analysis ? analysis->device.held() : -1; }
    };
    // Threads where they pay: a folder's small modules are read one per thread, each on the
    // serial path (no helper threads started per file); a big one on every thread, alone
    // (kReadAloneFrom, measured in tests/bench/README.md, "A folder of modules").
    const std::size_t count = static_cast<std::size_t>(found.files.size());
    std::vector<Entry> entries(count);
    std::vector<std::size_t> big;
    std::vector<std::size_t> small;
    const QString prefix = QDir(dir).path() + QLatin1Char('/');
    for (std::size_t i = 0; i < count; ++i) {
        const auto at = static_cast<qsizetype>(i);
        // The module's files as the folder listing found them, named from the folder.
        for (const QString &f : found.members[at])
            entries[i].files.push_back(
                (f.startsWith(prefix) ? f.mid(prefix.size()) : f).toStdString());
        (found.bytes[at] >= kReadAloneFrom ? big : small).push_back(i);
    }
    spdlog::debug("list: {} read alone, {} side by side; sized in {:.3f} s", big.size(),
                  small.size(), clock.seconds());
    keepHeapBetweenLoads();
    std::atomic<std::size_t> done{0};
    std::atomic<int> failed{0};
    std::mutex progressLock;
    const bool tty = ::isatty(fileno(stderr));
    const auto read = [&](std::size_t i, int fileThreads) {
        const QString &file = found.files[static_cast<qsizetype>(i)];
        Entry &e = entries[i];
        e.module = ModuleFiles::moduleName(file.toStdString());
        if (tty) {
            const std::lock_guard<std::mutex> hold(progressLock);
            std::fprintf(stderr, "\rreading %zu/%zu: %s\033[K", done.load() + 1, count,
                         safetext::forTerminal(e.module).c_str());
        }
        if (ModuleFiles::isMemoryUsageReportName(file.toStdString())) {
            // A module of which only the memory-usage report is here (the listing keeps a
            // module's report only when none of its dump files is beside it): its total, no
            // peak.
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                e.total = MemoryUsageReport::parse(f.readAll().toStdString()).totalBytes;
        } else if (const ModuleFigures figures = ModuleFigures::read(file, fileThreads);
                   figures.status != ModuleFigures::Status::Read) {
            e.error = figures.error.toStdString();
            failed.store(1);
        } else {
            e.total = figures.total;
            e.peakStep = figures.step;
            e.peakBytes = figures.peak;
            e.analysis = figures.analysis;
        }
        done.fetch_add(1);
    };
    for (const std::size_t i : big)
        read(i, threads);
    parallelFor(small.size(), threadsFor(threads), [&](std::size_t k) { read(small[k], 1); });
    spdlog::debug("list: read in {:.3f} s", clock.seconds());
    const int status = failed.load() ? 2 : 0;
    if (::isatty(fileno(stderr)) && !entries.empty())
        std::fprintf(stderr, "\r\033[K");
    // What the device holds while a module runs first (what decides whether it fits), then
    // the total; a module known only by its report (no held figure) after those with one.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &x, const Entry &y) {
        return x.held() != y.held() ? x.held() > y.held() : x.total > y.total;
    });
    std::string out;
    if (json) {
        JsonWriter w;
        w.beginArray();
        for (const Entry &e : entries) {
            w.beginObject();
            w.key("module").value(e.module);
            w.key("files").beginArray();
            for (const std::string &f : e.files)
                w.value(f);
            w.endArray();
            w.key("total_bytes").value(e.total);
            if (e.analysis) {
                // The names of XLA's CompiledMemoryStats (JAX's memory_analysis()).
                w.key("held_bytes").value(e.analysis->device.held());
                w.key("argument_size_in_bytes").value(e.analysis->device.argument);
                w.key("output_size_in_bytes").value(e.analysis->device.output);
                w.key("alias_size_in_bytes").value(e.analysis->device.alias);
                w.key("temp_size_in_bytes").value(e.analysis->device.temp);
                w.key("host_held_bytes").value(e.analysis->host.held());
            } else {
                w.key("held_bytes").null();
            }
            w.key("peak_step").value(e.peakStep);
            w.key("peak_bytes").value(e.peakBytes);
            if (!e.error.empty())
                w.key("error").value(e.error);
            w.endObject();
        }
        w.endArray();
        out = w.str() + "\n";
    } else {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%-12s %-12s %-12s %8s  %s\n", "held", "total", "live peak",
                      "at step", "module (files)");
        out += buf;
        for (const Entry &e : entries) {
            if (!e.error.empty()) {
                out += "(unreadable)                                    " +
                       safetext::forTerminal(e.module) + ": " + safetext::forTerminal(e.error) +
                       "\n";
                continue;
            }
            // No peak (no live ranges, or only the memory-usage report): a dash, not 0B.
            const bool peak = e.peakStep >= 0;
            std::snprintf(buf, sizeof buf, "%-12s %-12s %-12s %8s  %s",
                          e.analysis ? humanBytes(e.held()).c_str() : "-",
                          humanBytes(e.total).c_str(), peak ? humanBytes(e.peakBytes).c_str() : "-",
                          peak ? std::to_string(e.peakStep).c_str() : "-",
                          safetext::forTerminal(e.module).c_str());
            out += buf;
            if (e.files.size() > 1)
                out += " (" + std::to_string(e.files.size()) + " files)";
            out += "\n";
        }
        out += std::to_string(entries.size()) + " modules in " +
               safetext::forTerminal(dir.toStdString()) +
               "; held: what the device holds while it runs (argument + output - alias + temp)\n";
    }
    for (const QString &p : found.problems)
        CommandLine::fail(p, 0);
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (entries.empty())
        return 2;
    return status;
}

/// Reads a whole log (a regular file only: a FIFO would hang the command).
bool readLog(const QString &path, std::string &text)
{
    MappedFile file;
    std::string error;
    if (!file.open(path.toStdString(), error)) {
        fail(QString::fromStdString(error), 2);
        return false;
    }
    text.assign(file.data());
    return true;
}

int runOom(const QStringList &args, int threads)
{
    QString log;
    QStringList dumps;
    bool json = false;
    for (const QString &a : args) {
        if (a == QLatin1String("--json"))
            json = true;
        else if (a.startsWith(QLatin1String("--")))
            return fail(QStringLiteral("unknown option '%1' for oom\n").arg(a) +
                            CommandLine::usageOf(u"oom"),
                        1);
        else if (log.isEmpty())
            log = a;
        else
            dumps.push_back(a);
    }
    if (log.isEmpty())
        return fail(QStringLiteral("oom needs a LOG (the text of an out-of-memory error)\n") +
                        CommandLine::usageOf(u"oom"),
                    1);
    OomFindings findings;
    findings.file = log.toStdString();
    {
        std::string text;
        if (!readLog(log, text))
            return 2;
        findings.log = OomLog::parse(text);
    }
    if (findings.log.messages.empty())
        return fail(log + QStringLiteral(": no out-of-memory message found (XLA's GPU "
                                         "\"Out of memory while trying to allocate\" or "
                                         "\"BufferAssignment OOM Debugging\", or a TPU \"Ran out "
                                         "of memory\" / \"Program hbm requirement\" report)"),
                    2);
    int status = 0;
    if (!dumps.isEmpty()) {
        const DumpFiles found = DumpFiles::collect(dumps);
        for (const QString &p : found.problems)
            CommandLine::fail(p, 0);
        QStringList errors;
        weighModules(findings, found.files, errors, nullptr, threads);
        for (const QString &e : errors)
            CommandLine::fail(e, 0);
        if (!errors.isEmpty())
            status = 2;
    }
    const std::string out = json ? OomReport::json(findings) : OomReport::text(findings);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return status;
}

std::int64_t sizeFromText(std::string_view text)
{
    return parseByteSize(QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
}

int runFit(const QStringList &args, int threads)
{
    QStringList inputs;
    QString limitText;
    QString residentText = QStringLiteral("args");
    QString logPath;
    bool json = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        auto next = [&](const char *what) -> std::optional<QString> {
            if (i + 1 >= args.size()) {
                fail(QStringLiteral("%1 needs %2").arg(a, QLatin1String(what)), 1);
                return std::nullopt;
            }
            return args[++i];
        };
        if (a == QLatin1String("--json")) {
            json = true;
        } else if (a == QLatin1String("--limit")) {
            const auto v = next("a size such as 80GiB, or a device such as a100-80gb");
            if (!v)
                return 1;
            limitText = *v;
        } else if (a == QLatin1String("--resident")) {
            const auto v = next("args, a size such as 10GiB, args+SIZE, or in-use");
            if (!v)
                return 1;
            residentText = *v;
        } else if (a == QLatin1String("--log")) {
            const auto v = next("an out-of-memory log");
            if (!v)
                return 1;
            logPath = *v;
        } else if (a.startsWith(QLatin1String("--"))) {
            return fail(QStringLiteral("unknown option '%1' for fit\n").arg(a) +
                            CommandLine::usageOf(u"fit"),
                        1);
        } else {
            inputs.push_back(a);
        }
    }
    if (inputs.isEmpty())
        return fail(QStringLiteral("fit needs modules: a dump folder or dump files\n") +
                        CommandLine::usageOf(u"fit"),
                    1);
    // The limit: typed, a named device, or what the log says the device had.
    std::int64_t limit = -1;
    std::string limitSource;
    OomLog log;
    if (!logPath.isEmpty()) {
        std::string text;
        if (!readLog(logPath, text))
            return 2;
        log = OomLog::parse(text);
    }
    if (!limitText.isEmpty()) {
        if (const auto preset = DeviceFit::preset(limitText.toLower().toStdString())) {
            limit = *preset;
            limitSource = "device " + limitText.toLower().toStdString() +
                          ", as its maker states it; the runtime gets less";
        } else {
            limit = parseByteSize(limitText);
            if (limit <= 0)
                return fail(QStringLiteral("--limit needs a size such as 80GiB or a device: %1")
                                .arg(QString::fromStdString(DeviceFit::presetNames())),
                            1);
            limitSource = "as given";
        }
    } else if (!logPath.isEmpty()) {
        for (const OomMessage &m : log.messages) {
            if (m.capacity > 0) {
                limit = m.capacity;
                limitSource = "from " + logPath.toStdString() + " line " + std::to_string(m.line) +
                              (m.capacityUlp > 0 ? ", as printed (rounded)" : "");
                break;
            }
        }
        if (limit < 0)
            return fail(logPath + QStringLiteral(": no device limit in this log (a BFC "
                                                 "'Limit:' line or a TPU 'Used X of Y'); give "
                                                 "--limit"),
                        2);
    } else {
        return fail(QStringLiteral("fit needs --limit SIZE|DEVICE (or --log LOG with the "
                                   "device's limit); devices: ") +
                        QString::fromStdString(DeviceFit::presetNames()),
                    1);
    }
    DeviceFit::Resident resident;
    if (residentText == QLatin1String("in-use")) {
        std::int64_t inUse = -1;
        for (const OomMessage &m : log.messages)
            if (m.inUse >= 0 && inUse < 0)
                inUse = m.inUse;
        if (inUse < 0)
            return fail(QStringLiteral("--resident in-use needs --log LOG with the allocator's "
                                       "'InUse:' line"),
                        1);
        resident.arguments = false;
        resident.fixed = inUse;
    } else if (const auto r =
                   DeviceFit::Resident::parse(residentText.toStdString(), &sizeFromText)) {
        resident = *r;
    } else {
        return fail(QStringLiteral("--resident needs args, a size such as 10GiB, args+SIZE or "
                                   "in-use, not '%1'")
                        .arg(residentText),
                    1);
    }

    const DumpFiles found = DumpFiles::collect(inputs);
    for (const QString &p : found.problems)
        CommandLine::fail(p, 0);
    std::vector<DeviceFit::Module> modules;
    bool truncated = false;
    int status = 0;
    for (const QString &file : found.files) {
        if (FileKinds::isLoneMemoryUsageReport(file.toStdString())) {
            CommandLine::fail(file + QStringLiteral(": only the memory-usage report is here; "
                                                    "its sizes are rounded, so it is left out"),
                              0);
            continue;
        }
        LoadedDump loaded;
        QString error;
        if (!loadDump(file, loaded, error, nullptr, {}, threads)) {
            CommandLine::fail(error, 0);
            status = 2;
            continue;
        }
        DeviceFit::Module m =
            DeviceFit::Module::of(ModuleFiles::moduleName(file.toStdString()), file.toStdString(),
                                  *loaded.dump, *loaded.timeline);
        truncated = truncated || loaded.dump->traits.truncated;
        modules.push_back(std::move(m));
    }
    if (modules.empty())
        return fail(QStringLiteral("fit: no module could be read"), 2);
    const DeviceFit fit = DeviceFit::compute(modules, resident, limit);
    const std::string out = json ? FitReport::json(fit, modules, limitSource)
                                 : FitReport::text(fit, modules, limitSource);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    if (status != 0)
        return status;
    if (truncated)
        return fail(QStringLiteral("a module looks truncated (see its warnings): whether it "
                                   "fits cannot be judged"),
                    CommandLine::kUnjudged);
    return fit.fits() ? 0 : 3;
}

} // namespace

int CommandLine::fail(const QString &message, int code)
{
    std::string out = "bufferscope: ";
    const QStringList lines = message.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            out += '\n';
        out += safetext::forTerminal(lines[i].toStdString());
    }
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stderr);
    return code;
}

QString CommandLine::usage()
{
    return QStringLiteral("usage:\n") + QString::fromUtf8(kUsageText).trimmed();
}

QString CommandLine::usageOf(QStringView command)
{
    // The synopsis lines of `command`: its own lines and the ones indented under them.
    const QString prefix = QStringLiteral("bufferscope ") + command + QLatin1Char(' ');
    QStringList lines;
    bool in = false;
    for (const QString &line : QString::fromUtf8(kUsageText).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("bufferscope")))
            in = line.startsWith(prefix);
        else if (!line.startsWith(QLatin1Char(' ')))
            in = false;
        if (in)
            lines << line;
    }
    return QStringLiteral("usage:\n") + lines.join(QLatin1Char('\n'));
}

qint64 CommandLine::parseSize(const QString &text)
{
    return parseByteSize(text);
}

bool CommandLine::isCommand(const QStringList &args)
{
    if (args.isEmpty())
        return false;
    const QString &first = args.front();
    return first == QLatin1String("report") || first == QLatin1String("diff") ||
           first == QLatin1String("list") || first == QLatin1String("oom") ||
           first == QLatin1String("fit") || first == QLatin1String("--help") ||
           first == QLatin1String("-h") || first == QLatin1String("--version");
}

int CommandLine::run(const QStringList &args, int threads)
{
    const QString command = args.front();
    if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
        std::printf("%s\n", usage().toUtf8().constData());
        return 0;
    }
    if (command == QLatin1String("--version")) {
        std::printf("bufferscope %s\n", BUFFERSCOPE_VERSION);
        return 0;
    }
    const QStringList rest = args.mid(1);
    if (command == QLatin1String("report"))
        return runReport(rest, threads);
    if (command == QLatin1String("diff"))
        return runDiff(rest, threads);
    if (command == QLatin1String("list"))
        return runList(rest, threads);
    if (command == QLatin1String("oom"))
        return runOom(rest, threads);
    if (command == QLatin1String("fit"))
        return runFit(rest, threads);
    return fail(QStringLiteral("unknown command '%1'\n").arg(command) + usage(), 1);
}

} // namespace bufferscope
