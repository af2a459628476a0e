// `bufferscope report`: the JSON fields of ARCHITECTURE.md, the text form, and the exit codes, run
// through the real executable.
#include "CliRun.h"
#include "FlowFacts.h"
#include "SampleTruths.h"
#include "report/JsonWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

namespace {
using Run = testutil::CliRun;

Run run(const QStringList &args)
{
    return testutil::runBufferscope(args);
}

QString sample(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
        .arg(QLatin1String(name));
}
} // namespace

class TestReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:

    // A split module (April 2026 on) opened through any of its three files: each file once,
    // the -buffer-assignment.txt among them (issue 35, item 11).
    void splitModuleListsEachFileOnce()
    {
        QTemporaryDir dir;
        QFile in(sample("tpu_unstack"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray text = in.readAll();
        const qsizetype total = text.indexOf("Total bytes used");
        const qsizetype totalEnd = text.indexOf('\n', total) + 1;
        const qsizetype ranges = text.indexOf("HloLiveRange");
        const QString stem =
            dir.filePath(QStringLiteral("module_0009.jit_split.tpu_after_optimizations"));
        const auto write = [](const QString &path, const QByteArray &bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(stem + QStringLiteral("-buffer-assignment.txt"), text.left(totalEnd));
        write(stem + QStringLiteral("-buffer-assignment-values.txt"),
              text.mid(total, ranges - total));
        write(stem + QStringLiteral("-live-range.txt"), text.mid(ranges));
        for (const char *opened :
             {"-live-range.txt", "-buffer-assignment-values.txt", "-buffer-assignment.txt"}) {
            const testutil::CliRun r =
                testutil::runBufferscope({QStringLiteral("report"), stem + QLatin1String(opened)});
            QCOMPARE(r.code, 0);
            const QByteArray head = r.out.left(r.out.indexOf("  total"));
            for (const char *part :
                 {"-buffer-assignment.txt", "-buffer-assignment-values.txt", "-live-range.txt"})
                QVERIFY2(head.count(part) == 1, head.constData());
        }
    }

    // Headless commands say nothing on stderr about the environment: Qt's "XDG_RUNTIME_DIR
    // not set" (root, services, CI) is for --verbose only.
    void headlessStderrIsQuiet()
    {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(BUFFERSCOPE_BINARY),
                {QStringLiteral("export"), sample("gpu_vllm_update_slice"),
                 QStringLiteral("--view"), QStringLiteral("usage"), QStringLiteral("--out"),
                 dir.filePath(QStringLiteral("u.png"))});
        QVERIFY(p.waitForFinished(300000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.isEmpty(), err.constData());
    }
    // A command starts itself again with huge pages for its heap only where the heap may be
    // large (a file of 32 MiB or more): the second start costs a second load of every library,
    // more than `list` of a folder of small modules takes to read them (issue 75's list
    // against a Python loop). The window, export, and a user's own setting as before.
    void startsAgainOnlyForALargeHeap()
    {
        const auto run = [](const QStringList &args, const QString &tunables = QString()) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("BUFFERSCOPE_NO_HUGEPAGES"));
            env.remove(QStringLiteral("GLIBC_TUNABLES"));
            if (!tunables.isEmpty())
                env.insert(QStringLiteral("GLIBC_TUNABLES"), tunables);
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BUFFERSCOPE_BINARY), args);
            p.waitForFinished(300000);
            return p.readAllStandardError();
        };
        const QByteArray small = run({QStringLiteral("list"), QStringLiteral(BUFFERSCOPE_TEST_DATA),
                                      QStringLiteral("--verbose")});
        QVERIFY2(small.contains("heap: 4 KiB pages"), small.constData());
        // 40 MiB, sparse: no bytes written (it is refused as binary at its first line).
        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("big-buffer-assignment.txt"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(40ll << 20));
        }
        const QByteArray large = run({QStringLiteral("report"), big, QStringLiteral("--verbose")});
        QVERIFY2(large.contains("heap: huge pages"), large.constData());
        const QByteArray own = run({QStringLiteral("report"), big, QStringLiteral("--verbose")},
                                   QStringLiteral("glibc.malloc.hugetlb=0"));
        QVERIFY2(own.contains("heap: as the environment sets it"), own.constData());
    }

    void json_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("peakStep");
        QTest::addColumn<qint64>("peakBytes");
        QTest::addColumn<qint64>("logicalBytes");
        QTest::addColumn<qint64>("printedStep");
        QTest::addColumn<qint64>("printedBytes");
        QTest::addColumn<int>("printedValues");
        for (const testutil::SampleTruth &t : testutil::kSampleTruths) // tests/SampleTruths.h
            QTest::newRow(t.name) << QString::fromLatin1(t.name) << qint64(t.total)
                                  << qint64(t.peakStep) << qint64(t.peakBytes)
                                  << qint64(t.logicalBytes) << qint64(t.printedStep)
                                  << qint64(t.printedBytes) << t.printedEntries;
    }
    void json()
    {
        QFETCH(QString, name);
        QFETCH(qint64, total);
        QFETCH(qint64, peakStep);
        QFETCH(qint64, peakBytes);
        QFETCH(qint64, logicalBytes);
        QFETCH(qint64, printedStep);
        QFETCH(qint64, printedBytes);
        QFETCH(int, printedValues);
        const Run r = run({QStringLiteral("report"), sample(name.toLatin1().constData()),
                           QStringLiteral("--json"), QStringLiteral("--top"), QStringLiteral("5")});
        QCOMPARE(r.code, 0);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        for (const char *field :
             {"file", "module", "total_bytes", "allocation_count", "value_count",
              "instruction_count", "allocations_by_kind", "memory_spaces", "printed_peak",
              "xla_peak_step", "top_values_at_peak", "breakdown_at_peak", "warnings"})
            QVERIFY2(o.contains(QLatin1String(field)), field);
        QCOMPARE(o.value(QLatin1String("module")).toString(), name);
        QCOMPARE(o.value(QLatin1String("total_bytes")).toInteger(), total);
        const QJsonObject kinds = o.value(QLatin1String("allocations_by_kind")).toObject();
        qint64 kindSum = 0;
        for (const char *k : {"parameter", "output", "temp", "constant", "thread_local"})
            kindSum += kinds.value(QLatin1String(k)).toInteger();
        QCOMPARE(kindSum, total);
        const QJsonObject space0 =
            o.value(QLatin1String("memory_spaces")).toArray().first().toObject();
        QCOMPARE(space0.value(QLatin1String("memory_space")).toInt(), 0);
        QCOMPARE(
            space0.value(QLatin1String("peak")).toObject().value(QLatin1String("step")).toInteger(),
            peakStep);
        QCOMPARE(space0.value(QLatin1String("peak"))
                     .toObject()
                     .value(QLatin1String("bytes"))
                     .toInteger(),
                 peakBytes);
        QCOMPARE(space0.value(QLatin1String("logical_peak"))
                     .toObject()
                     .value(QLatin1String("bytes"))
                     .toInteger(),
                 logicalBytes);
        const QJsonObject printed = o.value(QLatin1String("printed_peak")).toObject();
        QCOMPARE(printed.value(QLatin1String("step")).toInteger(), printedStep);
        QCOMPARE(printed.value(QLatin1String("bytes")).toInteger(), printedBytes);
        QCOMPARE(printed.value(QLatin1String("values")).toInt(), printedValues);
        QCOMPARE(o.value(QLatin1String("xla_peak_step")).toInteger(), printedStep);
        const QJsonArray top = o.value(QLatin1String("top_values_at_peak")).toArray();
        QVERIFY(!top.isEmpty() && top.size() <= 5);
        qint64 previous = std::numeric_limits<qint64>::max();
        for (const QJsonValue &v : top) {
            const QJsonObject value = v.toObject();
            for (const char *field : {"id", "name", "bytes", "shape", "allocation", "offset",
                                      "start", "end", "op_name", "source"})
                QVERIFY2(value.contains(QLatin1String(field)), field);
            QVERIFY(value.value(QLatin1String("bytes")).toInteger() <= previous);
            previous = value.value(QLatin1String("bytes")).toInteger();
            QVERIFY(value.value(QLatin1String("start")).toInteger() <= peakStep);
            QVERIFY(value.value(QLatin1String("end")).toInteger() >= peakStep);
        }
        const QJsonObject breakdown = o.value(QLatin1String("breakdown_at_peak")).toObject();
        for (const char *g : {"by_op_name", "by_source", "by_op_type", "by_kind"})
            QVERIFY2(breakdown.value(QLatin1String(g)).isArray(), g);
    }

    void text()
    {
        const Run r = run({QStringLiteral("report"), sample("tpu_dynamic_slice")});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.contains(QLatin1String("BufferScope report: tpu_dynamic_slice")));
        QVERIFY(
            out.contains(QLatin1String("peak 9.5KiB (9728 bytes) at step 7 (dynamic-slice.4)")));
        QVERIFY(out.contains(QLatin1String("XLA's printed peak:  step 7, 7 entries")));
        QVERIFY(out.contains(QLatin1String("reproduced")));
        QVERIFY(out.contains(QLatin1String("/home/ptoulme/tpu.py:96")));
        QVERIFY(out.contains(QLatin1String("Warnings: none")));
    }

    void threadsOption()
    {
        // The same bytes at every thread count, for the report and the value card; the option
        // may come anywhere on the line.
        for (const char *name : {"gpu_decoder_layer", "gpu_vllm_update_slice"}) {
            const Run serial =
                run({QStringLiteral("report"), sample(name), QStringLiteral("--json"),
                     QStringLiteral("--threads"), QStringLiteral("1")});
            QCOMPARE(serial.code, 0);
            QVERIFY(serial.out.contains("\"peak\""));
            for (const char *threads : {"2", "3", "7"}) {
                const Run other =
                    run({QStringLiteral("--threads"), QLatin1String(threads),
                         QStringLiteral("report"), sample(name), QStringLiteral("--json")});
                QCOMPARE(other.code, 0);
                QCOMPARE(other.out, serial.out);
            }
        }
        // More threads than cores: lowered to the cores, said on stderr, the same report.
        const Run many =
            run({QStringLiteral("report"), sample("gpu_decoder_layer"), QStringLiteral("--json"),
                 QStringLiteral("--threads"), QStringLiteral("1024")});
        QCOMPARE(many.code, 0);
        QCOMPARE(many.out,
                 run({QStringLiteral("report"), sample("gpu_decoder_layer"),
                      QStringLiteral("--json"), QStringLiteral("--threads"), QStringLiteral("1")})
                     .out);
        const QByteArray note = QByteArray("--threads 1024 is more than the ") +
                                QByteArray::number(std::thread::hardware_concurrency()) +
                                QByteArray(" core(s) here: using ");
        QVERIFY2(many.err.contains(note), many.err.constData());
        for (const char *bad : {"0", "-2", "many", "2000"}) {
            const Run r = run({QStringLiteral("report"), sample("tpu_unstack"),
                               QStringLiteral("--threads"), QLatin1String(bad)});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains("--threads needs a number of threads from 1 to 1024"),
                     r.err.constData());
            QVERIFY(r.out.isEmpty());
        }
        const Run missing =
            run({QStringLiteral("report"), sample("tpu_unstack"), QStringLiteral("--threads")});
        QCOMPARE(missing.code, 1);
    }

    void stepOption()
    {
        const Run r =
            run({QStringLiteral("report"), sample("tpu_dynamic_slice"), QStringLiteral("--json"),
                 QStringLiteral("--step"), QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QLatin1String("report_step")).toInteger(), qint64(1));
        // At step 1 Arg_0.1, Arg_1.2, Arg_2.3 and copy-start{} are live in memory space 0.
        QCOMPARE(o.value(QLatin1String("top_values_at_peak")).toArray().size(), 4);
        QCOMPARE(run({QStringLiteral("report"), sample("tpu_dynamic_slice"),
                      QStringLiteral("--step"), QStringLiteral("9")})
                     .code,
                 1);
    }

    void failAbove()
    {
        // The gate is what the device holds while it runs, from the allocation lines: 2
        // (parameter) + 1208 (maybe-live-out) - 0 + 296 (preallocated-temp) = 1506 bytes, more
        // than the 1210-byte live peak. Exactly that passes; one byte below fails with 3 and a
        // one-line reason.
        QCOMPARE(run({QStringLiteral("report"), sample("gpu_vllm_update_slice"),
                      QStringLiteral("--fail-above"), QStringLiteral("1506")})
                     .code,
                 0);
        const Run over = run({QStringLiteral("report"), sample("gpu_vllm_update_slice"),
                              QStringLiteral("--fail-above"), QStringLiteral("1505")});
        QCOMPARE(over.code, 3);
        QCOMPARE(over.err.count('\n'), 1);
        QVERIFY2(over.err.contains("the device holds 1506 bytes (1.5KiB) while it runs (argument "
                                   "+ output - alias + temp), more than the budget of 1505 bytes "
                                   "(1.5KiB) by 1 bytes; the live-bytes peak is 1210 bytes at "
                                   "step 68"),
                 over.err.constData());
        // The live peak alone would pass: 1210 is under the budget.
        QCOMPARE(run({QStringLiteral("report"), sample("gpu_vllm_update_slice"),
                      QStringLiteral("--fail-above"), QStringLiteral("1210")})
                     .code,
                 3);
        QCOMPARE(run({QStringLiteral("report"), sample("gpu_decoder_layer"),
                      QStringLiteral("--fail-above"), QStringLiteral("1GiB")})
                     .code,
                 0);
        QCOMPARE(run({QStringLiteral("report"), sample("gpu_decoder_layer"),
                      QStringLiteral("--fail-above"), QStringLiteral("888MiB")})
                     .code,
                 3);
        QCOMPARE(run({QStringLiteral("report"), sample("gpu_decoder_layer"),
                      QStringLiteral("--fail-above"), QStringLiteral("lots")})
                     .code,
                 1);
    }

    void jsonEscapesToUtf8_data()
    {
        // Byte strings a damaged or hostile dump can hold, and the JSON string text each must
        // become (worked out from RFC 3629 and Unicode Table 3-7; U+FFFD is EF BF BD, one per
        // maximal ill-formed subpart).
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("ascii") << QByteArray("fusion.40") << QByteArray("\"fusion.40\"");
        QTest::newRow("quote and control")
            << QByteArray("a\"b\x01") << QByteArray("\"a\\\"b\\u0001\"");
        QTest::newRow("valid 2, 3 and 4 bytes")
            << QByteArray("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80")
            << QByteArray("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
        QTest::newRow("one flipped byte")
            << QByteArray("fus\xE9on") << QByteArray("\"fus\xEF\xBF\xBDon\"");
        QTest::newRow("lone continuation")
            << QByteArray("a\x80z") << QByteArray("\"a\xEF\xBF\xBDz\"");
        QTest::newRow("overlong slash")
            << QByteArray("\xC0\xAF") << QByteArray("\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
        QTest::newRow("surrogate")
            << QByteArray("\xED\xA0\x80") << QByteArray("\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
        QTest::newRow("past U+10FFFF")
            << QByteArray("\xF4\x90\x80\x80")
            << QByteArray("\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
        QTest::newRow("truncated at the end")
            << QByteArray("x\xE2\x82") << QByteArray("\"x\xEF\xBF\xBD\"");
        QTest::newRow("0xFF") << QByteArray("\xFF") << QByteArray("\"\xEF\xBF\xBD\"");
    }
    void jsonEscapesToUtf8()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        const std::string escaped =
            bufferscope::JsonWriter::escape(std::string_view(in.constData(), in.size()));
        QCOMPARE(QByteArray::fromStdString(escaped), out);
    }

    void reportJsonOfADamagedNameIsValid()
    {
        // A dump in which one byte of a name live at the peak was flipped ('_' 0x5F -> 0xDF, a
        // UTF-8 lead byte that 's' cannot follow), as a new user found it: the report still
        // parses with a strict parser, the byte shown as U+FFFD.
        QFile original(sample("gpu_decoder_layer"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray text = original.readAll();
        const QByteArray good("loop_slice_fusion");
        QByteArray bad = good;
        bad[4] = static_cast<char>(0xDF);
        QVERIFY(text.count(good) > 0);
        text.replace(good, bad);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("flipped-buffer-assignment.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const Run r = run({QStringLiteral("report"), path, QStringLiteral("--json"),
                           QStringLiteral("--top"), QStringLiteral("100")});
        QCOMPARE(r.code, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(r.out.contains("loop\xEF\xBF\xBDslice_fusion"));
        QVERIFY(!r.out.contains(bad));
        // Strict: every byte sequence of the output decodes.
        QVERIFY(QString::fromUtf8(r.out).toUtf8() == r.out);
    }

    void valueCard_data()
    {
        QTest::addColumn<int>("fact");
        for (std::size_t i = 0; i < testutil::flowFacts().size(); ++i) {
            const testutil::FlowFact &f = testutil::flowFacts()[i];
            QTest::newRow(qPrintable(
                QStringLiteral("%1 %2").arg(QLatin1String(f.sample), QLatin1String(f.value))))
                << static_cast<int>(i);
        }
    }

    void valueCard()
    {
        // `report --value` against the facts worked out by hand (tests/FlowFacts.h), looked up
        // by name and by id.
        QFETCH(int, fact);
        const testutil::FlowFact &f = testutil::flowFacts()[static_cast<std::size_t>(fact)];
        for (const QString &key : {QString::fromUtf8(f.value), QString::number(f.id)}) {
            const Run r = run({QStringLiteral("report"), sample(f.sample),
                               QStringLiteral("--value"), key, QStringLiteral("--json")});
            QCOMPARE(r.code, 0);
            QJsonParseError error;
            const QJsonObject card = QJsonDocument::fromJson(r.out, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            QCOMPARE(card.value(QStringLiteral("id")).toInteger(), f.id);
            for (const char *field : {"name", "bytes", "shape", "allocation", "offset", "start",
                                      "end", "op_name", "source", "producers", "consumers"})
                QVERIFY2(card.contains(QLatin1String(field)), field);
            bool named = true; // every mark names its instruction
            const auto steps = [&](const char *list) {
                std::vector<std::int64_t> out;
                for (const QJsonValue &m : card.value(QLatin1String(list)).toArray()) {
                    named = named &&
                            !m.toObject().value(QStringLiteral("instruction")).toString().isEmpty();
                    if (!m.toObject().value(QStringLiteral("step")).isNull())
                        out.push_back(m.toObject().value(QStringLiteral("step")).toInteger());
                }
                std::sort(out.begin(), out.end());
                out.erase(std::unique(out.begin(), out.end()), out.end());
                return out;
            };
            const auto ids = [&](const char *list) {
                std::vector<std::int64_t> out;
                for (const QJsonValue &id : card.value(QLatin1String(list)).toArray())
                    out.push_back(id.toInteger());
                return out;
            };
            QCOMPARE(steps("positions"), f.positionSteps);
            QCOMPARE(steps("uses"), f.useSteps);
            QCOMPARE(ids("producers"), f.producers);
            QCOMPARE(ids("consumers"), f.consumers);
            QVERIFY(named);
        }
    }

    void valueCardDetails()
    {
        // tpu_unstack's `lhs` is read by `add` (operand 0) in the reduction's computation, which
        // is not in the sequence: its step is null.
        const Run r =
            run({QStringLiteral("report"), sample("tpu_unstack"), QStringLiteral("--value"),
                 QStringLiteral("lhs"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const QJsonObject use = QJsonDocument::fromJson(r.out)
                                    .object()
                                    .value(QStringLiteral("uses"))
                                    .toArray()
                                    .at(0)
                                    .toObject();
        QCOMPARE(use.value(QStringLiteral("instruction")).toString(), QStringLiteral("add"));
        QCOMPARE(use.value(QStringLiteral("operand")).toInteger(), 0);
        QVERIFY(use.value(QStringLiteral("step")).isNull());
        // The text form lists the uses with their operand numbers.
        const Run text = run({QStringLiteral("report"), sample("gpu_decoder_layer"),
                              QStringLiteral("--value"), QStringLiteral("loop_gather_fusion")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("      42  fusion.38, operand 1\n"));
        QVERIFY(text.out.contains("p5.18.0 (203), p4.16.0 (204)"));
        // The card's fields, as the inspector shows them: value 175 is listed on line 41 of the
        // dump, bf16[128,1,1024] is 128 x 1024 x 2 = 262144 bytes with no padding, in
        // allocation 13 (an output of 262144 bytes), in device memory, live 34-48.
        QVERIFY(text.out.contains("\n  key           loop_gather_fusion{}\n"));
        QVERIFY(text.out.contains("\n  logical bytes 256.0KiB (262144 bytes)\n"));
        QVERIFY(text.out.contains("\n  memory space  S(0) device\n"));
        QVERIFY(text.out.contains("\n  allocation    13 (output, 256.0KiB), offset 0\n"));
        QVERIFY(text.out.contains(" – 48 (fusion.36), 15 steps\n"));
        QVERIFY(text.out.contains("gpu_decoder_layer.buffer-assignment.txt:41\n"));
        // An unknown value: exit 2, naming it.
        const Run unknown = run({QStringLiteral("report"), sample("gpu_decoder_layer"),
                                 QStringLiteral("--value"), QStringLiteral("fusion.999")});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("fusion.999"));
        QVERIFY(unknown.out.isEmpty());
        QCOMPARE(
            run({QStringLiteral("report"), sample("gpu_decoder_layer"), QStringLiteral("--value")})
                .code,
            1);
    }

    void exitCodes()
    {
        QCOMPARE(run({QStringLiteral("report")}).code, 1);
        QCOMPARE(
            run({QStringLiteral("report"), sample("tpu_unstack"), QStringLiteral("--bogus")}).code,
            1);
        QCOMPARE(run({QStringLiteral("frobnicate")}).code, 1);
        QCOMPARE(run({QStringLiteral("--version")}).code, 0);
        // --help after any command: that command's usage on stdout, exit 0, whatever else is
        // given; after `--` it is a file's name.
        for (const char *command :
             {"report", "diff", "list", "summary", "oom", "fit", "memory", "export"}) {
            const Run help = run({QString::fromLatin1(command), QStringLiteral("x.txt"),
                                  QStringLiteral("--help"), QStringLiteral("--bogus")});
            QCOMPARE(help.code, 0);
            QVERIFY2(
                help.out.startsWith(QByteArray(QByteArray("usage:\nbufferscope ") + command + ' ')),
                help.out.constData());
            QVERIFY2(!help.out.contains("bufferscope list") || qstrcmp(command, "list") == 0,
                     help.out.constData());
            QVERIFY(help.err.isEmpty());
        }
        QCOMPARE(run({QStringLiteral("report"), QStringLiteral("-h")}).code, 0);
        const Run named =
            run({QStringLiteral("report"), QStringLiteral("--"), QStringLiteral("--help")});
        QCOMPARE(named.code, 2);
        QVERIFY2(named.err.contains("--help"), named.err.constData());
        const Run missing =
            run({QStringLiteral("report"), QStringLiteral("/nonexistent/x-buffer-assignment.txt")});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("/nonexistent/x-buffer-assignment.txt"));
        const Run dir = run({QStringLiteral("report"), QStringLiteral(BUFFERSCOPE_TEST_DATA)});
        QCOMPARE(dir.code, 2);
        QVERIFY(dir.err.contains("directory"));
        QTemporaryDir tmp;
        const QString hlo = tmp.filePath(QStringLiteral("module.txt"));
        QFile f(hlo);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("HloModule jit_f, entry_computation_layout={()->f32[]}\n\nENTRY %main {\n}\n");
        f.close();
        const Run notDump = run({QStringLiteral("report"), hlo});
        QCOMPARE(notDump.code, 2);
        QVERIFY(notDump.err.contains(":1: not an XLA buffer-assignment dump"));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
