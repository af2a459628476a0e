// Under a limit on its memory (an address-space limit, as `ulimit -v` sets), a file that needs
// more than there is is said, naming the file: never a crash, an abort or a hang.
#include "AttackProtos.h"
#include "DumpGenerator.h"
#include "Sanitizers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

using testutil::kAddressSanitizer;

/// One run of bufferscope: its exit status, stderr, wall seconds and peak resident MiB.
struct Attacked
{
    int code = -1; ///< -1: killed by a signal, or past the time limit
    QByteArray out;
    QByteArray err;
    double seconds = 0;
    long peakMiB = 0;
};

/// `bufferscope ARGS` (bytes: a name need not be UTF-8) in `dir`, its address space limited to
/// `asMiB` (none under ASan, which reserves terabytes), killed after `timeLimit` seconds.
Attacked attack(const QString &dir, const std::vector<std::string> &args, long asMiB, int timeLimit)
{
    Attacked out;
    QTemporaryDir scratch;
    const std::string errPath = scratch.filePath(QStringLiteral("err")).toStdString();
    const std::string outPath = scratch.filePath(QStringLiteral("out")).toStdString();
    const std::string binary = BUFFERSCOPE_BINARY;
    const std::string where = dir.toStdString();
    std::vector<std::string> argv{binary};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char *> cargv;
    for (std::string &a : argv)
        cargv.push_back(a.data());
    cargv.push_back(nullptr);
    QElapsedTimer clock;
    clock.start();
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (asMiB > 0 && !kAddressSanitizer) {
            const rlimit limit{static_cast<rlim_t>(asMiB) << 20, static_cast<rlim_t>(asMiB) << 20};
            ::setrlimit(RLIMIT_AS, &limit);
        }
        const int null = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (null < 0 || err < 0 || ::chdir(where.c_str()) != 0)
            ::_exit(120);
        ::dup2(null, 1);
        ::dup2(err, 2);
        ::execv(binary.c_str(), cargv.data());
        ::_exit(121);
    }
    if (pid < 0)
        return out;
    int status = 0;
    rusage usage{};
    for (;;) {
        const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
        if (done == pid)
            break;
        if (clock.elapsed() > timeLimit * 1000) {
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
            out.seconds = clock.elapsed() / 1000.0;
            return out;
        }
        ::usleep(10000);
    }
    out.seconds = clock.elapsed() / 1000.0;
    out.peakMiB = usage.ru_maxrss / 1024;
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    QFile err(QString::fromStdString(errPath));
    if (err.open(QIODevice::ReadOnly))
        out.err = err.readAll();
    QFile said(QString::fromStdString(outPath));
    if (said.open(QIODevice::ReadOnly))
        out.out = said.readAll();
    return out;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
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
#if defined(BUFFERSCOPE_ASAN)
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

        // The start: where a report of the small sample runs three times in a row, and 16 MiB
        // more. Below it the libraries themselves fail as they start (libgomp's "Out of
        // memory allocating 8 bytes"), before any of our code runs.
        const QString sample =
            QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt");
        const auto starts = [&sample](qint64 mib) {
            for (int k = 0; k < 3; ++k)
                if (runLimited(mib, {QStringLiteral("report"), sample}).code != 0)
                    return false;
            return true;
        };
        qint64 start = 32;
        while (start < 1024 && !starts(start))
            start += 8;
        QVERIFY2(start < 1024, "bufferscope does not start under 1 GiB");
        start += 16;
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

    // Each kind of attack of issue 61, small enough to make here, run as a user would: under a
    // 3 GiB address space, with its exit status, its message, and limits on time and peak
    // memory (each far above what the run takes now, far below what it took before).
    void everyAttackStaysBounded()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString at = dir.path();
        const auto path = [&at](const char *name) {
            return QString(at + QLatin1Char('/') + QLatin1String(name));
        };
        // FIFOs named as a capture and as a proto, and a folder that holds them beside a module.
        QVERIFY(::mkfifo(path("pipe.xplane.pb").toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(::mkfifo(path("pipe.hlo.pb").toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(QDir(at).mkdir(QStringLiteral("pipes")));
        QVERIFY(
            ::mkfifo(
                path("pipes/module_0001.p.after_optimizations.hlo.pb").toLocal8Bit().constData(),
                0600) == 0);
        QVERIFY(
            QFile::copy(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"),
                        path("pipes/module_0002.a-buffer-assignment.txt")));
        // A gzip bomb: 256 MiB of zeros (gzip -c, which every Debian has), four in a folder.
        {
            QProcess gzip;
            gzip.setStandardOutputFile(path("bomb.hlo.pb.gz"));
            gzip.start(
                QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"), QStringLiteral("head -c 268435456 /dev/zero | gzip -c")});
            QVERIFY(gzip.waitForFinished(120000) && gzip.exitCode() == 0);
        }
        QVERIFY(QDir(at).mkdir(QStringLiteral("bombs")));
        for (int k = 1; k <= 4; ++k)
            QVERIFY(QFile::copy(path("bomb.hlo.pb.gz"),
                                path("bombs/module_000%1.b.after_optimizations.hlo.pb.gz").arg(k)));
        // Protos whose repeated fields multiply, and one that is merely wide.
        QVERIFY(writeFile(path("uses.hlo.pb"),
                          QByteArray::fromStdString(testutil::wideTupleProto(2000, "p", 300))));
        QVERIFY(writeFile(path("name.hlo.pb"), QByteArray::fromStdString(testutil::wideTupleProto(
                                                   20000, std::string(4000, 'n'), 0))));
        // 10^7 operands of one custom-call in a 10 MB proto (D17): refused or read in bounded
        // memory, never expanded a hundredfold.
        QVERIFY(writeFile(path("operands.hlo.pb"),
                          QByteArray::fromStdString(testutil::manyOperandsProto(10000000))));
        QVERIFY(writeFile(path("wide.hlo.pb"),
                          QByteArray::fromStdString(testutil::wideTupleProto(20000, "p", 0))));
        // One tuple parameter of 100,000 parts, each named by an input_output_alias entry: a
        // parameter's value looked the entries up one by one (10^10 steps, issue 74).
        QVERIFY(writeFile(path("alias.hlo.pb"), QByteArray::fromStdString(testutil::wideTupleProto(
                                                    100000, "p", 0, true))));
        // D17's other shapes: a conditional of 30,000 branches whose value sets 2,000 bitcasts
        // pass on (each set grown by searching it: 10^12 steps); one value forwarded by
        // 300,000 bitcasts that one custom-call reads (each position looked through all its
        // operands: 9 * 10^10); five million empty allocations, and as many empty
        // instructions, in 10 MB (1.3 GB and 0.9 GB to parse).
        QVERIFY(
            writeFile(path("fanout.hlo.pb"),
                      QByteArray::fromStdString(testutil::conditionalFanOutProto(30000, 2000))));
        QVERIFY(writeFile(path("forwarded.hlo.pb"),
                          QByteArray::fromStdString(testutil::forwardedUsesProto(300000))));
        QVERIFY(writeFile(path("allocations.hlo.pb"),
                          QByteArray::fromStdString(testutil::emptyAllocationsProto(5000000))));
        QVERIFY(writeFile(path("instructions.hlo.pb"),
                          QByteArray::fromStdString(testutil::emptyInstructionsProto(5000000))));
        {
            // A binary memory-usage report of one space and five million empty entries.
            QByteArray inner = QByteArrayLiteral("\x08\x64");
            inner += QByteArray("\x1a\x00", 2).repeated(5000000);
            QByteArray varint;
            for (auto n = static_cast<quint64>(inner.size());; n >>= 7) {
                varint += char((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
                if (n <= 0x7f)
                    break;
            }
            QVERIFY(writeFile(path("entries-memory-usage-report.pb"),
                              QByteArrayLiteral("\x0a") + varint + inner));
        }
        // A long log and a long report.
        QByteArray log;
        for (int i = 0; i < 60000; ++i)
            log += "RESOURCE_EXHAUSTED: Out of memory while trying to allocate " +
                   QByteArray::number((i + 1000LL) * (1 + (i % 7) * 1000003LL)) + " bytes.\n";
        QVERIFY(writeFile(path("long.log"), log));
        // 100,000 TPU messages each cut inside its phrase ("Ran out of m" / "emory in…"): each
        // break rejoined (the lines were erased one by one: quadratic, 14 s; issue 74).
        QByteArray cut;
        for (int i = 0; i < 100000; ++i)
            cut += "RESOURCE_EXHAUSTED: Ran out of m\nemory in memory space hbm. Used 17.19G of "
                   "15.48G hbm. Exceeded hbm capacity by 1.71G.\n";
        QVERIFY(writeFile(path("cut.log"), cut));
        QByteArray report = "Total bytes used: 204800000 (195.31MiB)\n\nAllocations sorted by "
                            "size:\n\ncumulative_size; total_size - cumulative_size; allocation\n";
        for (int k = 0; k < 200000; ++k)
            report += "  1.00KiB(  0%);    1.00KiB; allocation " + QByteArray::number(k) +
                      ": size 1.00KiB, constant:\n";
        report += "\nAllocations sorted by size with their values:\n";
        for (int k = 199999; k >= 0; --k)
            report +=
                "allocation " + QByteArray::number(k) +
                ": size 1.00KiB, constant:\n\t   1.00KiB(100%);    1.00KiB;   0;   1; f32[256]\n";
        QVERIFY(writeFile(path("long-memory-usage-report.txt"), report));
        // A folder that links back to itself and out of itself.
        QVERIFY(QDir(at).mkpath(QStringLiteral("loop/sub")));
        QVERIFY(
            QFile::copy(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"),
                        path("loop/module_0001.a-buffer-assignment.txt")));
        QVERIFY(QFile::link(QStringLiteral(".."), path("loop/sub/up")));
        QVERIFY(QFile::link(QStringLiteral(BUFFERSCOPE_TEST_DATA), path("loop/out")));

        // A capture of 20,000 modules; a damaged binary report.
        {
            QFile sample(QStringLiteral(
                BUFFERSCOPE_TEST_DATA
                "/binary/protos/module_0001.tpu_unstack.after_optimizations.hlo.pb"));
            QVERIFY(sample.open(QIODevice::ReadOnly));
            QVERIFY(writeFile(path("many.xplane.pb"), QByteArray::fromStdString(testutil::captureOf(
                                                          20000, sample.readAll().toStdString()))));
        }
        QVERIFY(writeFile(path("junk-memory-usage-report.pb"), QByteArray(100, '\xff')));
        QVERIFY(writeFile(path("empty-memory-usage-report.pb"), QByteArray()));
        // A module named as a capture's member beside a folder named as the capture: the folder
        // is listed, and nothing is read from outside it.
        QVERIFY(QDir(at).mkpath(QStringLiteral("member/module_0001.x.xplane.pb")));
        QVERIFY(
            QFile::copy(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"),
                        path("member/module_0001.x.xplane.pb#y-buffer-assignment.txt")));

        struct Case
        {
            std::vector<std::string> args;
            int code;
            const char *says;   ///< on stderr (empty: nothing asked)
            const char *prints; ///< on stdout
            int seconds;        ///< the time limit
            long peakMiB;       ///< the peak-memory limit
        };
        const std::vector<Case> cases = {
            {{"report", "pipe.xplane.pb"}, 2, "FIFO", "", 20, 200},
            {{"report", "pipe.hlo.pb"}, 2, "FIFO", "", 20, 200},
            {{"list", "pipes"}, 0, "", "1 modules in pipes", 20, 200},
            {{"summary", "pipes"}, 0, "", "", 20, 200},
            {{"oom", "long.log", "pipes"}, 0, "", "", 60, 1024},
            {{"oom", "cut.log"}, 0, "", "printed 100000 times", 20, 512},
            {{"report", "bomb.hlo.pb.gz"}, 2, "expands to more than 64 MiB", "", 60, 600},
            {{"summary", "bombs"}, 2, "not read: bombs/module_0004", "", 60, 1024},
            {{"report", "uses.hlo.pb"}, 2, "positions and uses", "", 60, 1024},
            {{"report", "name.hlo.pb"}, 2, "bytes of text", "", 60, 1024},
            {{"report", "wide.hlo.pb"}, 0, "", "", 60, 1024},
            {{"report", "operands.hlo.pb"}, 2, "operands", "", 60, 400},
            {{"report", "alias.hlo.pb"}, 0, "", "", 60, 1024},
            {{"report", "fanout.hlo.pb"}, 2, "positions and uses", "", 30, 1024},
            {{"report", "forwarded.hlo.pb"}, 0, "", "", 30, 1024},
            {{"report", "allocations.hlo.pb"}, 2, "bytes of memory to read", "", 20, 200},
            {{"report", "instructions.hlo.pb"}, 2, "bytes of memory to read", "", 20, 200},
            {{"report", "entries-memory-usage-report.pb"},
             2,
             "bytes of memory to read",
             "",
             20,
             200},
            {{"report", "long-memory-usage-report.txt"}, 0, "", "", 60, 1024},
            {{"list", "loop"}, 0, "", "1 modules in loop", 20, 200},
            {{"list", "many.xplane.pb"}, 0, "", "20000 modules in many.xplane.pb", 60, 1024},
            {{"report", "junk-memory-usage-report.pb"}, 2, "does not parse", "", 20, 200},
            {{"report", "empty-memory-usage-report.pb"}, 2, "the file is empty", "", 20, 200},
            {{"list", "member"}, 0, "", "1 modules in member", 20, 200},
        };
        for (const Case &c : cases) {
            QByteArray what;
            for (const std::string &a : c.args)
                what += QByteArray::fromStdString(a) + ' ';
            const Attacked r = attack(at, c.args, 3072, c.seconds);
            const QByteArray said = what + "-> exit " + QByteArray::number(r.code) + ", " +
                                    QByteArray::number(r.seconds) + " s, " +
                                    QByteArray::number(qint64(r.peakMiB)) + " MiB: " + r.err;
            QVERIFY2(r.code == c.code, said.constData());
            QVERIFY2(r.err.contains(c.says), said.constData());
            const QByteArray printed = said + "\nstdout: " + r.out.left(300);
            QVERIFY2(r.out.contains(c.prints), printed.constData());
            QVERIFY2(r.seconds < c.seconds, said.constData());
            if (!kAddressSanitizer) // ASan's shadow memory counts as resident
                QVERIFY2(r.peakMiB < c.peakMiB, said.constData());
            if (c.code == 2 && r.err.isEmpty())
                QFAIL(said.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
