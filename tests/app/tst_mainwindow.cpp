// The main window as a user drives it: drops, folders, tables, keyboard, layout, errors.
#include "WindowTest.h"

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTestSettings("tst_mainwindow"); }

    // One rule for where dialogs start (issue 49, item 8: File ▸ Open and the out-of-memory
    // dialog started in the working directory, Compare in the dump's folder, and exports
    // proposed the dump's often read-only folder and forgot the last one).
    void dialogsStartWhereTheUserWas()
    {
        QSettings().clear();
        QTemporaryDir dumps;
        QTemporaryDir reports;
        QCOMPARE(DialogFolders::openFolder(), QDir::homePath());
        QCOMPARE(DialogFolders::openFolder(dumps.path()), dumps.path()); // the shown dump's
        // Opening a dump remembers its folder for every open dialog.
        const QString copy = dumps.filePath(QStringLiteral("tpu_unstack.buffer-assignment.txt"));
        QVERIFY(QFile::copy(sample("tpu_unstack"), copy));
        MainWindow w;
        w.show();
        w.openPaths({copy});
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QCOMPARE(DialogFolders::openFolder(QDir::homePath()), QFileInfo(copy).absolutePath());
        // Saves start apart from the dump's folder, then where the last save went.
        QVERIFY(DialogFolders::saveFolder() != QFileInfo(copy).absolutePath());
        DialogFolders::rememberSaved(reports.filePath(QStringLiteral("usage.png")));
        QCOMPARE(DialogFolders::saveFolder(), QFileInfo(reports.path()).absoluteFilePath());
        QCOMPARE(DialogFolders::savePath(QStringLiteral("gantt.svg")),
                 QDir(reports.path()).filePath(QStringLiteral("gantt.svg")));
        QSettings().clear();
    }

    void dropOpensFile()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(drop(&w, {QUrl::fromLocalFile(sample("tpu_unstack"))}));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("tpu_unstack")));
        // The current step starts at the peak (docs/FORMAT.md Part A table: step 1).
        QCOMPARE(w.selection()->currentStep(), qint64(1));
        QCOMPARE(w.recentFiles().value(0), QFileInfo(sample("tpu_unstack")).absoluteFilePath());
    }

    // The status line's live peak is the device's, as the Modules dock, list and summary give
    // it: tpu_random_normal's S(0), S(1) and S(6) at step 15, 19,968 bytes by hand
    // (SampleTruth::deviceBytes), not S(0)'s 17,920.
    void statusGivesTheDevicesPeak()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPath(sample("tpu_random_normal"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_random_normal")));
        const testutil::SampleTruth &t = testutil::sampleTruth("tpu_random_normal");
        QString said;
        for (const QLabel *label : w.statusBar()->findChildren<QLabel *>())
            if (label->text().startsWith(QStringLiteral("total ")))
                said = label->text();
        QVERIFY2(said.contains(QStringLiteral("live peak %1 at step %2")
                                   .arg(humanBytesText(t.deviceBytes))
                                   .arg(t.deviceStep)),
                 qPrintable(said));
    }

    // An error is the window's (issue 60: the window printed it through the command line's
    // fail): a message box, and a signal a headless host follows. --screenshot says it on
    // stderr, each line made safe for a terminal, and exits 2.
    void errorsAreTheWindows()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::errorShown);
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("gone\x1b[2J-buffer-assignment.txt"));
        w.openPaths({missing});
        QTRY_COMPARE(shown.count(), 1);
        QVERIFY2(shown.front().front().toString().contains(missing),
                 qPrintable(shown.front().front().toString()));
        const testutil::CliRun shot = testutil::runBufferscope(
            {missing, QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png"))});
        QCOMPARE(shot.code, 2);
        QVERIFY2(shot.err.contains("gone"), shot.err.constData());
        QVERIFY2(!shot.err.contains('\x1b'), shot.err.constData());
        for (QWidget *box : QApplication::topLevelWidgets())
            if (qobject_cast<QMessageBox *>(box))
                box->close();
    }

    // Open Recent records a run as what was opened (issue 60): a profiler capture, whose
    // modules are no files of their own, is there, and its entry is enabled.
    void recentRecordsRuns()
    {
        QSettings().remove(QStringLiteral("recentFiles"));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString capture =
            QStringLiteral(BUFFERSCOPE_TEST_DATA
                           "/binary/profile/plugins/profile/2026_11_27_23_00_00/host0.xplane.pb");
        QSignalSpy shown(&w, &MainWindow::dumpShown);
        w.openPaths({capture});
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 20000); // finishShowing has recorded it
        QTRY_VERIFY(w.recentFiles().contains(QFileInfo(capture).absoluteFilePath()));
        // The member shown is no entry of its own (issue 74: `host0.xplane.pb#jit_…(12)` was
        // kept, its joined address split again to open it): the capture is the one entry.
        QCOMPARE(w.recentFiles(), QStringList{QFileInfo(capture).absoluteFilePath()});
        QMenu *recent = nullptr;
        for (QMenu *m : w.findChildren<QMenu *>())
            if (m->title() == QStringLiteral("Open &Recent"))
                recent = m;
        QVERIFY(recent);
        QMetaObject::invokeMethod(recent, "aboutToShow");
        int enabled = 0;
        for (QAction *a : recent->actions())
            if (a->text().contains(QStringLiteral("xplane.pb")))
                enabled += a->isEnabled() ? 1 : -100;
        QVERIFY2(enabled >= 1, qPrintable(w.recentFiles().join(QLatin1Char('\n'))));

        // Two runs' folders of one name (issue 75: two identical "xla_dump/" lines), one of
        // them kept twice as `xla_dump/` and `xla_dump`, and a name with a '&': one line per
        // place, no two alike, the '&' shown as itself.
        QTemporaryDir dir;
        for (const char *sub : {"r1/xla_dump", "r2/xla_dump", "a&b"})
            QVERIFY(QDir(dir.path()).mkpath(QLatin1String(sub)));
        QSettings().setValue(QStringLiteral("recentFiles"),
                             QStringList{dir.filePath(QStringLiteral("r1/xla_dump/")),
                                         dir.filePath(QStringLiteral("r1/xla_dump")),
                                         dir.filePath(QStringLiteral("r2/./xla_dump")),
                                         dir.filePath(QStringLiteral("a&b"))});
        QCOMPARE(w.recentFiles().size(), 3);
        QMetaObject::invokeMethod(recent, "aboutToShow");
        QStringList lines;
        for (QAction *a : recent->actions())
            if (!a->isSeparator() && a->text() != QStringLiteral("Clear List"))
                lines << a->text();
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.removeDuplicates(), 0);
        QVERIFY2(lines[0].startsWith(QStringLiteral("xla_dump/  ")), qPrintable(lines[0]));
        QVERIFY2(lines[0].endsWith(QStringLiteral("r1")), qPrintable(lines[0]));
        QVERIFY2(lines[1].endsWith(QStringLiteral("r2")), qPrintable(lines[1]));
        QCOMPARE(lines[2], QStringLiteral("a&&b/"));
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    void viewsAreFilledBeforeTheDumpIsCurrent()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("tpu_unstack"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        const auto before = w.current().dump;
        // When the load job delivers, the views are handed the new dump over several turns of
        // the event loop; until all have it the selection is frozen and clicks are not taken.
        bool checked = false;
        connect(w.workspace(), &Workspace::dumpChanged, this, [&] {
            QVERIFY(w.current().dump != before);
            QVERIFY(w.selection()->isFrozen());
            w.selection()->setCurrentValue(1);
            QCOMPARE(w.selection()->currentValue(), -1);
            checked = true;
        });
        QSignalSpy shown(&w, &MainWindow::dumpShown);
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(shown.wait(10000));
        QVERIFY(checked);
        QCOMPARE(w.current().dump->module, std::string("gpu_decoder_layer"));
        QCOMPARE(w.selection()->currentValue(), -1);
        QCOMPARE(w.gantt()->highlightedValue(), -1);
        QCOMPARE(w.selection()->currentStep(), qint64(58)); // the peak (docs/FORMAT.md Part A)
        QCOMPARE(w.gantt()->rowCount(),
                 static_cast<int>(std::count_if(w.current().dump->values.begin(),
                                                w.current().dump->values.end(),
                                                [](const Value &v) { return v.hasLiveRange(); })));
    }

    void newestLoadWinsAndCancelKeepsTheDump()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("tpu_unstack"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QSignalSpy finished(w.workspace(), &Workspace::loaded);
        QSignalSpy cancelled(w.workspace(), &Workspace::loadCancelled);
        QSignalSpy shown(&w, &MainWindow::dumpShown);
        // A second file opened while the first loads: only the second is ever delivered.
        w.openPath(sample("gpu_decoder_layer"));
        w.openPath(sample("tpu_random_normal"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_random_normal")));
        QVERIFY(w.workspace()->jobs()->waitForDone()); // a late delivery would have come
        QCOMPARE(finished.count(), 1);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(cancelled.count(), 0);
        QCOMPARE(w.current().dump->module, std::string("tpu_random_normal"));
        // Cancel: the dump shown stays, the status says so. (The load itself: opening a path
        // finds what it is on a job first.)
        w.workspace()->load(sample("gpu_decoder_layer"));
        QVERIFY(w.workspace()->isLoading());
        w.workspace()->cancelLoad();
        QTRY_COMPARE(cancelled.count(), 1);
        QVERIFY(!w.workspace()->isLoading());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(w.current().dump->module, std::string("tpu_random_normal"));
    }

    void progressSaysBytesAndTimeLeft()
    {
        QCOMPARE(LoadStatus::progressText(0, 0, 0), QStringLiteral("reading…"));
        // Too early for a rate: bytes only.
        QCOMPARE(LoadStatus::progressText(1 << 20, 4 << 20, 100),
                 QStringLiteral("1.00MiB of 4.00MiB"));
        // A quarter in 2 s: 6 s to go.
        QCOMPARE(LoadStatus::progressText(1 << 20, 4 << 20, 2000),
                 QStringLiteral("1.00MiB of 4.00MiB · about 6 s left"));
        QCOMPARE(LoadStatus::progressText(99 << 20, 100 << 20, 2000),
                 QStringLiteral("99.00MiB of 100.00MiB · under a second left"));
        QCOMPARE(LoadStatus::progressText(100 << 20, 100 << 20, 2000),
                 QStringLiteral("100.00MiB read · analysing…"));
    }

    // Issue 35, item 26: a file dropped anywhere in the window opens, whatever lies under the
    // pointer — a chart, a table, the Values filter (a text field that would take a file
    // manager's text/plain as typed text), the inspector's instruction text — and a drop of
    // something that is neither a file nor a folder is refused, never half-taken.
    void dropOpensOverEveryView()
    {
        QSettings().clear();
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto dockWidget = [&w](const char *name) {
            return w.findChild<QDockWidget *>(QString::fromLatin1(name))->widget();
        };
        QLineEdit *filter = w.findChild<ValueTableView *>()->findChild<QLineEdit *>();
        QPlainTextEdit *text = w.findChild<ValueInspector *>()->findChild<QPlainTextEdit *>();
        struct Target
        {
            const char *dock;
            QWidget *over; // in that dock; null: the dock's middle
            const char *dump;
        };
        const Target targets[] = {
            {"UsageDock", nullptr, "tpu_unstack"},
            {"GanttDock", nullptr, "tpu_dynamic_slice"},
            {"ValuesDock", w.findChild<ValueTableView *>()->findChild<QTableView *>(),
             "gpu_vllm_update_slice"},
            {"ValuesDock", filter, "tpu_random_normal"},
            {"InspectorDock", text, "tpu_unstack"},
            {"InstructionsDock", nullptr, "gpu_vllm_update_slice"},
        };
        for (const Target &t : targets) {
            w.findChild<QDockWidget *>(QString::fromLatin1(t.dock))->raise();
            QWidget *over = t.over ? t.over : dockWidget(t.dock);
            QTRY_VERIFY2(!over->visibleRegion().isEmpty(), t.dock);
            QVERIFY2(drop(&w, {QUrl::fromLocalFile(sample(t.dump))}, over),
                     qPrintable(QStringLiteral("over %1 in %2")
                                    .arg(QLatin1String(over->metaObject()->className()),
                                         QLatin1String(t.dock))));
            QVERIFY2(waitLoaded(w, QString::fromLatin1(t.dump)), t.dump);
        }
        QVERIFY2(filter->text().isEmpty(), qPrintable(filter->text())); // not typed into it
        // A web address is not a file: refused, the dump stays.
        QVERIFY(!drop(&w, {QUrl(QStringLiteral("https://example.com/x-buffer-assignment.txt"))},
                      dockWidget("InstructionsDock")));
        QCOMPARE(QString::fromStdString(w.current().dump->module),
                 QStringLiteral("gpu_vllm_update_slice"));
        QSettings().clear();
    }

    // Issue 35, item 12: selecting a value with a long name keeps every dock where it was (the
    // right-hand column used to widen to the name and make every chart jump).
    void selectingKeepsTheLayout()
    {
        QSettings().clear();
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("gpu_vllm_update_slice")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_vllm_update_slice")));
        QApplication::processEvents();
        const auto geometries = [&w] {
            QList<QRect> out;
            for (QDockWidget *dock : w.docks())
                out << dock->geometry();
            return out;
        };
        const QList<QRect> before = geometries();
        // Value 528: loop_broadcast_dynamic_update_slice_fusion{0}, 46 characters.
        w.selection()->setCurrentValue(static_cast<int>(w.current().dump->findValueById(528)));
        QApplication::processEvents();
        QTest::qWait(50);
        QCOMPARE(geometries(), before);
        QSettings().clear();
    }

    // A window made small and large again gets its arrangement back (issue 75): QMainWindow
    // hands all the grown width to one column, so the right-hand docks kept the small window's
    // squeeze (the inspector 213 px at 895 px wide stayed ~680 px at 1366, the charts lost
    // 270 px). A separator the user drags is the new arrangement.
    void smallWindowRestores()
    {
        QSettings().clear();
        MainWindow w;
        w.resize(1366, 740);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto settle = [] {
            for (int k = 0; k < 5; ++k) {
                QApplication::processEvents();
                QTest::qWait(20);
            }
        };
        settle();
        auto *usage = w.findChild<QDockWidget *>(QStringLiteral("UsageDock"));
        auto *inspector = w.findChild<QDockWidget *>(QStringLiteral("InspectorDock"));
        const QSize usageBefore = usage->size();
        const QSize inspectorBefore = inspector->size();
        w.resize(900, 480);
        settle();
        QVERIFY(inspector->width() < inspectorBefore.width());
        w.resize(1366, 740);
        settle();
        const auto near = [](QSize a, QSize b) {
            return std::abs(a.width() - b.width()) <= 12 && std::abs(a.height() - b.height()) <= 12;
        };
        QVERIFY2(near(usage->size(), usageBefore) && near(inspector->size(), inspectorBefore),
                 qPrintable(QStringLiteral("usage %1x%2 (was %3x%4), inspector %5x%6 (was %7x%8)")
                                .arg(usage->width())
                                .arg(usage->height())
                                .arg(usageBefore.width())
                                .arg(usageBefore.height())
                                .arg(inspector->width())
                                .arg(inspector->height())
                                .arg(inspectorBefore.width())
                                .arg(inspectorBefore.height())));
        // The user's own split: the separator between the columns dragged 150 px left, as a
        // user drags it (it is the window's own, not a child's), kept through a small window.
        const int gap = (usage->geometry().right() + inspector->geometry().left()) / 2;
        const QPoint grip(gap, usage->geometry().center().y());
        const int wider = inspector->width() + 150;
        QTest::mousePress(w.windowHandle(), Qt::LeftButton, {}, grip);
        for (int dx = 10; dx <= 150; dx += 10)
            QTest::mouseMove(w.windowHandle(), grip - QPoint(dx, 0));
        QTest::mouseRelease(w.windowHandle(), Qt::LeftButton, {}, grip - QPoint(150, 0));
        settle();
        const int chosen = inspector->width();
        QVERIFY2(std::abs(chosen - wider) <= 12, qPrintable(QString::number(chosen)));
        w.resize(900, 480);
        settle();
        w.resize(1366, 740);
        settle();
        QVERIFY2(std::abs(inspector->width() - chosen) <= 12,
                 qPrintable(QString::number(inspector->width())));
        w.close();
        QSettings().clear();
    }

    // A function whose name holds "%1" and "%2" (a file may be called anything): every label
    // shows it as it is, not with a count put in for "%2" (issue 74).
    void namesWithPlaceholders()
    {
        QTemporaryDir dir;
        for (const char *stem : {"module_0001.jit_%2f%1", "module_0002.jit_%2f%1"})
            QVERIFY(QFile::copy(
                testutil::sampleTruth("tpu_unstack").path(),
                dir.filePath(QLatin1String(stem) + QStringLiteral(".sm_8.0_gpu_after_optimizations-"
                                                                  "buffer-assignment.txt"))));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(drop(&w, {QUrl::fromLocalFile(dir.path())}));
        QTRY_VERIFY_WITH_TIMEOUT(w.current().dump && !w.selection()->isFrozen(), 20000);
        QVERIFY2(QString::fromStdString(w.current().dump->module)
                     .contains(QStringLiteral(".jit_%2f%1.")),
                 w.current().dump->module.c_str());
        QTreeWidget *tree = w.modules()->tree();
        QTRY_COMPARE_WITH_TIMEOUT(tree->topLevelItemCount(), 1, 20000);
        QTreeWidgetItem *family = tree->topLevelItem(0);
        QCOMPARE(family->text(ModuleBrowser::ModuleColumn),
                 QStringLiteral("jit_%2f%1 · 2 compiles"));
        QVERIFY2(family->toolTip(ModuleBrowser::ModuleColumn)
                     .contains(QStringLiteral("jit_%2f%1: compiled 2 times")),
                 qPrintable(family->toolTip(ModuleBrowser::ModuleColumn)));
    }

    void dropFolderListsModules()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(drop(&w, {QUrl::fromLocalFile(QStringLiteral(BUFFERSCOPE_TEST_DATA))}));
        ModuleBrowser *modules = w.modules();
        // The modules are read for their figures first, then the one the device holds most for
        // opens (not the largest file, gpu_vllm_update_slice's 45826 bytes).
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        QVERIFY(!modules->isScanning());
        QCOMPARE(modules->count(), 5);
        // Sorted by what the device holds while each runs, largest first: argument + output -
        // alias + temp, summed by hand from the allocation lines (tests/SampleTruths.h).
        std::vector<testutil::SampleTruth> byHeld(testutil::kSampleTruths.begin(),
                                                  testutil::kSampleTruths.end());
        std::sort(byHeld.begin(), byHeld.end(),
                  [](const auto &a, const auto &b) { return a.held > b.held; });
        QStringList order;
        for (const testutil::SampleTruth &t : byHeld)
            order << QString::fromLatin1(t.name);
        QTreeWidget *tree = modules->tree();
        for (int r = 0; r < order.size(); ++r)
            QCOMPARE(tree->topLevelItem(r)->text(ModuleBrowser::ModuleColumn), order[r]);
        QTreeWidgetItem *decoder = tree->topLevelItem(0);
        const testutil::SampleTruth &d = testutil::sampleTruth("gpu_decoder_layer");
        QCOMPARE(decoder->toolTip(ModuleBrowser::TotalColumn),
                 QStringLiteral("%1 bytes").arg(d.total));
        QCOMPARE(decoder->toolTip(ModuleBrowser::HeldColumn),
                 QStringLiteral("%1 bytes").arg(d.held));
        QCOMPARE(decoder->toolTip(ModuleBrowser::PeakColumn),
                 QStringLiteral("%1 bytes").arg(d.peakBytes));
        QCOMPARE(decoder->text(ModuleBrowser::StepColumn), QString::number(d.peakStep));
        // Files is hidden at first, and shown from the header's menu.
        QVERIFY(tree->isColumnHidden(ModuleBrowser::FilesColumn));
        const QList<QAction *> columns = tree->header()->actions();
        QCOMPARE(columns.size(), 5);
        QCOMPARE(columns.back()->text(), QStringLiteral("Show Files"));
        columns.back()->trigger();
        QVERIFY(!tree->isColumnHidden(ModuleBrowser::FilesColumn));
        QCOMPARE(decoder->text(ModuleBrowser::FilesColumn), QStringLiteral("1"));
        // docs/FORMAT.md Part A: total 1522, peak 1210 at step 68.
        QTreeWidgetItem *vllm = tree->topLevelItem(4);
        QCOMPARE(vllm->toolTip(ModuleBrowser::TotalColumn), QStringLiteral("1522 bytes"));
        QCOMPARE(vllm->toolTip(ModuleBrowser::HeldColumn), QStringLiteral("1506 bytes"));
        QCOMPARE(vllm->toolTip(ModuleBrowser::PeakColumn), QStringLiteral("1210 bytes"));
        QCOMPARE(vllm->text(ModuleBrowser::StepColumn), QStringLiteral("68"));
        // The open module is bold, and the status line says which it is; no other holds more.
        QTRY_VERIFY(decoder->font(ModuleBrowser::ModuleColumn).bold());
        QVERIFY(!vllm->font(ModuleBrowser::ModuleColumn).bold());
        QString status = modules->findChild<QLabel *>()->text();
        QVERIFY2(status.contains(QStringLiteral("Open (bold): gpu_decoder_layer")),
                 qPrintable(status));
        QVERIFY2(!status.contains(QStringLiteral("The device holds most for")), qPrintable(status));
        // Opening another says which one the device holds most for (issue 35, item 2).
        w.openPath(modules->fileAt(4));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_vllm_update_slice")));
        QTRY_VERIFY(vllm->font(ModuleBrowser::ModuleColumn).bold());
        status = modules->findChild<QLabel *>()->text();
        QVERIFY2(status.contains(QStringLiteral("Open (bold): gpu_vllm_update_slice")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("holds most for gpu_decoder_layer")),
                 qPrintable(status));
        // The status line names modules (long names) but wraps: it never makes the dock, and
        // so the window, wider (one line of it had made a 1366-pixel window 2234 pixels wide).
        QVERIFY2(modules->minimumSizeHint().width() < 400,
                 qPrintable(QStringLiteral("the Modules dock needs %1 px")
                                .arg(modules->minimumSizeHint().width())));
        // The dock says how to open one (issue 35, item 23).
        QVERIFY2(modules->findChild<QLabel *>()->text().contains(QStringLiteral("double-click")),
                 qPrintable(modules->findChild<QLabel *>()->text()));
        // Double-click (activation) opens a module.
        Q_EMIT tree->itemActivated(tree->topLevelItem(1), 0);
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_random_normal")));
    }

    void tableSelectsEverywhere()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        QTableView *table = w.valueTable()->table();
        // Find fusion.40's row through the proxy and click it.
        const int value = static_cast<int>(w.current().dump->findValue("fusion.40"));
        QModelIndex target;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QModelIndex i = table->model()->index(r, 1);
            if (i.data(ValueIndexRole).toInt() == value)
                target = i;
        }
        QVERIFY(target.isValid());
        table->scrollTo(target);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(target).center());
        // Within the same event-loop turn, every view shows it.
        QCOMPARE(w.selection()->currentValue(), value);
        QCOMPARE(w.usageChart()->highlightedValue(), value);
        QCOMPARE(w.gantt()->highlightedValue(), value);
        QCOMPARE(w.memoryMap()->highlightedValue(), value);
        QCOMPARE(w.inspector()->shownValue(), value);
        QCOMPARE(w.allocationTree()->currentIndex().data(ValueIndexRole).toInt(), value);
        // The step moved into its live range (36..37) and the instruction table follows.
        QCOMPARE(w.selection()->currentStep(), qint64(36));
        QCOMPARE(w.instructionTable()->currentIndex().row(), 36);
        // Inspector links select steps.
        w.inspector()->activateLink(QUrl(QStringLiteral("step:37")));
        QCOMPARE(w.selection()->currentStep(), qint64(37));
        QCOMPARE(w.instructionTable()->currentIndex().row(), 37);
        // The filter box: typing filters once the keys stop, and selects nothing else.
        QLineEdit *filter = w.valueTable()->filterEdit();
        filter->setText(QStringLiteral("WRAPPED_SLICE"));
        int matching = 0;
        for (int r = 0; r < static_cast<int>(w.current().dump->values.size()); ++r) {
            const std::string name(
                w.current().dump->valueName(w.current().dump->values[static_cast<std::size_t>(r)]));
            matching += name.find("wrapped_slice") != std::string::npos;
        }
        QVERIFY(matching > 1);
        QTRY_COMPARE(table->model()->rowCount(), matching);
        QCOMPARE(w.selection()->currentValue(), value); // filtering selects nothing else
        // Enter applies it at once and selects the first match (Find, then Enter).
        QTest::keyClick(filter, Qt::Key_Return);
        QCOMPARE(w.selection()->currentValue(),
                 table->model()->index(0, 0).data(ValueIndexRole).toInt());
        filter->clear();
        QTest::keyClick(filter, Qt::Key_Return);
        QCOMPARE(table->model()->rowCount(), static_cast<int>(w.current().dump->values.size()));
        // Alt+Right steps the program order anywhere in the window; Esc clears the value.
        const qint64 before = w.selection()->currentStep();
        QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(w.selection()->currentStep(), before + 1);
        QTest::keyClick(&w, Qt::Key_Escape);
        QCOMPARE(w.selection()->currentValue(), -1);
        QCOMPARE(w.gantt()->highlightedValue(), -1);
    }

    void layoutFitsTheScreen()
    {
        // Run on a 1920x1080 screen with the rest, and alone on a 1366x768 one
        // (tst_mainwindow_laptop): the first window fits, the status bar shows, and every view
        // is on screen or one tab away, at a size it can be read at.
        QSettings().clear();
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY2(screen.contains(w.frameGeometry()),
                     qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                    .arg(w.frameGeometry().width())
                                    .arg(w.frameGeometry().height())
                                    .arg(screen.width())
                                    .arg(screen.height())));
            QVERIFY(!w.statusBar()->visibleRegion().isEmpty());
            for (const char *name :
                 {"UsageDock", "GanttDock", "MemoryMapDock", "ValuesDock", "BreakdownDock",
                  "WhatFillsMemoryDock", "InspectorDock", "AllocationsDock", "InstructionsDock"}) {
                QDockWidget *dock = w.findChild<QDockWidget *>(QString::fromLatin1(name));
                QVERIFY2(!dock->isHidden(), name);
                dock->raise();
                QTRY_VERIFY2(!dock->visibleRegion().isEmpty(), name);
                // (The tables are the narrowest at 1920x1080, some 235-270 px: name and size.)
                QVERIFY2(dock->widget()->width() >= 220 && dock->widget()->height() >= 180,
                         qPrintable(QStringLiteral("%1 is %2x%3")
                                        .arg(QLatin1String(name))
                                        .arg(dock->widget()->width())
                                        .arg(dock->widget()->height())));
            }
            // A window made bigger than the screen (on another monitor) is saved so...
            w.resize(screen.width() + 800, screen.height() + 600);
            w.close();
        }
        // ... and not restored where it does not fit.
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(screen.contains(again.frameGeometry()));
        QSettings().clear();
    }

    void layoutIsSavedAndReset()
    {
        QSettings().clear();
        QStringList names;
        {
            MainWindow w;
            w.show();
            for (QDockWidget *dock : w.docks()) {
                QVERIFY(!dock->objectName().isEmpty());
                QVERIFY(!names.contains(dock->objectName()));
                names << dock->objectName();
            }
            QVERIFY(names.size() >= 8);
            w.findChild<QDockWidget *>(QStringLiteral("GanttDock"))->hide();
            w.close();
        }
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.findChild<QDockWidget *>(QStringLiteral("GanttDock"))->isHidden());
            w.resetLayout();
            QVERIFY(!w.findChild<QDockWidget *>(QStringLiteral("GanttDock"))->isHidden());
            // The default layout on a large screen shows the charts, the values and the
            // inspector at once (the right-hand tables are tabs, each as wide as the column).
            for (const char *name : {"UsageDock", "GanttDock", "MemoryMapDock", "ValuesDock",
                                     "WhatFillsMemoryDock", "InspectorDock", "InstructionsDock"}) {
                QDockWidget *dock = w.findChild<QDockWidget *>(QString::fromLatin1(name));
                QVERIFY2(!dock->isHidden() && !dock->visibleRegion().isEmpty(), name);
            }
        }
        QSettings().clear();
    }

    void notWrittenMessage()
    {
        // Every export and save says a failed write in the same words: the path, then why.
        QString seen;
        QTimer::singleShot(0, this, [&seen] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                seen = box->windowTitle() + QLatin1Char('|') + box->text();
                box->accept();
            }
        });
        ChartExport::warnNotWritten(nullptr, QStringLiteral("Save Failed"),
                                    QStringLiteral("/nowhere/values.csv"),
                                    QStringLiteral("No such file or directory"));
        QCOMPARE(seen, QStringLiteral("Save Failed|Could not write /nowhere/values.csv:\nNo such "
                                      "file or directory"));
    }

    void sourcePreferencesAndSourceDock()
    {
        QSettings().clear();
        // Nothing saved: the default library patterns, no mappings, the desktop's handler.
        const Preferences none = Preferences::load();
        QCOMPARE(none.libraryPatterns, defaultLibraryPatterns());
        QVERIFY(none.pathMappings.empty() && none.editorCommand.isEmpty());
        QCOMPARE(none.threads, 0); // every core
        Preferences p;
        p.threads = maxThreads();
        p.libraryPatterns = {"/vendor/", "/site-packages/"};
        p.pathMappings = {{"/home/alice/proj", "~/src/proj"}, {"/srv/a", "/b"}};
        p.editorCommand = QStringLiteral("code --goto {file}:{line}");
        // The dialog shows what it was given and gives back what it shows.
        PreferencesDialog dialog(p);
        QCOMPARE(dialog.preferences(), p);
        dialog.patternsEdit()->setPlainText(QStringLiteral("  /mine/ \n\n/theirs/"));
        dialog.addMapping(QStringLiteral("/x"), QStringLiteral("/y"));
        dialog.addMapping(QStringLiteral("/half-filled"));
        QCOMPARE(dialog.threadsSpin()->value(), maxThreads());
        QCOMPARE(dialog.threadsSpin()->minimum(), 0);
        QCOMPARE(dialog.threadsSpin()->maximum(), maxThreads()); // no more threads than cores
        QVERIFY(dialog.threadsSpin()->specialValueText().startsWith(QStringLiteral("every core")));
        dialog.threadsSpin()->setValue(1);
        const Preferences edited = dialog.preferences();
        QCOMPARE(edited.threads, 1);
        QCOMPARE(edited.libraryPatterns, (std::vector<std::string>{"/mine/", "/theirs/"}));
        QCOMPARE(edited.pathMappings.size(), std::size_t(3)); // the half-filled row is left out
        QCOMPARE(edited.pathMappings.back(), (PathMapping{"/x", "/y"}));
        // Kept across runs.
        edited.save();
        QCOMPARE(Preferences::load(), edited);
        // A window applies them: the workspace's "by source" and the Source dock follow, and
        // the parser's threads (here 1: the serial path).
        MainWindow w;
        QCOMPARE(w.workspace()->threads(), 1);
        // `--threads N` outranks the setting, for the whole run.
        {
            MainWindow fromCommandLine;
            fromCommandLine.setCommandLineThreads(2);
            fromCommandLine.applyPreferences(edited);
            QCOMPARE(fromCommandLine.workspace()->threads(), 2);
        }
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.workspace()->libraryPatterns(), edited.libraryPatterns);
        QDockWidget *dock = w.findChild<QDockWidget *>(QStringLiteral("SourceDock"));
        QVERIFY(dock);
        SourcePlace place;
        place.file = "/nowhere/model.py";
        place.line = 3;
        w.showSource(place);
        QVERIFY(!dock->isHidden() && !dock->visibleRegion().isEmpty());
        QCOMPARE(w.sourceView()->place(), place);
        QVERIFY(w.sourceView()->localPath().isEmpty());
        QSettings().clear();
    }

    void reloadKeepsSelectionStepAndZoom()
    {
        QTemporaryDir dir;
        const QString path = copyOf(dir, "gpu_decoder_layer");
        MainWindow w;
        w.show();
        w.openPath(path);
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        const auto before = w.current().dump;
        const auto warningsBefore = before->warnings.size();
        const int value = static_cast<int>(before->findValue("fusion.40"));
        w.selection()->setCurrentValue(value);
        w.selection()->setCurrentStep(37);
        w.gantt()->plot()->xAxis->setRange(30, 45);
        QVERIFY(w.fileNoticeText().isEmpty());

        // Another tool rewrites the dump: the window says so and offers to reload.
        rewrite(path, "Total bytes used: ", "Total bytes used: 1");
        QTRY_VERIFY_WITH_TIMEOUT(w.fileNoticeText().contains(QStringLiteral("changed on disk")),
                                 5000);
        QCOMPARE(w.current().dump, before); // nothing changes until the user asks
        w.reload();
        QVERIFY(QTest::qWaitFor(
            [&] { return w.current().dump != before && !w.selection()->isFrozen(); }, 10000));
        // The new version is shown (its edited total disagrees with the allocations and with its
        // own human-readable form: two more warnings) ...
        QCOMPARE(w.current().dump->warnings.size(), warningsBefore + 2);
        // ... with the same value, step and zoom, and the notice gone.
        QCOMPARE(w.selection()->currentValue(),
                 static_cast<int>(w.current().dump->findValue("fusion.40")));
        QCOMPARE(w.gantt()->highlightedValue(), w.selection()->currentValue());
        QCOMPARE(w.selection()->currentStep(), qint64(37));
        QCOMPARE(w.gantt()->plot()->xAxis->range().lower, 30.0);
        QCOMPARE(w.gantt()->plot()->xAxis->range().upper, 45.0);
        // The "changed on disk" notice is gone; the new version's two warnings are said instead.
        QVERIFY(!w.fileNoticeText().contains(QStringLiteral("changed on disk")));
        QVERIFY2(w.fileNoticeText().contains(QStringLiteral("2 warning")),
                 qPrintable(w.fileNoticeText()));
        QVERIFY(w.fileWatcher()->files().contains(path)); // still watched
    }

    void deletedDumpKeepsWorking()
    {
        QTemporaryDir dir;
        const QString path = copyOf(dir, "gpu_decoder_layer");
        MainWindow w;
        w.show();
        w.openPath(path);
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        const Dump &dump = *w.current().dump;
        const std::uint32_t value = dump.findValue("fusion.40");
        QVERIFY(QFile::remove(path));
        QTRY_VERIFY_WITH_TIMEOUT(w.fileNoticeText().contains(QStringLiteral("was deleted")), 5000);
        // What was loaded stays, including the instruction text read lazily from the file.
        w.selection()->setCurrentValue(static_cast<int>(value));
        QCOMPARE(w.inspector()->shownValue(), static_cast<int>(value));
        const std::string text = dump.instructionText(dump.values[value].instruction);
        QVERIFY2(text.starts_with("%fusion.40 = "), text.c_str());
        QVERIFY(!w.fileNotice()->actions().isEmpty());
    }

    void tablesCopyAsCsv()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        // Every table and tree of the window offers both actions.
        const QList<QAbstractItemView *> views = w.findChildren<QAbstractItemView *>();
        int tables = 0;
        for (QAbstractItemView *v : views) {
            if (!qobject_cast<QTableView *>(v) && !qobject_cast<QTreeView *>(v))
                continue;
            ++tables;
            QStringList texts;
            for (const QAction *a : v->actions())
                texts << a->text();
            QVERIFY2(texts.contains(QStringLiteral("Copy as CSV")) &&
                         texts.contains(QStringLiteral("Save as CSV…")),
                     v->metaObject()->className());
        }
        QVERIFY2(tables >= 5, qPrintable(QString::number(tables)));

        // The values table as the user arranged it: Shape hidden, Kind moved first. Copy as CSV
        // writes what is shown, in that order, and reads back as the same cells.
        QTableView *table = w.valueTable()->table();
        table->setColumnHidden(ValueTableModel::ShapeColumn, true);
        table->horizontalHeader()->moveSection(
            table->horizontalHeader()->visualIndex(ValueTableModel::KindColumn), 0);
        QAction *copy = nullptr;
        for (QAction *a : table->actions()) {
            if (a->text() == QLatin1String("Copy as CSV"))
                copy = a;
        }
        QVERIFY(copy);
        QApplication::clipboard()->clear();
        copy->trigger();
        QString why;
        const auto csv = testutil::readCsv(QApplication::clipboard()->text(), &why);
        QVERIFY2(csv, qPrintable(why));
        QAbstractItemModel *model = table->model();
        QCOMPARE(static_cast<int>(csv->size()), 1 + model->rowCount());
        const QStringList header = csv->front();
        QCOMPARE(header.front(),
                 model->headerData(ValueTableModel::KindColumn, Qt::Horizontal).toString());
        QVERIFY(!header.contains(
            model->headerData(ValueTableModel::ShapeColumn, Qt::Horizontal).toString()));
        QCOMPARE(header.size(), model->columnCount() - 1);
        const int sizeAt = static_cast<int>(header.indexOf(
            model->headerData(ValueTableModel::SizeColumn, Qt::Horizontal).toString() +
            QStringLiteral(" (bytes)")));
        const int nameAt = static_cast<int>(header.indexOf(
            model->headerData(ValueTableModel::NameColumn, Qt::Horizontal).toString()));
        QVERIFY(sizeAt >= 0 && nameAt >= 0);
        // ` value: <203 p5.18.0 @0> (size=311164928,offset=0)`: exact bytes, not "296.75MiB".
        bool found = false;
        for (std::size_t r = 1; r < csv->size(); ++r) {
            const QStringList &row = (*csv)[r];
            QCOMPARE(row.size(), header.size());
            QCOMPARE(row[nameAt], model->index(static_cast<int>(r - 1), ValueTableModel::NameColumn)
                                      .data()
                                      .toString());
            if (row[nameAt] == QLatin1String("p5.18.0")) {
                QCOMPARE(row[sizeAt], QStringLiteral("311164928"));
                found = true;
            }
        }
        QVERIFY(found);
        QCOMPARE(TableCsv::of(table), QApplication::clipboard()->text().toUtf8());
    }

    void exportIsAtomicAndAsksBeforeReplacing()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        w.openPath(sample("tpu_unstack"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        // A folder that does not exist: a clear reason and no file.
        QString why;
        const QString missing = dir.filePath(QStringLiteral("no/such/dir/usage.png"));
        QVERIFY(!w.usageChart()->exportTo(missing, ExportOptions::sized(400, 300, 1.0), &why));
        QVERIFY2(!why.isEmpty(), qPrintable(why));
        QVERIFY(!QFileInfo::exists(missing));
        // A good export replaces the old file whole; no temporary file is left behind.
        const QString out = dir.filePath(QStringLiteral("usage.png"));
        QFile old(out);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("not a png");
        old.close();
        QVERIFY(w.usageChart()->exportTo(out, ExportOptions::sized(400, 300, 2.0), &why));
        QImageReader reader(out);
        QCOMPARE(reader.format(), QByteArray("png"));
        QCOMPARE(reader.size(), QSize(800, 600));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("usage.png")});

        // The dialog asks before replacing an existing file, and keeps it when told no.
        ExportDialog dialog(w.chartViews(), w.usageChart(), dir.path(), &w);
        dialog.findChild<QLineEdit *>(QStringLiteral("path"))->setText(out);
        QStringList asked;
        bool answer = false;
        dialog.confirmReplace = [&](const QString &p) {
            asked << p;
            return answer;
        };
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QCOMPARE(asked, QStringList{out});
        answer = true;
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        // A new file needs no question.
        asked.clear();
        dialog.findChild<QLineEdit *>(QStringLiteral("path"))
            ->setText(dir.filePath(QStringLiteral("new.png")));
        dialog.accept();
        QVERIFY(asked.isEmpty());

        // The format and the extension follow each other; an unknown extension is refused with
        // the formats that work, and the dialog stays open.
        ExportDialog formats(w.chartViews(), w.usageChart(), dir.path(), &w);
        auto *path = formats.findChild<QLineEdit *>(QStringLiteral("path"));
        auto *title = formats.findChild<QLineEdit *>(QStringLiteral("title"));
        QCOMPARE(title->text(), w.usageChart()->title());
        QVERIFY(path->text().endsWith(QLatin1String("usage.png")) ||
                path->text().endsWith(
                    QString(QStringLiteral("usage.") + ChartExport::extension(formats.format()))));
        QComboBox *format = nullptr;
        for (QComboBox *c : formats.findChildren<QComboBox *>()) {
            if (c->findData(static_cast<int>(ExportFormat::Pdf)) >= 0)
                format = c;
        }
        QVERIFY(format);
        format->setCurrentIndex(format->findData(static_cast<int>(ExportFormat::Pdf)));
        QVERIFY2(path->text().endsWith(QLatin1String("usage.pdf")), qPrintable(path->text()));
        QTest::keyClicks(path, QStringLiteral(".svg"));
        path->setText(dir.filePath(QStringLiteral("chart.svg")));
        Q_EMIT path->textEdited(path->text());
        QCOMPARE(formats.format(), ExportFormat::Svg);
        path->setText(dir.filePath(QStringLiteral("chart.jpg")));
        formats.accept();
        QCOMPARE(formats.result(), int(QDialog::Rejected));
        QVERIFY(formats.findChild<QLabel *>() != nullptr);
        bool told = false;
        for (QLabel *l : formats.findChildren<QLabel *>())
            told |= l->isVisibleTo(&formats) &&
                    l->text().contains(QLatin1String(".png, .svg, .pdf or .csv"));
        QVERIFY(told);
        // A PDF with a title of the user's own and the footer: written, and a PDF.
        title->setText(QStringLiteral("Before the fix"));
        path->setText(dir.filePath(QStringLiteral("chart.pdf")));
        Q_EMIT path->textEdited(path->text());
        formats.accept();
        QCOMPARE(formats.result(), int(QDialog::Accepted));
        QCOMPARE(formats.options().title, QStringLiteral("Before the fix"));
        QVERIFY(w.exportView(formats.view(), formats.path(), formats.options()));
        QFile pdf(formats.path());
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        // A CSV is written in the background; the status bar says when it is there.
        const QString csv = dir.filePath(QStringLiteral("gantt.csv"));
        QVERIFY(w.exportView(w.gantt(), csv, formats.options()));
        QVERIFY(w.statusBar()->currentMessage().startsWith(QLatin1String("Writing")));
        QTRY_VERIFY(w.statusBar()->currentMessage().startsWith(QLatin1String("Exported")));
        QFile data(csv);
        QVERIFY(data.open(QIODevice::ReadOnly));
        QCOMPARE(data.readAll().toStdString(), w.gantt()->csv());
    }

    void firstRunHintAndHelp()
    {
        QSettings().clear();
        {
            MainWindow w;
            w.show();
            w.openEmbeddedSample();
            QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
            QVERIFY2(w.fileNoticeText().contains(QStringLiteral("--xla_dump_to")),
                     qPrintable(w.fileNoticeText()));
            // Getting a Dump… opens the help; Dismiss keeps the hint away for good.
            QAction *help = nullptr;
            QAction *dismiss = nullptr;
            for (QAction *a : w.fileNotice()->actions()) {
                if (a->text() == QStringLiteral("Getting a Dump…"))
                    help = a;
                if (a->text() == QLatin1String("Dismiss"))
                    dismiss = a;
            }
            QVERIFY(help && dismiss);
            help->trigger();
            QTextBrowser *browser = nullptr;
            for (QDialog *d : w.findChildren<QDialog *>())
                if (d->windowTitle() == QLatin1String("Getting a Dump"))
                    browser = d->findChild<QTextBrowser *>();
            QVERIFY(browser);
            const QString text = browser->toPlainText();
            for (const char *needle : {"JAX", "PyTorch/XLA", "TensorFlow",
                                       "XLA_FLAGS=--xla_dump_to=", "-buffer-assignment.txt",
                                       "-live-range.txt", "Open Folder"})
                QVERIFY2(text.contains(QLatin1String(needle)), needle);
            if (qEnvironmentVariableIsSet("BUFFERSCOPE_SHOTS"))
                browser->window()->grab().save(QStringLiteral("/tmp/help-dump.png"));
            browser->window()->close();
            dismiss->trigger();
            QVERIFY(w.fileNoticeText().isEmpty());
        }
        {
            MainWindow w;
            w.show();
            w.openEmbeddedSample();
            QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
            QVERIFY(w.fileNoticeText().isEmpty()); // dismissed for good
            // The Help menu has the shortcuts and the about box, with the licenses.
            QStringList helpItems;
            for (QAction *menu : w.menuBar()->actions())
                if (menu->text() == QLatin1String("&Help"))
                    for (QAction *a : menu->menu()->actions())
                        helpItems << a->text();
            QVERIFY2(helpItems.contains(QStringLiteral("&Keyboard Shortcuts…")),
                     qPrintable(helpItems.join(QLatin1Char(','))));
            QVERIFY(helpItems.contains(QStringLiteral("&About BufferScope")));
        }
        QSettings().clear();
    }

    // F1's list comes from the actions themselves, so it names every shortcut there is
    // (issue 35, item 10: it missed Ctrl+Shift+D and Ctrl+Shift+C and said Ctrl+E exports "as
    // PNG"); a group of one value says "1 value", not "(1 value(s))".
    void shortcutsComeFromTheActions()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("gpu_decoder_layer")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        const QString html = keyboardShortcutsHtml(&w);
        int shortcuts = 0;
        for (const QAction *a : w.findChildren<QAction *>()) {
            if (a->shortcut().isEmpty())
                continue;
            ++shortcuts;
            const QString keys = a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped();
            QVERIFY2(html.contains(keys), qPrintable(keys));
        }
        QVERIFY(shortcuts >= 10);
        for (const char *keys : {"Ctrl+Shift+D", "Ctrl+Shift+C", "Ctrl+E", "Ctrl+V"})
            QVERIFY2(html.contains(QLatin1String(keys)), keys);
        QVERIFY(!html.contains(QStringLiteral("as PNG")));
        w.selection()->setHighlightedGroup({3}, QStringLiteral("fn_355"));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Picked: fn_355 (1 value)"));
        w.selection()->setHighlightedGroup({3, 4}, QStringLiteral("fusion.*"));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Picked: fusion.* (2 values)"));
    }

    // A selection only ever comes from the user (issue 35, item 1): with the Values table
    // filtered and nothing selected, another dump opened and the table given the focus (as a
    // tab click does), no value is selected — the view's own "first row current" on focus-in
    // used to select tuple{}.
    void aValueNeverSelectsItself()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("gpu_vllm_update_slice")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_vllm_update_slice")));
        ValueTableView *values = w.valueTable();
        values->filterEdit()->setText(QStringLiteral("tuple"));
        QTRY_VERIFY(!values->isFiltering());
        w.selection()->setCurrentValue(-1);
        w.openPaths({sample("tpu_unstack")});
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QTRY_VERIFY(!values->isFiltering());
        QVERIFY(values->table()->model()->rowCount() > 0);
        QCOMPARE(w.selection()->currentValue(), -1);
        values->table()->selectionModel()->clearCurrentIndex();
        values->table()->setFocus(Qt::TabFocusReason);
        QFocusEvent focusIn(QEvent::FocusIn, Qt::TabFocusReason);
        QApplication::sendEvent(values->table(), &focusIn);
        QTest::qWait(50);
        QCOMPARE(w.selection()->currentValue(), -1);
        // A click still selects.
        const QRect row = values->table()->visualRect(values->table()->model()->index(0, 1));
        QTest::mouseClick(values->table()->viewport(), Qt::LeftButton, {}, row.center());
        QVERIFY(w.selection()->currentValue() >= 0);
        values->filterEdit()->clear();
    }

    // Find (Ctrl+F): Enter selects the first match, ↓ walks from the filter into the matches,
    // and another dump starts with an empty filter (issue 35, item 19).
    void findSelectsWithEnterAndDown()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("gpu_decoder_layer")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        ValueTableView *values = w.valueTable();
        QTableView *table = values->table();
        values->filterEdit()->setFocus();
        QTest::keyClicks(values->filterEdit(), QStringLiteral("fusion.3"));
        QTest::keyClick(values->filterEdit(), Qt::Key_Return);
        QTRY_VERIFY(!values->isFiltering());
        QTRY_VERIFY(w.selection()->currentValue() >= 0);
        QCOMPARE(w.selection()->currentValue(),
                 table->model()->index(0, 0).data(ValueIndexRole).toInt());
        w.selection()->setCurrentValue(-1);
        QTest::keyClick(values->filterEdit(), Qt::Key_Down);
        QVERIFY(table->hasFocus());
        QCOMPARE(w.selection()->currentValue(),
                 table->model()->index(0, 0).data(ValueIndexRole).toInt());
        w.openPaths({sample("tpu_unstack")});
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QVERIFY(values->filterEdit()->text().isEmpty());
        QCOMPARE(table->model()->rowCount(), static_cast<int>(w.current().dump->values.size()));
    }

    // Warnings over the charts, and a failed open does not pass for the new dump (issue 35,
    // item 17).
    void warningsAndFailuresAreSaid()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString bad = QStringLiteral(BUFFERSCOPE_TEST_DATA "/bad/");
        w.openPaths({bad + QStringLiteral("truncated-live-ranges.txt")});
        QVERIFY(waitLoaded(w, QStringLiteral("truncated-live-ranges")) ||
                QTest::qWaitFor([&] { return w.current().dump != nullptr; }, 10000));
        QTRY_VERIFY2(w.fileNoticeText().contains(QStringLiteral("looks truncated")),
                     qPrintable(w.fileNoticeText()));
        QVERIFY(w.fileNoticeText().contains(QStringLiteral("3 warning")));
        // The notice quotes the dump's warnings: plain text, never markup.
        for (const QLabel *label :
             w.findChild<QToolBar *>(QStringLiteral("FileNotice"))->findChildren<QLabel *>())
            if (label->text() == w.fileNoticeText())
                QCOMPARE(label->textFormat(), Qt::PlainText);
        const std::string module = w.current().dump->module;
        w.openPaths({bad + QStringLiteral("binary.txt")});
        QTRY_VERIFY2(w.fileNoticeText().startsWith(QStringLiteral("Could not open binary.txt; "
                                                                  "still showing")),
                     qPrintable(w.fileNoticeText()));
        QCOMPARE(w.current().dump->module, module);
        for (QMessageBox *box : w.findChildren<QMessageBox *>()) {
            QCOMPARE(box->textFormat(), Qt::PlainText);
            box->close();
        }
    }

    // Selecting a value of another memory space moves the usage chart there, and says so.
    void memorySpaceSwitchIsSaid()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openPaths({sample("tpu_random_normal")});
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_random_normal")));
        // fusion.21{0}: an S(1) value (tpu_random_normal's allocation 3, color 1).
        const std::uint32_t v = w.current().dump->findValue("fusion.21{0}");
        QVERIFY(v != kNone);
        QCOMPARE(w.current().dump->values[v].color, 1);
        w.selection()->setCurrentValue(static_cast<int>(v));
        QCOMPARE(w.workspace()->memorySpace(), 1);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("S(1), the selected")),
                 qPrintable(w.statusBar()->currentMessage()));
        // Live Ranges never mixes the spaces (issue 35, item 21): each is a band of rows,
        // named. From the allocation lines: S(1) allocation 3 holds values 319, 321, 322 and
        // 325; S(2) allocation 5 value 326; S(6) allocation 6 values 330 and 332; the other 8
        // of the 15 values with a live range are S(0).
        LiveRangeGantt *gantt = w.gantt();
        QTRY_COMPARE(gantt->bandLabels().size(), 4);
        QVERIFY2(gantt->bandLabels()[0].endsWith(QStringLiteral("· 8 value(s)")),
                 qPrintable(gantt->bandLabels()[0]));
        QVERIFY2(gantt->bandLabels()[1].startsWith(QStringLiteral("S(1)")) &&
                     gantt->bandLabels()[1].endsWith(QStringLiteral("· 4 value(s)")),
                 qPrintable(gantt->bandLabels()[1]));
        QVERIFY2(gantt->bandLabels()[2].endsWith(QStringLiteral("· 1 value(s)")),
                 qPrintable(gantt->bandLabels()[2]));
        QVERIFY2(gantt->bandLabels()[3].endsWith(QStringLiteral("· 2 value(s)")),
                 qPrintable(gantt->bandLabels()[3]));
        const Dump &d = *w.current().dump;
        for (std::int64_t id : {319, 321, 322, 325}) {
            const int row = gantt->rowOf(static_cast<int>(d.findValueById(id)));
            QVERIFY2(row >= 8 && row < 12, qPrintable(QString::number(id)));
        }
        QCOMPARE(gantt->rowOf(static_cast<int>(d.findValueById(326))), 12);
        // One space only: no bands.
        w.openPaths({sample("gpu_vllm_update_slice")});
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_vllm_update_slice")));
        QVERIFY(gantt->bandLabels().isEmpty());
    }

    void colorSchemeFollowsLive()
    {
        QSettings().clear();
        MainWindow w;
        w.show();
        w.openPath(sample("tpu_unstack"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        auto schemeAction = [&](const QString &label) -> QAction * {
            for (QAction *menu : w.menuBar()->actions())
                for (QAction *a : menu->menu()->actions())
                    if (a->menu() && a->text() == QLatin1String("&Color Scheme"))
                        for (QAction *s : a->menu()->actions())
                            if (s->text() == label)
                                return s;
            return nullptr;
        };
        QAction *dark = schemeAction(QStringLiteral("&Dark"));
        QAction *system = schemeAction(QStringLiteral("Follow &System"));
        QVERIFY(dark && system);
        // An out-of-memory window open meanwhile, and What Fills Memory with its findings' links.
        QPointer<OomView> oom;
        connect(&w, &MainWindow::oomOpened, &w,
                [&](QWidget *shown) { oom = qobject_cast<OomView *>(shown); });
        QFile log(QStringLiteral(BUFFERSCOPE_TEST_DATA "/oom/tpu-hbm-unstack.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(w.openOomText(QStringLiteral("tpu.log"), log.readAll().toStdString()));
        QTRY_VERIFY(oom);
        // A value in the inspector: its card's links (its producer, its users).
        w.selection()->setCurrentValue(0);
        QTextBrowser *card = w.inspector()->details();
        QVERIFY(card->document()->toHtml().contains(QStringLiteral("href")));
        QTest::qWait(300); // its data flow, read on a job, is shown
        dark->trigger();
        // Every link restyled in the same turn as the switch (issue 60): the card's too.
        const QString linkNow = QApplication::palette().color(QPalette::Link).name();
        QApplication::processEvents(); // the palette reaches the widgets: one pass, no waiting
        QVERIFY2(card->document()->toHtml().contains(linkNow, Qt::CaseInsensitive),
                 qPrintable(linkNow));
        // Charts re-colour at once: axis text is light on the dark window, and so do the other
        // windows' charts and the findings' links (issue 49, item 8: they stayed light).
        QTRY_VERIFY(w.usageChart()->plot()->xAxis->labelColor().lightness() > 180);
        QTRY_VERIFY(oom->bars()->xAxis->labelColor().lightness() > 180);
        QVERIFY(oom->bars()->xAxis->basePen().color().lightness() > 180);
        const QString link = QApplication::palette().color(QPalette::Link).name();
        const auto browsers = w.peakPanel()->findChildren<QTextBrowser *>();
        QVERIFY(!browsers.isEmpty());
        QTRY_VERIFY2(browsers.front()->document()->toHtml().contains(link, Qt::CaseInsensitive),
                     qPrintable(link));
        oom->close();
        QCOMPARE(QSettings().value(QStringLiteral("view/colorScheme")).toString(),
                 QStringLiteral("dark"));
        system->trigger();
        QTRY_VERIFY(w.usageChart()->plot()->xAxis->labelColor() ==
                    QApplication::palette().color(QPalette::WindowText));
        QSettings().clear();
    }

    void whatFillsMemoryHighlightsGroups()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        BreakdownPanel *panel = w.peakPanel();
        const Dump &dump = *w.current().dump;
        // At the peak (docs/FORMAT.md Part A: step 58, 931536164 bytes in 22 values).
        const testutil::SampleTruth &truth = testutil::sampleTruth("gpu_decoder_layer");
        QCOMPARE(panel->step(), qint64(truth.peakStep));
        QCOMPARE(panel->model()->root().bytes, truth.peakBytes);
        QCOMPARE(panel->model()->root().values, std::int64_t(truth.printedEntries));
        QVERIFY(!panel->findings().empty());

        // A click on the treemap's largest rectangle highlights its values everywhere.
        Treemap *map = panel->treemap();
        map->resize(400, 300);
        QVERIFY(!map->rects().empty());
        QTest::mouseClick(map, Qt::LeftButton, {}, map->rects().front().center().toPoint());
        const BreakdownNode &largest = map->node()->children.front();
        QCOMPARE(static_cast<std::size_t>(w.selection()->highlightedGroup().size()),
                 largest.members.size());
        QCOMPARE(QString::fromStdString(largest.label), QStringLiteral("xla__device_data"));
        // Every member has a live range here, so each is one Gantt bar and one map box.
        QCOMPARE(static_cast<std::size_t>(w.gantt()->groupBoxCount()), largest.members.size());
        QVERIFY(w.memoryMap()->groupBoxCount() >= static_cast<int>(largest.members.size()));
        // Each in its kind's colour, as the legend says (issue 49, item 8: every picked box was
        // drawn in the first colour, the parameter's blue).
        for (const Box &b : w.gantt()->groupBoxes()) {
            const Value &v = dump.values[b.value];
            QVERIFY(v.allocation != kNone);
            QCOMPARE(int(b.colour), int(dump.allocations[v.allocation].kind));
        }
        const QModelIndex current = panel->tree()->currentIndex();
        QCOMPARE(current.siblingAtColumn(0).data().toString(), QStringLiteral("xla__device_data"));
        // The pick reads in the other views too (issue 35, item 15): the usage chart fills the
        // group's share of the curve — at the peak the group's bytes, 623.32MiB of 888.38MiB —
        // and the Values table marks exactly its rows.
        QTRY_VERIFY(!w.usageChart()->groupBytes().empty());
        QCOMPARE(w.usageChart()->groupBytes()[58], largest.bytes);
        QVERIFY(w.usageChart()->groupBytes()[58] < w.current().timeline->space(0)->liveBytes[58]);
        {
            const QAbstractItemModel *values =
                w.findChild<ValueTableView *>()->findChild<QTableView *>()->model();
            int marked = 0;
            for (int r = 0; r < values->rowCount(); ++r) {
                const QModelIndex i = values->index(r, 0);
                const bool member =
                    std::find(largest.members.begin(), largest.members.end(),
                              static_cast<std::uint32_t>(i.data(ValueIndexRole).toInt())) !=
                    largest.members.end();
                QCOMPARE(i.data(MarkedRole).toBool(), member);
                marked += member ? 1 : 0;
            }
            QCOMPARE(static_cast<std::size_t>(marked), largest.members.size());
        }

        // Going into it shows its instruction names; Up comes back.
        QTest::mouseDClick(map, Qt::LeftButton, {}, map->rects().front().center().toPoint());
        QCOMPARE(map->node(), &largest);
        QCOMPARE(map->node()->children.size(), largest.children.size());
        // A leaf (instruction names) also selects its largest value: p5.18.0,
        // bf16[151936,1024], the embedding table and the largest parameter.
        QVERIFY(map->node()->children.front().children.empty());
        QTest::mouseClick(map, Qt::LeftButton, {}, map->rects().front().center().toPoint());
        QVERIFY(w.selection()->currentValue() >= 0);
        QCOMPARE(dump.valueDisplayName(
                     dump.values[static_cast<std::size_t>(w.selection()->currentValue())]),
                 std::string("p5.18.0"));
        auto *up = panel->findChild<QToolButton *>();
        QVERIFY(up && up->isEnabled());
        up->click();
        QCOMPARE(map->node(), &panel->model()->root());
        QVERIFY(!up->isEnabled());

        // A finding's link highlights its values and selects the first.
        panel->showFinding(0);
        const Finding &f = panel->findings().front();
        QCOMPARE(w.selection()->currentValue(), static_cast<int>(f.values.front()));
        QCOMPARE(static_cast<std::size_t>(w.selection()->highlightedGroup().size()),
                 f.values.size());

        // Another step: the breakdown follows, and adds up to what is live there.
        w.selection()->setCurrentStep(40);
        QCOMPARE(panel->step(), qint64(40));
        std::int64_t live = 0;
        for (const Value &v : dump.values)
            if (v.color == 0 && v.liveAt(40))
                live += v.size;
        QCOMPARE(panel->model()->root().bytes, live);
        // The Breakdown chart, behind this dock's tab, waits; an export brings it up to date.
        QCOMPARE(w.breakdownChart()->breakdown().step, std::int64_t(58));
        QTemporaryDir dir;
        QVERIFY(w.breakdownChart()->exportTo(dir.filePath(QStringLiteral("b.png")),
                                             ExportOptions::sized(600, 400, 1.0)));
        QCOMPARE(w.breakdownChart()->breakdown().step, std::int64_t(40));
        // Bringing its tab forward does too.
        w.selection()->setCurrentStep(45);
        QCOMPARE(w.breakdownChart()->breakdown().step, std::int64_t(40));
        w.findChild<QDockWidget *>(QStringLiteral("BreakdownDock"))->raise();
        QTRY_COMPARE(w.breakdownChart()->breakdown().step, std::int64_t(45));
        w.findChild<QDockWidget *>(QStringLiteral("WhatFillsMemoryDock"))->raise();
        // Esc clears the group.
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(w.selection()->highlightedGroup().isEmpty());
        QCOMPARE(w.gantt()->groupBoxCount(), 0);
        QVERIFY(w.usageChart()->groupBytes().empty());
        if (qEnvironmentVariableIsSet("BUFFERSCOPE_SHOTS")) {
            w.selection()->setCurrentStep(58);
            QTest::mouseClick(map, Qt::LeftButton, {}, map->rects().front().center().toPoint());
            QTest::qWait(300);
            panel->resize(1000, 640);
            panel->grab().save(QStringLiteral("/tmp/panel.png"));
            w.grab().save(QStringLiteral("/tmp/window-group.png"));
        }
    }

    void bigDumpBreakdownInTheBackground()
    {
        // Treat the sample as big: the breakdown then follows the step off the GUI thread.
        MainWindow w;
        w.workspace()->setBackgroundFrom(0);
        w.show();
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        BreakdownPanel *panel = w.peakPanel();
        QTRY_COMPARE(panel->model()->root().bytes,
                     testutil::sampleTruth("gpu_decoder_layer").peakBytes); // the peak
        QTRY_VERIFY(!panel->isComputing());
        // Stepping faster than it computes: only the last step is shown, and it adds up.
        for (qint64 step : {10, 20, 30, 40})
            w.selection()->setCurrentStep(step);
        QTRY_VERIFY(!panel->isComputing());
        QCOMPARE(panel->breakdown().step, std::int64_t(40));
        std::int64_t live = 0;
        for (const Value &v : w.current().dump->values)
            if (v.color == 0 && v.liveAt(40))
                live += v.size;
        QCOMPARE(panel->model()->root().bytes, live);
        // Another dump while a breakdown runs: the old result never shows.
        w.selection()->setCurrentStep(50);
        w.openPath(sample("tpu_unstack"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QTRY_VERIFY(!panel->isComputing());
        QCOMPARE(panel->model()->root().bytes, std::int64_t(3104)); // its peak (step 1)
    }

    void bigDumpFiltersInTheBackground()
    {
        // Treat the sample as big: the value filter matches off the GUI thread.
        MainWindow w;
        w.valueTable()->setBackgroundFrom(0);
        w.show();
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        const auto rowsMatching = [&](const char *needle) {
            int n = 0;
            const Dump &d = *w.current().dump;
            for (std::uint32_t v = 0; v < d.values.size(); ++v)
                n += ValueTableModel::matches(d, v, needle) ? 1 : 0;
            return n;
        };
        QTableView *table = w.valueTable()->table();
        QLineEdit *filter = w.valueTable()->filterEdit();
        QSignalSpy applied(w.valueTable(), &ValueTableView::filterApplied);
        // Two filters in a row: only the newer one is ever shown.
        filter->setText(QStringLiteral("fusion"));
        QTest::keyClick(filter, Qt::Key_Return);
        QVERIFY(w.valueTable()->isFiltering());
        filter->setText(QStringLiteral("Wrapped_Slice"));
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_VERIFY(!w.valueTable()->isFiltering());
        QCOMPARE(applied.count(), 1);
        const int wrapped = rowsMatching("wrapped_slice");
        QVERIFY(wrapped > 1);
        QCOMPARE(table->model()->rowCount(), wrapped);
        for (int r = 0; r < table->model()->rowCount(); ++r)
            QVERIFY(table->model()->index(r, 1).data().toString().contains(
                QStringLiteral("wrapped_slice")));
        QCOMPARE(w.valueTable()->countText(),
                 QStringLiteral("%1 of %2").arg(wrapped).arg(w.current().dump->values.size()));
        // Sorting keeps the filter.
        table->sortByColumn(ValueTableModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(table->model()->rowCount(), wrapped);
        // Another dump starts with an empty filter: every value (issue 35, item 19).
        w.openPath(sample("gpu_vllm_update_slice"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_vllm_update_slice")));
        QTRY_VERIFY(!w.valueTable()->isFiltering());
        QVERIFY(filter->text().isEmpty());
        QCOMPARE(table->model()->rowCount(), static_cast<int>(w.current().dump->values.size()));
        filter->setText(QStringLiteral("Wrapped_Slice"));
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_VERIFY(!w.valueTable()->isFiltering());
        QCOMPARE(table->model()->rowCount(), rowsMatching("wrapped_slice"));
        // Cleared: every value again.
        filter->clear();
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_VERIFY(!w.valueTable()->isFiltering());
        QCOMPARE(table->model()->rowCount(), static_cast<int>(w.current().dump->values.size()));
        QVERIFY(w.valueTable()->countText().isEmpty());
    }

    void errorNamesFileAndLine()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad-buffer-assignment.txt"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("HloModule foo\nENTRY main {\n}\n");
        f.close();
        MainWindow w;
        w.show();
        w.openPath(bad);
        QMessageBox *box = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (box = w.findChild<QMessageBox *>()) != nullptr; },
                                10000));
        QVERIFY2(box->text().contains(QStringLiteral("bad-buffer-assignment.txt")),
                 qPrintable(box->text()));
        QVERIFY2(box->text().contains(QStringLiteral("line 1")), qPrintable(box->text()));
        box->close();
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
