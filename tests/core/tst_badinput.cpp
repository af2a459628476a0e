// Bad input of every kind in docs/FORMAT.md §10: an error that names the line, or a report with
// warnings that name it. Never a crash, a hang or a silent wrong number.
#include "DumpCompare.h"
#include "DumpText.h"
#include "open/ModuleReader.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace bufferscope;
using namespace testutil;

namespace {

LoadResult parseText(const std::string &text)
{
    return LOAD_EVERY_WAY(DumpParser::loadBuffer(text, "bad-buffer-assignment.txt", options_));
}

bool hasWarning(const Dump &d, const std::string &needle, std::int64_t line = -1)
{
    for (const Diagnostic &w : d.warnings) {
        if (w.message.find(needle) != std::string::npos && (line < 0 || w.line == line))
            return true;
    }
    return false;
}

std::string allWarnings(const Dump &d)
{
    std::string out;
    for (const Diagnostic &w : d.warnings)
        out += d.diagnosticText(w) + "\n";
    return out;
}

const std::string &dynamicSlice()
{
    static const std::string text = readFile(samplePath("tpu_dynamic_slice"));
    return text;
}

/// 1-based number of the line holding `needle` in the sample.
std::int64_t lineOf(const std::string &text, const std::string &needle)
{
    const auto pos = text.find(needle);
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
}

} // namespace

class TestBadInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<qint64>("line");
        QTest::newRow("empty") << QByteArray() << "the file is empty" << qint64(0);
        QTest::newRow("blank_lines")
            << QByteArray("\n\n  \n") << "not an XLA buffer-assignment dump" << qint64(3);
        QTest::newRow("only_newlines") << QByteArray("\n\n\n") << "only blank lines" << qint64(3);
        QTest::newRow("binary") << QByteArray("BufferAssignment:\nallocation 0\0\x01\x02", 32)
                                << "binary data (a NUL byte) at line 2" << qint64(2);
        QTest::newRow("hlo_text")
            << QByteArray(
                   "HloModule jit_f, entry_computation_layout={(f32[2]{0})->f32[2]{0}}\n\nENTRY "
                   "%main.3 {\n}\n")
            << "not an XLA buffer-assignment dump: line 1 reads 'HloModule jit_f" << qint64(1);
        QTest::newRow("log")
            << QByteArray("\n2026-11-21 12:00:01 INFO starting training\nstep 1 loss 2.3\n")
            << "not an XLA buffer-assignment dump: line 2" << qint64(2);
        QTest::newRow("utf8_bom_then_junk")
            << QByteArray("\xEF\xBB\xBFhello\n") << "reads 'hello'" << qint64(1);
        QTest::newRow("header_only_garbage")
            << QByteArray("BufferAssignment:\nthis is not a dump\n")
            << "no allocations, values or live ranges" << qint64(2);
    }
    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QFETCH(qint64, line);
        const LoadResult r = parseText(text.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find(message.toStdString()) != std::string::npos, r.error.c_str());
        QCOMPARE(r.errorLine, line);
        QVERIFY(r.error.starts_with("bad-buffer-assignment.txt"));
    }

    void files()
    {
        LoadResult missing = ModuleReader::loadPath("/nonexistent/dir/x-buffer-assignment.txt");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error,
                 std::string("/nonexistent/dir/x-buffer-assignment.txt: no such file"));
        LoadResult dir = ModuleReader::loadPath(BUFFERSCOPE_TEST_DATA);
        QVERIFY(!dir.ok());
        QVERIFY(dir.error.find("is a directory") != std::string::npos);
    }

    void warnings_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<QString>("lineOf"); // the line the warning must name (in the edited text)
        QTest::newRow("overflowing_size") << "allocation 7: size 1024,"
                                          << "allocation 7: size 99999999999999999999999,"
                                          << "without 'size N'"
                                          << "allocation 7:";
        QTest::newRow("negative_allocation_size") << "allocation 5: size 32,"
                                                  << "allocation 5: size -32,"
                                                  << "negative size"
                                                  << "allocation 5:";
        QTest::newRow("negative_value_offset") << "(size=512,offset=512)"
                                               << "(size=512,offset=-512)"
                                               << "negative offset"
                                               << "offset=-512";
        QTest::newRow("value_past_allocation") << "(size=512,offset=512)"
                                               << "(size=512,offset=600)"
                                               << "reaches past the end of allocation 7"
                                               << "offset=600";
        QTest::newRow("live_range_backwards") << "    copy{}:5-7"
                                              << "    copy{}:7-5"
                                              << "runs backwards"
                                              << "copy{}:7-5";
        QTest::newRow("live_range_past_max") << "    copy{}:5-7"
                                             << "    copy{}:5-99"
                                             << "after max 8"
                                             << "copy{}:5-99";
        QTest::newRow("absurd_max") << "HloLiveRange (max 8):"
                                    << "HloLiveRange (max 999999999999999):"
                                    << "but the InstructionSequence has 8 steps"
                                    << "HloLiveRange (max";
        QTest::newRow("duplicate_allocation_index") << "allocation 6: size 4,"
                                                    << "allocation 5: size 4,"
                                                    << "appears twice"
                                                    << "allocation 5: size 4,";
        QTest::newRow("value_in_two_allocations")
            << " value: <5 copy @6> (size=512,offset=0)"
            << " value: <1 copy-start{} @0> (size=512,offset=0)"
            << "value 1 is listed again"
            << "<1 copy-start{} @0> (size=512";
        QTest::newRow("unknown_live_range") << "    copy{}:5-7"
                                            << "    ghost.9{}:5-7"
                                            << "in no allocation"
                                            << "ghost.9{}";
        QTest::newRow("unknown_peak_value") << "    copy{}: 4 bytes"
                                            << "    phantom{}: 4 bytes"
                                            << "printed peak names 'phantom{}'"
                                            << "phantom{}: 4";
        QTest::newRow("unknown_attribute") << "allocation 2: size 512,"
                                           << "allocation 2: size 512, radioactive,"
                                           << "unknown allocation attribute 'radioactive'"
                                           << "radioactive";
        QTest::newRow("garbage_line") << "Used values:\n"
                                      << "Used values:\n%%% garbage %%%\n"
                                      << "unrecognized line '%%% garbage %%%'"
                                      << "%%% garbage";
        QTest::newRow("bad_shape") << "f32[1,5]{1,0:T(1,128)}\nallocation 3"
                                   << "f33[1,5]{1,0:T(1,128)}\nallocation 3"
                                   << "cannot read shape 'f33[1,5]"
                                   << "f33[1,5]";
        QTest::newRow("bad_total_human") << "(18.5KiB)"
                                         << "(99.9KiB)"
                                         << "prints 99.9KiB"
                                         << "Total bytes used";
        QTest::newRow("total_mismatch") << "Total bytes used: 18980"
                                        << "Total bytes used: 18981"
                                        << "allocations add up to 18980"
                                        << "";
        QTest::newRow("cumulative_wrong") << "(cumulative: 4116 bytes)"
                                          << "(cumulative: 4117 bytes)"
                                          << "not the running sum"
                                          << "4117";
        QTest::newRow("value_header_junk") << "<4 Arg_1.2 @0>\n"
                                           << "<4 Arg_1.2 @0 junk\n"
                                           << "malformed value header"
                                           << "<4 Arg_1.2 @0 junk";
    }
    void warnings()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, warning);
        QFETCH(QString, lineOf);
        const std::string &original = dynamicSlice();
        QVERIFY2(original.find(from.toStdString()) != std::string::npos, qPrintable(from));
        std::string text = original;
        text.replace(text.find(from.toStdString()), from.size(), to.toStdString());
        const LoadResult r = parseText(text);
        QVERIFY2(r.ok(), r.error.c_str());
        const std::int64_t line = lineOf.isEmpty() ? 0 : ::lineOf(text, lineOf.toStdString());
        QVERIFY2(hasWarning(*r.dump, warning.toStdString(), line), allWarnings(*r.dump).c_str());
        // And the numbers that are still known stay right: the timeline never breaks.
        const auto tl = MemoryTimeline::compute(*r.dump);
        QVERIFY(tl.has_value());
    }

    // Two values placed over each other's bytes while both are live: gpu_decoder_layer's
    // custom-call.5.0{} (16 bytes, live 37-38, line 67) moved from offset 1311232 to 1311000,
    // into gemm_fusion_dot.7.0 (offset 786816, 524288 bytes to 1311104, live 35-48) of the same
    // allocation 25. XLA never places two live buffers so: a warning on the moved value's line
    // that names both, the step the sweep first sees it (37) and the 16 shared bytes. Values
    // at one offset (an in-place chain: loop_dynamic_update_slice_fusion.27, .26, ... in
    // gpu_vllm_update_slice) are one buffer and never warned of (tst_sampledumps: no warning).
    void overlapIsWarned()
    {
        const std::string original = readFile(samplePath("gpu_decoder_layer"));
        const std::string from = "<178 custom-call.5.0{} @0> (size=16,offset=1311232)";
        QVERIFY(original.find(from) != std::string::npos);
        std::string text = original;
        text.replace(text.find(from), from.size(),
                     "<178 custom-call.5.0{} @0> (size=16,offset=1311000)");
        const LoadResult r = parseText(text);
        QVERIFY2(r.ok(), r.error.c_str());
        const auto tl = MemoryTimeline::compute(*r.dump);
        QVERIFY(tl.has_value());
        std::vector<std::string> found;
        for (const Diagnostic &w : tl->warnings())
            if (w.message.find("share") != std::string::npos)
                found.push_back(std::to_string(w.line) + ": " + w.message);
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY2(found[0].starts_with("67: allocation 25: gemm_fusion_dot.7.0"), found[0].c_str());
        QVERIFY2(found[0].find("custom-call.5.0{} (offset 1311000, 16 bytes, steps 37-38) share "
                               "16 bytes while both are live at step 37") != std::string::npos,
                 found[0].c_str());
        // The untouched sample has none.
        const LoadResult clean = parseText(original);
        const auto cleanTimeline = MemoryTimeline::compute(*clean.dump);
        QVERIFY(cleanTimeline->warnings().empty());
    }

    void truncatedEverywhere()
    {
        // Cut the file at every line boundary (and mid-line): a report or a clear error, always.
        const std::string &original = dynamicSlice();
        int reports = 0;
        for (std::size_t cut = 1; cut < original.size(); cut += 7) {
            const std::string text = original.substr(0, cut);
            const LoadResult r = parseText(text);
            if (!r.ok()) {
                QVERIFY(!r.error.empty());
                continue;
            }
            ++reports;
            const bool complete = text.size() == original.size();
            if (!complete)
                QVERIFY2(r.dump->traits.truncated || !r.dump->warnings.empty(),
                         qPrintable(QStringLiteral("cut at %1 gave no warning").arg(cut)));
            QVERIFY(MemoryTimeline::compute(*r.dump).has_value());
        }
        QVERIFY(reports > 100);
    }

    void truncatedSectionsSaySo_data()
    {
        QTest::addColumn<QString>("cutBefore");
        QTest::addColumn<QString>("warning");
        QTest::newRow("mid_allocations") << "allocation 5:"
                                         << "no 'Used values:' section";
        QTest::newRow("before_used_values") << "Used values:"
                                            << "no 'Used values:' section";
        QTest::newRow("mid_used_values") << "<5 copy @6>\n positions"
                                         << "have no 'Used values' block";
        QTest::newRow("mid_sequence") << "    4:copy.1"
                                      << "no 'Live ranges at T (peak)'";
        QTest::newRow("mid_peak") << "    copy{}: 4 bytes"
                                  << "last line has no newline";
    }
    void truncatedSectionsSaySo()
    {
        QFETCH(QString, cutBefore);
        QFETCH(QString, warning);
        const std::string &original = dynamicSlice();
        std::string text = original.substr(0, original.find(cutBefore.toStdString()));
        if (cutBefore.startsWith(QLatin1String("    copy{}")))
            text += "    cop"; // a partial last line
        const LoadResult r = parseText(text);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.dump->traits.truncated);
        QVERIFY2(hasWarning(*r.dump, warning.toStdString()), allWarnings(*r.dump).c_str());
    }

    void hugeLineIsBounded()
    {
        // A 20 MB line in the middle: one warning, read in well under a second or two.
        std::string text = dynamicSlice();
        const std::string junk(20u << 20, 'x');
        text.insert(text.find("Used values:"), junk + "\n");
        QElapsedTimer timer;
        timer.start();
        const LoadResult r = parseText(text);
        QVERIFY(r.ok());
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY(hasWarning(*r.dump, "unrecognized line 'xxxx"));
        QCOMPARE(facts(*r.dump), facts(*parseText(dynamicSlice()).dump));
    }

    void sizesThatWouldOverflowASum()
    {
        // Each size is legal (2^48) but 16400 of them pass 2^62: the ones past it count as 0,
        // so every sum the analyses form stays exact.
        std::string text = "BufferAssignment:\n";
        for (int i = 0; i < 16400; ++i)
            text +=
                "allocation " + std::to_string(i) + ": size 281474976710656, preallocated-temp:\n";
        const LoadResult r = parseText(text);
        QVERIFY(r.ok());
        QVERIFY2(hasWarning(*r.dump,
                            "allocation 16384 has size 281474976710656, which takes the total "
                            "beyond 4 EiB; counted as 0",
                            16386),
                 allWarnings(*r.dump).c_str());
        QCOMPARE(r.dump->totalBytes(), (std::int64_t{1} << 62));
        const auto timeline = MemoryTimeline::compute(*r.dump);
        QVERIFY(timeline);
    }

    void warningsAreCapped()
    {
        std::string text = dynamicSlice();
        std::string junk;
        for (int i = 0; i < 5000; ++i)
            junk += "??? " + std::to_string(i) + "\n";
        text.insert(text.find("Used values:"), junk);
        const LoadResult r = parseText(text);
        QVERIFY(r.ok());
        QCOMPARE(r.dump->warnings.size(), std::size_t(1000));
        QVERIFY(r.dump->suppressedWarnings >= 4000);
    }

    void idOrderSurvivesSparseIdsAndIdlessValues()
    {
        // Values are kept in ascending XLA id, found in O(n) when ids are dense. Sparse ids take
        // the sorting path; live ranges of values in no allocation get ids after the largest.
        const LoadResult base = parseText(dynamicSlice());
        QVERIFY(base.ok());
        const QRegularExpression id(QStringLiteral("<(\\d+) "));
        QString sparse = QString::fromStdString(dynamicSlice());
        QString out;
        qsizetype last = 0;
        for (auto it = id.globalMatch(sparse); it.hasNext();) {
            const auto m = it.next();
            out += sparse.mid(last, m.capturedStart() - last);
            out += QStringLiteral("<%1 ").arg(m.captured(1).toLongLong() * 100000 + 7);
            last = m.capturedEnd();
        }
        out += sparse.mid(last);
        std::string text = out.toStdString();
        const std::string ghosts = "    ghost.2{}:1-2\n    ghost.1{}:3-4\n";
        const auto bufferLiveRange = text.find("  BufferLiveRange:\n");
        QVERIFY(bufferLiveRange != std::string::npos);
        text.insert(bufferLiveRange + 19, ghosts);
        const LoadResult r = parseText(text);
        QVERIFY(r.ok());
        const Dump &d = *r.dump;
        QCOMPARE(d.values.size(), base.dump->values.size() + 2);
        for (std::size_t i = 0; i < base.dump->values.size(); ++i) {
            const Value &v = d.values[i];
            const Value &b = base.dump->values[i];
            QCOMPARE(v.id, b.id * 100000 + 7);
            QCOMPARE(d.valueKey(v), base.dump->valueKey(b));
            QCOMPARE(v.start, b.start);
            QCOMPARE(v.end, b.end);
            QCOMPARE(v.positionCount, b.positionCount);
            QCOMPARE(v.useCount, b.useCount);
        }
        const Value &g2 = d.values[d.values.size() - 2];
        const Value &g1 = d.values.back();
        QCOMPARE(d.valueKey(g2), std::string("ghost.2{}"));
        QCOMPARE(d.valueKey(g1), std::string("ghost.1{}"));
        QCOMPARE(g2.id, d.values[d.values.size() - 3].id + 1);
        QCOMPARE(g1.id, g2.id + 1);
        QCOMPARE(g2.start, 1);
        QCOMPARE(g1.end, 4);
    }

    void secondModuleIsNotMerged()
    {
        const std::string text = dynamicSlice() + dynamicSlice();
        const LoadResult r = parseText(text);
        QVERIFY(r.ok());
        QVERIFY(hasWarning(*r.dump, "more than one module"));
        QCOMPARE(facts(*r.dump), facts(*parseText(dynamicSlice()).dump));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
