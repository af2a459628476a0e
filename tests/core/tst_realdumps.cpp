// Dumps XLA wrote for other people's programs (issue 34), read from ../shared/real beside the
// repository: they are not ours, so they are not copied here, and a clone without them skips
// these tests, saying why. Every expectation is a figure XLA printed in the file itself.
#include "CliRun.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

QString realDir()
{
    return QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real"));
}

QString real(const char *name)
{
    return realDir() + QLatin1Char('/') + QLatin1String(name);
}

#define REQUIRE_REAL(name)                                                                         \
    do {                                                                                           \
        if (!QFileInfo::exists(real(name)))                                                        \
            QSKIP(                                                                                 \
                qPrintable(QStringLiteral("%1 is not here: the real dumps live in ../shared/real " \
                                          "beside the repository, which a clone does not have")    \
                               .arg(real(name))));                                                 \
    } while (false)

QJsonObject reportJson(const QString &file)
{
    const testutil::CliRun r =
        testutil::runBufferscope({QStringLiteral("report"), file, QStringLiteral("--json")});
    if (r.code != 0)
        qWarning("exit %d: %s", r.code, r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestRealDumps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Each dump reads without a warning, its total is XLA's `Total bytes used`, and XLA's
    // printed peak step (`Live ranges at T (peak)`) is recomputed exactly.
    void readWithoutWarnings_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("printedStep");
        // 12k lines, tuples of up to 50+ elements with /*index=N*/ comments (line 318 on).
        QTest::newRow("module_0037 tuples with comments")
            << "module_0037.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"
            << qint64(2968773290) << qint64(161);
        QTest::newRow("module_0147 one combined temp")
            << "module_0147.jit__kernel.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"
            << qint64(31450203012) << qint64(19);
        QTest::newRow("module_0161 donated parameter")
            << "module_0161.jit__solve_batch_and_update.sm_8.0_gpu_after_optimizations-buffer-"
               "assignment.txt"
            << qint64(891233928) << qint64(24);
    }
    void readWithoutWarnings()
    {
        QFETCH(QString, file);
        QFETCH(qint64, total);
        QFETCH(qint64, printedStep);
        REQUIRE_REAL(qPrintable(file));
        const QJsonObject o = reportJson(real(qPrintable(file)));
        QCOMPARE(o[QStringLiteral("warnings")].toArray().size(), 0);
        QCOMPARE(o[QStringLiteral("total_bytes")].toInteger(), total);
        QCOMPARE(o[QStringLiteral("printed_peak")].toObject()[QStringLiteral("step")].toInteger(),
                 printedStep);
        QCOMPARE(o[QStringLiteral("xla_peak_step")].toInteger(), printedStep);
    }

    // `allocation 0: size 849346560, parameter 2, …, maybe-live-out`: the parameter is donated
    // and its allocation is the output, updated in place. It has a row of its own.
    void donatedOutputHasItsRow()
    {
        const char *name = "module_0161.jit__solve_batch_and_update.sm_8.0_gpu_after_optimizations-"
                           "buffer-assignment.txt";
        REQUIRE_REAL(name);
        const QJsonObject o = reportJson(real(name));
        const QJsonObject donated = o[QStringLiteral("donated_parameters")].toObject();
        QCOMPARE(donated[QStringLiteral("bytes")].toInteger(), 849346560);
        QCOMPARE(donated[QStringLiteral("allocations")].toInteger(), 1);
        // The old keys stay: the parameter total still includes it.
        const QJsonObject kinds = o[QStringLiteral("allocations_by_kind")].toObject();
        QCOMPARE(kinds[QStringLiteral("parameter")].toInteger(), 849346560 + 13501448);
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("report"), real(name)});
        QVERIFY2(text.out.contains("  parameter → output, donated   810.00MiB       849346560 "
                                   "bytes   95.3%  1 allocations\n"),
                 text.out.constData());
    }

    // Printed through BufferAssignment::ToString (Reactant.jl): complete, without live ranges;
    // not truncated.
    void toStringPrintIsComplete()
    {
        const char *name = "reactant-issue-1462-buffer-assignment.txt";
        REQUIRE_REAL(name);
        const QJsonObject o = reportJson(real(name));
        QCOMPARE(o[QStringLiteral("warnings")].toArray().size(), 0);
        QCOMPARE(o[QStringLiteral("total_bytes")].toInteger(), 614403072);
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("report"), real(name)});
        QVERIFY(text.out.contains("it is complete but was printed by BufferAssignment::ToString"));
        QVERIFY(text.out.contains("Warnings: none"));
    }
};

QTEST_GUILESS_MAIN(TestRealDumps)
#include "tst_realdumps.moc"
