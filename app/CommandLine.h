#pragma once

#include "cli/Args.h"
#include "cli/Output.h"

#include <QStringList>

#include <optional>

namespace bufferscope {

/// The command line: which command (or the window) the arguments are for, their options parsed
/// by QCommandLineParser from the one option table (cli/Args), and the headless commands run
/// (one file each under cli/). Exit status: 0 success, 1 bad command line, 2 input error, 3 a
/// `--fail-...` gate failed, 4 a gate could not be judged (a dump looks truncated).
class CommandLine
{
public:
    /// The command the arguments name and the arguments without its word.
    struct Invocation
    {
        QString command; ///< report, diff, list, oom, fit, export, help, version; empty: window
        QStringList rest;
        QString helpFor; ///< help: the command whose usage was asked (`report --help`)
    };
    static Invocation invocationOf(const QStringList &args);
    /// Runs without a window (everything but export and the window).
    static bool isHeadless(const Invocation &invocation);
    /// The options of the invocation's command; nothing, with the reason printed, when they
    /// are not its options (exit status 1).
    static std::optional<Args> parse(const Invocation &invocation);
    /// Runs a headless command with `threads` (util/Parallel.h threadsFor: 0 every core).
    static int run(const Invocation &invocation, const Args &args, int threads);
};

} // namespace bufferscope
