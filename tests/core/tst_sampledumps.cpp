// The five real dumps against the truths docs/FORMAT.md Part A and §11 state for them.
#include "DumpCompare.h"
#include "DumpText.h"
#include "SampleTruths.h"
#include "analysis/PeakBreakdown.h"
#include "model/MemorySpaces.h"
#include "open/ModuleReader.h"

#include <QTest>

#include <set>

using namespace bufferscope;

namespace {
struct Loaded
{
    std::shared_ptr<const Dump> dump;
    std::optional<MemoryTimeline> timeline;
};

Loaded load(const QString &name)
{
    Loaded l;
    const std::string path = testutil::samplePath(qPrintable(name));
    LoadResult r = LOAD_EVERY_WAY(ModuleReader::loadPath(path, options_));
    if (!r.ok())
        qFatal("cannot load %s: %s", qPrintable(name), r.error.c_str());
    l.dump = r.dump;
    l.timeline = MemoryTimeline::compute(*l.dump);
    return l;
}
} // namespace

class TestSampleDumps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void memorySpaceNames()
    {
        // Names as XLA defines them (docs/FORMAT.md Part B §14): 0 default device memory and 5
        // host on every platform, GPU 1 collective and 2 the temp buffers' own colour; the TPU
        // spaces XLA's open source does not name stay S(n).
        QCOMPARE(platformOf(testutil::samplePath("gpu_decoder_layer")), Platform::Gpu);
        QCOMPARE(platformOf(testutil::samplePath("tpu_random_normal")), Platform::Tpu);
        QCOMPARE(platformOf("/d/module_0001.jit_f.sm_9.0_gpu_after_optimizations-buffer-"
                            "assignment.txt"),
                 Platform::Gpu);
        QCOMPARE(platformOf("/d/module_0001.jit_f.cpu_after_optimizations.txt"), Platform::Cpu);
        QCOMPARE(platformOf("/d/module_0001.jit_f.cl_1.after_optimizations.txt"),
                 Platform::Unknown);
        QCOMPARE(memorySpaceLabel(Platform::Gpu, 1), std::string("S(1) collective"));
        QCOMPARE(memorySpaceLabel(Platform::Gpu, 2), std::string("S(2) temp buffers"));
        QCOMPARE(memorySpaceLabel(Platform::Tpu, 0), std::string("S(0) device"));
        QCOMPARE(memorySpaceLabel(Platform::Tpu, 5), std::string("S(5) host"));
        QCOMPARE(memorySpaceLabel(Platform::Tpu, 1), std::string("S(1)"));
        QCOMPARE(memorySpaceLabel(Platform::Unknown, 6), std::string("S(6)"));
    }

    void threadsReadEachDumpOnce()
    {
        // A real dump holds nothing only the serial parse decides, so the threaded parse reads
        // it once, in chunks; giving way to the serial parse (a second read) is for damage.
        for (const char *name : {"gpu_decoder_layer", "gpu_vllm_update_slice", "tpu_dynamic_slice",
                                 "tpu_random_normal", "tpu_unstack"}) {
            for (const int threads : {2, 3, 7}) {
                ParseOptions options;
                options.threads = threads;
                const LoadResult r = ModuleReader::loadPath(testutil::samplePath(name), options);
                QVERIFY2(
                    r.ok() && !r.readAgainSerially,
                    qPrintable(
                        QStringLiteral("%1 at %2 threads").arg(QLatin1String(name)).arg(threads)));
            }
        }
        ParseOptions options;
        options.threads = 3;
        // A live range for a value in no allocation: added, with a warning, by the serial parse.
        const LoadResult damaged =
            ModuleReader::loadPath(BUFFERSCOPE_TEST_DATA "/bad/unknown-range-value.txt", options);
        QVERIFY(damaged.ok() && damaged.readAgainSerially);
        options.threads = 1;
        QVERIFY(
            !ModuleReader::loadPath(BUFFERSCOPE_TEST_DATA "/bad/unknown-range-value.txt", options)
                 .readAgainSerially);
    }

    void truths_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("peakStep");
        QTest::addColumn<qint64>("peakBytes");
        QTest::addColumn<qint64>("logicalStep");
        QTest::addColumn<qint64>("logicalBytes");
        QTest::addColumn<qint64>("printedStep");
        QTest::addColumn<int>("printedEntries");
        QTest::addColumn<qint64>("printedBytes");
        QTest::addColumn<qint64>("xlaStep");
        // docs/FORMAT.md Part A, the table of truths (tests/SampleTruths.h).
        for (const testutil::SampleTruth &t : testutil::kSampleTruths)
            QTest::newRow(t.name) << QString::fromLatin1(t.name) << qint64(t.total)
                                  << qint64(t.peakStep) << qint64(t.peakBytes)
                                  << qint64(t.logicalStep) << qint64(t.logicalBytes)
                                  << qint64(t.printedStep) << t.printedEntries
                                  << qint64(t.printedBytes) << qint64(t.xlaStep);
    }
    void truths()
    {
        QFETCH(QString, name);
        QFETCH(qint64, total);
        QFETCH(qint64, peakStep);
        QFETCH(qint64, peakBytes);
        QFETCH(qint64, logicalStep);
        QFETCH(qint64, logicalBytes);
        QFETCH(qint64, printedStep);
        QFETCH(int, printedEntries);
        QFETCH(qint64, printedBytes);
        QFETCH(qint64, xlaStep);
        const Loaded l = load(name);
        const Dump &d = *l.dump;
        QVERIFY2(d.warnings.empty(),
                 d.warnings.empty() ? "" : d.diagnosticText(d.warnings.front()).c_str());
        QCOMPARE(d.totalBytes(), total);
        QCOMPARE(d.allocationSizeSum(), total); // T2
        const SpaceTimeline *s0 = l.timeline->space(0);
        QVERIFY(s0);
        QCOMPARE(s0->peak.step, peakStep);
        QCOMPARE(s0->peak.bytes, peakBytes);
        QCOMPARE(s0->logicalPeak.step, logicalStep);
        QCOMPARE(s0->logicalPeak.bytes, logicalBytes);
        QVERIFY(d.printedPeak.present);
        QCOMPARE(d.printedPeak.step, printedStep);
        QCOMPARE(static_cast<int>(d.printedPeak.entries.size()), printedEntries);
        QCOMPARE(d.printedPeak.bytes, printedBytes);
        QCOMPARE(l.timeline->xlaPeak().step, xlaStep);
        QVERIFY(l.timeline->xlaPeak().exact);
        QVERIFY(l.timeline->warnings().empty());
        // T18: the printed list is exactly the values with start <= t <= end.
        std::set<std::uint32_t> printed;
        for (const PeakEntry &e : d.printedPeak.entries) {
            QVERIFY2(!e.values.empty(), "every printed peak entry maps to a live value");
            printed.insert(e.values.begin(), e.values.end());
        }
        std::set<std::uint32_t> live;
        for (std::uint32_t i = 0; i < d.values.size(); ++i) {
            if (d.values[i].liveAt(printedStep))
                live.insert(i);
        }
        QCOMPARE(printed, live);
    }

    void figuresWithoutUsedValues_data() { truths_data(); }
    void figuresWithoutUsedValues()
    {
        // A folder's figures (`list`, the Modules dock) pass over the Used values section: the
        // same truths as above, from the allocations and the live ranges alone, at every
        // thread count.
        QFETCH(QString, name);
        QFETCH(qint64, total);
        QFETCH(qint64, peakStep);
        QFETCH(qint64, peakBytes);
        QFETCH(qint64, printedStep);
        QFETCH(int, printedEntries);
        QFETCH(qint64, printedBytes);
        for (const int threads : {1, 2, 7}) {
            ParseOptions options;
            options.threads = threads;
            options.usedValues = false;
            options.companions = false;
            const LoadResult r =
                ModuleReader::loadPath(testutil::samplePath(qPrintable(name)), options);
            QVERIFY2(r.ok(), r.error.c_str());
            const Dump &d = *r.dump;
            QVERIFY(d.positions.empty());
            QVERIFY(d.uses.empty());
            QVERIFY(std::none_of(d.instructions.begin(), d.instructions.end(),
                                 [](const Instruction &i) { return i.hasText; }));
            QCOMPARE(d.totalBytes(), total);
            const std::optional<MemoryTimeline> timeline = MemoryTimeline::compute(d);
            QVERIFY(timeline);
            QCOMPARE(timeline->space(0)->peak.step, peakStep);
            QCOMPARE(timeline->space(0)->peak.bytes, peakBytes);
            QCOMPARE(d.printedPeak.step, printedStep);
            QCOMPARE(static_cast<int>(d.printedPeak.entries.size()), printedEntries);
            QCOMPARE(d.printedPeak.bytes, printedBytes);
        }
        // A dump cut inside the section, with no last newline: read to its end, no more.
        const std::string text = testutil::readFile(testutil::samplePath(qPrintable(name)));
        const std::string cut = text.substr(0, text.find(" uses:", text.find("Used values:")));
        ParseOptions options;
        options.usedValues = false;
        const LoadResult r = DumpParser::loadBuffer(cut, "cut-buffer-assignment.txt", options);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.dump->totalBytes(), total);
        QVERIFY(!r.dump->hasLiveRanges());
    }

    void otherMemorySpaces_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("space");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("random_normal_1") << "tpu_random_normal" << 1 << qint64(12) << qint64(1536);
        QTest::newRow("random_normal_2") << "tpu_random_normal" << 2 << qint64(2) << qint64(4);
        QTest::newRow("random_normal_6") << "tpu_random_normal" << 6 << qint64(10) << qint64(512);
        QTest::newRow("dynamic_slice_1") << "tpu_dynamic_slice" << 1 << qint64(1) << qint64(8192);
        QTest::newRow("dynamic_slice_2") << "tpu_dynamic_slice" << 2 << qint64(1) << qint64(4);
        QTest::newRow("dynamic_slice_6") << "tpu_dynamic_slice" << 6 << qint64(5) << qint64(1024);
    }
    void otherMemorySpaces()
    {
        QFETCH(QString, name);
        QFETCH(int, space);
        QFETCH(qint64, step);
        QFETCH(qint64, bytes);
        const Loaded l = load(name);
        const SpaceTimeline *s = l.timeline->space(space);
        QVERIFY(s);
        QCOMPARE(s->peak.step, step);
        QCOMPARE(s->peak.bytes, bytes);
    }

    void structure_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("allocations");
        QTest::addColumn<int>("values");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("withoutLiveRange");
        // docs/FORMAT.md §11: T1 (n), T6 (values), T12 (sequence), T14 (values without range).
        QTest::newRow("gpu_vllm_update_slice") << "gpu_vllm_update_slice" << 9 << 68 << 76 << 0;
        QTest::newRow("gpu_decoder_layer") << "gpu_decoder_layer" << 26 << 49 << 66 << 3;
        QTest::newRow("tpu_unstack") << "tpu_unstack" << 20 << 19 << 7 << 12;
        QTest::newRow("tpu_random_normal") << "tpu_random_normal" << 7 << 15 << 16 << 0;
        QTest::newRow("tpu_dynamic_slice") << "tpu_dynamic_slice" << 8 << 9 << 8 << 0;
    }
    void structure()
    {
        QFETCH(QString, name);
        QFETCH(int, allocations);
        QFETCH(int, values);
        QFETCH(int, steps);
        QFETCH(int, withoutLiveRange);
        const Loaded l = load(name);
        const Dump &d = *l.dump;
        QCOMPARE(static_cast<int>(d.allocations.size()), allocations);
        for (std::size_t i = 0; i < d.allocations.size(); ++i)
            QCOMPARE(d.allocations[i].index, static_cast<std::int64_t>(i)); // T1
        QCOMPARE(static_cast<int>(d.values.size()), values);
        QCOMPARE(static_cast<int>(d.maxStep()), steps);
        QCOMPARE(d.printedMax, static_cast<std::int64_t>(steps));
        int without = 0;
        for (const Value &v : d.values) {
            QVERIFY(v.allocation != kNone);
            const Allocation &a = d.allocations[v.allocation];
            QVERIFY(v.offset + v.size <= a.size); // T3
            QCOMPARE(v.color, a.color);           // T5
            QVERIFY(v.positionCount >= 1);        // the defining position is always there
            QCOMPARE(v.usesState, UsesState::Known);
            QVERIFY(d.instructionOf(v)->hasText);
            if (!v.hasLiveRange()) {
                ++without;
                QVERIFY(a.isThreadLocal); // T14
            } else {
                QVERIFY(v.start <= v.end && v.end <= d.maxStep()); // T13
            }
        }
        QCOMPARE(without, withoutLiveRange);
        // Values ascend by id (T6) and keys are unique.
        for (std::size_t i = 1; i < d.values.size(); ++i)
            QVERIFY(d.values[i - 1].id < d.values[i].id);
        // T11: preallocated-temp exactly when no other kind flag.
        for (const Allocation &a : d.allocations)
            QCOMPARE(a.isPreallocatedTemp,
                     !(a.isParameter || a.isMaybeLiveOut || a.isThreadLocal || a.isConstant));
    }

    void valueDetails()
    {
        const Loaded l = load(QStringLiteral("tpu_dynamic_slice"));
        const Dump &d = *l.dump;
        const std::uint32_t vi = d.findValue("copy-start{0}");
        QVERIFY(vi != kNone);
        const Value &v = d.values[vi];
        QCOMPARE(v.id, std::int64_t(2));
        QCOMPARE(v.color, 1);
        QCOMPARE(v.size, std::int64_t(8192));
        QCOMPARE(d.logicalBytes(v), std::int64_t(2048));
        QCOMPARE(std::string(d.shapeText(v)), std::string("f32[16,32]{1,0:T(8,128)S(1)}"));
        QCOMPARE(v.start, std::int64_t(1));
        QCOMPARE(v.end, std::int64_t(7));
        QCOMPARE(v.positionCount, 2u);
        QCOMPARE(
            std::string(d.str(d.instructions[d.positions[v.firstPosition + 1].instruction].name)),
            std::string("copy-done"));
        QCOMPARE(v.useCount, 2u);
        const Use &u = d.uses[v.firstUse + 1];
        QCOMPARE(std::string(d.str(d.instructions[u.instruction].name)),
                 std::string("dynamic-slice.4"));
        QCOMPARE(u.operand, std::int64_t(0));
        const Instruction &ins = *d.instructionOf(v);
        QCOMPARE(std::string(d.str(ins.opcode)), std::string("copy-start"));
        QCOMPARE(d.shapes[ins.shape].tupleArity, 3);
        const std::string text = d.instructionText(v.instruction);
        QVERIFY(text.starts_with("%copy-start = (f32[16,32]{1,0:T(8,128)S(1)}"));
        QVERIFY(text.ends_with("cross_program_prefetch_index=0"));

        const Value &slice = d.values[d.findValue("dynamic-slice.4")];
        const Instruction &si = *d.instructionOf(slice);
        QCOMPARE(std::string(d.str(si.opName)),
                 std::string("jit(dynamic_slice)/jit(main)/dynamic_slice"));
        QCOMPARE(d.sourceLocation(si), std::string("/home/ptoulme/tpu.py:96"));
        QCOMPARE(d.allocations[slice.allocation].kind, AllocationKind::Output);
        QCOMPARE(d.str(d.allocations[slice.allocation].outputShape), std::string_view("f32[1,5]"));

        // Parameter attributes.
        const Allocation &p = d.allocations[0];
        QVERIFY(p.isParameter);
        QCOMPARE(p.parameterNumber, std::int64_t(2));
        QCOMPARE(d.str(p.parameterShape), std::string_view("s32[]"));
        QCOMPARE(d.str(p.parameterIndex), std::string_view("{}"));
        QCOMPARE(d.printedPeak.format, PeakFormat::V3);
        QCOMPARE(d.printedPeak.entries.back().cumulative, std::int64_t(4132)); // T19
    }

    void gpuMetadata()
    {
        const Loaded l = load(QStringLiteral("gpu_decoder_layer"));
        const Dump &d = *l.dump;
        QCOMPARE(d.printedPeak.format, PeakFormat::V1);
        const std::uint32_t vi = d.findValue("loop_gather_fusion");
        QVERIFY(vi != kNone);
        const Instruction &ins = *d.instructionOf(d.values[vi]);
        QCOMPARE(d.str(ins.opType), std::string_view("aten__index_select"));
        QCOMPARE(d.str(ins.opName), std::string_view("aten__index_select"));
        QCOMPARE(d.str(ins.sourceFile),
                 std::string_view("/usr/local/lib/python3.10/site-packages/torch/_ops.py"));
        QCOMPARE(ins.sourceLine, std::int64_t(756));
        QCOMPARE(d.str(ins.opcode), std::string_view("fusion"));
        // T14: thread-local values x.51, y.52, add.39 have no live range.
        for (const char *name : {"x.51", "y.52", "add.39"}) {
            const std::uint32_t t = d.findValue(name);
            QVERIFY(t != kNone);
            QVERIFY(!d.values[t].hasLiveRange());
            QCOMPARE(d.allocations[d.values[t].allocation].kind, AllocationKind::ThreadLocal);
        }
    }

    void inPlaceChainsCountOnce()
    {
        // gpu_vllm_update_slice allocation 0 holds an in-place chain whose links touch at one
        // step; union live bytes never exceed the allocation's 512 bytes.
        const Loaded l = load(QStringLiteral("gpu_vllm_update_slice"));
        const AllocationUsage &u = l.timeline->allocations()[0];
        QCOMPARE(u.largestLiveBytes, std::int64_t(512));
        QCOMPARE(u.fragmentation, std::int64_t(0));
    }

    void breakdownAddsUp_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n : {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                              "tpu_random_normal", "tpu_dynamic_slice"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void breakdownAddsUp()
    {
        QFETCH(QString, name);
        const Loaded l = load(name);
        const Dump &d = *l.dump;
        const std::int64_t step = l.timeline->space(0)->peak.step;
        std::int64_t expected = 0;
        std::int64_t count = 0;
        for (const Value &v : d.values) {
            if (v.color == 0 && v.liveAt(step)) {
                expected += v.size;
                ++count;
            }
        }
        const Breakdown b = Breakdown::compute(d, step, 0);
        QCOMPARE(b.bytes, expected);
        for (const auto *rows : {&b.byOpName, &b.bySource, &b.byOpType, &b.byKind}) {
            std::int64_t sum = 0;
            std::int64_t n = 0;
            for (const BreakdownRow &r : *rows) {
                sum += r.bytes;
                n += r.values;
            }
            QCOMPARE(sum, expected);
            QCOMPARE(n, count);
        }
    }
};

QTEST_GUILESS_MAIN(TestSampleDumps)
#include "tst_sampledumps.moc"
