#include "CommandLine.h"

#include "cli/Commands.h"

#include <cstdio>

namespace bufferscope {

namespace {

bool isHeadlessCommand(const QString &command)
{
    return command == QLatin1String("report") || command == QLatin1String("diff") ||
           command == QLatin1String("list") || command == QLatin1String("oom") ||
           command == QLatin1String("fit") || command == QLatin1String("summary") ||
           command == QLatin1String("memory");
}

} // namespace

CommandLine::Invocation CommandLine::invocationOf(const QStringList &args)
{
    Invocation out;
    // The options every command takes may come before the command word.
    qsizetype at = 0;
    while (at < args.size()) {
        if (args[at] == QLatin1String("--verbose"))
            ++at;
        else if (args[at] == QLatin1String("--threads"))
            at += 2;
        else
            break;
    }
    const QString first = args.value(at);
    if (first == QLatin1String("--help") || first == QLatin1String("-h"))
        out.command = QStringLiteral("help");
    else if (first == QLatin1String("--version"))
        out.command = QStringLiteral("version");
    else if (isHeadlessCommand(first) || first == QLatin1String("export"))
        out.command = first;
    out.rest = args;
    if (!out.command.isEmpty() && at < args.size())
        out.rest.removeAt(at);
    // `report --help`, anywhere before a `--` (after it, a file may be called that): the
    // command's usage, exit 0.
    if (out.command != QLatin1String("help") && out.command != QLatin1String("version") &&
        !out.command.isEmpty()) {
        for (const QString &a : std::as_const(out.rest)) {
            if (a == QLatin1String("--"))
                break;
            if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
                out.helpFor = out.command;
                out.command = QStringLiteral("help");
                out.rest.clear();
                break;
            }
        }
    }
    return out;
}

bool CommandLine::isHeadless(const Invocation &invocation)
{
    return isHeadlessCommand(invocation.command) || invocation.command == QLatin1String("help") ||
           invocation.command == QLatin1String("version");
}

std::optional<Args> CommandLine::parse(const Invocation &invocation)
{
    const QString &c = invocation.command;
    const QStringList &rest = invocation.rest;
    if (c == QLatin1String("report"))
        return Args::parse(c, rest, {"json", "top", "step", "value", "group-by", "fail-above"});
    if (c == QLatin1String("diff"))
        return Args::parse(c, rest,
                           {"json", "top", "fail-above-delta", "fail-on-lost-donation", "fail-on"});
    if (c == QLatin1String("list") || c == QLatin1String("oom") || c == QLatin1String("memory"))
        return Args::parse(c, rest, {"json"});
    if (c == QLatin1String("fit"))
        return Args::parse(c, rest, {"json", "limit", "resident", "log", "mem-fraction"});
    if (c == QLatin1String("summary"))
        return Args::parse(c, rest, {"json", "md", "top"});
    if (c == QLatin1String("export"))
        return Args::parse(c, rest,
                           {"view", "out", "width", "height", "scale", "title", "footer", "compare",
                            "select", "step", "order", "group-by", "allocation", "budget"});
    if (c == QLatin1String("help") || c == QLatin1String("version"))
        return Args::parse(c, rest, {});
    // The window: files and folders to open, and the screenshot mode's options.
    return Args::parse({}, rest,
                       {"screenshot", "select", "compare", "group-by", "source-frame", "fit"});
}

int CommandLine::run(const Invocation &invocation, const Args &args, int threads)
{
    const QString &command = invocation.command;
    if (command == QLatin1String("help")) {
        const QString usage =
            invocation.helpFor.isEmpty() ? cli::usage() : cli::usageOf(invocation.helpFor);
        std::printf("%s\n", usage.toUtf8().constData());
        return 0;
    }
    if (command == QLatin1String("version")) {
        std::printf("bufferscope %s\n", BUFFERSCOPE_VERSION);
        return 0;
    }
    if (command == QLatin1String("report"))
        return runReport(args, threads);
    if (command == QLatin1String("diff"))
        return runDiff(args, threads);
    if (command == QLatin1String("list"))
        return runList(args, threads);
    if (command == QLatin1String("oom"))
        return runOom(args, threads);
    if (command == QLatin1String("fit"))
        return runFit(args, threads);
    if (command == QLatin1String("summary"))
        return runSummary(args, threads);
    if (command == QLatin1String("memory"))
        return runMemory(args, threads);
    return cli::fail(QStringLiteral("unknown command '%1'\n").arg(command) + cli::usage(), 1);
}

} // namespace bufferscope
