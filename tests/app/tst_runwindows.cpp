// The run's windows: Run Summary, the run comparison, the Modules dock by function, Runtime Memory.
#include "WindowTest.h"

class TestRunWindows : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTestSettings("tst_runwindows"); }

    // `bufferscope RUN_A --compare RUN_B` with two folders opens the run comparison (it said
    // "is a directory; open one dump file from it"): jit_step in both, tpu_unstack against
    // tpu_random_normal, a changed compile.
    void compareWithAFolderComparesRuns()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        for (const auto &[dir, sample] :
             {std::pair{&a, "tpu_unstack"}, std::pair{&b, "tpu_random_normal"}})
            QVERIFY(QFile::copy(testutil::sampleTruth(sample).path(),
                                dir->filePath(QStringLiteral("module_0001.jit_step.sm_8.0_gpu_"
                                                             "after_optimizations-buffer-"
                                                             "assignment.txt"))));
        MainWindow w;
        w.show();
        QSignalSpy shown(&w, &MainWindow::dumpShown);
        QSignalSpy compared(w.runFlow(), &RunFlow::runsCompared);
        w.openPaths({a.path()});
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 20000);
        w.compareWith(b.path());
        QTRY_VERIFY_WITH_TIMEOUT(compared.count() == 1, 20000);
        QVERIFY(w.findChildren<QMessageBox *>().isEmpty());
        auto *view = w.findChild<RunDiffView *>();
        QVERIFY(view);
        QCOMPARE(view->table()->topLevelItemCount(), 1);
        QCOMPARE(view->table()->topLevelItem(0)->text(0) + QLatin1Char(':') +
                     view->table()->topLevelItem(0)->text(1),
                 QStringLiteral("changed:jit_step"));
        view->close();
    }

    // Every request is answered (issue 60): Run Summary, Compare With Another Run and Device
    // Fit asked twice each, all at once, before any has finished; every window gets its
    // answer. Before, a second request on a lane dropped the first's result and its window
    // waited on "Reading…" for ever.
    void runWindowsTogether()
    {
        QTemporaryDir dir;
        QTemporaryDir other;
        const auto put = [](const QTemporaryDir &in, const char *sample, const char *stem) {
            QVERIFY(QFile::copy(
                testutil::sampleTruth(sample).path(),
                in.filePath(QLatin1String(stem) + QStringLiteral(".sm_8.0_gpu_after_optimizations-"
                                                                 "buffer-assignment.txt"))));
        };
        put(dir, "tpu_unstack", "module_0001.jit_step");
        put(dir, "tpu_random_normal", "module_0002.jit_step");
        put(dir, "tpu_dynamic_slice", "module_0004.jit_other");
        put(other, "tpu_unstack", "module_0001.jit_step");
        put(other, "tpu_dynamic_slice", "module_0004.jit_other");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(drop(&w, {QUrl::fromLocalFile(dir.path())}));
        QVERIFY(
            waitLoaded(w, QStringLiteral("module_0002.jit_step.sm_8.0_gpu_after_optimizations")));
        QSignalSpy summaries(w.runFlow(), &RunFlow::ready);
        QSignalSpy compared(w.runFlow(), &RunFlow::runsCompared);
        QSignalSpy fits(w.fitFlow(), &FitFlow::ready);
        QList<QPointer<RunSummaryView>> runs;
        QList<QPointer<RunDiffView>> diffs;
        QList<QPointer<FitView>> fitViews;
        for (int round = 0; round < 2; ++round) {
            runs << w.runFlow()->show();
            diffs << w.runFlow()->compareRuns(other.path());
            fitViews << w.fitFlow()->show(QStringLiteral("1GiB"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(summaries.size() == 2 && compared.size() == 2 && fits.size() == 2,
                                 30000);
        for (const QPointer<RunSummaryView> &run : runs) {
            QVERIFY(run);
            // Three modules of two functions, as the folder holds.
            QVERIFY2(run->summaryText().contains(QStringLiteral("3 modules of 2 functions")),
                     qPrintable(run->summaryText()));
        }
        for (const QPointer<RunDiffView> &diff : diffs) {
            QVERIFY(diff);
            // jit_random_normal's compile of jit_step is in the first run only.
            QCOMPARE(diff->table()->topLevelItemCount(), 1);
            QCOMPARE(diff->table()->topLevelItem(0)->text(0), QStringLiteral("gone"));
        }
        for (const QPointer<FitView> &fit : fitViews) {
            QVERIFY(fit);
            QCOMPARE(fit->included().size(), std::size_t{3});
        }
        for (const QPointer<RunSummaryView> &v : runs)
            v->close();
        for (const QPointer<RunDiffView> &v : diffs)
            v->close();
        for (const QPointer<FitView> &v : fitViews)
            v->close();
    }

    // A function compiled more than once is one row with its compiles under it (issue 52):
    // jit_step three times (tpu_unstack, tpu_random_normal, gpu_vllm_update_slice: 3136,
    // 92164 and 1506 B held), jit_other once (tpu_dynamic_slice, 18980 B).
    void modulesByFunction()
    {
        QTemporaryDir dir;
        const auto put = [&dir](const char *sample, const char *stem) {
            QVERIFY(QFile::copy(
                testutil::sampleTruth(sample).path(),
                dir.filePath(QLatin1String(stem) + QStringLiteral(".sm_8.0_gpu_after_optimizations-"
                                                                  "buffer-assignment.txt"))));
        };
        put("tpu_unstack", "module_0001.jit_step");
        put("tpu_random_normal", "module_0002.jit_step");
        put("gpu_vllm_update_slice", "module_0003.jit_step");
        put("tpu_dynamic_slice", "module_0004.jit_other");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(drop(&w, {QUrl::fromLocalFile(dir.path())}));
        ModuleBrowser *modules = w.modules();
        // The one the device holds most for opens: tpu_random_normal, 92164 B.
        QVERIFY(
            waitLoaded(w, QStringLiteral("module_0002.jit_step.sm_8.0_gpu_after_optimizations")));
        QCOMPARE(modules->count(), 4);
        QCOMPARE(modules->familyCount(), 1);
        QTreeWidget *tree = modules->tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QTreeWidgetItem *family = tree->topLevelItem(0);
        QCOMPARE(family->text(ModuleBrowser::ModuleColumn),
                 QStringLiteral("jit_step · 3 compiles"));
        QCOMPARE(family->childCount(), 3);
        QCOMPARE(family->toolTip(ModuleBrowser::HeldColumn),
                 QStringLiteral("the most one compile holds: 92164 bytes; all 3 compiles: "
                                "96806 bytes"));
        QVERIFY(family->isExpanded()); // the open compile is under it
        // The family row opens its largest compile; the filter keeps what matches.
        QCOMPARE(modules->fileAt(0), w.current().path);
        modules->setFilter(QStringLiteral("OTHER"));
        QVERIFY(family->isHidden());
        QVERIFY(!tree->topLevelItem(1)->isHidden());
        modules->setFilter(QStringLiteral("0003"));
        QVERIFY(!family->isHidden());
        int shown = 0;
        for (int i = 0; i < family->childCount(); ++i)
            shown += !family->child(i)->isHidden();
        QCOMPARE(shown, 1);
        modules->setFilter(QString());
        QVERIFY(!family->isHidden() && !tree->topLevelItem(1)->isHidden());
        // Only Holds and Live peak are shown at first, so the names keep the dock's width.
        QVERIFY(tree->isColumnHidden(ModuleBrowser::TotalColumn));
        QVERIFY(tree->isColumnHidden(ModuleBrowser::StepColumn));
        QVERIFY(!tree->isColumnHidden(ModuleBrowser::PeakColumn));

        // Tools ▸ Run Summary: the same folder as one run, the figures `summary` gives.
        QSignalSpy ready(w.runFlow(), &RunFlow::ready);
        RunSummaryView *run = w.runFlow()->show();
        QVERIFY(ready.wait(10000));
        QCOMPARE(run->functions()->topLevelItemCount(), 2);
        QTreeWidgetItem *top = run->functions()->topLevelItem(0);
        QCOMPARE(top->text(0), QStringLiteral("jit_step"));
        QCOMPARE(top->text(1), QStringLiteral("3"));
        QCOMPARE(top->toolTip(2), QStringLiteral("92164 bytes"));
        QCOMPARE(top->toolTip(3), QStringLiteral("96806 bytes"));
        // What kind of memory its largest compile holds, the most first, every category in
        // the tooltip, sorted by the largest's bytes (a module with no backward pass: inputs,
        // outputs, temporaries).
        QVERIFY2(!top->text(5).isEmpty() && top->text(5) != QStringLiteral("—"),
                 qPrintable(top->text(5)));
        QVERIFY(!top->icon(5).isNull());
        QVERIFY(top->toolTip(5).split(u'\n').size() >= 2);
        QVERIFY(top->data(5, Qt::UserRole + 1).toLongLong() > 0);
        QCOMPARE(run->modules()->topLevelItemCount(), 4);
        QCOMPARE(run->collectives()->topLevelItemCount(), 0);
        QVERIFY(run->summaryText().contains(QStringLiteral("4 modules of 2 functions")));
        // A row opens its module here: jit_other's only compile.
        Q_EMIT run->functions()->itemActivated(run->functions()->topLevelItem(1), 0);
        QVERIFY(
            waitLoaded(w, QStringLiteral("module_0004.jit_other.sm_8.0_gpu_after_optimizations")));
        // ...and keeps the run (issue 60: the folder was dropped for the one module): the
        // Modules dock and the next Run Summary still have the four.
        QCOMPARE(w.workspace()->run().modules.files.size(), 4);
        QCOMPARE(tree->topLevelItemCount(), 2);
        // A window as any dialog (issue 75): on the screen, a Close button, the Module column
        // as wide as its names, and Esc closes it.
        QVERIFY(run->screen()->availableGeometry().contains(run->frameGeometry()));
        const auto *buttons = run->findChild<QDialogButtonBox *>();
        QVERIFY(buttons && buttons->button(QDialogButtonBox::Close));
        run->modules()->setCurrentItem(run->modules()->topLevelItem(0));
        QVERIFY(run->modules()->columnWidth(0) >= run->modules()->fontMetrics().horizontalAdvance(
                                                      run->modules()->topLevelItem(0)->text(0)));
        QPointer<RunSummaryView> summaryWindow(run);
        run->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(run));
        QTest::keyClick(run->modules(), Qt::Key_Escape);
        QTRY_VERIFY(!summaryWindow);

        // File ▸ Compare With Another Run: the same folder with jit_step compiled twice, not
        // three times, and jit_other's temp allocation 5 grown 32 → 544 B: the jit_step compile
        // without a counterpart is gone, "compiled 3× before, 2× after", and jit_other changed
        // (+512 B held).
        QTemporaryDir other;
        QVERIFY(QFile::copy(testutil::sampleTruth("tpu_unstack").path(),
                            other.filePath(QStringLiteral("module_0001.jit_step.sm_8.0_gpu_after_"
                                                          "optimizations-buffer-assignment.txt"))));
        QVERIFY(QFile::copy(testutil::sampleTruth("tpu_random_normal").path(),
                            other.filePath(QStringLiteral("module_0002.jit_step.sm_8.0_gpu_after_"
                                                          "optimizations-buffer-assignment.txt"))));
        std::string grown =
            testutil::readFile(testutil::sampleTruth("tpu_dynamic_slice").path().toStdString());
        grown = testutil::replaceAll(grown, "allocation 5: size 32, preallocated-temp:",
                                     "allocation 5: size 544, preallocated-temp:");
        grown = testutil::replaceAll(grown, "Total bytes used: 18980 (18.5KiB)",
                                     "Total bytes used: 19492 (19.0KiB)");
        testutil::writeFile(other
                                .filePath(QStringLiteral("module_0004.jit_other.sm_8.0_gpu_after_"
                                                         "optimizations-buffer-assignment.txt"))
                                .toStdString(),
                            grown);
        QSignalSpy compared(w.runFlow(), &RunFlow::runsCompared);
        RunDiffView *runs = w.runFlow()->compareRuns(other.path());
        QVERIFY(compared.wait(20000));
        QStringList rows;
        for (int i = 0; i < runs->table()->topLevelItemCount(); ++i)
            rows << runs->table()->topLevelItem(i)->text(0) + QLatin1Char(':') +
                        runs->table()->topLevelItem(i)->text(1);
        // The largest change first: the gone compile holds more than 512 B.
        QCOMPARE(rows, QStringList(
                           {QStringLiteral("gone:jit_step"), QStringLiteral("changed:jit_other")}));
        QCOMPARE(runs->table()->topLevelItem(1)->text(2),
                 QStringLiteral("same inputs, another program"));
        QVERIFY2(
            runs->table()->topLevelItem(1)->text(7).startsWith(QStringLiteral("The live peak")),
            qPrintable(runs->table()->topLevelItem(1)->text(7)));
        // Double-click the changed compile: its two modules compared.
        CompareView *opened = nullptr;
        connect(&w, &MainWindow::compareOpened, this, [&](CompareView *v) { opened = v; });
        Q_EMIT runs->table()->itemActivated(runs->table()->topLevelItem(1), 0);
        QVERIFY(QTest::qWaitFor([&] { return opened != nullptr; }, 10000));
        QCOMPARE(opened->diff().why.heldAfter - opened->diff().why.heldBefore, 512);
        opened->close();
        QVERIFY2(runs->summaryText().contains(QStringLiteral("jit_step compiled 3× before, 2× "
                                                             "after")),
                 qPrintable(runs->summaryText()));
        QVERIFY2(runs->summaryText().contains(QStringLiteral("2 unchanged")),
                 qPrintable(runs->summaryText()));
        // The whole of why and what changed are in their cells, and Esc closes the window.
        QVERIFY(runs->table()->topLevelItem(0)->text(2).contains(
            QStringLiteral("no compile of the after run")));
        const QPointer<RunDiffView> closing(runs);
        runs->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(runs));
        QTest::keyClick(runs, Qt::Key_Escape);
        QTRY_VERIFY(!closing || !closing->isVisible());
    }

    // Tools ▸ Runtime Memory on the real capture (../shared/real/captures/tw003.xplane.pb): the
    // figures of tw003.memory-profile.md (tst_runtimememory checks them all), the device's
    // allocator first, XProf's five rows at the peak, and its chart exported as PNG and CSV.
    // With no capture open it says what to open.
    void runtimeMemoryWindow()
    {
        MainWindow w;
        w.show();
        {
            w.openPath(sample("gpu_decoder_layer"));
            QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
            RuntimeMemoryView *none = w.runFlow()->showRuntime();
            QVERIFY2(none->summaryText().contains(QStringLiteral("open a profiler capture")),
                     qPrintable(none->summaryText()));
            none->close();
        }
        const QString capture = QDir::cleanPath(
            QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real/captures/tw003.xplane.pb"));
        if (!QFile::exists(capture))
            QSKIP("../shared/real is not here: the real capture lives beside the repository, "
                  "which a user's clone does not have");
        QSignalSpy ready(w.runFlow(), &RunFlow::runtimeReady);
        w.openPaths({capture}); // as the command line opens it
        QTRY_VERIFY_WITH_TIMEOUT(!w.workspace()->run().isEmpty(), 20000);
        // Opening the capture shows its Runtime Memory window once its figures are read; the
        // captures without allocators' events (the other tests') show none.
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, 20000);
        RuntimeMemoryView *opened = w.findChild<RuntimeMemoryView *>();
        QVERIFY(opened);
        QVERIFY(opened->isVisible());
        QCOMPARE(opened->capture(), capture);
        opened->close();
        ready.clear();
        RuntimeMemoryView *view = w.runFlow()->showRuntime();
        QVERIFY(ready.wait(20000));
        QCOMPARE(view->allocators()->count(), 2);
        QCOMPARE(view->allocators()->currentText(), QStringLiteral("GPU_0_bfc"));
        QVERIFY2(view->summaryText().contains(QStringLiteral("peaked at 640.19MiB")),
                 qPrintable(view->summaryText()));
        QCOMPARE(view->liveAtPeak()->topLevelItemCount(), 5);
        QCOMPARE(view->liveAtPeak()->topLevelItem(0)->toolTip(0),
                 QStringLiteral("268436224 bytes"));
        QCOMPARE(view->liveAtPeak()->topLevelItem(0)->text(4),
                 QStringLiteral("unused preallocated device memory"));
        // Who made the three 128 MiB arrays (tst_runtimememory reads the capture by hand).
        // Each with its plan's allocation of that size (the capture holds the modules).
        QCOMPARE(view->liveAtPeak()->topLevelItem(1)->text(3),
                 QStringLiteral("jit_relu, allocation 0; jit_subtract, allocation 0; "
                                "jit_true_divide, allocation 0"));
        QVERIFY2(view->summaryText().contains(QStringLiteral(
                     "the run of jit_true_divide at the peak made 128.00MiB of the 128.00MiB its "
                     "plan allocates when it starts")),
                 qPrintable(view->summaryText()));
        // The peak's parts beside the plans: jit_true_divide, running, planned 128 MiB
        // (output − alias + temp) with 128.06 MiB of arguments (relu's 128 MiB output and
        // std's 64 KiB, both kept from earlier runs).
        QTreeWidget *parts = view->peakParts();
        QTreeWidgetItem *running = nullptr;
        for (int i = 0; i < parts->topLevelItemCount(); ++i)
            if (parts->topLevelItem(i)->text(0).startsWith(
                    QStringLiteral("made by the run of jit_true_divide")))
                running = parts->topLevelItem(i);
        QVERIFY(running);
        QCOMPARE(running->toolTip(2), QStringLiteral("134217728 bytes"));
        QCOMPARE(running->text(3), QStringLiteral("128.06MiB"));
        // A click on a row opens the module that made it with that allocation picked.
        // (The capture's largest module, which opening it shows, is on show first.)
        QTRY_VERIFY_WITH_TIMEOUT(w.current().dump, 20000);
        QTreeWidgetItem *arrays = view->liveAtPeak()->topLevelItem(1);
        QTest::mouseClick(view->liveAtPeak()->viewport(), Qt::LeftButton, {},
                          view->liveAtPeak()->visualItemRect(arrays).center());
        QTRY_VERIFY_WITH_TIMEOUT(w.current().path.contains(QStringLiteral("#jit_relu(")) &&
                                     !w.selection()->isFrozen(),
                                 20000);
        const Dump &relu = *w.workspace()->current().dump;
        const int picked = w.selection()->currentValue();
        QVERIFY(picked >= 0);
        QCOMPARE(relu.allocations[relu.values[static_cast<std::size_t>(picked)].allocation].index,
                 std::int64_t(0));
        QTemporaryDir dir;
        QString why;
        QVERIFY2(
            view->exportChart(dir.filePath(QStringLiteral("runtime.png")), ExportOptions(), &why),
            qPrintable(why));
        QVERIFY(QImageReader(dir.filePath(QStringLiteral("runtime.png"))).canRead());
        QVERIFY2(
            view->exportChart(dir.filePath(QStringLiteral("runtime.csv")), ExportOptions(), &why),
            qPrintable(why));
        QFile csv(dir.filePath(QStringLiteral("runtime.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 150); // the header and GPU_0_bfc's 75 + 75 events
        QCOMPARE(lines.front(), QByteArray("allocator,time_ps,bytes_in_use"));
        // The host's allocator: its one row.
        view->allocators()->setCurrentIndex(1);
        QCOMPARE(view->liveAtPeak()->topLevelItemCount(), 1);
        // Its 256-byte allocation was made in a run of jit_add, which the capture compiled
        // twice (jit_add(11) and jit_add(28)) with no host buffer of that size: neither is
        // chosen, and the Planned cell says so rather than "not in the capture".
        QCOMPARE(view->peakParts()->topLevelItemCount(), 1);
        QCOMPARE(view->peakParts()->topLevelItem(0)->text(2), QStringLiteral("none matches"));
        QVERIFY2(view->peakParts()->topLevelItem(0)->toolTip(2).contains(
                     QStringLiteral("holds 2 compiles of jit_add; the sizes")),
                 qPrintable(view->peakParts()->topLevelItem(0)->toolTip(2)));
        view->close();
    }
};

QTEST_MAIN(TestRunWindows)
#include "tst_runwindows.moc"
