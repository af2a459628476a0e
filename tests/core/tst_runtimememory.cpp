// What the allocator really did (issue 73): a capture's MemoryAllocation / MemoryDeallocation
// events read per allocator, against the figures of XProf's Memory Profile algorithm worked out
// for the real capture ../shared/real/captures/tw003.xplane.pb (tw003.memory-profile.md beside
// it) and against captures tests/bench/make_memory_capture.py writes byte by byte, whose figures
// are worked out by hand in its docstrings and below.
#include "CliRun.h"
#include "analysis/RuntimeMemory.h"
#include "parse/XPlaneMemory.h"
#include "report/RuntimeMemoryReport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace bufferscope;

namespace {

const RuntimeAllocator *allocator(const RuntimeMemory &m, const std::string &name)
{
    for (const RuntimeAllocator &a : m.allocators)
        if (a.name == name)
            return &a;
    return nullptr;
}

} // namespace

class TestRuntimeMemory : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    /// A capture of make_memory_capture.py's case `name`.
    RuntimeMemory capture(const char *name, std::string *error = nullptr)
    {
        const QString out =
            m_dir.filePath(QString::fromLatin1(name) + QStringLiteral(".xplane.pb"));
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/tests/bench/make_memory_capture.py"), out,
                 QStringLiteral("--case"), QString::fromLatin1(name)});
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            qFatal("make_memory_capture.py failed: %s", p.readAllStandardError().constData());
        std::string why;
        RuntimeMemory m = RuntimeMemory::of(XPlaneMemory::readFile(out.toStdString(), &why));
        if (error)
            *error = why;
        else if (!why.empty())
            qFatal("%s", why.c_str());
        return m;
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("python3 is not installed: the captures cannot be written");
    }

    // The real capture: every figure of tw003.memory-profile.md (an independent reading of
    // XProf's algorithm, times on the capture's clock).
    void realCapture()
    {
        const std::string path = BUFFERSCOPE_SOURCE_DIR "/../shared/real/captures/tw003.xplane.pb";
        if (!QFile::exists(QString::fromStdString(path)))
            QSKIP("../shared/real is not here: the real captures live beside the repository, "
                  "which a user's clone does not have");
        std::string error;
        XPlaneMemory events = XPlaneMemory::readFile(path, &error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(events.events, std::size_t(170));
        const RuntimeMemory m = RuntimeMemory::of(std::move(events));
        QCOMPARE(m.allocators.size(), std::size_t(2));
        const RuntimeAllocator *gpu = allocator(m, "GPU_0_bfc");
        QVERIFY(gpu);
        QCOMPARE(gpu->allocations, std::size_t(75));
        QCOMPARE(gpu->deallocations, std::size_t(75));
        QCOMPARE(gpu->peakBytes, std::int64_t(671286528));
        QCOMPARE(gpu->peakTimePs, std::int64_t(7212859000));
        QCOMPARE(gpu->peakOffsetPs, std::int64_t(7169899000)); // XProf's: within its line
        QCOMPARE(gpu->heapBytes, std::int64_t(671286528));
        QCOMPARE(gpu->stackBytes, std::int64_t(0));
        QCOMPARE(gpu->freeBytes, std::int64_t(153934953216));
        QCOMPARE(qRound64(gpu->fragmentation * 1e8), qint64(469473)); // 0.00469473
        QCOMPARE(gpu->capacityBytes, std::int64_t(154606239744));
        QCOMPARE(gpu->lifetimePeakBytes, std::int64_t(671286528));
        QCOMPARE(gpu->peakStep, std::int64_t(0));
        QCOMPARE(gpu->peakLine, std::string("python"));
        // XProf's table at the peak: 5 rows from 8 live allocations.
        QCOMPARE(gpu->liveAtPeak, std::size_t(8));
        QCOMPARE(gpu->atPeak.size(), std::size_t(5));
        const std::int64_t bytes[] = {268436224, 134217728, 65536, 256, 256};
        const std::int64_t requested[] = {268436224, 134217728, 65536, 4, 2};
        const std::int64_t count[] = {1, 3, 3, 1, 1};
        for (std::size_t k = 0; k < 5; ++k) {
            QCOMPARE(gpu->atPeak[k].bytes, bytes[k]);
            QCOMPARE(gpu->atPeak[k].requested, requested[k]);
            QCOMPARE(gpu->atPeak[k].count, count[k]);
            QCOMPARE(gpu->atPeak[k].dataType, std::string("INVALID"));
        }
        QCOMPARE(gpu->atPeak[0].op, std::string("unused preallocated device memory"));
        QCOMPARE(gpu->atPeak[0].region, std::string("persist/dynamic"));
        QVERIFY(gpu->atPeak[0].special);
        // The heap at the peak is what is live plus the unused preallocation.
        std::int64_t sum = 0;
        for (const RuntimeAllocator::Row &r : gpu->atPeak)
            sum += r.bytes * r.count;
        QCOMPARE(sum, gpu->heapBytes);
        // Who made them: the peak is in a run of jit_true_divide — read in the capture by hand:
        // on the python line, PjitFunction(true_divide) runs from offset 7,150,199,000 to
        // 7,291,009,000 ps (and one nested in it), around the peak's 7,169,899,000. The parts
        // add up to the peak.
        QCOMPARE(gpu->peakModule, std::string("jit_true_divide"));
        std::int64_t parts = 0;
        for (const RuntimeAllocator::Part &p : gpu->peakParts)
            parts += p.bytes;
        QCOMPARE(parts, gpu->peakBytes);

        const RuntimeAllocator *host = allocator(m, "xla_gpu_host_bfc");
        QVERIFY(host);
        QCOMPARE(host->allocations, std::size_t(10));
        QCOMPARE(host->deallocations, std::size_t(10));
        QCOMPARE(host->peakBytes, std::int64_t(256));
        QCOMPARE(host->peakTimePs, std::int64_t(10806534000));
        QCOMPARE(host->peakOffsetPs, std::int64_t(10763574000));
        QCOMPARE(host->freeBytes, std::int64_t(68719476480));
        QCOMPARE(host->capacityBytes, std::int64_t(68719476736));
        QCOMPARE(host->atPeak.size(), std::size_t(1));
        QCOMPARE(host->atPeak[0].bytes, std::int64_t(256));
        QCOMPARE(host->atPeak[0].requested, std::int64_t(4));
    }

    // `summary CAPTURE` and `oom LOG CAPTURE` say what the runtime held beside the plans.
    void summarySaysTheRuntimePeak()
    {
        const QString path =
            QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real/captures/tw003.xplane.pb");
        if (!QFile::exists(path))
            QSKIP("../shared/real is not here: the real captures live beside the repository, "
                  "which a user's clone does not have");
        const testutil::CliRun json =
            testutil::runBufferscope({QStringLiteral("summary"), QStringLiteral("--json"), path});
        QCOMPARE(json.code, 0);
        const QJsonArray runtime =
            QJsonDocument::fromJson(json.out).object().value(QStringLiteral("runtime")).toArray();
        QCOMPARE(runtime.size(), 2);
        QCOMPARE(runtime.at(0)[QStringLiteral("name")].toString(), QStringLiteral("GPU_0_bfc"));
        QCOMPARE(runtime.at(0)[QStringLiteral("peak_bytes")].toInteger(), 671286528);
        QCOMPARE(runtime.at(0)[QStringLiteral("peak_time_ps")].toInteger(), 7212859000);
        const testutil::CliRun text = testutil::runBufferscope({QStringLiteral("summary"), path});
        QVERIFY2(text.out.contains("GPU_0_bfc: peak 640.19MiB at 7.212859 ms of 143.99GiB"),
                 text.out.constData());
        // And `oom LOG CAPTURE`, with an out-of-memory log of ../shared/real/oom.
        const QString log = QStringLiteral(BUFFERSCOPE_SOURCE_DIR
                                           "/../shared/real/oom/gpu-jax-v100-2024-05-28.log");
        const testutil::CliRun oom =
            testutil::runBufferscope({QStringLiteral("oom"), log, path, QStringLiteral("--json")});
        QCOMPARE(oom.code, 0);
        const QJsonArray held =
            QJsonDocument::fromJson(oom.out).object().value(QStringLiteral("runtime")).toArray();
        QCOMPARE(held.size(), 2);
        QCOMPARE(held.at(0)[QStringLiteral("peak_bytes")].toInteger(), 671286528);
        QCOMPARE(held.at(1)[QStringLiteral("name")].toString(), QStringLiteral("xla_gpu_host_bfc"));
    }

    // Two threads whose lines start at 1,000 and 5,000 ns (make_memory_capture.py case
    // "threads"): by the capture's clock A (100 B) is freed at 4,000,000 ps before B (400 B) is
    // made at 5,000,000 ps, so the peak is B alone; by each line's own offset (XProf) B would
    // come first and A seem live beside it.
    // A lying capture (case "hostile", its figures in the generator's docstring): the event
    // with no stats is an allocator of no name, said; the sizes below zero and past 2^60 are
    // left out, the first named; the deallocation of an array made before the capture frees
    // what was made before the step, so the peak's rows are its allocations and add up to it.
    void hostileEvents()
    {
        std::string error;
        const RuntimeMemory m = capture("hostile", &error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(m.events, std::size_t(4));
        const RuntimeAllocator *gpu = allocator(m, "GPU_0_bfc");
        QVERIFY(gpu);
        QCOMPARE(gpu->allocations, std::size_t(2));
        QCOMPARE(gpu->deallocations, std::size_t(1));
        QCOMPARE(gpu->peakBytes, std::int64_t(300));
        QCOMPARE(gpu->peakTimePs, std::int64_t(6000));
        QCOMPARE(gpu->lifetimePeakBytes, std::int64_t(300));
        QCOMPARE(gpu->atPeak.size(), std::size_t(2));
        QCOMPARE(gpu->atPeak[0].bytes, std::int64_t(200));
        QCOMPARE(gpu->atPeak[1].bytes, std::int64_t(100));
        std::int64_t parts = 0;
        for (const RuntimeAllocator::Part &p : gpu->peakParts)
            parts += p.bytes;
        QCOMPARE(parts, std::int64_t(300));
        const RuntimeAllocator *unnamed = allocator(m, "(unnamed)");
        QVERIFY(unnamed);
        QCOMPARE(unnamed->allocations, std::size_t(1));
        const auto said = [&m](const std::string &words) {
            return std::any_of(m.warnings.begin(), m.warnings.end(), [&](const std::string &w) {
                return w.find(words) != std::string::npos;
            });
        };
        QVERIFY(said("without an allocator_name or device number"));
        QVERIFY(said("2 memory event(s) left out: the MemoryAllocation at offset 4000 ps of "
                     "line 0 (\"main\") reports allocation_bytes = -7"));
    }

    void linesOnOneClock()
    {
        const RuntimeMemory m = capture("threads");
        const RuntimeAllocator *gpu = allocator(m, "GPU_0_bfc");
        QVERIFY(gpu);
        QCOMPARE(gpu->allocations, std::size_t(2));
        QCOMPARE(gpu->deallocations, std::size_t(1));
        QCOMPARE(gpu->peakBytes, std::int64_t(400));
        QCOMPARE(gpu->peakTimePs, std::int64_t(5000000));
        QCOMPARE(gpu->peakOffsetPs, std::int64_t(0));
        QCOMPARE(gpu->peakLine, std::string("b"));
        QCOMPARE(gpu->capacityBytes, std::int64_t(1000000));
        QCOMPARE(gpu->liveAtPeak, std::size_t(1));
        QCOMPARE(gpu->atPeak.size(), std::size_t(1));
        QCOMPARE(gpu->atPeak[0].bytes, std::int64_t(400));
        QCOMPARE(gpu->atPeak[0].op, std::string("jit(f)/add"));
        QCOMPARE(gpu->atPeak[0].dataType, std::string("float"));
        QCOMPARE(gpu->atPeak[0].shape, std::string("[10,10]"));
        // The curve in time order: 100 at 1,000,000, 0 at 4,000,000, 400 at 5,000,000.
        QCOMPARE(gpu->curve.size(), std::size_t(3));
        QCOMPARE(gpu->curve[1].timePs, std::int64_t(4000000));
        QCOMPARE(gpu->curve[1].bytes, std::int64_t(0));
    }

    // A tie: 300 bytes at 2,000 ps (A + B) and at 4,000 ps (A + C); the last is the peak.
    void tieTakesTheLast()
    {
        const RuntimeMemory m = capture("tie");
        const RuntimeAllocator *gpu = allocator(m, "GPU_0_bfc");
        QVERIFY(gpu);
        QCOMPARE(gpu->peakBytes, std::int64_t(300));
        QCOMPARE(gpu->peakTimePs, std::int64_t(4000));
        QCOMPARE(gpu->liveAtPeak, std::size_t(2));
        QCOMPARE(gpu->atPeak[0].bytes, std::int64_t(200)); // C
        QCOMPARE(gpu->atPeak[1].bytes, std::int64_t(100)); // A
    }

    // A TPU allocator keyed by device number with 1,000 bytes of stack, steps by group_id:
    // the peak, 7,000 heap + 1,000 stack at 40 ps, is in step 8, where 3,000 and 4,000 are
    // live; the stack is a row of its own, and step 7's 5,000 (freed) is not.
    void tpuStackAndSteps()
    {
        const RuntimeMemory m = capture("tpu");
        QCOMPARE(m.allocators.size(), std::size_t(1));
        const RuntimeAllocator &tpu = m.allocators.front();
        QCOMPARE(tpu.name, std::string("0"));
        QCOMPARE(tpu.peakBytes, std::int64_t(8000));
        QCOMPARE(tpu.heapBytes, std::int64_t(7000));
        QCOMPARE(tpu.stackBytes, std::int64_t(1000));
        QCOMPARE(tpu.peakTimePs, std::int64_t(40));
        QCOMPARE(tpu.peakStep, std::int64_t(8));
        QCOMPARE(tpu.capacityBytes, std::int64_t(100000));
        QCOMPARE(tpu.atPeak.size(), std::size_t(3));
        QCOMPARE(tpu.atPeak[0].bytes, std::int64_t(4000));
        QCOMPARE(tpu.atPeak[1].bytes, std::int64_t(3000));
        QCOMPARE(tpu.atPeak[2].op, std::string("stack"));
        QCOMPARE(tpu.atPeak[2].bytes, std::int64_t(1000));
    }

    // Allocations made inside module runs (case "runs"): the peak, 420 B at 7,000 ps, is in
    // the run of jit_g; its 300 B are that run's, 100 B were made by the run of f (jit_f) and
    // are kept, 20 B were made outside any run; they add up to the peak.
    void allocationsByTheRunThatMadeThem()
    {
        const RuntimeMemory m = capture("runs");
        const RuntimeAllocator &a = m.allocators.front();
        QCOMPARE(a.peakBytes, std::int64_t(420));
        QCOMPARE(a.peakTimePs, std::int64_t(7000));
        QCOMPARE(a.peakModule, std::string("jit_g"));
        QCOMPARE(a.peakParts.size(), std::size_t(3));
        QCOMPARE(a.peakParts[0].module, std::string("jit_g"));
        QCOMPARE(a.peakParts[0].bytes, std::int64_t(300));
        QVERIFY(a.peakParts[0].what.find("at the peak (its plan's buffers)") != std::string::npos);
        QCOMPARE(a.peakParts[1].module, std::string("jit_f"));
        QCOMPARE(a.peakParts[1].bytes, std::int64_t(100));
        QVERIFY(a.peakParts[1].what.find("kept from an earlier run") != std::string::npos);
        QCOMPARE(a.peakParts[2].module, std::string());
        QCOMPARE(a.peakParts[2].bytes, std::int64_t(20));
        std::int64_t sum = 0;
        for (const RuntimeAllocator::Part &p : a.peakParts)
            sum += p.bytes;
        QCOMPARE(sum, a.peakBytes);
        // The rows say who made them.
        QCOMPARE(a.atPeak[0].bytes, std::int64_t(300));
        QCOMPARE(a.atPeak[0].madeByCount("jit_g"), std::int64_t(1));
        QCOMPARE(a.atPeak[0].madeBy.front().made, MemoryEvent::Made::InRun);
        QCOMPARE(a.atPeak[2].madeByCount(""), std::int64_t(1));
        QCOMPARE(a.atPeak[2].madeBy.front().made, MemoryEvent::Made::Unknown);
    }

    // Work handed to other threads (case "linked"): A on the pool's line is inside the work
    // that consumes the link jit_f's run produced; B is inside a thread pool region (an
    // instant that starts it, one that stops it) whose link the pool's work produced, two
    // links from the run. The peak, 750 B at 11,000 ps: 700 B made by jit_f, 50 B (D, in no
    // run and no link) not attributed.
    void linkedToTheRun()
    {
        const RuntimeMemory m = capture("linked");
        const RuntimeAllocator &a = m.allocators.front();
        QCOMPARE(a.peakBytes, std::int64_t(750));
        QCOMPARE(a.peakTimePs, std::int64_t(11000));
        QCOMPARE(a.peakModule, std::string("jit_f"));
        QCOMPARE(a.peakParts.size(), std::size_t(2));
        QCOMPARE(a.peakParts[0].kind, RuntimeAllocator::Part::Kind::Running);
        QCOMPARE(a.peakParts[0].module, std::string("jit_f"));
        QCOMPARE(a.peakParts[0].bytes, std::int64_t(700));
        QCOMPARE(a.peakParts[0].planned, std::int64_t(-1)); // no plan in this capture
        QCOMPARE(a.peakParts[0].compiles, 0);
        QCOMPARE(RuntimeMemoryReport::planNote(a.peakParts[0]).cell,
                 std::string("not in the capture"));
        QCOMPARE(RuntimeMemoryReport::planNote(a.peakParts[1]).cell, std::string()); // no module
        QVERIFY(RuntimeMemoryReport::text("linked", m)
                    .find("; the capture holds no buffer assignment of jit_f") !=
                std::string::npos);
        QCOMPARE(a.peakParts[1].kind, RuntimeAllocator::Part::Kind::Outside);
        QCOMPARE(a.peakParts[1].bytes, std::int64_t(50));
        QCOMPARE(a.atPeak.size(), std::size_t(3));
        QCOMPARE(a.atPeak[0].bytes, std::int64_t(500));
        QCOMPARE(a.atPeak[0].madeBy.front().module, std::string("jit_f"));
        QCOMPARE(a.atPeak[0].madeBy.front().made, MemoryEvent::Made::Linked);
        QCOMPARE(a.atPeak[1].bytes, std::int64_t(200));
        QCOMPARE(a.atPeak[1].madeBy.front().module, std::string("jit_f"));
        QCOMPARE(a.atPeak[1].madeBy.front().made, MemoryEvent::Made::Linked);
        QCOMPARE(a.atPeak[2].bytes, std::int64_t(50));
        QCOMPARE(a.atPeak[2].madeBy.front().made, MemoryEvent::Made::Unknown);
    }

    // A capture that holds its module's plan (case "bysize", figures in its docstring): A,
    // made outside any run, is the size of jit_add's allocation 2 and of no other module's;
    // B's size is no module's; C is made by jit_add's run. Beside the running module's part,
    // its plan: 2,048 B allocated when it starts (output 1,024 + temp 1,024), 2,048 B of
    // arguments.
    void matchedBySizeBesideThePlan()
    {
        const QString out = m_dir.filePath(QStringLiteral("bysize.xplane.pb"));
        capture("bysize");
        std::string error;
        const RuntimeMemory m = RuntimeMemory::readCapture(out.toStdString(), &error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(m.plans.size(), std::size_t(1));
        const ModulePlan &plan = m.plans.front();
        QCOMPARE(plan.name, std::string("jit_add"));
        QCOMPARE(plan.member, std::string("jit_add(7)"));
        QCOMPARE(plan.device.argument, std::int64_t(2048));
        QCOMPARE(plan.device.output, std::int64_t(1024));
        QCOMPARE(plan.device.alias, std::int64_t(0));
        QCOMPARE(plan.device.temp, std::int64_t(1024));
        QCOMPARE(plan.deviceBuffers.size(), std::size_t(2)); // the output and the temp
        QCOMPARE(plan.host.held(), std::int64_t(0));

        const RuntimeAllocator &a = m.allocators.front();
        QCOMPARE(a.peakBytes, std::int64_t(5048));
        QCOMPARE(a.peakTimePs, std::int64_t(6000));
        QCOMPARE(a.peakModule, std::string("jit_add"));
        QCOMPARE(a.peakPlan, 0);
        using Kind = RuntimeAllocator::Part::Kind;
        QCOMPARE(a.peakParts.size(), std::size_t(3));
        QCOMPARE(a.peakParts[0].kind, Kind::Running);
        QCOMPARE(a.peakParts[0].bytes, std::int64_t(1024));
        QCOMPARE(a.peakParts[0].planned, std::int64_t(2048));
        QCOMPARE(a.peakParts[0].arguments, std::int64_t(2048));
        QCOMPARE(a.peakParts[1].kind, Kind::BySize);
        QCOMPARE(a.peakParts[1].module, std::string("jit_add"));
        QCOMPARE(a.peakParts[1].bytes, std::int64_t(1024));
        QCOMPARE(a.peakParts[1].compiles, 1);
        QCOMPARE(RuntimeMemoryReport::planNote(a.peakParts[1]).cell, std::string("by size"));
        QCOMPARE(RuntimeMemoryReport::planNote(a.peakParts[0]).cell, std::string()); // planned
        QCOMPARE(a.peakParts[2].kind, Kind::Outside);
        QCOMPARE(a.peakParts[2].bytes, std::int64_t(3000));
        std::int64_t sum = 0;
        for (const RuntimeAllocator::Part &p : a.peakParts)
            sum += p.bytes;
        QCOMPARE(sum, a.peakBytes);
        // The rows: B alone, then A and C merged (same figures), each with who made it and
        // the plan's allocation of its size, which a click in the window opens.
        QCOMPARE(a.atPeak.size(), std::size_t(2));
        QCOMPARE(a.atPeak[0].bytes, std::int64_t(3000));
        QCOMPARE(a.atPeak[0].madeBy.front().module, std::string());
        QCOMPARE(a.atPeak[1].count, std::int64_t(2));
        QCOMPARE(a.atPeak[1].madeBy.size(), std::size_t(2));
        for (const RuntimeAllocator::Row::Maker &maker : a.atPeak[1].madeBy) {
            QCOMPARE(maker.module, std::string("jit_add"));
            QCOMPARE(maker.member, std::string("jit_add(7)"));
            QCOMPARE(maker.allocation, std::int64_t(2));
            QCOMPARE(maker.count, std::int64_t(1));
            QVERIFY(maker.made == MemoryEvent::Made::InRun ||
                    maker.made == MemoryEvent::Made::BySize);
        }
        QVERIFY(a.atPeak[1].madeBy[0].made != a.atPeak[1].madeBy[1].made);

        // The command says the same, with the plan.
        const testutil::CliRun run =
            testutil::runBufferscope({QStringLiteral("memory"), out, QStringLiteral("--json")});
        QCOMPARE(run.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        const QJsonObject p = json.value(QStringLiteral("plans")).toArray().at(0).toObject();
        QCOMPARE(p.value(QStringLiteral("module")).toString(), QStringLiteral("jit_add"));
        QCOMPARE(p.value(QStringLiteral("held_bytes")).toInteger(), 4096);
        const QJsonObject al = json.value(QStringLiteral("allocators")).toArray().at(0).toObject();
        const QJsonArray parts = al.value(QStringLiteral("peak_parts")).toArray();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts.at(0).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("running"));
        QCOMPARE(parts.at(0).toObject().value(QStringLiteral("planned_bytes")).toInteger(), 2048);
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("by_size"));
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("compiles")).toInteger(), 1);
        QCOMPARE(parts.at(2).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("not_attributed"));
        const QString sentence = al.value(QStringLiteral("peak_summary")).toString();
        QVERIFY2(sentence.contains(QStringLiteral("the run of jit_add at the peak made 1.0KiB of "
                                                  "the 2.0KiB its plan allocates")),
                 qPrintable(sentence));
    }

    // The command: --json with the figures, and a damaged capture refused with exit 2.
    void command()
    {
        const QString path = m_dir.filePath(QStringLiteral("threads.xplane.pb"));
        capture("threads");
        const testutil::CliRun run =
            testutil::runBufferscope({QStringLiteral("memory"), path, QStringLiteral("--json")});
        QCOMPARE(run.code, 0);
        const QJsonObject a = QJsonDocument::fromJson(run.out)
                                  .object()
                                  .value(QStringLiteral("allocators"))
                                  .toArray()
                                  .at(0)
                                  .toObject();
        QCOMPARE(a.value(QStringLiteral("name")).toString(), QStringLiteral("GPU_0_bfc"));
        QCOMPARE(a.value(QStringLiteral("peak_bytes")).toInteger(), 400);
        QCOMPARE(a.value(QStringLiteral("peak_time_ps")).toInteger(), 5000000);
        QCOMPARE(a.value(QStringLiteral("capacity_bytes")).toInteger(), 1000000);
        QCOMPARE(a.value(QStringLiteral("top_allocations")).toArray().size(), 1);

        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        const QString cut = m_dir.filePath(QStringLiteral("cut.xplane.pb"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes.left(bytes.size() - 7)); // cut inside the last event
        out.close();
        const testutil::CliRun damaged = testutil::runBufferscope({QStringLiteral("memory"), cut});
        QCOMPARE(damaged.code, 2);
        QVERIFY2(damaged.err.contains("damaged"), damaged.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRuntimeMemory)
#include "tst_runtimememory.moc"
