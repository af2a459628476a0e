// Binary module dumps (issue 51): an xla.HloProto holds the module and its buffer assignment but
// not the values' positions, uses and live ranges, which BufferScope works out by XLA's rules.
// tests/data/protos holds, for each bundled sample dump, the proto of the same module
// (make_protos.py writes it from the text: instructions, schedule, values, allocations; nothing
// of what is worked out). Every fact checked here is what XLA printed in the text dump: the
// allocations, each value's positions and uses, its live range, the schedule and the peak.
#include "AttackProtos.h"
#include "CliRun.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"
#include "model/ModuleNames.h"
#include "open/Catalog.h"
#include "open/ModuleReader.h"
#include "parse/DumpParser.h"
#include "parse/HloProtoDump.h"
#include "parse/XPlaneModules.h"
#include "util/Decompress.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>
#include <sys/stat.h>
#include <tuple>

using namespace bufferscope;

namespace {

const char *const kSamples[] = {"gpu_decoder_layer", "gpu_vllm_update_slice", "tpu_dynamic_slice",
                                "tpu_random_normal", "tpu_unstack"};

std::string samplePath(const char *name)
{
    return std::string(BUFFERSCOPE_TEST_DATA "/") + name + ".buffer-assignment.txt";
}

std::string protoPath(const char *name)
{
    return std::string(BUFFERSCOPE_TEST_DATA "/binary/protos/module_0001.") + name +
           ".after_optimizations.hlo.pb";
}

std::shared_ptr<const Dump> load(const std::string &path)
{
    const LoadResult r = ModuleReader::loadPath(path);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return r.dump;
}

using Place = std::pair<std::string, std::string>; // instruction, index

std::set<Place> positionsOf(const Dump &d, const Value &v)
{
    std::set<Place> out;
    for (std::uint32_t k = 0; k < v.positionCount; ++k) {
        const Position &p = d.positions[v.firstPosition + k];
        out.insert({std::string(d.strings.view(d.instructions[p.instruction].name)),
                    p.index == kNoString ? "{}" : std::string(d.strings.view(p.index))});
    }
    return out;
}

std::set<std::tuple<std::string, std::int64_t, std::string>> usesOf(const Dump &d, const Value &v)
{
    std::set<std::tuple<std::string, std::int64_t, std::string>> out;
    for (std::uint32_t k = 0; k < v.useCount; ++k) {
        const Use &u = d.uses[v.firstUse + k];
        out.insert({std::string(d.strings.view(d.instructions[u.instruction].name)), u.operand,
                    u.index == kNoString ? "{}" : std::string(d.strings.view(u.index))});
    }
    return out;
}

/// Every fact of the text dump the proto must give again; the differences, in words.
QStringList differences(const Dump &text, const Dump &proto)
{
    QStringList out;
    const auto say = [&out](const std::string &s) {
        if (out.size() < 20)
            out << QString::fromStdString(s);
    };
    if (text.allocations.size() != proto.allocations.size())
        say("allocations: " + std::to_string(text.allocations.size()) + " vs " +
            std::to_string(proto.allocations.size()));
    for (std::size_t i = 0; i < std::min(text.allocations.size(), proto.allocations.size()); ++i) {
        const Allocation &a = text.allocations[i];
        const Allocation &b = proto.allocations[i];
        if (std::tie(a.index, a.size, a.color, a.kind, a.isParameter, a.parameterNumber,
                     a.isMaybeLiveOut, a.isThreadLocal, a.isConstant, a.isPreallocatedTemp,
                     a.valueCount) != std::tie(b.index, b.size, b.color, b.kind, b.isParameter,
                                               b.parameterNumber, b.isMaybeLiveOut, b.isThreadLocal,
                                               b.isConstant, b.isPreallocatedTemp, b.valueCount))
            say("allocation " + std::to_string(a.index) + " differs");
        if (text.strings.view(a.parameterShape) != proto.strings.view(b.parameterShape) ||
            text.strings.view(a.outputShape) != proto.strings.view(b.outputShape))
            say("allocation " + std::to_string(a.index) + ": parameter or output shape differs");
    }
    if (text.values.size() != proto.values.size())
        say("values: " + std::to_string(text.values.size()) + " vs " +
            std::to_string(proto.values.size()));
    for (std::size_t i = 0; i < std::min(text.values.size(), proto.values.size()); ++i) {
        const Value &a = text.values[i];
        const Value &b = proto.values[i];
        const std::string name =
            "value " + std::to_string(a.id) + " (" + std::string(text.valueDisplayName(a)) + ")";
        if (a.id != b.id || a.offset != b.offset || a.size != b.size ||
            text.allocations[a.allocation].index != proto.allocations[b.allocation].index)
            say(name + ": id, offset, size or allocation differs");
        if (a.start != b.start || a.end != b.end)
            say(name + ": live " + std::to_string(a.start) + "-" + std::to_string(a.end) +
                " in the text, " + std::to_string(b.start) + "-" + std::to_string(b.end) +
                " from the proto");
        if (text.strings.view(text.shapes[a.shape].text) !=
            proto.strings.view(proto.shapes[b.shape].text))
            say(name + ": shape differs");
        if (text.valueDisplayName(a) != proto.valueDisplayName(b))
            say(name + ": named " + std::string(proto.valueDisplayName(b)) + " from the proto");
        if (positionsOf(text, a) != positionsOf(proto, b))
            say(name + ": positions differ");
        if (a.usesState == UsesState::Known && usesOf(text, a) != usesOf(proto, b))
            say(name + ": uses differ");
    }
    if (text.sequence.size() != proto.sequence.size())
        say("schedule: " + std::to_string(text.sequence.size()) + " vs " +
            std::to_string(proto.sequence.size()) + " steps");
    else
        for (std::size_t t = 0; t < text.sequence.size(); ++t)
            if (text.strings.view(text.instructions[text.sequence[t]].name) !=
                proto.strings.view(proto.instructions[proto.sequence[t]].name))
                say("schedule differs at step " + std::to_string(t));
    if (text.printedPeak.present != proto.printedPeak.present ||
        text.printedPeak.step != proto.printedPeak.step ||
        text.printedPeak.entries.size() != proto.printedPeak.entries.size())
        say("XLA's peak: step " + std::to_string(text.printedPeak.step) + " vs " +
            std::to_string(proto.printedPeak.step));
    if (text.allocationSizeSum() != proto.allocationSizeSum())
        say("total bytes differ");
    return out;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TestHloProto : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void samplesAgreeWithTheirTextDumps_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char *s : kSamples)
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    // Each sample's proto gives the text dump's allocations, values with their positions, uses
    // and live ranges, schedule and XLA's peak step.
    void samplesAgreeWithTheirTextDumps()
    {
        QFETCH(QString, sample);
        const std::string name = sample.toStdString();
        const auto text = load(samplePath(name.c_str()));
        const auto proto = load(protoPath(name.c_str()));
        const QStringList diff = differences(*text, *proto);
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
        QVERIFY(proto->hasLiveRanges());
        QVERIFY(!proto->printedPeak.undetermined);
        QVERIFY(proto->warnings.empty());
    }

    // By hand from tpu_unstack.buffer-assignment.txt: 20 allocations totalling 52288 bytes;
    // slice_reduce_fusion{0} (value 25) is held by tuple.10 {3} and get-tuple-element, used by
    // tuple.10 as operand 3, live 1-7 (its position at the root lasts to the end); XLA's peak
    // is at step 6.
    void handFactsOfTpuUnstack()
    {
        const auto d = load(protoPath("tpu_unstack"));
        QCOMPARE(d->allocations.size(), std::size_t{20});
        QCOMPARE(d->allocationSizeSum(), std::int64_t{52288});
        const Value *v = nullptr;
        for (const Value &x : d->values)
            if (x.id == 25)
                v = &x;
        QVERIFY(v);
        QCOMPARE(positionsOf(*d, *v), (std::set<Place>{{"slice_reduce_fusion", "{0}"},
                                                       {"tuple.10", "{3}"},
                                                       {"get-tuple-element", "{}"}}));
        QCOMPARE(usesOf(*d, *v).size(), std::size_t{1});
        QCOMPARE(std::get<0>(*usesOf(*d, *v).begin()), std::string("tuple.10"));
        QCOMPARE(std::get<1>(*usesOf(*d, *v).begin()), std::int64_t{3});
        QCOMPARE(v->start, std::int64_t{1});
        QCOMPARE(v->end, std::int64_t{7});
        QCOMPARE(d->printedPeak.step, std::int64_t{6});
        QCOMPARE(d->module, std::string("module_0001.tpu_unstack.after_optimizations"));
    }

    // The same bytes gzip- and xz-compressed, as nsys-jax keeps them, read the same.
    void compressedCopies()
    {
        QTemporaryDir dir;
        const QString plain = QString::fromStdString(protoPath("tpu_random_normal"));
        const std::string bytes = readFile(plain).toStdString();
        for (const char *tool : {"gzip", "xz"}) {
            if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
                QSKIP("gzip or xz is not installed");
            const QString copy = dir.filePath(
                QStringLiteral("module_0002.tpu_random_normal.after_optimizations.hlo.pb"));
            QFile::remove(copy);
            QVERIFY(QFile::copy(plain, copy));
            QProcess p;
            p.start(QString::fromLatin1(tool), {QStringLiteral("-f"), copy});
            QVERIFY(p.waitForFinished(30000) && p.exitCode() == 0);
            const QString packed =
                copy + (QByteArray(tool) == "gzip" ? QStringLiteral(".gz") : QStringLiteral(".xz"));
            QVERIFY(QFileInfo::exists(packed));
            const auto d = load(packed.toStdString());
            const auto text = load(samplePath("tpu_random_normal"));
            QVERIFY(differences(*text, *d).isEmpty());
            // Cut short: an error naming the file, never a crash or a partial module.
            QByteArray cut = readFile(packed);
            cut.truncate(cut.size() / 2);
            QFile f(packed);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(cut);
            f.close();
            const LoadResult r = ModuleReader::loadPath(packed.toStdString());
            QVERIFY(!r.ok());
            QVERIFY2(r.error.find(packed.toStdString()) == 0, r.error.c_str());
            QVERIFY2(r.error.find("cut short") != std::string::npos, r.error.c_str());
        }
        // A bomb: 64 MiB of zeros expands past a 1 MiB limit and stops there.
        const std::string zeros(std::size_t{64} << 20, '\0');
        QProcess gz;
        gz.start(QStringLiteral("gzip"), {QStringLiteral("-c")});
        gz.write(zeros.data(), static_cast<qint64>(zeros.size()));
        gz.closeWriteChannel();
        QVERIFY(gz.waitForFinished(60000));
        const QByteArray bomb = gz.readAllStandardOutput();
        const Decompressed out =
            decompress::bytes(bomb.toStdString(), decompress::Format::Gzip, std::int64_t{1} << 20);
        QVERIFY(!out.ok());
        QVERIFY(out.bytes.empty());
        // A file may expand to 64 times its size, or 64 MiB when small, 2 GiB at most: a bomb
        // of a few hundred KiB stops at 64 MiB, not at 2 GiB.
        QCOMPARE(decompress::expandedLimit(340), std::int64_t{64} << 20);
        QCOMPARE(decompress::expandedLimit(std::int64_t{10} << 20), std::int64_t{640} << 20);
        QCOMPARE(decompress::expandedLimit(std::int64_t{100} << 20), decompress::kDefaultLimit);
        QTemporaryDir bombs;
        const QString bombFile = bombs.filePath(QStringLiteral("module_0001.bomb.hlo.pb.gz"));
        {
            const std::string more((std::size_t{64} << 20) + 1, '\0'); // one byte past
            QProcess gz2;
            gz2.start(QStringLiteral("gzip"), {QStringLiteral("-c")});
            gz2.write(more.data(), static_cast<qint64>(more.size()));
            gz2.closeWriteChannel();
            QVERIFY(gz2.waitForFinished(60000));
            QFile f(bombFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(gz2.readAllStandardOutput());
        }
        QVERIFY(QFileInfo(bombFile).size() < (std::int64_t{1} << 20));
        const Decompressed fromFile = decompress::file(bombFile.toStdString());
        QVERIFY(!fromFile.ok());
        QVERIFY2(fromFile.error.find("64 times its size") != std::string::npos,
                 fromFile.error.c_str());
        // A FIFO is refused, not waited on.
        const QString fifo = bombs.filePath(QStringLiteral("module_0002.f.hlo.pb.gz"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const Decompressed fromFifo = decompress::file(fifo.toStdString());
        QVERIFY2(fromFifo.error.find("not a regular file") != std::string::npos,
                 fromFifo.error.c_str());
    }

    // A hostile proto: each gets a sentence naming the file, never a crash.
    void hostileProtos()
    {
        const std::string good =
            readFile(QString::fromStdString(protoPath("tpu_unstack"))).toStdString();
        std::string error;
        // Not a proto at all, a proto of nothing, and cut at every length up to 400 bytes.
        for (const std::string &bytes :
             {std::string("BufferAssignment:\nallocation 0: size 4\n"), std::string(),
              std::string("\x0a\xff\xff\xff\xff\x0f", 6)}) {
            error.clear();
            QVERIFY(HloProtoDumps::dumpText(bytes, &error).empty());
            QVERIFY(!error.empty());
        }
        int refused = 0;
        for (std::size_t n = 0; n < std::min<std::size_t>(good.size(), 400); ++n) {
            error.clear();
            const std::string text = HloProtoDumps::dumpText(good.substr(0, n), &error);
            refused += !error.empty();
            QVERIFY(text.empty() == !error.empty());
        }
        QVERIFY(refused > 300);
        // Deeply nested tuple shapes: refused by the nesting limit, not by the stack.
        std::string nested = "\x18\x0d"; // element_type: TUPLE
        for (int k = 0; k < 5000; ++k) {
            std::string outer = "\x10\x0d\x22"; // element_type: TUPLE, tuple_shapes:
            std::string len;
            std::size_t n = nested.size();
            do {
                len += static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
                n >>= 7;
            } while (n);
            nested = outer + len + nested;
        }
        error.clear();
        QVERIFY(HloProtoDumps::dumpText(nested, &error).empty());
        QVERIFY(!error.empty());
        // The command line says which file, on stderr, with exit status 2.
        QTemporaryDir dir;
        const QString bad =
            dir.filePath(QStringLiteral("module_0003.bad.after_optimizations.hlo.pb"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(good.substr(0, good.size() / 2)));
        f.close();
        const testutil::CliRun r = testutil::runBufferscope({QStringLiteral("report"), bad});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(bad.toUtf8()), r.err.constData());
    }

    // A while loop, by hand (make_protos.py while_module): main p0 c0 t w r n, the condition
    // cp ci lim lt and the body bp bi bx one ni nx bt. Flattened as HloLiveRange does, the
    // condition then the body before the while: p0 0, c0 1, t 2, cp 3 … lt 6 (span 3-7), bp 7
    // … bt 13 (span 7-14), w 14, r 15, n 16; the schedule ends at 17. Each range below follows
    // from its rule, worked out by hand:
    // What a proto becomes grows with the proto, never with the product of two of its repeated
    // fields (each case failed before: 42 s and 6 GB of text, 103 s and 16.6 GB of uses).
    void protoBecomesLinearInItsSize()
    {
        // A tuple of 20,000 parts defines 20,000 values. XLA prints the instruction's whole text
        // (its 20,000-part shape) for each; written so, the text was 2,000 times the proto.
        const std::string wide = testutil::wideTupleProto(20000, "p", 0);
        std::string error;
        QElapsedTimer clock;
        clock.start();
        const std::string text = HloProtoDumps::dumpText(wide, &error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY2(text.size() < 40 * wide.size(),
                 QByteArray::number(qulonglong(text.size() / wide.size())).constData());
        const LoadResult loaded = HloProtoDumps::loadBytes(wide, "wide.hlo.pb");
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        QCOMPARE(loaded.dump->values.size(), std::size_t{20001});
        QCOMPARE(loaded.dump->allocations.size(), std::size_t{20001});
        // The parameter's parts are the printed peak, each found by its index.
        QCOMPARE(loaded.dump->printedPeak.entries.size(), std::size_t{20001});
        for (const PeakEntry &e : loaded.dump->printedPeak.entries)
            QCOMPARE(e.values.size(), std::size_t{1});
        QVERIFY(loaded.dump->warnings.empty());
        // Seconds for what took 42; the limit is far above any build's time, ASan's included.
        QVERIFY2(clock.elapsed() < 20000, QByteArray::number(clock.elapsed()).constData());

        // 300 custom-calls, each taking a 2,000-part tuple as each of its 300 operands: 180
        // million uses from 187 KB. Refused, with the reason, before they fill memory.
        clock.restart();
        error.clear();
        QVERIFY(HloProtoDumps::dumpText(testutil::wideTupleProto(2000, "p", 300), &error).empty());
        QVERIFY2(error.find("positions and uses") != std::string::npos, error.c_str());
        QVERIFY2(clock.elapsed() < 20000, QByteArray::number(clock.elapsed()).constData());

        // A 4,000-character name on a 20,000-part tuple: each value's lines print the name, 80
        // MB of names from 800 KB. Refused past the text its size allows (64 MiB here).
        error.clear();
        QVERIFY(HloProtoDumps::dumpText(testutil::wideTupleProto(20000, std::string(4000, 'n'), 0),
                                        &error)
                    .empty());
        QVERIFY2(error.find("bytes of text") != std::string::npos, error.c_str());
        // And said on the command line, naming the file, with exit status 2.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("uses.hlo.pb"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(testutil::wideTupleProto(2000, "p", 300)));
        f.close();
        const testutil::CliRun r = testutil::runBufferscope({QStringLiteral("report"), path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("positions and uses"), r.err.constData());
    }

    // An input_output_alias entry the buffer assignment does not honour (the parameter's part
    // is in an allocation of its own, not maybe-live-out): a lie of the file. XLA's rule
    // would end the part at its last use, step 1; kept to the end (2) instead, and said.
    // One honoured entry (the part's buffer in the output's allocation) still cuts it.
    void unhonouredAliasIsSaid()
    {
        const std::string lying = testutil::wideTupleProto(3, "p", 1, true);
        const LoadResult loaded = HloProtoDumps::loadBytes(lying, "lying.hlo.pb");
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        const Dump &d = *loaded.dump;
        const std::uint32_t part = d.findValue("p{1}");
        QVERIFY(part != kNone);
        QCOMPARE(d.values[part].end, std::int64_t(2));
        const bool said = std::any_of(d.notes.begin(), d.notes.end(), [](const std::string &n) {
            return n.find("3 input_output_alias entries the buffer assignment does not honour "
                          "(the first: parameter 0 {0}") != std::string::npos;
        });
        QVERIFY(said);

        namespace pb = bufferscope::xlapb;
        pb::HloProto honoured;
        QVERIFY(honoured.ParseFromString(lying));
        for (auto &a : *honoured.mutable_buffer_assignment()->mutable_buffer_allocations())
            if (a.parameter_shape_index_size() == 1 && a.parameter_shape_index(0) == 1)
                a.set_maybe_live_out(true);
        const LoadResult kept = HloProtoDumps::loadBytes(honoured.SerializeAsString(), "h.hlo.pb");
        QVERIFY2(kept.ok(), kept.error.c_str());
        QCOMPARE(kept.dump->values[kept.dump->findValue("p{1}")].end, std::int64_t(1));
        QVERIFY(
            std::any_of(kept.dump->notes.begin(), kept.dump->notes.end(), [](const std::string &n) {
                return n.find("2 input_output_alias") != std::string::npos;
            }));
    }

    // Allocation sizes that add up past 2^63 - 1 (D13, issue 74): refused, saying so, not a
    // wrapped total.
    void totalsPast63BitsAreRefused()
    {
        namespace pb = bufferscope::xlapb;
        pb::HloProto proto;
        QVERIFY(proto.ParseFromString(testutil::wideTupleProto(2, "p", 0)));
        for (auto &a : *proto.mutable_buffer_assignment()->mutable_buffer_allocations())
            a.set_size(std::int64_t{1} << 62);
        const LoadResult loaded = HloProtoDumps::loadBytes(proto.SerializeAsString(), "big.hlo.pb");
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error.find("add up past 2^63 - 1 bytes") != std::string::npos,
                 loaded.error.c_str());
    }

    void whileLoopByHand()
    {
        const auto d = load(BUFFERSCOPE_TEST_DATA
                            "/binary/handmade/module_0042.while_loop.after_optimizations.hlo.pb");
        std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> live;
        for (const Value &v : d->values)
            live[v.id] = {v.start, v.end};
        const std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> expected = {
            {0, {0, 17}},  // p0: an entry parameter no output aliases lives to the end
            {1, {1, 7}},   // c0: used by the while through t{0}; a while's use counts at the
                           // body's parameter (7)
            {2, {2, 7}},   // t{}: the while uses it: 7
            {3, {14, 15}}, // w{} (phi): r reads it at 15
            {4, {14, 14}}, // w{0} (phi): r reads {1} only, so no use
            {5, {14, 16}}, // w{1} (phi): held by r (15), used by n (16)
            {6, {7, 9}},   // bp{}: parameters start at their computation's start (7); bi, bx use it
            {7, {7, 11}},  // bp{0}: held by bi, used by ni (11)
            {8, {7, 12}},  // bp{1}: held by bx, used twice by nx (12)
            {9, {3, 4}},   // cp{}: the condition starts at 3; ci uses it at 4
            {10, {3, 6}},  // cp{0}: held by ci, used by lt (6)
            {11, {3, 3}},  // cp{1}: nothing reads it
            {12, {5, 6}},  // lim: used by lt
            {13, {6, 7}},  // lt: the condition's root lives to its computation's end (7)
            {14, {10, 11}}, // one: used by ni
            {15, {11, 14}}, // ni: held by bt{0}, the body's root: its computation's end (14)
            {16, {12, 14}}, // nx: held by bt{1}: 14
            {17, {13, 14}}, // bt: the body's root
            {18, {16, 17}}, // n: the entry's root lives to the end of the schedule
        };
        QCOMPARE(live, expected);
        QCOMPARE(d->maxStep(), std::int64_t{17});
        // nx names frame 2 of the module's stack-frame index: model.py:12 in step, called from
        // train.py:40 in main; its source is the innermost frame.
        const Instruction *nx = nullptr;
        for (const Instruction &ins : d->instructions)
            if (d->strings.view(ins.name) == "nx")
                nx = &ins;
        QVERIFY(nx);
        const auto stack = d->stackOf(*nx);
        QCOMPARE(stack.size(), std::size_t{2});
        QCOMPARE(d->strings.view(stack[0]->file), std::string_view("/work/model.py"));
        QCOMPARE(stack[0]->line, 12);
        QCOMPARE(d->strings.view(stack[1]->function), std::string_view("main"));
        QCOMPARE(nx->sourceLine, std::int64_t{12});
        // The phis are named as XLA names them.
        for (const Value &v : d->values)
            if (v.id >= 3 && v.id <= 11)
                QVERIFY2(v.phi, d->valueDisplayName(v).c_str());
    }

    // A module encoded byte by byte from XLA's own field numbers (binary/wire/make_wire.py),
    // not through core/proto/hlo_min.proto: a field our .proto numbered wrongly would read
    // wrongly here. p0 p1 add mul, scheduled at 0 1 2 3, the schedule ends at 4. By
    // HloLiveRange's rules: the entry's parameters start at its start (0) and, aliased with no
    // output, live to the end (4); add is used by mul (3); mul, the root, lives to the end.
    // Live at 3: all four, 4 x 1024 bytes, the peak. Held: argument 2048 + output 1024 + temp
    // 1024.
    void wireFormatByHand()
    {
        const auto d = load(BUFFERSCOPE_TEST_DATA
                            "/binary/wire/module_0007.jit_add.after_optimizations.hlo.pb");
        std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> live;
        for (const Value &v : d->values)
            live[v.id] = {v.start, v.end};
        const std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> expected = {
            {0, {0, 4}}, {1, {0, 4}}, {2, {2, 3}}, {3, {3, 4}}};
        QCOMPARE(live, expected);
        QCOMPARE(d->totalBytes(), std::int64_t{4096});
        QCOMPARE(d->allocations.size(), std::size_t{4});
        QCOMPARE(d->allocations[0].kind, AllocationKind::Parameter);
        QCOMPARE(d->allocations[2].kind, AllocationKind::Output);
        QCOMPARE(d->allocations[3].kind, AllocationKind::Temp);
        const MemoryAnalysis held = MemoryAnalysis::of(*d);
        QCOMPARE(held.device.held(), std::int64_t{4096});
        const auto timeline = MemoryTimeline::compute(*d);
        QVERIFY(timeline && timeline->primary());
        QCOMPARE(timeline->primary()->peak.bytes, std::int64_t{4096});
        QCOMPARE(timeline->primary()->peak.step, std::int64_t{3});
    }

    // Modules that break one rule each (make_protos.py --hostile): refused with what is wrong.
    void hostileModules()
    {
        const std::vector<std::pair<const char *, const char *>> expected = {
            {"allocation-holds-unknown",
             "holds value 9, which the buffer assignment does not list"},
            {"calls-itself", "calls itself"},
            {"cycle", "use one another in a circle"},
            {"name-with-newline", "has no valid name"},
            {"no-buffer-assignment", "no buffer assignment"},
            {"operand-nowhere", "operand id 99"},
            {"schedule-nowhere", "lists instruction id 5"},
            {"value-nowhere", "instruction id 77"},
        };
        for (const auto &[name, phrase] : expected) {
            const std::string path =
                std::string(BUFFERSCOPE_TEST_DATA "/binary/hostile/module_0099.") + name +
                ".after_optimizations.hlo.pb";
            const LoadResult r = ModuleReader::loadPath(path);
            QVERIFY2(!r.ok(), name);
            QVERIFY2(r.error.find(path + ": ") == 0, r.error.c_str());
            QVERIFY2(r.error.find(phrase) != std::string::npos, r.error.c_str());
            QVERIFY2(r.error.find('\n') == std::string::npos, r.error.c_str());
        }
    }

    // A folder holding only protos lists its modules; a text dump of the same module is
    // preferred to its proto; a proto before optimization (no buffer assignment) is no module.
    void foldersOfProtos()
    {
        QTemporaryDir dir;
        for (const char *s : {"tpu_unstack", "tpu_random_normal"})
            QVERIFY(
                QFile::copy(QString::fromStdString(protoPath(s)),
                            dir.filePath(QStringLiteral("module_0001.%1.after_optimizations.hlo.pb")
                                             .arg(QLatin1String(s)))));
        QFile before(
            dir.filePath(QStringLiteral("module_0001.tpu_unstack.before_optimizations.hlo.pb")));
        QVERIFY(before.open(QIODevice::WriteOnly));
        before.write("\x0a\x00", 2);
        before.close();
        const testutil::CliRun list = testutil::runBufferscope(
            {QStringLiteral("list"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(list.code, 0);
        const QJsonArray modules = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(modules.size(), 2);
        QVERIFY(!list.out.contains("before_optimizations"));
        // `diff` of a text dump and its proto: the same module, nothing changed.
        const testutil::CliRun diff = testutil::runBufferscope(
            {QStringLiteral("diff"), QString::fromStdString(samplePath("tpu_unstack")),
             QString::fromStdString(protoPath("tpu_unstack")), QStringLiteral("--json")});
        QVERIFY2(diff.code == 0, diff.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(diff.out).object();
        QVERIFY(d.contains(QStringLiteral("total_bytes_delta")));
        QCOMPARE(d.value(QStringLiteral("total_bytes_delta")).toInteger(-1), 0);
        QCOMPARE(d.value(QStringLiteral("peak_bytes_delta")).toInteger(-1), 0);
        QCOMPARE(
            d.value(QStringLiteral("held")).toObject().value(QStringLiteral("after")).toInteger(),
            3136); // tpu_unstack: argument 1024 + output 2080 + temp 32, by hand
        QCOMPARE(Catalog::kindOf(protoPath("tpu_unstack")), FileKind::Dump);
    }

    // XProf writes each module of a profile beside its capture as `<module>(<program
    // id>).hlo_proto.pb`, the same HloProto (issue 60: such a file was "binary data at line
    // 7"): read under that name, listed in a folder, named `<module>(<id>)`.
    void xprofSidecarsByTheirOwnName()
    {
        QTemporaryDir dir;
        const QString sidecar = dir.filePath(QStringLiteral("jit_unstack(42).hlo_proto.pb"));
        QVERIFY(QFile::copy(QString::fromStdString(protoPath("tpu_unstack")), sidecar));
        QVERIFY(QFile::copy(QString::fromStdString(protoPath("tpu_random_normal")),
                            dir.filePath(QStringLiteral("jit_normal(7).hlo_proto.pb"))));
        const ModuleFileKind *kind = ModuleNames::kindOf("jit_unstack(42).hlo_proto.pb");
        QVERIFY(kind && kind->format == ModuleFileFormat::HloProto);
        QCOMPARE(ModuleNames::moduleName(sidecar.toStdString()), std::string("jit_unstack(42)"));
        QCOMPARE(Catalog::kindOf(sidecar.toStdString()), FileKind::Dump);
        const auto d = load(sidecar.toStdString());
        QVERIFY(d);
        // tpu_unstack as XLA printed it: 20 allocations, "Total bytes used: 52288".
        QCOMPARE(d->allocations.size(), std::size_t{20});
        QCOMPARE(d->allocationSizeSum(), 52288);
        const testutil::CliRun list = testutil::runBufferscope(
            {QStringLiteral("list"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(list.code == 0, list.err.constData());
        const QJsonArray modules = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(modules.size(), 2);
        QVERIFY2(list.out.contains("jit_unstack(42).hlo_proto.pb"), list.out.constData());
        // Every kind of the table is in the dialogs' filter.
        for (const ModuleFileKind &k : ModuleNames::fileKinds())
            QVERIFY(ModuleNames::dialogPatterns().find(std::string(k.pattern)) !=
                    std::string::npos);
    }

    // A real sidecar nobody here wrote (../shared/real/training, from AMD-AGI/TraceLens): 38
    // allocations and 73 logical buffers, as its provenance states.
    void realSidecar()
    {
        const QString real = QDir::cleanPath(QStringLiteral(
            BUFFERSCOPE_SOURCE_DIR "/../shared/real/training/jit_loss_fn(17).hlo_proto.pb"));
        if (!QFileInfo::exists(real))
            QSKIP("../shared/real/training is not beside the repository (a clone does not have "
                  "it)");
        const auto d = load(real.toStdString());
        QVERIFY(d);
        QCOMPARE(d->allocations.size(), std::size_t{38});
        QCOMPARE(d->values.size(), std::size_t{73});
    }

    // A profiler capture (make_protos.py write_capture: the profiler's folder layout, a device
    // plane and "/host:metadata" with two modules) opens as a folder of its modules.
    void profilerCapture()
    {
        const QString root = QStringLiteral(BUFFERSCOPE_TEST_DATA "/binary/profile");
        const std::string capture =
            root.toStdString() + "/plugins/profile/2026_11_27_23_00_00/host0.xplane.pb";
        std::string error;
        const auto modules = XPlaneModules::list(capture, &error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(modules.size(), std::size_t{2});
        QCOMPARE(modules[0].name, std::string("jit_unstack(7)"));
        QCOMPARE(modules[0].programId, std::int64_t{7});
        QCOMPARE(modules[1].name, std::string("jit_random_normal(12)"));
        QCOMPARE(modules[1].programId, std::int64_t{12});
        // Each module is the text dump's module.
        const auto unstack = load(capture + "#jit_unstack(7)");
        QCOMPARE(unstack->module, std::string("jit_unstack(7)"));
        QVERIFY(differences(*load(samplePath("tpu_unstack")), *unstack).isEmpty());
        QVERIFY(differences(*load(samplePath("tpu_random_normal")),
                            *load(capture + "#jit_random_normal(12)"))
                    .isEmpty());
        // The capture itself names its modules and how to pick one.
        LoadResult r = ModuleReader::loadPath(capture);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("holds 2 modules (jit_unstack(7), jit_random_normal(12))") !=
                     std::string::npos,
                 r.error.c_str());
        r = ModuleReader::loadPath(capture + "#jit_nothing(1)");
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("no module named jit_nothing(1)") != std::string::npos,
                 r.error.c_str());
        // `list` on the profile folder (the capture two folders down) lists both, by what they
        // hold: tpu_random_normal 92164 B, tpu_unstack 3136 B.
        const testutil::CliRun list =
            testutil::runBufferscope({QStringLiteral("list"), root, QStringLiteral("--json")});
        QVERIFY2(list.code == 0, list.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject().value(QStringLiteral("module")).toString(),
                 QStringLiteral("jit_random_normal(12)"));
        QCOMPARE(rows[0].toObject().value(QStringLiteral("held_bytes")).toInteger(), 92164);
        QCOMPARE(rows[1].toObject().value(QStringLiteral("held_bytes")).toInteger(), 3136);
        // A log folder is a log folder (issue 75): its `plugins/` and `plugins/profile/` (with
        // or without the '/') list the same two modules; `plugins/` said "no buffer-assignment
        // dumps in this folder".
        for (const char *under :
             {"/plugins", "/plugins/", "/plugins/profile", "/plugins/profile/"}) {
            const testutil::CliRun inner = testutil::runBufferscope(
                {QStringLiteral("list"), root + QLatin1String(under), QStringLiteral("--json")});
            QVERIFY2(inner.code == 0, inner.err.constData());
            const QJsonArray same = QJsonDocument::fromJson(inner.out).array();
            QCOMPARE(same.size(), 2);
            QCOMPARE(same[0].toObject().value(QStringLiteral("held_bytes")).toInteger(), 92164);
            QCOMPARE(same[1].toObject().value(QStringLiteral("held_bytes")).toInteger(), 3136);
        }
        // The capture itself is a run to every command (issue 60: `list CAPTURE` said "is not
        // a folder", and told the user to run `list CAPTURE`): list, summary, fit, and diff of
        // two captures, run against run.
        const QString cap = QString::fromStdString(capture);
        const testutil::CliRun listCapture =
            testutil::runBufferscope({QStringLiteral("list"), cap, QStringLiteral("--json")});
        QVERIFY2(listCapture.code == 0, listCapture.err.constData());
        const QJsonArray capRows = QJsonDocument::fromJson(listCapture.out).array();
        QCOMPARE(capRows.size(), 2);
        QCOMPARE(capRows[0].toObject().value(QStringLiteral("held_bytes")).toInteger(), 92164);
        QCOMPARE(capRows[0].toObject().value(QStringLiteral("files")).toArray().first().toString(),
                 QStringLiteral("host0.xplane.pb#jit_random_normal(12)"));
        const testutil::CliRun summary =
            testutil::runBufferscope({QStringLiteral("summary"), cap, QStringLiteral("--json")});
        QVERIFY2(summary.code == 0, summary.err.constData());
        const testutil::CliRun fit =
            testutil::runBufferscope({QStringLiteral("fit"), cap, QStringLiteral("--limit"),
                                      QStringLiteral("90000"), QStringLiteral("--json")});
        // 92164 held by jit_random_normal(12), more than 90000: it does not fit.
        QCOMPARE(fit.code, 3);
        const testutil::CliRun runs =
            testutil::runBufferscope({QStringLiteral("diff"), cap, cap, QStringLiteral("--json")});
        QVERIFY2(runs.code == 0, runs.err.constData());
        const QJsonObject runDiff = QJsonDocument::fromJson(runs.out).object();
        QCOMPARE(runDiff.value(QStringLiteral("paired_compiles")).toInteger(), 2);
        QCOMPARE(runDiff.value(QStringLiteral("unchanged_compiles")).toInteger(), 2);
        const testutil::CliRun mixed = testutil::runBufferscope(
            {QStringLiteral("diff"), cap, QString::fromStdString(samplePath("tpu_unstack"))});
        QCOMPARE(mixed.code, 1);
        // Not a capture, and a capture cut short: a sentence, never a crash.
        QVERIFY(XPlaneModules::read("BufferAssignment:\n", &error).empty());
        QVERIFY(!error.empty());
        const QByteArray bytes = readFile(QString::fromStdString(capture));
        error.clear();
        QVERIFY(XPlaneModules::read(bytes.left(bytes.size() / 2).toStdString(), &error).empty());
        QVERIFY(!error.empty());
    }

    // A module of 3,000 values made both ways by tests/bench/make_chain_module.py, every live
    // range and XLA's peak step worked out in the script by HloLiveRange's rules: the proto
    // gives each of them, and the text of the same module the same facts.
    void generatedModuleBothWays()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("protoc")).isEmpty())
            QSKIP("python3 or protoc is not installed: the module cannot be made");
        QTemporaryDir dir;
        const QString pb = dir.filePath(QStringLiteral("chain.hlo.pb"));
        const QString txt = dir.filePath(QStringLiteral("chain-buffer-assignment.txt"));
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/tests/bench/make_chain_module.py"),
                 QStringLiteral("3000"), pb, txt, QStringLiteral("--seed"), QStringLiteral("7")});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QJsonObject truths =
            QJsonDocument::fromJson(readFile(pb + QStringLiteral(".truths.json"))).object();
        const auto proto = load(pb.toStdString());
        const QJsonObject live = truths.value(QStringLiteral("live")).toObject();
        QCOMPARE(qsizetype(proto->values.size()), live.size());
        int checked = 0;
        for (const Value &v : proto->values) {
            const QJsonArray range = live.value(QString::number(v.id)).toArray();
            QCOMPARE(v.start, range.at(0).toInteger());
            QCOMPARE(v.end, range.at(1).toInteger());
            ++checked;
        }
        QCOMPARE(checked, 3009);
        QCOMPARE(proto->allocationSizeSum(),
                 truths.value(QStringLiteral("total_bytes")).toInteger());
        QCOMPARE(proto->printedPeak.step, truths.value(QStringLiteral("peak_step")).toInteger());
        const QStringList diff = differences(*load(txt.toStdString()), *proto);
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }

    // The real dumps of ../shared/real made into protos the same way agree with their text.
    void realDumpsAsProtos()
    {
        const QString real =
            QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real"));
        if (!QFileInfo::exists(real))
            QSKIP("../shared/real is not here: the real dumps live beside the repository, which a "
                  "clone does not have");
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("protoc")).isEmpty())
            QSKIP("python3 or protoc is not installed: the protos cannot be made");
        QTemporaryDir dir;
        int compared = 0;
        for (const QFileInfo &f :
             QDir(real).entryInfoList({QStringLiteral("*buffer-assignment.txt")}, QDir::Files)) {
            const QString out = dir.filePath(f.completeBaseName() + QStringLiteral(".hlo.pb"));
            QProcess p;
            p.start(QStringLiteral("python3"),
                    {QStringLiteral(BUFFERSCOPE_TEST_DATA "/binary/protos/make_protos.py"),
                     f.filePath(), out});
            QVERIFY(p.waitForFinished(120000));
            if (p.exitCode() != 0) {
                qWarning("make_protos.py cannot read %s: %s", qPrintable(f.fileName()),
                         p.readAllStandardError().right(300).constData());
                continue;
            }
            const auto text = load(f.filePath().toStdString());
            const auto proto = load(out.toStdString());
            const QStringList diff = differences(*text, *proto);
            QVERIFY2(diff.isEmpty(),
                     qPrintable(f.fileName() + QLatin1Char('\n') + diff.join(QLatin1Char('\n'))));
            ++compared;
        }
        QVERIFY(compared >= 3);
    }
};

QTEST_GUILESS_MAIN(TestHloProto)
#include "tst_hloproto.moc"
