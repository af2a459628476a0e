// Generated dumps report exactly the truths the generator built in (computed by the generator
// on its own, not with BufferScope's code).
#include "DumpGenerator.h"
#include "analysis/MemoryTimeline.h"
#include "parse/DumpParser.h"

#include <QTemporaryDir>
#include <QTest>

using namespace bufferscope;

class TestGenerated : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void truths_data()
    {
        QTest::addColumn<qint64>("values");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("10k_seed1") << qint64(10000) << quint64(1);
        QTest::newRow("10k_seed7") << qint64(10000) << quint64(7);
        QTest::newRow("100k_seed3") << qint64(100000) << quint64(3);
    }
    void truths()
    {
        QFETCH(qint64, values);
        QFETCH(quint64, seed);
        QTemporaryDir dir;
        const std::string path =
            dir.filePath(QStringLiteral("gen-buffer-assignment.txt")).toStdString();
        std::FILE *f = std::fopen(path.c_str(), "wb");
        QVERIFY(f);
        const bench::GeneratedTruths truths = bench::generateDump({values, seed}, f);
        std::fclose(f);
        QVERIFY(truths.inPlaceLinks > 0); // the union rule is exercised

        const LoadResult r = DumpParser::loadFile(path);
        QVERIFY2(r.ok(), r.error.c_str());
        const Dump &d = *r.dump;
        QVERIFY2(d.warnings.empty(),
                 d.warnings.empty() ? "" : d.diagnosticText(d.warnings.front()).c_str());
        QCOMPARE(d.totalBytes(), truths.totalBytes);
        QCOMPARE(static_cast<qint64>(d.values.size()), truths.valueCount);
        QCOMPARE(static_cast<qint64>(d.allocations.size()), truths.allocationCount);
        QCOMPARE(d.maxStep(), truths.instructionCount);
        const auto tl = MemoryTimeline::compute(d);
        const SpaceTimeline *s0 = tl->space(0);
        QVERIFY(s0);
        QCOMPARE(s0->peak.step, truths.peakStep);
        QCOMPARE(s0->peak.bytes, truths.peakBytes);
        QCOMPARE(s0->logicalPeak.step, truths.logicalPeakStep);
        QCOMPARE(s0->logicalPeak.bytes, truths.logicalPeakBytes);
        QCOMPARE(d.printedPeak.step, truths.printedPeakStep);
        QCOMPARE(static_cast<qint64>(d.printedPeak.entries.size()), truths.printedPeakEntries);
        QCOMPARE(d.printedPeak.bytes, truths.printedPeakBytes);
        QCOMPARE(tl->xlaPeak().step, truths.printedPeakStep);
        QVERIFY(tl->warnings().empty());
    }
};

QTEST_GUILESS_MAIN(TestGenerated)
#include "tst_generated.moc"
