// Under a limit on its memory (an address-space limit, as `ulimit -v` sets), a file that needs
// more than there is is said, naming the file: never a crash, an abort or a hang.
#include "DumpGenerator.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

namespace {

struct Limited
{
    int code = -1; ///< exit status; -1 when it crashed, was killed or hung
    QByteArray err;
};

/// `bufferscope ARGS` with its address space limited to `mib` MiB (prlimit, util-linux).
Limited runLimited(qint64 mib, const QStringList &args)
{
    QProcess p;
    p.start(QStandardPaths::findExecutable(QStringLiteral("prlimit")),
            QStringList{QStringLiteral("--as=%1").arg(mib << 20), QStringLiteral("--"),
                        QStringLiteral(BUFFERSCOPE_BINARY)} +
                args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError()};
}

} // namespace

class TestLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // From the least memory the program starts in to enough for the whole report, in steps of
    // 8 MiB: each run ends with the report (0) or with "not enough memory" for the file (2).
    // Before, std::bad_alloc ended the run with an abort, or with a hang where a parse helper
    // waited for the thread that had thrown.
    void outOfMemoryIsSaid()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer reserves terabytes of address space: no address-space limit "
              "can apply to this build");
#endif
        if (QStandardPaths::findExecutable(QStringLiteral("prlimit")).isEmpty())
            QSKIP("prlimit (util-linux) is not installed");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big-buffer-assignment.txt"));
        std::FILE *f = std::fopen(path.toLocal8Bit().constData(), "wb");
        QVERIFY(f);
        bufferscope::bench::generateDump({100000, 3}, f); // about 70 MB
        std::fclose(f);

        qint64 start = 32;
        while (start < 1024 && runLimited(start, {QStringLiteral("--version")}).code != 0)
            start += 8;
        QVERIFY2(start < 1024, "bufferscope does not start under 1 GiB");
        int saidMemory = 0;
        bool finished = false;
        for (qint64 mib = start; mib < start + 8 * 80 && !finished; mib += 8) {
            for (const QStringList &args :
                 {QStringList{QStringLiteral("report"), path},
                  QStringList{QStringLiteral("report"), path, QStringLiteral("--json")}}) {
                const Limited r = runLimited(mib, args);
                const QByteArray at = QByteArray::number(mib) + " MiB: " + r.err;
                QVERIFY2(r.code == 0 || r.code == 2, at.constData());
                if (r.code == 2) {
                    QVERIFY2(r.err.contains(path.toUtf8()), at.constData());
                    QVERIFY2(r.err.contains("not enough memory") ||
                                 r.err.contains("cannot map the file"),
                             at.constData());
                    saidMemory += r.err.contains("not enough memory");
                } else {
                    finished = true;
                }
            }
        }
        QVERIFY2(finished, "no limit up to 640 MiB above the start let the report finish");
        QVERIFY2(saidMemory > 0, "no run ran out of memory while it read the file");
    }
};

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
