// Dumps XLA wrote for other people's programs (issue 34), read from ../shared/real beside the
// repository: they are not ours, so they are not copied here, and a clone without them skips
// these tests, saying why. Every expectation is a figure XLA printed in the file itself.
#include "CliRun.h"
#include "parse/MemoryUsageReport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
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
        // What is live at the peak, by kind, gives it its own group too (What Fills Memory).
        bool grouped = false;
        for (const QJsonValue &row :
             o[QStringLiteral("breakdown_at_peak")].toObject()[QStringLiteral("by_kind")].toArray())
            grouped = grouped || (row.toObject()[QStringLiteral("key")].toString() ==
                                      QStringLiteral("parameter → output, donated") &&
                                  row.toObject()[QStringLiteral("bytes")].toInteger() == 849346560);
        QVERIFY(grouped);
        // The old keys stay: the parameter total still includes it.
        const QJsonObject kinds = o[QStringLiteral("allocations_by_kind")].toObject();
        QCOMPARE(kinds[QStringLiteral("parameter")].toInteger(), 849346560 + 13501448);
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("report"), real(name)});
        QVERIFY2(text.out.contains("  parameter → output, donated   810.00MiB       849346560 "
                                   "bytes   95.3%  1 allocations\n"),
                 text.out.constData());
        // Its logical peak, 1,725,465,608 bytes at step 24, is XLA's own printed peak (`Live
        // ranges at 24 (peak)`, six entries) and passes the 891,233,928 bytes allocated: the
        // report says why, and says how XLA's V1 list sizes its entries.
        QVERIFY(
            text.out.contains("            logical peak 1.61GiB (1725465608 bytes) at step 24"));
        QVERIFY(text.out.contains("            (above the 849.95MiB allocated: values that take "
                                  "over another's bytes in place count with it at the step they "
                                  "share)\n"));
        QVERIFY(text.out.contains("(peak list V1; XLA sizes each entry by its instruction's "
                                  "shape: a tuple's element counts as the tuple's "
                                  "8-byte-per-element index table"));
    }

    // What the device holds while module_0147 runs (issue 40): XLA's CompiledMemoryStats
    // figures from its allocation lines, checked by hand — parameters 8,478,720,964, the one
    // maybe-live-out 3,064,320,000, no donation, the combined temp 19,907,138,048: 29.29 GiB
    // held, where the live bytes peak at 23.90 GiB.
    void memoryAnalysis()
    {
        const char *name = "module_0147.jit__kernel.sm_8.0_gpu_after_optimizations-buffer-"
                           "assignment.txt";
        REQUIRE_REAL(name);
        const QJsonObject m = reportJson(real(name))[QStringLiteral("memory_analysis")].toObject();
        QCOMPARE(m[QStringLiteral("argument_size_in_bytes")].toInteger(), 8478720964);
        QCOMPARE(m[QStringLiteral("output_size_in_bytes")].toInteger(), 3064320000);
        QCOMPARE(m[QStringLiteral("alias_size_in_bytes")].toInteger(), 0);
        QCOMPARE(m[QStringLiteral("temp_size_in_bytes")].toInteger(), 19907138048);
        QCOMPARE(m[QStringLiteral("held_bytes")].toInteger(), 31450179012);
        QCOMPARE(m[QStringLiteral("constant_size_in_bytes")].toInteger(), 24000);
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("report"), real(name)});
        QVERIFY(text.out.contains("  held while it runs          29.29GiB     31450179012 bytes  "
                                  "(argument + output - alias + temp; the live-bytes peak is "
                                  "23.90GiB, 5.39GiB less"));
        // module_0161 donates its 810 MiB parameter: counted once.
        const char *donated = "module_0161.jit__solve_batch_and_update.sm_8.0_gpu_after_"
                              "optimizations-buffer-assignment.txt";
        const QJsonObject d =
            reportJson(real(donated))[QStringLiteral("memory_analysis")].toObject();
        QCOMPARE(d[QStringLiteral("alias_size_in_bytes")].toInteger(), 849346560);
        QCOMPARE(d[QStringLiteral("held_bytes")].toInteger(),
                 d[QStringLiteral("argument_size_in_bytes")].toInteger() +
                     d[QStringLiteral("output_size_in_bytes")].toInteger() - 849346560 +
                     d[QStringLiteral("temp_size_in_bytes")].toInteger());
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

    // XLA's memory-usage report (issue 34): never read as a dump. Beside its dump it is checked
    // against it (and agrees: total 2968773290, 79 allocations, the values per allocation);
    // opened itself it reads the dump and says so; alone, report prints what it holds.
    void memoryUsageReport()
    {
        const char *dumpName =
            "module_0037.jit__full_run.sm_8.0_gpu_after_optimizations-buffer-assignment.txt";
        const char *reportName =
            "module_0037.jit__full_run.sm_8.0_gpu_after_optimizations-memory-usage-report.txt";
        REQUIRE_REAL(reportName);
        for (const char *opened : {dumpName, reportName}) {
            const QJsonObject o = reportJson(real(opened));
            QCOMPARE(o[QStringLiteral("warnings")].toArray().size(), 0);
            QCOMPARE(o[QStringLiteral("file")].toString(), real(dumpName));
            QCOMPARE(o[QStringLiteral("total_bytes")].toInteger(), 2968773290);
            QCOMPARE(o[QStringLiteral("allocation_count")].toInteger(), 79);
            const QString note = o[QStringLiteral("notes")].toArray().last().toString();
            QVERIFY2(note.contains(QStringLiteral("report agrees with the dump")),
                     qPrintable(note));
            QCOMPARE(note.startsWith(QStringLiteral("opened XLA's memory-usage report")),
                     opened == reportName);
        }

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString lone = dir.filePath(QLatin1String(reportName));
        QVERIFY(QFile::copy(real(reportName), lone));
        const testutil::CliRun text = testutil::runBufferscope({QStringLiteral("report"), lone});
        QCOMPARE(text.code, 0);
        QVERIFY(
            text.out.contains("  total         2.76GiB (2968773290 bytes) in 79 allocations\n"));
        const QJsonObject o = reportJson(lone);
        QCOMPARE(o[QStringLiteral("kind")].toString(), QStringLiteral("memory_usage_report"));
        QCOMPARE(o[QStringLiteral("total_bytes")].toInteger(), 2968773290);
        // The first list shows 51, then "The rest 28 allocations are less than 5%".
        QCOMPARE(o[QStringLiteral("allocation_count")].toInteger(), 79);
        QCOMPARE(o[QStringLiteral("hidden_allocations")].toInteger(), 28);
        const QJsonObject first = o[QStringLiteral("allocations")].toArray().at(0).toObject();
        QCOMPARE(first[QStringLiteral("index")].toInteger(), 78);
        QCOMPARE(first[QStringLiteral("kind")].toString(), QStringLiteral("temp"));
        // "size 2.70GiB": 2.70 × 2^30, good to half a hundredth of a GiB.
        QCOMPARE(first[QStringLiteral("size_rounded")].toInteger(), 2899102925);
        QCOMPARE(first[QStringLiteral("size_rounding")].toInteger(), 5368710 + 1048576);
        const QJsonObject group =
            first[QStringLiteral("values_by_offset")].toArray().at(0).toObject();
        QCOMPARE(group[QStringLiteral("offset")].toInteger(), 4992);
        QCOMPARE(group[QStringLiteral("values")].toInteger(), 22);
        QCOMPARE(first[QStringLiteral("hidden_offsets")].toInteger(), 397);
        // A folder with only the report: one module, its total, no peak.
        const testutil::CliRun list =
            testutil::runBufferscope({QStringLiteral("list"), dir.path()});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains("-            2.76GiB      -                   -  module_0037"),
                 list.out.constData());
        // The GUI's loader refuses it with what it is.
        const testutil::CliRun gui = testutil::runBufferscope(
            {QStringLiteral("export"), lone, QStringLiteral("--view"), QStringLiteral("usage"),
             QStringLiteral("--out"), dir.filePath(QStringLiteral("x.png"))});
        QCOMPARE(gui.code, 2);
        QVERIFY(gui.err.contains("this is XLA's memory-usage report"));

        // A report that disagrees with its dump: warned, with the figures.
        QVERIFY(QFile::copy(real(dumpName), dir.filePath(QLatin1String(dumpName))));
        QFile f(lone);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        bytes.replace("Total bytes used: 2968773290", "Total bytes used: 2968773291");
        bytes.replace("allocation 0: size 56.25MiB, parameter 6",
                      "allocation 0: size 57.25MiB, parameter 6");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        const QJsonObject differs = reportJson(dir.filePath(QLatin1String(dumpName)));
        QStringList messages;
        for (const QJsonValue &w : differs[QStringLiteral("warnings")].toArray())
            messages << w.toObject()[QStringLiteral("message")].toString();
        QVERIFY2(messages.contains(QStringLiteral("the memory-usage report's total is 2968773291 "
                                                  "bytes, the dump's allocations add up to "
                                                  "2968773290")),
                 qPrintable(messages.join(QLatin1Char('|'))));
        QVERIFY2(messages.contains(QStringLiteral("allocation 0: the memory-usage report says size "
                                                  "57.25MiB (the dump: 58982400 bytes)")),
                 qPrintable(messages.join(QLatin1Char('|'))));
    }

    // The platform by name, else by content (issue 34): a 2026 TPU dump's name says nothing,
    // but its layouts carry tiles (tpu_random_normal: `{:T(256)}` and the like).
    void platformFromContent_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("platform");
        QTest::newRow("2026 TPU name") << "tpu_random_normal"
                                       << "module_0294.jit_train_step.cl_854318611.after_"
                                          "optimizations-buffer-assignment.txt"
                                       << "tpu";
        QTest::newRow("GPU by name") << "gpu_vllm_update_slice"
                                     << "module_0001.jit_f.sm_8.0_gpu_after_optimizations-"
                                        "buffer-assignment.txt"
                                     << "gpu";
        QTest::newRow("CPU by name") << "gpu_vllm_update_slice"
                                     << "module_0001.jit_f.cpu_after_optimizations-buffer-"
                                        "assignment.txt"
                                     << "cpu";
        QTest::newRow("no tiles, no name") << "gpu_vllm_update_slice"
                                           << "module_0001.jit_f.cl_1.after_optimizations-"
                                              "buffer-assignment.txt"
                                           << "";
    }
    void platformFromContent()
    {
        QFETCH(QString, sample);
        QFETCH(QString, name);
        QFETCH(QString, platform);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(name);
        QVERIFY(QFile::copy(
            QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt").arg(sample), path));
        const QJsonObject o = reportJson(path);
        if (platform.isEmpty())
            QVERIFY(o[QStringLiteral("platform")].isNull());
        else
            QCOMPARE(o[QStringLiteral("platform")].toString(), platform);
    }

    void humanBytes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<qint64>("rounding");
        QTest::newRow("bytes") << "802B" << qint64(802) << qint64(1);
        QTest::newRow("KiB one decimal") << "900.0KiB" << qint64(921600) << qint64(52);
        // Plus what HumanReadableNumBytes's integer divisions dropped: a KiB for MiB, a MiB
        // for GiB.
        QTest::newRow("MiB two decimals") << "56.25MiB" << qint64(58982400) << qint64(5243 + 1024);
        QTest::newRow("GiB") << "2.70GiB" << qint64(2899102925) << qint64(5368710 + 1048576);
        QTest::newRow("not a size") << "2.70 furlongs" << qint64(-1) << qint64(0);
    }
    void humanBytes()
    {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        QFETCH(qint64, rounding);
        std::int64_t ulp = 0;
        QCOMPARE(bufferscope::MemoryUsageReports::parseHumanBytes(text.toStdString(), &ulp), bytes);
        if (bytes >= 0)
            QCOMPARE(ulp, rounding);
    }
};

QTEST_GUILESS_MAIN(TestRealDumps)
#include "tst_realdumps.moc"
