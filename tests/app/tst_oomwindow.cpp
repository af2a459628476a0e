// The out-of-memory window: a log with its folder, the open run, two logs at once, pasted text.
#include "WindowTest.h"

class TestOomWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTestSettings("tst_oomwindow"); }

    // An out-of-memory log dropped with its dump folder (issue 40): its window lists the
    // buffers; the module is found (the 1311392-byte temp, the stats), opened, the two buffers
    // known exactly — loop_slice_fusion (id 200) and p5.18.0 (id 203) — selected, and the
    // allocator's Limit (933232640 B) drawn as the budget. tests/data/oom/make_oom.py.
    void oomLogWithItsFolder()
    {
        QTemporaryDir dir;
        QVERIFY(
            QFile::copy(sample("gpu_decoder_layer"),
                        dir.filePath(QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_"
                                                    "after_optimizations-buffer-assignment.txt"))));
        QVERIFY(
            QFile::copy(sample("gpu_vllm_update_slice"),
                        dir.filePath(QStringLiteral("module_0007.jit_update_slice.sm_8.0_gpu_"
                                                    "after_optimizations-buffer-assignment.txt"))));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QPointer<OomView> view;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { view = qobject_cast<OomView *>(shown); });
        drop(&w,
             {QUrl::fromLocalFile(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log")),
              QUrl::fromLocalFile(dir.path())});
        QTRY_VERIFY(view);
        QCOMPARE(view->table()->rowCount(), 4);
        QVERIFY(waitLoaded(w, QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_"
                                             "optimizations")));
        QTRY_COMPARE(w.usageChart()->budget(), qint64(933232640));
        const Dump &dump = *w.current().dump;
        QVector<int> expected{static_cast<int>(dump.findValueById(200)),
                              static_cast<int>(dump.findValueById(203))};
        QCOMPARE(w.selection()->highlightedGroup(), expected);
        QCOMPARE(w.selection()->currentValue(), expected.front());
        QVERIFY(view->moduleLabel()->text().contains(QStringLiteral("allocation 25")));
        QVERIFY(view->openButton()->isEnabled());
        // The table is largest first and says what each buffer is in the module.
        QCOMPARE(view->table()->item(0, 2)->text(), QStringLiteral("bf16[151936,1024]"));
        QCOMPARE(view->table()->item(0, 3)->text(), QStringLiteral("p5.18.0 (value 203)"));
        QVERIFY(
            view->table()->item(2, 3)->text().startsWith(QStringLiteral("unmatched: 2 values")));
        view->close();
    }

    // A log dropped alone weighs the run the window has open, not only the module on screen
    // (issue 75: the out-of-memory window counted only the open module): a folder of
    // jit_decoder_layer and jit_update_slice, jit_update_slice on screen, and the decoder's
    // log: both weighed, the decoder's module opened with its buffers and 933232640 B budget.
    void oomLogWeighsTheOpenRun()
    {
        QTemporaryDir dir;
        const QString decoder = dir.filePath(
            QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_optimizations-buffer-"
                           "assignment.txt"));
        const QString slice = dir.filePath(
            QStringLiteral("module_0007.jit_update_slice.sm_8.0_gpu_after_optimizations-buffer-"
                           "assignment.txt"));
        QVERIFY(QFile::copy(sample("gpu_decoder_layer"), decoder));
        QVERIFY(QFile::copy(sample("gpu_vllm_update_slice"), slice));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({dir.path()});
        QTRY_VERIFY_WITH_TIMEOUT(w.workspace()->run().modules.files.size() == 2 && w.current().dump,
                                 20000);
        w.openPath(slice);
        QVERIFY(waitLoaded(
            w, QStringLiteral("module_0007.jit_update_slice.sm_8.0_gpu_after_optimizations")));
        QCOMPARE(w.workspace()->run().modules.files.size(), 2);
        QPointer<OomView> view;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { view = qobject_cast<OomView *>(shown); });
        drop(&w, {QUrl::fromLocalFile(
                     QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log"))});
        QTRY_VERIFY(view);
        QTRY_VERIFY(!view->isWeighing());
        QCOMPARE(view->findings().dumpsGiven, std::int64_t{2});
        QVERIFY(waitLoaded(w, QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_after_"
                                             "optimizations")));
        QTRY_COMPARE(w.usageChart()->budget(), qint64(933232640));
        QVERIFY(view->moduleLabel()->text().contains(QStringLiteral("allocation 25")));
        view->close();
    }

    // Two logs dropped at once with their folder (issue 50, item 3: both windows waited on the
    // broadcast result, the newer request cancelled the older, and the first window showed the
    // second log's findings): each window gets its own log's, weighed.
    void twoOomLogsAtOnce()
    {
        QTemporaryDir dir;
        QVERIFY(
            QFile::copy(sample("gpu_decoder_layer"),
                        dir.filePath(QStringLiteral("module_0003.jit_decoder_layer.sm_8.0_gpu_"
                                                    "after_optimizations-buffer-assignment.txt"))));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QList<QPointer<OomView>> views;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { views << qobject_cast<OomView *>(shown); });
        const QString gpu = QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log");
        const QString tpu = QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/tpu-hbm-unstack.log");
        drop(&w,
             {QUrl::fromLocalFile(gpu), QUrl::fromLocalFile(tpu), QUrl::fromLocalFile(dir.path())});
        QTRY_COMPARE(views.size(), 2);
        for (const QPointer<OomView> &v : views)
            QTRY_VERIFY_WITH_TIMEOUT(v && !v->isWeighing() && v->findings().withDumps, 10000);
        QStringList files;
        for (const QPointer<OomView> &v : views)
            files << QString::fromStdString(v->findings().file);
        files.sort();
        QCOMPARE(files, (QStringList{gpu, tpu}));
        // The GPU log's window found its module (the decoder layer), the TPU one's did not.
        for (const QPointer<OomView> &v : views) {
            const bool isGpu = QString::fromStdString(v->findings().file) == gpu;
            QCOMPARE(v->findings().messages.front().chosen >= 0, isGpu);
            v->close();
        }
    }

    // A log dropped with a folder none of whose modules it fits (issue 49, item 7): the window
    // says which modules are listed and how many more were ruled out, and the main window opens
    // the folder as it would alone instead of staying empty.
    void oomLogWithAnotherFolder()
    {
        QTemporaryDir dir;
        int n = 0;
        for (const char *name : {"gpu_vllm_update_slice", "tpu_dynamic_slice", "tpu_random_normal",
                                 "tpu_unstack", "gpu_vllm_update_slice"})
            QVERIFY(QFile::copy(sample(name),
                                dir.filePath(QStringLiteral("module_%1.jit_f.sm_8.0_gpu_after_"
                                                            "optimizations-buffer-assignment.txt")
                                                 .arg(++n, 4, 10, QLatin1Char('0')))));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QPointer<OomView> view;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { view = qobject_cast<OomView *>(shown); });
        drop(&w,
             {QUrl::fromLocalFile(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-bfc-decoder.log")),
              QUrl::fromLocalFile(dir.path())});
        QTRY_VERIFY(view);
        QTRY_VERIFY(!view->isWeighing());
        const QString text = view->moduleLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("none of the 5 modules fits")) &&
                     text.contains(QStringLiteral("The 4 nearest")) &&
                     text.contains(QStringLiteral("and 1 more")),
                 qPrintable(text));
        QVERIFY(!view->openButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(w.current().dump && !w.current().isEmbedded(), 10000);
        view->close();
    }

    // The 2026 TPU early abort names its module (`HLO module: jit_fwd_bwd.`, issue 59): dropped
    // with a folder of TPU modules while another dump is on screen, the window finds the
    // module by that name, opens it in place of the one shown, draws the 94.74G available as the
    // budget, and says both of the platform's checks.
    void oomEarlyAbortOpensItsModule()
    {
        QTemporaryDir dir;
        const QString suffix = QStringLiteral(".cl_854318611.after_optimizations");
        QVERIFY(QFile::copy(sample("tpu_unstack"),
                            dir.filePath(QStringLiteral("module_0042.jit_fwd_bwd") + suffix +
                                         QStringLiteral("-buffer-assignment.txt"))));
        QVERIFY(QFile::copy(sample("tpu_random_normal"),
                            dir.filePath(QStringLiteral("module_0041.jit_fwd") + suffix +
                                         QStringLiteral("-buffer-assignment.txt"))));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("gpu_decoder_layer")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        QPointer<OomView> view;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { view = qobject_cast<OomView *>(shown); });
        drop(&w, {QUrl::fromLocalFile(
                      QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/tpu-2026-early-abort-named.log")),
                  QUrl::fromLocalFile(dir.path())});
        QTRY_VERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isWeighing() && view->findings().withDumps, 10000);
        QCOMPARE(view->findings().messages.front().chosen, 0);
        QVERIFY(waitLoaded(w, QStringLiteral("module_0042.jit_fwd_bwd") + suffix));
        // 94.74G as libtpu prints it: within 0.005 GiB of 94.74 GiB.
        QTRY_VERIFY(std::llabs(w.usageChart()->budget() -
                               qint64(94.74 * double(qint64(1) << 30))) <= (qint64(1) << 30) / 200);
        const QString text = view->moduleLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("Compile time (TPU)")) &&
                     text.contains(QStringLiteral("Run time")) &&
                     text.contains(QStringLiteral("HLO module, jit_fwd_bwd")),
                 qPrintable(text));
        view->close();
    }

    // Dropped with a folder that does not hold its module while a dump is on screen: the main
    // window does not stay on that dump as if it were the message's (issue 59); the folder
    // opens as it would alone, and the status bar says none is the message's.
    void oomFolderWithoutItsModuleKeepsNothingStale()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(sample("tpu_random_normal"),
                            dir.filePath(QStringLiteral("module_0041.jit_fwd.cl_854318611.after_"
                                                        "optimizations-buffer-assignment.txt"))));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("gpu_decoder_layer")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        QPointer<OomView> view;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { view = qobject_cast<OomView *>(shown); });
        drop(&w, {QUrl::fromLocalFile(
                      QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/tpu-2026-early-abort-named.log")),
                  QUrl::fromLocalFile(dir.path())});
        QTRY_VERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isWeighing() && view->findings().withDumps, 10000);
        QVERIFY(view->findings().messages.front().chosen < 0);
        QVERIFY(
            waitLoaded(w, QStringLiteral("module_0041.jit_fwd.cl_854318611.after_optimizations")));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("No module of the 1")),
                 qPrintable(w.statusBar()->currentMessage()));
        view->close();
    }

    // Pasted (Edit ▸ Paste, Ctrl+V): the one-line GPU error opens; nothing else does.
    void oomMessagePasted()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QPointer<OomView> view;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { view = qobject_cast<OomView *>(shown); });
        QGuiApplication::clipboard()->setText(QStringLiteral("hello"));
        w.pasteFromClipboard();
        QVERIFY(!view);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("no out-of-memory")));
        QGuiApplication::clipboard()->setText(QStringLiteral(
            "\x1b[31mE1125 10:01:02.1 27487 client.cc:3000] RESOURCE_EXHAUSTED: Out of memory "
            "while trying to allocate 1311392 bytes. "
            "[executable_name='jit_decoder_layer']\x1b[0m"));
        w.pasteFromClipboard();
        QTRY_VERIFY(view);
        QVERIFY(view->findings().log.messages.front().requested == 1311392);
        QVERIFY(view->table()->isColumnHidden(3)); // nothing weighed: no "In the module"
        view->close();
    }

    // A fragment and a figure cut by a line break: the window says so, as `oom` does, and a
    // cut size is "?", never its first digits.
    void oomCutTextSaysSo()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QList<QPointer<OomView>> views;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { views << qobject_cast<OomView *>(shown); });
        drop(&w, {QUrl::fromLocalFile(
                     QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/gpu-fragment-cut.log"))});
        QTRY_COMPARE(views.size(), 1);
        const QString fragment = views[0]->summaryLabel()->text();
        QVERIFY2(fragment.contains(QStringLiteral("starts inside this message")),
                 qPrintable(fragment));
        QVERIFY(fragment.contains(QStringLiteral("its list starts at entry 3.")));
        QCOMPARE(views[0]->table()->rowCount(), 2);
        QCOMPARE(views[0]->table()->item(1, 1)->text(), QStringLiteral("?"));
        QVERIFY(
            views[0]->table()->item(1, 1)->toolTip().contains(QStringLiteral("\u201c768\u201d")));
        views[0]->close();

        // The exact count cut at the end of a line disagrees with the rounded one.
        QGuiApplication::clipboard()->setText(QStringLiteral(
            "Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.97GiB (rounded to "
            "2110783744)requested by op\nRESOURCE_EXHAUSTED: Out of memory while trying to "
            "allocate 21107\n83616 bytes.\n"));
        w.pasteFromClipboard();
        QTRY_COMPARE(views.size(), 2);
        const QString doubt = views[1]->summaryLabel()->text();
        QVERIFY2(doubt.contains(QStringLiteral("Uncertain: ")), qPrintable(doubt));
        QVERIFY(!fragment.contains(QStringLiteral("Uncertain")));
        views[1]->close();
    }
};

QTEST_MAIN(TestOomWindow)
#include "tst_oomwindow.moc"
