#pragma once

#include <QStringList>

namespace bufferscope {

/// The headless commands (`report`, ...). Returns the process exit status:
/// 0 success, 1 bad command line, 2 input error, 3 a `--fail-...` gate failed, 4 a gate could
/// not be judged (a dump looks truncated).
class CommandLine
{
public:
    static constexpr int kUnjudged = 4;
    /// True when argv names a headless command rather than files for the GUI.
    static bool isCommand(const QStringList &args);
    /// Runs the command in `args` with `threads` (util/Parallel.h threadsFor: 0 every core).
    static int run(const QStringList &args, int threads);
    /// The synopsis (app/usage.txt, the one copy), as --help prints it.
    static QString usage();
    /// The synopsis lines of one command ("report", "export", ...).
    static QString usageOf(QStringView command);
    /// Parses "1234", "512MiB", "1.5GiB", "80 GB" (binary units); -1 when malformed.
    static qint64 parseSize(const QString &text);
    /// Prints "bufferscope: MESSAGE" on stderr, each line through safetext::forTerminal (a
    /// message may quote a file name or a dump's text), and returns `code`.
    static int fail(const QString &message, int code);
};

} // namespace bufferscope
