// Call stacks of 2026 dumps (issue 16): the stack-frame tables of the module's optimized HLO
// text `<stem>.txt`, read beside the buffer assignment (docs/FORMAT.md Part B §13).
//
// The fixtures are made here from the real samples, following XLA's printing code
// (`HloModule::PrintStackFrameIndex`): every `source_file="F" source_line=L` in an instruction's
// metadata becomes `stack_frame_id=K`, where frame K is `op_fn` at F:L (column 7), called from
// `train_step` at /workspace/train.py:20 (column 5), called from `main` at
// /workspace/train.py:10 (column 1). The tables go into `<stem>.txt` after an `HloModule` line,
// followed by a computation, as XLA writes them; the dump is written in the single-file layout
// and in the 2026 three-file split.
#include "CliRun.h"
#include "DumpCompare.h"
#include "DumpText.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/SourceFrames.h"
#include "open/ModuleReader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <map>

using namespace bufferscope;
using namespace testutil;

namespace {

const char *const kSamples[] = {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                                "tpu_random_normal", "tpu_dynamic_slice"};

struct Converted
{
    std::string dump; ///< the buffer assignment, frames instead of inline sources
    std::string hlo;  ///< the sibling `<stem>.txt`
    std::map<std::pair<std::string, std::int64_t>, int> frameOf; ///< (file, line) -> frame id
};

Converted convert(const std::string &original, const std::string &module)
{
    Converted c;
    // Every `source_file="F" source_line=L` (the two always come together in the samples).
    const std::string fileKey = "source_file=\"", lineKey = "\" source_line=";
    std::vector<std::pair<std::string, std::int64_t>> places;
    std::string out;
    std::size_t last = 0;
    for (std::size_t at = original.find(fileKey); at != std::string::npos;
         at = original.find(fileKey, last)) {
        const std::size_t fileEnd = original.find(lineKey, at + fileKey.size());
        const std::size_t quote = original.find('"', at + fileKey.size());
        if (fileEnd == std::string::npos || quote != fileEnd)
            qFatal("a source_file without its source_line in the sample");
        std::size_t digits = fileEnd + lineKey.size();
        while (digits < original.size() &&
               std::isdigit(static_cast<unsigned char>(original[digits])))
            ++digits;
        const std::pair<std::string, std::int64_t> place{
            original.substr(at + fileKey.size(), fileEnd - at - fileKey.size()),
            std::stoll(
                original.substr(fileEnd + lineKey.size(), digits - fileEnd - lineKey.size()))};
        auto [frame, added] = c.frameOf.try_emplace(place, 3 + static_cast<int>(places.size()));
        if (added)
            places.push_back(place);
        out += original.substr(last, at - last);
        out += "stack_frame_id=" + std::to_string(frame->second);
        last = digits;
    }
    out += original.substr(last);
    c.dump = out;
    // The tables, 1-based, as PrintStackFrameIndex prints them.
    std::vector<std::string> files = {"/workspace/train.py"};
    for (const auto &p : places)
        if (std::find(files.begin(), files.end(), p.first) == files.end())
            files.push_back(p.first);
    const auto fileId = [&files](const std::string &f) {
        return std::find(files.begin(), files.end(), f) - files.begin() + 1;
    };
    std::string h = "HloModule " + module + ", is_scheduled=true\n\nFileNames\n";
    for (std::size_t i = 0; i < files.size(); ++i)
        h += std::to_string(i + 1) + " \"" + files[i] + "\"\n";
    h += "\nFunctionNames\n1 \"main\"\n2 \"train_step\"\n3 \"op_fn\"\n";
    h += "\nFileLocations\n";
    h += "1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=1 end_column=9}\n";
    h += "2 {file_name_id=1 function_name_id=2 line=20 end_line=20 column=5 end_column=30}\n";
    for (std::size_t i = 0; i < places.size(); ++i)
        h += std::to_string(i + 3) + " {file_name_id=" + std::to_string(fileId(places[i].first)) +
             " function_name_id=3 line=" + std::to_string(places[i].second) +
             " end_line=" + std::to_string(places[i].second) + " column=7 end_column=40}\n";
    // The printed parent is the caller's id plus one: 1 for none.
    h += "\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n"
         "2 {file_location_id=2 parent_frame_id=2}\n";
    for (std::size_t i = 0; i < places.size(); ++i)
        h += std::to_string(i + 3) + " {file_location_id=" + std::to_string(i + 3) +
             " parent_frame_id=3}\n";
    h += "\n\nENTRY %main.1 (p: f32[4]) -> f32[4] {\n  ROOT %p = f32[4]{0} parameter(0), "
         "metadata={op_name=\"x\" stack_frame_id=3}\n}\n\n";
    c.hlo = h;
    return c;
}

std::vector<std::pair<std::string, std::int64_t>> bySourceAtPeak(const Dump &d)
{
    const auto t = MemoryTimeline::compute(d);
    const Breakdown b = Breakdown::compute(d, t->primary()->peak.step, t->primary()->memorySpace);
    std::vector<std::pair<std::string, std::int64_t>> rows;
    for (const BreakdownRow &r : b.bySource)
        rows.emplace_back(r.key, r.bytes);
    return rows;
}

/// Writes `sample` converted (single-file layout, with its `<stem>.txt`) into a temporary
/// folder; returns the buffer assignment's path.
std::string writeConverted(const QTemporaryDir &dir, const char *sample, const std::string &module)
{
    const Converted c = convert(readFile(samplePath(sample)), module);
    const std::string stem = dir.path().toStdString() + "/" + module;
    writeFile(stem + "-buffer-assignment.txt", c.dump);
    writeFile(stem + ".txt", c.hlo);
    return stem + "-buffer-assignment.txt";
}

LoadResult loadConverted(const QTemporaryDir &dir, const char *sample, const std::string &module)
{
    const std::string path = writeConverted(dir, sample, module);
    return LOAD_EVERY_WAY(ModuleReader::loadPath(path, options_));
}

const BreakdownNode *childWithPath(const BreakdownNode &n, const std::string &path)
{
    for (const BreakdownNode &c : n.children)
        if (c.path == path)
            return &c;
    return nullptr;
}

std::int64_t sumOfChildren(const BreakdownNode &n)
{
    std::int64_t sum = 0;
    for (const BreakdownNode &c : n.children)
        sum += c.bytes;
    return sum;
}

} // namespace

class TestCallStacks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void convertedSamples_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<bool>("split");
        for (const char *s : kSamples) {
            QTest::newRow(qPrintable(QStringLiteral("%1 single").arg(QLatin1String(s))))
                << QString::fromLatin1(s) << false;
            QTest::newRow(qPrintable(QStringLiteral("%1 split").arg(QLatin1String(s))))
                << QString::fromLatin1(s) << true;
        }
    }

    void convertedSamples()
    {
        QFETCH(QString, sample);
        QFETCH(bool, split);
        const std::string original = readFile(samplePath(qPrintable(sample)));
        LoadResult before = ModuleReader::loadPath(samplePath(qPrintable(sample)));
        QVERIFY(before.ok());
        const std::string module = "module_0042.jit_train_step";
        const Converted c = convert(original, module);
        QTemporaryDir dir;
        const std::string stem = dir.path().toStdString() + "/" + module;
        if (split) {
            const auto totalAt = c.dump.find("\nTotal bytes used:");
            const auto rangeAt = c.dump.find("HloLiveRange (max");
            writeFile(stem + "-buffer-assignment.txt", c.dump.substr(0, totalAt + 1));
            std::string values = c.dump.substr(totalAt, rangeAt - totalAt);
            while (values.ends_with("\n\n"))
                values.pop_back();
            writeFile(stem + "-buffer-assignment-values.txt", values);
            writeFile(stem + "-live-range.txt", c.dump.substr(rangeAt));
        } else {
            writeFile(stem + "-buffer-assignment.txt", c.dump);
        }
        writeFile(stem + ".txt", c.hlo);
        LoadResult after = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
        QVERIFY2(after.ok(), after.error.c_str());
        const Dump &d = *after.dump;
        QVERIFY2(d.warnings.empty(),
                 d.warnings.empty() ? "" : d.diagnosticText(d.warnings[0]).c_str());
        QCOMPARE(d.stackFrames.size(), c.frameOf.size() + 2);
        // The by-source breakdown at the peak is the original's.
        QCOMPARE(bySourceAtPeak(d), bySourceAtPeak(*before.dump));
        // Every value whose instruction had an inline source carries the stack built for it.
        int checked = 0;
        for (std::uint32_t i = 0; i < d.values.size(); ++i) {
            const Instruction *was = before.dump->instructionOf(before.dump->values[i]);
            const Instruction *now = d.instructionOf(d.values[i]);
            if (!was || was->sourceFile == kNoString)
                continue;
            QVERIFY(now);
            const std::vector<const StackFrame *> stack = d.stackOf(*now);
            QCOMPARE(stack.size(), std::size_t(3));
            QCOMPARE(d.str(stack[0]->file), before.dump->str(was->sourceFile));
            QCOMPARE(static_cast<std::int64_t>(stack[0]->line), was->sourceLine);
            QCOMPARE(stack[0]->column, 7);
            QCOMPARE(d.str(stack[0]->function), std::string_view("op_fn"));
            QCOMPARE(d.str(stack[1]->function), std::string_view("train_step"));
            QCOMPARE(stack[1]->line, 20);
            QCOMPARE(d.str(stack[2]->function), std::string_view("main"));
            QCOMPARE(d.str(stack[2]->file), std::string_view("/workspace/train.py"));
            QCOMPARE(stack[2]->line, 10);
            QCOMPARE(d.sourceLocation(*now), before.dump->sourceLocation(*was));
            ++checked;
        }
        QVERIFY(checked > 0 || c.frameOf.empty());
    }

    void callStackTrees_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char *s : kSamples)
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    void callStackTrees()
    {
        // Every converted stack is op_fn at the original source line, called from train_step
        // (/workspace/train.py:20), called from main (/workspace/train.py:10). So top-down,
        // the root holds main (every value that had a source) and "(no call stack)" (those
        // that had none); main's only callee is train_step, whose callees are the original's
        // by-source rows. Bottom-up, the root holds those rows, each called by train_step,
        // called by main. The original's rows come from its inline fields, not from stacks.
        QFETCH(QString, sample);
        const LoadResult before = ModuleReader::loadPath(samplePath(qPrintable(sample)));
        QVERIFY(before.ok());
        QTemporaryDir dir;
        const LoadResult after = loadConverted(dir, qPrintable(sample), "module_0010.jit_t");
        QVERIFY2(after.ok(), after.error.c_str());
        const auto t = MemoryTimeline::compute(*after.dump);
        const std::int64_t step = t->primary()->peak.step;
        const std::int32_t space = t->primary()->memorySpace;
        const Breakdown original = Breakdown::compute(*before.dump, step, space);
        BreakdownOptions options;
        options.callStacks = true;
        const Breakdown b = Breakdown::compute(*after.dump, step, space, options);
        QCOMPARE(b.bytes, original.bytes);
        for (const BreakdownNode *root : {&b.callersTree, &b.calleesTree}) {
            QCOMPARE(root->bytes, b.bytes);
            QCOMPARE(sumOfChildren(*root), b.bytes);
        }
        std::int64_t sourced = 0, sourcedValues = 0;
        for (const BreakdownRow &r : original.bySource) {
            if (r.key == Breakdown::kNoSource) {
                for (const BreakdownNode *root : {&b.callersTree, &b.calleesTree}) {
                    const BreakdownNode *none = childWithPath(*root, Breakdown::kNoStack);
                    QVERIFY(none);
                    QCOMPARE(none->bytes, r.bytes);
                    QCOMPARE(none->values, r.values);
                }
                continue;
            }
            sourced += r.bytes;
            sourcedValues += r.values;
            const std::string frame = "op_fn (" + r.key + ")";
            const BreakdownNode *inner = childWithPath(b.calleesTree, frame);
            QVERIFY2(inner, frame.c_str());
            QCOMPARE(inner->bytes, r.bytes);
            QCOMPARE(inner->values, r.values);
            QCOMPARE(inner->members, r.members);
            QCOMPARE(inner->children.size(), std::size_t(1));
            const BreakdownNode &caller = inner->children[0];
            QCOMPARE(caller.path, std::string("train_step (/workspace/train.py:20)"));
            QCOMPARE(caller.label, std::string("train_step · train.py:20"));
            QCOMPARE(caller.bytes, r.bytes);
            QCOMPARE(caller.children.size(), std::size_t(1));
            QCOMPARE(caller.children[0].path, std::string("main (/workspace/train.py:10)"));
            QVERIFY(caller.children[0].children.empty());
        }
        const BreakdownNode *main = childWithPath(b.callersTree, "main (/workspace/train.py:10)");
        QCOMPARE(main != nullptr, sourced > 0);
        if (!main)
            return;
        QCOMPARE(main->bytes, sourced);
        QCOMPARE(main->values, sourcedValues);
        QCOMPARE(main->children.size(), std::size_t(1));
        const BreakdownNode &trainStep = main->children[0];
        QCOMPARE(trainStep.bytes, sourced);
        std::size_t frames = 0;
        for (const BreakdownRow &r : original.bySource)
            frames += r.key != Breakdown::kNoSource;
        QCOMPARE(trainStep.children.size(), frames);
        for (const BreakdownNode &op : trainStep.children) {
            QVERIFY(op.frame >= 0);
            const StackFrame &f = b.frames[static_cast<std::size_t>(op.frame)];
            QCOMPARE(after.dump->str(f.function), std::string_view("op_fn"));
            QCOMPARE(f.column, 7);
            // Below the innermost frame, its values' instructions, adding up to it.
            QVERIFY(!op.children.empty());
            QCOMPARE(sumOfChildren(op), op.bytes);
            for (const BreakdownNode &leaf : op.children)
                QVERIFY(leaf.instructions);
        }
    }

    void bySourceSkipsLibraryFrames()
    {
        // gpu_decoder_layer's sources are all under site-packages (torch/_ops.py,
        // torch_xla/_dynamo/dynamo_bridge.py, torch/_higher_order_ops/…): with the default
        // library patterns every one of its values shows at its caller in the user's code,
        // train_step at /workspace/train.py:20; the values without a source stay apart.
        // gpu_vllm_update_slice's sources are the user's own (/code/…/vllm/…): unchanged.
        const LoadResult decoder = ModuleReader::loadPath(samplePath("gpu_decoder_layer"));
        QVERIFY(decoder.ok());
        QTemporaryDir dir;
        const LoadResult converted = loadConverted(dir, "gpu_decoder_layer", "module_0011.jit_d");
        QVERIFY(converted.ok());
        const auto t = MemoryTimeline::compute(*decoder.dump);
        const std::int64_t step = t->primary()->peak.step;
        const Breakdown original = Breakdown::compute(*decoder.dump, step, 0);
        BreakdownOptions options;
        options.libraryPatterns = defaultLibraryPatterns();
        const Breakdown user = Breakdown::compute(*converted.dump, step, 0, options);
        std::int64_t sourced = 0, none = 0;
        for (const BreakdownRow &r : original.bySource)
            (r.key == Breakdown::kNoSource ? none : sourced) += r.bytes;
        QVERIFY(sourced > 0);
        std::vector<std::pair<std::string, std::int64_t>> rows;
        for (const BreakdownRow &r : user.bySource)
            rows.emplace_back(r.key, r.bytes);
        std::vector<std::pair<std::string, std::int64_t>> expected{
            {"/workspace/train.py:20", sourced}};
        if (none > 0)
            expected.emplace_back(Breakdown::kNoSource, none);
        std::sort(rows.begin(), rows.end());
        std::sort(expected.begin(), expected.end());
        QCOMPARE(rows, expected);
        // The same patterns on the original: a one-frame stack shows its only frame.
        QCOMPARE(Breakdown::compute(*decoder.dump, step, 0, options).bySource.size(),
                 original.bySource.size());

        const LoadResult vllm = loadConverted(dir, "gpu_vllm_update_slice", "module_0012.jit_v");
        QVERIFY(vllm.ok());
        const auto tv = MemoryTimeline::compute(*vllm.dump);
        const std::int64_t vstep = tv->primary()->peak.step;
        const auto keys = [](const Breakdown &b) {
            std::vector<std::pair<std::string, std::int64_t>> out;
            for (const BreakdownRow &r : b.bySource)
                out.emplace_back(r.key, r.bytes);
            return out;
        };
        QCOMPARE(keys(Breakdown::compute(*vllm.dump, vstep, 0, options)),
                 keys(Breakdown::compute(*vllm.dump, vstep, 0)));
    }

    void inlineSourcesAreOneFrameStacks()
    {
        // An older dump: each inline source_file:source_line is a frame with no function and
        // no caller, so top-down and bottom-up both list the by-source rows.
        const LoadResult d = ModuleReader::loadPath(samplePath("tpu_random_normal"));
        QVERIFY(d.ok());
        const auto t = MemoryTimeline::compute(*d.dump);
        BreakdownOptions options;
        options.callStacks = true;
        const Breakdown b = Breakdown::compute(*d.dump, t->primary()->peak.step,
                                               t->primary()->memorySpace, options);
        for (const BreakdownRow &r : b.bySource) {
            const std::string path = r.key == Breakdown::kNoSource ? Breakdown::kNoStack : r.key;
            for (const BreakdownNode *root : {&b.callersTree, &b.calleesTree}) {
                const BreakdownNode *n = childWithPath(*root, path);
                QVERIFY2(n, path.c_str());
                QCOMPARE(n->bytes, r.bytes);
            }
        }
        QCOMPARE(b.callersTree.children.size(), b.bySource.size());
        const BreakdownNode *tpu = childWithPath(b.callersTree, "/home/ptoulme/tpu.py:83");
        QVERIFY(tpu);
        QCOMPARE(tpu->label, std::string("tpu.py:83"));
    }

    void pathMappings()
    {
        const std::vector<PathMapping> m{{"/home/alice/proj", "~/src/proj"},
                                         {"/home/alice/proj/vendor/", "/opt/vendor"},
                                         {"/home/al", "/nowhere"}};
        using V = std::vector<std::string>;
        QCOMPARE(localCandidates("/home/alice/proj/model.py", m, "/home/bob"),
                 (V{"/home/bob/src/proj/model.py", "/home/alice/proj/model.py"}));
        // The longest prefix first; a prefix must end at a directory boundary.
        QCOMPARE(localCandidates("/home/alice/proj/vendor/x/y.py", m, "/home/bob"),
                 (V{"/opt/vendor/x/y.py", "/home/bob/src/proj/vendor/x/y.py",
                    "/home/alice/proj/vendor/x/y.py"}));
        QCOMPARE(localCandidates("/home/alice2/a.py", m, "/h"), (V{"/home/alice2/a.py"}));
        // A relative file is looked for next to the dump, never in the current folder (issue
        // 33: a file named "+call system(...)" there reached vim as an option).
        QCOMPARE(localCandidates("relative.py", {}, "/h"), V{});
        QCOMPARE(localCandidates("relative.py", {}, "/h", "/dumps/run1"),
                 (V{"/dumps/run1/relative.py"}));
        QCOMPARE(localCandidates("-x.py", {}, "/h", "/d/"), (V{"/d/-x.py"}));
        QCOMPARE(localCandidates("src/a.py", {{"src", "lib"}}, "/h", "/d"),
                 (V{"/d/lib/a.py", "/d/src/a.py"}));
    }

    void excerpts()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/m.py";
        std::string text;
        for (int i = 1; i <= 30; ++i)
            text += "line " + std::to_string(i) + (i % 2 ? "\r\n" : "\n");
        writeFile(path, text);
        SourceExcerpt e = readExcerpt(path, 10, 3);
        QVERIFY2(e.error.empty(), e.error.c_str());
        QCOMPARE(e.firstLine, 7);
        QCOMPARE(e.lines, (std::vector<std::string>{"line 7", "line 8", "line 9", "line 10",
                                                    "line 11", "line 12", "line 13"}));
        // Near the ends, what there is.
        e = readExcerpt(path, 2, 3);
        QCOMPARE(e.firstLine, 1);
        QCOMPARE(e.lines.size(), std::size_t(5));
        e = readExcerpt(path, 30, 3);
        QCOMPARE(e.lines.back(), std::string("line 30"));
        QCOMPARE(e.lines.size(), std::size_t(4));
        // A line the file does not have: the file changed since the compile.
        e = readExcerpt(path, 31, 3);
        QVERIFY(e.lines.empty());
        QVERIFY2(e.error.find("has 30 lines, not 31") != std::string::npos, e.error.c_str());
        // No trailing line end on the last line.
        writeFile(path, "a\nb");
        e = readExcerpt(path, 2, 0);
        QCOMPARE(e.lines, (std::vector<std::string>{"b"}));
        e = readExcerpt(path, 3, 0);
        QVERIFY2(e.error.find("has 2 lines") != std::string::npos, e.error.c_str());
        const char binary[] = "\x7f"
                              "ELF\0\0\0\nxx\n";
        writeFile(path, std::string(binary, sizeof binary - 1));
        e = readExcerpt(path, 1, 2);
        QVERIFY2(e.error.find("not a text file") != std::string::npos, e.error.c_str());
        e = readExcerpt(dir.path().toStdString() + "/missing.py", 1, 2);
        QVERIFY2(e.error.find("cannot open") != std::string::npos, e.error.c_str());
    }

    void reportCarriesStacks()
    {
        // gpu_decoder_layer converted: its largest value at the peak, p5.18.0, was made at
        // dynamo_bridge.py:355 (gpu_decoder_layer line 309's `from instruction:`).
        QTemporaryDir dir;
        const std::string path =
            writeConverted(dir, "gpu_decoder_layer", "module_0001.jit_decoder");
        const CliRun r = runBufferscope({QStringLiteral("report"), QString::fromStdString(path),
                                         QStringLiteral("--json"), QStringLiteral("--top"),
                                         QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        const QJsonObject top = QJsonDocument::fromJson(r.out)
                                    .object()
                                    .value(QStringLiteral("top_values_at_peak"))
                                    .toArray()
                                    .at(0)
                                    .toObject();
        QCOMPARE(top.value(QStringLiteral("name")).toString(), QStringLiteral("p5.18.0"));
        const QJsonArray stack = top.value(QStringLiteral("stack")).toArray();
        QCOMPARE(stack.size(), 3);
        const QJsonObject inner = stack.at(0).toObject();
        QCOMPARE(inner.value(QStringLiteral("file")).toString(),
                 QStringLiteral(
                     "/usr/local/lib/python3.10/site-packages/torch_xla/_dynamo/dynamo_bridge.py"));
        QCOMPARE(inner.value(QStringLiteral("line")).toInt(), 355);
        QCOMPARE(inner.value(QStringLiteral("function")).toString(), QStringLiteral("op_fn"));
        QCOMPARE(inner.value(QStringLiteral("column")).toInt(), 7);
        QCOMPARE(stack.at(2).toObject().value(QStringLiteral("function")).toString(),
                 QStringLiteral("main"));
        QCOMPARE(top.value(QStringLiteral("source")).toString(),
                 QStringLiteral("/usr/local/lib/python3.10/site-packages/torch_xla/_dynamo/"
                                "dynamo_bridge.py:355"));
    }

    void textReportShowsTheUsersLine()
    {
        // p5.18.0's innermost frame is torch_xla's dynamo_bridge.py (site-packages): the text
        // report shows its caller in the user's code, train_step at /workspace/train.py:20,
        // while the JSON's `source` stays the innermost frame (as with inline sources).
        QTemporaryDir dir;
        const std::string path =
            writeConverted(dir, "gpu_decoder_layer", "module_0002.jit_decoder");
        const CliRun r = runBufferscope({QStringLiteral("report"), QString::fromStdString(path),
                                         QStringLiteral("--top"), QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        const QByteArray top = r.out.mid(r.out.indexOf("p5.18.0"));
        QVERIFY2(top.left(top.indexOf('\n')).endsWith("xla__device_data  /workspace/train.py:20"),
                 top.left(top.indexOf('\n')).constData());
        // The explainer's finding about it says the same.
        QVERIFY2(r.out.contains("; made at /workspace/train.py:20."), r.out.constData());
        // Without the stacks (the original sample) the inline source shows, library or not.
        const CliRun plain = runBufferscope(
            {QStringLiteral("report"), QString::fromStdString(samplePath("gpu_decoder_layer")),
             QStringLiteral("--top"), QStringLiteral("1")});
        QVERIFY(plain.out.contains("dynamo_bridge.py:355"));
    }

    void badTables_data()
    {
        QTest::addColumn<QString>("tables");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        // Lines: 1 HloModule, 3 FileNames, 6 FunctionNames, 9 FileLocations, 12 StackFrames,
        // 13 and 14 its entries.
        const QString names = QStringLiteral(
            "HloModule m\n\nFileNames\n1 \"a.py\"\n\nFunctionNames\n1 \"f\"\n\nFileLocations\n"
            "1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=2}\n");
        QTest::newRow("cycle") << names +
                                      QStringLiteral("\nStackFrames\n"
                                                     "1 {file_location_id=1 parent_frame_id=3}\n"
                                                     "2 {file_location_id=1 parent_frame_id=2}\n")
                               << 14 << "closes a cycle";
        QTest::newRow("dangling parent")
            << names + QStringLiteral("\nStackFrames\n1 {file_location_id=1 parent_frame_id=99}\n")
            << 13 << "parent frame 98";
        QTest::newRow("dangling location")
            << names + QStringLiteral("\nStackFrames\n1 {file_location_id=7 parent_frame_id=1}\n")
            << 13 << "file location 7";
        QTest::newRow("huge id") << names + QStringLiteral("\nStackFrames\n"
                                                           "99999999999 {file_location_id=1 "
                                                           "parent_frame_id=1}\n")
                                 << 13 << "out of order";
        // Frame k is called by frame k-1 (printed parent k): a chain 1500 deep.
        QString deep = names + QStringLiteral("\nStackFrames\n");
        for (int k = 1; k <= 1500; ++k)
            deep += QStringLiteral("%1 {file_location_id=1 parent_frame_id=%1}\n").arg(k);
        // Frame 1001 would be the 1001st frame of its stacks: it is cut there (line 12 + 1001).
        QTest::newRow("too deep") << deep << 1013 << "deeper than 1000 frames";
        QTest::newRow("malformed")
            << names + QStringLiteral("\nStackFrames\n1 file_location_id=1\n") << 13 << "malformed";
    }

    void badTables()
    {
        // Damage in the tables is a warning with the HLO file's line; the buffer assignment
        // is whole, and walking any stack ends.
        QFETCH(QString, tables);
        QFETCH(int, line);
        QFETCH(QString, message);
        const std::string original = readFile(samplePath("tpu_dynamic_slice"));
        const LoadResult plain = ModuleReader::loadPath(samplePath("tpu_dynamic_slice"));
        QTemporaryDir dir;
        const std::string stem = dir.path().toStdString() + "/module_0003.jit_f";
        writeFile(stem + "-buffer-assignment.txt", original);
        writeFile(stem + ".txt", tables.toStdString() + "\n\nENTRY %e {\n}\n");
        const LoadResult r = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
        QVERIFY(r.ok());
        QVERIFY(!r.dump->warnings.empty());
        const Diagnostic &w = r.dump->warnings.front();
        QVERIFY2(r.dump->diagnosticText(w).find(".txt:" + std::to_string(line) + ":") !=
                     std::string::npos,
                 r.dump->diagnosticText(w).c_str());
        QVERIFY2(w.message.find(message.toStdString()) != std::string::npos, w.message.c_str());
        QCOMPARE(r.dump->values.size(), plain.dump->values.size());
        QCOMPARE(r.dump->totalBytes(), plain.dump->totalBytes());
        for (std::uint32_t id = 1; id <= r.dump->stackFrames.size(); ++id) {
            Instruction probe;
            probe.stackFrame = id;
            QVERIFY(r.dump->stackOf(probe).size() <= r.dump->stackFrames.size());
            QVERIFY(r.dump->stackOf(probe).size() <= 1000);
        }
    }

    void siblingIsNotHlo()
    {
        // A `<stem>.txt` that is something else entirely: ignored, nothing lost.
        const std::string original = readFile(samplePath("tpu_dynamic_slice"));
        QTemporaryDir dir;
        const std::string stem = dir.path().toStdString() + "/module_0004.jit_g";
        writeFile(stem + "-buffer-assignment.txt", original);
        const char binary[] = "\x89PNG\r\n\x1a\n binary \xff\xfe";
        writeFile(stem + ".txt", std::string(binary, sizeof binary - 1));
        const LoadResult r = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
        QVERIFY(r.ok());
        QVERIFY(r.dump->warnings.empty());
        QVERIFY(r.dump->stackFrames.empty());
        QCOMPARE(r.dump->files.size(), std::size_t(1));
    }

    void hugeSiblings()
    {
        // A 2 GB `<stem>.txt` (sparse, so the test costs no disk): only its header is read.
        // Tables followed by 2 GB of NUL bytes with no line end: a warning at the line where
        // the tables stop, and the frames before it. A file of nothing but NUL bytes: not HLO,
        // ignored. Either way the buffer assignment is whole.
        const std::string original = readFile(samplePath("tpu_dynamic_slice"));
        const LoadResult plain = ModuleReader::loadPath(samplePath("tpu_dynamic_slice"));
        QTemporaryDir dir;
        const std::string stem = dir.path().toStdString() + "/module_0006.jit_big";
        writeFile(stem + "-buffer-assignment.txt", original);
        const std::string tables =
            "HloModule m\n\nFileNames\n1 \"a.py\"\n\nFunctionNames\n1 \"f\"\n\n"
            "FileLocations\n1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 "
            "end_column=2}\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\n";
        for (const bool withTables : {true, false}) {
            writeFile(stem + ".txt", withTables ? tables : std::string());
            QFile sibling(QString::fromStdString(stem + ".txt"));
            QVERIFY(sibling.resize(qint64(2) << 30));
            const LoadResult r = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
            QVERIFY(r.ok());
            QCOMPARE(r.dump->values.size(), plain.dump->values.size());
            QCOMPARE(r.dump->totalBytes(), plain.dump->totalBytes());
            if (withTables) {
                QCOMPARE(r.dump->stackFrames.size(), std::size_t(1));
                QCOMPARE(r.dump->warnings.size(), std::size_t(1));
                const std::string w = r.dump->diagnosticText(r.dump->warnings[0]);
                QVERIFY2(w.find(".txt:15: line longer than 1 MB") != std::string::npos, w.c_str());
            } else {
                QVERIFY(r.dump->stackFrames.empty());
                QVERIFY(r.dump->warnings.empty());
            }
        }
    }

    void namesAreUnescaped()
    {
        // absl::CEscape writes bytes outside printable ASCII as octal: `\303\251` is "é".
        const std::string original = readFile(samplePath("tpu_dynamic_slice"));
        QTemporaryDir dir;
        const std::string stem = dir.path().toStdString() + "/module_0005.jit_h";
        const std::string converted =
            replaceAll(original, "op_name=\"args[0]\"", "op_name=\"args[0]\" stack_frame_id=1");
        writeFile(stem + "-buffer-assignment.txt", converted);
        writeFile(stem + ".txt", "HloModule m\n\nFileNames\n1 \"caf\\303\\251 \\\"q\\\".py\"\n\n"
                                 "FunctionNames\n1 \"f\"\n\nFileLocations\n"
                                 "1 {file_name_id=1 function_name_id=1 line=4 end_line=4 "
                                 "column=2 end_column=3}\n\nStackFrames\n"
                                 "1 {file_location_id=1 parent_frame_id=1}\n\n\nENTRY %e {\n}\n");
        const LoadResult r = ModuleReader::loadPath(stem + "-buffer-assignment.txt");
        QVERIFY(r.ok());
        QCOMPARE(r.dump->stackFrames.size(), std::size_t(1));
        QCOMPARE(r.dump->str(r.dump->stackFrames[0].file),
                 std::string_view("caf\xc3\xa9 \"q\".py"));
    }
};

QTEST_GUILESS_MAIN(TestCallStacks)
#include "tst_callstacks.moc"
