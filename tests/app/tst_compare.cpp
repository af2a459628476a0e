// The compare window: two dumps side by side, why memory changed, two comparisons at once.
#include "WindowTest.h"

class TestCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { useTestSettings("tst_compare"); }

    // The Compare window opens on why (issue 48): a parameter no longer donated
    // (core/EditedDumps.h; tst_causes works its figures out: +16384 at the peak and held)
    // is the first cause, its sentence says what to check, and its value is a link that
    // shows the output on both curves.
    void compareSaysWhy()
    {
        QTemporaryDir dir;
        const QString before = dir.filePath(QStringLiteral("donated-buffer-assignment.txt"));
        const QString after = dir.filePath(QStringLiteral("copied-buffer-assignment.txt"));
        testutil::writeFile(before.toStdString(), testutil::withParameter1(true));
        testutil::writeFile(after.toStdString(), testutil::withParameter1(false));
        MainWindow w;
        w.show();
        w.openPath(before);
        QVERIFY(waitLoaded(w, QStringLiteral("donated")));
        CompareView *view = nullptr;
        connect(&w, &MainWindow::compareOpened, this, [&](CompareView *v) { view = v; });
        w.compareWith(after);
        QVERIFY(QTest::qWaitFor([&] { return view != nullptr; }, 10000));
        QCOMPARE(view->tabs()->currentWidget(), view->whyPage());
        // One cause: the moved peak's −544 is netted into the lost donation (tst_causes).
        QCOMPARE(view->tabs()->tabText(0), QStringLiteral("Why (1)"));
        QVERIFY2(view->headline()->text().contains(
                     QStringLiteral("mostly because parameter 1 is no longer donated")),
                 qPrintable(view->headline()->text()));
        QVERIFY(view->headline()->text().contains(QStringLiteral("The peak moved")));
        // The summary says where the peak went in the same one sentence (issue 75).
        QVERIFY2(view->summaryText().contains(richEscaped(view->diff().why.peakMovedText)),
                 qPrintable(view->summaryText()));
        QTableWidget *causes = view->causesTable();
        QCOMPARE(causes->rowCount(), 1);
        QCOMPARE(causes->item(0, 0)->text(), QStringLiteral("donation_lost"));
        QCOMPARE(causes->item(0, 1)->data(BytesRole).toLongLong(), 16384 - 544);
        QCOMPARE(causes->item(0, 2)->data(BytesRole).toLongLong(), 16384);
        QVERIFY(causes->item(0, 3)->text().contains(QStringLiteral("donate_argnums")));
        const auto *label = qobject_cast<QLabel *>(causes->cellWidget(0, 3));
        QVERIFY(label);
        QVERIFY(label->text().contains(QStringLiteral(">select_multiply_fusion{}</a>")));
        // Each row as tall as its wrapped text, and the row on screen with its sentence.
        QTRY_VERIFY(causes->rowHeight(0) >= label->heightForWidth(causes->columnWidth(3)));
        QVERIFY(causes->rowViewportPosition(0) >= 0);
        QTRY_VERIFY2(causes->rowHeight(0) < causes->viewport()->height(),
                     qPrintable(QStringLiteral("row %1 px, viewport %2 px, column %3 px, window %4")
                                    .arg(causes->rowHeight(0))
                                    .arg(causes->viewport()->height())
                                    .arg(causes->columnWidth(3))
                                    .arg(view->height())));
        const Cause &c = view->diff().why.causes.front();
        view->showCauseValue(QStringLiteral("b:%1").arg(c.valuesAfter.front()));
        QVERIFY2(view->shownLabel(true).contains(QStringLiteral("select_multiply_fusion")),
                 qPrintable(view->shownLabel(true)));
        QVERIFY(view->shownLabel(false).contains(QStringLiteral("select_multiply_fusion")));
        // The summary adds what is held.
        QVERIFY(view->summaryText().contains(QStringLiteral("held")));
        // Copy as CSV reads the plain sentence.
        const auto rows = testutil::readCsv(QString::fromUtf8(TableCsv::of(causes)));
        QVERIFY(rows);
        QCOMPARE(rows->at(1).at(0), QStringLiteral("donation_lost"));
        QVERIFY(rows->at(1).at(3).startsWith(QStringLiteral("parameter 1 (f32[64,32]")));
        // Another tab and another filter, then back: the causes are as they were.
        const int height = causes->rowHeight(0);
        view->tabs()->setCurrentIndex(view->tabs()->count() - 1);
        const int filter = view->valueFilter()->currentIndex();
        view->valueFilter()->setCurrentIndex(view->valueFilter()->count() - 1);
        view->valueFilter()->setCurrentIndex(filter);
        view->tabs()->setCurrentWidget(view->whyPage());
        QCOMPARE(causes->rowCount(), 1);
        QCOMPARE(causes->rowHeight(0), height);
        QCOMPARE(qobject_cast<QLabel *>(causes->cellWidget(0, 3)), label);
        // The main window goes while the comparison is still open, as when the user quits:
        // the comparison hands its dumps to the job runner first (ASan caught it freed).
        QVERIFY(view->isVisible());
    }

    // Two training steps compared (tests/bench/make_training_step.py, its figures worked out
    // by hand in tst_categories): with h1 recomputed the activations go, 2 × 524,288 bytes held
    // and at the peak before, none after; the By category tab says so with the categories'
    // colours.
    void compareSaysWhatKindChanged()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("protoc")).isEmpty())
            QSKIP("python3 or protoc is not installed: the training steps cannot be made");
        QTemporaryDir dir;
        const QString before = dir.filePath(QStringLiteral("module_0001.jit_train_step.hlo.pb"));
        const QString after = dir.filePath(QStringLiteral("module_0002.jit_train_step.hlo.pb"));
        for (const auto &[out, extra] :
             {std::pair{before, QStringList{}},
              std::pair{after, QStringList{QStringLiteral("--remat"), QStringLiteral("1")}}}) {
            QProcess make;
            make.start(QStringLiteral("python3"),
                       QStringList{QStringLiteral(BUFFERSCOPE_SOURCE_DIR
                                                  "/tests/bench/make_training_step.py"),
                                   out} +
                           extra);
            QVERIFY(make.waitForFinished(60000));
            QCOMPARE(make.exitCode(), 0);
        }
        MainWindow w;
        w.show();
        w.openPath(before);
        QVERIFY(waitLoaded(w, QStringLiteral("module_0001.jit_train_step")));
        CompareView *view = nullptr;
        connect(&w, &MainWindow::compareOpened, this, [&](CompareView *v) { view = v; });
        w.compareWith(after);
        QVERIFY(QTest::qWaitFor([&] { return view != nullptr; }, 10000));
        QTableWidget *table = view->categoryTable();
        const int tab = view->tabs()->indexOf(table);
        QVERIFY(tab >= 0);
        // The tables are filled a turn of the event loop after the window shows.
        QTRY_VERIFY2(view->tabs()->tabText(tab).startsWith(QStringLiteral("By category (")),
                     qPrintable(view->tabs()->tabText(tab)));
        int activations = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 6)->text() == QStringLiteral("Activations"))
                activations = r;
        QVERIFY(activations >= 0);
        constexpr qint64 kA = 524288;
        QCOMPARE(table->item(activations, 0)->data(BytesRole).toLongLong(), -2 * kA);
        QCOMPARE(table->item(activations, 1)->data(BytesRole).toLongLong(), 2 * kA);
        QCOMPARE(table->item(activations, 2)->data(BytesRole).toLongLong(), 0);
        QCOMPARE(table->item(activations, 4)->data(BytesRole).toLongLong(), 2 * kA);
        QCOMPARE(table->item(activations, 5)->data(BytesRole).toLongLong(), 0);
        // The swatch is the category's colour, as in the Categories view.
        const QImage swatch = table->item(activations, 6)->icon().pixmap(12, 12).toImage();
        QCOMPARE(swatch.pixelColor(6, 6), ChartPalette::categoryColor(Category::Activations));
        // Weights and the optimizer state are the same on both sides: ±0.
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 6)->text() == QStringLiteral("Weights"))
                QCOMPARE(table->item(r, 0)->data(BytesRole).toLongLong(), 0);
        view->close();
    }

    // Two modules with long names compare in a window a laptop holds (issue 49, item 2: the
    // header held both names unbroken and the window could not be narrower than 1,794 px):
    // the names as people give them, breakable, the legend's keys cut in their middle, the
    // full names in the tooltip.
    void compareWindowFitsALaptop()
    {
        QTemporaryDir dir;
        const QString longName =
            QStringLiteral("module_0655.jit__tau_channel_step_with_a_much_longer_function_name_"
                           "for_the_solver_loop_of_the_model.sm_8.0_gpu_after_optimizations");
        const QString before = dir.filePath(longName + QStringLiteral("-buffer-assignment.txt"));
        const QString after =
            dir.filePath(QString(longName).replace(QStringLiteral("0655"), QStringLiteral("0656")) +
                         QStringLiteral("-buffer-assignment.txt"));
        QVERIFY(QFile::copy(sample("tpu_dynamic_slice"), before));
        QVERIFY(QFile::copy(sample("tpu_random_normal"), after));
        MainWindow w;
        w.show();
        w.openPath(before);
        QVERIFY(waitLoaded(w, longName));
        CompareView *view = nullptr;
        connect(&w, &MainWindow::compareOpened, this, [&](CompareView *v) { view = v; });
        w.compareWith(after);
        QVERIFY(QTest::qWaitFor([&] { return view != nullptr; }, 10000));
        QVERIFY2(view->minimumSizeHint().width() <= 1280,
                 qPrintable(QString::number(view->minimumSizeHint().width())));
        QVERIFY2(view->summaryText().contains(QStringLiteral("(0655)")),
                 qPrintable(view->summaryText()));
        for (int i = 0; i < 2; ++i)
            QVERIFY2(view->plot()->graph(i)->name().contains(QChar(0x2026)),
                     qPrintable(view->plot()->graph(i)->name()));
        QVERIFY(view->findChild<QLabel *>()->toolTip().contains(longName));
    }

    // Two comparisons asked at once are both answered (issue 75: one lane and one broadcast
    // for every comparison, so the second cancelled the first, which said "comparison
    // stopped"): a window each, with its own diff (docs/FORMAT.md Part A: tpu_dynamic_slice's
    // total 18980 B against tpu_random_normal's 92676 B and tpu_unstack's), and no error.
    void twoComparisonsAtOnce()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("tpu_dynamic_slice"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_dynamic_slice")));
        QList<QPointer<CompareView>> views;
        connect(&w, &MainWindow::compareOpened, this, [&](CompareView *v) { views << v; });
        QStringList errors;
        connect(&w, &MainWindow::errorShown, this, [&](const QString &e) { errors << e; });
        w.compareWith(sample("tpu_random_normal"));
        w.compareWith(sample("tpu_unstack"));
        QVERIFY(QTest::qWaitFor([&] { return views.size() == 2; }, 20000));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QList<qint64> deltas;
        for (const QPointer<CompareView> &v : views)
            deltas << v->diff().totalDelta();
        std::sort(deltas.begin(), deltas.end());
        const qint64 from = testutil::sampleTruth("tpu_dynamic_slice").total;
        QList<qint64> expected{testutil::sampleTruth("tpu_random_normal").total - from,
                               testutil::sampleTruth("tpu_unstack").total - from};
        std::sort(expected.begin(), expected.end());
        QCOMPARE(deltas, expected);
        for (const QPointer<CompareView> &v : views)
            v->close();
    }

    void compareTwoDumps()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("tpu_dynamic_slice"));
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_dynamic_slice")));
        // The other dump loads and compares in the background; the window opens after.
        CompareView *view = nullptr;
        int opened = 0;
        connect(&w, &MainWindow::compareOpened, this, [&](CompareView *v) {
            view = v;
            ++opened;
        });
        w.compareWith(sample("tpu_random_normal"));
        QVERIFY(QTest::qWaitFor([&] { return view != nullptr; }, 10000));
        QCOMPARE(view->parentWidget(), &w);
        QVERIFY(view->isWindow());
        // docs/FORMAT.md Part A: totals 18980 -> 92676, peaks 9728 -> 17920.
        const testutil::SampleTruth &from = testutil::sampleTruth("tpu_dynamic_slice");
        const testutil::SampleTruth &to = testutil::sampleTruth("tpu_random_normal");
        QCOMPARE(view->diff().totalDelta(), to.total - from.total);
        QCOMPARE(view->diff().peakDelta(), to.peakBytes - from.peakBytes);
        // Before, after, and the difference shaded by direction (issue 35, item 18): one fill
        // where after is higher, another where it is lower, each against before's curve.
        QCOMPARE(view->plot()->graphCount(), 4);
        QCOMPARE(view->plot()->graph(2)->channelFillGraph(), view->plot()->graph(0));
        QCOMPARE(view->plot()->graph(3)->channelFillGraph(), view->plot()->graph(0));
        QVERIFY(view->plot()->graph(2)->brush().color() != view->plot()->graph(3)->brush().color());
        // The tables fill a moment after the window shows. tst_diff works this comparison out
        // by hand: 8 values differ at the peaks, the largest the new select_multiply_fusion.
        QTRY_COMPARE(view->opNameTree()->topLevelItemCount(),
                     static_cast<int>(view->diff().opNameTree.children.size()));
        QCOMPARE(view->opNameTree()->topLevelItem(0)->text(0), QStringLiteral("jit(_normal)"));
        // Names last, numbers first, in the trees as in the tables (issue 35, item 18).
        QCOMPARE(view->opNameTree()->header()->visualIndex(0), 3);
        QCOMPARE(view->peakTable()->rowCount(), 8);
        QCOMPARE(view->tabs()->tabText(view->tabs()->indexOf(view->peakTable())),
                 QStringLiteral("At the peaks (8)"));
        QCOMPARE(view->peakTable()->item(0, 4)->text(), QStringLiteral("select_multiply_fusion{}"));
        QVERIFY(!view->tabs()->isTabVisible(view->tabs()->indexOf(view->stackTree())));
        QAbstractItemModel *changes = view->valuesTable()->model();
        QCOMPARE(changes->rowCount(),
                 static_cast<int>(view->diff().added.size() + view->diff().removed.size() +
                                  view->diff().changed.size()));
        // Rows as the diff lists them (added first); sorting by Δ bytes puts the largest growth
        // on top.
        QCOMPARE(changes->index(0, 0).data().toString(), QStringLiteral("added"));
        QCOMPARE(changes->index(0, 4).data().toString(),
                 QString::fromStdString(view->diff().added.front().name()));
        view->valuesTable()->sortByColumn(1, Qt::DescendingOrder);
        for (int r = 1; r < changes->rowCount(); ++r)
            QVERIFY(changes->index(r - 1, 1).data(BytesRole).toLongLong() >=
                    changes->index(r, 1).data(BytesRole).toLongLong());
        QVERIFY(view->summaryText().contains(
            QStringLiteral("3 in both (0 renamed), 12 added, 6 removed, 1 changed")));
        // The comparison's tables copy as CSV like every other: exact signed bytes, and "—"
        // where a value is on one side only.
        for (QAbstractItemView *t : view->findChildren<QAbstractItemView *>()) {
            if (qobject_cast<QTableView *>(t) || qobject_cast<QTreeView *>(t))
                QVERIFY2(t->actions().size() >= 2, t->metaObject()->className());
        }
        // The curves export too: as data, one row per aligned step, peaking at the peaks
        // above; as a vector picture.
        {
            QTemporaryDir dir;
            const QString csvPath = dir.filePath(QStringLiteral("compare.csv"));
            QString why;
            QVERIFY2(view->exportChart(csvPath, ExportOptions(), &why), qPrintable(why));
            QFile f(csvPath);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto curves = testutil::readCsv(QString::fromUtf8(f.readAll()));
            QVERIFY(curves);
            QCOMPARE(curves->size(), 1 + view->diff().match.steps.rows.size());
            QCOMPARE(curves->front().at(5), QStringLiteral("live_bytes_before"));
            qint64 peakBefore = 0, peakAfter = 0;
            for (std::size_t r = 1; r < curves->size(); ++r) {
                const QStringList &row = (*curves)[r];
                peakBefore = std::max(peakBefore, row.at(5).toLongLong());
                peakAfter = std::max(peakAfter, row.at(6).toLongLong());
                QCOMPARE(row.at(7).toLongLong(), row.at(6).toLongLong() - row.at(5).toLongLong());
            }
            QCOMPARE(peakBefore, qint64(9728));
            QCOMPARE(peakAfter, qint64(17920));
            // The legend names the shading that occurs: after is higher somewhere (its peak is),
            // and lower where the CSV says so.
            bool lower = false;
            for (std::size_t r = 1; r < curves->size(); ++r)
                lower = lower || (*curves)[r].at(7).toLongLong() < 0;
            QStringList legend;
            for (int k = 0; k < view->plot()->legend->itemCount(); ++k)
                if (auto *item =
                        qobject_cast<QCPPlottableLegendItem *>(view->plot()->legend->item(k)))
                    legend << item->plottable()->name();
            QVERIFY2(legend.contains(QStringLiteral("after is higher")),
                     qPrintable(legend.join(u',')));
            QCOMPARE(legend.contains(QStringLiteral("after is lower")), lower);
            const QString svgPath = dir.filePath(QStringLiteral("compare.svg"));
            QVERIFY2(view->exportChart(svgPath, ExportOptions::sized(800, 400), &why),
                     qPrintable(why));
            QFile svg(svgPath);
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QByteArray text = svg.readAll();
            QVERIFY(text.contains("<svg"));
            QVERIFY(text.contains("Live bytes of tpu_dynamic_slice and tpu_random_normal"));
            QVERIFY(!view->exportChart(dir.filePath(QStringLiteral("compare.gif")), ExportOptions(),
                                       &why));
            QVERIFY(why.contains(QLatin1String(".png, .svg, .pdf or .csv")));
        }
        const auto atPeak = testutil::readCsv(QString::fromUtf8(TableCsv::of(view->peakTable())));
        QVERIFY(atPeak);
        QCOMPARE(static_cast<int>(atPeak->size()), 1 + 8);
        QCOMPARE(atPeak->front().at(1), QStringLiteral("Δ at the peak (bytes)"));
        QCOMPARE(atPeak->at(1).at(4), QStringLiteral("select_multiply_fusion{}"));
        const auto valueRows =
            testutil::readCsv(QString::fromUtf8(TableCsv::of(view->valuesTable())));
        QVERIFY(valueRows);
        QCOMPARE(static_cast<int>(valueRows->size()), 1 + changes->rowCount());
        QCOMPARE(valueRows->front().at(2), QStringLiteral("before (bytes)"));
        for (std::size_t r = 1; r < valueRows->size(); ++r) {
            const QStringList &row = (*valueRows)[r];
            QCOMPARE(row.at(1).toLongLong(),
                     changes->index(static_cast<int>(r - 1), 1).data(BytesRole).toLongLong());
            if (row.at(0) == QLatin1String("added"))
                QCOMPARE(row.at(2), QStringLiteral("—"));
        }
        // Clicking a removed value's row selects it in the main window (it is in the dump on
        // screen); an added one is only in the other dump.
        const auto clickRow = [&](const QString &kind) {
            for (int r = 0; r < changes->rowCount(); ++r) {
                if (changes->index(r, 0).data().toString() != kind)
                    continue;
                view->valuesTable()->scrollTo(changes->index(r, 4));
                QTest::mouseClick(view->valuesTable()->viewport(), Qt::LeftButton, {},
                                  view->valuesTable()->visualRect(changes->index(r, 4)).center());
                return changes->index(r, 4).data().toString();
            }
            return QString();
        };
        w.selection()->clear();
        const QString removed = clickRow(QStringLiteral("removed"));
        QVERIFY(!removed.isEmpty());
        QVERIFY(w.selection()->currentValue() >= 0);
        QCOMPARE(
            QString::fromStdString(w.current().dump->valueKey(
                w.current().dump->values[static_cast<std::size_t>(w.selection()->currentValue())])),
            removed);
        // Its live range shows on before's curve (steps 0-8 of tpu_dynamic_slice are the
        // aligned rows: A's steps 2-7 come before B's 3-15, see tst_diff), none on after's.
        const std::pair<double, double> none{-1, -1};
        QVERIFY(view->shownRange(false) != none);
        QCOMPARE(view->shownRange(true), none);
        // The band is named, not an unlabelled strip (issue 35, item 18).
        QVERIFY2(view->shownLabel(false).startsWith(QStringLiteral("before: ") + removed),
                 qPrintable(view->shownLabel(false)));
        QVERIFY(view->shownLabel(true).isEmpty());
        const int kept = w.selection()->currentValue();
        const QString added = clickRow(QStringLiteral("added"));
        QCOMPARE(w.selection()->currentValue(), kept);
        QVERIFY(w.statusBar()->currentMessage().contains(added));
        QCOMPARE(view->shownRange(false), none);
        QVERIFY(view->shownRange(true) != none);
        // The filters: 12 added, 6 removed, 1 changed (resized, live range), no lost donation.
        const auto filterTo = [&](const QString &prefix) {
            for (int i = 0; i < view->valueFilter()->count(); ++i)
                if (view->valueFilter()->itemText(i).startsWith(prefix))
                    view->valueFilter()->setCurrentIndex(i);
            return changes->rowCount();
        };
        QCOMPARE(filterTo(QStringLiteral("added (")), 12);
        QCOMPARE(filterTo(QStringLiteral("removed (")), 6);
        QCOMPARE(filterTo(QStringLiteral("shrunk (")), 1);
        QCOMPARE(filterTo(QStringLiteral("grown (")), 0);
        QCOMPARE(filterTo(QStringLiteral("lost donation (")), 0);
        QCOMPARE(filterTo(QStringLiteral("all changes (")), 19);
        if (qEnvironmentVariableIsSet("BUFFERSCOPE_SHOTS")) {
            QTest::qWait(200);
            view->grab().save(QStringLiteral("/tmp/compare.png"));
            view->tabs()->setCurrentWidget(view->opNameTree());
            QTest::qWait(100);
            view->grab().save(QStringLiteral("/tmp/compare-opname.png"));
        }
        // Ctrl+W closes the comparison window (issue 35, item 18), as Esc does.
        QVERIFY(view->isVisible());
        view->activateWindow();
        view->valuesTable()->setFocus();
        QTest::keyClick(view->valuesTable(), Qt::Key_W, Qt::ControlModifier);
        QTRY_VERIFY(!view->isVisible());
        w.compareWith(QStringLiteral("/nonexistent-buffer-assignment.txt"));
        QMessageBox *box = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (box = w.findChild<QMessageBox *>()) != nullptr; },
                                10000));
        QVERIFY2(box->text().contains(QStringLiteral("no such file")), qPrintable(box->text()));
        QCOMPARE(opened, 1);
        box->close();
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
