// Out-of-memory messages (issue 40): the logs in tests/data/oom (make_oom.py, each written for
// a bundled sample dump in a form XLA prints) and the real ones in ../shared/real/oom (skipped,
// saying why, where absent). Every expected figure is read by hand from the log text or from
// the dump's allocation and value lines, never from this code's output.
#include "CliRun.h"
#include "DumpGenerator.h"
#include "open/Catalog.h"
#include "parse/OomMessage.h"
#include "parse/ShapeParser.h"
#include "parse/detail/OomReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>

using namespace bufferscope;

namespace {

QString oomLog(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/%1").arg(QLatin1String(name));
}

QString sample(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
        .arg(QLatin1String(name));
}

QString realOom(const char *name)
{
    return QDir::cleanPath(
        QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real/oom/%1").arg(QLatin1String(name)));
}

std::string readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

OomLog parseFile(const QString &path)
{
    return OomLog::parse(readAll(path));
}

#define REQUIRE_FILE(path)                                                                         \
    do {                                                                                           \
        if (!QFileInfo::exists(path))                                                              \
            QSKIP(                                                                                 \
                qPrintable(QStringLiteral("%1 is not here: the real logs live in ../shared/real "  \
                                          "beside the repository, which a clone does not have")    \
                               .arg(path)));                                                       \
    } while (false)

/// `printed` ± its rounding covers `exact`.
bool covers(std::int64_t printed, std::int64_t ulp, std::int64_t exact)
{
    return printed >= 0 && std::llabs(printed - exact) <= ulp;
}

constexpr std::int64_t kGiB = std::int64_t{1} << 30;
constexpr std::int64_t kMiB = std::int64_t{1} << 20;

/// A dump folder as XLA names it: module_NNNN.NAME.…-buffer-assignment.txt.
void place(const QTemporaryDir &dir, const char *sampleName, const char *module)
{
    const QString to =
        dir.filePath(QStringLiteral("%1.sm_8.0_gpu_after_optimizations-buffer-assignment.txt")
                         .arg(QLatin1String(module)));
    QVERIFY(QFile::copy(sample(sampleName), to));
}

void testutilWrite(const QString &path, const char *text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
}

QJsonObject oomJson(const QStringList &args, int expectedCode = 0)
{
    QStringList all{QStringLiteral("oom")};
    all += args;
    all += QStringLiteral("--json");
    const testutil::CliRun r = testutil::runBufferscope(all);
    if (r.code != expectedCode)
        qWarning("exit %d: %s", r.code, r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject firstMessage(const QJsonObject &report)
{
    return report.value(QStringLiteral("messages")).toArray().first().toObject();
}

QList<qint64> matchedIds(const QJsonObject &message)
{
    QList<qint64> ids;
    for (const QJsonValue &b : message.value(QStringLiteral("buffers")).toArray()) {
        const QJsonArray values = b.toObject().value(QStringLiteral("values")).toArray();
        ids.push_back(values.size() == 1
                          ? values.first().toObject().value(QStringLiteral("id")).toInteger()
                          : -1);
    }
    return ids;
}

} // namespace

class TestOom : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One list of the phrases that start a message (issue 75: the file sniffer's list and the
    // reader's disagreed, so a log of only "Total hbm usage", "program VMEM usage:" or
    // CompileTimeSparseCoreAllocationFailure lines was taken for a dump): every phrase the
    // reader starts a message at makes a file a log.
    void everyAnnouncingPhraseMakesALog()
    {
        for (const std::string_view phrase : oom_detail::kAnnouncingPhrases)
            QVERIFY2(OomLog::looksLike("E1201 12:00:00.000 x.cc:1] " + std::string(phrase) + "\n"),
                     std::string(phrase).c_str());
        for (const std::string_view phrase : oom_detail::kTpuPhrases)
            QVERIFY2(OomLog::looksLike("E1201 12:00:00.000 x.cc:1] " + std::string(phrase) + "\n"),
                     std::string(phrase).c_str());
        QVERIFY(!OomLog::looksLike("allocation 0: size 16, parameter 0, shape |f32[4]|\n"));
    }

    void cleansLoggerPrefixes()
    {
        QCOMPARE(OomLog::cleanLine("2024-05-28 07:02:44.349554: W external/tsl/tsl/framework/"
                                   "bfc_allocator.cc:482] Allocator ran out"),
                 std::string("Allocator ran out"));
        QCOMPARE(OomLog::cleanLine("E0528 07:02:44.350251   27487 pjrt_client.cc:2826] "
                                   "Execution failed"),
                 std::string("Execution failed"));
        QCOMPARE(
            OomLog::cleanLine("(RayTrainWorker pid=2211, ip=10.0.0.5) \x1b[31mSize: 4G\x1b[0m"),
            std::string("Size: 4G"));
        QCOMPARE(OomLog::cleanLine("[1,0]<stderr>:  1. Size: 4.00G"),
                 std::string("1. Size: 4.00G"));
        QCOMPARE(OomLog::cleanLine("step 1\rstep 2\r"), std::string("step 2"));
        QCOMPARE(OomLog::cleanLine("\x1b]0;title\x07text"), std::string("text"));
        // A message word in brackets is not a prefix to drop.
        QCOMPARE(OomLog::cleanLine("[tf-allocator-allocation-error='']"),
                 std::string("[tf-allocator-allocation-error='']"));
    }

    // Logs as users paste them (issue 51): every line under a prefix of each kind — a quoted
    // reply, a rank tag, a viewer's line numbers, a glog header, Ray's coloured worker tag —
    // reads as the log itself: the same messages, what each asked for, the same buffers.
    void prefixesOfEveryKind()
    {
        QStringList logs;
        for (const QFileInfo &f : QDir(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom"))
                                      .entryInfoList({QStringLiteral("*.log")}))
            logs << f.filePath();
        for (const char *real :
             {"gpu-jax-v100-2024-05-28.log", "tpu-v3-pytorch-xla-2024-03-06.log",
              "gpu-jax-mi250-wrapped-2024-07-09.log", "tpu-tf-2019-11-11-fragment.log"})
            if (QFileInfo::exists(realOom(real)))
                logs << realOom(real);
        QVERIFY(logs.size() >= 6);
        using Prefix = std::function<std::string(std::size_t)>;
        const std::vector<std::pair<const char *, Prefix>> prefixes = {
            {"quoted", [](std::size_t) { return std::string("> "); }},
            {"quoted twice", [](std::size_t) { return std::string(">> "); }},
            {"rank", [](std::size_t) { return std::string("rank0: "); }},
            {"line numbers", [](std::size_t n) { return std::to_string(n + 1) + ": "; }},
            {"numbered table", [](std::size_t n) { return std::to_string(n + 1) + " | "; }},
            {"numbered, tab", [](std::size_t n) { return std::to_string(n + 1) + "\t"; }},
            {"glog",
             [](std::size_t) { return std::string("E0528 07:02:44.350251   27487 x.cc:1] "); }},
            {"Ray",
             [](std::size_t) { return std::string("\x1b[36m(MeshHostWorker pid=489)\x1b[0m "); }},
            // As an issue tracker shows a pasted Ray log: the escape bytes gone, the codes left.
            {"Ray, pasted",
             [](std::size_t) { return std::string("[36m(MeshHostWorker pid=489)[0m "); }},
            {"ISO time", [](std::size_t) { return std::string("2024-03-01T10:00:00.123Z "); }},
            // A Ray log on GitHub: its line numbers glued to the colour codes' remnants.
            {"numbered, glued to Ray's colours",
             [](std::size_t n) {
                 return std::to_string(n + 71) + "[2m[36m(MeshHostWorker pid=489)[0m ";
             }},
        };
        for (const QString &path : logs) {
            const std::string text = readAll(path);
            const OomLog plain = OomLog::parse(text);
            QVERIFY2(!plain.messages.empty(), qPrintable(path));
            for (const auto &[name, prefix] : prefixes) {
                std::string prefixed;
                std::size_t n = 0;
                for (std::size_t at = 0; at < text.size(); ++n) {
                    const std::size_t nl = text.find('\n', at);
                    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
                    prefixed += prefix(n) + text.substr(at, end - at);
                    at = end;
                }
                const OomLog got = OomLog::parse(prefixed);
                const QString where = QStringLiteral("%1 %2").arg(path, QLatin1String(name));
                QVERIFY2(got.messages.size() == plain.messages.size(), qPrintable(where));
                for (std::size_t m = 0; m < got.messages.size(); ++m) {
                    const OomMessage &a = plain.messages[m];
                    const OomMessage &b = got.messages[m];
                    QVERIFY2(a.requested == b.requested && a.capacity == b.capacity &&
                                 a.inUse == b.inUse && a.buffers.size() == b.buffers.size(),
                             qPrintable(where));
                    for (std::size_t k = 0; k < a.buffers.size(); ++k)
                        QVERIFY2(a.buffers[k].size == b.buffers[k].size &&
                                     a.buffers[k].shape == b.buffers[k].shape,
                                 qPrintable(where));
                }
            }
        }
    }

    // The same logs hard-wrapped at 80 and 60 columns, as a terminal or `fold` leaves them:
    // numbers cut in two ("allocate 211" / "0783616 bytes") are read whole again. A log of a
    // line or two gives too little to tell a wrap from a line that long: it may be refused,
    // but never read as another number.
    void hardWrappedLogs()
    {
        QStringList logs;
        for (const QFileInfo &f : QDir(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom"))
                                      .entryInfoList({QStringLiteral("*.log")}))
            logs << f.filePath();
        for (const char *real :
             {"gpu-jax-v100-2024-05-28.log", "tpu-v3-pytorch-xla-2024-03-06.log",
              "gpu-jax-mi250-wrapped-2024-07-09.log", "tpu-tf-2019-11-11-fragment.log"})
            if (QFileInfo::exists(realOom(real)))
                logs << realOom(real);
        int wholeAgain = 0;
        for (const QString &path : logs) {
            const std::string text = readAll(path);
            const OomLog plain = OomLog::parse(text);
            const auto lineCount = std::count(text.begin(), text.end(), '\n');
            for (const std::size_t width : {std::size_t{80}, std::size_t{60}}) {
                // As `fold -w WIDTH` cuts: a line is cut before the character that would pass
                // WIDTH columns, a tab reaching the next multiple of 8, a carriage return
                // going back to column 0.
                std::string folded;
                std::size_t column = 0;
                for (const char c : text) {
                    if (c == '\n') {
                        folded += c;
                        column = 0;
                        continue;
                    }
                    const std::size_t next = c == '\t'   ? (column / 8 + 1) * 8
                                             : c == '\r' ? 0
                                                         : column + 1;
                    if (next > width) {
                        folded += '\n';
                        column = c == '\t' ? 8 : 1;
                    } else {
                        column = next;
                    }
                    folded += c;
                }
                const OomLog got = OomLog::parse(folded);
                const QString where = QStringLiteral("%1 at %2").arg(path).arg(width);
                if (lineCount < 10) {
                    // Too short to tell: refused, or figures missing, never another number.
                    for (std::size_t m = 0; m < got.messages.size() && m < plain.messages.size();
                         ++m) {
                        const OomMessage &a = plain.messages[m];
                        const OomMessage &b = got.messages[m];
                        // Another figure only with its rounding, covering the real one.
                        QVERIFY2(b.requested == a.requested || b.requested < 0 ||
                                     (b.requestedUlp > 0 &&
                                      covers(b.requested, b.requestedUlp, a.requested)),
                                 qPrintable(where));
                        QVERIFY2(b.capacity == a.capacity || b.capacity < 0, qPrintable(where));
                    }
                    continue;
                }
                QVERIFY2(got.messages.size() == plain.messages.size(), qPrintable(where));
                for (std::size_t m = 0; m < got.messages.size(); ++m) {
                    const OomMessage &a = plain.messages[m];
                    const OomMessage &b = got.messages[m];
                    QVERIFY2(a.requested == b.requested && a.capacity == b.capacity &&
                                 a.buffers.size() == b.buffers.size(),
                             qPrintable(where));
                    for (std::size_t k = 0; k < a.buffers.size(); ++k)
                        QVERIFY2(a.buffers[k].size == b.buffers[k].size &&
                                     a.buffers[k].shape == b.buffers[k].shape,
                                 qPrintable(where));
                }
                ++wholeAgain;
            }
        }
        // At least the bundled logs of ten lines or more (gpu-bfc-decoder, tpu-hbm-unstack) at
        // both widths; the real ones in ../shared/real add more where they are here.
        QVERIFY(wholeAgain >= 4);
        // A long line the log repeats (three buffers with one Operator:) is not a wrap.
        {
            const std::string text =
                readAll(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log"));
            const std::string repeated(300, 'x');
            std::string more = text;
            for (int k = 0; k < 4; ++k)
                more += repeated + "\n";
            const OomLog got = OomLog::parse(more);
            QCOMPARE(got.wrappedAt, std::int64_t{0});
            QCOMPARE(got.messages.size(), OomLog::parse(text).messages.size());
        }
        // The V100 log's request, cut at 80 columns after "allocate 211", is read whole.
        if (QFileInfo::exists(realOom("gpu-jax-v100-2024-05-28.log"))) {
            QCOMPARE(parseFile(realOom("gpu-jax-v100-2024-05-28.log")).messages.front().requested,
                     std::int64_t{2110783616});
        }
    }

    // Pasted from the middle of a log: a list without its headline is read for what it holds
    // and says it is cut; an entry cut inside its size keeps the entry, not a size.
    void fragmentsAndCutEntries()
    {
        // Entries 3 and 4 of tpu-hbm-unstack.log under glog prefixes, a logger line between.
        const OomLog tpu = parseFile(oomLog("tpu-fragment-glog.log"));
        QCOMPARE(tpu.messages.size(), std::size_t{1});
        const OomMessage &t = tpu.messages.front();
        QCOMPARE(t.form, OomMessage::Form::Tpu);
        QVERIFY(t.startsCut);
        QCOMPARE(t.buffers.size(), std::size_t{2});
        QCOMPARE(t.buffers[0].rank, std::int64_t{3});
        QCOMPARE(t.buffers[0].size, std::int64_t{32});
        QCOMPARE(t.buffers[0].label, std::string("tuple.10"));
        QCOMPARE(t.buffers[1].rank, std::int64_t{4});
        QCOMPARE(t.buffers[1].size, std::int64_t{16});
        QCOMPARE(t.buffers[1].shape, std::string("u32[4]{0}"));
        QVERIFY(!t.buffers[0].cut && !t.buffers[1].cut);

        // Buffer 3 of gpu-bfc-decoder.log, then Buffer 4 cut at "Size: 768" (768.0KiB).
        const OomLog gpu = parseFile(oomLog("gpu-fragment-cut.log"));
        QCOMPARE(gpu.messages.size(), std::size_t{1});
        const OomMessage &g = gpu.messages.front();
        QCOMPARE(g.form, OomMessage::Form::GpuBufferAssignment);
        QVERIFY(g.startsCut);
        QCOMPARE(g.buffers.size(), std::size_t{2});
        QCOMPARE(g.buffers[0].rank, std::int64_t{3});
        QCOMPARE(g.buffers[0].size, std::int64_t{12} * kMiB);
        QVERIFY(g.buffers[0].entryParameter);
        QCOMPARE(g.buffers[1].rank, std::int64_t{4});
        QCOMPARE(g.buffers[1].size, std::int64_t{-1}); // never 768 B
        QVERIFY(g.buffers[1].cut);
        QCOMPARE(g.buffers[1].sizeText, std::string("768"));
        QCOMPARE(gpu.problems.size(), std::size_t{1});
        QCOMPARE(gpu.problems.front().line, std::int64_t{7});
        // Dropped on the window or given to `report`, both fragments open as logs: the GPU one
        // prints no "Shape:", only its entry parameter's "Subshape:".
        for (const char *name : {"gpu-fragment-cut.log", "tpu-fragment-glog.log"})
            QVERIFY2(Catalog::kindOf(oomLog(name).toStdString()) == FileKind::OomLog, name);
        // A command that wants a dump, given a log, says which command reads it.
        const testutil::CliRun asDump =
            testutil::runBufferscope({QStringLiteral("report"), oomLog("gpu-fragment-cut.log")});
        QCOMPARE(asDump.code, 2);
        QVERIFY2(asDump.err.contains("gpu-fragment-cut.log:1: not an XLA buffer-assignment dump"),
                 asDump.err.constData());
        QVERIFY(asDump.err.contains("out-of-memory log: the 'oom' command reads those"));

        // The command line says so too.
        const QJsonObject m = firstMessage(oomJson({oomLog("gpu-fragment-cut.log")}));
        QVERIFY(m.value(QStringLiteral("starts_cut")).toBool());
        const QJsonObject cut = m.value(QStringLiteral("buffers")).toArray().at(1).toObject();
        QVERIFY(cut.value(QStringLiteral("cut")).toBool());
        QVERIFY(cut.value(QStringLiteral("size_bytes")).isNull());
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("oom"), oomLog("tpu-fragment-glog.log")});
        QVERIFY2(text.out.contains("the text starts inside this message"), text.out.constData());
        QVERIFY(text.out.contains("its list starts at entry 3"));

        // A list that a logger line interrupts goes on; one that starts over is another event.
        const OomLog two = OomLog::parse("  1. Size: 16B\n     Shape: u32[4]{0}\n"
                                         "  1. Size: 32B\n     Shape: u32[8]{0}\n");
        QCOMPARE(two.messages.size(), std::size_t{2});
    }

    // The wordings of 2025-2026 (docs/FORMAT.md Part B): the request human-readable with the
    // allocator and device (XLA b863b7574, 2fa50644ad), the allocator's stats human-readable
    // (d51ac97e8d), in-use chunks tagged with their executable (928f51ed8e).
    void wordingsOf2026()
    {
        const OomLog log = parseFile(oomLog("gpu-2026-tagged.log"));
        QCOMPARE(log.messages.size(), std::size_t{1});
        const OomMessage &m = log.messages.front();
        QVERIFY(m.requestedUlp > 0); // "1.25MiB": the byte count is not printed
        QVERIFY(covers(m.requested, m.requestedUlp, 1311392));
        QCOMPARE(m.roundedTo, std::int64_t{1311488});
        QVERIFY(m.doubts.empty());
        QCOMPARE(m.device, std::string("device 0"));
        QVERIFY(covers(m.capacity, m.capacityUlp, 933232640)); // "Limit: 890.00MiB"
        QVERIFY(m.capacityUlp > 0);
        QVERIFY(covers(m.inUse, m.inUseUlp, 932000000)); // "InUse: 888.82MiB"
        QCOMPARE(m.taggedExecutables, (std::vector<std::string>{"jit_decoder_layer"}));
        QCOMPARE(m.executable, std::string("jit_decoder_layer"));
        QCOMPARE(m.executableFrom, std::string("xla.execute tag"));

        // The tag finds the module in a folder, as executable_name does.
        QTemporaryDir dir;
        place(dir, "gpu_decoder_layer", "module_0003.jit_decoder_layer");
        place(dir, "gpu_vllm_update_slice", "module_0007.jit_update_slice");
        const QJsonObject j = firstMessage(oomJson({oomLog("gpu-2026-tagged.log"), dir.path()}));
        QCOMPARE(j.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(j.value(QStringLiteral("executable_from")).toString(),
                 QStringLiteral("xla.execute tag"));

        // Two executables tagged: neither is taken as the one that ran.
        const OomLog both = OomLog::parse(
            "Out of memory while trying to allocate 1.25MiB with allocator GPU_0_bfc on device 1.\n"
            "InUse at 7f00 of size 256 tag 0 allocation_annotation xla.execute{executable=jit_a} "
            "next 1\n"
            "InUse at 7f01 of size 512 tag 0 allocation_annotation xla.execute{executable=jit_b} / "
            "xla.buffer{kind=temp, allocation_index=0, requested_bytes=512, memory_space=0} next "
            "2\n");
        QCOMPARE(both.messages.size(), std::size_t{1});
        QVERIFY(both.messages[0].executable.empty());
        QCOMPARE(both.messages[0].taggedExecutables, (std::vector<std::string>{"jit_a", "jit_b"}));
        QCOMPARE(both.messages[0].device, std::string("device 1"));

        // The digit groups b863b7574's pull request describes are read whole, never as "7".
        const OomLog grouped = OomLog::parse(
            "Out of memory while trying to allocate 7,450,374,152 bytes (6.94GiB).\n");
        QCOMPARE(grouped.messages.size(), std::size_t{1});
        QCOMPARE(grouped.messages[0].requested, std::int64_t{7450374152});
        QCOMPARE(grouped.messages[0].requestedUlp, std::int64_t{0});
    }

    // A short log cut by a line break is too short to tell its wrap width: the figures it
    // prints for one request check each other, and one that disagrees is never shown as exact.
    void figuresCheckEachOther()
    {
        const std::string bfc = "Allocator (GPU_0_bfc) ran out of memory trying to allocate "
                                "1.97GiB (rounded to 2110783744)requested by op\n";
        // The exact count cut at the end of a line: not read; the human-readable one is kept.
        OomLog log = OomLog::parse(bfc + "RESOURCE_EXHAUSTED: Out of memory while trying to "
                                         "allocate 21107\n83616 bytes.\n");
        QCOMPARE(log.messages.size(), std::size_t{1});
        QVERIFY(log.messages[0].requestedUlp > 0);
        QVERIFY(covers(log.messages[0].requested, log.messages[0].requestedUlp, 2110783616));
        QCOMPARE(log.messages[0].roundedTo, std::int64_t{2110783744});
        QCOMPARE(log.messages[0].doubts.size(), std::size_t{1});

        // "(rounded to 21107" cut: the rounding is not read, the exact count stands.
        log = OomLog::parse("Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.97GiB "
                            "(rounded to 21107\n83744)requested by op\nOut of memory while "
                            "trying to allocate 2110783616 bytes.\n");
        QCOMPARE(log.messages.size(), std::size_t{1});
        QCOMPARE(log.messages[0].requested, std::int64_t{2110783616});
        QCOMPARE(log.messages[0].requestedUlp, std::int64_t{0});
        QCOMPARE(log.messages[0].roundedTo, std::int64_t{-1});
        QCOMPARE(log.messages[0].doubts.size(), std::size_t{1});

        // Two whole figures that cannot both be right (1.97GiB rounded to 2110783744, and
        // 211078361 bytes, a digit lost): the human-readable one, with its rounding.
        log = OomLog::parse(bfc + "Out of memory while trying to allocate 211078361 bytes.\n");
        QCOMPARE(log.messages.size(), std::size_t{1});
        QVERIFY(log.messages[0].requestedUlp > 0);
        QVERIFY(covers(log.messages[0].requested, log.messages[0].requestedUlp, 2110783616));
        QVERIFY(!log.messages[0].doubts.empty());

        // The V100 log's figures agree (2110783616 rounds up to 2110783744): no doubt.
        if (QFileInfo::exists(realOom("gpu-jax-v100-2024-05-28.log")))
            QVERIFY(parseFile(realOom("gpu-jax-v100-2024-05-28.log")).messages[0].doubts.empty());
    }

    void readsSizesAsPrinted()
    {
        std::int64_t ulp = -1;
        QCOMPARE(OomLog::parseSize("2110783616 bytes", &ulp), std::int64_t{2110783616});
        QCOMPARE(ulp, std::int64_t{0});
        QCOMPARE(OomLog::parseSize("165425291480B", &ulp), std::int64_t{165425291480});
        QCOMPARE(ulp, std::int64_t{0});
        // libtpu's binary units without "iB": 32.00G is 32 GiB, to a hundredth.
        QCOMPARE(OomLog::parseSize("32.00G", &ulp), 32 * kGiB);
        QVERIFY(ulp > 0 && ulp < 8 * kMiB);
        QCOMPARE(OomLog::parseSize("4.0K"), std::int64_t{4096});
        QCOMPARE(OomLog::parseSize("1004.50MiB"), std::int64_t{1053294592});
        QCOMPARE(OomLog::parseSize("unknown size"), std::int64_t{-1});
        // The shape without its layout, as XLA's ShapeUtil::HumanString writes it.
        QCOMPARE(ShapeParser::withoutLayout("bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}"),
                 std::string("bf16[2048,1,2048,128]"));
        QCOMPARE(ShapeParser::withoutLayout("(f32[2]{0}, /*index=1*/s8[4]{0})"),
                 std::string("(f32[2], s8[4])"));
        // Text that is no shape loses its layouts and spaces alike.
        QCOMPARE(ShapeParser::withoutLayout("(f32[2]{0}, junk [1, 2]{0})"),
                 std::string("(f32[2], junk[1,2])"));
    }

    // GPU before 2024 (gpu-bfc-decoder.log): the BFC lines, the exact request in red under a
    // glog prefix, the list with op_name hard-wrapped at 100 columns, then printed again.
    void gpuBufferAssignmentList()
    {
        const OomLog log = parseFile(oomLog("gpu-bfc-decoder.log"));
        QCOMPARE(log.messages.size(), std::size_t{1});
        const OomMessage &m = log.messages.front();
        QCOMPARE(m.form, OomMessage::Form::GpuBufferAssignment);
        QCOMPARE(m.printed, std::int64_t{2});
        QCOMPARE(m.line, std::int64_t{1});
        QCOMPARE(m.requested, std::int64_t{1311392}); // "allocate 1311392 bytes."
        QCOMPARE(m.requestedUlp, std::int64_t{0});
        QCOMPARE(m.roundedTo, std::int64_t{1311488});
        QCOMPARE(m.capacity, std::int64_t{933232640}); // Limit:
        QCOMPARE(m.inUse, std::int64_t{932000000});    // InUse:
        QCOMPARE(m.stats.size(), std::size_t{6});
        const OomFigure *temp = m.stat("preallocated temp allocation");
        QVERIFY(temp);
        QVERIFY(covers(temp->bytes, temp->ulp, 1311392)); // "1.25MiB"
        QCOMPARE(m.buffers.size(), std::size_t{4});
        const OomBuffer &b1 = m.buffers[0];
        QCOMPARE(b1.rank, std::int64_t{1});
        QVERIFY(covers(b1.size, b1.sizeUlp, 138706944)); // 132.28MiB
        QCOMPARE(b1.shape, std::string("bf16[69353472]"));
        QCOMPARE(b1.label, std::string("fusion"));
        QVERIFY(!b1.labelIsName);
        QCOMPARE(b1.opType, std::string("aten__as_strided"));
        QCOMPARE(b1.opName, std::string("aten__as_strided"));
        // The wrap cut the path: read whole again.
        QCOMPARE(b1.sourceFile, std::string("/usr/local/lib/python3.10/site-packages/torch/"
                                            "_higher_order_ops/auto_functionalize.py"));
        QCOMPARE(b1.sourceLine, std::int64_t{54});
        QVERIFY(m.buffers[1].entryParameter);
        QCOMPARE(m.buffers[1].shape, std::string("bf16[151936,1024]"));
        QVERIFY(covers(m.buffers[3].size, m.buffers[3].sizeUlp, 786432)); // 768.0KiB
    }

    // GPU 2024–26: one line. Ray's prefix, a carriage-return progress line before it.
    void gpuOneLine()
    {
        const OomLog ray = parseFile(oomLog("gpu-oneline-ray.log"));
        QCOMPARE(ray.messages.size(), std::size_t{1});
        QCOMPARE(ray.messages[0].form, OomMessage::Form::GpuAllocation);
        QCOMPARE(ray.messages[0].line, std::int64_t{2});
        QCOMPARE(ray.messages[0].requested, std::int64_t{1311392});
        QCOMPARE(ray.messages[0].requestedUlp, std::int64_t{0});
        QCOMPARE(ray.messages[0].executable, std::string("jit_decoder_layer"));

        const OomLog rounded = parseFile(oomLog("gpu-oneline-rounded.log"));
        QCOMPARE(rounded.messages.size(), std::size_t{1});
        const OomMessage &r = rounded.messages[0];
        QVERIFY(r.requestedUlp > 0); // "1.25MiB." is not a byte count
        QVERIFY(covers(r.requested, r.requestedUlp, 1311392));
        QCOMPARE(r.executable, std::string("jit_decoder_layer"));

        // Since 2026-07 the line also names the allocator and the device.
        const OomLog named = OomLog::parse(
            "E1125 10:01:02.1 27487 client.cc:3000] RESOURCE_EXHAUSTED: Out of memory while "
            "trying to allocate 1311392 bytes with allocator GPU_3_bfc on device 3. "
            "[executable_name='jit_decoder_layer']\n");
        QCOMPARE(named.messages.size(), std::size_t{1});
        QCOMPARE(named.messages[0].requested, std::int64_t{1311392});
        QCOMPARE(named.messages[0].requestedUlp, std::int64_t{0});
        QCOMPARE(named.messages[0].device, std::string("device 3"));
        QCOMPARE(named.messages[0].executable, std::string("jit_decoder_layer"));

        const OomLog async = parseFile(oomLog("gpu-async-twins.log"));
        QCOMPARE(async.messages.size(), std::size_t{1});
        QCOMPARE(async.messages[0].requested, std::int64_t{138706944});
        QCOMPARE(async.messages[0].requestedUlp, std::int64_t{0});
    }

    // TPU before 2026 under an MPI prefix: usage, requirement, four program allocations.
    void tpuHbm()
    {
        const OomLog log = parseFile(oomLog("tpu-hbm-unstack.log"));
        QCOMPARE(log.messages.size(), std::size_t{1});
        const OomMessage &m = log.messages[0];
        QCOMPARE(m.form, OomMessage::Form::Tpu);
        QCOMPARE(m.memorySpace, std::string("hbm"));
        QVERIFY(covers(m.used, m.usedUlp, std::int64_t(17.23 * double(kGiB))));
        QVERIFY(covers(m.capacity, m.capacityUlp, std::int64_t(15.48 * double(kGiB))));
        QVERIFY(covers(m.exceededBy, 6 * kMiB, std::int64_t(1.75 * double(kGiB))));
        QCOMPARE(m.usage.size(), std::size_t{3});
        QCOMPARE(m.usage[2].name, std::string("arguments"));
        QCOMPARE(m.usage[2].bytes, std::int64_t{1024});
        QCOMPARE(m.requirement.size(), std::size_t{3});
        QCOMPARE(m.requirement[2].name, std::string("HLO temp"));
        QVERIFY(covers(m.programRequirement, 6 * kMiB, std::int64_t(16.71 * double(kGiB))));
        QCOMPARE(m.buffers.size(), std::size_t{4});
        QCOMPARE(m.buffers[0].label, std::string("Arg_0.1"));
        QVERIFY(m.buffers[0].labelIsName);
        QCOMPARE(m.buffers[0].kind, std::string("program argument"));
        QCOMPARE(m.buffers[0].size, std::int64_t{1024});
        QCOMPARE(m.buffers[0].unpadded, std::int64_t{32});
        QCOMPARE(m.buffers[0].padding, std::int64_t{992});
        QCOMPARE(m.buffers[0].expansion, std::string("32.0x expansion"));
        QCOMPARE(m.buffers[1].label, std::string("slice_reduce_fusion"));
        QCOMPARE(m.buffers[1].opName, std::string("jit(unstack)/slice"));
        QCOMPARE(m.buffers[2].label, std::string("tuple.10")); // "%tuple.10 = …"
        QCOMPARE(m.buffers[3].label, std::string("fusion.999.remat2"));
        QCOMPARE(m.buffers[3].kind, std::string("HLO temp"));
    }

    // libtpu since 2026-05: the early abort names what the temporaries need and the HBM.
    // Logs as users save them (issue 74): UTF-16 with its mark (PowerShell's `>`), either
    // byte order; UTF-8 with a mark (the headline must not start with it); any number of
    // stacked prefixes (eight here: the HLO module: line is still read); and a TPU's early
    // abort followed by a GPU allocator's failure, two messages of two kinds.
    void logsAsUsersSaveThem()
    {
        const std::string gpu = readAll(oomLog("gpu-bfc-decoder.log"));
        const OomLog plain = OomLog::parse(gpu);
        QVERIFY(!plain.messages.empty());
        const OomMessage &want = plain.messages.front();
        QCOMPARE(want.requested, std::int64_t(1311392));
        const QString text = QString::fromStdString(gpu);
        std::string le = "\xff\xfe";
        std::string be = "\xfe\xff";
        for (const QChar c : text) {
            const char16_t u = c.unicode();
            le += static_cast<char>(u & 0xff);
            le += static_cast<char>(u >> 8);
            be += static_cast<char>(u >> 8);
            be += static_cast<char>(u & 0xff);
        }
        for (const std::string &bytes : {le, be, std::string("\xef\xbb\xbf") + gpu}) {
            QVERIFY(OomLog::looksLike(bytes));
            const OomLog got = OomLog::parse(bytes);
            QCOMPARE(got.messages.size(), plain.messages.size());
            const OomMessage &m = got.messages.front();
            QCOMPARE(m.requested, want.requested);
            QCOMPARE(m.capacity, want.capacity);
            QCOMPARE(m.inUse, want.inUse);
            QCOMPARE(m.buffers.size(), want.buffers.size());
            QCOMPARE(m.headlines.front(), want.headlines.front());
        }

        const std::string abort = readAll(oomLog("tpu-2026-early-abort-broken.log"));
        const std::string stack = "> rank0: E0528 07:02:44.350251   27487 x.cc:1] "
                                  "[36m(MeshHostWorker pid=489)[0m 2024-03-01T10:00:00.123Z "
                                  ">> rank1: > ";
        std::string stacked;
        for (std::size_t at = 0; at < abort.size();) {
            const std::size_t nl = abort.find('\n', at);
            const std::size_t end = nl == std::string::npos ? abort.size() : nl + 1;
            stacked += stack + abort.substr(at, end - at);
            at = end;
        }
        const OomLog deep = OomLog::parse(stacked);
        QCOMPARE(deep.messages.size(), std::size_t(1));
        QCOMPARE(deep.messages.front().hloModule, std::string("jit__update_step"));

        const OomLog two = OomLog::parse(readAll(oomLog("tpu-early-abort.log")) + gpu);
        QCOMPARE(two.messages.size(), std::size_t(2));
        QCOMPARE(two.messages[0].form, OomMessage::Form::Tpu);
        QCOMPARE(two.messages[0].requested, std::int64_t(-1));
        QCOMPARE(two.messages[1].requested, std::int64_t(1311392));
        QVERIFY(two.messages[1].form != OomMessage::Form::Tpu);
    }

    // Sizes at the top of int64 (D14, issue 74): the rounding check compares them without
    // wrapping (UBSan, in the asan stage, fails it otherwise), and the exact one is read.
    void sizesAtTheTopOfInt64()
    {
        const OomLog log = OomLog::parse(
            "W external/tsl/tsl/framework/bfc_allocator.cc:482] Allocator (GPU_0_bfc) ran out "
            "of memory trying to allocate 7.99EiB (rounded to 9223372036854775807)requested by "
            "op\nRESOURCE_EXHAUSTED: Out of memory while trying to allocate 9223372036854775807 "
            "bytes.\n");
        QCOMPARE(log.messages.size(), std::size_t(1));
        // 7.99 EiB, ±0.005 EiB, cannot round to 2^63 - 1: the doubt is said, not wrapped into
        // agreement (9,223,372,036,854,775,807 + 0.005 EiB past int64 made it agree).
        const OomMessage &m = log.messages[0];
        QCOMPARE(m.roundedTo, std::int64_t(-1));
        QVERIFY(std::any_of(m.doubts.begin(), m.doubts.end(), [](const std::string &d) {
            return d.find("cannot round to") != std::string::npos;
        }));
    }

    void tpuEarlyAbort()
    {
        const OomLog log = parseFile(oomLog("tpu-early-abort.log"));
        QCOMPARE(log.messages.size(), std::size_t{1});
        const OomMessage &m = log.messages[0];
        QCOMPARE(m.form, OomMessage::Form::Tpu);
        QVERIFY(covers(m.tempRequired, 6 * kMiB, std::int64_t(18.54 * double(kGiB))));
        QVERIFY(covers(m.capacity, m.capacityUlp, std::int64_t(15.75 * double(kGiB))));
    }

    // The TPU wordings of 2026 and the GPU ones issue 59 named, read by hand from
    // tests/data/oom/make_oom.py's texts (sizes as libtpu prints them: binary units, two
    // decimals, so each figure within its rounding).
    void wordingsOf2026Tpu()
    {
        const auto one = [](const char *name) {
            const OomLog log = parseFile(oomLog(name));
            if (log.messages.size() != 1)
                qFatal("%s: %zu messages", name, log.messages.size());
            return log.messages.front();
        };
        const auto gib = [](double g) { return std::int64_t(g * double(kGiB)); };
        const auto mib = [](double m) { return std::int64_t(m * double(kMiB)); };
        using F = OomMessage::Failure;
        {
            const OomMessage m = one("tpu-2026-early-abort-named.log");
            QCOMPARE(m.failure, F::CompileTime);
            QVERIFY(covers(m.tempRequired, m.tempUlp, gib(98.58)));
            QVERIFY(covers(m.capacity, m.capacityUlp, gib(94.74)));
            QCOMPARE(m.executable, std::string("jit_fwd_bwd"));
            QCOMPARE(m.executableFrom, std::string("HLO module"));
        }
        {
            const OomMessage m = one("tpu-2026-early-abort-broken.log");
            QCOMPARE(m.failure, F::CompileTime);
            QVERIFY(covers(m.tempRequired, m.tempUlp, gib(161.94)));
            QVERIFY(covers(m.capacity, m.capacityUlp, gib(94.74)));
            QCOMPARE(m.hloModule, std::string("jit__update_step"));
            QCOMPARE(m.executable, std::string("jit__update_step"));
        }
        {
            const OomMessage m = one("tpu-2026-e1000-broken.log");
            QCOMPARE(m.failure, F::CompileTime);
            QCOMPARE(m.errorCode, std::string("E1000"));
            QCOMPARE(m.errorName, std::string("CompileTimeHbmOom"));
            QCOMPARE(m.memorySpace, std::string("hbm"));
            QVERIFY(covers(m.used, m.usedUlp, gib(126.45)));
            QVERIFY(covers(m.capacity, m.capacityUlp, gib(94.75)));
            QVERIFY(covers(m.exceededBy, m.exceededUlp, gib(31.70)));
        }
        {
            // TensorCore 34.82G + SparseCore 174.10G against 95.74G.
            const OomMessage m = one("tpu-2026-e1000-sparsecore.log");
            QCOMPARE(m.failure, F::CompileTime);
            QVERIFY(covers(m.used, m.usedUlp, gib(34.82) + gib(174.10)));
            QVERIFY(covers(m.capacity, m.capacityUlp, gib(95.74)));
            QCOMPARE(m.usage.size(), std::size_t{2});
        }
        {
            const OomMessage m = one("tpu-2026-program-load.log");
            QCOMPARE(m.failure, F::ProgramLoad);
            QCOMPARE(m.errorCode, std::string("E0101"));
            QCOMPARE(m.program, std::string("jit__forward"));
            QCOMPARE(m.executable, std::string("jit__forward"));
            QCOMPARE(m.executableFrom, std::string("program name"));
            QVERIFY(covers(m.requested, m.requestedUlp, gib(1.13)));
            QVERIFY(covers(m.freeBytes, m.freeUlp, mib(528.72)));
        }
        {
            const OomMessage m = one("tpu-2026-program-reserve.log");
            QCOMPARE(m.failure, F::ProgramLoad);
            QCOMPARE(m.program, std::string("jit_embedding_pipeline_step_fn"));
            QVERIFY(covers(m.requested, m.requestedUlp, gib(29.49)));
            QVERIFY(covers(m.freeBytes, m.freeUlp, mib(147.64)));
            QVERIFY(covers(m.reservable, m.freeUlp, mib(147.64)));
        }
        {
            // The heading alone: a program that could not be loaded, no figure said.
            const OomMessage m = one("tpu-2026-program-bare.log");
            QCOMPARE(m.failure, F::ProgramLoad);
            QCOMPARE(m.requested, std::int64_t{-1});
            QCOMPARE(m.freeBytes, std::int64_t{-1});
            const testutil::CliRun r = testutil::runBufferscope(
                {QStringLiteral("oom"), oomLog("tpu-2026-program-bare.log")});
            QVERIFY2(r.out.contains("figures       none"), r.out.constData());
        }
        {
            const OomMessage m = one("tpu-2026-buffer.log");
            QCOMPARE(m.failure, F::Allocation);
            QVERIFY(covers(m.requested, m.requestedUlp, mib(8.00)));
            QVERIFY(covers(m.freeBytes, m.freeUlp, mib(6.43)));
        }
        {
            // bf16[710080,64,128]: 710080 × 64 × 128 × 2 = 11,633,950,720 bytes by its shape.
            const OomMessage m = one("tpu-2026-vmem-stack.log");
            QCOMPARE(m.failure, F::Stack);
            QCOMPARE(m.errorCode, std::string("E1001"));
            QCOMPARE(m.memorySpace, std::string("vmem"));
            QCOMPARE(m.stackInstruction, std::string("kv_cache_update.1"));
            QCOMPARE(m.stackShape, std::string("bf16[710080,64,128]{2,1,0:T(8,128)(2,1)}"));
            QCOMPARE(m.stackBytes, std::int64_t{11633950720});
            QVERIFY(covers(m.requested, m.requestedUlp, mib(18.00)));
            QVERIFY(covers(m.capacity, m.capacityUlp, mib(16.00)));
            QVERIFY(covers(m.exceededBy, m.exceededUlp, mib(2.00)));
        }
        {
            const OomLog log = parseFile(oomLog("tpu-2026-usage.log"));
            QCOMPARE(log.messages.size(), std::size_t{2});
            for (const OomMessage &m : log.messages) {
                QCOMPARE(m.failure, F::Usage);
                QVERIFY(m.notAFailure);
            }
            QCOMPARE(log.messages[0].memorySpace, std::string("hbm"));
            QVERIFY(covers(log.messages[0].used, log.messages[0].usedUlp, 52 * 1024 + 512));
            QVERIFY(covers(log.messages[0].capacity, log.messages[0].capacityUlp, gib(31.25)));
            QCOMPARE(log.messages[1].memorySpace, std::string("vmem"));
            QVERIFY(covers(log.messages[1].capacity, log.messages[1].capacityUlp, mib(128)));
        }
        {
            // The retry is kept and marked; the failure after it is a message of its own.
            const OomLog log = parseFile(oomLog("gpu-bfc-not-a-failure.log"));
            QCOMPARE(log.messages.size(), std::size_t{2});
            QVERIFY(log.messages[0].notAFailure);
            QVERIFY(covers(log.messages[0].requested, log.messages[0].requestedUlp,
                           std::int64_t(4.64 * double(kGiB))));
            QVERIFY(!log.messages[1].notAFailure);
            QCOMPARE(log.messages[1].roundedTo, std::int64_t{2147483648});
        }
        {
            const OomMessage m = one("gpu-ray-glued.log");
            QCOMPARE(m.form, OomMessage::Form::GpuBufferAssignment);
            QCOMPARE(m.stats.size(), std::size_t{5});
            const OomFigure *p = m.stat("parameter allocation");
            QVERIFY(p && covers(p->bytes, p->ulp, 653597956)); // gpu_decoder_layer's parameters
        }
    }

    // Each of those texts on one line, hard-wrapped at 80 and 60 columns (as `fold` cuts, in
    // the middle of words and numbers) and at its author's breaks, under each prefix kind: the
    // same messages with the same figures, never another number.
    void wordingsOf2026Wrapped()
    {
        const char *const names[] = {
            "tpu-2026-early-abort-named.log", "tpu-2026-early-abort-broken.log",
            "tpu-2026-e1000-broken.log",      "tpu-2026-e1000-sparsecore.log",
            "tpu-2026-program-load.log",      "tpu-2026-program-reserve.log",
            "tpu-2026-program-bare.log",      "tpu-2026-buffer.log",
            "tpu-2026-vmem-stack.log",        "tpu-2026-usage.log"};
        const auto fold = [](const std::string &text, std::size_t width) {
            std::string out;
            std::size_t column = 0;
            for (const char c : text) {
                if (c == '\n') {
                    out += c;
                    column = 0;
                    continue;
                }
                if (column + 1 > width) {
                    out += '\n';
                    column = 0;
                }
                out += c;
                ++column;
            }
            return out;
        };
        const auto prefixed = [](const std::string &text, const std::string &prefix) {
            std::string out;
            for (std::size_t at = 0; at < text.size();) {
                const std::size_t nl = text.find('\n', at);
                const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
                out += prefix + text.substr(at, end - at);
                at = end;
            }
            return out;
        };
        const std::vector<std::string> prefixes = {"",
                                                   "> ",
                                                   "rank0: ",
                                                   "E0528 07:02:44.350251   27487 x.cc:1] ",
                                                   "2024-03-01T10:00:00.123Z ",
                                                   "[36m(MeshHostWorker pid=489)[0m ",
                                                   "\x1b[36m(MeshHostWorker pid=489)\x1b[0m "};
        int checked = 0;
        for (const char *name : names) {
            const std::string text = readAll(oomLog(name));
            const OomLog plain = OomLog::parse(text);
            QVERIFY2(!plain.messages.empty(), name);
            // The author's breaks undone, for a text of one message: one line.
            std::string oneLine;
            for (std::size_t k = 0; k < text.size(); ++k)
                oneLine += text[k] == '\n' && k + 1 < text.size() ? ' ' : text[k];
            std::vector<std::string> variants = {text, fold(text, 80), fold(text, 60)};
            if (plain.messages.size() == 1)
                variants.insert(variants.end(), {oneLine, fold(oneLine, 80), fold(oneLine, 60)});
            for (const std::string &variant : variants) {
                for (const std::string &prefix : prefixes) {
                    const OomLog got = OomLog::parse(prefixed(variant, prefix));
                    const QByteArray where = QByteArray(name) + " under \"" +
                                             QByteArray::fromStdString(prefix) + "\":\n" +
                                             QByteArray::fromStdString(variant);
                    QVERIFY2(got.messages.size() == plain.messages.size(), where.constData());
                    for (std::size_t k = 0; k < got.messages.size(); ++k) {
                        const OomMessage &a = plain.messages[k];
                        const OomMessage &b = got.messages[k];
                        QVERIFY2(a.failure == b.failure && a.errorCode == b.errorCode &&
                                     a.requested == b.requested && a.capacity == b.capacity &&
                                     a.used == b.used && a.tempRequired == b.tempRequired &&
                                     a.freeBytes == b.freeBytes && a.exceededBy == b.exceededBy &&
                                     a.executable == b.executable && a.stackBytes == b.stackBytes &&
                                     a.notAFailure == b.notAFailure,
                                 where.constData());
                    }
                    ++checked;
                }
            }
        }
        // Nine texts of one message in six forms, the usage lines in three, each under seven
        // prefixes.
        QCOMPARE(checked, (9 * 6 + 3) * 7);
    }

    void notAnOomLog()
    {
        QVERIFY(!OomLog::looksLike(readAll(sample("gpu_decoder_layer"))));
        // A BFC note that is not a failure is kept, and says so.
        const OomLog retry =
            OomLog::parse("Epoch 1/10 loss 0.25\nAllocator (GPU_0_bfc) ran out of memory "
                          "trying to allocate 6.88GiB with freed_by_count=0. The caller "
                          "indicates that this is not a failure, but ...\n");
        QCOMPARE(retry.messages.size(), std::size_t{1});
        QVERIFY(retry.messages[0].notAFailure);
        const testutil::CliRun r =
            testutil::runBufferscope({QStringLiteral("oom"), sample("gpu_decoder_layer")});
        QCOMPARE(r.code, 2);
        QVERIFY2(
            r.err.contains("gpu_decoder_layer.buffer-assignment.txt: no out-of-memory message"),
            r.err.constData());
    }

    // The real logs (../shared/real/oom): the buffers as their authors' runs printed them.
    void realGpuV100()
    {
        const QString path = realOom("gpu-jax-v100-2024-05-28.log");
        REQUIRE_FILE(path);
        const OomLog log = parseFile(path);
        QCOMPARE(log.messages.size(), std::size_t{1}); // the log line and the traceback: once
        const OomMessage &m = log.messages[0];
        QCOMPARE(m.printed, std::int64_t{2});
        QCOMPARE(m.requested, std::int64_t{2110783616});
        QCOMPARE(m.roundedTo, std::int64_t{2110783744});
        QCOMPARE(m.buffers.size(), std::size_t{6});
        // f32[5104,257152] is 5104 × 257152 × 4 = 5,250,015,232 B, printed "4.89GiB".
        QVERIFY(covers(m.buffers[0].size, m.buffers[0].sizeUlp, 5250015232));
        QCOMPARE(m.buffers[0].label, std::string("custom-call"));
        QCOMPARE(m.buffers[0].sourceLine, std::int64_t{175});
        QVERIFY(m.buffers[2].entryParameter);
        QCOMPARE(m.buffers[2].shape, std::string("f16[2048,257152]"));
        QCOMPARE(m.buffers[5].shape, std::string("(f32[5104,257152], s8[4194304])"));
        QCOMPARE(m.buffers[5].size, std::int64_t{16});
        const OomFigure *temp = m.stat("preallocated temp allocation");
        QVERIFY(temp && covers(temp->bytes, temp->ulp, 2110783616)); // the request: the temp
    }

    void realGpuMi250Wrapped()
    {
        const QString path = realOom("gpu-jax-mi250-wrapped-2024-07-09.log");
        REQUIRE_FILE(path);
        const OomLog log = parseFile(path);
        QCOMPARE(log.messages.size(), std::size_t{1});
        const OomMessage &m = log.messages[0];
        QCOMPARE(m.requested, std::int64_t{165425291480});
        QCOMPARE(m.requestedUlp, std::int64_t{0});
        QCOMPARE(m.device, std::string("device ordinal 0"));
        QCOMPARE(m.buffers.size(), std::size_t{3});
        // Wrapped over eight lines at ~220 columns: the op_name reads whole.
        QVERIFY(m.buffers[0].opName.starts_with("jit(apply_fn)/jit(main)/alphafold/"));
        QVERIFY(m.buffers[0].opName.ends_with("/triangle_multiplication_incoming/div"));
        QVERIFY(m.buffers[0].opName.find("alphafold/alphafold_iteration") != std::string::npos);
        QCOMPARE(m.buffers[0].shape, std::string("f32[39955041,256]"));
        // source_file wrapped across a line break.
        QCOMPARE(m.buffers[1].sourceFile, std::string("/opt/miniconda3/bin/colabfold_batch"));
        QCOMPARE(m.buffers[1].sourceLine, std::int64_t{8});
        QCOMPARE(m.buffers[2].label, std::string("custom-call"));
    }

    void realTpu()
    {
        const QString v3 = realOom("tpu-v3-pytorch-xla-2024-03-06.log");
        REQUIRE_FILE(v3);
        const OomLog log = parseFile(v3);
        QCOMPARE(log.messages.size(), std::size_t{1});
        const OomMessage &m = log.messages[0];
        QCOMPARE(m.buffers.size(), std::size_t{2});
        QCOMPARE(m.buffers[0].label, std::string("broadcast.6042.remat3"));
        QCOMPARE(m.buffers[1].label, std::string("broadcast.6043.remat3"));
        QCOMPARE(m.buffers[0].size, 4 * kGiB);
        QCOMPARE(m.buffers[0].unpadded, kGiB);
        QCOMPARE(m.buffers[0].padding, 3 * kGiB);
        QVERIFY(covers(m.programRequirement, 6 * kMiB, std::int64_t(15.45 * double(kGiB))));
        // No headline: the program's requirement and largest allocations are the compiler's.
        QCOMPARE(m.failure, OomMessage::Failure::CompileTime);

        const QString old = realOom("tpu-tf-2019-11-11-fragment.log");
        REQUIRE_FILE(old);
        const OomLog log2019 = parseFile(old);
        QCOMPARE(log2019.messages.size(), std::size_t{1});
        const OomMessage &o = log2019.messages[0];
        QCOMPARE(o.capacity, 16 * kGiB);
        QVERIFY(covers(o.used, o.usedUlp, std::int64_t(41.74 * double(kGiB))));
        QCOMPARE(o.usage.size(), std::size_t{3});
        QCOMPARE(o.usage[2].bytes, std::int64_t{-1}); // "arguments unknown size"
        QCOMPARE(o.buffers.size(), std::size_t{1});
        QCOMPARE(o.buffers[0].label, std::string("copy.40488")); // "%copy.40488 = …"
        QCOMPARE(o.buffers[0].opType, std::string("FloorMod"));
        QCOMPARE(o.buffers[0].size, 32 * kGiB);
        QCOMPARE(o.failure, OomMessage::Failure::CompileTime); // "Compilation failure: …"
    }

    // Joined to a dump folder: every exact line resolves, the rest is listed unmatched.
    void joinsToItsModule()
    {
        QTemporaryDir dir;
        place(dir, "gpu_decoder_layer", "module_0003.jit_decoder_layer");
        place(dir, "gpu_vllm_update_slice", "module_0007.jit_update_slice");
        place(dir, "tpu_unstack", "module_0010.jit_unstack");

        // By executable_name and the exact size: allocation 25 is the 1311392-byte temp.
        QJsonObject m = firstMessage(oomJson({oomLog("gpu-oneline-ray.log"), dir.path()}));
        QCOMPARE(m.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(m.value(QStringLiteral("failing_allocation")).toInteger(), 25);

        // A rounded size chooses no allocation; the name still finds the module.
        m = firstMessage(oomJson({oomLog("gpu-oneline-rounded.log"), dir.path()}));
        QCOMPARE(m.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations"));
        QVERIFY(m.value(QStringLiteral("failing_allocation")).isNull());

        // Exact, but allocations 2 and 3 both have 138706944 B: the module, not the allocation.
        m = firstMessage(oomJson({oomLog("gpu-async-twins.log"), dir.path()}));
        QCOMPARE(m.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations"));
        QVERIFY(m.value(QStringLiteral("failing_allocation")).isNull());

        // The list: loop_slice_fusion (value 200, the only fusion of bf16[69353472] with
        // op_name aten__as_strided) and p5.18.0 (value 203, the only bf16[151936,1024]
        // parameter); two parameters are bf16[6144,1024] and two fusions bf16[128,3072].
        m = firstMessage(oomJson({oomLog("gpu-bfc-decoder.log"), dir.path()}));
        QCOMPARE(m.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(m.value(QStringLiteral("failing_allocation")).toInteger(), 25);
        QCOMPARE(matchedIds(m), (QList<qint64>{200, 203, -1, -1}));
        // Parameters 653597956 + outputs 277938208 + temp 1311392 (the three 4-byte
        // thread-local allocations are in none of them).
        QCOMPARE(m.value(QStringLiteral("held_bytes")).toInteger(), 932847556);

        // TPU labels are instruction names: Arg_0.1 is value 23, tuple.10 value 29;
        // slice_reduce_fusion defines four u32[2] values; fusion.999.remat2 is not there.
        m = firstMessage(oomJson({oomLog("tpu-hbm-unstack.log"), dir.path()}));
        QCOMPARE(m.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0010.jit_unstack.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(matchedIds(m), (QList<qint64>{23, -1, 29, -1}));

        // Nothing in the early abort names a module.
        m = firstMessage(oomJson({oomLog("tpu-early-abort.log"), dir.path()}));
        QVERIFY(m.value(QStringLiteral("module")).isNull());
    }

    // A line of the message that quotes a dump's module_NNNN prefix picks that module, and
    // rules the others out (the executable name alone would not tell 0003 from 0004).
    void modulePrefixNamesTheModule()
    {
        const OomLog log = OomLog::parse(
            "2026-11-25 10:01:02.123456: E xla/pjrt/client.cc:88] Out of memory while trying to "
            "allocate 1.25MiB. (module_0004.jit_decoder_layer, a copy of module_00x)\n");
        QCOMPARE(log.messages.size(), std::size_t{1});
        QCOMPARE(log.messages[0].modules, (std::vector<std::string>{"module_0004"}));
        QTemporaryDir dir;
        place(dir, "gpu_decoder_layer", "module_0003.jit_decoder_layer");
        place(dir, "gpu_decoder_layer", "module_0004.jit_decoder_layer");
        const QString path = dir.filePath(QStringLiteral("named.log"));
        testutilWrite(path, "Out of memory while trying to allocate 1311392 bytes. while running "
                            "module_0004.jit_decoder_layer\n");
        const QJsonObject m = firstMessage(oomJson({path, dir.path()}));
        QCOMPARE(m.value(QStringLiteral("module")).toString(),
                 QStringLiteral("module_0004.jit_decoder_layer.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(m.value(QStringLiteral("failing_allocation")).toInteger(), 25);
    }

    // The module a 2026 TPU message names (issue 59), in a folder of generated modules: the
    // early abort's `HLO module: NAME.` and a program load's `Error loading program 'NAME'`
    // find it by its exact jit name (jit_fwd is not jit_fwd_bwd). Two compiles of one name are
    // told apart by the temporaries the message prints, when they agree with one module's temp
    // allocation within the rounding; when they agree with neither, none is chosen. The temp
    // sizes are the generator's own (DumpGenerator's truths), printed as libtpu prints sizes:
    // tsl's HumanReadableNumBytes, two decimals, binary units.
    void namesItsModuleInAFolder()
    {
        QTemporaryDir dir;
        std::map<std::string, std::int64_t> temp;
        const struct
        {
            const char *module;
            std::uint64_t seed;
        } modules[] = {{"module_0041.jit_fwd", 3},
                       {"module_0042.jit_fwd_bwd", 5},
                       {"module_0043.jit__forward", 7},
                       {"module_0044.jit_fwd_bwd", 11}};
        for (const auto &m : modules) {
            const QString path =
                dir.filePath(QStringLiteral("%1.sm_8.0_gpu_after_optimizations-buffer-"
                                            "assignment.txt")
                                 .arg(QLatin1String(m.module)));
            std::FILE *out = std::fopen(QFile::encodeName(path).constData(), "wb");
            QVERIFY(out);
            bench::GeneratorOptions options;
            options.values = 3000;
            options.seed = m.seed;
            temp[m.module] = bench::generateDump(options, out).tempBytes;
            std::fclose(out);
        }
        const auto human = [](std::int64_t bytes) {
            double v = double(bytes);
            const char *units = "BKMGTPE";
            int u = 0;
            while (v >= 1024 && u < 6) {
                v /= 1024;
                ++u;
            }
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2f%c", v, units[u]);
            return std::string(buf);
        };
        // The two jit_fwd_bwd compiles differ by more than the printed rounding.
        QVERIFY(human(temp["module_0042.jit_fwd_bwd"]) != human(temp["module_0044.jit_fwd_bwd"]));
        const auto moduleOf = [&](const std::string &text) {
            const QString log = dir.filePath(QStringLiteral("oom.log"));
            QFile f(log);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                qFatal("cannot write the log");
            f.write(text.data(), qint64(text.size()));
            f.close();
            return firstMessage(oomJson({log, dir.path()}));
        };
        const auto abort = [&](const std::string &temporaries, const char *name,
                               const char *breaks) {
            std::string t = "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory "
                            "on HBM, the total memory" +
                            std::string(breaks) + "required for HLO temporaries (" + temporaries +
                            ") exceeds available HBM (94.74G)." + breaks + "HLO module: " + name +
                            ".\n";
            return t;
        };
        const QString gpuSuffix = QStringLiteral(".sm_8.0_gpu_after_optimizations");
        for (const char *breaks : {" ", "\n"}) {
            // Its temporaries are module 0042's temp allocation: that compile.
            QJsonObject m =
                moduleOf(abort(human(temp["module_0042.jit_fwd_bwd"]), "jit_fwd_bwd", breaks));
            QCOMPARE(m.value(QStringLiteral("module")).toString(),
                     QStringLiteral("module_0042.jit_fwd_bwd") + gpuSuffix);
            QCOMPARE(m.value(QStringLiteral("hlo_module")).toString(),
                     QStringLiteral("jit_fwd_bwd"));
            QCOMPARE(m.value(QStringLiteral("candidates")).toArray().size(), 2);
            // Both TPU rules, the module's figure beside the message's: the temporaries
            // (the generator's temp heap) against the 94.74G available, then what it holds.
            const QJsonArray checks = m.value(QStringLiteral("checks")).toArray();
            QCOMPARE(checks.size(), 2);
            const QJsonObject compile = checks[0].toObject();
            QCOMPARE(compile.value(QStringLiteral("check")).toString(),
                     QStringLiteral("compile_time"));
            QCOMPARE(compile.value(QStringLiteral("bytes")).toInteger(),
                     temp["module_0042.jit_fwd_bwd"]);
            QVERIFY(covers(compile.value(QStringLiteral("message_bytes")).toInteger(),
                           compile.value(QStringLiteral("message_rounding_bytes")).toInteger(),
                           temp["module_0042.jit_fwd_bwd"]));
            QVERIFY(covers(compile.value(QStringLiteral("limit_bytes")).toInteger(), kGiB / 100,
                           std::int64_t(94.74 * double(kGiB))));
            QCOMPARE(compile.value(QStringLiteral("headroom_bytes")).toInteger(),
                     compile.value(QStringLiteral("limit_bytes")).toInteger() -
                         temp["module_0042.jit_fwd_bwd"]);
            QCOMPARE(compile.value(QStringLiteral("fits")).toBool(), true);
            QCOMPARE(checks[1].toObject().value(QStringLiteral("check")).toString(),
                     QStringLiteral("run_time"));
            QCOMPARE(checks[1].toObject().value(QStringLiteral("bytes")).toInteger(),
                     m.value(QStringLiteral("held_bytes")).toInteger());
            m = moduleOf(abort(human(temp["module_0044.jit_fwd_bwd"]), "jit_fwd_bwd", breaks));
            QCOMPARE(m.value(QStringLiteral("module")).toString(),
                     QStringLiteral("module_0044.jit_fwd_bwd") + gpuSuffix);
            // 1.00K agrees with neither: two compiles of the name, none chosen.
            m = moduleOf(abort("1.00K", "jit_fwd_bwd", breaks));
            QVERIFY(m.value(QStringLiteral("module")).isNull());
            QCOMPARE(m.value(QStringLiteral("candidates")).toArray().size(), 2);
            // jit_fwd is its own module, whatever its temporaries.
            m = moduleOf(abort("1.00K", "jit_fwd", breaks));
            QCOMPARE(m.value(QStringLiteral("module")).toString(),
                     QStringLiteral("module_0041.jit_fwd") + gpuSuffix);
            QCOMPARE(m.value(QStringLiteral("candidates")).toArray().size(), 1);
            // A program that could not be loaded, by its name.
            m = moduleOf("RESOURCE_EXHAUSTED: E0101: RuntimeProgramAllocationFailure: Error "
                         "loading program 'jit__forward':" +
                         std::string(breaks) +
                         "Attempting to allocate 1.13G. That was not possible. There are 528.72M "
                         "free.\n");
            QCOMPARE(m.value(QStringLiteral("module")).toString(),
                     QStringLiteral("module_0043.jit__forward") + gpuSuffix);
            QCOMPARE(m.value(QStringLiteral("program")).toString(), QStringLiteral("jit__forward"));
        }
    }

    // The padding factor is the one XLA printed (issue 59: the window's header said 120× where
    // its table said 128×, from a ratio of two rounded sizes). 16.00M with 15.88M padding: the
    // rounded sizes give 16 / 0.12 = 133.3; the unpadded 128.00K gives 128; XLA printed 128.0.
    void paddingFactorIsThePrintedOne()
    {
        const OomLog log = OomLog::parse(
            "Ran out of memory in memory space hbm. Used 20.00G of 15.75G hbm. Exceeded hbm "
            "capacity by 4.25G.\n"
            "Largest program allocations in hbm:\n"
            "  1. Size: 16.00M\n"
            "     Shape: f32[1,32768]{1,0:T(8,128)}\n"
            "     Unpadded size: 128.00K\n"
            "     Extra memory due to padding: 15.88M (128.0x expansion)\n"
            "     XLA label: fusion.1 = fusion(...)\n"
            "     Allocation type: HLO temp\n"
            "     ==========================\n");
        QCOMPARE(log.messages.size(), std::size_t{1});
        QCOMPARE(log.messages[0].buffers.size(), std::size_t{1});
        OomBuffer b = log.messages[0].buffers[0];
        QCOMPARE(b.expansionFactor(), 128.0);
        b.expansion.clear();
        QCOMPARE(b.expansionFactor(), 128.0); // 16.00M / 128.00K
        b.unpadded = -1;
        QVERIFY(std::abs(b.expansionFactor() - 16.0 / (16.0 - 15.88)) < 0.5);
    }

    // `oom --json` is one schema for every log (issue 59): each message says what failed, and
    // every figure it reads has its rounding beside it (`X_bytes` and `X_rounding_bytes`),
    // except the allocator's `rounded_to_bytes`, which is exact by definition.
    void jsonFiguresCarryTheirRounding()
    {
        const QStringList failures{QStringLiteral("allocation"), QStringLiteral("compile_time"),
                                   QStringLiteral("program_load"), QStringLiteral("stack"),
                                   QStringLiteral("usage")};
        const QDir dir(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom"));
        int messages = 0;
        for (const QString &name : dir.entryList({QStringLiteral("*.log")}, QDir::Files)) {
            const testutil::CliRun r = testutil::runBufferscope(
                {QStringLiteral("oom"), dir.filePath(name), QStringLiteral("--json")});
            if (r.code != 0)
                continue; // a log of no message (tested apart)
            const QJsonObject report = QJsonDocument::fromJson(r.out).object();
            for (const QJsonValue &v : report.value(QStringLiteral("messages")).toArray()) {
                const QJsonObject m = v.toObject();
                ++messages;
                QVERIFY2(failures.contains(m.value(QStringLiteral("failure")).toString()),
                         qPrintable(name));
                QVERIFY(m.value(QStringLiteral("not_a_failure")).isBool());
                for (const QString &key : m.keys()) {
                    if (!key.endsWith(QLatin1String("_bytes")) ||
                        key.endsWith(QLatin1String("_rounding_bytes")) ||
                        key == QLatin1String("rounded_to_bytes"))
                        continue;
                    QString rounding = key;
                    rounding.replace(rounding.size() - 6, 6, QStringLiteral("_rounding_bytes"));
                    QVERIFY2(
                        m.contains(rounding),
                        qPrintable(QStringLiteral("%1: %2 without %3").arg(name, key, rounding)));
                }
            }
        }
        QVERIFY2(messages >= dir.entryList({QStringLiteral("*.log")}, QDir::Files).size(),
                 qPrintable(QString::number(messages))); // at least one a log
    }

    // A program load says how far the free memory falls short of what it asked: 1.13G is
    // 1157.12 MiB, 528.72M free, 628.40 MiB short (by hand).
    void programLoadSaysTheShortfall()
    {
        const testutil::CliRun r =
            testutil::runBufferscope({QStringLiteral("oom"), oomLog("tpu-2026-program-load.log")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("628.40MiB short of what it asked"), r.out.constData());
    }

    // Two modules fit equally: none is chosen, both are listed.
    void neverGuessesBetweenTwins()
    {
        QTemporaryDir dir;
        place(dir, "gpu_decoder_layer", "module_0003.jit_decoder_layer");
        place(dir, "gpu_decoder_layer", "module_0004.jit_decoder_layer");
        const QJsonObject m = firstMessage(oomJson({oomLog("gpu-oneline-ray.log"), dir.path()}));
        QVERIFY(m.value(QStringLiteral("module")).isNull());
        QCOMPARE(m.value(QStringLiteral("candidates")).toArray().size(), 2);
        const testutil::CliRun r = testutil::runBufferscope(
            {QStringLiteral("oom"), oomLog("gpu-oneline-ray.log"), dir.path()});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("undecided"), r.out.constData());
    }

    // The 2026 wordings given hostile names and sizes (issue 59): a program name with a
    // terminal title sequence, an HLO module that reads as a spreadsheet formula, sizes no
    // device has, a stack shape whose bytes overflow. Three messages (each headline names its
    // own program, module or instruction), nothing wraps or overflows, and no figure is read
    // from what is not one.
    void hostileWordingsOf2026()
    {
        const OomLog log = OomLog::parse(
            "RESOURCE_EXHAUSTED: E0101: RuntimeProgramAllocationFailure: Error loading program "
            "'\x1b]0;x\x07jit_a': Attempting to allocate 99999999999999999999.00G. That was not "
            "possible. There are 18446744073709551615G free.\n"
            "RESOURCE_EXHAUSTED: Ran out of memory on HBM, the total memory required for HLO "
            "temporaries (1e308G) exceeds available HBM (-5G). HLO module: \x1b[2J=cmd|calc.\n"
            "Ran out of memory in memory space vmem while allocating on stack for %k = "
            "bf16[99999999999,99999999999,99999999999]{2,1,0} custom-call()\n");
        QCOMPARE(log.messages.size(), std::size_t{3});
        const OomMessage &load = log.messages[0];
        QCOMPARE(load.failure, OomMessage::Failure::ProgramLoad);
        QCOMPARE(load.program, std::string("jit_a")); // the escape sequence is not part of it
        QCOMPARE(load.requested, std::int64_t{-1});
        QCOMPARE(load.freeBytes, std::int64_t{-1});
        QCOMPARE(load.doubts.size(), std::size_t{2});
        QVERIFY(load.doubts[0].find("not a size a device has") != std::string::npos);
        const OomMessage &abort = log.messages[1];
        QCOMPARE(abort.failure, OomMessage::Failure::CompileTime);
        QCOMPARE(abort.tempRequired, std::int64_t{-1});
        QCOMPARE(abort.capacity, std::int64_t{-1});
        const OomMessage &stack = log.messages[2];
        QCOMPARE(stack.failure, OomMessage::Failure::Stack);
        QCOMPARE(stack.stackInstruction, std::string("k"));
        QCOMPARE(stack.stackBytes, std::int64_t{-1}); // 2 × 10^33 bytes: no size
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hostile.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "RESOURCE_EXHAUSTED: Ran out of memory on HBM, the total memory required for HLO "
            "temporaries (1e308G) exceeds available HBM (-5G). HLO module: \x1b[2J=cmd|calc.\n");
        f.close();
        for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("--json")}}) {
            const testutil::CliRun r =
                testutil::runBufferscope(QStringList{QStringLiteral("oom"), path} + extra);
            QCOMPARE(r.code, 0);
            for (char c : r.out)
                QVERIFY2(c == '\n' || static_cast<unsigned char>(c) >= 0x20, r.out.constData());
        }
    }

    // A GPU message asking for more bytes than an int64 holds is still a message (it was
    // dropped: "no out-of-memory message found"), with the size not known and why; 2^63 - 1
    // itself, 19 digits, is read exactly.
    void sizePastInt64IsNoSize()
    {
        const OomLog log = OomLog::parse(
            "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 18446744073709551615 "
            "bytes.\n"
            "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 9223372036854775807 "
            "bytes.\n");
        QCOMPARE(log.messages.size(), std::size_t{2});
        const OomMessage &huge = log.messages[0];
        QCOMPARE(huge.requested, std::int64_t{-1});
        QCOMPARE(huge.doubts.size(), std::size_t{1});
        QVERIFY(huge.doubts[0].find("too large to be a size") != std::string::npos);
        QCOMPARE(log.messages[1].requested, std::numeric_limits<std::int64_t>::max());
        QCOMPARE(log.messages[1].requestedUlp, std::int64_t{0});
    }

    // A log that repeats one message without end keeps eight of its lines and counts the rest;
    // a log of many messages keeps each (the repeats were compared pair by pair: 60,000
    // messages took 4.3 s, 300,000 would take minutes; tests/bench/README.md has the figures).
    void longLogsStayBounded()
    {
        std::string same;
        for (int i = 0; i < 10000; ++i)
            same += "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4096 bytes.\n"
                    "something else\n";
        const OomLog one = OomLog::parse(same);
        QCOMPARE(one.messages.size(), std::size_t{1});
        QCOMPARE(one.messages[0].requested, std::int64_t{4096});
        QCOMPARE(one.messages[0].headlines.size(), OomMessage::kHeadlines);
        QCOMPARE(one.messages[0].moreHeadlines, std::size_t{10000} - OomMessage::kHeadlines);
        // Sizes of 4 to 13 digits: lines of one width would read as a hard-wrapped log.
        const auto size = [](std::int64_t i) { return (i + 1000) * (1 + (i % 7) * 1000003); };
        std::string many;
        for (int i = 0; i < 20000; ++i)
            many += "RESOURCE_EXHAUSTED: Out of memory while trying to allocate " +
                    std::to_string(size(i)) + " bytes.\n";
        const OomLog each = OomLog::parse(many);
        QCOMPARE(each.messages.size(), std::size_t{20000});
        QCOMPARE(each.messages.back().requested, size(19999));
        // A repeat after others still joins the first it repeats.
        const OomLog again = OomLog::parse(
            "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 100 bytes.\n"
            "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 200 bytes.\n"
            "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 100 bytes.\n");
        QCOMPARE(again.messages.size(), std::size_t{2});
        QCOMPARE(again.messages[0].printed, 2);
    }

    // A log's words reach the terminal as text.
    void hostileLogIsText()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("evil.log"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Out of memory while trying to allocate 1024 bytes. "
                "[executable_name='\x1b]0;pwned\x07jit_x\x1b[2J']\n"
                "BufferAssignment OOM Debugging.\nPeak buffers:\n\tBuffer 1:\n\t\tSize: 1.00KiB\n"
                "\t\tOperator: op_name=\"a\\033[31mred\\r\" \n\t\tXLA Label: fusion\n\t\tShape: "
                "f32[256]\n");
        f.close();
        const testutil::CliRun r = testutil::runBufferscope({QStringLiteral("oom"), path});
        QCOMPARE(r.code, 0);
        for (char c : r.out)
            QVERIFY2(c == '\n' || static_cast<unsigned char>(c) >= 0x20, r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestOom)
#include "tst_oom.moc"
