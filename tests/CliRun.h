#pragma once
// Runs the real `bufferscope` executable as a user would, for the command-line tests.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace testutil {

struct CliRun
{
    int code = -1; ///< exit status, -1 when it crashed or hung
    QByteArray out;
    QByteArray err;
};

inline CliRun runBufferscope(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(BUFFERSCOPE_BINARY), args);
    // A bound on a hang, not a timing: an ASan build on a loaded 2-core machine takes its time.
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace testutil
