#pragma once

#include <QString>
#include <QStringView>

namespace bufferscope::cli {

/// Exit status 4: a `--fail-...` gate could not be judged (a dump looks truncated).
constexpr int kUnjudged = 4;
/// Prints "bufferscope: MESSAGE" on stderr, each line through safetext::forTerminal (a message
/// may quote a file name or a dump's text), and returns `code`.
int fail(const QString &message, int code);
/// The synopsis (app/usage.txt, the one copy), as --help prints it.
QString usage();
/// The synopsis lines of one command ("report", "export", ...).
QString usageOf(QStringView command);

} // namespace bufferscope::cli
