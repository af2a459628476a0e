// The catalog of what was opened (core/open): every kind of file by its name, a file whose name
// says nothing by its first bytes, a capture as its modules, a folder's walk, and the reader
// that takes what the catalog found. The expected formats are those of XLA's file names
// (docs/FORMAT.md §1) and of the files' bytes (gzip's and xz's magic numbers, a protobuf's
// NUL bytes); the expected totals are the ones XLA printed in the sample dumps (SampleTruths.h).

#include "AttackProtos.h"
#include "CliRun.h"
#include "SampleTruths.h"
#include "open/Catalog.h"
#include "open/ModuleReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

using namespace bufferscope;

namespace {

const QString kCapture = QStringLiteral(
    BUFFERSCOPE_TEST_DATA "/binary/profile/plugins/profile/2026_11_27_23_00_00/host0.xplane.pb");

QString protoOf(const char *sample)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA
                          "/binary/protos/module_0001.%1.after_optimizations.hlo.pb")
        .arg(QLatin1String(sample));
}

bool write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

std::int64_t totalOf(const LoadResult &r)
{
    return r.ok() ? r.dump->totalBytes() : -1;
}

} // namespace

class TestCatalog : public QObject
{
    Q_OBJECT

private slots:
    // Each kind of module file by its name (XLA's suffixes), with no byte of it read: the
    // files are empty.
    void kindsByName()
    {
        QTemporaryDir dir;
        const struct
        {
            const char *name;
            ModuleFormat format;
        } cases[] = {
            {"module_0001.a.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
             ModuleFormat::DumpText},
            {"module_0002.b-live-range.txt", ModuleFormat::DumpText},
            {"module_0003.c.after_optimizations.hlo.pb", ModuleFormat::HloProto},
            {"module_0004.d.after_optimizations.hlo.pb.gz", ModuleFormat::HloProto},
            {"module_0005.e.after_optimizations.hlo.pb.xz", ModuleFormat::HloProto},
            {"jit_loss_fn(17).hlo_proto.pb", ModuleFormat::HloProto},
            {"module_0006.f-memory-usage-report.txt", ModuleFormat::ReportText},
            {"module_0007.g-memory-usage-report.pb", ModuleFormat::ReportProto},
            {"host1.xplane.pb", ModuleFormat::Capture},
        };
        for (const auto &c : cases) {
            const QString path = dir.filePath(QLatin1String(c.name));
            QVERIFY(write(path, {}));
            const ModuleRef ref = Catalog::refOf(path.toStdString());
            QVERIFY2(ref.format == c.format, c.name);
            QCOMPARE(ref.path, path.toStdString());
        }
        // XProf's sidecar: its module is named as XProf names it, its function before the id.
        const ModuleRef sidecar = Catalog::refOf(
            dir.filePath(QStringLiteral("jit_loss_fn(17).hlo_proto.pb")).toStdString());
        QCOMPARE(sidecar.name, std::string("jit_loss_fn(17)"));
        QCOMPARE(sidecar.function, std::string("jit_loss_fn"));
        // A split module's files are read in XLA's order whichever of them is named.
        const std::string stem = dir.filePath(QStringLiteral("module_0008.h")).toStdString();
        for (const char *suffix :
             {"-live-range.txt", "-buffer-assignment-values.txt", "-buffer-assignment.txt"})
            QVERIFY(write(QString::fromStdString(stem + suffix), {}));
        const ModuleRef split = Catalog::refOf(stem + "-live-range.txt");
        QCOMPARE(split.files, (std::vector<std::string>{stem + "-buffer-assignment.txt",
                                                        stem + "-buffer-assignment-values.txt",
                                                        stem + "-live-range.txt"}));
        QCOMPARE(split.number, std::string("0008"));
    }

    // A file whose name says nothing is known by its bytes: a protobuf (NUL bytes) is an
    // HloProto, gzip's 1f 8b a compressed one, an XSpace a capture of its modules; a `.txt`
    // stays text whatever it holds.
    void kindsByContent()
    {
        QTemporaryDir dir;
        QFile proto(protoOf("tpu_unstack"));
        QVERIFY(proto.open(QIODevice::ReadOnly));
        const QByteArray bytes = proto.readAll();
        const QString bare = dir.filePath(QStringLiteral("unstack.bin"));
        QVERIFY(write(bare, bytes));
        const ModuleRef ref = Catalog::refOf(bare.toStdString());
        QVERIFY(ref.format == ModuleFormat::HloProto);
        QCOMPARE(totalOf(ModuleReader::load(ref)), testutil::sampleTruth("tpu_unstack").total);
        QCOMPARE(Catalog::kindOf(bare.toStdString()), FileKind::Dump);

        if (!QStandardPaths::findExecutable(QStringLiteral("gzip")).isEmpty()) {
            QProcess gz;
            gz.start(QStringLiteral("gzip"), {QStringLiteral("-c")});
            gz.write(bytes);
            gz.closeWriteChannel();
            QVERIFY(gz.waitForFinished(60000));
            const QString packed = dir.filePath(QStringLiteral("unstack-module"));
            QVERIFY(write(packed, gz.readAllStandardOutput()));
            const ModuleRef zipped = Catalog::refOf(packed.toStdString());
            QVERIFY(zipped.format == ModuleFormat::HloProto);
            QCOMPARE(totalOf(ModuleReader::load(zipped)),
                     testutil::sampleTruth("tpu_unstack").total);
        }

        const QString renamed = dir.filePath(QStringLiteral("trace"));
        QVERIFY(QFile::copy(kCapture, renamed));
        QCOMPARE(Catalog::refOf(renamed.toStdString()).format, ModuleFormat::Capture);
        QVERIFY(Catalog::isRun(renamed.toStdString()));
        const Catalog catalog = Catalog::of({renamed.toStdString()});
        QCOMPARE(catalog.runs, std::vector<std::string>{renamed.toStdString()});
        QCOMPARE(catalog.modules.size(), std::size_t{2});
        for (const ModuleRef &m : catalog.modules) {
            QVERIFY(m.format == ModuleFormat::CaptureMember);
            QCOMPARE(m.path, m.container + "#" + m.member);
            // The address the window hands back is the same module again.
            const ModuleRef again = Catalog::refOf(m.path);
            QCOMPARE(again.container, renamed.toStdString());
            QCOMPARE(again.member, m.member);
        }
        // Largest first: tpu_random_normal's proto is the larger.
        QCOMPARE(catalog.modules[0].member, std::string("jit_random_normal(12)"));
        QCOMPARE(totalOf(ModuleReader::loadPath(catalog.modules[0].path)),
                 testutil::sampleTruth("tpu_random_normal").total);

        // A .txt holding binary bytes is read as text, and the text reader says why not.
        const QString notText = dir.filePath(QStringLiteral("notes.txt"));
        QVERIFY(write(notText, bytes));
        QCOMPARE(Catalog::refOf(notText.toStdString()).format, ModuleFormat::DumpText);
    }

    // `<capture>#<member>`: the capture is the shortest prefix before a '#' that is a file; the
    // rest, '#' and `.xplane.pb#` included, is the member's name, looked up in the capture.
    void memberAddresses()
    {
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("c.xplane.pb"));
        QVERIFY(write(capture, "x"));
        std::string file, member;
        QVERIFY(Catalog::splitMember(capture.toStdString() + "#a.xplane.pb#b", &file, &member));
        QCOMPARE(file, capture.toStdString());
        QCOMPARE(member, std::string("a.xplane.pb#b"));
        // A folder named like a capture is not one.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("d.xplane.pb")));
        QVERIFY(!Catalog::splitMember(dir.filePath(QStringLiteral("d.xplane.pb#m")).toStdString(),
                                      &file, &member));
        // A file whose own name holds a '#' is that file.
        const QString hashed = dir.filePath(QStringLiteral("c.xplane.pb#x"));
        QVERIFY(write(hashed, "y"));
        QVERIFY(!Catalog::splitMember(hashed.toStdString(), &file, &member));
        // A folder whose name holds a '#' beside a capture of the name before it (a run
        // `c.xplane.pb#1`; issue 74): the folder, never the capture's member "1"; a module in
        // it is that file.
        const QString run = dir.filePath(QStringLiteral("c.xplane.pb#1"));
        QVERIFY(QDir().mkdir(run));
        QVERIFY(!Catalog::splitMember(run.toStdString(), &file, &member));
        QVERIFY(Catalog::refOf(run.toStdString()).format != ModuleFormat::CaptureMember);
        const QString inRun = run + QStringLiteral("/module_0001.f-buffer-assignment.txt");
        QVERIFY(QFile::copy(testutil::sampleTruth("tpu_unstack").path(), inRun));
        const ModuleRef ref = Catalog::refOf(inRun.toStdString());
        QCOMPARE(ref.format, ModuleFormat::DumpText);
        QCOMPARE(ref.files.front(), inRun.toStdString());
        // What is not on disk is still a member: `c.xplane.pb#2`.
        QVERIFY(Catalog::splitMember(capture.toStdString() + "#2", &file, &member));
        QCOMPARE(member, std::string("2"));
    }

    // Nothing the walk skips goes unsaid (issue 74): in a run folder, a module that links out
    // of it, one that links to nothing, one that links to another listed, a FIFO named as a
    // module, and a subfolder that links out: each a problem naming it and why; the one real
    // module listed.
    void skippedFilesAreNamed()
    {
        QTemporaryDir dir;
        const QString sample = testutil::sampleTruth("tpu_unstack").path();
        const QString run = dir.filePath(QStringLiteral("run"));
        const QString other = dir.filePath(QStringLiteral("other"));
        QVERIFY(QDir().mkpath(run) && QDir().mkpath(other));
        const auto name = [](int k, const char *f) {
            return QStringLiteral("module_000%1.%2.sm_8.0_gpu_after_optimizations-buffer-"
                                  "assignment.txt")
                .arg(QString::number(k), QLatin1String(f));
        };
        QVERIFY(QFile::copy(sample, run + QLatin1Char('/') + name(1, "a")));
        QVERIFY(QFile::copy(sample, other + QLatin1Char('/') + name(2, "b")));
        QVERIFY(QFile::link(QStringLiteral("../other/") + name(2, "b"),
                            run + QLatin1Char('/') + name(2, "b")));
        QVERIFY(QFile::link(QStringLiteral("nowhere"), run + QLatin1Char('/') + name(3, "c")));
        QVERIFY(QFile::link(name(1, "a"), run + QLatin1Char('/') + name(4, "a")));
        QVERIFY(::mkfifo(QString(run + QStringLiteral("/module_0005.f.after_optimizations.hlo.pb"))
                             .toLocal8Bit()
                             .constData(),
                         0600) == 0);
        QVERIFY(QFile::link(other, run + QStringLiteral("/elsewhere")));
        const Catalog c = Catalog::of({run.toStdString()});
        QCOMPARE(c.modules.size(), std::size_t(1));
        const auto said = [&c, &run](const QString &entry, const char *why) {
            const std::string path = QString(run + QLatin1Char('/') + entry).toStdString();
            return std::any_of(c.problems.begin(), c.problems.end(), [&](const CatalogProblem &p) {
                return p.path == path && p.message.find(why) != std::string::npos;
            });
        };
        QVERIFY(said(name(2, "b"), "a symbolic link out of the folder"));
        QVERIFY(said(name(3, "c"), "a symbolic link to nothing (dangling)"));
        QVERIFY(said(name(1, "a"), "the same file as one listed already") ||
                said(name(4, "a"), "the same file as one listed already"));
        QVERIFY(
            said(QStringLiteral("module_0005.f.after_optimizations.hlo.pb"), "not a regular file"));
        QVERIFY(said(QStringLiteral("elsewhere"), "a symbolic link out of the folder"));
        QCOMPARE(c.problems.size(), std::size_t(5));

        // The commands say them in every form: `list --json` an entry each, skipped, with why
        // (the one module listed beside them); `summary --json` a `skipped` list, and its text
        // and Markdown a count and a line each.
        const testutil::CliRun list =
            testutil::runBufferscope({QStringLiteral("list"), run, QStringLiteral("--json")});
        QCOMPARE(list.code, 0);
        const QJsonArray entries = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(entries.size(), 6);
        int skipped = 0;
        for (const QJsonValue &e : entries) {
            const QJsonObject o = e.toObject();
            if (!o.value(QStringLiteral("skipped")).toBool())
                continue;
            ++skipped;
            QVERIFY(o.value(QStringLiteral("module")).isNull());
            QVERIFY(!o.value(QStringLiteral("error")).toString().isEmpty());
            QCOMPARE(o.value(QStringLiteral("files")).toArray().size(), 1);
        }
        QCOMPARE(skipped, 5);
        const testutil::CliRun summary =
            testutil::runBufferscope({QStringLiteral("summary"), run, QStringLiteral("--json")});
        QCOMPARE(summary.code, 0);
        const QJsonArray listed = QJsonDocument::fromJson(summary.out)
                                      .object()
                                      .value(QStringLiteral("skipped"))
                                      .toArray();
        QCOMPARE(listed.size(), 5);
        for (const QJsonValue &k : listed)
            QVERIFY(!k.toObject().value(QStringLiteral("why")).toString().isEmpty());
        const testutil::CliRun text = testutil::runBufferscope({QStringLiteral("summary"), run});
        QVERIFY(text.out.contains("1 modules, 1 functions, 5 skipped"));
        QCOMPARE(text.out.count("  skipped: "), 5);
        const testutil::CliRun md =
            testutil::runBufferscope({QStringLiteral("summary"), run, QStringLiteral("--md")});
        QVERIFY(md.out.contains("5 files skipped (below)"));
        QVERIFY(md.out.contains("**Skipped**"));
    }

    // Two captures whose members have one address (issue 74): `a.xplane.pb` holding
    // `x.xplane.pb#jit_1(1)` and a file `a.xplane.pb#x.xplane.pb` holding `jit_1(1)` are both
    // `a.xplane.pb#x.xplane.pb#jit_1(1)`: one is listed, and the other is said.
    // A listed module carries the names of its folder's HLO texts, so that its signature is
    // looked up by name, not on disk (issue 75: two stats per module); one named by hand
    // carries none and is looked up on disk.
    void listedModulesKnowTheTextsBesideThem()
    {
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral(
            "module_0001.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"));
        QVERIFY(QFile::copy(
            QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"), dump));
        for (const char *name :
             {"module_0001.jit_f.before_optimizations.txt",
              "module_0001.jit_f.sm_8.0_gpu_after_optimizations.txt", "notes.txt"})
            QVERIFY(write(dir.filePath(QLatin1String(name)), "HloModule x\n"));
        const Catalog c = Catalog::of({dir.path().toStdString()});
        QCOMPARE(c.modules.size(), std::size_t(1));
        const ModuleRef &ref = c.modules.front();
        QVERIFY(ref.textsBeside);
        QCOMPARE(*ref.textsBeside,
                 (std::vector<std::string>{"module_0001.jit_f.before_optimizations.txt",
                                           "module_0001.jit_f.sm_8.0_gpu_after_optimizations.txt",
                                           "notes.txt"}));
        const std::string folder = dir.path().toStdString() + "/";
        QVERIFY(ref.hasBeside(folder, "module_0001.jit_f.before_optimizations.txt"));
        QVERIFY(!ref.hasBeside(folder, "module_0002.jit_g.before_optimizations.txt"));
        // The listing's answer, not the disk's: a text removed since is still listed.
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("notes.txt"))));
        QVERIFY(ref.hasBeside(folder, "notes.txt"));
        const ModuleRef byHand = Catalog::refOf(dump.toStdString());
        QVERIFY(!byHand.textsBeside);
        QVERIFY(byHand.hasBeside(folder, "module_0001.jit_f.before_optimizations.txt"));
        QVERIFY(!byHand.hasBeside(folder, "notes.txt"));
    }

    void collidingMembersAreSaid()
    {
        QTemporaryDir dir;
        const std::string proto = testutil::sampleHloProto();
        QVERIFY(!proto.empty());
        QVERIFY(
            write(dir.filePath(QStringLiteral("a.xplane.pb")),
                  QByteArray::fromStdString(testutil::captureOf(1, proto, "x.xplane.pb#jit_"))));
        QVERIFY(write(dir.filePath(QStringLiteral("a.xplane.pb#x.xplane.pb")),
                      QByteArray::fromStdString(testutil::captureOf(1, proto, "jit_"))));
        const Catalog c = Catalog::of({dir.path().toStdString()});
        QCOMPARE(c.modules.size(), std::size_t(1));
        QCOMPARE(c.problems.size(), std::size_t(1));
        QVERIFY2(c.problems.front().message.find("whose address is another module's") !=
                     std::string::npos,
                 c.problems.front().message.c_str());
    }

    // A capture named after another and a '#' (`a.xplane.pb` holding `jit_1(1)`, and
    // `a.xplane.pb#x.xplane.pb` holding `jit_1(1)` and `jit_2(2)`; issue 74): every module the
    // folder lists opens by its address as the one listed, from its own capture. Splitting at
    // the first '#' named `a.xplane.pb`'s member "x.xplane.pb#jit_2(2)", which it does not hold.
    void nestedCaptureAddressesOpenTheirOwn()
    {
        QTemporaryDir dir;
        const std::string proto = testutil::sampleHloProto();
        QVERIFY(!proto.empty());
        const QString outer = dir.filePath(QStringLiteral("a.xplane.pb"));
        const QString inner = dir.filePath(QStringLiteral("a.xplane.pb#x.xplane.pb"));
        QVERIFY(write(outer, QByteArray::fromStdString(testutil::captureOf(1, proto, "jit_"))));
        QVERIFY(write(inner, QByteArray::fromStdString(testutil::captureOf(2, proto, "jit_"))));
        const Catalog c = Catalog::of({dir.path().toStdString()});
        QCOMPARE(c.modules.size(), std::size_t(3));
        QVERIFY(c.problems.empty());
        for (const ModuleRef &listed : c.modules) {
            const ModuleRef again = Catalog::refOf(listed.path);
            QCOMPARE(again.format, ModuleFormat::CaptureMember);
            QCOMPARE(again.container, listed.container);
            QCOMPARE(again.member, listed.member);
            const LoadResult loaded = ModuleReader::load(again);
            QVERIFY2(loaded.ok(), loaded.error.c_str());
        }
        const std::string second = inner.toStdString() + "#jit_2(2)";
        std::string file, member;
        QVERIFY(Catalog::splitMember(second, &file, &member));
        QCOMPARE(file, inner.toStdString());
        QCOMPARE(member, std::string("jit_2(2)"));
        // Held by neither: the shorter, whose reader says it holds no such module.
        QVERIFY(Catalog::splitMember(inner.toStdString() + "#jit_9(9)", &file, &member));
        QCOMPARE(file, outer.toStdString());
        QVERIFY(!ModuleReader::load(Catalog::refOf(inner.toStdString() + "#jit_9(9)")).ok());
    }

    // Catalog::of: logs, lone reports, folders (runs), a module given twice once, and in a
    // folder nothing that is not a regular file.
    void whatWasOpened()
    {
        QTemporaryDir dir;
        const QString sample = testutil::sampleTruth("tpu_unstack").path();
        const QString folder = dir.filePath(QStringLiteral("dump"));
        QVERIFY(QDir().mkpath(folder));
        const QString dump =
            folder + QStringLiteral("/module_0001.jit_f.after_optimizations-buffer-assignment.txt");
        QVERIFY(QFile::copy(sample, dump));
        // A FIFO with a dump's name is never opened (it would block).
        const QString fifo =
            folder + QStringLiteral("/module_0002.jit_g.after_optimizations-buffer-assignment.txt");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QString log = dir.filePath(QStringLiteral("run.log"));
        QVERIFY(QFile::copy(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log"), log));
        const QString report =
            dir.filePath(QStringLiteral("module_0009.k-memory-usage-report.txt"));
        QVERIFY(QFile::copy(
            QStringLiteral(BUFFERSCOPE_TEST_DATA "/reports/gpu_decoder_layer.report-2026.txt"),
            report));
        const Catalog c =
            Catalog::of({folder.toStdString(), log.toStdString(), report.toStdString(),
                         dump.toStdString(), dir.filePath(QStringLiteral("empty")).toStdString()});
        QCOMPARE(c.logs, std::vector<std::string>{log.toStdString()});
        QCOMPARE(c.reports.size(), std::size_t{1});
        QCOMPARE(c.reports.front().format, ModuleFormat::ReportText);
        QCOMPARE(c.runs, std::vector<std::string>{folder.toStdString()});
        // The dump once (listed from the folder, then given by name), the FIFO never, the
        // missing path as a module its reader names.
        QCOMPARE(c.modules.size(), std::size_t{2});
        QCOMPARE(c.modules[0].path, dump.toStdString());
        QCOMPARE(c.modules[0].bytes, QFileInfo(sample).size());
        QVERIFY(!ModuleReader::load(c.modules[1]).ok());
        QCOMPARE(totalOf(ModuleReader::load(c.modules[0])),
                 testutil::sampleTruth("tpu_unstack").total);
    }

    // A folder's walk takes each real file once and nothing outside the folder: a subfolder
    // linked to another, a link back to the folder, a file linked twice, and links out of it
    // (to a folder, to a file) are not read again or at all.
    void walkStaysInsideAndCountsOnce()
    {
        QTemporaryDir dir;
        const auto link = [](const QString &target, const QString &at) {
            return ::symlink(target.toLocal8Bit().constData(), at.toLocal8Bit().constData()) == 0;
        };
        const QString run = dir.filePath(QStringLiteral("run"));
        const QString outside = dir.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/a")) && QDir().mkpath(outside));
        const QString inA = run + QStringLiteral("/a/module_0001.jit_f-buffer-assignment.txt");
        QVERIFY(QFile::copy(testutil::sampleTruth("tpu_unstack").path(), inA));
        QVERIFY(QFile::copy(testutil::sampleTruth("tpu_dynamic_slice").path(),
                            outside + QStringLiteral("/module_0002.jit_g-buffer-assignment.txt")));
        QVERIFY(link(QStringLiteral("a"), run + QStringLiteral("/b")));     // the same folder
        QVERIFY(link(QStringLiteral(".."), run + QStringLiteral("/a/up"))); // back to the run
        QVERIFY(link(QStringLiteral("."), run + QStringLiteral("/self")));
        QVERIFY(link(outside, run + QStringLiteral("/c"))); // a folder out of the run
        QVERIFY(link(outside + QStringLiteral("/module_0002.jit_g-buffer-assignment.txt"),
                     run + QStringLiteral("/module_0003.jit_h-buffer-assignment.txt")));
        QVERIFY(link(inA, run + QStringLiteral("/module_0004.jit_i-buffer-assignment.txt")));
        const Catalog c = Catalog::of({run.toStdString()});
        // Each not read is said (issue 74): b and self (loops), c and module_0003 (out), and
        // one of tpu_unstack's two names (the same file).
        QCOMPARE(c.problems.size(), std::size_t{5});
        const auto count = [&c](const char *why) {
            return std::count_if(
                c.problems.begin(), c.problems.end(),
                [&](const CatalogProblem &p) { return p.message.find(why) != std::string::npos; });
        };
        QCOMPARE(count("(a loop)"), std::ptrdiff_t{2});
        QCOMPARE(count("out of the folder"), std::ptrdiff_t{2});
        QCOMPARE(count("the same file as one listed already"), std::ptrdiff_t{1});
        // One module: tpu_unstack, under one of its two names; jit_g is outside.
        QCOMPARE(c.modules.size(), std::size_t{1});
        QCOMPARE(totalOf(ModuleReader::load(c.modules.front())),
                 testutil::sampleTruth("tpu_unstack").total);
        // A folder of nothing but links out says why it lists nothing.
        const QString only = dir.filePath(QStringLiteral("only"));
        QVERIFY(QDir().mkpath(only));
        QVERIFY(link(outside, only + QStringLiteral("/c")));
        const Catalog none = Catalog::of({only.toStdString()});
        QVERIFY(none.modules.empty());
        // The link, named, and the folder's emptiness with the count.
        QCOMPARE(none.problems.size(), std::size_t{2});
        QVERIFY(none.problems.front().message.find("a symbolic link out of the folder") !=
                std::string::npos);
        QVERIFY(none.problems.back().message.find("1 symbolic link(s) out of the folder") !=
                std::string::npos);
    }

    // A run's modules read under one policy: every module of a capture from one read, each the
    // module its address names.
    void readEachReadsCaptureModules()
    {
        const Catalog c = Catalog::of({kCapture.toStdString()});
        QCOMPARE(c.modules.size(), std::size_t{2});
        std::mutex lock;
        std::vector<std::int64_t> totals(2, -1);
        ModuleReader::readEach(c.modules, 2, {}, [&](std::size_t i, LoadResult r, int) {
            const std::lock_guard<std::mutex> hold(lock);
            totals[i] = totalOf(r);
        });
        QCOMPARE(totals[0], testutil::sampleTruth("tpu_random_normal").total);
        QCOMPARE(totals[1], testutil::sampleTruth("tpu_unstack").total);
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
