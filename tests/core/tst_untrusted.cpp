// Text in a dump is chosen by whoever made the file (issue 33): it is decoded as XLA encoded
// it, and reaches a terminal, a CSV cell or a tree only made safe. The crafted inputs are in
// tests/data/hostile/ (make_hostile.py says how each was made); expectations are worked out by
// hand from absl::CEscape, OWASP's CSV advice and ECMA-48.
#include "CliRun.h"
#include "DumpText.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/SourceFrames.h"
#include "models/QtText.h"
#include "open/ModuleReader.h"
#include "parse/MappedFile.h"
#include "report/Csv.h"
#include "util/SafeText.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <sys/stat.h>
#include <unistd.h>

using namespace bufferscope;

namespace {

QString hostile(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/hostile/%1.txt").arg(QLatin1String(name));
}

/// Every byte a terminal acts on: C0 and DEL, C1 as UTF-8, and the bidi controls.
void verifyTerminalSafe(const QByteArray &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n')
            continue;
        QVERIFY2(
            c >= 0x20 && c != 0x7F,
            qPrintable(
                QStringLiteral("control byte 0x%1 at %2").arg(c, 2, 16, QLatin1Char('0')).arg(i)));
    }
    const QString decoded = QString::fromUtf8(text);
    QVERIFY(!decoded.contains(QChar(0xFFFD))); // well-formed UTF-8
    for (const QChar c : decoded) {
        QVERIFY2(!(c.unicode() >= 0x80 && c.unicode() < 0xA0), "a C1 control");
        QVERIFY2(!(c.unicode() >= 0x202A && c.unicode() <= 0x202E), "a bidi override");
        QVERIFY2(!(c.unicode() >= 0x2066 && c.unicode() <= 0x2069), "a bidi isolate");
    }
}

std::size_t depthOf(const BreakdownNode &n)
{
    std::size_t deepest = 0;
    for (const BreakdownNode &c : n.children)
        deepest = std::max(deepest, depthOf(c));
    return deepest + 1;
}

std::size_t nodesOf(const BreakdownNode &n)
{
    std::size_t count = 1;
    for (const BreakdownNode &c : n.children)
        count += nodesOf(c);
    return count;
}

/// `<stem>-buffer-assignment.txt` with `values` values of 16 bytes in one allocation, value v
/// defined at step v and live to the end, and `<stem>.txt` with a chain of `frames` stack
/// frames (frame i called by frame i-1). Value v's innermost frame is frames - v % frames, or
/// with `ownLeaves` a frame of its own called by the innermost frame of the chain.
void writeChainDump(const std::string &stem, int kValues, int kFrames, bool ownLeaves = false)
{
    const int leaves = ownLeaves ? kValues : 0;
    std::string hlo = "HloModule chain, is_scheduled=true\n\nFileNames\n1 \"/src/deep.py\"\n\n"
                      "FunctionNames\n1 \"f\"\n\nFileLocations\n";
    for (int i = 1; i <= kFrames + leaves; ++i)
        hlo += std::to_string(i) + " {file_name_id=1 function_name_id=1 line=" + std::to_string(i) +
               " end_line=" + std::to_string(i) + " column=1 end_column=2}\n";
    hlo += "\nStackFrames\n";
    // Frame i calls frame i+1 (the parent is printed as the caller's id plus one).
    for (int i = 1; i <= kFrames; ++i)
        hlo += std::to_string(i) + " {file_location_id=" + std::to_string(i) +
               " parent_frame_id=" + std::to_string(i == 1 ? 1 : i) + "}\n";
    for (int i = kFrames + 1; i <= kFrames + leaves; ++i)
        hlo += std::to_string(i) + " {file_location_id=" + std::to_string(i) +
               " parent_frame_id=" + std::to_string(kFrames + 1) + "}\n";
    hlo += "\nENTRY %main (p: f32[4]) -> f32[4] {\n  ROOT %p = f32[4]{0} parameter(0)\n}\n";
    testutil::writeFile(stem + ".txt", hlo);
    // One allocation with every value live at once, each defined by its own instruction.
    std::string dump = "BufferAssignment:\nallocation 0: size " + std::to_string(kValues * 16) +
                       ", preallocated-temp:\n";
    for (int v = 0; v < kValues; ++v)
        dump += " value: <" + std::to_string(v) + " f" + std::to_string(v) +
                " @0> (size=16,offset=" + std::to_string(v * 16) + "): f32[4]{0}\n";
    dump += "\nTotal bytes used: " + std::to_string(kValues * 16) + "\n\nUsed values:\n";
    for (int v = 0; v < kValues; ++v)
        dump += "<" + std::to_string(v) + " f" + std::to_string(v) + " @0>\n positions:\n  f" +
                std::to_string(v) + "\n uses:\n from instruction: %f" + std::to_string(v) +
                " = f32[4]{0} parameter(" + std::to_string(v) +
                "), metadata={op_name=\"f\" stack_frame_id=" +
                std::to_string(ownLeaves ? kFrames + 1 + v : kFrames - (v % kFrames)) + "}\n";
    const std::string max = std::to_string(kValues);
    dump += "\nHloLiveRange (max " + max + "):\n  InstructionSequence:\n";
    for (int v = 0; v < kValues; ++v)
        dump += "    " + std::to_string(v) + ":f" + std::to_string(v) + "\n";
    dump += "  BufferLiveRange:\n";
    for (int v = 0; v < kValues; ++v)
        dump += "    f" + std::to_string(v) + "{}:" + std::to_string(v) + "-" + max + "\n";
    testutil::writeFile(stem + "-buffer-assignment.txt", dump);
}

} // namespace

class TestUntrusted : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // absl::CEscape writes \n \r \t \" \' \\ and every other byte below 0x20 or from 0x7F as
    // three octal digits; CUnescape also takes \xHH, \a \b \f \v \? and \u/\U.
    void unescapeC_data()
    {
        QTest::addColumn<QByteArray>("escaped");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("utf-8 as octal") << QByteArray("caf\\303\\251") << QByteArray("café");
        QTest::newRow("quotes") << QByteArray(R"(say \"hi\" it\'s)")
                                << QByteArray("say \"hi\" it's");
        QTest::newRow("backslash") << QByteArray(R"(C:\\src\\a.py)") << QByteArray("C:\\src\\a.py");
        QTest::newRow("controls") << QByteArray(R"(a\nb\rc\td\033e\000f)")
                                  << QByteArray("a\nb\rc\td\x1b"
                                                "e\0f",
                                                11);
        QTest::newRow("hex") << QByteArray(R"(\x41\x4a)") << QByteArray("AJ");
        QTest::newRow("one octal digit") << QByteArray(R"(\7x)") << QByteArray("\ax");
        QTest::newRow("\\u and \\U")
            << QByteArray(R"(\u00e9\U0001F600)") << QByteArray("é\xF0\x9F\x98\x80");
        QTest::newRow("not a byte stays") << QByteArray(R"(\777)") << QByteArray(R"(\777)");
        QTest::newRow("unknown escape stays") << QByteArray(R"(\q\)") << QByteArray(R"(\q\)");
        QTest::newRow("no hex digit stays") << QByteArray(R"(\xg)") << QByteArray(R"(\xg)");
    }
    void unescapeC()
    {
        QFETCH(QByteArray, escaped);
        QFETCH(QByteArray, text);
        const std::string out = safetext::unescapeC(escaped.toStdString());
        QCOMPARE(QByteArray(out.data(), qsizetype(out.size())), text);
    }

    // op_name, op_type and source_file are decoded by the parser with the same function as the
    // stack-frame tables: the hostile dump's op_name reads "café" where XLA wrote caf\303\251.
    void parserDecodesMetadata()
    {
        const testutil::Loaded l = testutil::loadText(
            testutil::readFile(hostile("escapes").toStdString()), "escapes-buffer-assignment.txt");
        bool found = false;
        for (const Instruction &ins : l.dump->instructions) {
            if (ins.opName == kNoString)
                continue;
            const std::string_view name = l.dump->str(ins.opName);
            if (!name.starts_with("=HYPERLINK"))
                continue;
            found = true;
            QVERIFY(name.find("\x1b]0;PWNED\a\r\nFORGED") != std::string_view::npos);
            QVERIFY(name.find("\xE2\x80\xAE"
                              "caf\xC3\xA9\xFF") != std::string_view::npos);
            QVERIFY(name.ends_with(std::string_view("\0end", 4)));
            QCOMPARE(std::string(l.dump->str(ins.opType)), std::string("+cmd|\x1b[2J@SUM(1)"));
        }
        QVERIFY(found);
    }

    // A warning quotes at most 80 bytes of a line, cut between characters (issue 34: "3×c128"
    // was cut after half of its ×, and the text report was not UTF-8).
    void warningExcerptsAreUtf8()
    {
        std::string text = testutil::readFile(testutil::samplePath("tpu_dynamic_slice"));
        const std::string line = std::string(79, 'a') + "×c128 and more\n"; // × is bytes 80-81
        text.insert(text.find("allocation 0:"), line);
        const testutil::Loaded l = testutil::loadText(text);
        bool quoted = false;
        for (const Diagnostic &w : l.dump->warnings) {
            QCOMPARE(safetext::validUtf8(w.message), w.message);
            quoted = quoted || w.message.find(std::string(79, 'a') + "…") != std::string::npos;
        }
        QVERIFY(quoted);
    }

    void terminalText_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("plain") << QByteArray("fusion.12 café") << QByteArray("fusion.12 café");
        QTest::newRow("ESC BEL") << QByteArray("a\x1b]0;t\x07") << QByteArray("a\\x1b]0;t\\x07");
        QTest::newRow("CR LF TAB") << QByteArray("a\r\n\tb") << QByteArray("a\\x0d\\x0a\\x09b");
        QTest::newRow("DEL and NUL") << QByteArray("a\x7f\0b", 4) << QByteArray("a\\x7f\\x00b");
        QTest::newRow("C1 CSI") << QByteArray("a\xC2\x9B"
                                              "2J")
                                << QByteArray("a\\u{009b}2J");
        QTest::newRow("RLO") << QByteArray("a\xE2\x80\xAE"
                                           "b")
                             << QByteArray("a\\u{202e}b");
        QTest::newRow("isolate") << QByteArray("a\xE2\x81\xA6"
                                               "b")
                                 << QByteArray("a\\u{2066}b");
        QTest::newRow("ill-formed") << QByteArray("a\xff\xC3") << QByteArray("a\\xff\\xc3");
    }
    void terminalText()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, shown);
        const std::string out = safetext::forTerminal(text.toStdString());
        QCOMPARE(QByteArray(out.data(), qsizetype(out.size())), shown);
    }

    // OWASP: a text cell starting = + - @ TAB CR gets a leading '; numbers stay numbers; the
    // file is UTF-8 without NUL.
    void csvCells_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("cell");
        QTest::newRow("formula") << QByteArray("=HYPERLINK(\"x\")")
                                 << QByteArray("\"'=HYPERLINK(\"\"x\"\")\"");
        QTest::newRow("plus") << QByteArray("+cmd|x") << QByteArray("'+cmd|x");
        QTest::newRow("minus text") << QByteArray("-x") << QByteArray("'-x");
        QTest::newRow("at") << QByteArray("@SUM(1)") << QByteArray("'@SUM(1)");
        QTest::newRow("tab") << QByteArray("\t=1") << QByteArray("'\t=1");
        QTest::newRow("cr") << QByteArray("\r=1") << QByteArray("\"'\r=1\"");
        QTest::newRow("negative number") << QByteArray("-512") << QByteArray("-512");
        QTest::newRow("signed float") << QByteArray("+1.5e3") << QByteArray("+1.5e3");
        QTest::newRow("inner equals") << QByteArray("a=b") << QByteArray("a=b");
        QTest::newRow("ill-formed") << QByteArray("a\xff"
                                                  "b")
                                    << QByteArray("a\xEF\xBF\xBD"
                                                  "b");
        QTest::newRow("NUL") << QByteArray("a\0b", 3) << QByteArray("ab");
    }
    void csvCells()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, cell);
        CsvWriter csv;
        csv.field(std::string_view(text.constData(), std::size_t(text.size())));
        QCOMPARE(QByteArray::fromStdString(csv.str()), cell);
        CsvWriter number;
        number.field(std::int64_t(-5));
        QCOMPARE(QByteArray::fromStdString(number.str()), QByteArray("-5"));
    }

    // `report` and `diff` print names as text: nothing in the hostile op_name reaches the
    // terminal as a control, and the forged line stays inside its row.
    void reportIsTerminalSafe()
    {
        for (const QStringList &args :
             {QStringList{QStringLiteral("report"), hostile("escapes")},
              QStringList{QStringLiteral("report"), hostile("escapes"), QStringLiteral("--value"),
                          QStringLiteral("531")},
              QStringList{QStringLiteral("diff"), hostile("escapes"), hostile("escapes")}}) {
            const testutil::CliRun r = testutil::runBufferscope(args);
            QCOMPARE(r.code, 0);
            verifyTerminalSafe(r.out);
            verifyTerminalSafe(r.err);
            QVERIFY(r.out.contains(
                        "\\x1b]0;PWNED\\x07\\x0d\\x0aFORGED peak 0B\\u{202e}café\\xff\\x00end") ||
                    args.contains(QStringLiteral("--value")) ||
                    args.first() == QLatin1String("diff"));
            for (const QByteArray &line : r.out.split('\n'))
                QVERIFY2(!line.startsWith("FORGED"), "a name started a line of its own");
        }
        // JSON keeps the decoded text, escaped as JSON.
        const testutil::CliRun json = testutil::runBufferscope(
            {QStringLiteral("report"), hostile("escapes"), QStringLiteral("--json")});
        QCOMPARE(json.code, 0);
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(json.out, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(json.out.contains("\\u001b]0;PWNED\\u0007\\r\\nFORGED peak 0B\xE2\x80\xAE"
                                  "café"));
    }

    // `list` prints module names, which are file names another person chose.
    void listIsTerminalSafe()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString name =
            dir.filePath(QStringLiteral("evil\x1b]0;PWNED\x07-buffer-assignment.txt"));
        QVERIFY(QFile::copy(hostile("escapes"), name));
        const testutil::CliRun r = testutil::runBufferscope({QStringLiteral("list"), dir.path()});
        QCOMPARE(r.code, 0);
        verifyTerminalSafe(r.out);
        QVERIFY(r.out.contains("evil\\x1b]0;PWNED\\x07"));
    }

    // A 40,000-segment op_name: the tree stops at kMaxDepth, the rest one node, with a warning;
    // `report` and a headless export finish at once (before: SIGSEGV after 15 s and 3.3 GB).
    void deepOpName()
    {
        const testutil::Loaded l =
            testutil::loadText(testutil::readFile(hostile("deep-opname").toStdString()),
                               "deep-opname-buffer-assignment.txt");
        // Values 531 and 532 (loop_broadcast_select_fusion) carry it and are live at step 68.
        const Breakdown b = Breakdown::compute(*l.dump, 68, 0);
        QCOMPARE(b.cutValues, std::int64_t(2));
        QVERIFY(depthOf(b.opNameTree) <= Breakdown::kMaxDepth + 2);
        const BreakdownNode *n = &b.opNameTree;
        for (std::size_t level = 0; level < Breakdown::kMaxDepth - 1; ++level) {
            auto it = std::find_if(n->children.begin(), n->children.end(),
                                   [](const BreakdownNode &c) { return c.label == "a"; });
            QVERIFY2(it != n->children.end(), qPrintable(QString::number(level)));
            n = &*it;
        }
        QCOMPARE(n->children.size(), std::size_t(1));
        const BreakdownNode &rest = n->children.front();
        // 40,001 segments (40,000 "a" and "end"): 63 shown, 39,938 in the last node.
        QVERIFY2(rest.label.starts_with("⋯ 39938 more segments: a/a/"), rest.label.c_str());
        QVERIFY(rest.label.size() <= Breakdown::kMaxLabelBytes + 3);
        QVERIFY(rest.path.size() <= Breakdown::kMaxPathBytes + 3);
        QCOMPARE(rest.bytes, std::int64_t(128));
        bool warned = false;
        for (const Diagnostic &w : l.timeline->warnings())
            warned = warned || w.message.find("more than 64 segments (the deepest, 40001") !=
                                   std::string::npos;
        QVERIFY(warned);

        const testutil::CliRun r =
            testutil::runBufferscope({QStringLiteral("report"), hostile("deep-opname")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("1 op_name(s) have more than 64 segments"));
    }

    // 2000 values on a 1000-frame chain, each value's innermost frame a step further down:
    // the top-down tree shares the callers (a chain), the bottom-up tree has one path per
    // stack; before, it held values x depth nodes (diff A A: 18 s, 2 GB).
    void deepStacks_data()
    {
        QTest::addColumn<int>("frames");
        QTest::addColumn<bool>("ownLeaves");
        // Value v's innermost frame is 1000 - v % 1000 of one chain: 1000 distinct stacks.
        QTest::newRow("values down one chain") << 1000 << false;
        // Every value its own innermost frame under a 999-frame chain: 2000 stacks 1000 deep
        // (the issue's input; before: diff A A 13 s and 1.9 GB, 2 million bottom-up nodes).
        QTest::newRow("a leaf per value") << 999 << true;
    }
    void deepStacks()
    {
        QFETCH(int, frames);
        QFETCH(bool, ownLeaves);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string stem = dir.path().toStdString() + "/chain";
        constexpr int kValues = 2000;
        writeChainDump(stem, kValues, frames, ownLeaves);
        const LoadResult r = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.dump->stackFrames.size(), std::size_t(frames + (ownLeaves ? kValues : 0)));
        BreakdownOptions options;
        options.callStacks = true;
        const Breakdown b = Breakdown::compute(*r.dump, kValues - 1, 0, options);
        QCOMPARE(b.valueCount, std::int64_t(kValues));
        QCOMPARE(b.callersTree.bytes, std::int64_t(kValues * 16));
        QCOMPARE(b.calleesTree.bytes, std::int64_t(kValues * 16));
        QVERIFY(depthOf(b.callersTree) <= Breakdown::kMaxDepth + 3);
        QVERIFY(depthOf(b.calleesTree) <= Breakdown::kMaxDepth + 3);
        // Each stack adds at most its cut depth and one "more frames" node to the bottom-up
        // tree, and the depth is cut to keep within the budget.
        const std::size_t stacks = ownLeaves ? kValues : std::size_t(frames);
        const std::size_t down = nodesOf(b.callersTree);
        const std::size_t up = nodesOf(b.calleesTree);
        QVERIFY2(up <= std::max(Breakdown::kBottomUpNodes, down) + stacks + 1,
                 qPrintable(QStringLiteral("%1 nodes bottom-up, %2 top-down").arg(up).arg(down)));
        // The bottom-up roots are the innermost frames, each with the bytes of its values.
        QCOMPARE(b.calleesTree.children.size(), stacks);
        for (const BreakdownNode &root : b.calleesTree.children)
            QCOMPARE(root.bytes, std::int64_t(kValues / stacks * 16));
        if (ownLeaves) {
            // 2000 stacks in 20,000 nodes: 10 frames shown, then the other 990.
            const BreakdownNode *n = &b.calleesTree.children.front();
            for (int level = 1; level < 10; ++level) {
                QCOMPARE(n->children.size(), std::size_t(1));
                n = &n->children.front();
            }
            QCOMPARE(n->children.size(), std::size_t(1));
            QCOMPARE(n->children.front().label, std::string("⋯ 990 more frames"));
            // Top-down, the chain is shared: its first 64 frames, then the rest as one node
            // under which every value's instruction sits.
            QVERIFY2(down < 64 + 2 * kValues + 10, qPrintable(QString::number(down)));
        }

        const testutil::CliRun diff = testutil::runBufferscope(
            {QStringLiteral("diff"), QString::fromStdString(stem + "-buffer-assignment.txt"),
             QString::fromStdString(stem + "-buffer-assignment.txt")});
        QCOMPARE(diff.code, 0);
    }

    // A FIFO named like a dump: refused at once with what it is (before: report, export and
    // diff waited for a writer forever). The same for the sibling `<stem>.txt`.
    // A file name is bytes: one that is not UTF-8 (ff fe) keeps them from the command line to
    // the open, through every command. Before, Qt turned them into U+FFFD and `report` said
    // the file did not exist.
    void fileNamesAreBytes()
    {
        const std::string raw = "\xff\xfe-buffer-assignment.txt";
        const QString kept = pathFromBytes(raw);
        QCOMPARE(pathBytes(kept), raw);
        QCOMPARE(pathBytes(pathFromBytes("caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80")),
                 std::string("caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80"));
        QCOMPARE(pathFromBytes("caf\xc3\xa9"), QStringLiteral("caf\u00e9"));
        // Overlong, surrogate and cut sequences are bytes, each kept.
        for (const std::string &odd : {std::string("\xc0\xaf"), std::string("\xed\xa0\x80"),
                                       std::string("a\xe2\x82"), std::string("\xf5\x80")})
            QCOMPARE(pathBytes(pathFromBytes(odd)), odd);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = pathBytes(dir.path()) + "/" + raw;
        // Written by its bytes: QFile would encode the name as UTF-8 too.
        {
            std::FILE *out = std::fopen(path.c_str(), "wb");
            QVERIFY(out);
            QFile in(hostile("escapes"));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray bytes = in.readAll();
            QCOMPARE(std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), out),
                     static_cast<std::size_t>(bytes.size()));
            std::fclose(out);
        }
        // The name is given as its bytes by the shell (QProcess would encode it as UTF-8).
        for (const QString &command :
             {QStringLiteral("report"), QStringLiteral("report --json"), QStringLiteral("diff"),
              QStringLiteral("fit --limit 1GiB")}) {
            QProcess p;
            p.setWorkingDirectory(dir.path());
            const QString twice =
                command == QLatin1String("diff") ? QStringLiteral(" \"$f\"") : QString();
            p.start(
                QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"),
                 QStringLiteral("f=$(printf '\\377\\376-buffer-assignment.txt'); exec \"$0\" ") +
                     command.section(QLatin1Char(' '), 0, 0) + QStringLiteral(" \"$f\"") + twice +
                     QLatin1Char(' ') + command.section(QLatin1Char(' '), 1),
                 QStringLiteral(BUFFERSCOPE_BINARY)});
            QVERIFY(p.waitForFinished(300000));
            const QByteArray err = p.readAllStandardError();
            const QByteArray said = command.toUtf8() + ": " + err;
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, said.constData());
            QVERIFY2(!p.readAllStandardOutput().isEmpty(), command.toUtf8().constData());
        }
        QCOMPARE(std::remove(path.c_str()), 0); // QTemporaryDir cannot name it either
    }

    void fifoIsRefused()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string fifo = dir.path().toStdString() + "/m-buffer-assignment.txt";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        MappedFile map;
        std::string error;
        QVERIFY(!map.open(fifo, error));
        QCOMPARE(error, std::string("is a FIFO (a named pipe), not a dump file"));
        // A call-stack frame that names it: the Source dock's reader refuses it at once too.
        QElapsedTimer excerptClock;
        excerptClock.start();
        const SourceExcerpt excerpt = readExcerpt(fifo, 1, 3);
        QVERIFY(excerptClock.elapsed() < 5000);
        QCOMPARE(excerpt.error, "cannot open " + fifo + ": not a regular file");
        for (const QString &command : {QStringLiteral("report"), QStringLiteral("diff")}) {
            QElapsedTimer clock;
            clock.start();
            QStringList args{command, QString::fromStdString(fifo)};
            if (command == QLatin1String("diff"))
                args << QString::fromStdString(fifo);
            const testutil::CliRun r = testutil::runBufferscope(args);
            QVERIFY2(clock.elapsed() < 5000, "waited on the FIFO");
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("m-buffer-assignment.txt: is a FIFO (a named pipe), not a "
                                    "dump file"),
                     r.err.constData());
        }
        // A FIFO as the optimized HLO beside a real dump is passed over; the dump loads.
        const std::string stem = dir.path().toStdString() + "/n";
        testutil::writeFile(stem + "-buffer-assignment.txt",
                            testutil::readFile(testutil::samplePath("tpu_unstack")));
        QCOMPARE(::mkfifo((stem + ".txt").c_str(), 0600), 0);
        const LoadResult r = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.dump->files.size(), std::size_t(1));
    }

    // A mapped file cut short: the pages past its new end read as zeros instead of SIGBUS, and
    // MappedFile says so.
    void mappedFileShrinks()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.path().toStdString() + "/big.txt";
        testutil::writeFile(path, std::string(std::size_t(8) << 20, 'x'));
        MappedFile map;
        std::string error;
        QVERIFY2(map.open(path, error), error.c_str());
        QCOMPARE(map.shrank(), std::int64_t(-1));
        QCOMPARE(map.data()[5 << 20], 'x');
        QCOMPARE(::truncate(path.c_str(), 100), 0);
        volatile char past = map.data()[6 << 20]; // SIGBUS without the guard
        QCOMPARE(past, '\0');
        QCOMPARE(map.data()[50], 'x');
        QCOMPARE(map.shrank(), std::int64_t(100));
    }

    // A dump truncated while it loads (the load's progress callback cuts it after its first
    // MiB): a clean error naming the file, on one thread and on several (before: SIGBUS).
    void dumpShrinksWhileLoading()
    {
        for (const int threads : {1, 2}) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            const std::string stem = dir.path().toStdString() + "/cut";
            writeChainDump(stem, 60000, 10);
            const std::string path = stem + "-buffer-assignment.txt";
            QVERIFY(QFileInfo(QString::fromStdString(path)).size() > (4 << 20));
            ParseOptions options;
            options.threads = threads;
            bool cut = false;
            options.progress = [&](std::int64_t done, std::int64_t) {
                if (!cut && done > 0) {
                    cut = true;
                    QCOMPARE(::truncate(path.c_str(), 4096), 0);
                }
            };
            const LoadResult r = ModuleReader::loadPath(path, options);
            QVERIFY(cut);
            QVERIFY(!r.ok());
            QVERIFY2(r.error.find("cut-buffer-assignment.txt: the file shrank while it was being "
                                  "read (from ") != std::string::npos,
                     r.error.c_str());
            QVERIFY2(r.error.find(" to 4096): it is still being written") != std::string::npos,
                     r.error.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestUntrusted)
#include "tst_untrusted.moc"
