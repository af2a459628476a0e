// Widget tests for the chart views and the inspector, on every sample dump (offscreen).
// The expected steps of uses and positions were read off the dumps by hand: the value's
// `positions:`/`uses:` lines, looked up in the InstructionSequence.
#include "ViewTest.h"

class TestViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyChartsSpanTheirPlot()
    {
        // Before the first dump (while it loads) a chart says so in its place, no empty axes
        // (issue 49, item 8); once it draws, its axes span its whole width: an empty legend
        // must not have narrowed the column it shares with the axis rect.
        Views v;
        for (ChartView *c : {static_cast<ChartView *>(&v.usage), static_cast<ChartView *>(&v.gantt),
                             static_cast<ChartView *>(&v.map)}) {
            c->resize(1000, 520);
            c->show();
            QVERIFY(QTest::qWaitForWindowExposed(c));
            QVERIFY(c->emptyStateText().startsWith(QStringLiteral("No dump shown yet")));
        }
        QVERIFY(v.load(QStringLiteral("tpu_unstack")));
        for (ChartView *c : {static_cast<ChartView *>(&v.usage), static_cast<ChartView *>(&v.gantt),
                             static_cast<ChartView *>(&v.map)}) {
            QVERIFY(c->emptyStateText().isEmpty());
            c->plot()->replot();
            QVERIFY2(c->plot()->axisRect()->width() > c->plot()->width() * 7 / 10,
                     qPrintable(QStringLiteral("%1: axis rect %2 px wide in a %3 px plot")
                                    .arg(QLatin1String(c->metaObject()->className()))
                                    .arg(c->plot()->axisRect()->width())
                                    .arg(c->plot()->width())));
        }
        Views fresh;
        fresh.gantt.show();
        // The count of values without a live range has nothing to count yet.
        const auto buttons = fresh.gantt.findChildren<QToolButton *>();
        QVERIFY(std::none_of(buttons.begin(), buttons.end(), [](const QToolButton *b) {
            return b->isVisible() && b->text().isEmpty();
        }));
        QVERIFY(fresh.load(QStringLiteral("gpu_decoder_layer")));
        QVERIFY(std::any_of(buttons.begin(), buttons.end(), [](const QToolButton *b) {
            return b->isVisible() && b->text() == QStringLiteral("No live range: 3");
        }));
    }
    void selection_data()
    {
        QTest::addColumn<QString>("dump");
        QTest::addColumn<QString>("value");
        QTest::addColumn<Steps>("positions");
        QTest::addColumn<Steps>("uses");
        QTest::newRow("gpu_decoder_layer fusion.40") << "gpu_decoder_layer"
                                                     << "fusion.40" << Steps{36} << Steps{37};
        QTest::newRow("gpu_vllm_update_slice tuple element")
            << "gpu_vllm_update_slice"
            << "loop_broadcast_dynamic_update_slice_fusion{0}" << Steps{61, 62, 68, 69, 70, 75}
            << Steps{68, 75};
        QTest::newRow("tpu_dynamic_slice Arg_0.1") << "tpu_dynamic_slice"
                                                   << "Arg_0.1" << Steps{0, 1} << Steps{1, 6};
        QTest::newRow("tpu_random_normal fusion.23{0}")
            << "tpu_random_normal"
            << "fusion.23{0}" << Steps{5, 7, 9} << Steps{9, 10, 15};
        QTest::newRow("tpu_unstack slice_reduce_fusion{1}")
            << "tpu_unstack"
            << "slice_reduce_fusion{1}" << Steps{1, 4, 6} << Steps{6};
    }

    void selection()
    {
        QFETCH(QString, dump);
        QFETCH(QString, value);
        QFETCH(Steps, positions);
        QFETCH(Steps, uses);
        Views views;
        QVERIFY(views.load(dump));
        const Dump &d = *views.loaded.dump;
        const std::uint32_t found = d.findValue(value.toStdString());
        QVERIFY(found != kNone);
        const int v = static_cast<int>(found);

        // Programmatically: every view follows within the same call (no event loop turn).
        views.selection.setCurrentValue(v);
        views.expectEverywhere(v);
        QCOMPARE(views.gantt.markedUseSteps(), uses);
        QCOMPARE(views.gantt.markedPositionSteps(), positions);
        QVERIFY(views.inspector.details()->toPlainText().contains(value));
        QVERIFY(!views.inspector.instructionText()->toPlainText().isEmpty());
        const auto range = views.usage.highlightedRange();
        QCOMPARE(range.first, static_cast<double>(d.values[found].start));
        QCOMPARE(range.second, static_cast<double>(d.values[found].end + 1));

        // Esc in a chart clears the value everywhere.
        views.gantt.plot()->setFocus();
        QTest::keyClick(views.gantt.plot(), Qt::Key_Escape);
        views.expectEverywhere(-1);
        QVERIFY(views.gantt.markedUseSteps().empty());

        // A click on the value's Gantt bar selects it.
        views.gantt.plot()->replot();
        QRectF bar =
            views.gantt.boxes()->pixelRect(views.gantt.boxes()->boxes()[static_cast<std::size_t>(
                views.gantt.boxes()->boxesOfValue(found).front())]);
        QTest::mouseClick(views.gantt.plot(), Qt::LeftButton, {}, bar.center().toPoint());
        views.expectEverywhere(v);
        QCOMPARE(views.gantt.markedUseSteps(), uses);

        // A click on its memory-map box selects it too (after clearing).
        views.selection.clear();
        views.map.plot()->replot();
        const std::vector<int> boxes = views.map.boxes()->boxesOfValue(found);
        QCOMPARE(boxes.size(), std::size_t(1));
        const QRectF box = views.map.boxes()->pixelRect(
            views.map.boxes()->boxes()[static_cast<std::size_t>(boxes.front())]);
        QVERIFY2(box.width() >= 1 && box.height() >= 1, "the value's box is drawn");
        QTest::mouseClick(views.map.plot(), Qt::LeftButton, {}, box.center().toPoint());
        views.expectEverywhere(v);
        QVERIFY(
            views.map.toolTipAt(box.center())
                .contains(QStringLiteral("0x%1").arg(QString::number(d.values[found].offset, 16))));

        // Arrow keys walk the program order.
        views.selection.setCurrentStep(2);
        views.usage.plot()->setFocus();
        QTest::keyClick(views.usage.plot(), Qt::Key_Right);
        QCOMPARE(views.selection.currentStep(), qint64(3));
        QTest::keyClick(views.usage.plot(), Qt::Key_Left);
        QTest::keyClick(views.usage.plot(), Qt::Key_Left);
        QCOMPARE(views.selection.currentStep(), qint64(1));
    }

    void flowMarkedInEveryView_data()
    {
        QTest::addColumn<int>("fact");
        for (std::size_t i = 0; i < testutil::flowFacts().size(); ++i) {
            const testutil::FlowFact &f = testutil::flowFacts()[i];
            QTest::newRow(qPrintable(
                QStringLiteral("%1 %2").arg(QLatin1String(f.sample), QLatin1String(f.value))))
                << static_cast<int>(i);
        }
    }

    void oneClickOneReplot()
    {
        // Choosing a value outside the step moves the step too (the workspace's rule): every
        // chart redraws its highlight once for the two, not once for each.
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        const Dump &d = *views.loaded.dump;
        const int v = static_cast<int>(d.findValue("fusion.40"));
        QVERIFY(v >= 0);
        views.selection.setCurrentStep(d.values[static_cast<std::size_t>(v)].end + 5);
        QVERIFY(!d.values[static_cast<std::size_t>(v)].liveAt(views.selection.currentStep()));
        const int usage = views.usage.highlightReplots();
        const int gantt = views.gantt.highlightReplots();
        views.selection.setCurrentValue(v);
        QCOMPARE(views.selection.currentStep(), d.values[static_cast<std::size_t>(v)].start);
        QCOMPARE(views.usage.highlightReplots(), usage + 1);
        QCOMPARE(views.gantt.highlightReplots(), gantt + 1);
        // The inspector's data flow is the workspace's, worked out once.
        const auto flow = views.workspace.flow(views.loaded.dump, v);
        QCOMPARE(views.workspace.flow(views.loaded.dump, v).get(), flow.get());
        QVERIFY(views.inspector.details()->toPlainText().contains(QStringLiteral("fusion.40")));
    }

    void flowMarkedInEveryView()
    {
        // Every step-axis view marks the uses and positions worked out by hand (FlowFacts.h),
        // and the Gantt and the memory map tint the producers and consumers they draw.
        QFETCH(int, fact);
        const testutil::FlowFact &f = testutil::flowFacts()[static_cast<std::size_t>(fact)];
        Views views;
        QVERIFY(views.load(QString::fromLatin1(f.sample)));
        const Dump &d = *views.loaded.dump;
        const std::uint32_t found = d.findValue(f.value);
        QVERIFY(found != kNone);
        const bool drawn = d.values[found].hasLiveRange();
        // Values without a live range (thread-local) are drawn nowhere, so nothing is marked.
        const std::vector<qint64> uses =
            drawn ? std::vector<qint64>(f.useSteps.begin(), f.useSteps.end())
                  : std::vector<qint64>();
        const std::vector<qint64> positions =
            drawn ? std::vector<qint64>(f.positionSteps.begin(), f.positionSteps.end())
                  : std::vector<qint64>();
        const auto drawnIds = [&d](const std::vector<std::int64_t> &ids) {
            std::vector<std::int64_t> out;
            for (std::int64_t id : ids)
                if (d.values[d.findValueById(id)].hasLiveRange())
                    out.push_back(id);
            return out;
        };
        const auto ids = [&d](const std::vector<std::uint32_t> &values) {
            std::vector<std::int64_t> out;
            for (std::uint32_t v : values)
                out.push_back(d.values[v].id);
            return out;
        };
        const auto expectMarks = [&] {
            for (ChartView *view :
                 {static_cast<ChartView *>(&views.usage), static_cast<ChartView *>(&views.gantt),
                  static_cast<ChartView *>(&views.map)}) {
                const QString where = view->viewName();
                const auto *box = qobject_cast<BoxChartView *>(view);
                const std::vector<qint64> u =
                    box ? box->markedUseSteps() : views.usage.markedUseSteps();
                const std::vector<qint64> p =
                    box ? box->markedPositionSteps() : views.usage.markedPositionSteps();
                QVERIFY2(u == uses, qPrintable(where));
                QVERIFY2(p == positions, qPrintable(where));
                if (!box)
                    continue;
                QVERIFY2(ids(box->tintedProducers()) == drawnIds(f.producers), qPrintable(where));
                QVERIFY2(ids(box->tintedConsumers()) == drawnIds(f.consumers), qPrintable(where));
            }
        };
        views.selection.setCurrentValue(static_cast<int>(found));
        expectMarks();
        if (!drawn)
            return;
        // By a click on its Gantt bar, after clearing.
        views.selection.clear();
        QVERIFY(views.gantt.markedUseSteps().empty() && views.usage.markedUseSteps().empty());
        views.gantt.plot()->replot();
        const QRectF bar =
            views.gantt.boxes()->pixelRect(views.gantt.boxes()->boxes()[static_cast<std::size_t>(
                views.gantt.boxes()->boxesOfValue(found).front())]);
        QTest::mouseClick(views.gantt.plot(), Qt::LeftButton, {}, bar.center().toPoint());
        QCOMPARE(views.selection.currentValue(), static_cast<int>(found));
        expectMarks();
        // Hovering a use mark on the usage curve names the reader and the operand.
        if (!uses.empty()) {
            views.usage.plot()->replot();
            const QPointF at = views.usage.markPixel(uses.front());
            QVERIFY(!at.isNull());
            views.usage.moveCursorTo(at.x(), at.y() - 5); // the triangle sits above the curve
            const std::uint32_t reader = d.instructionAtStep(uses.front());
            const QString text = views.usage.cursorText();
            QVERIFY2(text.contains(QStringLiteral("use: %1, operand ")
                                       .arg(QString::fromUtf8(d.str(d.instructions[reader].name)))),
                     qPrintable(text));
        }
    }

    void instructionsTableMarks_data() { flowMarkedInEveryView_data(); }

    void instructionsTableMarks()
    {
        // The Instructions table marks and tints exactly the hand-worked use and position steps
        // (FlowFacts.h), and shows only those when asked.
        QFETCH(int, fact);
        const testutil::FlowFact &f = testutil::flowFacts()[static_cast<std::size_t>(fact)];
        Views views;
        QVERIFY(views.load(QString::fromLatin1(f.sample)));
        InstructionListModel model;
        InstructionsView table(&model, &views.workspace);
        table.setDump(views.loaded.dump, views.loaded.timeline);
        std::vector<qint64> expected(f.useSteps.begin(), f.useSteps.end());
        expected.insert(expected.end(), f.positionSteps.begin(), f.positionSteps.end());
        std::sort(expected.begin(), expected.end());
        expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
        views.selection.setCurrentValue(static_cast<int>(views.loaded.dump->findValue(f.value)));
        bool explained = true; // marked rows say why, unmarked ones say nothing
        const auto markedRows = [&model, &explained] {
            std::vector<qint64> steps;
            for (int row = 0; row < model.rowCount(); ++row) {
                const QModelIndex i = model.index(row, InstructionListModel::MarksColumn);
                const bool marked = i.data(MarkedRole).toBool();
                if (marked)
                    steps.push_back(i.data(StepRole).toLongLong());
                explained = explained && marked == !i.data().toString().isEmpty();
            }
            return steps;
        };
        QCOMPARE(markedRows(), expected);
        table.onlyMarkedBox()->setChecked(true);
        QCOMPARE(model.rowCount(), static_cast<int>(expected.size()));
        QCOMPARE(markedRows(), expected);
        QVERIFY(explained);
        // Clearing the selection leaves nothing to show.
        views.selection.clear();
        QCOMPARE(model.rowCount(), 0);
        table.onlyMarkedBox()->setChecked(false);
        QCOMPARE(model.rowCount(), static_cast<int>(views.loaded.dump->stepCount()));
    }

    void instructionsTableSelectsByClick()
    {
        // gpu_decoder_layer: step 36 is fusion.40 (value 177), step 37 custom-call.5.0, a tuple
        // defining 178, 179 and 180, step 38 get-tuple-element.5, which defines none.
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        const Dump &d = *views.loaded.dump;
        InstructionListModel model;
        InstructionsView table(&model, &views.workspace);
        table.resize(500, 600);
        table.setDump(views.loaded.dump, views.loaded.timeline);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QTableView *view = table.table();
        const auto clickStep = [&](int step) {
            view->scrollTo(model.index(step, 0));
            const QRect cell =
                view->visualRect(model.index(step, InstructionListModel::InstructionColumn));
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        };
        clickStep(36);
        QCOMPARE(views.selection.currentStep(), qint64(36));
        QCOMPARE(d.values[static_cast<std::size_t>(views.selection.currentValue())].id,
                 std::int64_t(177));
        // fusion.40 is read by custom-call.5.0 at step 37 as operand 0.
        QCOMPARE(model.index(37, InstructionListModel::MarksColumn).data().toString(),
                 QStringLiteral("▼ operand 0"));
        QCOMPARE(model.index(36, InstructionListModel::MarksColumn).data().toString(),
                 QStringLiteral("○"));
        clickStep(38); // no value defined: the step moves, the value stays
        QCOMPARE(views.selection.currentStep(), qint64(38));
        QCOMPARE(d.values[static_cast<std::size_t>(views.selection.currentValue())].id,
                 std::int64_t(177));
        clickStep(37); // a tuple: the chooser lists its three values
        QTRY_VERIFY(table.chooser() && table.chooser()->isVisible());
        QStringList entries;
        QAction *second = nullptr;
        for (QAction *a : table.chooser()->actions()) {
            if (a->isSeparator())
                continue;
            entries << a->text().section(QStringLiteral(" · "), 0, 0);
            if (entries.size() == 2)
                second = a;
        }
        QCOMPARE(entries, (QStringList{QStringLiteral("custom-call.5.0{}"),
                                       QStringLiteral("custom-call.5.0{0}"),
                                       QStringLiteral("custom-call.5.0{1}")}));
        second->trigger();
        QCOMPARE(d.values[static_cast<std::size_t>(views.selection.currentValue())].id,
                 std::int64_t(179));
    }

    void dataFlowWalk()
    {
        // gpu_decoder_layer's loop_gather_fusion (175) reads p5.18.0 (203, bf16[151936,1024])
        // and p4.16.0 (204, s32[128]); fusion.40, fusion.38 and fusion.36 (177, 185, 193, all
        // bf16[128,1024]) read it. The inspector links all five; Alt+Up goes to the largest
        // producer, Alt+Down to the largest consumer (ties: the lowest id).
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        const Dump &d = *views.loaded.dump;
        const auto idOfSelected = [&] {
            return d.values[static_cast<std::size_t>(views.selection.currentValue())].id;
        };
        views.selection.setCurrentValue(static_cast<int>(d.findValue("loop_gather_fusion")));
        const QString html = views.inspector.details()->toHtml();
        for (std::int64_t id : {203, 204, 177, 185, 193})
            QVERIFY2(html.contains(QStringLiteral("value:%1").arg(d.findValueById(id))),
                     qPrintable(QString::number(id)));
        views.workspace.action(Workspace::Action::GoToProducer)->trigger();
        QCOMPARE(idOfSelected(), std::int64_t(203));
        views.workspace.action(Workspace::Action::GoToConsumer)->trigger(); // back down the chain
        QCOMPARE(idOfSelected(), std::int64_t(175));
        views.workspace.action(Workspace::Action::GoToConsumer)->trigger();
        QCOMPARE(idOfSelected(), std::int64_t(177));
        // A parameter reads nothing: Go to Producer stays.
        views.selection.setCurrentValue(static_cast<int>(d.findValueById(203)));
        views.workspace.action(Workspace::Action::GoToProducer)->trigger();
        QCOMPARE(idOfSelected(), std::int64_t(203));
        // A producer's link in the inspector selects it.
        views.selection.setCurrentValue(static_cast<int>(d.findValue("loop_gather_fusion")));
        Q_EMIT views.inspector.details()->anchorClicked(
            QUrl(QStringLiteral("value:%1").arg(d.findValueById(204))));
        QCOMPARE(idOfSelected(), std::int64_t(204));
        // Links are not underlined, so "loop_gather_fusion" keeps its underscores visible
        // (issue 35, item 7).
        views.selection.setCurrentValue(static_cast<int>(d.findValueById(203)));
        int anchors = 0;
        for (QTextBlock b = views.inspector.details()->document()->begin(); b.isValid();
             b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                if (it.fragment().charFormat().isAnchor()) {
                    ++anchors;
                    QVERIFY2(!it.fragment().charFormat().fontUnderline(),
                             qPrintable(it.fragment().text()));
                }
        QVERIFY(anchors > 0);
    }

    // An empty Warnings list says why it is empty (issue 49, item 8).
    void emptyWarningsSaySo()
    {
        Workspace workspace;
        WarningsView view(&workspace);
        QCOMPARE(view.emptyText(), QStringLiteral("No dump shown yet."));
        LoadedDump loaded;
        QString error;
        QVERIFY(loadDump(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"),
                         loaded, error));
        QVERIFY(loaded.dump->warnings.empty());
        view.setDiagnostics(loaded.dump, {});
        QCOMPARE(view.emptyText(),
                 QStringLiteral("No warnings: every line of tpu_unstack.buffer-assignment.txt was "
                                "read as XLA writes it."));
        Diagnostic d;
        d.message = "XLA's printed peak step not reproduced";
        view.setDiagnostics(loaded.dump, {d});
        QVERIFY(view.emptyText().isEmpty());
    }

    void usageChartClickAndCursor()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_vllm_update_slice")));
        QCustomPlot *p = views.usage.plot();
        const int x = qRound(p->xAxis->coordToPixel(40.5));
        const int y = p->axisRect()->center().y();
        QTest::mouseClick(p, Qt::LeftButton, {}, QPoint(x, y));
        QCOMPARE(views.selection.currentStep(), qint64(40));
        views.usage.moveCursorTo(x);
        const QString text = views.usage.cursorText();
        QVERIFY2(text.startsWith(QStringLiteral("step 40 · ")), qPrintable(text));
        // The instruction at step 40, as the InstructionSequence prints it.
        const std::uint32_t ins = views.loaded.dump->instructionAtStep(40);
        QVERIFY(text.contains(QString::fromStdString(
            std::string(views.loaded.dump->str(views.loaded.dump->instructions[ins].name)))));
        // What follows the pointer goes when it leaves the plot, and when another dump comes
        // (issue 35, item 5: a vllm cursor label floated over the decoder).
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(p, &leave);
        QVERIFY(views.usage.cursorText().isEmpty());
        views.usage.moveCursorTo(x);
        QVERIFY(!views.usage.cursorText().isEmpty());
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        QVERIFY(views.usage.cursorText().isEmpty());
    }

    // Step axes tick at whole steps, labelled with the step they stand at (issue 35, item 3:
    // tpu_random_normal's 16 steps read "0 2 5 7 10 12 15", with "2" drawn at 2.5).
    void stepTicksAreWholeSteps()
    {
        StepTicker ticker;
        for (const double width : {16.0, 17.0, 45.0, 130.0, 1000.0, 12345.0}) {
            for (int count : {4, 5, 7, 9}) {
                ticker.setTickCount(count);
                QVector<double> ticks;
                QVector<double> subTicks;
                QVector<QString> labels;
                ticker.generate(QCPRange(0, width), QLocale::c(), QLatin1Char('g'), 6, ticks,
                                &subTicks, &labels);
                QVERIFY(!ticks.isEmpty());
                for (qsizetype i = 0; i < ticks.size(); ++i) {
                    QCOMPARE(ticks[i], std::round(ticks[i]));
                    QCOMPARE(labels[i], QString::number(static_cast<qint64>(ticks[i])));
                }
            }
        }
    }

    // A step axis names its steps only where each name has room: tpu_unstack's 8 steps in a
    // 1000-pixel Live Ranges drew "slice_reduce_fusion" and four "get-tuple-element.N" over
    // one another (kNamePixels, 110 a step, was less than the names). Whatever the font, a
    // name never runs into the next; wide enough, they are shown.
    void stepNamesNeverOverlap()
    {
        Views views;
        QCPAxis *axis = views.gantt.plot()->xAxis;
        // Whether two neighbouring named ticks overlap; whether any tick is named.
        const auto check = [axis](const char *when, bool *named) {
            const QVector<double> ticks = axis->tickVector();
            const QVector<QString> labels = axis->tickVectorLabels();
            QCOMPARE(labels.size(), ticks.size());
            const QFontMetricsF metrics(axis->tickLabelFont());
            const auto nameWidth = [&metrics](const QString &label) {
                return metrics.horizontalAdvance(label.section(QLatin1Char('\n'), 1));
            };
            for (qsizetype i = 0; i + 1 < ticks.size(); ++i) {
                if (!labels[i].contains(QLatin1Char('\n')))
                    continue;
                *named = true;
                const double apart =
                    axis->coordToPixel(ticks[i + 1]) - axis->coordToPixel(ticks[i]);
                // Two centred names meet when half of each is more than the room between.
                const double half = (nameWidth(labels[i]) + nameWidth(labels[i + 1])) / 2;
                QVERIFY2(half < apart,
                         qPrintable(QStringLiteral("%1: '%2' and '%3' %4 px apart")
                                        .arg(QLatin1String(when), labels[i], labels[i + 1])
                                        .arg(apart)));
            }
        };
        bool named = false;
        // The first dump in an empty chart: its value names widen the left margin, so the
        // plot is narrower once laid out than when its ticks were made, without a resize.
        LoadedDump unstack;
        QString error;
        QVERIFY2(
            loadDump(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"),
                     unstack, error),
            qPrintable(error));
        views.gantt.resize(1000, 520);
        views.gantt.show();
        QVERIFY(QTest::qWaitForWindowExposed(&views.gantt));
        views.workspace.show(unstack, Workspace::Fill::AtOnce); // as the window shows it
        QCoreApplication::processEvents();                      // a replot the layout asked for
        check("the first dump", &named);
        // Steps a little narrower than the widest name: too narrow for names, so they are
        // numbered (a rule of 110 pixels a step drew 116-pixel names 115 apart).
        const QFontMetricsF metrics(axis->tickLabelFont());
        double widest = 0;
        for (const char *name : {"slice_reduce_fusion", "get-tuple-element.3"})
            widest = std::max(widest, metrics.horizontalAdvance(QLatin1String(name)));
        const int margins = views.gantt.width() - axis->axisRect()->width();
        const int tight = margins + static_cast<int>((widest - 2) * axis->range().size());
        // Narrower each time, and wide enough at first for every name.
        for (const int width : {3000, 2000, 1400, tight, 1000, 700}) {
            views.gantt.resize(width, 520);
            QCoreApplication::processEvents();
            check(QByteArray::number(width).constData(), &named);
        }
        QVERIFY(named); // at 3000 pixels every step has room
    }

    // Use marks are ▼ everywhere, as the legends say: at the top row of a chart the mark sits
    // at the top, never below the value pointing up (issue 35, item 8).
    void useMarksAlwaysPointDown()
    {
        for (const double valueY : {4.0, 10.0, 30.0, 200.0})
            for (const double lift : {5.0, 12.0})
                QVERIFY(StepMarks::useMarkY(valueY, lift, 8.5) <= valueY);
        QCOMPARE(StepMarks::useMarkY(200, 12, 8.5), 188.0); // room above: lifted
        QCOMPARE(StepMarks::useMarkY(12, 12, 8.5), 8.5);    // none: at the top
    }

    // Memory Usage's labels never overlap one another, leave the plot or cover the curve
    // (issue 35, item 13; issue 49, item 3: the budget's box hid the curve's spikes): the peak,
    // XLA's printed peak, the held level, the budget and the selected value, on the decoder
    // layer (held and live peak 1.25 MiB apart, so their labels meet) with a budget a hair above
    // both, on vllm with a value selected near the right edge, with a budget far above the
    // curve and one below it, at a laptop's chart height and a tall one.
    void usageLabelsNeverOverlap()
    {
        for (const auto &[name, value, budget, height] :
             {std::tuple{"gpu_decoder_layer", "loop_slice_fusion", qint64(0), 260},
              std::tuple{"gpu_decoder_layer", "loop_slice_fusion", qint64(0), 600},
              std::tuple{"gpu_vllm_update_slice", "loop_dynamic_update_slice_fusion.28", qint64(0),
                         260},
              std::tuple{"gpu_vllm_update_slice", "loop_dynamic_update_slice_fusion.28",
                         qint64(890) << 20, 260},
              std::tuple{"gpu_decoder_layer", "loop_slice_fusion", qint64(80) << 30, 260},
              std::tuple{"gpu_decoder_layer", "loop_slice_fusion", qint64(600) << 20, 260}}) {
            Views views;
            QVERIFY(views.load(QString::fromLatin1(name)));
            views.usage.resize(900, height);
            const Dump &d = *views.loaded.dump;
            views.selection.setCurrentValue(static_cast<int>(d.findValue(value)));
            views.usage.setBudget(budget > 0 ? budget : MemoryAnalysis::of(d).device.held() + 4096);
            for (int i = 0; i < 8; ++i) { // as the window settles: replot, place, replot
                views.usage.plot()->replot(QCustomPlot::rpImmediateRefresh);
                QCoreApplication::processEvents();
            }
            const QString what = QStringLiteral("%1, budget %2, %3 px")
                                     .arg(QLatin1String(name))
                                     .arg(views.usage.budget())
                                     .arg(height);
            const QRectF area = views.usage.plot()->axisRect()->rect();
            const QList<QRectF> boxes = views.usage.labelBoxes();
            QVERIFY2(boxes.size() >= 4, qPrintable(what));
            if (qEnvironmentVariableIsSet("BS_DEBUG_LABELS"))
                qDebug() << what << area << boxes;
            // The curves as the timeline gives them (live bytes, and logical bytes, which are
            // shown): under no label.
            const SpaceTimeline &space = *views.loaded.timeline->primary();
            const QCPAxis *x = views.usage.plot()->xAxis;
            const QCPAxis *y = views.usage.plot()->yAxis;
            for (qsizetype i = 0; i < boxes.size(); ++i) {
                QVERIFY2(area.adjusted(-1, -1, 1, 1).contains(boxes[i]), qPrintable(what));
                for (qsizetype j = i + 1; j < boxes.size(); ++j)
                    QVERIFY2(!boxes[i].intersects(boxes[j]),
                             qPrintable(QStringLiteral("%1: labels %2 and %3 overlap")
                                            .arg(what)
                                            .arg(i)
                                            .arg(j)));
                const auto first = std::max<qint64>(
                    0, static_cast<qint64>(std::floor(x->pixelToCoord(boxes[i].left()))));
                const auto last = std::min<qint64>(
                    static_cast<qint64>(space.liveBytes.size()) - 1,
                    static_cast<qint64>(std::floor(x->pixelToCoord(boxes[i].right()))));
                for (qint64 t = first; t <= last; ++t) {
                    const auto k = static_cast<std::size_t>(t);
                    const double top = y->coordToPixel(
                        static_cast<double>(std::max(space.liveBytes[k], space.logicalBytes[k])));
                    QVERIFY2(boxes[i].bottom() <= top + 1,
                             qPrintable(QStringLiteral("%1: label %2 covers the curve at step %3")
                                            .arg(what)
                                            .arg(i)
                                            .arg(t)));
                }
            }
        }
    }

    // A dump printed without live ranges (BufferAssignment::ToString, as Reactant prints it:
    // tpu_unstack cut before its HloLiveRange section) says so in each chart's place instead of
    // "peak 0B" on empty axes, with what the device holds from its allocation lines, worked out
    // by hand: argument 1,024 + output 4 × 512 + 32 − alias 0 + temp 32 = 3,136 bytes (issue 49,
    // item 4).
    void noLiveRangesExplained()
    {
        QFile in(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray text = in.readAll();
        const qsizetype cut = text.indexOf("HloLiveRange (max");
        QVERIFY(cut > 0);
        QTemporaryDir dir;
        const QString path =
            dir.filePath(QStringLiteral("module_0001.jit_f-buffer-assignment.txt"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.left(cut));
        out.close();
        Workspace workspace;
        UsageChart usage{&workspace};
        LiveRangeGantt gantt{&workspace};
        // Nothing open yet: a sentence, not axes.
        QVERIFY(usage.emptyStateText().startsWith(QStringLiteral("No dump shown yet")));
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(path, loaded, error), qPrintable(error));
        QVERIFY(loaded.dump->traits.printedWithoutLiveRanges);
        workspace.show(loaded, Workspace::Fill::AtOnce);
        for (const ChartView *v :
             {static_cast<ChartView *>(&usage), static_cast<ChartView *>(&gantt)})
            QVERIFY2(v->emptyStateText().contains(QStringLiteral("BufferAssignment::ToString")),
                     qPrintable(v->emptyStateText()));
        QVERIFY2(usage.emptyStateText().contains(
                     QStringLiteral("holds 3.1KiB: argument 1.0KiB + output 2.0KiB − alias 0B "
                                    "+ temp 32B")),
                 qPrintable(usage.emptyStateText()));
        usage.setBudget(2048);
        QVERIFY2(usage.emptyStateText().contains(QStringLiteral("OVER by 1.1KiB")),
                 qPrintable(usage.emptyStateText()));
        // No "peak 0B" in the memory space box.
        auto *space = usage.findChild<QComboBox *>();
        QVERIFY(space && !space->currentText().contains(QStringLiteral("peak")));
        // A dump with live ranges draws again.
        Views views;
        QVERIFY(views.load(QStringLiteral("tpu_unstack")));
        QVERIFY(views.usage.emptyStateText().isEmpty());
        QVERIFY(views.usage.plot()->isVisible());
    }

    // The bytes axis follows what is drawn both ways (issue 49, item 1: budget 80 GiB, then
    // 24 GiB left the axis at ~86 GiB until a restart): from the decoder layer's held level
    // (932,847,556 bytes, above its 931,536,164-byte live peak) up to a budget and back.
    void usageScaleFollowsTheBudget()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        views.usage.resize(900, 300);
        const auto settle = [&] {
            for (int i = 0; i < 6; ++i) {
                views.usage.plot()->replot(QCustomPlot::rpImmediateRefresh);
                QCoreApplication::processEvents();
            }
            return views.usage.plot()->yAxis->range().upper;
        };
        const double held = 932847556;
        const double alone = settle();
        // Above what is drawn, with room for labels, but no more than about twice it.
        QVERIFY2(alone > held && alone < 2.3 * held, qPrintable(QString::number(alone)));
        // A budget far above (80 GiB over 889 MiB) stays off the scale, rather than flatten the
        // curve (issue 49, item 1: a 219 MiB module was a flat line on a 0-24 GiB axis); its
        // label says where it is and what is left.
        views.usage.setBudget(qint64(80) << 30);
        const double big = settle();
        QCOMPARE(big, alone);
        const QList<QRectF> labels = views.usage.labelBoxes();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [&](const QRectF &r) {
            return views.usage.toolTipAt(r.center()).contains(QStringLiteral("Budget box"));
        }));
        // Within four times the data it is drawn, the axis above it.
        views.usage.setBudget(qint64(3) << 30);
        QVERIFY(settle() > double(qint64(3) << 30));
        views.usage.setBudget(qint64(1) << 30);
        const double small = settle();
        QVERIFY2(small > double(qint64(1) << 30) && small < 2.3 * double(qint64(1) << 30),
                 qPrintable(QString::number(small)));
        views.usage.setBudget(0);
        QCOMPARE(settle(), alone);
        views.usage.setBudget(qint64(80) << 30);
        settle();
        views.usage.setBudget(0);
        views.usage.resetZoom();
        QCOMPARE(settle(), alone);
    }

    // Every level and line drawn has a legend key and a tooltip that explains it (issue 49,
    // item 4).
    void usageLevelsExplained()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        views.usage.resize(900, 300);
        views.usage.setBudget(qint64(1) << 30);
        for (int i = 0; i < 6; ++i) {
            views.usage.plot()->replot(QCustomPlot::rpImmediateRefresh);
            QCoreApplication::processEvents();
        }
        QStringList keys;
        QCPLegend *legend = views.usage.plot()->legend;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
                keys << item->plottable()->name();
        for (const char *key :
             {"live bytes (assigned)", "held while it runs", "budget", "XLA's printed peak"})
            QVERIFY2(keys.contains(QLatin1String(key)), qPrintable(keys.join(QLatin1Char('|'))));
        // Over each label: what it is, with this dump's figures.
        const QList<QRectF> boxes = views.usage.labelBoxes(); // peak, printed, held, budget
        QVERIFY(boxes.size() >= 4);
        QVERIFY(
            views.usage.toolTipAt(boxes[0].center()).startsWith(QStringLiteral("The live peak")));
        QVERIFY(
            views.usage.toolTipAt(boxes[1].center()).startsWith(QStringLiteral("XLA's own peak")));
        const QString held = views.usage.toolTipAt(boxes[2].center());
        QVERIFY2(held.contains(QStringLiteral("889.63MiB")) &&
                     held.contains(QStringLiteral("compiled.memory_analysis()")),
                 qPrintable(held));
        QVERIFY(views.usage.toolTipAt(boxes[3].center()).contains(QStringLiteral("Budget box")));
        QVERIFY(views.usage.toolTipAt(QPointF(-50, -50)).isEmpty());
    }

    // Producer and consumer tints grow along the program order only (issue 35, item 16):
    // a 2-pixel row stays 2 pixels tall, where the selected value's box grows both ways.
    void tintsKeepToTheirRow()
    {
        const QRectF row(100, 50, 3, 2);
        const QRectF tint = BoxPlottable::grown(row, 7, 1, true);
        QCOMPARE(tint.height(), 2.0);
        QCOMPARE(tint.width(), 7.0);
        QCOMPARE(tint.center(), row.center());
        const QRectF selected = BoxPlottable::grown(row, 7, 7, true);
        QCOMPARE(selected.height(), 7.0);
        // The memory map draws time vertically when its key axis is vertical.
        QCOMPARE(BoxPlottable::grown(QRectF(0, 0, 2, 3), 7, 1, false).height(), 7.0);
        QCOMPARE(BoxPlottable::grown(QRectF(0, 0, 2, 3), 7, 1, false).width(), 2.0);
    }

    void usageBudgetAndHeadroom()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        QSignalSpy changed(&views.usage, &UsageChart::budgetChanged);
        QVERIFY(views.usage.budgetText().isEmpty());
        // The budget is held against what the device holds while it runs (argument + output -
        // alias + temp, from the allocation lines: 653,597,956 + 277,938,208 - 0 + 1,311,392 =
        // 932,847,556 bytes), not the live peak (931,536,164). 1 GiB leaves 140,894,268 bytes.
        views.usage.setBudget(qint64(1) << 30);
        QCOMPARE(views.usage.budgetText(), QStringLiteral("budget 1.00GiB · headroom 134.37MiB"));
        QVERIFY(views.usage.plot()->yAxis->range().upper >= double(qint64(1) << 30));
        // 800 MiB is 93,986,756 bytes short: 89.63 MiB.
        views.usage.setBudget(800LL << 20);
        QCOMPARE(views.usage.budgetText(), QStringLiteral("budget 800.00MiB · OVER by 89.63MiB"));
        QCOMPARE(changed.count(), 2);
        views.usage.setBudget(0);
        QVERIFY(views.usage.budgetText().isEmpty());
        // The budget is the session's (issue 75: it lived in the chart, and the flows reached
        // into the chart for it): set there, the chart draws it, and a chart made afterwards
        // starts with it.
        views.workspace.setBudget(qint64(1) << 30);
        QCOMPARE(views.usage.budget(), qint64(1) << 30);
        QCOMPARE(views.usage.budgetText(), QStringLiteral("budget 1.00GiB · headroom 134.37MiB"));
        UsageChart later(&views.workspace);
        QCOMPARE(later.budget(), qint64(1) << 30);
        views.usage.setBudget(0);
        QCOMPARE(views.workspace.budget(), qint64(0));
        QCOMPARE(later.budget(), qint64(0));
        // One list of devices (issue 49, item 6): 24, 48 GiB and the H200 among the sizes.
        QCOMPARE(UsageChart::budgetPresets().size(),
                 static_cast<qsizetype>(DeviceFit::deviceSizes().size()));
        // A GPU at 75 % of its memory (XLA's allocator share), a TPU at its memory, by hand:
        // L4 24 GiB -> 18, A100 80GB -> 60, H200 141 GiB -> 105.75; TPU v5e 16, v4 32.
        for (const qint64 mib : {18 * 1024, 60 * 1024, 105 * 1024 + 768, 16 * 1024, 32 * 1024})
            QVERIFY2(UsageChart::budgetPresets().contains(mib << 20),
                     qPrintable(QString::number(mib)));
        QVERIFY(!UsageChart::budgetPresets().contains(80LL << 30));
        QVERIFY(UsageChart::budgetPresetName((105LL * 1024 + 768) << 20)
                    .contains(QStringLiteral("H200")));
        QVERIFY(UsageChart::budgetPresetName(18LL << 30).contains(QStringLiteral("L4")));
        // Presets name the devices that give that limit (issue 35, item 24).
        QCOMPARE(UsageChart::budgetPresetName(60LL << 30),
                 QStringLiteral("60.00GiB · A100 80GB, H100 80GB (75 % of 80.00GiB)"));
        QCOMPARE(UsageChart::budgetPresetName(16LL << 30),
                 QStringLiteral("16.00GiB · TPU v3 core, TPU v5e"));
        for (qint64 preset : UsageChart::budgetPresets())
            QVERIFY(UsageChart::budgetPresetName(preset).contains(QStringLiteral(" · ")));
        QCOMPARE(UsageChart::budgetPresetName(3LL << 30), QStringLiteral("3.00GiB"));
    }

    void ganttOrders()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        const Dump &d = *views.loaded.dump;
        for (auto order : {LiveRangeGantt::Order::ByStart, LiveRangeGantt::Order::BySize,
                           LiveRangeGantt::Order::ByAllocation}) {
            views.gantt.setOrder(order);
            QCOMPARE(views.gantt.rowCount(), 46); // 49 values, 3 without a live range
            QCOMPARE(views.gantt.noLiveRangeList()->count(), 3);
            // Rows are a permutation in the chosen order.
            std::vector<std::uint32_t> rows(46);
            for (std::uint32_t i = 0; i < d.values.size(); ++i)
                if (views.gantt.rowOf(static_cast<int>(i)) >= 0)
                    rows[static_cast<std::size_t>(views.gantt.rowOf(static_cast<int>(i)))] = i;
            for (std::size_t r = 1; r < rows.size(); ++r) {
                const Value &a = d.values[rows[r - 1]];
                const Value &b = d.values[rows[r]];
                if (order == LiveRangeGantt::Order::ByStart)
                    QVERIFY(a.start <= b.start);
                else if (order == LiveRangeGantt::Order::BySize)
                    QVERIFY(a.size >= b.size);
                else
                    QVERIFY(d.allocations[a.allocation].index <= d.allocations[b.allocation].index);
            }
        }
    }

    void memoryMapLabelsBandsThatFit()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_vllm_update_slice")));
        const auto labels = [&] {
            auto ticker = views.map.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
            return ticker ? ticker->ticks().values() : QList<QString>();
        };
        // Stacked: every band tall enough on screen is labelled "#index kind size"; at 520 px
        // all nine are.
        QTRY_COMPARE(labels().size(), 9);
        QVERIFY(labels().contains(QStringLiteral("#0 output 512B")));
        QVERIFY(labels().contains(QStringLiteral("#8 temp 296B")));
        // Shorter, only the taller bands keep a label (updated after the replot that lays the
        // new height out). The plot 100 px tall, whatever the fonts make of the rows around it.
        const int chrome = views.map.height() - views.map.plot()->axisRect()->height();
        views.map.resize(1000, chrome + 100);
        views.map.plot()->replot();
        QTRY_VERIFY(std::abs(views.map.plot()->axisRect()->height() - 100) <= 10);
        views.map.plot()->replot();
        QTRY_VERIFY(labels().size() < 9);
        QVERIFY(labels().contains(QStringLiteral("#0 output 512B")));
        QVERIFY(!labels().contains(QStringLiteral("#5 parameter 2B")));
    }

    void bigDumpRebuildsInTheBackground()
    {
        // Treat the sample as big: another order or allocation is built off the GUI thread.
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        const Dump &d = *views.loaded.dump;
        // Its layouts are built on the workspace's jobs from now on.
        views.workspace.setBackgroundFrom(0);
        const int fusion40 = static_cast<int>(d.findValue("fusion.40"));
        const int startRow = views.gantt.rowOf(fusion40);
        QSignalSpy built(&views.gantt, &BoxChartView::built);
        // Two orders asked for in a row: the old rows stay until the last one is ready.
        views.gantt.setOrder(LiveRangeGantt::Order::ByAllocation);
        views.gantt.setOrder(LiveRangeGantt::Order::BySize);
        QVERIFY(views.gantt.isBuilding());
        QCOMPARE(views.gantt.rowOf(fusion40), startRow);
        QTRY_VERIFY(!views.gantt.isBuilding());
        QCOMPARE(built.count(), 1);
        QCOMPARE(views.gantt.rowCount(), 46);
        for (int row = 1; row < views.gantt.rowCount(); ++row) {
            const auto valueAt = [&](int r) {
                for (std::uint32_t i = 0; i < d.values.size(); ++i)
                    if (views.gantt.rowOf(static_cast<int>(i)) == r)
                        return d.values[i].size;
                return std::int64_t(-1);
            };
            QVERIFY(valueAt(row - 1) >= valueAt(row));
        }
        // The memory map on one allocation; a dump swapped in meanwhile drops the result.
        const Value &v = d.values[static_cast<std::size_t>(fusion40)];
        views.map.setAllocation(static_cast<int>(v.allocation));
        QVERIFY(views.map.isBuilding());
        QTRY_VERIFY(!views.map.isBuilding());
        QCOMPARE(views.map.boxes()->boxes().size(),
                 static_cast<std::size_t>(d.allocations[v.allocation].valueCount));
        views.map.setAllocation(MemoryMap::kAllAllocations);
        QVERIFY(views.map.isBuilding());
        LoadedDump other;
        QString error;
        QVERIFY(loadDump(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_unstack.buffer-assignment.txt"),
                         other, error));
        views.workspace.show(other, Workspace::Fill::AtOnce);
        const auto drawnOf = [](const Dump &dump) {
            std::size_t n = 0;
            for (const Value &value : dump.values)
                n += value.allocation != kNone && value.hasLiveRange() ? 1 : 0;
            return n;
        };
        QTRY_VERIFY(!views.map.isBuilding());
        QCOMPARE(views.map.boxes()->boxes().size(), drawnOf(*other.dump));
        QVERIFY(views.workspace.jobs()->waitForDone()); // a late result would have come
        QCOMPARE(views.map.boxes()->boxes().size(), drawnOf(*other.dump));
        QVERIFY(drawnOf(*other.dump) != drawnOf(d));
    }

    void breakdownAtPeakAndSteps()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_vllm_update_slice")));
        BreakdownChart chart(&views.workspace);
        chart.resize(900, 500);
        chart.setDump(views.loaded.dump, views.loaded.timeline);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        // docs/FORMAT.md Part A: the peak of gpu_vllm_update_slice is 1210 bytes at step 68; each
        // grouping adds up to it.
        QCOMPARE(chart.breakdown().step, qint64(68));
        for (auto grouping : {BreakdownChart::Grouping::OpName, BreakdownChart::Grouping::Source,
                              BreakdownChart::Grouping::OpType, BreakdownChart::Grouping::Kind}) {
            chart.setGrouping(grouping);
            qint64 sum = 0;
            for (const BreakdownRow &r : chart.shownRows())
                sum += r.bytes;
            QCOMPARE(sum, qint64(1210));
        }
        // The selected value's group is highlighted; a click on a bar selects its largest value.
        const int v = static_cast<int>(views.loaded.dump->findValue("528"));
        views.selection.setCurrentValue(v);
        QCOMPARE(chart.highlightedValue(), v);
        QVERIFY(chart.highlightedRow() >= 0);
        views.selection.clear();
        chart.setGrouping(BreakdownChart::Grouping::OpName);
        chart.plot()->replot();
        const BreakdownRow &first = chart.shownRows().front();
        const QPoint bar(
            qRound(chart.plot()->xAxis->coordToPixel(static_cast<double>(first.bytes) / 2)),
            qRound(chart.plot()->yAxis->coordToPixel(0)));
        QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, bar);
        QCOMPARE(views.selection.currentValue(), static_cast<int>(first.members.front()));
        // Another step gives that step's breakdown.
        views.selection.setCurrentStep(30);
        QCOMPARE(chart.breakdown().step, qint64(30));
        QCOMPARE(
            chart.breakdown().valueCount,
            static_cast<qint64>(MemoryTimeline::valuesLiveAt(*views.loaded.dump, 30, 0).size()));
    }

    void breakdownFollowsTheMemorySpaceOnShow()
    {
        // tpu_random_normal's memory space 1 peaks at step 12 with 1536 bytes (docs/FORMAT.md
        // Part A); the breakdown views show the space the usage chart shows, not always S(0).
        Views views;
        QVERIFY(views.load(QStringLiteral("tpu_random_normal")));
        BreakdownChart chart(&views.workspace);
        chart.resize(900, 500);
        chart.setDump(views.loaded.dump, views.loaded.timeline);
        views.selection.setCurrentStep(12);
        QCOMPARE(chart.breakdown().memorySpace, 0);
        views.usage.setMemorySpace(1);
        QCOMPARE(views.workspace.memorySpace(), 1);
        QCOMPARE(chart.breakdown().memorySpace, 1);
        QCOMPARE(chart.breakdown().step, std::int64_t(12));
        QCOMPARE(chart.breakdown().bytes, std::int64_t(1536));
        // Go to Peak goes to the peak of the space on show.
        views.workspace.goToPeak();
        QCOMPARE(views.selection.currentStep(), qint64(12));
        views.usage.setMemorySpace(0);
        views.workspace.goToPeak();
        QCOMPARE(views.selection.currentStep(), qint64(15));
        QCOMPARE(chart.breakdown().memorySpace, 0);
    }

    void breakdownHiddenWhileComputingIsReadWhenShown()
    {
        // On a big dump the breakdown is computed on a job. A view taken off screen (another dock
        // tab raised) while it runs stops waiting for it, and reads the step once shown again.
        // tpu_random_normal's S(0) peak: step 15, 17920 bytes (docs/FORMAT.md Part A).
        Views views;
        QVERIFY(views.load(QStringLiteral("tpu_random_normal")));
        views.workspace.setBackgroundFrom(0);
        BreakdownPanel panel(&views.workspace);
        BreakdownChart chart(&views.workspace);
        chart.resize(900, 500);
        panel.setDump(views.loaded.dump, views.loaded.timeline);
        chart.setDump(views.loaded.dump, views.loaded.timeline);
        QTRY_VERIFY(!panel.isComputing() && !views.workspace.isComputingBreakdown());
        views.selection.setCurrentStep(12);
        QVERIFY(panel.isComputing());
        panel.setOnScreen(false);
        chart.setOnScreen(false);
        QVERIFY(!panel.isComputing()); // nothing on screen waits for the job
        QTRY_VERIFY(!views.workspace.isComputingBreakdown());
        panel.setOnScreen(true);
        chart.setOnScreen(true);
        QTRY_VERIFY(!panel.isComputing());
        QCOMPARE(panel.step(), qint64(12));
        QTRY_COMPARE(chart.breakdown().step, std::int64_t(12));
        // Stepped while hidden: the new step once shown.
        panel.setOnScreen(false);
        chart.setOnScreen(false);
        views.selection.setCurrentStep(15);
        QVERIFY(!panel.isComputing());
        panel.setOnScreen(true);
        chart.setOnScreen(true);
        QTRY_COMPARE(panel.step(), qint64(15));
        QCOMPARE(panel.breakdown().bytes, std::int64_t(17920));
        QTRY_COMPARE(chart.breakdown().step, std::int64_t(15));
        QCOMPARE(chart.breakdown().bytes, std::int64_t(17920));
    }

    // Where rows are too short for every name, the selected bar is named and its neighbours are
    // not (issue 60: an export named the bar beside it), on screen and in an export at another
    // size.
    void ganttNamesTheSelectedRow()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        LiveRangeGantt &gantt = views.gantt;
        const Dump &dump = *views.loaded.dump;
        gantt.plot()->replot();
        auto ticker = gantt.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const auto named = [&](int row) { return ticker->ticks().contains(row + 0.5); };
        int row = -1;
        for (int r = 1; r + 1 < gantt.rowCount() && row < 0; ++r)
            if (!named(r) && (named(r - 1) || named(r + 1)))
                row = r;
        QVERIFY2(row > 0, "every row is named at this height: the test needs shorter rows");
        int value = -1;
        for (std::size_t i = 0; i < dump.values.size(); ++i)
            if (gantt.rowOf(static_cast<int>(i)) == row)
                value = static_cast<int>(i);
        QVERIFY(value >= 0);
        const QString name =
            toQString(dump.valueDisplayName(dump.values[static_cast<std::size_t>(value)]));
        views.selection.setCurrentValue(value);
        QTRY_VERIFY(named(row));
        QCOMPARE(ticker->ticks().value(row + 0.5), name);
        QVERIFY(!named(row - 1) && !named(row + 1));

        // Exported smaller than the screen: still its name, not a neighbour's.
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("gantt.svg"));
        QString error;
        QVERIFY2(gantt.exportTo(svg, ExportOptions::sized(700, 300), &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(file.readAll());
        QStringList texts;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement &&
                xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        QVERIFY2(texts.join(QString()).contains(name), qPrintable(texts.join(QLatin1Char('|'))));
        for (const int neighbour : {row - 1, row + 1}) {
            const int other = [&] {
                for (std::size_t i = 0; i < dump.values.size(); ++i)
                    if (gantt.rowOf(static_cast<int>(i)) == neighbour)
                        return static_cast<int>(i);
                return -1;
            }();
            QVERIFY(other >= 0);
            const QString otherName =
                toQString(dump.valueDisplayName(dump.values[static_cast<std::size_t>(other)]));
            if (otherName != name)
                QVERIFY2(!texts.contains(otherName), qPrintable(otherName));
        }
    }

    // A short usage chart (a small window, issue 60) keeps a plot a person can read: its axes
    // and at least 64 pixels of plot, the legend row given up for them, and fewer byte labels;
    // taller again, the legend is back.
    void shortUsageChartKeepsItsPlot()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        UsageChart &usage = views.usage;
        QCustomPlot *plot = usage.plot();
        const auto settle = [&] {
            for (int i = 0; i < 4; ++i) {
                plot->replot();
                QApplication::processEvents();
            }
        };
        usage.resize(640, 420);
        settle();
        QCOMPARE(plot->plotLayout()->rowCount(), 2); // tall: the plot, then the legend
        usage.resize(640, 190);
        settle();
        const QRect rect = plot->axisRect()->rect();
        QVERIFY2(rect.height() >= 64, qPrintable(QString::number(rect.height())));
        QVERIFY(plot->axisRect()->outerRect().bottom() <= plot->height());
        QCOMPARE(plot->plotLayout()->rowCount(), 1);
        QVERIFY(!plot->legend->visible()); // not drawn where it was last laid out
        usage.resize(640, 420);
        settle();
        QCOMPARE(plot->plotLayout()->rowCount(), 2);
    }

    void csvMadeInTheBackground()
    {
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        LiveRangeGantt &gantt = views.gantt;
        QSignalSpy written(&gantt, &ChartView::csvWritten);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gantt.csv"));
        const std::string byStart = gantt.csv();
        // A header and one row per value: the dump has 49.
        QCOMPARE(std::count(byStart.begin(), byStart.end(), '\n'), std::ptrdiff_t(50));
        QVERIFY(gantt.writeCsvInBackground(path));
        // Running until the GUI thread takes the result, and one CSV of a view at a time.
        QVERIFY(gantt.isWritingCsv());
        QVERIFY(!gantt.writeCsvInBackground(dir.filePath(QStringLiteral("other.csv"))));
        QVERIFY(!gantt.copyCsvInBackground());
        // The rows are those on screen when it was asked for, whatever comes after.
        gantt.setOrder(LiveRangeGantt::Order::BySize);
        QVERIFY(written.wait());
        QCOMPARE(written.count(), 1);
        QCOMPARE(written.at(0).at(0).toString(), path);
        QCOMPARE(written.at(0).at(1).toString(), QString());
        QVERIFY(!gantt.isWritingCsv());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().toStdString(), byStart);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("other.csv"))));
        QTRY_VERIFY(gantt.csv() != byStart); // now by size

        // To the clipboard: the same text, and an empty path in the signal.
        QVERIFY(gantt.copyCsvInBackground());
        QVERIFY(written.wait());
        QCOMPARE(written.at(1).at(0).toString(), QString());
        QCOMPARE(written.at(1).at(1).toString(), QString());
        QCOMPARE(QApplication::clipboard()->text().toStdString(), gantt.csv());

        // A folder that does not exist: the reason, and no file.
        const QString missing = dir.filePath(QStringLiteral("no/such/map.csv"));
        QSignalSpy mapWritten(&views.map, &ChartView::csvWritten);
        QVERIFY(views.map.writeCsvInBackground(missing));
        QVERIFY(mapWritten.wait());
        QCOMPARE(mapWritten.at(0).at(0).toString(), missing);
        QVERIFY(!mapWritten.at(0).at(1).toString().isEmpty());
        QVERIFY(!QFileInfo::exists(missing));
    }

    void exportSizeAndHighlight_data()
    {
        QTest::addColumn<QString>("view");
        QTest::newRow("usage") << "usage";
        QTest::newRow("gantt") << "gantt";
        QTest::newRow("memory-map") << "memory-map";
    }

    void exportSizeAndHighlight()
    {
        QFETCH(QString, view);
        Views views;
        QVERIFY(views.load(QStringLiteral("tpu_unstack")));
        ChartView *chart = view == QLatin1String("usage")   ? static_cast<ChartView *>(&views.usage)
                           : view == QLatin1String("gantt") ? static_cast<ChartView *>(&views.gantt)
                                                            : static_cast<ChartView *>(&views.map);
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain.png"));
        const QString selected = dir.filePath(QStringLiteral("selected.png"));
        QVERIFY(chart->exportTo(plain, ExportOptions::sized(400, 300, 2.0)));
        views.selection.setCurrentValue(
            static_cast<int>(views.loaded.dump->findValue("slice_reduce_fusion{1}")));
        QVERIFY(chart->exportTo(selected, ExportOptions::sized(400, 300, 2.0)));
        const QImage a(plain);
        const QImage b(selected);
        QCOMPARE(a.size(), QSize(800, 600));
        QCOMPARE(b.size(), QSize(800, 600));
        QVERIFY2(a != b, "selecting a value changes the picture");
        if (view != QLatin1String("usage")) {
            // Box views fill the selected box with the highlight colour, used for nothing else.
            QCOMPARE(countColour(a, ChartPalette::highlight()), 0);
            QVERIFY(countColour(b, ChartPalette::highlight()) > 200);
        }
    }

    void exportOfBoxHasHighlightAtItsPlace()
    {
        // Export at the widget's own size, so the on-screen geometry maps onto the PNG by scale.
        Views views;
        QVERIFY(views.load(QStringLiteral("gpu_decoder_layer")));
        const int v = static_cast<int>(views.loaded.dump->findValue("fusion.40"));
        views.map.setAllocation(
            static_cast<int>(views.loaded.dump->values[static_cast<std::size_t>(v)].allocation));
        views.selection.setCurrentValue(v);
        QCustomPlot *p = views.map.plot();
        p->replot();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("map.png"));
        // savePng directly, without the export title row, so the layout is the on-screen one.
        QVERIFY(p->savePng(path, p->width(), p->height(), 2));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(p->width() * 2, p->height() * 2));
        const QRectF box = views.map.highlightedPixelRect();
        QVERIFY(!box.isEmpty());
        const QPoint centre = (box.center() * 2).toPoint();
        QCOMPARE(QColor(image.pixel(centre)).rgb() & 0xffffffu,
                 ChartPalette::highlight().rgb() & 0xffffffu);
    }
};

QTEST_MAIN(TestViews)
#include "tst_views.moc"
