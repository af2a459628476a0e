// `bufferscope export`, run as a user runs it: a separate process, headless.
#include "CliRun.h"
#include "CsvRead.h"
#include "SampleTruths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

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

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The CSV file as records; fails the test (empty result) when it does not parse.
std::vector<QStringList> csvOf(const QString &path)
{
    QString why;
    const auto records = testutil::readCsv(QString::fromUtf8(readAll(path)), &why);
    if (!records) {
        qWarning("%s: %s", qPrintable(path), qPrintable(why));
        return {};
    }
    return *records;
}

QStringList exportArgs(const QString &dump, const QString &view, const QString &out)
{
    return {sample(dump), QStringLiteral("--view"), view, QStringLiteral("--out"), out};
}

// Facts of gpu_decoder_layer that XLA printed: `HloLiveRange (max 66)` (steps 0..66), 49
// ` value:` lines, `Live ranges at 58 (peak):` whose byte list sums to 931,536,164, and
// `allocation 0: size 311164928, parameter 5` (296.75MiB in XLA's units).
constexpr int kDecoderSteps = 67;
constexpr int kDecoderValues = 49;
const qint64 kDecoderPeakBytes = testutil::sampleTruth("gpu_decoder_layer").peakBytes;
constexpr int kDecoderPeakStep = 58;

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

    void svgKeepsTextAsText()
    {
        // The memory map of all allocations at 1000 x 560: the axis titles and the band labels
        // (which fit at that size) are text in a well-formed SVG, not pixels.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("map.svg"));
        const Run r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("memory-map"), out) +
            QStringList{QStringLiteral("--width"), QStringLiteral("1000"),
                        QStringLiteral("--height"), QStringLiteral("560"),
                        QStringLiteral("--title"), QStringLiteral("Decoder, layer 0"),
                        QStringLiteral("--footer")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QXmlStreamReader xml(readAll(out));
        QStringList texts;
        bool svgRoot = false;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == QLatin1String("svg"))
                svgRoot = true;
            if (xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(svgRoot);
        QVERIFY2(texts.contains(QStringLiteral("program order (step)")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("allocation, offset in it")));
        QVERIFY2(texts.contains(QStringLiteral("#0 parameter 296.75MiB")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("Decoder, layer 0")));
        QVERIFY(texts.contains(QStringLiteral("gpu_decoder_layer.buffer-assignment.txt · "
                                              "BufferScope " BUFFERSCOPE_VERSION)));
    }

    // --budget takes a device as the Budget box offers it, at what the runtime gets of it: a
    // V100 16GB at the 75 % XLA's GPU allocator gets, 12 GiB (by hand); a size as it is.
    void budgetByDevice()
    {
        QTemporaryDir dir;
        for (const auto &[budget, said] :
             {std::pair{"v100-16gb", "budget 12.00GiB"}, std::pair{"tpu-v5e", "budget 16.00GiB"},
              std::pair{"16GiB", "budget 16.00GiB"}}) {
            const QString out = dir.filePath(QStringLiteral("usage.svg"));
            const Run r = runExport(
                exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("usage"), out) +
                QStringList{QStringLiteral("--budget"), QString::fromLatin1(budget)});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QXmlStreamReader xml(readAll(out));
            QString texts; // the text, whatever runs of fonts it is drawn in
            while (!xml.atEnd())
                if (xml.readNext() == QXmlStreamReader::StartElement &&
                    xml.name() == QLatin1String("text"))
                    texts += xml.readElementText(QXmlStreamReader::IncludeChildElements);
            QVERIFY2(texts.contains(QLatin1String(said)),
                     qPrintable(QString::fromLatin1(budget) + QStringLiteral(": ") + texts));
        }
    }

    // A long title on a narrow picture is cut in its middle, inside the page (issue 49, item
    // 3: the SVG title of a long file name started at x = -21.5).
    void longTitleStaysOnThePage()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("usage.svg"));
        const QString title = QStringLiteral("Memory usage of module_0147.") +
                              QString(200, QLatin1Char('x')) + QStringLiteral(".end");
        const Run r = runExport(
            {QStringLiteral(BUFFERSCOPE_TEST_DATA "/gpu_decoder_layer.buffer-assignment.txt"),
             QStringLiteral("--view"), QStringLiteral("usage"), QStringLiteral("--width"),
             QStringLiteral("600"), QStringLiteral("--out"), svg, QStringLiteral("--title"),
             title});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QXmlStreamReader xml(readAll(svg));
        bool found = false;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement ||
                xml.name() != QLatin1String("text"))
                continue;
            const double x = xml.attributes().value(QLatin1String("x")).toDouble();
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (text.startsWith(QStringLiteral("Memory usage of module_0147."))) {
                found = true;
                QVERIFY2(x >= 0, qPrintable(QString::number(x)));
                QVERIFY2(text.contains(QChar(0x2026)) && text.endsWith(QStringLiteral(".end")),
                         qPrintable(text));
            }
        }
        QVERIFY(!xml.hasError());
        QVERIFY(found);
    }

    // Names and a title with control characters (issue 33): every SVG is still well-formed
    // XML, and every CSV holds no formula a spreadsheet would run, valid UTF-8 and no NUL.
    void hostileNamesExportSafely()
    {
        QTemporaryDir dir;
        const QString dump = QStringLiteral(BUFFERSCOPE_TEST_DATA "/hostile/escapes.txt");
        // With markup characters too (issue 49, item 3: "<&>" wrote a <title> no reader opens).
        const QString title = QStringLiteral("T\x01\x1b[2Jitle <&>");
        for (const QString &view : {QStringLiteral("usage"), QStringLiteral("gantt"),
                                    QStringLiteral("memory-map"), QStringLiteral("breakdown")}) {
            const QString svg = dir.filePath(view + QStringLiteral(".svg"));
            Run r = runExport({dump, QStringLiteral("--view"), view, QStringLiteral("--out"), svg,
                               QStringLiteral("--select"), QStringLiteral("531"),
                               QStringLiteral("--title"), title});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QXmlStreamReader xml(readAll(svg));
            QStringList texts;
            while (!xml.atEnd())
                if (xml.readNext() == QXmlStreamReader::StartElement &&
                    xml.name() == QLatin1String("text"))
                    texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
            QVERIFY2(!xml.hasError(), qPrintable(view + QStringLiteral(": ") + xml.errorString()));
            // The text, not its glyph runs: where a fallback font draws U+FFFD (the Noto fonts
            // of most desktops) the SVG writer splits the title into one <text> per font.
            QVERIFY2(texts.join(QString()).contains(QStringLiteral("T\uFFFD\uFFFD[2Jitle <&>")),
                     qPrintable(texts.join(QLatin1Char('|'))));

            const QString csv = dir.filePath(view + QStringLiteral(".csv"));
            r = runExport({dump, QStringLiteral("--view"), view, QStringLiteral("--out"), csv});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QByteArray bytes = readAll(csv);
            QVERIFY(!bytes.contains('\0'));
            QCOMPARE(QString::fromUtf8(bytes).toUtf8(), bytes); // well-formed UTF-8
            // The usage and memory-map CSVs have no op_name column.
            bool sawName = view == QLatin1String("usage") || view == QLatin1String("memory-map");
            for (const QStringList &row : csvOf(csv))
                for (const QString &cell : row) {
                    QVERIFY2(cell.isEmpty() || !QStringLiteral("=+-@\t\r").contains(cell[0]) ||
                                 QRegularExpression(QStringLiteral("^[+-]?[0-9.]+$"))
                                     .match(cell)
                                     .hasMatch(),
                             qPrintable(cell));
                    sawName = sawName || cell.startsWith(QStringLiteral("'=HYPERLINK("));
                }
            QVERIFY2(sawName, qPrintable(view));
        }
    }

    void pdfIsAPdf()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("usage.pdf"));
        const Run r =
            runExport(exportArgs(QStringLiteral("tpu_unstack"), QStringLiteral("usage"), out));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QByteArray pdf = readAll(out);
        QVERIFY2(pdf.startsWith("%PDF-"), pdf.left(16).constData());
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        // An upper-case extension is the same format.
        const QString upper = dir.filePath(QStringLiteral("USAGE.PDF"));
        QCOMPARE(
            runExport(exportArgs(QStringLiteral("tpu_unstack"), QStringLiteral("usage"), upper))
                .code,
            0);
        QVERIFY(readAll(upper).startsWith("%PDF-"));
    }

    void usageCsvIsOneRowPerStepAndPeaksAtXlasPeak()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("usage.csv"));
        const Run r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("usage"), out));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<QStringList> rows = csvOf(out);
        QCOMPARE(static_cast<int>(rows.size()), 1 + kDecoderSteps);
        QCOMPARE(rows[0], (QStringList{QStringLiteral("step"), QStringLiteral("instruction"),
                                       QStringLiteral("live_bytes_space0"),
                                       QStringLiteral("logical_bytes_space0")}));
        qint64 most = -1;
        int mostStep = -1;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].size(), 4);
            QCOMPARE(rows[i][0].toInt(), static_cast<int>(i - 1));
            bool ok = false;
            const qint64 live = rows[i][2].toLongLong(&ok);
            QVERIFY(ok);
            if (live > most) {
                most = live;
                mostStep = rows[i][0].toInt();
            }
        }
        QCOMPARE(most, kDecoderPeakBytes);
        QCOMPARE(mostStep, kDecoderPeakStep);
        // The report says the same.
        const testutil::CliRun report = testutil::runBufferscope(
            {QStringLiteral("report"), sample(QStringLiteral("gpu_decoder_layer")),
             QStringLiteral("--json")});
        const QJsonObject space0 =
            QJsonDocument::fromJson(report.out)[QStringLiteral("memory_spaces")][0].toObject();
        QCOMPARE(space0[QStringLiteral("peak")][QStringLiteral("bytes")].toInteger(), most);
    }

    void ganttCsvIsOneRowPerValue()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("gantt.csv"));
        const Run r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("gantt"), out));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<QStringList> rows = csvOf(out);
        QCOMPARE(static_cast<int>(rows.size()), 1 + kDecoderValues);
        const QStringList header = rows[0];
        QCOMPARE(header.mid(0, 6), (QStringList{QStringLiteral("row"), QStringLiteral("id"),
                                                QStringLiteral("name"), QStringLiteral("start"),
                                                QStringLiteral("end"), QStringLiteral("bytes")}));
        QSet<QString> ids;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].size(), header.size());
            ids.insert(rows[i][1]);
        }
        QCOMPARE(ids.size(), kDecoderValues);
        // ` value: <203 p5.18.0 @0> (size=311164928,offset=0): bf16[151936,1024]{1,0}` in
        // allocation 0 (parameter), live over the whole program; its shape has a comma, so it
        // is quoted, and reads back whole.
        const auto it = std::find_if(rows.begin(), rows.end(), [](const QStringList &row) {
            return row[1] == QLatin1String("203");
        });
        QVERIFY(it != rows.end());
        const QStringList &p5 = *it;
        QCOMPARE(p5[2], QStringLiteral("p5.18.0"));
        QCOMPARE(p5[3], QStringLiteral("0"));
        QCOMPARE(p5[4], QStringLiteral("66"));
        QCOMPARE(p5[5], QStringLiteral("311164928"));
        QCOMPARE(p5[header.indexOf(QStringLiteral("kind"))], QStringLiteral("parameter"));
        QCOMPARE(p5[header.indexOf(QStringLiteral("allocation"))], QStringLiteral("0"));
        QCOMPARE(p5[header.indexOf(QStringLiteral("shape"))],
                 QStringLiteral("bf16[151936,1024]{1,0}"));
    }

    void mapAndBreakdownCsv()
    {
        QTemporaryDir dir;
        const QString map = dir.filePath(QStringLiteral("map.csv"));
        Run r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("memory-map"), map));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // One box per value with a live range in an allocation: the 46 of the Gantt chart.
        const std::vector<QStringList> boxes = csvOf(map);
        QCOMPARE(static_cast<int>(boxes.size()), 1 + 46);
        // The breakdown at XLA's peak: its groups add up to the printed peak.
        const QString groups = dir.filePath(QStringLiteral("breakdown.csv"));
        r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("breakdown"), groups) +
            QStringList{QStringLiteral("--step"), QString::number(kDecoderPeakStep)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<QStringList> rows = csvOf(groups);
        QVERIFY(rows.size() > 1);
        QCOMPARE(rows[0], (QStringList{QStringLiteral("step"), QStringLiteral("memory_space"),
                                       QStringLiteral("op_name"), QStringLiteral("bytes"),
                                       QStringLiteral("values")}));
        qint64 sum = 0;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i][0].toInt(), kDecoderPeakStep);
            sum += rows[i][3].toLongLong();
        }
        QCOMPARE(sum, kDecoderPeakBytes);

        // By allocation kind: every parameter allocation is live at the peak (their sizes on
        // the `allocation N: size S, parameter P` lines add up to 653,597,956), the single
        // `tuple` temp of 32 bytes, and the rest is output.
        r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("breakdown"), groups) +
            QStringList{QStringLiteral("--group-by"), QStringLiteral("kind")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<QStringList> kinds = csvOf(groups);
        QCOMPARE(static_cast<int>(kinds.size()), 4);
        QCOMPARE(kinds[0].at(2), QStringLiteral("kind"));
        QCOMPARE(kinds[1].mid(2, 2),
                 (QStringList{QStringLiteral("parameter"), QStringLiteral("653597956")}));
        QCOMPARE(kinds[2].mid(2, 2),
                 (QStringList{QStringLiteral("output"),
                              QString::number(kDecoderPeakBytes - 653597956 - 32)}));
        QCOMPARE(kinds[3].mid(2, 2), (QStringList{QStringLiteral("temp"), QStringLiteral("32")}));

        // One allocation of the map: `allocation 3: size 138706944, maybe-live-out` holds seven
        // values at offset 0, wrapped_slice.1 the last of them.
        r = runExport(
            exportArgs(QStringLiteral("gpu_decoder_layer"), QStringLiteral("memory-map"), map) +
            QStringList{QStringLiteral("--allocation"), QStringLiteral("3")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<QStringList> one = csvOf(map);
        QVERIFY(one.size() > 1);
        QCOMPARE(static_cast<int>(one.size()), 1 + 7);
        bool wrapped = false;
        for (std::size_t i = 1; i < one.size(); ++i) {
            QCOMPARE(one[i].at(4), QStringLiteral("0"));
            QCOMPARE(one[i].at(2), QStringLiteral("3"));
            wrapped |= one[i].at(1) == QLatin1String("wrapped_slice.1");
        }
        QVERIFY(wrapped);
    }

    void vectorAndCsvForEveryView_data()
    {
        QTest::addColumn<QString>("view");
        for (const char *view : {"usage", "gantt", "memory-map", "breakdown"})
            QTest::newRow(view) << QString::fromLatin1(view);
    }

    void vectorAndCsvForEveryView()
    {
        QFETCH(QString, view);
        QTemporaryDir dir;
        for (const char *ext : {"svg", "pdf", "csv"}) {
            const QString out = dir.filePath(view + QLatin1Char('.') + QLatin1String(ext));
            const Run r = runExport(exportArgs(QStringLiteral("tpu_random_normal"), view, out));
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QByteArray data = readAll(out);
            QVERIFY2(!data.isEmpty(), ext);
            QVERIFY2(!data.startsWith("\x89PNG"), "not a PNG under another name");
        }
        QVERIFY(readAll(dir.filePath(view + QStringLiteral(".svg"))).contains("<svg"));
        QVERIFY(readAll(dir.filePath(view + QStringLiteral(".pdf"))).startsWith("%PDF-"));
        QVERIFY(!csvOf(dir.filePath(view + QStringLiteral(".csv"))).empty());
    }

    void comparison()
    {
        // The compare window's curves, headless: tst_diff and FORMAT.md Part A give the peaks
        // of tpu_dynamic_slice (9728 B) and tpu_random_normal (17920 B).
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("compare.csv"));
        const QStringList both = {sample(QStringLiteral("tpu_dynamic_slice")),
                                  QStringLiteral("--view"), QStringLiteral("compare"),
                                  QStringLiteral("--compare"),
                                  sample(QStringLiteral("tpu_random_normal"))};
        Run r = runExport(both + QStringList{QStringLiteral("--out"), csv});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<QStringList> rows = csvOf(csv);
        QVERIFY(rows.size() > 1);
        qint64 before = 0, after = 0;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            before = std::max(before, rows[i][5].toLongLong());
            after = std::max(after, rows[i][6].toLongLong());
        }
        QCOMPARE(before, qint64(9728));
        QCOMPARE(after, qint64(17920));
        const QString pdf = dir.filePath(QStringLiteral("compare.pdf"));
        r = runExport(both + QStringList{QStringLiteral("--out"), pdf});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(readAll(pdf).startsWith("%PDF-"));
        r = runExport({sample(QStringLiteral("tpu_dynamic_slice")), QStringLiteral("--view"),
                       QStringLiteral("compare"), QStringLiteral("--out"), csv});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("go together")), qPrintable(r.err));
    }

    void badOutputLeavesNoFile()
    {
        QTemporaryDir dir;
        // An unknown extension: exit 1 naming the formats that work, and no file.
        const QString jpg = dir.filePath(QStringLiteral("chart.jpg"));
        Run r = runExport(exportArgs(QStringLiteral("tpu_unstack"), QStringLiteral("usage"), jpg));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral(".png, .svg, .pdf or .csv")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(jpg));
        // A folder that does not exist: exit 2 with the reason.
        const QString missing = dir.filePath(QStringLiteral("no/such/dir/chart.svg"));
        r = runExport(exportArgs(QStringLiteral("tpu_unstack"), QStringLiteral("usage"), missing));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(missing) && r.err.contains(QStringLiteral("cannot write the SVG")),
                 qPrintable(r.err));
        // A read-only folder (root may write anyway: then the export succeeds, whole).
        const QString locked = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkdir(locked));
        QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const QString inLocked = locked + QStringLiteral("/chart.pdf");
        r = runExport(exportArgs(QStringLiteral("tpu_unstack"), QStringLiteral("usage"), inLocked));
        if (r.code == 0)
            QVERIFY(readAll(inLocked).startsWith("%PDF-"));
        else
            QCOMPARE(r.code, 2);
        QCOMPARE(QDir(locked).entryList(QDir::Files | QDir::Hidden),
                 r.code == 0 ? QStringList{QStringLiteral("chart.pdf")} : QStringList{});
        QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                          QFileDevice::ExeOwner);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString file = sample(QStringLiteral("tpu_unstack"));
        const QString out = QStringLiteral("/tmp/bufferscope-tst-export-unused.png");
        QTest::newRow("no view")
            << QStringList{file, QStringLiteral("--out"), out} << 1
            << QStringLiteral(
                   "export needs FILE, --view and --out\nusage:\nbufferscope export FILE");
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
        QTest::newRow("width 0")
            << QStringList{file,
                           QStringLiteral("--view"),
                           QStringLiteral("usage"),
                           QStringLiteral("--out"),
                           out,
                           QStringLiteral("--width"),
                           QStringLiteral("0")}
            << 1 << QStringLiteral("--width needs a number of pixels from 16 to 20000 (got '0')");
        QTest::newRow("height 100000")
            << QStringList{file,
                           QStringLiteral("--view"),
                           QStringLiteral("usage"),
                           QStringLiteral("--out"),
                           out,
                           QStringLiteral("--height"),
                           QStringLiteral("100000")}
            << 1
            << QStringLiteral("--height needs a number of pixels from 16 to 20000 (got '100000')");
        QTest::newRow("too many pixels") << QStringList{file,
                                                        QStringLiteral("--view"),
                                                        QStringLiteral("usage"),
                                                        QStringLiteral("--out"),
                                                        out,
                                                        QStringLiteral("--width"),
                                                        QStringLiteral("20000"),
                                                        QStringLiteral("--height"),
                                                        QStringLiteral("20000"),
                                                        QStringLiteral("--scale"),
                                                        QStringLiteral("2")}
                                         << 1 << QStringLiteral("more than 400 megapixels");
        QTest::newRow("order on usage") << QStringList{file,
                                                       QStringLiteral("--view"),
                                                       QStringLiteral("usage"),
                                                       QStringLiteral("--out"),
                                                       out,
                                                       QStringLiteral("--order"),
                                                       QStringLiteral("size")}
                                        << 1 << QStringLiteral("--order is for the gantt view");
        QTest::newRow("no such allocation") << QStringList{file,
                                                           QStringLiteral("--view"),
                                                           QStringLiteral("memory-map"),
                                                           QStringLiteral("--out"),
                                                           out,
                                                           QStringLiteral("--allocation"),
                                                           QStringLiteral("99")}
                                            << 1 << QStringLiteral("no allocation 99");
        QTest::newRow("no extension")
            << QStringList{file, QStringLiteral("--view"), QStringLiteral("usage"),
                           QStringLiteral("--out"), QStringLiteral("/tmp/chart")}
            << 1 << QStringLiteral("unknown file type; --out must end in .png, .svg, .pdf or .csv");
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
