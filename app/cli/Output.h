#pragma once

#include <QString>
#include <QStringView>

#include <string>
#include <vector>

namespace bufferscope::cli {

/// Exit status 4: a `--fail-...` gate could not be judged (a dump looks truncated).
constexpr int kUnjudged = 4;
/// Prints "bufferscope: MESSAGE" on stderr, each line through safetext::forTerminal (a message
/// may quote a file name or a dump's text), and returns `code`.
int fail(const QString &message, int code);
/// Names on stderr the modules a command could not read ("bufferscope: not read: ERROR"), the
/// first ten and how many more: a command that exits 2 for them says why where errors go.
void sayNotRead(const std::vector<std::string> &errors);
/// The synopsis (app/usage.txt, the one copy), as --help prints it.
QString usage();
/// The synopsis lines of one command ("report", "export", ...).
QString usageOf(QStringView command);

} // namespace bufferscope::cli
