// The workspace layer: the job runner's rules (newest request wins, results of a dump no longer
// shown and of a receiver gone are dropped, progress arrives on the GUI thread), the selection
// rules, the module scan, and the module-file names. Expected figures come from the sample
// dumps as XLA printed them (line numbers in the comments), not from the code under test.
#include "AttackProtos.h"
#include "DumpFiles.h"
#include "JobRunner.h"
#include "LoadedDump.h"
#include "OomJoin.h"
#include "Opened.h"
#include "RunFacts.h"
#include "SampleTruths.h"
#include "Workspace.h"
#include "models/Selection.h"
#include "open/Catalog.h"
#include "open/ModuleReader.h"
#include "parse/ModuleFiles.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <thread>

using namespace bufferscope;

namespace {

QString sample(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
        .arg(QLatin1String(name));
}

/// The run the run tests open: gpu_vllm_update_slice (held 1,506, the largest file),
/// tpu_dynamic_slice (which holds the most) and tpu_unstack.
QStringList threeModules()
{
    return {sample("gpu_vllm_update_slice"), sample("tpu_dynamic_slice"), sample("tpu_unstack")};
}

/// Writes a profiler capture of `modules` copies of the tpu_unstack sample's proto, named
/// `prefix` + K as testutil::captureOf names them; false when it cannot.
bool writeCapture(const QString &path, int modules, const std::string &prefix = "jit_step_",
                  std::int64_t growParameter = 0)
{
    std::string proto = testutil::sampleHloProto();
    if (growParameter != 0) {
        // Parameter 0's allocation (allocation 1, "size 1024, parameter 0" in
        // tpu_unstack.buffer-assignment.txt) made `growParameter` bytes larger.
        xlapb::HloProto parsed;
        if (!parsed.ParseFromString(proto))
            return false;
        auto *allocation = parsed.mutable_buffer_assignment()->mutable_buffer_allocations(1);
        if (allocation->size() != 1024 || !allocation->is_entry_computation_parameter())
            return false;
        allocation->set_size(allocation->size() + growParameter);
        proto = parsed.SerializeAsString();
    }
    QFile out(path);
    if (proto.empty() || !out.open(QIODevice::WriteOnly))
        return false;
    const QByteArray bytes = QByteArray::fromStdString(testutil::captureOf(modules, proto, prefix));
    return out.write(bytes) == bytes.size();
}

/// Blocks the worker until `release` is set (or 5 s passed), then returns `value`.
int waitThen(const std::atomic<bool> &release, const JobControl &control, int value)
{
    for (int i = 0; i < 500 && !release.load() && !control.cancelled(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return value;
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestWorkspace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void newestRequestWins()
    {
        JobRunner runner;
        const auto lane = runner.newLane("test", JobRunner::Scope::Session);
        std::atomic<bool> release{false};
        std::atomic<bool> firstSawCancel{false};
        QList<int> delivered;
        runner.run(
            lane, this,
            [&](const JobControl &c) {
                const int v = waitThen(release, c, 1);
                firstSawCancel = c.cancelled();
                return v;
            },
            [&](int v) { delivered << v; });
        QVERIFY(runner.isBusy(lane));
        runner.run(
            lane, this, [](const JobControl &) { return 2; }, [&](int v) { delivered << v; });
        QSignalSpy idle(&runner, &JobRunner::idle);
        QTRY_VERIFY(!runner.isBusy(lane));
        QTRY_VERIFY(firstSawCancel.load()); // the older job was told to stop
        QVERIFY(runner.waitForDone());      // a late delivery of the first would have come
        QCOMPARE(delivered, QList<int>{2});
        QVERIFY(idle.count() >= 1);
    }

    // A retired lane (its requester gone) stops its job, drops what it hands over, and is
    // the next newLane: a lane per request costs nothing once it is done.
    void retiredLanesAreReused()
    {
        JobRunner runner;
        const auto lane = runner.newLane("first", JobRunner::Scope::Session);
        std::atomic<bool> release{false};
        std::atomic<bool> sawCancel{false};
        QList<int> delivered;
        runner.run(
            lane, this,
            [&](const JobControl &c) {
                const int v = waitThen(release, c, 1);
                sawCancel = c.cancelled();
                return v;
            },
            [&](int v) { delivered << v; });
        runner.retireLane(lane);
        QVERIFY(!runner.isBusy(lane));
        const auto again = runner.newLane("second", JobRunner::Scope::Session);
        QCOMPARE(again, lane);
        runner.run(
            again, this, [](const JobControl &) { return 2; }, [&](int v) { delivered << v; });
        QTRY_VERIFY(sawCancel.load());
        QVERIFY(runner.waitForDone());
        QCOMPARE(delivered, QList<int>{2});
        QVERIFY(runner.newLane("third", JobRunner::Scope::Session) != lane);
    }

    void streamedPartsArriveBeforeTheEnd()
    {
        JobRunner runner;
        const auto lane = runner.newLane("stream", JobRunner::Scope::Session);
        QStringList got;
        // Parts sent from the job and from threads it starts reach the GUI thread, then the end.
        runner.stream<int>(
            lane, this,
            [](const JobControl &, const auto &send) {
                send(1);
                std::thread([&send] { send(2); }).join();
                send(3);
            },
            [&](int part) {
                QCOMPARE(QThread::currentThread(), qApp->thread());
                got << QString::number(part);
            },
            [&] { got << QStringLiteral("end"); });
        QTRY_COMPARE(got, (QStringList{QStringLiteral("1"), QStringLiteral("2"),
                                       QStringLiteral("3"), QStringLiteral("end")}));
        // A newer request drops what the older one still sends, its end too.
        got.clear();
        std::atomic<bool> release{false};
        std::atomic<bool> sentLate{false};
        runner.stream<int>(
            lane, this,
            [&](const JobControl &c, const auto &send) {
                send(1);
                waitThen(release, c, 0);
                send(2);
                sentLate = true;
            },
            [&](int part) { got << QString::number(part); }, [&] { got << QStringLiteral("end"); });
        QTRY_COMPARE(got, QStringList{QStringLiteral("1")});
        runner.stream<int>(
            lane, this, [](const JobControl &, const auto &send) { send(7); },
            [&](int part) { got << QString::number(part); }, [&] { got << QStringLiteral("end"); });
        QTRY_VERIFY(sentLate.load());
        QTRY_VERIFY(!runner.isBusy(lane));
        QVERIFY(runner.waitForDone());
        QCOMPARE(got,
                 (QStringList{QStringLiteral("1"), QStringLiteral("7"), QStringLiteral("end")}));
    }

    void dumpChangeDropsDumpScopedResults()
    {
        JobRunner runner;
        const auto dumpLane = runner.newLane("about the dump", JobRunner::Scope::Dump);
        const auto sessionLane = runner.newLane("session", JobRunner::Scope::Session);
        std::atomic<bool> release{false};
        QList<int> delivered;
        runner.run(
            dumpLane, this, [&](const JobControl &c) { return waitThen(release, c, 1); },
            [&](int v) { delivered << v; });
        runner.run(
            sessionLane, this,
            [&](const JobControl &) {
                while (!release.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                return 2;
            },
            [&](int v) { delivered << v; });
        runner.dumpChanged();
        QVERIFY(!runner.isBusy(dumpLane)); // cancelled at once
        release = true;
        QTRY_VERIFY(!runner.isBusy(sessionLane));
        QVERIFY(runner.waitForDone());
        QCOMPARE(delivered, QList<int>{2});
    }

    void goneReceiverGetsNothing()
    {
        JobRunner runner;
        const auto lane = runner.newLane("test", JobRunner::Scope::Session);
        std::atomic<bool> release{false};
        bool delivered = false;
        auto *receiver = new QObject;
        runner.run(
            lane, receiver, [&](const JobControl &c) { return waitThen(release, c, 1); },
            [&](int) { delivered = true; });
        delete receiver;
        release = true;
        QTRY_VERIFY(!runner.isBusy(lane));
        QVERIFY(!delivered);
    }

    void progressArrivesOnTheGuiThread()
    {
        JobRunner runner;
        const auto lane = runner.newLane("test", JobRunner::Scope::Session);
        QList<qint64> done;
        bool onGui = true;
        runner.run(
            lane, this,
            [](const JobControl &c) {
                for (qint64 i = 0; i <= 10; ++i)
                    c.progress(i * 100, 1000); // throttled: at least the last one arrives
                return 0;
            },
            [](int) {},
            [&](qint64 d, qint64 total) {
                onGui = onGui && QThread::currentThread() == thread();
                QCOMPARE(total, qint64(1000));
                done << d;
            });
        QTRY_VERIFY(!runner.isBusy(lane));
        QVERIFY(!done.isEmpty());
        QCOMPARE(done.last(), qint64(1000));
        QVERIFY(onGui);
    }

    void selectionRules()
    {
        Workspace ws;
        Selection *sel = ws.selection();
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(sample("gpu_decoder_layer"), loaded, error), qPrintable(error));
        // The workspace hands the dump to its subscribers in order, one per turn of the event
        // loop; while they take it the selection holds still.
        QStringList took;
        QObject first;
        QObject second;
        for (QObject *view : {&first, &second})
            ws.subscribe(view, {}, [&, view](const LoadedDump &shown) {
                QCOMPARE(shown.dump, loaded.dump);
                QCOMPARE(ws.current().dump, loaded.dump);
                QVERIFY(sel->isFrozen());
                sel->setCurrentValue(3);
                sel->setCurrentStep(10);
                QCOMPARE(sel->currentValue(), -1);
                QCOMPARE(sel->currentStep(), qint64(-1));
                took << (view == &first ? QStringLiteral("first") : QStringLiteral("second"));
            });
        {
            QObject gone; // destroyed before the dump is shown: never handed it
            ws.subscribe(&gone, {}, [&](const LoadedDump &) { took << QStringLiteral("gone"); });
        }
        QSignalSpy shown(&ws, &Workspace::dumpShown);
        ws.show(loaded);
        QVERIFY(ws.isFilling());
        QVERIFY(took.isEmpty()); // not on the caller's turn
        QVERIFY(shown.wait(5000));
        QCOMPARE(took, (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
        QVERIFY(!ws.isFilling());
        QVERIFY(!sel->isFrozen());
        // Shown at the peak: "Live ranges at 58 (peak)" (line 561).
        QCOMPARE(sel->currentStep(), qint64(58));
        // Choosing fusion.40 ("fusion.40{}:36-37", line 520) moves the step into its range...
        const auto fusion40 = static_cast<int>(loaded.dump->findValue("fusion.40"));
        sel->setCurrentValue(fusion40);
        QCOMPARE(sel->currentStep(), qint64(36));
        // ... but not when the step is in it already.
        sel->setCurrentValue(-1);
        sel->setCurrentStep(37);
        sel->setCurrentValue(fusion40);
        QCOMPARE(sel->currentStep(), qint64(37));
        // Stepping is clamped to the program, steps 0..66 ("HloLiveRange (max 66)", line 452).
        ws.stepBy(100);
        QCOMPARE(sel->currentStep(), qint64(66));
        ws.action(Workspace::Action::NextStep)->trigger();
        QCOMPARE(sel->currentStep(), qint64(66));
        ws.setStep(-5);
        QCOMPARE(sel->currentStep(), qint64(0));
        ws.action(Workspace::Action::PreviousStep)->trigger();
        QCOMPARE(sel->currentStep(), qint64(0));
        ws.action(Workspace::Action::GoToPeak)->trigger();
        QCOMPARE(sel->currentStep(), qint64(58));
        ws.action(Workspace::Action::ClearSelection)->trigger();
        QCOMPARE(sel->currentValue(), -1);
        QCOMPARE(sel->currentStep(), qint64(58)); // Esc keeps the step
        // A memory space the dump does not have: the primary one stays on show.
        QSignalSpy spaceChanged(&ws, &Workspace::memorySpaceChanged);
        ws.setMemorySpace(7);
        QCOMPARE(ws.memorySpace(), 0);
        QCOMPARE(spaceChanged.count(), 0);
    }

    void breakdownIsComputedOnceAndShared()
    {
        Workspace ws;
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(sample("gpu_decoder_layer"), loaded, error), qPrintable(error));
        ws.show(loaded, Workspace::Fill::AtOnce);
        ws.setBackgroundFrom(0); // as for a big dump: on a job
        QVERIFY(!ws.breakdown(loaded.dump, loaded.timeline, 40));
        QSignalSpy ready(&ws, &Workspace::breakdownReady);
        QVERIFY(ready.wait(5000));
        const auto first = ws.breakdown(loaded.dump, loaded.timeline, 40);
        QVERIFY(first);
        QCOMPARE(first->step, std::int64_t(40));
        // Asked again (by the other view): the same object, nothing computed.
        QCOMPARE(ws.breakdown(loaded.dump, loaded.timeline, 40), first);
        QVERIFY(!ws.isComputingBreakdown());
        // Outside the program: the peak, "Live ranges at 58 (peak)", whose 22 values add up to
        // 931536164 bytes (the sizes listed at lines 562-583).
        QVERIFY(!ws.breakdown(loaded.dump, loaded.timeline, -1));
        QVERIFY(ready.wait(5000));
        const auto peak = ws.breakdown(loaded.dump, loaded.timeline, -1);
        QCOMPARE(peak->step, std::int64_t(58));
        QCOMPARE(peak->breakdown.bytes, testutil::sampleTruth("gpu_decoder_layer").peakBytes);
        QCOMPARE(peak->breakdown.valueCount, std::int64_t(22));
    }

    // Every request answered (issue 60): two Device Fit windows, two Run Summaries and two
    // comparisons of runs ask at once, each its own requester; every one gets its answer (a
    // shared lane used to drop the older window's, which then waited forever).
    void everyRequesterIsAnswered()
    {
        Workspace ws;
        QTemporaryDir run;
        QStringList files;
        for (const char *name : {"gpu_decoder_layer", "gpu_vllm_update_slice", "tpu_unstack"}) {
            const QString to = run.filePath(QStringLiteral("module_000%1.%2-buffer-assignment.txt")
                                                .arg(files.size() + 1)
                                                .arg(QLatin1String(name)));
            QVERIFY(QFile::copy(sample(name), to));
            files << to;
        }
        QObject fitA, fitB, summaryA, summaryB, runsA, runsB;
        std::vector<std::size_t> measured(2, 0);
        std::vector<std::size_t> summarized(2, 0);
        std::vector<int> compared(2, 0);
        int k = 0;
        for (QObject *fit : {&fitA, &fitB}) {
            ws.measureModules(
                files, fit, [](int, int) {},
                [&measured, i = k](const std::vector<DeviceFit::Module> &m, const QStringList &) {
                    measured[static_cast<std::size_t>(i)] = m.size();
                });
            ++k;
        }
        k = 0;
        for (QObject *summary : {&summaryA, &summaryB}) {
            ws.summarizeRun(
                files, summary, [](int, int) {},
                [&summarized, i = k](const RunSummary &r) {
                    summarized[static_cast<std::size_t>(i)] = r.modules.size();
                });
            ++k;
        }
        k = 0;
        for (QObject *runs : {&runsA, &runsB}) {
            ws.compareRuns(Run({run.path()}, {}), run.path(), runs,
                           [&compared, i = k](const RunDiff &) { ++compared[std::size_t(i)]; });
            ++k;
        }
        QVERIFY(ws.jobs()->waitForDone(60000));
        QCOMPARE(measured, (std::vector<std::size_t>{3, 3}));
        QCOMPARE(summarized, (std::vector<std::size_t>{3, 3}));
        QCOMPARE(compared, (std::vector<int>{1, 1}));
        // The same requester asking again still replaces its own older request.
        std::vector<std::size_t> again;
        for (int i = 0; i < 2; ++i)
            ws.measureModules(
                files.mid(0, i + 1), &fitA, [](int, int) {},
                [&again](const std::vector<DeviceFit::Module> &m, const QStringList &) {
                    again.push_back(m.size());
                });
        QVERIFY(ws.jobs()->waitForDone(60000));
        QCOMPARE(again, (std::vector<std::size_t>{2}));
    }

    void runKeepsItsModulesFigures()
    {
        // Setting the run reads its modules' figures into it, but for the one loaded beside
        // the scan, whose figures its load hands over once.
        Workspace ws;
        const QStringList files = threeModules();
        QSignalSpy finished(&ws, &Workspace::scanFinished);
        ws.setRun(Run({}, DumpFiles::collect(files)), files[0]);
        QVERIFY(finished.wait(10000));
        QCOMPARE(ws.run().figures.size(), 2);
        QVERIFY(!ws.run().figures.contains(files[0]));
        QCOMPARE(ws.run().figures.value(files[1]).total,
                 testutil::sampleTruth("tpu_dynamic_slice").total);
        QCOMPARE(ws.run().figures.value(files[2]).total,
                 testutil::sampleTruth("tpu_unstack").total);
        // Another module's load hands nothing over: the scan read it.
        QSignalSpy scanned(&ws, &Workspace::modulesScanned);
        QSignalSpy shown(&ws, &Workspace::dumpShown);
        ws.load(files[1]);
        QVERIFY(shown.wait(10000));
        QCOMPARE(scanned.count(), 0);
        QCOMPARE(ws.run().figures.value(files[1]).total,
                 testutil::sampleTruth("tpu_dynamic_slice").total);
        // The skipped one's load hands its figures over, once.
        ws.load(files[0]);
        QVERIFY(shown.wait(10000));
        QCOMPARE(scanned.count(), 1);
        QCOMPARE(ws.run().figures.value(files[0]).total,
                 qint64(1522)); // "Total bytes used:" of gpu_vllm_update_slice
        ws.load(files[0]);
        QVERIFY(shown.wait(10000));
        QCOMPARE(scanned.count(), 1);
        // Another run starts afresh.
        ws.setRun(Run({}, DumpFiles::collect({files[2]})));
        QVERIFY(finished.wait(10000));
        QCOMPARE(ws.run().figures.size(), 1);
        QCOMPARE(ws.run().figures.value(files[2]).total,
                 testutil::sampleTruth("tpu_unstack").total);
    }

    // The run's scan reads each module once for the Modules dock and Run Summary both
    // (issue 75): the summary is made from the scan's facts and reads only the module the
    // scan left to its load. Counted by the module reader itself.
    void runSummaryReadsOnlyWhatTheScanDidNot()
    {
        Workspace ws;
        const QStringList files = threeModules();
        QSignalSpy finished(&ws, &Workspace::scanFinished);
        const std::uint64_t before = ModuleReader::reads();
        ws.setRun(Run({}, DumpFiles::collect(files)), files[0]);
        QVERIFY(finished.wait(10000));
        QCOMPARE(ModuleReader::reads() - before, std::uint64_t{2});
        QCOMPARE(ws.run().facts.size(), 2);
        QVERIFY(!ws.run().facts.contains(files[0]));
        const std::uint64_t scanned = ModuleReader::reads();
        QObject requester;
        RunSummary got;
        ws.summarizeRun(
            files, &requester, [](int, int) {}, [&got](const RunSummary &s) { got = s; });
        QVERIFY(ws.jobs()->waitForDone(20000));
        QCOMPARE(ModuleReader::reads() - scanned, std::uint64_t{1}); // files[0] alone
        QCOMPARE(got.modules.size(), std::size_t{3});
        // Each module's "Total bytes used:", whichever read it came from.
        std::map<std::string, std::int64_t> totals;
        for (const RunSummary::Module &m : got.modules) {
            QVERIFY2(m.read, m.error.c_str());
            totals[m.file] = m.total;
        }
        QCOMPARE(totals[files[0].toStdString()], std::int64_t{1522});
        QCOMPARE(totals[files[1].toStdString()], testutil::sampleTruth("tpu_dynamic_slice").total);
        QCOMPARE(totals[files[2].toStdString()], testutil::sampleTruth("tpu_unstack").total);
        // What it read joined the run's facts: a second summary reads nothing.
        QCOMPARE(ws.run().facts.size(), 3);
        const std::uint64_t once = ModuleReader::reads();
        RunSummary again;
        ws.summarizeRun(
            files, &requester, [](int, int) {}, [&again](const RunSummary &s) { again = s; });
        QVERIFY(ws.jobs()->waitForDone(20000));
        QCOMPARE(ModuleReader::reads() - once, std::uint64_t{0});
        QCOMPARE(again.modules.size(), std::size_t{3});
        // Compared with another run, this run's side is its facts: only the other run's one
        // module is read (the same compile as tpu_unstack here, so no pair is loaded).
        QTemporaryDir other;
        QVERIFY(QFile::copy(files[2], other.filePath(QFileInfo(files[2]).fileName())));
        const std::uint64_t beforeDiff = ModuleReader::reads();
        RunDiff diff;
        ws.compareRuns(ws.run(), other.path(), &requester, [&diff](const RunDiff &d) { diff = d; });
        QVERIFY(ws.jobs()->waitForDone(20000));
        QCOMPARE(ModuleReader::reads() - beforeDiff, std::uint64_t{1});
        QCOMPARE(diff.pairedCompiles, std::size_t{1});
    }

    // The run decides which module is the largest and when all are read (issue 75): runRead
    // comes once, after the scan and the figures of the module loaded beside it, whichever
    // comes last; Run::largest is then the one the device holds most for.
    void runSaysWhenAllAreRead()
    {
        Workspace ws;
        const QStringList files = threeModules();
        QSignalSpy finished(&ws, &Workspace::scanFinished);
        QSignalSpy read(&ws, &Workspace::runRead);
        ws.setRun(Run({}, DumpFiles::collect(files)), files[0]);
        QVERIFY(finished.wait(10000));
        QCOMPARE(read.count(), 0); // files[0] has no figures yet
        ws.load(files[0]);
        QVERIFY(read.wait(10000));
        QCOMPARE(read.count(), 1);
        // Held while each runs (argument + output - alias + temp): gpu_vllm_update_slice's
        // from its allocation lines, 2 (parameter 0) + 1,208 (the maybe-live-out 512 + 512 +
        // 64 + 64 + 40 + 16) + 296 (preallocated temp) = 1,506; the others' from their truths.
        QCOMPARE(ws.run().figures.value(files[0]).held, qint64(1506));
        QCOMPARE(ws.run().figures.value(files[1]).held,
                 testutil::sampleTruth("tpu_dynamic_slice").held);
        QCOMPARE(ws.run().figures.value(files[2]).held, testutil::sampleTruth("tpu_unstack").held);
        QVERIFY(testutil::sampleTruth("tpu_dynamic_slice").held > 1506);
        QVERIFY(testutil::sampleTruth("tpu_dynamic_slice").held >
                testutil::sampleTruth("tpu_unstack").held);
        const QString expected = files[1];
        QCOMPARE(ws.run().largest(), expected);
        // Without a module left to a load, the scan's end is the run's.
        ws.setRun(Run({}, DumpFiles::collect(files)));
        QVERIFY(finished.wait(10000));
        QCOMPARE(read.count(), 2);
        QCOMPARE(ws.run().largest(), expected);
        QVERIFY(Run().largest().isEmpty());
    }

    // Opening a run shows its module with nothing more asked (issue 75): one request from
    // the window (openRun) after the classification, two round trips in all, where the
    // window used to hear runRead and ask for the largest module itself.
    void openRunShowsTheLargestItself()
    {
        Workspace ws;
        const QStringList files = threeModules();
        QSignalSpy read(&ws, &Workspace::runRead);
        QSignalSpy started(&ws, &Workspace::loadStarted);
        QSignalSpy shown(&ws, &Workspace::dumpShown);
        QCOMPARE(ws.openRun(Run({}, DumpFiles::collect(files))), Workspace::RunShown::WhenRead);
        QVERIFY(shown.wait(20000));
        QCOMPARE(read.count(), 1);
        // tpu_dynamic_slice holds the most (its truth's held bytes against 1,506 and
        // tpu_unstack's, as runSaysWhenAllAreRead works out), and it is the one loaded.
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.at(0).at(0).toString(), files[1]);
        QCOMPARE(ws.current().path, files[1]);
        QVERIFY(ws.jobs()->waitForDone(20000));
        QCOMPARE(shown.count(), 1);
        // A run of one module loads it at once, and the run has its figures from that load.
        QCOMPARE(ws.openRun(Run({}, DumpFiles::collect({files[2]}))), Workspace::RunShown::AtOnce);
        QVERIFY(read.wait(20000));
        QCOMPARE(ws.run().figures.value(files[2]).total,
                 testutil::sampleTruth("tpu_unstack").total);
        QTRY_COMPARE_WITH_TIMEOUT(ws.current().path, files[2], 20000);
    }

    // A module asked for while the run is read stays: the largest does not replace it when
    // the run is read; nor does a run set afterwards show one.
    void aModuleAskedForMeanwhileStays()
    {
        Workspace ws;
        const QStringList files = threeModules();
        QSignalSpy read(&ws, &Workspace::runRead);
        QSignalSpy started(&ws, &Workspace::loadStarted);
        ws.openRun(Run({}, DumpFiles::collect(files)));
        ws.load(files[2]);
        QVERIFY(read.wait(20000));
        QVERIFY(ws.jobs()->waitForDone(20000));
        QCOMPARE(started.count(), 1);
        QCOMPARE(ws.current().path, files[2]);
        // openRun, then setRun: the second run is only read.
        ws.openRun(Run({}, DumpFiles::collect(files)));
        ws.setRun(Run({}, DumpFiles::collect(files)));
        QVERIFY(read.wait(20000));
        QVERIFY(ws.jobs()->waitForDone(20000));
        QCOMPARE(started.count(), 1);
        QCOMPARE(ws.current().path, files[2]);
    }

    // Two runs of captures compared: the changed pairs are read together, each capture once
    // (issue 75), where a pair at a time read both captures again for every pair.
    void runComparisonReadsEachCaptureOnce()
    {
        QTemporaryDir before;
        QTemporaryDir after;
        QVERIFY(writeCapture(before.filePath(QStringLiteral("host0.xplane.pb")), 3));
        QVERIFY(
            writeCapture(after.filePath(QStringLiteral("host0.xplane.pb")), 3, "jit_step_", 1024));
        Workspace ws;
        QSignalSpy finished(&ws, &Workspace::scanFinished);
        ws.setRun(Run({before.path()}, DumpFiles::collect({before.path()})));
        QVERIFY(finished.wait(20000));
        QObject requester;
        const std::uint64_t reads = ModuleReader::reads();
        RunDiff diff;
        ws.compareRuns(ws.run(), after.path(), &requester, [&diff](const RunDiff &d) { diff = d; });
        QVERIFY(ws.jobs()->waitForDone(30000));
        // One read of the after run's capture for its summary, then one of each capture for
        // the three pairs (a pair at a time: 6).
        QCOMPARE(ModuleReader::reads() - reads, std::uint64_t{3});
        QCOMPARE(diff.rows.size(), std::size_t{3});
        for (const RunDiff::Row &row : diff.rows) {
            QCOMPARE(row.change, RunDiff::Change::Changed);
            QVERIFY2(row.comparison.ok, row.comparison.error.c_str());
            // Parameter 0 is 1,024 bytes larger and held all the while: held +1,024.
            QCOMPARE(row.heldDelta(), std::int64_t{1024});
            QCOMPARE(row.comparison.heldDelta, std::int64_t{1024});
        }
        // The same comparisons, a pair at a time.
        const RunSummary a = RunFacts::summarize(ws.run().modules.refs, 1);
        const RunSummary b = RunFacts::summarize(after.path(), 1);
        const RunDiff one = RunDiff::of(
            a, b,
            [](const RunSummary::Module &x, const RunSummary::Module &y) {
                return RunFacts::compare(x, y, 1);
            },
            1);
        QCOMPARE(one.rows.size(), diff.rows.size());
        for (std::size_t i = 0; i < one.rows.size(); ++i) {
            QCOMPARE(one.rows[i].name, diff.rows[i].name);
            QCOMPARE(one.rows[i].comparison.heldDelta, diff.rows[i].comparison.heldDelta);
            QCOMPARE(one.rows[i].comparison.peakDelta, diff.rows[i].comparison.peakDelta);
            QCOMPARE(one.rows[i].comparison.cause, diff.rows[i].comparison.cause);
        }
    }

    // The scan reads a capture once for all its members and measures them for Device Fit,
    // which then reads nothing; the out-of-memory weighing and a Device Fit of modules the
    // scan did not read read it once too (issue 75): each member used to be loaded alone,
    // the whole capture read each time.
    void captureMembersAreReadOnce()
    {
        QTemporaryDir dir;
        QVERIFY(writeCapture(dir.filePath(QStringLiteral("host0.xplane.pb")), 3));
        Workspace ws;
        QSignalSpy finished(&ws, &Workspace::scanFinished);
        const std::uint64_t scanning = ModuleReader::reads();
        ws.setRun(Run({dir.path()}, DumpFiles::collect({dir.path()})));
        QVERIFY(finished.wait(20000));
        QCOMPARE(ModuleReader::reads() - scanning, std::uint64_t{1});
        const QStringList files = ws.run().modules.files;
        QCOMPARE(files.size(), 3);
        QCOMPARE(ws.run().fits.size(), 3);
        QObject requester;
        const auto measure = [&ws, &requester](const QStringList &which) {
            std::vector<DeviceFit::Module> got;
            ws.measureModules(
                which, &requester, [](int, int) {},
                [&got](const std::vector<DeviceFit::Module> &m, const QStringList &) { got = m; });
            return ws.jobs()->waitForDone(20000) ? got : std::vector<DeviceFit::Module>();
        };
        const std::uint64_t before = ModuleReader::reads();
        const std::vector<DeviceFit::Module> fromScan = measure(files);
        QCOMPARE(fromScan.size(), std::size_t{3});
        QCOMPARE(ModuleReader::reads() - before, std::uint64_t{0});
        // The same figures as a load of each: the sample's held bytes and live peak.
        for (const DeviceFit::Module &m : fromScan) {
            QCOMPARE(m.analysis.device.held(), testutil::sampleTruth("tpu_unstack").held);
            QCOMPARE(m.livePeak, testutil::sampleTruth("tpu_unstack").deviceBytes);
        }
        // A run whose scan has not measured them (another run set meanwhile): one read.
        ws.setRun(Run({}, DumpFiles::collect({sample("tpu_unstack")})));
        QVERIFY(finished.wait(20000));
        const std::uint64_t again = ModuleReader::reads();
        QCOMPARE(measure(files).size(), std::size_t{3});
        QCOMPARE(ModuleReader::reads() - again, std::uint64_t{1});
        // A TPU message that names no executable: every module may be its module.
        OomFindings findings = oomFindingsOf(
            QStringLiteral("oom.log"),
            "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 17.19G of 15.48G "
            "hbm. Exceeded hbm capacity by 1.71G.\n");
        QCOMPARE(findings.log.messages.size(), std::size_t{1});
        QStringList errors;
        const std::uint64_t weighing = ModuleReader::reads();
        QVERIFY(weighModules(findings, ws.run().refsOf(files), errors, nullptr, 2));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(findings.messages.front().candidates.size(), std::size_t{3});
        QCOMPARE(ModuleReader::reads() - weighing, std::uint64_t{1});
    }

    // The run names its modules as the catalog listed them (issue 74): a capture's member,
    // asked for by its address, is the listed reference (its capture and name apart, its bytes
    // measured), not one split again from the address; an address the run does not hold is
    // read as the catalog reads it.
    void runNamesMembersByTheirListing()
    {
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("p#1.xplane.pb"));
        QVERIFY(writeCapture(capture, 2, "jit_a#"));
        const Run run({dir.path()}, DumpFiles::collect({dir.path()}));
        QCOMPARE(run.modules.files.size(), 2);
        for (std::size_t i = 0; i < run.modules.refs.size(); ++i) {
            const ModuleRef &listed = run.modules.refs[i];
            const ModuleRef ref = run.refOf(run.modules.files[static_cast<qsizetype>(i)]);
            QCOMPARE(ref.container, capture.toStdString());
            QCOMPARE(ref.member, listed.member);
            QVERIFY(ref.bytes > 0);
            QCOMPARE(ref.bytes, listed.bytes);
            LoadedDump d;
            QString error;
            QVERIFY2(loadDump(ref, d, error), qPrintable(error));
        }
        const ModuleRef other = run.refOf(sample("tpu_unstack"));
        QCOMPARE(other.format, ModuleFormat::DumpText);
        QCOMPARE(other.bytes, std::int64_t{-1});
    }

    void moduleScanReadsEveryModule()
    {
        Workspace ws;
        QStringList files;
        for (const char *name : {"gpu_decoder_layer", "gpu_vllm_update_slice", "tpu_dynamic_slice",
                                 "tpu_random_normal", "tpu_unstack"})
            files << sample(name);
        QMap<QString, ModuleFigures> got;
        connect(&ws, &Workspace::modulesScanned, this, [&](const QList<ScannedModule> &part) {
            for (const ScannedModule &m : part)
                got.insert(m.file, m.figures);
        });
        QSignalSpy finished(&ws, &Workspace::scanFinished);
        // The one being loaded anyway is skipped.
        ws.scanModules(DumpFiles::collect(files), files.front());
        QVERIFY(finished.wait(10000));
        QCOMPARE(got.size(), 4);
        QVERIFY(!got.contains(files.front()));
        // "Total bytes used:" of each (lines 80, 20, 25 and 42).
        QCOMPARE(got[files[1]].total, qint64(1522));
        QCOMPARE(got[files[2]].total, testutil::sampleTruth("tpu_dynamic_slice").total);
        QCOMPARE(got[files[3]].total, testutil::sampleTruth("tpu_random_normal").total);
        QCOMPARE(got[files[4]].total, testutil::sampleTruth("tpu_unstack").total);
        for (const ModuleFigures &f : got)
            QCOMPARE(f.status, ModuleFigures::Status::Read);
        // A newer scan replaces the running one: only its files are reported.
        got.clear();
        ws.scanModules(DumpFiles::collect(files.mid(1, 2)));
        ws.scanModules(DumpFiles::collect({QStringLiteral("/nonexistent-buffer-assignment.txt")}));
        QTRY_COMPARE(got.size(), 1);
        QVERIFY(ws.jobs()->waitForDone());
        QCOMPARE(got.size(), 1);
        QCOMPARE(got.first().status, ModuleFigures::Status::Unreadable);
        QVERIFY(got.first().error.contains(QStringLiteral("/nonexistent-buffer-assignment.txt")));
        // The scan reads on the workspace's threads, and on one while a load runs.
        ws.setThreads(2);
        QCOMPARE(ws.scanThreads(), 2);
        QSignalSpy loaded(&ws, &Workspace::loaded);
        ws.load(files[1]);
        QVERIFY(ws.isLoading());
        QCOMPARE(ws.scanThreads(), 1);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(ws.scanThreads(), 2);
    }

    void moduleFileNames()
    {
        // XLA's names, and '.' copies of them (our samples).
        QCOMPARE(ModuleFiles::stemOf("module_0001.jit_f.sm_8.0_gpu_after_optimizations-"
                                     "buffer-assignment.txt"),
                 std::string("module_0001.jit_f.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(ModuleFiles::stemOf("m-buffer-assignment-values.txt"), std::string("m"));
        QCOMPARE(ModuleFiles::stemOf("m-live-range.txt"), std::string("m"));
        QCOMPARE(ModuleFiles::stemOf("m.live-range.txt"), std::string("m"));
        QCOMPARE(ModuleFiles::stemOf("m.buffer-assignment.txt"), std::string("m"));
        QVERIFY(ModuleFiles::isDumpName("m.live-range.txt"));
        QVERIFY(!ModuleFiles::isDumpName("-live-range.txt"));
        QVERIFY(!ModuleFiles::isDumpName("mlive-range.txt"));
        QVERIFY(!ModuleFiles::isDumpName("before.txt"));
        QCOMPARE(ModuleFiles::moduleName("/d/before.txt"), std::string("before"));
        QCOMPARE(ModuleFiles::moduleKey("/d/m-buffer-assignment.txt"),
                 ModuleFiles::moduleKey("/d/m-live-range.txt"));
        QVERIFY(ModuleFiles::moduleKey("/d/before.txt") != ModuleFiles::moduleKey("/d/after.txt"));
    }

    void shortNamesFollowXlasFileNames()
    {
        // XLA's FilenameFor (dump.cc): [<timestamp>.]module_<%04d id>[.<name>][.cl_<N>].<suffix>;
        // the names below are the examples of docs/FORMAT.md §1 and names real dumps carry.
        const auto name = [](const char *path) { return ModuleFiles::shortName(path); };
        QCOMPARE(name("/d/module_0001.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"),
                 std::string("jit_f (0001)"));
        QCOMPARE(name("module_0147.jit__kernel.sm_8.0_gpu_after_optimizations-live-range.txt"),
                 std::string("jit__kernel (0147)"));
        QCOMPARE(name("module_0294.jit_train_step.cl_854318611.after_optimizations-buffer-"
                      "assignment.txt"),
                 std::string("jit_train_step (0294)"));
        QCOMPARE(name("module_0003.jit_g.gfx90a_gpu_after_optimizations-buffer-assignment.txt"),
                 std::string("jit_g (0003)"));
        QCOMPARE(name("module_0003.jit_g.cpu_after_optimizations-buffer-assignment.txt"),
                 std::string("jit_g (0003)"));
        // --xla_dump_include_timestamp; a name with dots of its own.
        QCOMPARE(name("1764140000123456.module_0012.jit_step.1.sm_9.0_gpu_after_optimizations-"
                      "buffer-assignment.txt"),
                 std::string("jit_step.1 (0012)"));
        // The name left out (the file name would be over 255 characters).
        QCOMPARE(name("module_0007.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"),
                 std::string("module_0007"));
        QCOMPARE(name("module_0008.cl_1.after_optimizations-buffer-assignment.txt"),
                 std::string("module_0008"));
        // Anything else: the stem as it is.
        QCOMPARE(name("/d/gpu_decoder_layer.buffer-assignment.txt"),
                 std::string("gpu_decoder_layer"));
        QCOMPARE(name("module_x.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt"),
                 std::string("module_x.jit_f.sm_8.0_gpu_after_optimizations"));
        QCOMPARE(name("/d/before.txt"), std::string("before"));
    }

    void siblingsAndOptimizedHlo()
    {
        QTemporaryDir dir;
        const QString stem = dir.filePath(QStringLiteral("module_0001.jit_f"));
        for (const char *suffix :
             {"-buffer-assignment.txt", "-buffer-assignment-values.txt", "-live-range.txt", ".txt"})
            writeFile(stem + QLatin1String(suffix), "x");
        const std::vector<std::string> files =
            ModuleFiles::siblings(QString(stem + QStringLiteral("-live-range.txt")).toStdString());
        QCOMPARE(files.size(), std::size_t(3));
        QVERIFY(files[0].ends_with("-buffer-assignment.txt"));
        QVERIFY(files[1].ends_with("-buffer-assignment-values.txt"));
        QVERIFY(files[2].ends_with("-live-range.txt"));
        QCOMPARE(ModuleFiles::roleOf(files[0], 3), ModuleFiles::Role::BufferAssignment);
        QCOMPARE(ModuleFiles::roleOf(files[2], 3), ModuleFiles::Role::LiveRange);
        QCOMPARE(ModuleFiles::roleOf(files[0], 1), ModuleFiles::Role::Combined);
        QCOMPARE(ModuleFiles::optimizedHlo(files[1]),
                 QString(stem + QStringLiteral(".txt")).toStdString());
        QCOMPARE(ModuleFiles::optimizedHlo(
                     dir.filePath(QStringLiteral("other-live-range.txt")).toStdString()),
                 std::string());
    }

    void folderScanKeepsModulesApart()
    {
        QTemporaryDir dir;
        // Two dumps without a dump suffix, opened together: two modules, not one.
        for (const char *name : {"before.txt", "after.txt"})
            QVERIFY(QFile::copy(sample("tpu_unstack"), dir.filePath(QLatin1String(name))));
        DumpFiles found = DumpFiles::collect({dir.filePath(QStringLiteral("before.txt")),
                                              dir.filePath(QStringLiteral("after.txt"))});
        QCOMPARE(found.files.size(), 2);
        // A folder with a split module (three files) and a '.live-range.txt' copy of another.
        const QString split = dir.filePath(QStringLiteral("m"));
        for (const char *suffix :
             {"-buffer-assignment.txt", "-buffer-assignment-values.txt", "-live-range.txt"})
            writeFile(split + QLatin1String(suffix), "x");
        writeFile(dir.filePath(QStringLiteral("n.live-range.txt")), "x");
        found = DumpFiles::collect({dir.path()});
        QStringList names;
        for (const QString &f : found.files)
            names << QFileInfo(f).fileName();
        names.sort();
        QCOMPARE(names, (QStringList{QStringLiteral("m-buffer-assignment.txt"),
                                     QStringLiteral("n.live-range.txt")}));
    }

    // A problem keeps its path apart from its message (issue 60: "PATH: message" was cut at the
    // first ':', so a folder named "run:2" was reported as "run").
    void problemsKeepTheirPath()
    {
        QTemporaryDir dir;
        const QString empty = dir.filePath(QStringLiteral("run:2 a: b"));
        QVERIFY(QDir().mkpath(empty));
        const Opened opened = Opened::classify({empty});
        QCOMPARE(opened.modules.problems.size(), 1);
        QCOMPARE(opened.modules.problems.front().path, empty);
        QVERIFY(opened.modules.problems.front().message.startsWith(
            QStringLiteral("no buffer-assignment dumps in this folder")));
        QCOMPARE(opened.modules.problems.front().text(),
                 empty + QStringLiteral(": ") + opened.modules.problems.front().message);
    }

    void everyPathIsClassifiedOnce()
    {
        // One way in (core/parse/FileKind, workspace/Opened): what each path is, decided once,
        // by name and, where the name does not say, by its text.
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("run.log"));
        QVERIFY(QFile::copy(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/tpu-hbm-unstack.log"), log));
        const QString notes = dir.filePath(QStringLiteral("notes.txt"));
        writeFile(notes, "nothing about memory here\n");
        // A memory-usage report alone in a folder, and one named by the user without its dump.
        const QString reports = dir.filePath(QStringLiteral("reports"));
        QVERIFY(QDir().mkpath(reports));
        const QByteArray report =
            "Total bytes used: 1024 (1.00KiB)\n\nAllocations sorted by size:\n\n"
            "cumulative_size; total_size - allocation_index: size\n"
            "  1.00KiB(100%); 1.00KiB - allocation 0: 1.00KiB, parameter 0\n";
        const QString lone = reports + QStringLiteral("/m-memory-usage-report.txt");
        writeFile(lone, report);
        const QString dumps = dir.filePath(QStringLiteral("dumps"));
        QVERIFY(QDir().mkpath(dumps));
        QVERIFY(
            QFile::copy(sample("tpu_unstack"), dumps + QStringLiteral("/a-buffer-assignment.txt")));
        QVERIFY(QFile::copy(sample("gpu_decoder_layer"),
                            dumps + QStringLiteral("/b-buffer-assignment.txt")));

        QCOMPARE(Catalog::kindOf(log.toStdString()), FileKind::OomLog);
        QCOMPARE(Catalog::kindOf(notes.toStdString()), FileKind::Dump); // the parser says why not
        QCOMPARE(Catalog::kindOf(lone.toStdString()), FileKind::MemoryUsageReport);
        QCOMPARE(Catalog::kindOf(dumps.toStdString()), FileKind::Folder);
        QCOMPARE(Catalog::kindOf(sample("tpu_unstack").toStdString()), FileKind::Dump);
        QCOMPARE(Catalog::kindOf(dir.filePath(QStringLiteral("gone.txt")).toStdString()),
                 FileKind::Dump);

        const Opened opened = Opened::classify({log, dumps, lone});
        QCOMPARE(opened.oomLogs.size(), 1);
        QCOMPARE(opened.oomLogs.front().path, log);
        // Its messages read on the job: the log's one, its line 1, the TPU compile-time form.
        QCOMPARE(opened.oomLogs.front().findings.log.messages.size(), std::size_t{1});
        QCOMPARE(opened.oomLogs.front().findings.log.messages.front().line, 1);
        QCOMPARE(opened.oomLogs.front().findings.file, log.toStdString());
        QCOMPARE(opened.reports.size(), 1);
        QVERIFY(opened.reports.front().report);
        QCOMPARE(opened.reports.front().report->totalBytes, std::int64_t{1024});
        QCOMPARE(opened.modules.files.size(), 2);
        // A folder whose only module is a lone report is that report.
        const Opened folder = Opened::classify({reports});
        QVERIFY(folder.modules.files.isEmpty());
        QCOMPARE(folder.reports.size(), 1);
        QCOMPARE(folder.reports.front().path, lone);
        // In the window, on a job: the requester is told.
        Workspace workspace;
        QObject requester;
        std::optional<Opened> told;
        workspace.open({notes, log}, &requester, [&](const Opened &o) { told = o; });
        QTRY_VERIFY(told.has_value());
        QCOMPARE(told->oomLogs.size(), 1);
        QCOMPARE(told->modules.files, QStringList{notes});
        // Two requesters at once (the window and an out-of-memory window's folder): each is
        // told; a newer request replaces only its own requester's older one.
        QObject other;
        std::optional<Opened> first;
        std::optional<Opened> second;
        std::optional<Opened> replaced;
        workspace.open({log}, &requester, [&](const Opened &o) { replaced = o; });
        workspace.open({dumps}, &requester, [&](const Opened &o) { first = o; });
        workspace.open({lone}, &other, [&](const Opened &o) { second = o; });
        QTRY_VERIFY(first.has_value() && second.has_value());
        QVERIFY(workspace.jobs()->waitForDone());
        QVERIFY(!replaced.has_value());
        QCOMPARE(first->modules.files.size(), 2);
        QCOMPARE(second->reports.size(), 1);
    }
};

QTEST_MAIN(TestWorkspace)
#include "tst_workspace.moc"
