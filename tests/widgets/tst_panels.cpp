// The docks beside the charts (offscreen): the inspector's call stack, the categories, what
// fills memory by call stack, the source view and its editor, dump text in tooltips.
#include "ViewTest.h"

class TestPanels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void inspectorShowsTheCallStack()
    {
        // The hand-made module of writeStackModule.
        QTemporaryDir dir;
        const QString path = writeStackModule(dir);
        QVERIFY(!path.isEmpty());
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(path, loaded, error), qPrintable(error));
        Workspace workspace;
        ValueInspector inspector(&workspace);
        inspector.setDump(loaded.dump);
        workspace.selection()->setCurrentValue(static_cast<int>(loaded.dump->findValue("Arg_0.1")));
        const QString details = inspector.details()->toPlainText();
        QVERIFY2(details.contains(QStringLiteral("train_step model.py:20:5\nmain train.py:10:1")),
                 qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("model.py:20"))); // the source: innermost frame
        // Each frame is a link that asks for its source.
        QSignalSpy frames(&inspector, &ValueInspector::frameActivated);
        inspector.activateLink(QUrl(QStringLiteral("frame:1")));
        QCOMPARE(frames.size(), 1);
        const SourcePlace main = frames.at(0).at(0).value<SourcePlace>();
        QCOMPARE(main.function, std::string("main"));
        QCOMPARE(main.file, std::string("train.py"));
        QCOMPARE(main.line, 10);
        inspector.activateLink(QUrl(QStringLiteral("frame:2"))); // there is no frame 2
        QCOMPARE(frames.size(), 1);
    }

    // The Categories view on a training step (tests/bench/make_training_step.py; its figures
    // are worked out by hand in tst_categories): a row per category that holds something, the
    // levers largest saving first, and a lever or a category picks its values everywhere.
    void categoriesViewPicksValues()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("protoc")).isEmpty())
            QSKIP("python3 or protoc is not installed: the training step cannot be made");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("module_0001.jit_train_step.hlo.pb"));
        QProcess make;
        make.start(
            QStringLiteral("python3"),
            {QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/tests/bench/make_training_step.py"), path});
        QVERIFY(make.waitForFinished(60000));
        QCOMPARE(make.exitCode(), 0);
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(path, loaded, error), qPrintable(error));
        Workspace workspace;
        CategoriesView view(&workspace);
        view.resize(1000, 600);
        workspace.show(loaded, Workspace::Fill::AtOnce);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Gathered weights hold nothing here: eight rows.
        QCOMPARE(view.categories()->topLevelItemCount(), 8);
        QTreeWidgetItem *activations = nullptr;
        for (int i = 0; i < view.categories()->topLevelItemCount(); ++i)
            if (view.categories()->topLevelItem(i)->text(0) == QStringLiteral("Activations"))
                activations = view.categories()->topLevelItem(i);
        QVERIFY(activations);
        QVERIFY(activations->text(1).startsWith(QStringLiteral("1.00MiB"))); // h1 h2 at step 19
        QCOMPARE(activations->text(3), QStringLiteral("3"));
        // offload 1.75 MiB, shard 1.12 MiB, dtype 1.00 MiB, remat 256 KiB.
        QCOMPARE(view.levers()->topLevelItemCount(), 4);
        QCOMPARE(view.levers()->topLevelItem(0)->text(0), QStringLiteral("offload"));
        QTreeWidgetItem *remat = view.levers()->topLevelItem(3);
        QCOMPARE(remat->text(0), QStringLiteral("remat"));
        QSignalSpy curves(&workspace, &Workspace::leverShown);
        view.levers()->setCurrentItem(remat);
        // Its curve for Memory Usage, worked out on a job: the peak without h1 between its
        // reads, 4,980,744 bytes (tst_categories), and at step 19 5,242,888 − h1's 524,288.
        QVERIFY(curves.wait(10000));
        const auto curve = curves.last().at(1).value<std::vector<std::int64_t>>();
        QCOMPARE(*std::max_element(curve.begin(), curve.end()), std::int64_t(4980744));
        QCOMPARE(curve.at(19), std::int64_t(5242888 - 524288));
        const QVector<int> group = workspace.selection()->highlightedGroup();
        QCOMPARE(group, QVector<int>{static_cast<int>(loaded.dump->findValue("h1"))});
        QVERIFY(view.leverText()->toPlainText().contains(QStringLiteral("h1")));
        view.categories()->setCurrentItem(activations);
        QCOMPARE(workspace.selection()->highlightedGroup().size(), 3);
        // Clearing the selection (Esc in the window) lets go of the pick, and a second pick
        // takes again.
        workspace.selection()->clear();
        QVERIFY(workspace.selection()->highlightedGroup().isEmpty());
        QVERIFY(!view.categories()->currentItem());
        view.categories()->setCurrentItem(activations);
        QCOMPARE(workspace.selection()->highlightedGroup().size(), 3);
        // A category picked: the lever's curve goes.
        QCOMPARE(workspace.shownLever(), -1);
        QVERIFY(curves.last().at(1).value<std::vector<std::int64_t>>().empty());
        // The treemap at the peak: categories first, then JAX paths.
        QVERIFY(view.treemap()->node());
        QStringList labels;
        for (const BreakdownNode &n : view.treemap()->node()->children)
            labels << QString::fromStdString(n.label);
        QVERIFY2(labels.contains(QStringLiteral("Activations")), qPrintable(labels.join(u',')));
        // Each category in its own colour, the one its row's swatch shows (the key).
        const int at = static_cast<int>(labels.indexOf(QStringLiteral("Activations")));
        const QColor green = ChartPalette::categoryColor(Category::Activations);
        QCOMPARE(view.treemap()->fillOf(static_cast<std::size_t>(at)), green);
        QCOMPARE(activations->icon(0).pixmap(12, 12).toImage().pixelColor(6, 6), green);
        QVERIFY(ChartPalette::categoryColor(Category::Weights) != green);
        view.treemapBy()->setCurrentIndex(1);
        QVERIFY(!view.treemap()->node()->children.empty());
        QVERIFY(view.treemap()->node()->children.front().label != "Optimizer state");
        // The inspector says a value's category and why.
        ValueInspector inspector(&workspace);
        inspector.setDump(loaded.dump);
        workspace.selection()->setCurrentValue(static_cast<int>(loaded.dump->findValue("m1")));
        QVERIFY(inspector.details()->toPlainText().contains(
            QStringLiteral("optimizer_state — a donated parameter only the update")));
    }

    void callStacksInWhatFillsMemory()
    {
        // At tpu_dynamic_slice's S(0) peak, step 7 (9728 bytes), by hand: Arg_0.1 (8192 bytes)
        // has the stack main → train_step; dynamic-slice.4 (512 bytes) the inline source
        // /home/ptoulme/tpu.py:96, a one-frame stack; Arg_1.2 and Arg_2.3 (512 bytes each) none.
        QTemporaryDir dir;
        const QString path = writeStackModule(dir);
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(path, loaded, error), qPrintable(error));
        Workspace workspace;
        Selection &selection = *workspace.selection();
        BreakdownPanel panel(&workspace);
        // Source paths share their start: the tree elides in the middle, keeping file.py:line
        // (issue 35, item 14).
        QCOMPARE(panel.tree()->textElideMode(), Qt::ElideMiddle);
        panel.resize(1000, 600);
        workspace.show(loaded, Workspace::Fill::AtOnce);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.step(), qint64(7));
        // Pinned to the peak it stays at step 7 whatever step is current; unpinned it follows
        // (issue 35, item 20).
        panel.setPinnedToPeak(true);
        selection.setCurrentStep(2);
        QCOMPARE(panel.step(), qint64(7));
        panel.setPinnedToPeak(false);
        QCOMPARE(panel.step(), qint64(2));
        selection.setCurrentStep(7);
        QCOMPARE(panel.step(), qint64(7));
        // Double-clicking a rectangle goes through a chain of single children at once, and Up
        // comes back out through it (issue 49, item 5: five double-clicks to a leaf).
        {
            panel.setGrouping(Breakdown::Grouping::OpName);
            const BreakdownNode *top = nullptr;
            for (const BreakdownNode &c : panel.model()->root().children)
                if (c.children.size() == 1 && !c.children.front().children.empty())
                    top = &c;
            QVERIFY2(top, "no single-child chain in this dump's op_names");
            Q_EMIT panel.treemap()->activated(top);
            const std::vector<const BreakdownNode *> &drill = panel.drillPath();
            QVERIFY(drill.size() >= 2);
            QCOMPARE(drill.front(), top);
            const BreakdownNode *shown = drill.back();
            QVERIFY(shown->children.size() != 1 || shown->children.front().children.empty());
            auto *up = panel.findChild<QToolButton *>();
            QVERIFY(up);
            up->click();
            QVERIFY(panel.drillPath().empty());
        }
        // The treemap can be saved as a picture (issue 35, item 22), and so can the flame graph.
        {
            QTemporaryDir shots;
            QString why;
            const QString treemapPng = shots.filePath(QStringLiteral("treemap.png"));
            QVERIFY2(panel.savePicture(treemapPng, &why), qPrintable(why));
            QVERIFY(!QImage(treemapPng).isNull());
            QVERIFY(!panel.savePicture(shots.filePath(QStringLiteral("x.nope")), &why));
            QVERIFY(why.contains(QStringLiteral(".png")));
        }
        panel.setGrouping(Breakdown::Grouping::CallersTopDown);
        {
            QTemporaryDir shots;
            const QString flamePng = shots.filePath(QStringLiteral("flame.png"));
            QVERIFY(panel.savePicture(flamePng));
            QVERIFY(!QImage(flamePng).isNull());
        }
        const BreakdownNode &root = panel.model()->root();
        QCOMPARE(root.bytes, std::int64_t(9728));
        std::vector<std::pair<std::string, std::int64_t>> top;
        for (const BreakdownNode &c : root.children)
            top.emplace_back(c.path, c.bytes);
        QCOMPARE(top, (std::vector<std::pair<std::string, std::int64_t>>{
                          {"main (train.py:10)", 8192},
                          {"(no call stack)", 1024},
                          {"/home/ptoulme/tpu.py:96", 512}}));
        const BreakdownNode &main = root.children[0];
        QCOMPARE(main.children.size(), std::size_t(1));
        const BreakdownNode &trainStep = main.children[0];
        QCOMPARE(trainStep.label, std::string("train_step · model.py:20"));
        QCOMPARE(trainStep.children.size(), std::size_t(1));
        QCOMPARE(trainStep.children[0].label, std::string("Arg_0.1"));

        // The flame graph: one row per level, width = bytes.
        FlameGraph *flame = panel.flameGraph();
        QVERIFY(flame->isVisible());
        QCOMPARE(flame->root(), &root);
        const FlameGraph::Bar *mainBar = flame->barOf(&main);
        const FlameGraph::Bar *rootBar = flame->barOf(&root);
        QVERIFY(mainBar && rootBar);
        QCOMPARE(mainBar->rect.top(), double(flame->rowHeight()));
        QVERIFY(std::abs(mainBar->rect.width() - rootBar->rect.width() * 8192 / 9728) < 0.01);
        const FlameGraph::Bar *stepBar = flame->barOf(&trainStep);
        QVERIFY(stepBar);
        QCOMPARE(stepBar->rect.width(), mainBar->rect.width());
        QCOMPARE(stepBar->rect.top(), 2.0 * flame->rowHeight());
        // Clicking a frame highlights its values everywhere and shows its source.
        QSignalSpy picked(&panel, &BreakdownPanel::framePicked);
        QTest::mouseClick(flame, Qt::LeftButton, {}, stepBar->rect.center().toPoint());
        const int arg0 = static_cast<int>(loaded.dump->findValue("Arg_0.1"));
        QCOMPARE(selection.highlightedGroup(), QVector<int>{arg0});
        QCOMPARE(picked.size(), 1);
        const SourcePlace place = picked.at(0).at(0).value<SourcePlace>();
        QCOMPARE(place.function, std::string("train_step"));
        QCOMPARE(place.file, std::string("model.py"));
        QCOMPARE(place.line, 20);
        QCOMPARE(place.column, 5);
        // Double-click zooms into main: it spans the width, the root stays above it.
        QTest::mouseDClick(flame, Qt::LeftButton, {}, mainBar->rect.center().toPoint());
        QVERIFY(flame->barOf(&main));
        QCOMPARE(flame->barOf(&main)->rect.width(), flame->barOf(&root)->rect.width());
        QVERIFY(!flame->barOf(&root.children[1])); // outside the zoom
        QTest::mouseDClick(flame, Qt::LeftButton, {}, flame->barOf(&root)->rect.center().toPoint());
        QVERIFY(flame->barOf(&root.children[1]));

        // Bottom-up: the innermost frames at the root, their callers below.
        panel.setGrouping(Breakdown::Grouping::CallersBottomUp);
        const BreakdownNode &inner = panel.model()->root().children[0];
        QCOMPARE(inner.path, std::string("train_step (model.py:20)"));
        QCOMPARE(inner.children.size(), std::size_t(1));
        QCOMPARE(inner.children[0].path, std::string("main (train.py:10)"));

        // By source looks past library frames: with model.py as library code, Arg_0.1 shows
        // at its caller, train.py:10.
        panel.setGrouping(Breakdown::Grouping::Source);
        const auto bytesOf = [&panel](const std::string &key) -> std::int64_t {
            for (const BreakdownNode &c : panel.model()->root().children)
                if (c.label == key)
                    return c.bytes;
            return -1;
        };
        QCOMPARE(bytesOf("model.py:20"), std::int64_t(8192));
        const auto madeAt = [&panel](const std::string &where) {
            for (const Finding &f : panel.findings())
                if (f.detail.find("made at " + where + ".") != std::string::npos)
                    return true;
            return false;
        };
        QVERIFY(madeAt("model.py:20")); // Arg_0.1 is 84 % of the step: a finding of its own
        workspace.setLibraryPatterns({"model.py"});
        QTRY_COMPARE(bytesOf("train.py:10"), std::int64_t(8192));
        QVERIFY(madeAt("train.py:10")); // the explainer follows the same patterns
        QCOMPARE(bytesOf("model.py:20"), std::int64_t(-1));
        QCOMPARE(bytesOf("/home/ptoulme/tpu.py:96"), std::int64_t(512));
    }

    void sourceViewReadsMappedFiles()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("src/proj")));
        const QString local = dir.filePath(QStringLiteral("src/proj/model.py"));
        QFile file(local);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 100; ++i)
            file.write(QStringLiteral("code of line %1\n").arg(i).toUtf8());
        file.close();
        SourceView view;
        view.resize(600, 400);
        SourcePlace place;
        place.file = "/home/alice/proj/model.py";
        place.function = "train_step";
        place.line = 60;
        place.column = 5;
        view.showPlace(place);
        QVERIFY(view.localPath().isEmpty()); // not on this machine, no mapping yet
        view.setPathMappings(
            {{"/home/alice/proj", dir.filePath(QStringLiteral("src/proj")).toStdString()}});
        QCOMPARE(view.localPath(), local);
        // Lines 20 … 100 around line 60, the frame's line marked.
        const QStringList lines = view.text()->toPlainText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 81);
        QCOMPARE(view.markedBlock(), 40);
        QVERIFY2(lines[40].startsWith(QStringLiteral(" 60 ▶ code of line 60")),
                 qPrintable(lines[40]));
        QVERIFY(lines[0].startsWith(QStringLiteral(" 20   code of line 20")));
        // The editor command, with the place filled in; without {file} the file comes last.
        view.setEditorCommand(QStringLiteral("code --goto {file}:{line}:{column}"));
        QCOMPARE(view.editorArguments(),
                 (QStringList{QStringLiteral("code"), QStringLiteral("--goto"),
                              local + QStringLiteral(":60:5")}));
        view.setEditorCommand(QStringLiteral("emacsclient -n +{line}"));
        QCOMPARE(view.editorArguments(),
                 (QStringList{QStringLiteral("emacsclient"), QStringLiteral("-n"),
                              QStringLiteral("+60"), local}));
        view.setEditorCommand(QString());
        QVERIFY(view.editorArguments().isEmpty()); // the desktop's handler
    }

    // Open in Editor never takes its words from the dump (issue 33): a relative file is not
    // looked up in the current folder, the path handed over is absolute, and {file}, {line}
    // and {column} are filled in one pass.
    void editorNeverTakesTheDumpsWords()
    {
        QTemporaryDir cwd;
        QTemporaryDir dumpFolder;
        QVERIFY(cwd.isValid() && dumpFolder.isValid());
        const QString evil = QStringLiteral("+call system('touch PWNED')|qa!");
        for (const QString &name : {evil, QStringLiteral("-rf.py")}) {
            QFile f(cwd.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("x\n");
        }
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(cwd.path()));
        const auto restore = qScopeGuard([&] { QDir::setCurrent(before); });
        SourceView view;
        view.setEditorCommand(QStringLiteral("vim +{line} {file}"));
        SourcePlace place;
        place.file = evil.toStdString();
        place.line = 1;
        view.showPlace(place);
        QVERIFY(view.localPath().isEmpty()); // not found in the current folder
        QVERIFY(view.editorArguments().isEmpty());
        QString error;
        QVERIFY(!view.openInEditor(&error));

        // Next to the dump it is found, and handed over as an absolute path.
        QFile beside(dumpFolder.filePath(QStringLiteral("-rf.py")));
        QVERIFY(beside.open(QIODevice::WriteOnly));
        beside.write("one\ntwo\n");
        beside.close();
        place.file = "-rf.py";
        place.line = 2;
        view.showPlace(place);
        QVERIFY(view.localPath().isEmpty());
        view.setDumpFolder(dumpFolder.path());
        QCOMPARE(view.localPath(), beside.fileName());
        const QStringList args = view.editorArguments();
        QCOMPARE(args,
                 (QStringList{QStringLiteral("vim"), QStringLiteral("+2"), beside.fileName()}));
        for (qsizetype i = 2; i < args.size(); ++i)
            QVERIFY(!args[i].startsWith(QLatin1Char('-')) && !args[i].startsWith(QLatin1Char('+')));
        // The button says what it will run.
        const QPushButton *open = view.findChild<QPushButton *>();
        QVERIFY(open);
        bool said = false;
        for (const QPushButton *b : view.findChildren<QPushButton *>())
            said = said || b->toolTip().contains(QStringLiteral("vim +2 ") +
                                                 richEscaped(beside.fileName()));
        QVERIFY(said);

        // Braces in the path stay as they are.
        const QString braces = dumpFolder.filePath(QStringLiteral("{line}_{column}.py"));
        QFile b(braces);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("a\n");
        b.close();
        place.file = braces.toStdString();
        place.line = 16;
        place.column = 3;
        view.showPlace(place);
        view.setEditorCommand(QStringLiteral("code --goto {file}:{line}:{column}"));
        QCOMPARE(view.editorArguments(),
                 (QStringList{QStringLiteral("code"), QStringLiteral("--goto"),
                              braces + QStringLiteral(":16:3")}));
    }

    // The Source heading keeps the line number and elides the path in its middle (issue 35,
    // item 6: "train.py:5" was shown for line 57).
    void sourceHeadingKeepsTheLine()
    {
        SourceView view;
        view.resize(320, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        SourcePlace place;
        place.file = "/usr/local/lib/python3.10/site-packages/very/long/package/path/train.py";
        place.function = "a_rather_long_function_name_for_training";
        place.line = 57;
        place.column = 3;
        view.showPlace(place);
        const QString heading = view.headingText();
        QVERIFY2(heading.contains(QStringLiteral("train.py:57:3")), qPrintable(heading));
        QVERIFY2(heading.contains(QStringLiteral("…")), qPrintable(heading));
        view.resize(1400, 300);
        QTRY_VERIFY(view.headingText().contains(QString::fromStdString(place.file) +
                                                QStringLiteral(":57:3")));
        // As drawn, the heading fits its label whatever the width (issue 49, item 5: a path in
        // <code> was measured in one font and drawn in a wider one, and "isdf_fitting.py:527"
        // showed as ":52").
        SourcePlace real;
        real.file = "/global/homes/j/jackm/software/lorrax_C/src/common/isdf_fitting.py";
        real.line = 527;
        view.showPlace(real);
        for (const int width : {200, 260, 320, 500}) {
            view.resize(width, 300);
            QCoreApplication::processEvents();
            const QString text = view.headingText();
            QVERIFY2(text.contains(QStringLiteral("isdf_fitting.py:527")), qPrintable(text));
            const auto labels = view.findChildren<QLabel *>();
            const auto it = std::find_if(labels.begin(), labels.end(),
                                         [&](const QLabel *l) { return l->text() == text; });
            QVERIFY(it != labels.end());
            QTextDocument doc;
            doc.setDefaultFont((*it)->font());
            doc.setDocumentMargin(0);
            doc.setHtml(text);
            QVERIFY2(doc.idealWidth() <= (*it)->contentsRect().width() + 1,
                     qPrintable(QStringLiteral("%1 px of text in %2 px at %3")
                                    .arg(doc.idealWidth())
                                    .arg((*it)->contentsRect().width())
                                    .arg(width)));
        }
    }

    // A tooltip that holds dump text shows it as text (issue 33: 25 nested tables in an
    // op_name froze the window for minutes when its What Fills Memory row was hovered).
    void dumpTextInTooltipsIsText()
    {
        LoadedDump loaded;
        QString error;
        QVERIFY2(loadDump(QStringLiteral(BUFFERSCOPE_TEST_DATA "/hostile/html.txt"), loaded, error),
                 qPrintable(error));
        Workspace workspace;
        BreakdownPanel panel(&workspace);
        panel.resize(1000, 600);
        workspace.show(loaded, Workspace::Fill::AtOnce);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setGrouping(Breakdown::Grouping::OpName);
        // The op_name is "x", 25 × "<table><tr><td>" and an image: its label, cut at 400 bytes.
        const QString markup = QStringLiteral("x") + QStringLiteral("<table><tr><td>").repeated(25);
        BreakdownTreeModel *model = panel.model();
        QModelIndex row;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, 0).data().toString().startsWith(markup))
                row = model->index(r, 0);
        QVERIFY(row.isValid());
        const QString tip = row.data(Qt::ToolTipRole).toString();
        QElapsedTimer clock;
        clock.start();
        QTextDocument doc;
        doc.setHtml(tip); // as QToolTip lays it out
        const QSizeF size = doc.size();
        QVERIFY2(clock.elapsed() < 2000, "the tooltip took seconds to lay out");
        QCOMPARE(doc.toPlainText(), row.data().toString());
        QVERIFY(size.width() < 5000 && size.height() < 5000);
        // The same for a warning's message and a helper's cut.
        QCOMPARE(plainToolTip(QStringLiteral("<b>a</b>\nb")),
                 QStringLiteral("<qt>&lt;b&gt;a&lt;/b&gt;<br>b</qt>"));
        QCOMPARE(richEscaped(QString(3000, QLatin1Char('a'))).size(), kMaxRichChars + 1);
    }

    // XLA's memory-usage report alone (issue 34): its allocations, their sizes, and the
    // selected one's values by offset, no time axis. A report worked out by hand: a 2 KiB temp
    // with three values at two offsets, and a donated 1 KiB parameter.
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
