// The regression diff: values matched by structure across renames (analysis/DumpMatch), the
// explanation of what changed at the peak (analysis/DumpDiff), and `bufferscope diff` with its
// CI gates. Recompiles are made with tests/bench's renumberDump, which does not use BufferScope's
// parser; every expectation is worked out by hand from the sample text.
#include "CliRun.h"
#include "DumpGenerator.h"
#include "DumpText.h"
#include "SampleTruths.h"
#include "analysis/DumpDiff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace bufferscope;
using namespace testutil;

namespace {

const char *const kSamples[] = {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                                "tpu_random_normal", "tpu_dynamic_slice"};
constexpr std::int64_t kShift = 1000; // renumberDump's value id shift

DumpDiff diffOf(const Loaded &a, const Loaded &b)
{
    return DumpDiff::compute(*a.dump, *a.timeline, *b.dump, *b.timeline);
}

/// The dump text without value `id`: its ` value:` line, its `Used values` block, its
/// BufferLiveRange line and its printed-peak line.
std::string withoutValue(const std::string &text, std::int64_t id, std::string &key)
{
    const std::string head = " value: <" + std::to_string(id) + " ";
    const std::size_t at = text.find(head);
    if (at == std::string::npos)
        qFatal("no value %lld", static_cast<long long>(id));
    const std::size_t nameAt = at + head.size();
    const std::string shortName = text.substr(nameAt, text.find(' ', nameAt) - nameAt);
    key = shortName.find('{') == std::string::npos ? shortName + "{}" : shortName;
    std::string out;
    bool inBlock = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + pos, end - pos);
        pos = end;
        if (inBlock) {
            if (line.starts_with(' ') && !line.starts_with(" value:"))
                continue; // positions, uses, from instruction
            inBlock = false;
        }
        if (line.starts_with(head)) // the allocation's value line
            continue;
        if (line.starts_with("<" + std::to_string(id) + " ")) {
            inBlock = true;
            continue;
        }
        if (line.starts_with("    " + key + ":"))
            continue; // BufferLiveRange and the printed peak
        out += line;
    }
    return out;
}

std::int64_t countOf(const DumpDiff &d, PeakChange::Kind kind, std::int64_t &bytes)
{
    std::int64_t n = 0;
    bytes = 0;
    for (const PeakChange &c : d.atPeak)
        if (c.kind == kind) {
            ++n;
            bytes += c.contribution;
        }
    return n;
}

QJsonObject diffJson(const QStringList &args, int expectedCode)
{
    const CliRun r = runBufferscope(QStringList{QStringLiteral("diff")} + args +
                                    QStringList{QStringLiteral("--json")});
    if (r.code != expectedCode)
        qWarning("exit %d: %s", r.code, r.err.constData());
    return r.code == expectedCode ? QJsonDocument::fromJson(r.out).object() : QJsonObject();
}

} // namespace

class TestDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:

    // Two unrelated programs: gpu_decoder_layer (49 values) against gpu_vllm_update_slice
    // (68) match 3 values by structure; the report says they look like different programs
    // (issue 35, item 18). A recompile of one program does not get the warning.
    void unrelatedProgramsAreSaid()
    {
        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("diff"),
             QString::fromStdString(testutil::samplePath("gpu_decoder_layer")),
             QString::fromStdString(testutil::samplePath("gpu_vllm_update_slice"))});
        QCOMPARE(r.code, 0);
        // 49 values before, 46 of them removed: 3 matched < 49 / 10, the smaller side counted.
        QVERIFY2(r.out.contains("  warning: Only 3 of 49 values match: these look like different "
                                "programs, and the differences below say little\n"),
                 r.out.constData());
        const testutil::CliRun json = testutil::runBufferscope(
            {QStringLiteral("diff"),
             QString::fromStdString(testutil::samplePath("gpu_decoder_layer")),
             QString::fromStdString(testutil::samplePath("gpu_vllm_update_slice")),
             QStringLiteral("--json")});
        QCOMPARE(json.code, 0);
        const QJsonObject matching =
            QJsonDocument::fromJson(json.out).object().value(QStringLiteral("matching")).toObject();
        QCOMPARE(matching.value(QStringLiteral("matched")).toInt(), 3);
        QCOMPARE(matching.value(QStringLiteral("different_programs")).toBool(), true);
        const testutil::CliRun same = testutil::runBufferscope(
            {QStringLiteral("diff"),
             QString::fromStdString(testutil::samplePath("gpu_decoder_layer")),
             QString::fromStdString(testutil::samplePath("gpu_decoder_layer"))});
        QVERIFY(!same.out.contains("look like different programs"));
        const testutil::CliRun sameJson = testutil::runBufferscope(
            {QStringLiteral("diff"),
             QString::fromStdString(testutil::samplePath("gpu_decoder_layer")),
             QString::fromStdString(testutil::samplePath("gpu_decoder_layer")),
             QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(sameJson.out)
                     .object()
                     .value(QStringLiteral("matching"))
                     .toObject()
                     .value(QStringLiteral("different_programs"))
                     .toBool(true),
                 false);
    }
    void sameProgramIsUnchanged_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char *s : kSamples)
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    void sameProgramIsUnchanged()
    {
        QFETCH(QString, sample);
        const std::string text = readFile(samplePath(qPrintable(sample)));
        const Loaded a = loadText(text);
        const std::size_t n = a.dump->values.size();

        // With itself: every value with itself.
        const DumpDiff self = diffOf(a, loadText(text));
        QVERIFY(self.added.empty() && self.removed.empty() && self.changed.empty());
        QCOMPARE(self.matched, static_cast<std::int64_t>(n));
        QCOMPARE(self.renamed, std::int64_t(0));
        for (std::uint32_t v = 0; v < n; ++v)
            QCOMPARE(self.match.valueInB[v], v);
        QVERIFY(self.atPeak.empty() && self.byOpName.empty() && self.byKind.empty());
        QVERIFY(self.opNameTree.children.empty() && self.donations.empty());
        QCOMPARE(self.partStepBefore, std::int64_t(-1));

        // With a recompile that renumbered every name and value id: value id X is id X + 1000,
        // whatever its name became; every value whose instruction has a number is renamed.
        const Loaded b = loadText(bench::renumberDump(text, kShift));
        const DumpDiff d = diffOf(a, b);
        QVERIFY(d.added.empty() && d.removed.empty());
        QVERIFY2(d.changed.empty(), d.changed.empty() ? "" : d.changed.front().before.name.c_str());
        QCOMPARE(d.matched, static_cast<std::int64_t>(n));
        std::int64_t numbered = 0;
        for (std::uint32_t v = 0; v < n; ++v) {
            const std::uint32_t w = d.match.valueInB[v];
            QVERIFY(w != kNone);
            QCOMPARE(b.dump->values[w].id, a.dump->values[v].id + kShift);
            const std::string_view name = a.dump->valueName(a.dump->values[v]);
            const std::size_t dot = name.rfind('.');
            numbered += dot != std::string_view::npos && dot + 1 < name.size() &&
                        name.find_first_not_of("0123456789", dot + 1) == std::string_view::npos;
        }
        QCOMPARE(d.renamed, numbered);
        QVERIFY(d.renamed > 0);
        QVERIFY(d.atPeak.empty() && d.byOpName.empty() && d.bySource.empty() && d.byKind.empty());
        QCOMPARE(d.partStepBefore, std::int64_t(-1));
        QCOMPARE(d.peakStepBeforeInB, d.peakStepBefore);
        // Every step aligned with itself.
        QCOMPARE(d.match.steps.rows.size(), static_cast<std::size_t>(a.dump->maxStep() + 1));
        for (std::size_t r = 0; r < d.match.steps.rows.size(); ++r) {
            QCOMPARE(d.match.steps.rows[r].a, static_cast<std::int64_t>(r));
            QCOMPARE(d.match.steps.rows[r].b, static_cast<std::int64_t>(r));
        }
    }

    void recompileWithAReorderedSchedule()
    {
        // tpu_random_normal's InstructionSequence read backwards in the recompile (the live
        // ranges left as printed): the values still pair by structure, id X with X + 1000.
        const std::string text = readFile(samplePath("tpu_random_normal"));
        const std::size_t from = text.find("  InstructionSequence:\n") + 23;
        const std::size_t to = text.find("  BufferLiveRange:");
        std::vector<std::string> names;
        for (std::size_t p = from; p < to;) {
            const std::size_t e = text.find('\n', p);
            const std::string line = text.substr(p, e - p);
            names.push_back(line.substr(line.find(':') + 1));
            p = e + 1;
        }
        QCOMPARE(names.size(), std::size_t(16));
        std::string reversed;
        for (std::size_t k = 0; k < names.size(); ++k)
            reversed += "    " + std::to_string(k) + ":" + names[names.size() - 1 - k] + "\n";
        const Loaded a = loadText(text);
        const Loaded b = loadText(
            bench::renumberDump(text.substr(0, from) + reversed + text.substr(to), kShift));
        const DumpDiff d = diffOf(a, b);
        QVERIFY(d.added.empty() && d.removed.empty());
        for (std::uint32_t v = 0; v < a.dump->values.size(); ++v)
            QCOMPARE(b.dump->values[d.match.valueInB[v]].id, a.dump->values[v].id + kShift);
        // Step 0 (constant.74) is step 15 of the recompile; the longest run in order is one
        // instruction, so the rows hold the other 15 steps of each side on their own.
        QCOMPARE(d.match.instructionInB[a.dump->instructionAtStep(0)],
                 b.dump->instructionAtStep(15));
        QCOMPARE(d.match.steps.rows.size(), std::size_t(1 + 15 + 15 + 1));
    }

    void oneValueTakenOut_data() { sameProgramIsUnchanged_data(); }

    void oneValueTakenOut()
    {
        // Each value in turn taken out of a renumbered recompile: exactly that value removed.
        QFETCH(QString, sample);
        const std::string text = readFile(samplePath(qPrintable(sample)));
        const Loaded a = loadText(text);
        for (const Value &v : a.dump->values) {
            std::string key;
            const std::string fewer = withoutValue(text, v.id, key);
            const Loaded b = loadText(bench::renumberDump(fewer, kShift));
            QCOMPARE(b.dump->values.size(), a.dump->values.size() - 1);
            const DumpDiff d = diffOf(a, b);
            const QByteArray what = QByteArray("without ") + key.c_str();
            QVERIFY2(d.added.empty(), what.constData());
            QVERIFY2(d.removed.size() == 1, what.constData());
            QCOMPARE(QString::fromStdString(d.removed.front().before.name),
                     QString::fromStdString(key));
            const QByteArray first(d.changed.empty() ? "" : d.changed.front().before.name.c_str());
            QVERIFY2(d.changed.empty(), QByteArray(what + ": " + first).constData());
        }
    }

    void explainsDynamicSliceToRandomNormal()
    {
        // Two different programs; the facts below are read off the two sample texts by hand.
        const Loaded a = loadText(readFile(samplePath("tpu_dynamic_slice")));
        const Loaded b = loadText(readFile(samplePath("tpu_random_normal")));
        const DumpDiff d = diffOf(a, b);
        // Peaks (memory space 0): A at step 7 (dynamic-slice.4): Arg_0.1 8192 + Arg_1.2 512 +
        // Arg_2.3 512 + dynamic-slice.4 512 = 9728; B at step 15 (select_multiply_fusion):
        // select_multiply_fusion 16384 + Arg_0.1 512 + fusion.23{0} 512 + fusion.23{1} 512 =
        // 17920.
        QCOMPARE(d.peakBefore, std::int64_t(9728));
        QCOMPARE(d.peakStepBefore, std::int64_t(7));
        QCOMPARE(d.peakAfter, std::int64_t(17920));
        QCOMPARE(d.peakStepAfter, std::int64_t(15));
        // The cross-program prefetch (copy-start, copy-done) is the structure both share: A's
        // copy-done (step 6) is B's (step 4), and A's peak step 7 comes after it.
        QCOMPARE(d.peakStepBeforeInB, std::int64_t(4));
        // copy-start{0} shrank from f32[16,32] (8192) to u32[2] (512) and now ends at fusion.23
        // (B step 5) instead of dynamic-slice.4; copy-start{} and {2} end at copy-done in both.
        QCOMPARE(d.changed.size(), std::size_t(1));
        QCOMPARE(d.changed[0].before.name, std::string("copy-start{0}"));
        QCOMPARE(d.changed[0].before.bytes, std::int64_t(8192));
        QCOMPARE(d.changed[0].after.bytes, std::int64_t(512));
        QCOMPARE(int(d.changed[0].flags), int(ValueChange::Resized | ValueChange::LiveRange));
        QCOMPARE(d.matched, std::int64_t(3));
        QCOMPARE(d.removed.size(), std::size_t(9 - 3));
        QCOMPARE(d.added.size(), std::size_t(15 - 3));
        // At the peaks: new select_multiply_fusion (+16384), B's parameter u32[2] `key` (+512)
        // and fusion.23{0}, {1} (+512 each); gone A's parameters 0, 1, 2 (-8192, -512, -512)
        // and dynamic-slice.4 (-512). The contributions add up to the peak delta.
        std::int64_t bytes = 0;
        QCOMPARE(countOf(d, PeakChange::Kind::Added, bytes), std::int64_t(4));
        QCOMPARE(bytes, std::int64_t(16384 + 512 + 512 + 512));
        QCOMPARE(countOf(d, PeakChange::Kind::Removed, bytes), std::int64_t(4));
        QCOMPARE(bytes, -std::int64_t(8192 + 512 + 512 + 512));
        QCOMPARE(countOf(d, PeakChange::Kind::Joined, bytes) +
                     countOf(d, PeakChange::Kind::Left, bytes) +
                     countOf(d, PeakChange::Kind::Grown, bytes) +
                     countOf(d, PeakChange::Kind::Shrunk, bytes),
                 std::int64_t(0));
        QCOMPARE(d.atPeak.front().after.name, std::string("select_multiply_fusion{}"));
        std::int64_t sum = 0;
        for (const PeakChange &c : d.atPeak)
            sum += c.contribution;
        QCOMPARE(sum, d.peakDelta());
        // The curves part at once: step 0 holds A's three parameters (9216) and B's parameter
        // and constant.74 (1024).
        QCOMPARE(d.partStepBefore, std::int64_t(0));
        QCOMPARE(d.partStepAfter, std::int64_t(0));
        QCOMPARE(d.partBytesBefore, std::int64_t(9216));
        QCOMPARE(d.partBytesAfter, std::int64_t(1024));
        // By kind: parameters 9216 -> 512, output 512 -> 16384, temps 0 -> 1024 (fusion.23).
        std::map<std::string, std::pair<std::int64_t, std::int64_t>> kinds;
        for (const KeyDelta &k : d.byKind)
            kinds[k.key] = {k.before, k.after};
        QCOMPARE(kinds.size(), std::size_t(3));
        QVERIFY((kinds["parameter"] == std::pair<std::int64_t, std::int64_t>(9216, 512)));
        QVERIFY((kinds["output"] == std::pair<std::int64_t, std::int64_t>(512, 16384)));
        QVERIFY((kinds["temp"] == std::pair<std::int64_t, std::int64_t>(0, 1024)));
        // By op_name, as a tree: jit(_normal)/jit(main)/jit(_normal_real) +17408, of which mul
        // +16384 and jit(_uniform)/slice +1024; args[0] -8192; key +512.
        const DeltaNode *normal = nullptr;
        for (const DeltaNode &c : d.opNameTree.children)
            if (c.label == "jit(_normal)")
                normal = &c;
        QVERIFY(normal);
        QCOMPARE(normal->delta(), std::int64_t(17408));
        QCOMPARE(d.opNameTree.children.front().label, std::string("jit(_normal)"));
        const DeltaNode &real = normal->children.at(0).children.at(0);
        QCOMPARE(real.label, std::string("jit(_normal_real)"));
        QCOMPARE(real.children.at(0).label, std::string("mul"));
        QCOMPARE(real.children.at(0).delta(), std::int64_t(16384));
        QCOMPARE(real.children.at(1).label, std::string("jit(_uniform)"));
        QCOMPARE(real.children.at(1).delta(), std::int64_t(1024));
        QVERIFY(d.donations.empty());

        // The command line says the same.
        const QString pa = QString::fromStdString(testutil::samplePath("tpu_dynamic_slice"));
        const QString pb = QString::fromStdString(testutil::samplePath("tpu_random_normal"));
        const QJsonObject o = diffJson({pa, pb}, 0);
        QCOMPARE(o[QStringLiteral("total_bytes_delta")].toInteger(),
                 testutil::sampleTruth("tpu_random_normal").total -
                     testutil::sampleTruth("tpu_dynamic_slice").total);
        QCOMPARE(o[QStringLiteral("peak_bytes_delta")].toInteger(), 17920 - 9728);
        QCOMPARE(o[QStringLiteral("peak")][QStringLiteral("before_step_in_after")].toInteger(), 4);
        QCOMPARE(o[QStringLiteral("curves_part")][QStringLiteral("before_bytes")].toInteger(),
                 9216);
        QCOMPARE(o[QStringLiteral("at_peak")].toArray().size(), 8);
        const QJsonObject top = o[QStringLiteral("at_peak")].toArray().at(0).toObject();
        QCOMPARE(top[QStringLiteral("change")].toString(), QStringLiteral("added"));
        QCOMPARE(top[QStringLiteral("contribution")].toInteger(), 16384);
        QVERIFY(top[QStringLiteral("name_before")].isNull());
        const QJsonObject changed = o[QStringLiteral("values_changed")].toArray().at(0).toObject();
        QCOMPARE(changed[QStringLiteral("name_before")].toString(),
                 QStringLiteral("copy-start{0}"));
        QCOMPARE(changed[QStringLiteral("changes")].toArray(),
                 QJsonArray({QStringLiteral("resized"), QStringLiteral("live_range")}));
        const CliRun text = runBufferscope({QStringLiteral("diff"), pa, pb});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("+72.0KiB (+73696 bytes)"));
        QVERIFY(text.out.contains("3 in both (0 renamed), 12 added, 6 removed, 1 changed"));
        QVERIFY(text.out.contains("+16.0KiB (+16384 bytes)  select_multiply_fusion{}  new value"));
        QCOMPARE(runBufferscope({QStringLiteral("diff"), pa}).code, 1);
    }

    void renamedAndResizedShowsBothNames()
    {
        // The recompile of tpu_random_normal with fusion.21{0} (fusion.22{0} there) at 1024
        // bytes instead of 512: one change, named in both dumps.
        const std::string text = readFile(samplePath("tpu_random_normal"));
        std::string renumbered = bench::renumberDump(text, kShift);
        const std::string from = "<1321 fusion.22{0} @1> (size=512,";
        QVERIFY(renumbered.find(from) != std::string::npos);
        renumbered = replaceAll(renumbered, from, "<1321 fusion.22{0} @1> (size=1024,");
        QTemporaryDir dir;
        const std::string pb =
            dir.filePath(QStringLiteral("b-buffer-assignment.txt")).toStdString();
        writeFile(pb, renumbered);
        const QJsonObject o =
            diffJson({QString::fromStdString(testutil::samplePath("tpu_random_normal")),
                      QString::fromStdString(pb)},
                     0);
        const QJsonArray changed = o[QStringLiteral("values_changed")].toArray();
        QCOMPARE(changed.size(), 1);
        const QJsonObject c = changed.at(0).toObject();
        QCOMPARE(c[QStringLiteral("name_before")].toString(), QStringLiteral("fusion.21{0}"));
        QCOMPARE(c[QStringLiteral("name_after")].toString(), QStringLiteral("fusion.22{0}"));
        QCOMPARE(c[QStringLiteral("bytes_delta")].toInteger(), 512);
        QCOMPARE(c[QStringLiteral("changes")].toArray(), QJsonArray({QStringLiteral("resized")}));
        QCOMPARE(o[QStringLiteral("matching")][QStringLiteral("renamed")].toInteger(), 10);
        QVERIFY(o[QStringLiteral("values_added")].toArray().isEmpty());
        QVERIFY(o[QStringLiteral("values_removed")].toArray().isEmpty());
    }

    void gates()
    {
        const QString a = QString::fromStdString(testutil::samplePath("tpu_dynamic_slice"));
        const QString b = QString::fromStdString(testutil::samplePath("tpu_random_normal"));
        const auto code = [](const QStringList &args, QByteArray *err = nullptr) {
            const CliRun r = runBufferscope(QStringList{QStringLiteral("diff")} + args);
            if (err)
                *err = r.err;
            return r.code;
        };
        // The peak grew by 8192 bytes.
        QByteArray err;
        QCOMPARE(code({a, b, QStringLiteral("--fail-above-delta"), QStringLiteral("8191")}, &err),
                 3);
        QVERIFY2(err.contains("grew by 8192 bytes (8.0KiB), more than the allowed 8191"),
                 err.constData());
        QCOMPARE(code({a, b, QStringLiteral("--fail-above-delta"), QStringLiteral("8KiB")}), 0);
        QCOMPARE(code({b, a, QStringLiteral("--fail-above-delta"), QStringLiteral("0")}), 0);
        QCOMPARE(code({a, b, QStringLiteral("--fail-above-delta"), QStringLiteral("lots")}), 1);
        QCOMPARE(code({a, b, QStringLiteral("--fail-above-delta")}), 1);

        // Parameter 0 of tpu_random_normal donated (its allocation also maybe-live-out) before,
        // not after: a lost donation. The other way round it is gained, and the gate passes.
        QTemporaryDir dir;
        const std::string donated =
            dir.filePath(QStringLiteral("donated-buffer-assignment.txt")).toStdString();
        const std::string header = "allocation 2: size 512, parameter 0, shape |u32[2]| at "
                                   "ShapeIndex {}:";
        std::string text = readFile(samplePath("tpu_random_normal"));
        QVERIFY(text.find(header) != std::string::npos);
        writeFile(donated, replaceAll(text, header,
                                      header.substr(0, header.size() - 1) + ", maybe-live-out:"));
        const QString d = QString::fromStdString(donated);
        QCOMPARE(code({d, b}), 0);
        QCOMPARE(code({d, b, QStringLiteral("--fail-on-lost-donation")}, &err), 3);
        QVERIFY2(err.contains("parameter 0 {} (512B) was aliased with an output"), err.constData());
        QCOMPARE(code({b, d, QStringLiteral("--fail-on-lost-donation")}), 0);
        QCOMPARE(code({d, d, QStringLiteral("--fail-on-lost-donation")}), 0);
        const QJsonObject o = diffJson({d, b}, 0);
        QCOMPARE(o[QStringLiteral("lost_donations")].toInteger(), 1);
        const QJsonObject lost = o[QStringLiteral("donations")].toArray().at(0).toObject();
        QCOMPARE(lost[QStringLiteral("parameter")].toInteger(), 0);
        QCOMPARE(lost[QStringLiteral("bytes")].toInteger(), 512);
        QVERIFY(lost[QStringLiteral("lost")].toBool());
        // The Values tab's "lost donation" rows: the parameter's one value, Arg_0.1, which is
        // still there after (the same value, no longer aliased).
        const DumpDiff lostDiff = diffOf(loadText(readFile(donated)), loadText(text));
        QCOMPARE(lostDiff.lostDonationValues.size(), std::size_t(1));
        QCOMPARE(lostDiff.lostDonationValues[0].before.name, std::string("Arg_0.1{}"));
        QCOMPARE(lostDiff.lostDonationValues[0].after.name, std::string("Arg_0.1{}"));
        const QJsonObject gained = diffJson({b, d}, 0);
        QCOMPARE(gained[QStringLiteral("lost_donations")].toInteger(), 0);
        QCOMPARE(gained[QStringLiteral("donations")].toArray().size(), 1);
        // Both gates at once: either failing exits 3.
        QCOMPARE(code({d, b, QStringLiteral("--fail-on-lost-donation"),
                       QStringLiteral("--fail-above-delta"), QStringLiteral("1GiB")}),
                 3);
    }

    // Two variants of one program (issue 34): every op_name of one is under jit(_normal), of
    // the other under jit(_normal_v2). The trees are compared below the two roots, and the
    // report says so; the same program against itself has no such pairing.
    void variantsCompareBelowTheirRoots()
    {
        QTemporaryDir dir;
        const std::string a = samplePath("tpu_random_normal");
        const std::string b =
            dir.filePath(QStringLiteral("v2-buffer-assignment.txt")).toStdString();
        writeFile(b, replaceAll(readFile(a), "jit(_normal)", "jit(_normal_v2)"));
        const QString qa = QString::fromStdString(a);
        const QString qb = QString::fromStdString(b);
        const QJsonObject o = diffJson({qa, qb}, 0);
        const QJsonObject roots = o[QStringLiteral("op_name_roots")].toObject();
        QCOMPARE(roots[QStringLiteral("before")].toString(), QStringLiteral("jit(_normal)"));
        QCOMPARE(roots[QStringLiteral("after")].toString(), QStringLiteral("jit(_normal_v2)"));
        QCOMPARE(o[QStringLiteral("by_op_name_delta")].toArray().size(), 0);
        QCOMPARE(o[QStringLiteral("by_op_name_tree_delta")]
                     .toObject()[QStringLiteral("children")]
                     .toArray()
                     .size(),
                 0);
        const CliRun text = runBufferscope({QStringLiteral("diff"), qa, qb});
        QVERIFY(text.out.contains("  op_name roots differ (jit(_normal) → jit(_normal_v2)): the "
                                  "op_name tree is compared below them\n"));
        QVERIFY(diffJson({qa, qa}, 0)[QStringLiteral("op_name_roots")].isNull());
    }

    // A dump that looks truncated (issue 33): diff lists each dump's warnings, as report does,
    // and no gate passes on it; every gate fails with exit status 4 and says why (before: exit
    // 0 under --fail-above-delta 0, "the same on every aligned step", no warning).
    void truncatedDumpFailsEveryGate()
    {
        const QString cut = QStringLiteral(BUFFERSCOPE_TEST_DATA "/bad/truncated-live-ranges.txt");
        const QString whole = QString::fromStdString(testutil::samplePath("tpu_dynamic_slice"));
        const CliRun text = runBufferscope({QStringLiteral("diff"), cut, whole});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("  WARNING the before dump looks truncated"),
                 text.out.constData());
        QVERIFY(text.out.contains("\nWarnings in before (3)\n"));
        QVERIFY(text.out.contains("truncated-live-ranges.txt:98: the last line has no newline: the "
                                  "file looks truncated\n"));
        QVERIFY(text.out.contains("\nWarnings in after: none\n"));
        const QJsonObject o = diffJson({cut, whole}, 0);
        QVERIFY(o[QStringLiteral("before_truncated")].toBool());
        QVERIFY(!o[QStringLiteral("after_truncated")].toBool());
        QCOMPARE(o[QStringLiteral("before_warnings")].toArray().size(), 3);
        QCOMPARE(o[QStringLiteral("before_warnings")]
                     .toArray()
                     .at(0)
                     .toObject()[QStringLiteral("line")]
                     .toInteger(),
                 98);
        QCOMPARE(o[QStringLiteral("after_warnings")].toArray().size(), 0);
        for (const QStringList &gate :
             {QStringList{QStringLiteral("--fail-above-delta"), QStringLiteral("0")},
              QStringList{QStringLiteral("--fail-above-delta"), QStringLiteral("1TiB")},
              QStringList{QStringLiteral("--fail-on-lost-donation")}})
            for (const QStringList &pair : {QStringList{cut, whole}, QStringList{whole, cut}}) {
                const CliRun r = runBufferscope(QStringList{QStringLiteral("diff")} + pair + gate);
                QCOMPARE(r.code, 4);
                QVERIFY2(r.err.contains("truncated-live-ranges.txt: the dump looks truncated (see "
                                        "its warnings): the gate cannot be judged"),
                         r.err.constData());
            }
        const CliRun report =
            runBufferscope({QStringLiteral("report"), cut, QStringLiteral("--fail-above"),
                            QStringLiteral("1TiB")});
        QCOMPARE(report.code, 4);
        QVERIFY(report.err.contains("the --fail-above gate cannot be judged"));
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
