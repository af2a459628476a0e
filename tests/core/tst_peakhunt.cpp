// Hunting the peak: the breakdown tree, the explainer's findings, comparing two dumps and
// listing a dump folder, checked against what XLA printed (docs/FORMAT.md Part A table) and the
// definitions of each finding.
#include "CliRun.h"
#include "DumpText.h"
#include "SampleTruths.h"
#include "analysis/DumpDiff.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace bufferscope;
using namespace testutil;

namespace {

/// A row of `list --json` as the sample truths give it: module, total, peak step and bytes,
/// held, files.
std::tuple<QString, qint64, qint64, qint64, qint64, int>
truthRow(const char *sample, const char *module = nullptr, int files = 1)
{
    const testutil::SampleTruth &t = testutil::sampleTruth(sample);
    return {QString::fromLatin1(module ? module : sample),
            t.total,
            t.deviceStep,
            t.deviceBytes,
            t.held,
            files};
}

const char *const kSamples[] = {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                                "tpu_random_normal", "tpu_dynamic_slice"};

Loaded loadSample(const char *name)
{
    return loadText(readFile(samplePath(name)), std::string(name) + ".buffer-assignment.txt");
}

using Run = testutil::CliRun;

Run run(const QStringList &args)
{
    return testutil::runBufferscope(args);
}

/// Every node's bytes and values are the sums of its children's; returns the leaves' members.
void checkTree(const BreakdownNode &node, std::vector<std::uint32_t> &leaves)
{
    if (node.children.empty()) {
        QVERIFY2(node.instructions, node.label.c_str());
        leaves.insert(leaves.end(), node.members.begin(), node.members.end());
        return;
    }
    std::int64_t bytes = 0;
    std::int64_t values = 0;
    for (const BreakdownNode &c : node.children) {
        bytes += c.bytes;
        values += c.values;
        checkTree(c, leaves);
    }
    QCOMPARE(bytes, node.bytes);
    QCOMPARE(values, node.values);
    QCOMPARE(static_cast<std::int64_t>(node.members.size()), node.values);
}

const Finding *findingOf(const std::vector<Finding> &findings, Finding::Kind kind)
{
    for (const Finding &f : findings)
        if (f.kind == kind)
            return &f;
    return nullptr;
}

} // namespace

class TestPeakHunt : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void breakdownAddsUp_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char *s : kSamples)
            QTest::newRow(s) << QString::fromLatin1(s);
    }
    void breakdownAddsUp()
    {
        // At every step of every memory space, every grouping (shape and dtype too) and the
        // op_name tree at every level add up to the live bytes the curve shows: bytes that
        // values written in place share at one step count once. At the peak no sample shares,
        // so there they are also the plain sum of the live values' sizes.
        QFETCH(QString, sample);
        const Loaded l = loadSample(qPrintable(sample));
        for (const SpaceTimeline &space : l.timeline->spaces()) {
            for (std::int64_t step = 0; step < static_cast<std::int64_t>(space.liveBytes.size());
                 ++step) {
                std::int64_t count = 0;
                std::int64_t sizes = 0;
                for (const Value &v : l.dump->values) {
                    if (v.allocation != kNone &&
                        l.dump->allocations[v.allocation].color == space.memorySpace &&
                        v.liveAt(step)) {
                        ++count;
                        sizes += v.size;
                    }
                }
                const std::int64_t expected = space.liveBytes[static_cast<std::size_t>(step)];
                const Breakdown b = Breakdown::compute(*l.dump, step, space.memorySpace);
                QCOMPARE(b.bytes, expected);
                if (step == space.peak.step)
                    QCOMPARE(sizes, expected);
                for (const auto *rows :
                     {&b.byOpName, &b.bySource, &b.byOpType, &b.byKind, &b.byShape}) {
                    std::int64_t sum = 0;
                    std::int64_t values = 0;
                    for (const BreakdownRow &r : *rows) {
                        sum += r.bytes;
                        values += r.values;
                    }
                    QCOMPARE(sum, expected);
                    QCOMPARE(values, count);
                }
                QCOMPARE(b.opNameTree.bytes, expected);
                if (count == 0)
                    continue; // an empty root: nothing to walk
                std::vector<std::uint32_t> leaves;
                checkTree(b.opNameTree, leaves);
                std::sort(leaves.begin(), leaves.end());
                QCOMPARE(static_cast<std::int64_t>(leaves.size()), count);
                QVERIFY(std::adjacent_find(leaves.begin(), leaves.end()) == leaves.end());
            }
        }
    }

    void inPlaceSharingCountsOnce()
    {
        // gpu_vllm_update_slice at step 61: allocation 0's in-place chain hands over at that
        // step (loop_dynamic_update_slice_fusion.N ends where .N-1 starts, both 512 B at
        // offset 0), so the curve shows 1,042 B while the values' sizes add up to more.
        const Loaded l = loadSample("gpu_vllm_update_slice");
        const Breakdown b = Breakdown::compute(*l.dump, 61, 0);
        QCOMPARE(l.timeline->space(0)->liveBytes[61], std::int64_t{1042});
        QCOMPARE(b.bytes, std::int64_t{1042});
        std::int64_t sizes = 0;
        for (std::uint32_t vi : b.live)
            sizes += l.dump->values[vi].size;
        QVERIFY(sizes > 1042);
    }

    void groupShareOfTheCurve()
    {
        // A picked group's share of the curve (issue 35, item 15), by the curve's rule.
        const Loaded l = loadSample("gpu_vllm_update_slice");
        const Dump &d = *l.dump;
        // One value: loop_broadcast_dynamic_update_slice_fusion{0} (id 528), 512 B, live
        // 61..76 (its value and live-range lines): 512 B there, nothing elsewhere.
        const std::uint32_t v528 = d.findValueById(528);
        const auto one = MemoryTimeline::liveBytesOf(d, {v528, v528}, 0);
        QVERIFY(one);
        QCOMPARE(one->size(), static_cast<std::size_t>(d.stepCount()));
        for (std::size_t t = 0; t < one->size(); ++t)
            QCOMPARE((*one)[t], t >= 61 && t <= 76 ? std::int64_t{512} : std::int64_t{0});
        // The values live at step 61 (their sizes add up to more): 1,042 B, in-place sharing
        // of allocation 0's 512 bytes counted once, as in inPlaceSharingCountsOnce.
        const auto live = MemoryTimeline::liveBytesOf(d, Breakdown::compute(d, 61, 0).live, 0);
        QVERIFY(live);
        QCOMPARE((*live)[61], std::int64_t{1042});
        // Another memory space's values count nothing on this one.
        QCOMPARE(MemoryTimeline::liveBytesOf(d, {v528}, 1)->at(61), std::int64_t{0});
    }

    void findingsCountInPlaceOnceAndSayWhatAValueIs()
    {
        // gpu_vllm_update_slice at step 37: loop_dynamic_update_slice_fusion.12 (35-37) hands
        // its 512 bytes of output allocation 0 over, in place, to .11 (37-39); with
        // wrapped_slice.15 (32), constant_61_0 (16) and p0.37.0 (2), 562 bytes are live. One
        // finding for the shared bytes, 512 / 562 = 91 %, and not "live until the program
        // ends": the value ends at step 37 of 76 (issue 35, item 4).
        const Loaded l = loadSample("gpu_vllm_update_slice");
        const auto findings = PeakExplainer::explain(*l.dump, *l.timeline, 37, 0);
        int large = 0;
        for (const Finding &f : findings) {
            if (f.kind != Finding::Kind::LargeValue)
                continue;
            ++large;
            QVERIFY2(f.title.find("91%") != std::string::npos, f.title.c_str());
            QVERIFY2(f.detail.find("live until the program ends") == std::string::npos,
                     f.detail.c_str());
            QVERIFY2(f.detail.find("reuses an output's allocation") != std::string::npos,
                     f.detail.c_str());
        }
        QCOMPARE(large, 1);
    }

    void groupsByShapeAndDtype()
    {
        // tpu_unstack at step 6 (XLA's printed peak), memory space 0: Arg_0.1 (u32[4,2],
        // 1024 B), tuple.10{} (the 4-tuple, 32 B), slice_reduce_fusion{0..3} (u32[2], 512 B
        // each): "4 × u32[2]" 2048 B, "1 × u32[4,2]" 1024 B, "1 × (u32[2], …)" 32 B.
        const Loaded l = loadSample("tpu_unstack");
        const Breakdown b = Breakdown::compute(*l.dump, 6, 0);
        QCOMPARE(b.byShape.size(), std::size_t{3});
        QCOMPARE(Breakdown::rowLabel(Breakdown::Grouping::Shape, b.byShape[0]),
                 std::string("4 × u32[2]"));
        QCOMPARE(b.byShape[0].bytes, std::int64_t{2048});
        QCOMPARE(Breakdown::rowLabel(Breakdown::Grouping::Shape, b.byShape[1]),
                 std::string("1 × u32[4,2]"));
        QCOMPARE(b.byShape[1].bytes, std::int64_t{1024});
        QCOMPARE(b.byShape[2].bytes, std::int64_t{32});
        QVERIFY2(b.byShape[2].key.starts_with("(u32[2]"), b.byShape[2].key.c_str());

        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("report"), QString::fromStdString(samplePath("tpu_unstack")),
             QStringLiteral("--step"), QStringLiteral("6"), QStringLiteral("--group-by"),
             QStringLiteral("shape")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("4 × u32[2]"), r.out.constData());
        QVERIFY2(!r.out.contains("by op_name"), r.out.constData());
    }

    void opNameTreeSplitsAndCollapses()
    {
        QCOMPARE(Breakdown::nameStem("fusion.28"), std::string("fusion"));
        QCOMPARE(Breakdown::nameStem("copy-start"), std::string("copy-start"));
        QCOMPARE(Breakdown::nameStem("p5.18.0"), std::string("p5.18"));
        QCOMPARE(Breakdown::nameStem("a.b"), std::string("a.b"));
        const auto path = Breakdown::opNamePath("jit(f)/jit(main)/transpose(jvp(a/b))/dot");
        QCOMPARE(path.size(), std::size_t(4));
        QCOMPARE(path[2], std::string_view("transpose(jvp(a/b))"));

        // Over every step of every sample: a leaf is one instruction name, or a `stem.*` row
        // whose values all share that stem, with more than one distinct name.
        int collapsedRows = 0;
        for (const char *sample : kSamples) {
            const Loaded l = loadSample(sample);
            for (std::int64_t step = 0; step < l.dump->stepCount(); ++step) {
                const Breakdown b = Breakdown::compute(*l.dump, step, 0);
                std::vector<const BreakdownNode *> stack{&b.opNameTree};
                while (!stack.empty()) {
                    const BreakdownNode *n = stack.back();
                    stack.pop_back();
                    for (const BreakdownNode &c : n->children)
                        stack.push_back(&c);
                    if (!n->instructions)
                        continue;
                    std::set<std::string> names;
                    for (std::uint32_t v : n->members)
                        names.insert(std::string(l.dump->valueName(l.dump->values[v])));
                    if (n->label.ends_with(".*")) {
                        ++collapsedRows;
                        QVERIFY(names.size() > 1);
                        for (const std::string &name : names)
                            QCOMPARE(Breakdown::nameStem(name) + ".*", n->label);
                    } else {
                        QCOMPARE(names.size(), std::size_t(1));
                        QCOMPARE(*names.begin(), n->label);
                    }
                }
            }
        }
        QVERIFY(collapsedRows > 0);
    }

    void explainerPaddingLargeF32()
    {
        // tpu_dynamic_slice at its peak (step 7), memory space 0: Arg_0.1 (8192 B, f32[16,32]
        // = 2048 B), Arg_1.2 and Arg_2.3 (512 B, s32[] = 4 B), dynamic-slice.4 (512 B,
        // f32[1,5] = 20 B): 9728 B live, of which 6144 + 508 + 508 + 492 = 7652 B padding.
        const Loaded l = loadSample("tpu_dynamic_slice");
        const auto findings = PeakExplainer::explain(*l.dump, *l.timeline, 7, 0);
        const Finding *padding = findingOf(findings, Finding::Kind::Padding);
        QVERIFY(padding);
        QCOMPARE(padding->bytes, std::int64_t(7652));
        QCOMPARE(padding->values.size(), std::size_t(4));
        QCOMPARE(l.dump->valueName(l.dump->values[padding->values.front()]), "Arg_0.1");
        const Finding *large = findingOf(findings, Finding::Kind::LargeValue);
        QVERIFY(large); // 8192 / 9728 = 84 %
        QCOMPARE(large->bytes, std::int64_t(8192));
        QVERIFY2(large->title.find("84%") != std::string::npos, large->title.c_str());
        QVERIFY(large->detail.find("parameter") != std::string::npos);
        const Finding *f32 = findingOf(findings, Finding::Kind::F32);
        QVERIFY(f32); // Arg_0.1 and dynamic-slice.4: 8704 B, half saved
        QCOMPARE(f32->values.size(), std::size_t(2));
        QCOMPARE(f32->bytes, std::int64_t(4352));
        QVERIFY(!findingOf(findings, Finding::Kind::Donation));
        // Largest first.
        for (std::size_t k = 1; k < findings.size(); ++k)
            QVERIFY(findings[k - 1].bytes >= findings[k].bytes);
    }

    void explainerDonationAndFragmentation()
    {
        // Make output allocation 2 an s32[] like parameter 1 (both 512 B, not aliased).
        std::string text = readFile(samplePath("tpu_dynamic_slice"));
        text = replaceAll(text, "output shape is |f32[1,5]|", "output shape is |s32[]|");
        text = replaceAll(text, "(size=512,offset=0): f32[1,5]{1,0:T(1,128)}",
                          "(size=512,offset=0): s32[]{:T(128)}");
        const Loaded l = loadText(text);
        const auto findings = PeakExplainer::explain(*l.dump, *l.timeline, 7, 0);
        const Finding *donation = findingOf(findings, Finding::Kind::Donation);
        QVERIFY(donation);
        QCOMPARE(donation->bytes, std::int64_t(512));
        // Parameters 1 and 2 are both s32[] (512 B); the first in allocation order is paired.
        QCOMPARE(l.dump->allocations[donation->allocation].parameterNumber, std::int64_t(2));
        QVERIFY2(donation->title.find("s32[]") != std::string::npos, donation->title.c_str());

        // gpu_decoder_layer's allocation 12 (fusion.40, 256 KiB) grown to 2 MiB: 1.75 MiB of it
        // is never live.
        std::string big = readFile(samplePath("gpu_decoder_layer"));
        big = replaceAll(big, "allocation 12: size 262144,", "allocation 12: size 2097152,");
        const Loaded g = loadText(big);
        const auto more = PeakExplainer::explain(*g.dump, *g.timeline, 58, 0);
        const Finding *frag = findingOf(more, Finding::Kind::Fragmentation);
        QVERIFY(frag);
        QCOMPARE(frag->allocation, 12u);
        QCOMPARE(frag->bytes, std::int64_t(2097152 - 262144));
    }

    void listFindsEveryModuleOnce()
    {
        // The samples, a three-file split module in a subfolder, and files that are not dumps.
        QTemporaryDir dir;
        for (const char *s : kSamples)
            QVERIFY(QFile::copy(
                QString::fromStdString(samplePath(s)),
                dir.filePath(QString::fromLatin1(s) + QStringLiteral(".buffer-assignment.txt"))));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("module_0009")));
        const std::string original = readFile(samplePath("tpu_unstack"));
        const auto totalAt = original.find("\nTotal bytes used:");
        const auto rangeAt = original.find("HloLiveRange (max");
        const std::string stem = dir.filePath(QStringLiteral("module_0009/module_0009.jit_split."
                                                             "tpu_after_optimizations"))
                                     .toStdString();
        writeFile(stem + "-buffer-assignment.txt", original.substr(0, totalAt + 1));
        writeFile(stem + "-buffer-assignment-values.txt",
                  original.substr(totalAt, rangeAt - totalAt));
        writeFile(stem + "-live-range.txt", original.substr(rangeAt));
        writeFile(dir.filePath(QStringLiteral("module_0009.jit_split.txt")).toStdString(),
                  "HloModule jit_split\n");
        writeFile(dir.filePath(QStringLiteral("notes.txt")).toStdString(), "hello\n");
        writeFile(dir.filePath(QStringLiteral("module_0009/module_0009.jit_split.ir-no-opt.ll"))
                      .toStdString(),
                  "; llvm\n");

        const Run r = run({QStringLiteral("list"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const QJsonArray modules = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(modules.size(), 6);
        // docs/FORMAT.md Part A totals, the device's live peaks (SampleTruth::deviceBytes), and
        // what the device holds while each runs
        // (argument + output - alias + temp, summed by hand from each dump's allocation
        // lines); sorted by that, largest first.
        const QList<std::tuple<QString, qint64, qint64, qint64, qint64, int>> expected = {
            truthRow("gpu_decoder_layer"),
            truthRow("tpu_random_normal"),
            truthRow("tpu_dynamic_slice"),
            truthRow("tpu_unstack"),
            truthRow("tpu_unstack", "module_0009.jit_split.tpu_after_optimizations", 3),
            truthRow("gpu_vllm_update_slice")};
        QSet<QString> seen;
        qint64 previous = std::numeric_limits<qint64>::max();
        for (const QJsonValue &m : modules) {
            const QString module = m[QStringLiteral("module")].toString();
            QVERIFY2(!seen.contains(module), qPrintable(module));
            seen.insert(module);
            bool found = false;
            for (const auto &[name, total, step, peak, held, files] : expected) {
                if (name != module)
                    continue;
                found = true;
                QCOMPARE(m[QStringLiteral("total_bytes")].toInteger(), total);
                QCOMPARE(m[QStringLiteral("peak_step")].toInteger(), step);
                QCOMPARE(m[QStringLiteral("peak_bytes")].toInteger(), peak);
                QCOMPARE(m[QStringLiteral("held_bytes")].toInteger(), held);
                QCOMPARE(m[QStringLiteral("files")].toArray().size(), files);
            }
            QVERIFY2(found, qPrintable(module));
            QVERIFY(m[QStringLiteral("held_bytes")].toInteger() <= previous);
            previous = m[QStringLiteral("held_bytes")].toInteger();
        }
        // The modules are read side by side, one per thread: the same list as on one thread.
        const Run serial = run({QStringLiteral("list"), dir.path(), QStringLiteral("--json"),
                                QStringLiteral("--threads"), QStringLiteral("1")});
        QCOMPARE(serial.code, 0);
        QCOMPARE(serial.out, r.out);
        // Text form and errors.
        const Run text = run({QStringLiteral("list"), dir.path()});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("6 modules in"));
        QCOMPARE(run({QStringLiteral("list"), dir.filePath(QStringLiteral("nope"))}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestPeakHunt)
#include "tst_peakhunt.moc"
