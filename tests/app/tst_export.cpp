// `bufferscope export`, run as a user runs it: a separate process, headless.
#include "CliRun.h"

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int code = -1;
    QString err;
};

Run runExport(const QStringList &args)
{
    const testutil::CliRun r =
        testutil::runBufferscope(QStringList{QStringLiteral("export")} + args);
    return {r.code, QString::fromUtf8(r.err)};
}

QString sample(const QString &name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt").arg(name);
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyViewOfEverySample_data()
    {
        QTest::addColumn<QString>("dump");
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("select");
        const QList<QPair<QString, QString>> dumps = {
            {QStringLiteral("gpu_decoder_layer"), QStringLiteral("fusion.40")},
            {QStringLiteral("gpu_vllm_update_slice"), QStringLiteral("528")},
            {QStringLiteral("tpu_dynamic_slice"), QStringLiteral("Arg_0.1")},
            {QStringLiteral("tpu_random_normal"), QStringLiteral("fusion.23{0}")},
            {QStringLiteral("tpu_unstack"), QStringLiteral("slice_reduce_fusion{1}")}};
        for (const auto &[dump, select] : dumps)
            for (const char *view : {"usage", "gantt", "memory-map", "breakdown"})
                QTest::addRow("%s %s", qPrintable(dump), view)
                    << dump << QString::fromLatin1(view) << select;
    }

    void everyViewOfEverySample()
    {
        QFETCH(QString, dump);
        QFETCH(QString, view);
        QFETCH(QString, select);
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain.png"));
        const QString selected = dir.filePath(QStringLiteral("selected.png"));
        const QStringList common = {sample(dump),
                                    QStringLiteral("--view"),
                                    view,
                                    QStringLiteral("--width"),
                                    QStringLiteral("500"),
                                    QStringLiteral("--height"),
                                    QStringLiteral("320"),
                                    QStringLiteral("--scale"),
                                    QStringLiteral("2")};
        Run r = runExport(common + QStringList{QStringLiteral("--out"), plain});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = runExport(common + QStringList{QStringLiteral("--out"), selected,
                                           QStringLiteral("--select"), select});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QImage a(plain);
        const QImage b(selected);
        QCOMPARE(a.size(), QSize(1000, 640));
        QCOMPARE(b.size(), QSize(1000, 640));
        QVERIFY2(a != b, "selecting a value visibly changes the picture");
    }

    void defaultsAndStep()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("u.png"));
        Run r = runExport({sample(QStringLiteral("tpu_unstack")), QStringLiteral("--view"),
                           QStringLiteral("usage"), QStringLiteral("--out"), out,
                           QStringLiteral("--step"), QStringLiteral("3")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Defaults: 1200 x 600 at scale 2.
        QCOMPARE(QImage(out).size(), QSize(2400, 1200));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString file = sample(QStringLiteral("tpu_unstack"));
        const QString out = QStringLiteral("/tmp/bufferscope-tst-export-unused.png");
        QTest::newRow("no view") << QStringList{file, QStringLiteral("--out"), out} << 1
                                 << QStringLiteral("usage: bufferscope export");
        QTest::newRow("unknown view")
            << QStringList{file, QStringLiteral("--view"), QStringLiteral("pie"),
                           QStringLiteral("--out"), out}
            << 1 << QStringLiteral("unknown view 'pie'");
        QTest::newRow("unknown value") << QStringList{file,
                                                      QStringLiteral("--view"),
                                                      QStringLiteral("gantt"),
                                                      QStringLiteral("--out"),
                                                      out,
                                                      QStringLiteral("--select"),
                                                      QStringLiteral("no_such_value")}
                                       << 1 << QStringLiteral("no value 'no_such_value'");
        QTest::newRow("step past the end")
            << QStringList{file,
                           QStringLiteral("--view"),
                           QStringLiteral("gantt"),
                           QStringLiteral("--out"),
                           out,
                           QStringLiteral("--step"),
                           QStringLiteral("99")}
            << 1 << QStringLiteral("outside the program's steps 0..7");
        QTest::newRow("bad scale") << QStringList{file,
                                                  QStringLiteral("--view"),
                                                  QStringLiteral("gantt"),
                                                  QStringLiteral("--out"),
                                                  out,
                                                  QStringLiteral("--scale"),
                                                  QStringLiteral("zero")}
                                   << 1 << QStringLiteral("--scale needs");
        QTest::newRow("missing file")
            << QStringList{QStringLiteral("/nonexistent/x-buffer-assignment.txt"),
                           QStringLiteral("--view"), QStringLiteral("usage"),
                           QStringLiteral("--out"), out}
            << 2 << QStringLiteral("/nonexistent/x-buffer-assignment.txt");
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = runExport(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
