// The run as a whole (issue 52): `bufferscope summary DIR` on folders built by hand from the
// samples, a small dump written here with collectives, and ../shared/real where it is (skipped,
// saying why, where absent). Every expected figure is read by hand from the dumps' allocation
// lines and from the ENTRY lines written here, never from this code's output.
#include "CliRun.h"
#include "DumpGenerator.h"
#include "RunFacts.h"
#include "SampleTruths.h"
#include "analysis/Collectives.h"
#include "analysis/RunDiff.h"
#include "analysis/RunSummary.h"
#include "core/DumpText.h"
#include "report/RunDiffReport.h"
#include "util/SafeText.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace bufferscope;

namespace {

void write(const QString &path, const QByteArray &text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
}

/// A dump as XLA names it in a folder.
QString place(const QTemporaryDir &dir, const char *sample, const QString &stem)
{
    const QString to = dir.filePath(
        stem + QStringLiteral(".sm_8.0_gpu_after_optimizations-buffer-assignment.txt"));
    if (!QFile::copy(testutil::sampleTruth(sample).path(), to))
        qFatal("cannot copy %s", sample);
    return to;
}

/// A module with one all-reduce (1024 B, at train.py:12) and one all-gather-start whose output
/// part is 4096 B (at model.py:40), beside a 512 B parameter: argument 512, output 4096 (the
/// gather's result is the output), temp 1024 + 2048 (the start's {0} part).
const char *kCollectives = R"(BufferAssignment:
allocation 0: size 512, parameter 0, shape |f32[128]| at ShapeIndex {}:
 value: <0 p0 @0> (size=512,offset=0): f32[128]{0}
allocation 1: size 4096, output shape is |f32[1024]|, maybe-live-out:
 value: <4 g.1 @0> (size=4096,offset=0): f32[1024]{0}
allocation 2: size 3072, preallocated-temp:
 value: <1 all-reduce.3 @0> (size=1024,offset=0): f32[256]{0}
 value: <2 all-gather-start{} @0> (size=16,offset=1024): (f32[512]{0}, f32[1024]{0})
 value: <3 all-gather-start{1} @0> (size=2048,offset=1040): f32[1024]{0}

Total bytes used: 7680 (7.5KiB)

Used values:
<0 p0 @0>
 positions:
  p0
 uses:
  all-reduce.3, operand 0
 from instruction: %p0 = f32[128]{0} parameter(0)
<1 all-reduce.3 @0>
 positions:
  all-reduce.3
 uses:
  all-gather-start, operand 0
 from instruction: %all-reduce.3 = f32[256]{0} all-reduce(f32[128]{0} %p0), replica_groups={}, to_apply=%add, metadata={op_name="jit(step)/psum" source_file="/w/train.py" source_line=12}
<2 all-gather-start{} @0>
 positions:
  all-gather-start {}
 uses:
  all-gather-done, operand 0 {}
 from instruction: %all-gather-start = (f32[512]{0}, f32[1024]{0}) all-gather-start(f32[256]{0} %all-reduce.3), dimensions={0}, metadata={op_name="jit(step)/all_gather" source_file="/w/model.py" source_line=40}
<3 all-gather-start{1} @0>
 positions:
  all-gather-start {1}
  all-gather-done
 uses:
  g.1, operand 0
 from instruction: %all-gather-start = (f32[512]{0}, f32[1024]{0}) all-gather-start(f32[256]{0} %all-reduce.3), dimensions={0}, metadata={op_name="jit(step)/all_gather" source_file="/w/model.py" source_line=40}
<4 g.1 @0>
 positions:
  g.1
 uses:
 from instruction: %g.1 = f32[1024]{0} fusion(f32[1024]{0} %all-gather-done), kind=kLoop, calls=%f

HloLiveRange (max 5):
  InstructionSequence:
    0:p0
    1:all-reduce.3
    2:all-gather-start
    3:all-gather-done
    4:g.1
  BufferLiveRange:
    p0{}:0-5
    all-reduce.3{}:1-2
    all-gather-start{}:2-3
    all-gather-start{1}:2-4
    g.1{}:4-5
  Live ranges at 2 (peak):
    all-gather-start{1}: 4096 bytes (cumulative: 4096 bytes)
    all-reduce.3{}: 1024 bytes (cumulative: 5120 bytes)
    p0{}: 512 bytes (cumulative: 5632 bytes)
    all-gather-start{}: 16 bytes (cumulative: 5648 bytes)
)";

QJsonObject summaryJson(const QString &dir, int expectedCode = 0)
{
    const testutil::CliRun r =
        testutil::runBufferscope({QStringLiteral("summary"), dir, QStringLiteral("--json")});
    if (r.code != expectedCode)
        qWarning("exit %d: %s", r.code, r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject family(const QJsonObject &summary, const QString &name)
{
    for (const QJsonValue &f : summary.value(QStringLiteral("families")).toArray())
        if (f.toObject().value(QStringLiteral("name")).toString() == name)
            return f.toObject();
    return {};
}

} // namespace

class TestSummary : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesFromFiles()
    {
        QCOMPARE(
            RunSummary::functionOf("module_0294.jit_train_step.sm_8.0_gpu_after_optimizations"),
            std::string("jit_train_step"));
        QCOMPARE(
            RunSummary::functionOf("1700000000.module_0007.pjit__wrapped.tpu_after_optimizations"),
            std::string("pjit__wrapped"));
        QCOMPARE(RunSummary::functionOf("reactant-issue-1462"), std::string("reactant-issue-1462"));
        // A profiler capture's module, named by XProf with its program id.
        QCOMPARE(RunSummary::functionOf("jit_train_step(12)"), std::string("jit_train_step"));
        QCOMPARE(RunSummary::functionOf("f(x)"), std::string("f(x)"));
        QCOMPARE(RunSummary::numberOf("module_0294.jit_train_step.sm_8.0"), std::string("0294"));
        QVERIFY(collectives::isOpcode("all-gather-start"));
        QVERIFY(collectives::isOpcode("all-to-all-start"));
        QVERIFY(collectives::isOpcode("reduce-scatter"));
        QVERIFY(!collectives::isOpcode("all-gather-done"));
        QVERIFY(!collectives::isOpcode("fusion"));
        QVERIFY(!collectives::isOpcode("all-gatherx"));
    }

    void entrySignatures()
    {
        const auto sig = RunSummary::entrySignature(
            "HloModule jit_f\n\n%add (x: f32[], y: f32[]) -> f32[] {\n}\n\nENTRY %main.5 "
            "(Arg_0.1: c128[9,80,2,11520]{3,2,1,0}, Arg_1.2: (s32[], f32[2]{0}), "
            "/*index=2*/Arg_2.3: pred[]) -> f32[8] {\n  ROOT %x = f32[8] …\n}\n");
        QCOMPARE(sig.size(), std::size_t{3});
        QCOMPARE(sig[0].name, std::string("Arg_0"));
        QCOMPARE(sig[0].shape, std::string("c128[9,80,2,11520]"));
        QCOMPARE(sig[1].name, std::string("Arg_1"));
        QCOMPARE(sig[1].shape, std::string("(s32[], f32[2])"));
        QCOMPARE(sig[2].name, std::string("Arg_2"));
        QCOMPARE(sig[2].shape, std::string("pred[]"));
        QVERIFY(RunSummary::entrySignature("HloModule x\nno entry here\n").empty());
    }

    // jit_step compiled three times (the gpu_decoder_layer sample each time, 932847556 B held):
    // Arg_0 f32[8,128], then f32[16,128], then f32[8,128] again, as their before_optimizations
    // ENTRY lines say; jit_unstack once (tpu_unstack, 3136 B), its signature from the dump's
    // parameter allocation (parameter 0, |u32[4,2]|, held by Arg_0.1).
    void familiesAndWhyRecompiled()
    {
        QTemporaryDir dir;
        place(dir, "gpu_decoder_layer", QStringLiteral("module_0001.jit_step"));
        place(dir, "gpu_decoder_layer", QStringLiteral("module_0005.jit_step"));
        place(dir, "gpu_decoder_layer", QStringLiteral("module_0009.jit_step"));
        place(dir, "tpu_unstack", QStringLiteral("module_0003.jit_unstack"));
        const auto entry = [](const char *arg0) -> QByteArray {
            return QByteArray("HloModule jit_step\n\nENTRY %main.9 (Arg_0.1: ") + arg0 +
                   ", Arg_1.2: s32[]) -> f32[8] {\n  ROOT %r = f32[8]{0} parameter(1)\n}\n";
        };
        write(dir.filePath(QStringLiteral("module_0001.jit_step.before_optimizations.txt")),
              entry("f32[8,128]{1,0}"));
        write(dir.filePath(QStringLiteral("module_0005.jit_step.before_optimizations.txt")),
              entry("f32[16,128]{1,0}"));
        write(dir.filePath(QStringLiteral("module_0009.jit_step.before_optimizations.txt")),
              entry("f32[8,128]{1,0}"));
        const QJsonObject s = summaryJson(dir.path());
        const QJsonArray families = s.value(QStringLiteral("families")).toArray();
        QCOMPARE(families.size(), 2);
        // The most held first.
        QCOMPARE(families[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("jit_step"));
        const QJsonObject step = family(s, QStringLiteral("jit_step"));
        const qint64 held = testutil::sampleTruth("gpu_decoder_layer").held;
        QCOMPARE(step.value(QStringLiteral("modules")).toInteger(), 3);
        QCOMPARE(step.value(QStringLiteral("held_max")).toInteger(), held);
        QCOMPARE(step.value(QStringLiteral("held_sum")).toInteger(), 3 * held);
        // gpu_decoder_layer's device live bytes peak at step 58: 931536164 B.
        QCOMPARE(step.value(QStringLiteral("peak_max")).toInteger(), 931536164);
        const QJsonArray sigs = step.value(QStringLiteral("signatures")).toArray();
        QCOMPARE(sigs.size(), 2);
        QCOMPARE(sigs[0].toObject().value(QStringLiteral("compiles")).toInteger(), 2);
        QCOMPARE(sigs[1].toObject().value(QStringLiteral("compiles")).toInteger(), 1);
        const QJsonArray params = sigs[1].toObject().value(QStringLiteral("parameters")).toArray();
        QCOMPARE(params[0].toObject().value(QStringLiteral("shape")).toString(),
                 QStringLiteral("f32[16,128]"));
        const QString why = step.value(QStringLiteral("why")).toString();
        QVERIFY2(why.contains(QStringLiteral("compiled 3× because Arg_0 changed shape: "
                                             "f32[8,128] → f32[16,128]")),
                 qPrintable(why));
        QVERIFY(why.contains(QStringLiteral("2 distinct signatures")));

        const QJsonObject unstack = family(s, QStringLiteral("jit_unstack"));
        QCOMPARE(unstack.value(QStringLiteral("modules")).toInteger(), 1);
        QCOMPARE(unstack.value(QStringLiteral("held_max")).toInteger(), 3136);
        QCOMPARE(unstack.value(QStringLiteral("why")).toString(), QString());
        const QJsonObject dumpSig = unstack.value(QStringLiteral("signatures"))
                                        .toArray()[0]
                                        .toObject()
                                        .value(QStringLiteral("parameters"))
                                        .toArray()[0]
                                        .toObject();
        QCOMPARE(dumpSig.value(QStringLiteral("name")).toString(), QStringLiteral("Arg_0"));
        QCOMPARE(dumpSig.value(QStringLiteral("shape")).toString(), QStringLiteral("u32[4,2]"));
        QCOMPARE(s.value(QStringLiteral("modules")).toArray().size(), 4);

        // The same compile twice: nothing in the shapes says why.
        QFile::remove(
            dir.filePath(QStringLiteral("module_0005.jit_step.before_optimizations.txt")));
        write(dir.filePath(QStringLiteral("module_0005.jit_step.before_optimizations.txt")),
              entry("f32[8,128]{1,0}"));
        const QString same = family(summaryJson(dir.path()), QStringLiteral("jit_step"))
                                 .value(QStringLiteral("why"))
                                 .toString();
        QVERIFY2(same.contains(QStringLiteral("compiled 3× with one signature")), qPrintable(same));
    }

    // The largest collectives, each instruction by its largest value: all-gather-start's
    // output part is 2048 B (value 3), the all-reduce 1024 B; the -done passes the buffer on
    // and is none.
    void collectives()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral(
                  "module_0002.jit_step.sm_8.0_gpu_after_optimizations-buffer-assignment.txt")),
              kCollectives);
        const QJsonObject s = summaryJson(dir.path());
        const QJsonArray c = s.value(QStringLiteral("collectives")).toArray();
        QCOMPARE(c.size(), 2);
        QCOMPARE(c[0].toObject().value(QStringLiteral("instruction")).toString(),
                 QStringLiteral("all-gather-start"));
        QCOMPARE(c[0].toObject().value(QStringLiteral("opcode")).toString(),
                 QStringLiteral("all-gather-start"));
        QCOMPARE(c[0].toObject().value(QStringLiteral("bytes")).toInteger(), 2048);
        QCOMPARE(c[0].toObject().value(QStringLiteral("source")).toString(),
                 QStringLiteral("/w/model.py:40"));
        QCOMPARE(c[1].toObject().value(QStringLiteral("instruction")).toString(),
                 QStringLiteral("all-reduce.3"));
        QCOMPARE(c[1].toObject().value(QStringLiteral("bytes")).toInteger(), 1024);
        QCOMPARE(c[1].toObject().value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0002.jit_step.sm_8.0_gpu_after_optimizations"));
        // As text and as Markdown for an issue.
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("summary"), dir.path()});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("all-gather-start") && text.out.contains("at model.py:40"),
                 text.out.constData());
        const testutil::CliRun md = testutil::runBufferscope(
            {QStringLiteral("summary"), dir.path(), QStringLiteral("--md")});
        QCOMPARE(md.code, 0);
        QVERIFY2(
            md.out.contains("| 2.0KiB | all\\-gather\\-start | all\\-gather\\-start | jit\\_step | "
                            "model\\.py:40 |"),
            md.out.constData());
    }

    // Names from files are never markup, terminal commands or JSON syntax.
    void namesAreText()
    {
        QCOMPARE(safetext::forMarkdown("a|b*[c](d)<e>`f`"),
                 std::string("a\\|b\\*\\[c\\]\\(d\\)\\<e\\>\\`f\\`"));
        QTemporaryDir dir;
        place(dir, "tpu_unstack", QStringLiteral("module_0001.jit_<b>|x"));
        const testutil::CliRun md = testutil::runBufferscope(
            {QStringLiteral("summary"), dir.path(), QStringLiteral("--md")});
        QCOMPARE(md.code, 0);
        QVERIFY2(md.out.contains("jit\\_\\<b\\>\\|x"), md.out.constData());
        QVERIFY(!md.out.contains("<b>"));
        const QJsonObject s = summaryJson(dir.path());
        QCOMPARE(s.value(QStringLiteral("families"))
                     .toArray()[0]
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("jit_<b>|x"));
        // Both forms at once, and no folder, are refused.
        QCOMPARE(testutil::runBufferscope({QStringLiteral("summary"), dir.path(),
                                           QStringLiteral("--md"), QStringLiteral("--json")})
                     .code,
                 1);
        QCOMPARE(testutil::runBufferscope({QStringLiteral("summary")}).code, 1);
        QCOMPARE(testutil::runBufferscope(
                     {QStringLiteral("summary"), dir.filePath(QStringLiteral("none"))})
                     .code,
                 2);
    }

    // Two runs compared function by function. Before: jit_step (gpu_decoder_layer, Arg_0
    // f32[8,128]), jit_old (tpu_unstack), jit_gone (tpu_random_normal). After: jit_step the
    // same and again with f32[16,128] (tpu_dynamic_slice), jit_new (tpu_unstack: jit_old
    // renamed, the same program), jit_fresh (gpu_vllm_update_slice).
    void twoRunsCompared()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        const auto entry = [](const char *arg0) -> QByteArray {
            return QByteArray("HloModule m\n\nENTRY %main.9 (Arg_0.1: ") + arg0 +
                   ") -> f32[8] {\n}\n";
        };
        place(a, "gpu_decoder_layer", QStringLiteral("module_0001.jit_step"));
        write(a.filePath(QStringLiteral("module_0001.jit_step.before_optimizations.txt")),
              entry("f32[8,128]{1,0}"));
        place(a, "tpu_unstack", QStringLiteral("module_0002.jit_old"));
        place(a, "tpu_random_normal", QStringLiteral("module_0003.jit_gone"));
        place(b, "gpu_decoder_layer", QStringLiteral("module_0001.jit_step"));
        write(b.filePath(QStringLiteral("module_0001.jit_step.before_optimizations.txt")),
              entry("f32[8,128]{1,0}"));
        place(b, "tpu_dynamic_slice", QStringLiteral("module_0004.jit_step"));
        write(b.filePath(QStringLiteral("module_0004.jit_step.before_optimizations.txt")),
              entry("f32[16,128]{1,0}"));
        place(b, "tpu_unstack", QStringLiteral("module_0002.jit_new"));
        place(b, "gpu_vllm_update_slice", QStringLiteral("module_0005.jit_fresh"));
        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("diff"), a.path(), b.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d.value(QStringLiteral("appeared")).toArray(),
                 QJsonArray({QStringLiteral("jit_fresh")}));
        QCOMPARE(d.value(QStringLiteral("vanished")).toArray(),
                 QJsonArray({QStringLiteral("jit_gone")}));
        const QJsonArray recompiled = d.value(QStringLiteral("recompiled")).toArray();
        QCOMPARE(recompiled.size(), 1);
        QCOMPARE(recompiled[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("jit_step"));
        QCOMPARE(recompiled[0].toObject().value(QStringLiteral("before")).toInteger(), 1);
        QCOMPARE(recompiled[0].toObject().value(QStringLiteral("after")).toInteger(), 2);
        // jit_step's f32[8,128] compile is the same module: paired and unchanged; jit_old is
        // jit_new, renamed, holding what it held.
        QCOMPARE(d.value(QStringLiteral("paired_compiles")).toInteger(), 2);
        QCOMPARE(d.value(QStringLiteral("unchanged_compiles")).toInteger(), 1);
        const QJsonArray changed = d.value(QStringLiteral("changed")).toArray();
        QCOMPARE(changed.size(), 1);
        const QJsonObject renamed = changed[0].toObject();
        QCOMPARE(renamed.value(QStringLiteral("name")).toString(), QStringLiteral("jit_new"));
        QCOMPARE(renamed.value(QStringLiteral("renamed_from")).toString(),
                 QStringLiteral("jit_old"));
        QCOMPARE(renamed.value(QStringLiteral("held_delta")).toInteger(-1), 0);
        QCOMPARE(renamed.value(QStringLiteral("peak_delta")).toInteger(-1), 0);
        // Renamed and nothing else: the same dump under another name has no cause (the key is
        // always there; its value says whether a cause was found).
        QVERIFY(renamed.value(QStringLiteral("cause")).isNull());
        QVERIFY(renamed.value(QStringLiteral("cause_kind")).isNull());
        // A folder and a file are not a pair.
        QCOMPARE(
            testutil::runBufferscope(
                {QStringLiteral("diff"), a.path(),
                 QString::fromStdString(testutil::sampleTruth("tpu_unstack").path().toStdString())})
                .code,
            1);
    }

    // A damaged module in a run is compared with nothing, and said so: on stderr, in the text
    // and in --json; a gate cannot be judged on that run (exit 4), even one the rest passes.
    void damagedModuleInARunIsSaid()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        place(a, "tpu_unstack", QStringLiteral("module_0001.jit_f"));
        place(b, "tpu_unstack", QStringLiteral("module_0001.jit_f"));
        const QString damaged =
            b.filePath(QStringLiteral("module_0002.jit_g-buffer-assignment.txt"));
        write(damaged, "BufferAssignment:\nallocation 0: size zz\n");
        const testutil::CliRun json = testutil::runBufferscope(
            {QStringLiteral("diff"), a.path(), b.path(), QStringLiteral("--json")});
        QCOMPARE(json.code, 0);
        QVERIFY2(json.err.contains(damaged.toUtf8()), json.err.constData());
        const QJsonArray unreadable = QJsonDocument::fromJson(json.out)
                                          .object()
                                          .value(QStringLiteral("unreadable"))
                                          .toArray();
        QCOMPARE(unreadable.size(), 1);
        QCOMPARE(unreadable[0].toObject().value(QStringLiteral("run")).toString(),
                 QStringLiteral("after"));
        QCOMPARE(unreadable[0].toObject().value(QStringLiteral("file")).toString(), damaged);
        QVERIFY(unreadable[0]
                    .toObject()
                    .value(QStringLiteral("error"))
                    .toString()
                    .contains(QStringLiteral(":2:"))); // the line that is wrong
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("diff"), a.path(), b.path()});
        const QByteArray said =
            QByteArray("Unreadable (after run, not compared): ") + damaged.toUtf8();
        QVERIFY2(text.out.contains(said), text.out.constData());
        // jit_f is unchanged: the gate would pass on it alone.
        const testutil::CliRun gate =
            testutil::runBufferscope({QStringLiteral("diff"), a.path(), b.path(),
                                      QStringLiteral("--fail-above-delta"), QStringLiteral("0")});
        QCOMPARE(gate.code, 4);
        QVERIFY2(gate.err.contains("the gate cannot be judged"), gate.err.constData());
        // Without the damaged module, it passes.
        QVERIFY(QFile::remove(damaged));
        QCOMPARE(
            testutil::runBufferscope({QStringLiteral("diff"), a.path(), b.path(),
                                      QStringLiteral("--fail-above-delta"), QStringLiteral("0")})
                .code,
            0);
    }

    // Runs compared by what their compiles are (issue 58), on folders built by hand. Each
    // compile is a sample dump under a module name, with the ENTRY line of its
    // before_optimizations text (its signature) written here.
    //  - jit_f: the same two programs in both runs, with one signature, listed in the other
    //    order: paired by their identical buffer assignments, both unchanged (by signature and
    //    order each would meet the other program).
    //  - jit_g: f32[8], f32[16] and f32[32] before, the first two after: compiled 3× before and
    //    2× after, two unchanged, the f32[32] compile gone (held −its sample's held).
    //  - jit_id: c64[4] and pred[9,80] before, s32[3,3,3] after: no two of one kind, and two
    //    left on one side: nothing paired, two gone and one new.
    //  - jit__kernel: a 7-argument function and a 6-argument one of that name in both runs;
    //    the 7-argument one called with f32[16] instead of f32[8] after. Two functions, each
    //    compared on its own: the 6-argument one unchanged, the 7-argument one changed with
    //    "Arg_0: f32[8] → f32[16]"; never a 7-argument compile against a 6-argument one.
    void runsComparedByWhatTheCompilesAre()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        const auto entry = [](const std::vector<const char *> &shapes) {
            std::string line = "HloModule m\n\nENTRY %main.9 (";
            for (std::size_t k = 0; k < shapes.size(); ++k)
                line += (k ? ", Arg_" : "Arg_") + std::to_string(k) + "." + std::to_string(k + 1) +
                        ": " + shapes[k];
            return QByteArray::fromStdString(line + ") -> f32[8] {\n}\n");
        };
        int number = 1;
        const auto compile = [&](QTemporaryDir &run, const char *sample, const char *function,
                                 const std::vector<const char *> &shapes) {
            const QString stem = QStringLiteral("module_%1.%2")
                                     .arg(number++, 4, 10, QLatin1Char('0'))
                                     .arg(QLatin1String(function));
            place(run, sample, stem);
            write(run.filePath(stem + QStringLiteral(".before_optimizations.txt")), entry(shapes));
        };
        compile(a, "tpu_random_normal", "jit_f", {"f32[4]{0}"});
        compile(a, "tpu_unstack", "jit_f", {"f32[4]{0}"});
        compile(b, "tpu_unstack", "jit_f", {"f32[4]{0}"});
        compile(b, "tpu_random_normal", "jit_f", {"f32[4]{0}"});
        compile(a, "tpu_random_normal", "jit_g", {"f32[8]{0}"});
        compile(a, "tpu_unstack", "jit_g", {"f32[16]{0}"});
        compile(a, "tpu_dynamic_slice", "jit_g", {"f32[32]{0}"});
        compile(b, "tpu_random_normal", "jit_g", {"f32[8]{0}"});
        compile(b, "tpu_unstack", "jit_g", {"f32[16]{0}"});
        compile(a, "tpu_random_normal", "jit_id", {"c64[4]{0}"});
        compile(a, "tpu_unstack", "jit_id", {"pred[9,80]{1,0}"});
        compile(b, "tpu_dynamic_slice", "jit_id", {"s32[3,3,3]{2,1,0}"});
        const std::vector<const char *> seven = {"f32[8]{0}", "s32[]", "s32[]", "s32[]",
                                                 "s32[]",     "s32[]", "s32[]"};
        std::vector<const char *> sevenAfter = seven;
        sevenAfter[0] = "f32[16]{0}";
        const std::vector<const char *> six = {"f32[8]{0}", "s32[]", "s32[]",
                                               "s32[]",     "s32[]", "s32[]"};
        compile(a, "tpu_random_normal", "jit__kernel", seven);
        compile(a, "tpu_unstack", "jit__kernel", six);
        compile(b, "tpu_dynamic_slice", "jit__kernel", sevenAfter);
        compile(b, "tpu_unstack", "jit__kernel", six);

        // The run summary: two functions named jit__kernel, each its own row.
        const QJsonObject summary = summaryJson(a.path());
        QCOMPARE(summary.value(QStringLiteral("shared_names")).toArray(),
                 QJsonArray({QStringLiteral("two functions share the name `jit__kernel`: 7 and 6 "
                                            "arguments")}));
        QStringList labels;
        for (const QJsonValue &f : summary.value(QStringLiteral("families")).toArray())
            labels << f.toObject().value(QStringLiteral("label")).toString();
        QVERIFY2(labels.contains(QStringLiteral("jit__kernel (7 arguments)")),
                 qPrintable(labels.join(u',')));
        QVERIFY2(labels.contains(QStringLiteral("jit__kernel (6 arguments)")),
                 qPrintable(labels.join(u',')));
        for (const QJsonValue &f : summary.value(QStringLiteral("families")).toArray())
            if (f.toObject().value(QStringLiteral("name")).toString() ==
                QStringLiteral("jit__kernel"))
                QCOMPARE(f.toObject().value(QStringLiteral("why")).toString(), QString());

        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("diff"), a.path(), b.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        QVERIFY(d.value(QStringLiteral("appeared")).toArray().isEmpty());
        QVERIFY(d.value(QStringLiteral("vanished")).toArray().isEmpty());
        // jit_f 2, jit_g 2, jit__kernel 2 paired; of them all but jit__kernel's 7-argument
        // compile unchanged.
        QCOMPARE(d.value(QStringLiteral("paired_compiles")).toInteger(), 6);
        QCOMPARE(d.value(QStringLiteral("unchanged_compiles")).toInteger(), 5);
        QJsonArray recompiled = d.value(QStringLiteral("recompiled")).toArray();
        QCOMPARE(recompiled.size(), 2);
        QMap<QString, QPair<qint64, qint64>> counts;
        for (const QJsonValue &v : recompiled)
            counts[v.toObject().value(QStringLiteral("name")).toString()] = {
                v.toObject().value(QStringLiteral("before")).toInteger(),
                v.toObject().value(QStringLiteral("after")).toInteger()};
        QCOMPARE(counts.value(QStringLiteral("jit_g")), (QPair<qint64, qint64>(3, 2)));
        QCOMPARE(counts.value(QStringLiteral("jit_id")), (QPair<qint64, qint64>(2, 1)));
        const QJsonArray compiles = d.value(QStringLiteral("compiles")).toArray();
        QStringList rows;
        for (const QJsonValue &v : compiles) {
            const QJsonObject c = v.toObject();
            rows << c.value(QStringLiteral("change")).toString() + QLatin1Char(' ') +
                        c.value(QStringLiteral("name")).toString() + QLatin1Char(' ') +
                        c.value(QStringLiteral("signature")).toString();
        }
        rows.sort();
        QCOMPARE(rows, QStringList({QStringLiteral("changed jit__kernel (7 arguments) (f32[16], "
                                                   "s32[], s32[], s32[], s32[], s32[], s32[])"),
                                    QStringLiteral("gone jit_g (f32[32])"),
                                    QStringLiteral("gone jit_id (c64[4])"),
                                    QStringLiteral("gone jit_id (pred[9,80])"),
                                    QStringLiteral("new jit_id (s32[3,3,3])")}));
        for (const QJsonValue &v : compiles) {
            const QJsonObject c = v.toObject();
            if (c.value(QStringLiteral("change")).toString() != QStringLiteral("changed"))
                continue;
            QCOMPARE(c.value(QStringLiteral("what_changed")).toString(),
                     QStringLiteral("Arg_0: f32[8] → f32[16]"));
            // The 7-argument compiles: tpu_random_normal before, tpu_dynamic_slice after.
            QCOMPARE(c.value(QStringLiteral("held_before")).toInteger(),
                     testutil::sampleTruth("tpu_random_normal").held);
            QCOMPARE(c.value(QStringLiteral("held_after")).toInteger(),
                     testutil::sampleTruth("tpu_dynamic_slice").held);
        }
        // The gone jit_g compile: its held, taken away.
        for (const QJsonValue &v : compiles)
            if (v.toObject().value(QStringLiteral("signature")).toString() ==
                QStringLiteral("(f32[32])"))
                QCOMPARE(v.toObject().value(QStringLiteral("held_delta")).toInteger(),
                         -testutil::sampleTruth("tpu_dynamic_slice").held);
        QCOMPARE(d.value(QStringLiteral("changed")).toArray().size(), 1);
    }

    // A tiny function that vanishes while a larger one appears is not a rename, however much of
    // the tiny one the larger holds. Before: jit_tiny, tpu_unstack (1 argument, u32[4,2]; its
    // 19 values). After: jit_big, the same module with 24 more thread-local values of a
    // reduction of its own, so that all 19 match and are a share of 19/43 of it. Small and not
    // identical: jit_tiny vanished, jit_big appeared. The same tpu_unstack renamed is a rename.
    void tinyFunctionIsNoRename()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        QTemporaryDir c;
        place(a, "tpu_unstack", QStringLiteral("module_0001.jit_tiny"));
        std::string big =
            testutil::readFile(testutil::sampleTruth("tpu_unstack").path().toStdString());
        std::string more;
        std::string blocks;
        for (int k = 0; k < 24; ++k) {
            const std::string name = "sum." + std::to_string(k);
            more += "allocation " + std::to_string(20 + k) +
                    ": size 4096, thread-local:\n value: <" + std::to_string(100 + k) + " " + name +
                    " @0> (size=4096,offset=0): u32[]\n";
            blocks += "<" + std::to_string(100 + k) + " " + name + " @0>\n positions:\n  " + name +
                      "\n uses:\n from instruction: %" + name + " = u32[] add(%lhs, %rhs)\n";
        }
        big = testutil::replaceAll(big, "\nTotal bytes used: 52288 (51.1KiB)",
                                   more + "\nTotal bytes used: 150592 (147.1KiB)");
        big = testutil::replaceAll(
            big, "\n\nHloLiveRange (max 7):", "\n" + blocks + "\nHloLiveRange (max 7):");
        testutil::writeFile(b.filePath(QStringLiteral("module_0001.jit_big.sm_8.0_gpu_after_"
                                                      "optimizations-buffer-assignment.txt"))
                                .toStdString(),
                            big);
        place(c, "tpu_unstack", QStringLiteral("module_0001.jit_renamed"));
        const auto diffJson = [](const QString &x, const QString &y) {
            const testutil::CliRun r =
                testutil::runBufferscope({QStringLiteral("diff"), x, y, QStringLiteral("--json")});
            if (r.code != 0)
                qWarning("%s", r.err.constData());
            return QJsonDocument::fromJson(r.out).object();
        };
        const QJsonObject d = diffJson(a.path(), b.path());
        QCOMPARE(d.value(QStringLiteral("vanished")).toArray(),
                 QJsonArray({QStringLiteral("jit_tiny")}));
        QCOMPARE(d.value(QStringLiteral("appeared")).toArray(),
                 QJsonArray({QStringLiteral("jit_big")}));
        QCOMPARE(d.value(QStringLiteral("paired_compiles")).toInteger(), 0);
        // The module diff of the two: every value of the small one matched.
        const testutil::CliRun m = testutil::runBufferscope(
            {QStringLiteral("diff"),
             QDir(a.path()).entryInfoList({QStringLiteral("*.txt")})[0].filePath(),
             QDir(b.path()).entryInfoList({QStringLiteral("*.txt")})[0].filePath(),
             QStringLiteral("--json")});
        const QJsonObject md = QJsonDocument::fromJson(m.out).object();
        QCOMPARE(md.value(QStringLiteral("matching"))
                     .toObject()
                     .value(QStringLiteral("matched"))
                     .toInteger(),
                 19);
        QCOMPARE(md.value(QStringLiteral("matching"))
                     .toObject()
                     .value(QStringLiteral("added"))
                     .toInteger(),
                 24);
        // The same module under another name is a rename.
        const QJsonObject same = diffJson(a.path(), c.path());
        QVERIFY(same.value(QStringLiteral("vanished")).toArray().isEmpty());
        const QJsonObject renamed = same.value(QStringLiteral("compiles")).toArray()[0].toObject();
        QCOMPARE(renamed.value(QStringLiteral("renamed_from")).toString(),
                 QStringLiteral("jit_tiny"));
        QCOMPARE(renamed.value(QStringLiteral("held_delta")).toInteger(), 0);
    }

    // ../shared/real/pairs/renamed: one program before and after its author renamed the
    // function (jit__tau_channel_step → jit__tau_kernel) and turned a concatenate into a
    // two-output fusion; its live peak moves by 16 bytes, from 229,587,312 bytes at step 59 to
    // 229,587,328 at step 61 (the union of live byte ranges, docs/FORMAT.md).
    void realRenamedRun()
    {
        const QString pairs =
            QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real/pairs/renamed"));
        if (!QFileInfo::exists(pairs))
            QSKIP("../shared/real is not here: the real dumps live beside the repository, which a "
                  "clone does not have");
        const QString before = pairs + QStringLiteral("/before");
        const QString after = pairs + QStringLiteral("/after");
        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("diff"), before, after, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        QVERIFY(d.value(QStringLiteral("appeared")).toArray().isEmpty());
        QVERIFY(d.value(QStringLiteral("vanished")).toArray().isEmpty());
        const QJsonObject c = d.value(QStringLiteral("changed")).toArray()[0].toObject();
        QCOMPARE(c.value(QStringLiteral("name")).toString(), QStringLiteral("jit__tau_kernel"));
        QCOMPARE(c.value(QStringLiteral("renamed_from")).toString(),
                 QStringLiteral("jit__tau_channel_step"));
        QCOMPARE(c.value(QStringLiteral("peak_delta")).toInteger(), 16);
        QVERIFY(!c.value(QStringLiteral("cause")).toString().isEmpty());
        // The rename search would try it early: its sketch is near the before module's (a
        // concatenate became a two-output fusion; 0.69 of the sampled kinds in both).
        const auto sketch = [](const QString &dir) {
            const QString file = QDir(dir).entryList({QStringLiteral("*buffer-assignment.txt")})[0];
            RunSummary::Module m;
            m.sketch = RunSummary::sketchOf(
                *testutil::loadText(testutil::readFile(QString(dir + u'/' + file).toStdString()))
                     .dump);
            return m;
        };
        const double likeness = RunSummary::likeness(sketch(before), sketch(after));
        QVERIFY2(likeness > 0.5, std::to_string(likeness).c_str());
        // The gates are diff's: the peak grew by 16 B, more than 8.
        QCOMPARE(
            testutil::runBufferscope({QStringLiteral("diff"), before, after,
                                      QStringLiteral("--fail-above-delta"), QStringLiteral("8")})
                .code,
            3);
        QCOMPARE(
            testutil::runBufferscope({QStringLiteral("diff"), before, after,
                                      QStringLiteral("--fail-above-delta"), QStringLiteral("16")})
                .code,
            0);
    }

    // Categories are worked out for the compiles that may be their family's largest, not for
    // every one (issue 75: they made `summary` slower than before they were there): one
    // function, jit_step, compiled four times with one signature (the ENTRY line beside each),
    // read in order on one thread: gpu_decoder_layer (holds 932,847,556 B) first, then
    // tpu_random_normal (92,164 B), tpu_unstack and tpu_dynamic_slice, each holding less than
    // the first. Only the first gets categories, and it is the family's largest.
    void categoriesOnlyWhereLargest()
    {
        QTemporaryDir dir;
        const char *samples[] = {"gpu_decoder_layer", "tpu_random_normal", "tpu_unstack",
                                 "tpu_dynamic_slice"};
        for (int k = 0; k < 4; ++k) {
            const QString stem = QStringLiteral("module_000%1.jit_step").arg(k + 1);
            place(dir, samples[k], stem);
            QFile entry(dir.filePath(stem + QStringLiteral(".before_optimizations.txt")));
            QVERIFY(entry.open(QIODevice::WriteOnly));
            entry.write("HloModule jit_step\n\nENTRY %main.1 (Arg_0.1: f32[8]) -> f32[8] {\n  "
                        "ROOT %r = f32[8]{0} parameter(0)\n}\n");
        }
        const RunSummary s = RunFacts::summarize(dir.path(), 1);
        QCOMPARE(s.modules.size(), std::size_t(4));
        QCOMPARE(s.families.size(), std::size_t(1));
        const RunSummary::Family &f = s.families.front();
        QCOMPARE(s.modules[f.largest].held, Q_INT64_C(932847556));
        QVERIFY(s.modules[f.largest].categorized);
        std::size_t categorized = 0;
        for (const RunSummary::Module &m : s.modules)
            categorized += m.categorized;
        QCOMPARE(categorized, std::size_t(1));
    }

    // The rename search is linear in the run (issue 74): 200 functions vanished while 200
    // others of the same size and signature appeared, none a rename. Each vanished function
    // used to be compared with every one that appeared, 200 × 200 = 40,000 comparisons, each
    // reading two modules; now with at most kRenameTries, 600 in all.
    void renameSearchIsBounded()
    {
        const auto module = [](const std::string &function, std::uint64_t fingerprint) {
            RunSummary::Module m;
            m.name = m.file = "module_" + std::to_string(fingerprint) + "." + function;
            m.function = function;
            m.read = true;
            m.held = m.total = m.livePeak = 1000;
            m.signature = {{"x", "f32[8]"}};
            m.fingerprint = fingerprint;
            m.valueCount = 100;
            return m;
        };
        constexpr std::size_t n = 200;
        std::vector<RunSummary::Module> before;
        std::vector<RunSummary::Module> after;
        for (std::size_t k = 0; k < n; ++k) {
            before.push_back(module("jit_fn_" + std::to_string(k), k + 1));
            after.push_back(module("jit_other_" + std::to_string(k), n + k + 1));
        }
        const RunSummary a = RunSummary::of(std::move(before));
        const RunSummary b = RunSummary::of(std::move(after));
        std::atomic<std::size_t> compared = 0;
        const RunDiff d = RunDiff::of(
            a, b,
            [&compared](const RunSummary::Module &, const RunSummary::Module &) {
                ++compared;
                RunDiff::Comparison c; // compared: a tenth of each matched, another program
                c.ok = true;
                c.matchedBefore = c.matchedAfter = 0.1;
                return c;
            },
            1);
        QCOMPARE(compared.load(), n * RunDiff::kRenameTries);
        QCOMPARE(d.renameComparisons, n * RunDiff::kRenameTries);
        QCOMPARE(d.vanished.size(), n);
        QCOMPARE(d.appeared.size(), n);
    }

    // The search compares the most alike first, by the scan's sketches of what each program
    // is made of: five real modules vanished under one name each and appeared under another,
    // in the reverse order, every one given the same size, held bytes and signature so that
    // nothing but the sketch tells them apart. Each is found at its first comparison; ordered by
    // size alone, the fifth appeared function was jit_a's counterpart, past the three tries. A
    // module renumbered as a recompile prints it keeps its sketch exactly.
    void renameSearchTriesTheMostAlikeFirst()
    {
        const char *samples[] = {"gpu_decoder_layer", "gpu_vllm_update_slice", "tpu_dynamic_slice",
                                 "tpu_random_normal", "tpu_unstack"};
        const auto module = [](const char *sample, const std::string &function) {
            const testutil::Loaded l =
                testutil::loadText(testutil::readFile(testutil::samplePath(sample)));
            RunSummary::Module m = RunSummary::of(*l.dump, MemoryAnalysis::of(*l.dump), 0, sample,
                                                  "module_0001." + function);
            m.held = m.total = m.livePeak = 1000;
            m.valueCount = 100;
            m.signature = {{"x", "f32[8]"}};
            m.fingerprint = std::hash<std::string>()(function); // a recompile: none identical
            return m;
        };
        std::vector<RunSummary::Module> before;
        std::vector<RunSummary::Module> after;
        for (std::size_t k = 0; k < 5; ++k) {
            before.push_back(module(samples[k], std::string("jit_") + char('a' + k)));
            after.push_back(module(samples[4 - k], std::string("jit_") + char('v' + k)));
        }
        for (const RunSummary::Module &m : before) {
            QVERIFY(!m.sketch.empty());
            QCOMPARE(RunSummary::likeness(m, m), 1.0);
        }
        const RunSummary a = RunSummary::of(std::move(before));
        const RunSummary b = RunSummary::of(std::move(after));
        std::size_t compared = 0;
        const RunDiff d = RunDiff::of(
            a, b,
            [&compared](const RunSummary::Module &x, const RunSummary::Module &y) {
                ++compared;
                RunDiff::Comparison c;
                c.ok = true;
                c.matchedBefore = c.matchedAfter = x.file == y.file ? 1.0 : 0.1;
                c.identical = x.file == y.file;
                return c;
            },
            1);
        // Five to find the renames; the pairs found are not compared again.
        QCOMPARE(d.renameComparisons, std::size_t(5));
        QCOMPARE(compared, std::size_t(5));
        QVERIFY(d.vanished.empty());
        QVERIFY(d.appeared.empty());
        QCOMPARE(d.rows.size(), std::size_t(5));
        for (const RunDiff::Row &r : d.rows) {
            QCOMPARE(r.beforeFile, r.afterFile);
            // Identical but for names: the same program, not "another program".
            QVERIFY(r.sameInputs);
            QCOMPARE(r.whatChanged,
                     std::string("the same program: every value matched, nothing changed"));
        }
        // Renumbered: every name and value id moved, the program the same.
        const std::string text = testutil::readFile(testutil::samplePath("gpu_decoder_layer"));
        const testutil::Loaded x = testutil::loadText(text);
        const testutil::Loaded y = testutil::loadText(bufferscope::bench::renumberDump(text));
        RunSummary::Module mx;
        RunSummary::Module my;
        mx.sketch = RunSummary::sketchOf(*x.dump);
        my.sketch = RunSummary::sketchOf(*y.dump);
        QCOMPARE(mx.sketch.size(), RunSummary::kSketchSize);
        QCOMPARE(RunSummary::likeness(mx, my), 1.0);
    }

    // ../shared/real: jit__kernel's largest collective is all-gather-start.1, whose {1} part is
    // 3686400000 B (its allocation line).
    void realFolder()
    {
        const QString real =
            QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real"));
        if (!QFileInfo::exists(real))
            QSKIP("../shared/real is not here: the real dumps live beside the repository, which a "
                  "clone does not have");
        const QJsonObject s = summaryJson(real);
        const QJsonObject top = s.value(QStringLiteral("collectives")).toArray()[0].toObject();
        QCOMPARE(top.value(QStringLiteral("instruction")).toString(),
                 QStringLiteral("all-gather-start.1"));
        QCOMPARE(top.value(QStringLiteral("bytes")).toInteger(), 3686400000);
        QCOMPARE(top.value(QStringLiteral("function")).toString(), QStringLiteral("jit__kernel"));
        // jit__kernel holds 8478720964 + 3064320000 + 19907138048 B.
        QCOMPARE(
            family(s, QStringLiteral("jit__kernel")).value(QStringLiteral("held_max")).toInteger(),
            Q_INT64_C(31450179012));
    }

    // A pair whose comparison failed (a module that did not load when compared) is "could not
    // compare", with why, in the text and the JSON; never a change with no cause (issue 74).
    void failedComparisonIsSaid()
    {
        const auto module = [](const char *file, std::uint64_t fingerprint, std::int64_t held) {
            RunSummary::Module m;
            m.file = file;
            m.name = std::string(file);
            m.function = "jit_f";
            m.read = true;
            m.held = held;
            m.total = held;
            m.livePeak = held;
            m.fingerprint = fingerprint;
            m.valueCount = 100;
            return m;
        };
        const RunSummary a = RunSummary::of({module("module_0001.jit_f", 1, 1000)});
        const RunSummary b = RunSummary::of({module("module_0001.jit_f", 2, 2000)});
        const RunDiff d = RunDiff::of(
            a, b,
            [](const RunSummary::Module &, const RunSummary::Module &) {
                RunDiff::Comparison c;
                c.error = "module_0001.jit_f: not enough memory";
                return c;
            },
            1);
        QCOMPARE(d.rows.size(), std::size_t(1));
        QCOMPARE(d.rows[0].change, RunDiff::Change::Changed);
        QVERIFY(!d.rows[0].comparison.ok);
        const std::string text = RunDiffReport::text(d, "a", "b", 10);
        QVERIFY2(text.find("why: could not compare: module_0001.jit_f: not enough memory") !=
                     std::string::npos,
                 text.c_str());
        const QJsonObject row =
            QJsonDocument::fromJson(QByteArray::fromStdString(RunDiffReport::json(d, "a", "b")))
                .object()[QStringLiteral("compiles")]
                .toArray()
                .first()
                .toObject();
        QCOMPARE(row[QStringLiteral("compared")].toBool(true), false);
        QVERIFY(row[QStringLiteral("compare_error")].toString().contains(
            QStringLiteral("not enough memory")));
    }

    // A compile with a byte-for-byte twin under another function of the other run is paired
    // with that twin first (issue 75: a changed row paired it with another compile of its own
    // name, while its twin was "new"). Before: jit_f's compile (fingerprint 2). After: jit_f
    // compiled anew (fingerprint 9, the same signature) and jit_g holding the same buffer
    // assignment (fingerprint 2). Rows: jit_f → jit_g renamed, identical, and jit_f's new
    // compile; nothing to compare.
    void twinIsPairedFirst()
    {
        const auto module = [](const char *name, const char *function, std::uint64_t fingerprint,
                               std::int64_t held) {
            RunSummary::Module m;
            m.file = name;
            m.name = name;
            m.function = function;
            m.read = true;
            m.held = m.total = m.livePeak = held;
            m.signature = {{"x", "f32[8]"}};
            m.fingerprint = fingerprint;
            m.valueCount = 100;
            return m;
        };
        const RunSummary a = RunSummary::of({module("module_0001.jit_f", "jit_f", 2, 2000)});
        const RunSummary b = RunSummary::of({module("module_0001.jit_f", "jit_f", 9, 5000),
                                             module("module_0002.jit_g", "jit_g", 2, 2000)});
        int compared = 0;
        const RunDiff d = RunDiff::of(
            a, b,
            [&compared](const RunSummary::Module &, const RunSummary::Module &) {
                ++compared;
                return RunDiff::Comparison();
            },
            1);
        QCOMPARE(compared, 0);
        QCOMPARE(d.rows.size(), std::size_t(2));
        const auto row = [&d](RunDiff::Change change) {
            for (const RunDiff::Row &r : d.rows)
                if (r.change == change)
                    return &r;
            return static_cast<const RunDiff::Row *>(nullptr);
        };
        const RunDiff::Row *renamed = row(RunDiff::Change::Changed);
        QVERIFY(renamed);
        QCOMPARE(renamed->before, std::string("module_0001.jit_f"));
        QCOMPARE(renamed->after, std::string("module_0002.jit_g"));
        QVERIFY(renamed->comparison.identical);
        QCOMPARE(renamed->heldDelta(), std::int64_t(0));
        QVERIFY(!renamed->renamedFrom.empty());
        const RunDiff::Row *fresh = row(RunDiff::Change::New);
        QVERIFY(fresh);
        QCOMPARE(fresh->after, std::string("module_0001.jit_f"));
    }

    // The shapes of a partitioned program say whose they are (issue 75: "What changed" gave
    // the global shapes of the HLO before optimizations, "Why" the per-device ones of the
    // buffer assignment, unsaid). jit_f before: tpu_unstack, u32[4,2] on each device, written
    // as u32[8,2] before partitioning (two devices); after: tpu_random_normal, u32[2] each,
    // u32[4] before partitioning. Its row says both.
    void globalAndPerDeviceShapes()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        const QString stem = QStringLiteral("module_0001.jit_f");
        place(a, "tpu_unstack", stem);
        place(b, "tpu_random_normal", stem);
        write(a.filePath(stem + QStringLiteral(".before_optimizations.txt")),
              "HloModule m\n\nENTRY %main.3 (Arg_0.1: u32[8,2]) -> u32[8,2] {\n}\n");
        write(b.filePath(stem + QStringLiteral(".before_optimizations.txt")),
              "HloModule m\n\nENTRY %main.3 (Arg_0.1: u32[4]) -> u32[4] {\n}\n");
        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("diff"), a.path(), b.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray compiles =
            QJsonDocument::fromJson(r.out).object().value(QStringLiteral("compiles")).toArray();
        QCOMPARE(compiles.size(), 1);
        const QString what =
            compiles.first().toObject().value(QStringLiteral("what_changed")).toString();
        QVERIFY2(what.startsWith(QStringLiteral("Arg_0: u32[8,2] → u32[4] (global shapes; per "
                                                "device: ")),
                 qPrintable(what));
        QVERIFY2(what.endsWith(QStringLiteral("u32[4,2] → u32[2])")), qPrintable(what));
    }

    // A function whose compile in the before run could not be read is not "vanished" and
    // "appeared" at once (issue 74): the unreadable one is listed as unreadable, and the
    // after run's compile is a row that says it was not compared.
    void unreadableIsNotVanished()
    {
        RunSummary::Module broken;
        broken.file = "a/module_0001.jit_f";
        broken.name = "module_0001.jit_f";
        broken.function = "jit_f";
        broken.error = "not a dump";
        RunSummary::Module fine;
        fine.file = "b/module_0001.jit_f";
        fine.name = "module_0001.jit_f";
        fine.function = "jit_f";
        fine.read = true;
        fine.held = fine.total = fine.livePeak = 3000;
        fine.signature = {{"x", "u32[4,2]"}};
        fine.fingerprint = 7;
        fine.valueCount = 10;
        const RunDiff d = RunDiff::of(
            RunSummary::of({broken}), RunSummary::of({fine}),
            [](const RunSummary::Module &, const RunSummary::Module &) {
                return RunDiff::Comparison();
            },
            1);
        QCOMPARE(d.unreadable.size(), std::size_t(1));
        QVERIFY(d.appeared.empty());
        QVERIFY(d.vanished.empty());
        QCOMPARE(d.rows.size(), std::size_t(1));
        QVERIFY2(d.rows[0].whatChanged.starts_with("not compared"), d.rows[0].whatChanged.c_str());
    }

    // A profile of two hosts (plugins/profile/<run>/host1 and host2, each the same capture):
    // every function compiled once, on two hosts, not twice (issue 74).
    void twoHostsAreNotRecompiles()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("plugins/profile/r1"));
        QVERIFY(QDir().mkpath(run));
        const QString capture = QStringLiteral(
            BUFFERSCOPE_TEST_DATA "/binary/profile/plugins/profile/2026_11_27_23_00_00/"
                                  "host0.xplane.pb");
        QVERIFY(QFile::copy(capture, run + QStringLiteral("/host1.xplane.pb")));
        QVERIFY(QFile::copy(capture, run + QStringLiteral("/host2.xplane.pb")));
        const QJsonObject s = summaryJson(dir.path());
        QCOMPARE(s.value(QStringLiteral("modules")).toArray().size(), 4);
        for (const char *name : {"jit_random_normal", "jit_unstack"}) {
            const QJsonObject f = family(s, QString::fromLatin1(name));
            QCOMPARE(f.value(QStringLiteral("modules")).toInt(), 1);
            QVERIFY2(f.value(QStringLiteral("why")).toString().isEmpty(),
                     qPrintable(f.value(QStringLiteral("why")).toString()));
        }
    }
};

QTEST_GUILESS_MAIN(TestSummary)
#include "tst_summary.moc"
