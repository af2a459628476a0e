// Generated dumps report exactly the truths the generator built in (computed by the generator
// on its own, not with BufferScope's code).
#include "DumpCompare.h"
#include "DumpGenerator.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakExplainer.h"
#include "open/ModuleReader.h"
#include "parse/DumpParser.h"
#include "parse/MemoryUsageReport.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>

using namespace bufferscope;

namespace {
struct Generated
{
    std::string path;
    bench::GeneratedTruths truths;
    LoadResult load;
};

/// Writes a generated dump of `values` values into `dir` and loads it.
Generated generate(const QTemporaryDir &dir, qint64 values, quint64 seed)
{
    Generated g;
    g.path = dir.filePath(QStringLiteral("gen-buffer-assignment.txt")).toStdString();
    std::FILE *f = std::fopen(g.path.c_str(), "wb");
    if (!f) {
        g.load.error = "cannot write " + g.path;
        return g;
    }
    g.truths = bench::generateDump({values, seed}, f);
    std::fclose(f);
    g.load = LOAD_EVERY_WAY(ModuleReader::loadPath(g.path, options_));
    return g;
}
} // namespace

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
        const Generated g = generate(dir, values, seed);
        const bench::GeneratedTruths &truths = g.truths;
        const LoadResult &r = g.load;
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(truths.inPlaceLinks > 0); // the union rule is exercised

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

    void progressAndCancelAtEveryThreadCount()
    {
        // 100k values (60 MB): the Used values section is cut into chunks at 2 and 3 threads.
        QTemporaryDir dir;
        const Generated g = generate(dir, 100000, 5);
        QVERIFY2(g.load.ok(), g.load.error.c_str());
        const auto size =
            static_cast<std::int64_t>(QFileInfo(QString::fromStdString(g.path)).size());
        for (const int threads : {1, 2, 3}) {
            // Progress only goes forward, and ends at the file's size.
            std::vector<std::int64_t> seen;
            ParseOptions options;
            options.threads = threads;
            options.progress = [&](std::int64_t done, std::int64_t total) {
                QCOMPARE(total, size);
                seen.push_back(done);
            };
            const LoadResult all = ModuleReader::loadPath(g.path, options);
            QVERIFY(all.ok());
            QVERIFY(!all.readAgainSerially); // read once, in chunks: nothing in it is damaged
            QVERIFY(seen.size() > 10);
            QVERIFY(std::is_sorted(seen.begin(), seen.end()));
            QCOMPARE(seen.back(), size);
            // Cancel halfway (in the Used values section): no dump, and it says so.
            std::atomic<bool> cancel{false};
            options.cancel = &cancel;
            options.progress = [&](std::int64_t done, std::int64_t total) {
                if (done * 2 > total)
                    cancel = true;
            };
            const LoadResult stopped = ModuleReader::loadPath(g.path, options);
            QVERIFY(stopped.cancelled);
            QVERIFY(!stopped.ok());
            QVERIFY(stopped.error.empty());
        }
    }

    void memoryUsageReportOfAGeneratedDump_data()
    {
        QTest::addColumn<bool>("layout2026");
        QTest::newRow("2024 layout") << false;
        QTest::newRow("2026 layout") << true;
    }

    // The generator's dump with the memory-usage report XLA would write beside it (issue 34,
    // and in the 2026 layout, issue 51): long tuples with /*index=N*/ comments read without a
    // warning, and the report, read with the dump, agrees with the generator's truths: its
    // total, and every allocation's size within the rounding its digits allow (2024) or each
    // allocation matched by order with the smallest left out without a word (2026).
    void memoryUsageReportOfAGeneratedDump()
    {
        QFETCH(bool, layout2026);
        QTemporaryDir dir;
        const std::string dump =
            dir.filePath(QStringLiteral("g-buffer-assignment.txt")).toStdString();
        const std::string reportPath =
            dir.filePath(QStringLiteral("g-memory-usage-report.txt")).toStdString();
        std::FILE *f = std::fopen(dump.c_str(), "wb");
        std::FILE *r = std::fopen(reportPath.c_str(), "wb");
        QVERIFY(f && r);
        bench::GeneratorOptions options{20000, 11};
        options.memoryUsageReport = r;
        options.reportLayout2026 = layout2026;
        const bench::GeneratedTruths truths = bench::generateDump(options, f);
        std::fclose(f);
        std::fclose(r);
        const auto readAll = [](const std::string &path) {
            QFile file(QString::fromStdString(path));
            return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
        };
        const std::string text = readAll(dump);
        QVERIFY(text.find(", /*index=5*/") != std::string::npos);
        QVERIFY(text.find(", /*index=35*/") != std::string::npos);
        const LoadResult l = ModuleReader::loadPath(dump);
        QVERIFY2(l.ok(), l.error.c_str());
        QCOMPARE(l.dump->warnings.size(), std::size_t(0));
        QCOMPARE(l.dump->allocationSizeSum(), truths.totalBytes);
        QCOMPARE(l.dump->notes.size(), std::size_t(1));
        QVERIFY2(l.dump->notes.front().find("agrees with the dump") != std::string::npos,
                 l.dump->notes.front().c_str());
        // And alone: its figures are the generator's.
        const MemoryUsageReport alone = MemoryUsageReports::parse(readAll(reportPath));
        QVERIFY(alone.problems.empty());
        QCOMPARE(alone.totalBytes, truths.totalBytes);
        QCOMPARE(alone.layout, layout2026 ? 2 : 1);
        if (layout2026) {
            // The 2026 layout lists 50 and more until the rest is under 5 %, and says nothing of
            // the rest: fewer allocations than the dump's, never more.
            QVERIFY(alone.allocationCount() >= 50);
            QVERIFY(alone.allocationCount() <= truths.allocationCount);
            QCOMPARE(alone.memorySpaces.size(), std::size_t{1});
            QCOMPARE(alone.memorySpaces[0].totalBytes, truths.totalBytes);
        } else {
            QCOMPARE(alone.allocationCount(), truths.allocationCount);
        }
    }

    void shapesAreDistinctAndMatchTheirLines()
    {
        // 20k values with thousands of distinct shapes: the parser's shape table grows several
        // times. Each value must get the shape printed on its own line, and each distinct text
        // one ShapeInfo.
        QTemporaryDir dir;
        const Generated g = generate(dir, 20000, 9);
        const LoadResult &r = g.load;
        QVERIFY2(r.ok(), r.error.c_str());
        const Dump &d = *r.dump;

        std::vector<std::string_view> texts;
        for (std::size_t i = 1; i < d.shapes.size(); ++i)
            texts.push_back(d.str(d.shapes[i].text));
        QVERIFY(texts.size() > 2000);
        std::sort(texts.begin(), texts.end());
        QVERIFY(std::adjacent_find(texts.begin(), texts.end()) == texts.end());

        QFile file(QString::fromStdString(g.path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        std::int64_t lineNo = 0;
        std::vector<std::string> shapeOnLine;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().chopped(1);
            ++lineNo;
            if (!line.startsWith(" value: <"))
                continue;
            const auto colon = line.indexOf("): ");
            QVERIFY(colon > 0);
            shapeOnLine.resize(static_cast<std::size_t>(lineNo) + 1);
            shapeOnLine[static_cast<std::size_t>(lineNo)] = line.mid(colon + 3).toStdString();
        }
        for (const Value &v : d.values) {
            QVERIFY(v.line > 0 && static_cast<std::size_t>(v.line) < shapeOnLine.size());
            QCOMPARE(d.shapeText(v),
                     std::string_view(shapeOnLine[static_cast<std::size_t>(v.line)]));
        }
    }

    void fragmentationRanksTheLargestValues()
    {
        // The generated heap is reused by thousands of values of many sizes and is never full:
        // its finding lists every value, the 100 largest first (ties by index).
        QTemporaryDir dir;
        const Generated g = generate(dir, 20000, 5);
        const LoadResult &r = g.load;
        QVERIFY2(r.ok(), r.error.c_str());
        const Dump &d = *r.dump;
        const auto tl = MemoryTimeline::compute(d);
        const auto findings = PeakExplainer::explain(d, *tl, tl->space(0)->peak.step, 0);
        const auto frag = std::find_if(findings.begin(), findings.end(), [](const Finding &x) {
            return x.kind == Finding::Kind::Fragmentation;
        });
        QVERIFY(frag != findings.end());
        const Allocation &a = d.allocations[frag->allocation];
        QVERIFY(a.valueCount > 1000);

        std::vector<std::uint32_t> listed = frag->values;
        std::vector<std::uint32_t> all(d.allocationValues.begin() + a.firstValue,
                                       d.allocationValues.begin() + a.firstValue + a.valueCount);
        std::sort(listed.begin(), listed.end());
        std::sort(all.begin(), all.end());
        QVERIFY(listed == all);

        std::vector<std::uint32_t> bySize = all;
        std::sort(bySize.begin(), bySize.end(), [&](std::uint32_t x, std::uint32_t y) {
            return d.values[x].size != d.values[y].size ? d.values[x].size > d.values[y].size
                                                        : x < y;
        });
        QVERIFY(std::equal(bySize.begin(), bySize.begin() + 100, frag->values.begin()));
        // The rest keep the allocation's order.
        std::vector<std::uint32_t> rest(d.allocationValues.begin() + a.firstValue,
                                        d.allocationValues.begin() + a.firstValue + a.valueCount);
        std::erase_if(rest, [&](std::uint32_t v) {
            return std::find(bySize.begin(), bySize.begin() + 100, v) != bySize.begin() + 100;
        });
        QVERIFY(
            std::equal(rest.begin(), rest.end(), frag->values.begin() + 100, frag->values.end()));
    }
};

QTEST_GUILESS_MAIN(TestGenerated)
#include "tst_generated.moc"
