#include "CommandLine.h"

#include "analysis/MemoryTimeline.h"
#include "parse/DumpParser.h"
#include "report/Report.h"

#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace bufferscope {

namespace {

int fail(const QString &message, int code)
{
    std::fprintf(stderr, "bufferscope: %s\n", message.toUtf8().constData());
    return code;
}

struct Loaded
{
    std::shared_ptr<const Dump> dump;
    std::optional<MemoryTimeline> timeline;
};

/// Loads FILE for a command; prints the error (FILE:LINE: ...) and returns false on failure.
bool load(const QString &file, Loaded &out)
{
    if (QFileInfo(file).isDir()) {
        fail(file +
                 QStringLiteral(": is a directory; give one dump file (use 'list' for a folder)"),
             2);
        return false;
    }
    LoadResult result = DumpParser::loadFile(file.toStdString());
    if (!result.ok()) {
        fail(QString::fromStdString(result.error), 2);
        return false;
    }
    out.dump = result.dump;
    out.timeline = MemoryTimeline::compute(*out.dump);
    return true;
}

int runReport(const QStringList &args)
{
    QString file;
    bool json = false;
    ReportOptions options;
    qint64 failAbove = -1;
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
        } else if (a == QLatin1String("--fail-above")) {
            if (!next(v) || (failAbove = CommandLine::parseSize(v)) < 0)
                return fail(QStringLiteral("--fail-above needs a size such as 16GiB, 512MiB or "
                                           "1234 (bytes)"),
                            1);
        } else if (a.startsWith(QLatin1String("--"))) {
            return fail(QStringLiteral("unknown option '%1' for report\n").arg(a) +
                            CommandLine::usage(),
                        1);
        } else if (file.isEmpty()) {
            file = a;
        } else {
            return fail(QStringLiteral("report takes one FILE"), 1);
        }
    }
    if (file.isEmpty())
        return fail(QStringLiteral("report needs a FILE\n") + CommandLine::usage(), 1);
    Loaded loaded;
    if (!load(file, loaded))
        return 2;
    const Dump &dump = *loaded.dump;
    options.file = file.toStdString();
    if (options.step && (!dump.hasLiveRanges() || *options.step > dump.maxStep()))
        return fail(QStringLiteral("--step %1 is outside the program's steps 0..%2")
                        .arg(*options.step)
                        .arg(dump.maxStep()),
                    1);
    const std::string text = json ? Report::json(dump, *loaded.timeline, options)
                                  : Report::text(dump, *loaded.timeline, options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    if (failAbove >= 0) {
        const SpaceTimeline *primary = loaded.timeline->primary();
        const qint64 peak = primary ? primary->peak.bytes : 0;
        if (peak > failAbove) {
            std::fprintf(stderr,
                         "bufferscope: %s: peak %lld bytes (%s) at step %lld exceeds the budget "
                         "of %lld bytes (%s) by %lld bytes\n",
                         file.toUtf8().constData(), static_cast<long long>(peak),
                         humanBytes(peak).c_str(), static_cast<long long>(primary->peak.step),
                         static_cast<long long>(failAbove), humanBytes(failAbove).c_str(),
                         static_cast<long long>(peak - failAbove));
            return 3;
        }
    }
    return 0;
}

} // namespace

QString CommandLine::usage()
{
    return QStringLiteral(
        "usage:\n"
        "  bufferscope [FILE|DIR ...]                  open the GUI (no argument: the bundled "
        "sample)\n"
        "  bufferscope report FILE [--json] [--top N] [--step T] [--fail-above SIZE]\n"
        "                                              memory report on stdout\n"
        "  bufferscope export FILE --view usage|gantt|memory-map|breakdown --out OUT.png\n"
        "                     [--width W] [--height H] [--scale S] [--select VALUE_ID|NAME] "
        "[--step T]\n"
        "                                              render a chart to PNG, headless\n"
        "  bufferscope [FILE|DIR ...] --screenshot OUT.png [--select VALUE]\n"
        "                                              open, grab the window to OUT.png, quit\n"
        "  bufferscope --help | --version\n"
        "options for every command: --verbose (debug logging on stderr)\n"
        "exit status: 0 ok, 1 bad command line, 2 input error, 3 --fail-above exceeded");
}

qint64 CommandLine::parseSize(const QString &text)
{
    QString t = text.trimmed();
    static const struct
    {
        const char *suffix;
        double factor;
    } kUnits[] = {{"TiB", 1024.0 * 1024 * 1024 * 1024},
                  {"GiB", 1024.0 * 1024 * 1024},
                  {"MiB", 1024.0 * 1024},
                  {"KiB", 1024.0},
                  {"TB", 1024.0 * 1024 * 1024 * 1024},
                  {"GB", 1024.0 * 1024 * 1024},
                  {"MB", 1024.0 * 1024},
                  {"KB", 1024.0},
                  {"T", 1024.0 * 1024 * 1024 * 1024},
                  {"G", 1024.0 * 1024 * 1024},
                  {"M", 1024.0 * 1024},
                  {"K", 1024.0},
                  {"B", 1.0}};
    double factor = 1.0;
    for (const auto &unit : kUnits) {
        if (t.endsWith(QLatin1String(unit.suffix), Qt::CaseInsensitive)) {
            factor = unit.factor;
            t.chop(static_cast<qsizetype>(std::strlen(unit.suffix)));
            t = t.trimmed();
            break;
        }
    }
    if (factor == 1.0) {
        bool ok = false;
        const qint64 bytes = t.toLongLong(&ok);
        return ok && bytes >= 0 ? bytes : -1;
    }
    bool ok = false;
    const double number = t.toDouble(&ok);
    if (!ok || number < 0 || !std::isfinite(number) || number * factor > 9.2e18)
        return -1;
    return static_cast<qint64>(std::llround(number * factor));
}

bool CommandLine::isCommand(const QStringList &args)
{
    if (args.isEmpty())
        return false;
    const QString &first = args.front();
    return first == QLatin1String("report") || first == QLatin1String("--help") ||
           first == QLatin1String("-h") || first == QLatin1String("--version");
}

int CommandLine::run(const QStringList &args)
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
        return runReport(rest);
    return fail(QStringLiteral("unknown command '%1'\n").arg(command) + usage(), 1);
}

} // namespace bufferscope
