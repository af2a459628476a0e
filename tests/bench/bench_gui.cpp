// bench_gui: opens a dump in the real main window (offscreen, 1920x1080) and prints what a user
// waits for: load time, the longest stall of the GUI thread while loading, time to first paint,
// the Gantt's and the memory map's replot time at full view and zoomed (QCustomPlot's own
// replotTime), click-to-everything-highlighted, sorting the value table, and peak RSS.
// Usage: bench_gui FILE [--verbose] [--compare-with FILE2] [--shots DIR [--compare FILE2]]
//        (--compare-with: File → Compare With FILE2 through the window, timed)
//        (DIR: also save pictures of the window, What Fills Memory and a comparison with FILE2,
//        or with itself)
#include "MainWindow.h"
#include "Preferences.h"
#include "Workspace.h"
#include "charts/BreakdownChart.h"
#include "charts/ChartView.h"
#include "charts/LiveRangeGantt.h"
#include "charts/MemoryMap.h"
#include "charts/UsageChart.h"
#include "drawing/BoxPlottable.h"
#include "models/Selection.h"
#include "panels/BreakdownPanel.h"
#include "panels/ValueInspector.h"
#include "tables/ModuleBrowser.h"
#include "tables/ValueTableView.h"
#include "util/Parallel.h"
#include "windows/CompareView.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTime>
#include <QTimer>
#include <QTreeView>
#include <qcustomplot.h>

#include <spdlog/spdlog.h>

#include <cstdio>
#include <sys/resource.h>

using namespace bufferscope;

namespace {

/// Runs the event loop until `done()`. processEvents(flags, maxtime) ignores WaitForMoreEvents,
/// so waiting with it spun a core at 100 % (which at --threads 2 took one of the parser's two
/// cores); this sleeps in the event loop instead, woken at least every 5 ms.
template <class Done> void waitUntil(const Done &done)
{
    QTimer heartbeat;
    heartbeat.start(5);
    while (!done())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

double replotMs(QCustomPlot *plot)
{
    // The best of five immediate replots, in milliseconds, as QCustomPlot measures it.
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        best = std::min(best, plot->replotTime());
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    bufferscope::heapPerCore(); // as the app does (app/main.cpp)
    // A 1920x1080 screen, as the figures in README.md were taken on (the offscreen platform's
    // default is 800x600, where the window starts in its laptop layout).
    QTemporaryDir screenDir;
    QFile screen(screenDir.filePath(QStringLiteral("screen.json")));
    if (!screen.open(QIODevice::WriteOnly) ||
        screen.write(R"({"screens": [{"name": "screen", "x": 0, "y": 0, "width": 1920, )"
                     R"("height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})") < 0)
        return 1;
    screen.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + screen.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    // --verbose: the app's debug log (parse sections, what each view costs the GUI thread).
    if (QApplication::arguments().contains(QStringLiteral("--verbose")))
        spdlog::set_level(spdlog::level::debug);
    QApplication::setOrganizationName(QStringLiteral("BufferScopeBench"));
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_gui FILE|DIR [--verbose] [--threads N] [--compare-with "
                             "FILE2] [--shots DIR [--compare FILE2]]\n");
        return 1;
    }
    const QString file = args[1];
    // --threads N: the parser's threads, as the app's --threads (else the app's setting).
    const qsizetype threadsAt = args.indexOf(QStringLiteral("--threads"));
    const QString shots = args.indexOf(QStringLiteral("--shots")) > 0
                              ? args.value(args.indexOf(QStringLiteral("--shots")) + 1)
                              : QString();

    MainWindow w;
    if (threadsAt > 0)
        w.setCommandLineThreads(args.value(threadsAt + 1).toInt());
    w.resize(1920, 1080);
    w.show();
    QApplication::processEvents();

    // The longest gap between 5 ms ticks while loading is how long the GUI thread was blocked.
    QElapsedTimer sinceTick;
    qint64 longestStall = 0;
    QTimer ticker;
    ticker.setInterval(5);
    // --verbose: every stall over 20 ms, with the time it ended (to match the debug log).
    const bool verbose = QApplication::arguments().contains(QStringLiteral("--verbose")) ||
                         qEnvironmentVariableIsSet("BENCH_STALLS");
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 gap = sinceTick.restart();
        longestStall = std::max(longestStall, gap);
        if (verbose && gap > 20)
            std::fprintf(stderr, "[%s] stall %lld ms\n",
                         qPrintable(QTime::currentTime().toString(QStringLiteral("HH:mm:ss.zzz"))),
                         static_cast<long long>(gap));
    });
    bool loaded = false;
    bool shown = false;
    qint64 loadMs = 0;
    QElapsedTimer total;
    QObject::connect(w.workspace(), &Workspace::loaded, [&] {
        loaded = true;
        loadMs = total.elapsed();
    });
    QObject::connect(&w, &MainWindow::dumpShown, [&] { shown = true; });
    QObject::connect(w.workspace(), &Workspace::loadFailed, [&](const QString &, const QString &e) {
        std::fprintf(stderr, "%s\n", qPrintable(e));
        QApplication::exit(2);
    });
    total.start();
    sinceTick.start();
    ticker.start();
    qint64 listedMs = -1;
    if (QFileInfo(file).isDir())
        QObject::connect(w.modules(), &ModuleBrowser::allRead, [&] { listedMs = total.elapsed(); });
    w.openPaths({file});
    if (QFileInfo(file).isDir()) {
        // A dump folder: the Modules dock lists every module as it is read, then the one the
        // device holds most for opens.
        ModuleBrowser *modules = w.modules();
        waitUntil([&] { return loaded && shown && listedMs >= 0; });
        QApplication::processEvents();
        const qint64 shownMs = total.elapsed();
        ticker.stop();
        // The whole window drawn at once (the bench's own repaint: the window paints view by
        // view as they fill): apart, not a stall of the listing.
        QElapsedTimer paint;
        paint.start();
        w.repaint();
        const qint64 paintMs = paint.elapsed();
        std::printf("%s: %d modules\n", qPrintable(file), modules->count());
        std::printf("  all listed                                   %lld ms\n",
                    static_cast<long long>(listedMs));
        std::printf("  the largest module shown                     %lld ms (%s)\n",
                    static_cast<long long>(shownMs), w.current().dump->module.c_str());
        std::printf("  longest GUI-thread stall                     %lld ms\n",
                    static_cast<long long>(longestStall));
        std::printf("  the whole window repainted then              %lld ms\n",
                    static_cast<long long>(paintMs));
        std::printf("  peak RSS                                     %.0f MiB\n", peakRssMiB());
        return 0;
    }
    waitUntil([&] { return loaded && shown; });
    // First paint: the window drawn with the dump (every view filled, every pending replot done).
    QApplication::processEvents();
    w.repaint();
    QApplication::processEvents();
    const qint64 firstPaintMs = total.elapsed();
    ticker.stop();
    const double loadRssMiB = peakRssMiB();
    const Dump &dump = *w.current().dump;

    QCustomPlot *gantt = w.gantt()->plot();
    QCustomPlot *map = w.memoryMap()->plot();
    const double usageFull = replotMs(w.usageChart()->plot());
    QElapsedTimer windowPaint;
    windowPaint.start();
    w.repaint();
    const double windowPaintMs = static_cast<double>(windowPaint.nsecsElapsed()) / 1e6;
    const double ganttFull = replotMs(gantt);
    const double mapFull = replotMs(map);
    // Zoomed: a twentieth of the program around the peak.
    const qint64 steps = std::max<qint64>(1, dump.stepCount());
    const SpaceTimeline *primary = w.current().timeline->primary();
    const double centre = primary ? static_cast<double>(primary->peak.step) : steps / 2.0;
    const double half = std::max(2.0, static_cast<double>(steps) / 40.0);
    gantt->xAxis->setRange(centre - half, centre + half);
    map->xAxis->setRange(centre - half, centre + half);
    const double ganttZoom = replotMs(gantt);
    const double mapZoom = replotMs(map);
    w.gantt()->resetZoom();
    w.memoryMap()->resetZoom();
    QApplication::processEvents(); // the queued full replots of the reset, before the click

    // Hovering: hit-testing a grid of points over each box chart at full view (the worst case
    // for the memory map, whose tallest box widens the search).
    const auto hoverMs = [](BoxChartView *view) {
        const QRect area = view->plot()->axisRect()->rect();
        QElapsedTimer clock;
        clock.start();
        int hits = 0;
        for (int i = 1; i <= 10; ++i)
            for (int j = 1; j <= 10; ++j)
                hits += view->boxes()->boxAt(QPointF(area.left() + area.width() * i / 11.0,
                                                     area.top() + area.height() * j / 11.0)) >= 0;
        Q_UNUSED(hits)
        return static_cast<double>(clock.nsecsElapsed()) / 1e6 / 100;
    };
    const double ganttHover = hoverMs(w.gantt());
    const double mapHover = hoverMs(w.memoryMap());

    // Click to all views highlighted: the largest value live at the peak.
    const auto live = MemoryTimeline::valuesLiveAt(dump, primary ? primary->peak.step : 0,
                                                   primary ? primary->memorySpace : 0);
    const int value = live.empty() ? 0 : static_cast<int>(live.front());
    // Which charts replot in full during the click, and how long each takes.
    QStringList replots;
    QList<QMetaObject::Connection> watching;
    for (ChartView *chart : w.chartViews())
        watching << QObject::connect(
            chart->plot(), &QCustomPlot::afterReplot, chart, [chart, &replots] {
                replots << QStringLiteral("%1 %2 ms")
                               .arg(chart->viewName())
                               .arg(chart->plot()->replotTime(), 0, 'f', 1);
            });
    QElapsedTimer click;
    click.start();
    w.selection()->setCurrentValue(value);
    const double syncMs = static_cast<double>(click.nsecsElapsed()) / 1e6;
    while (!(w.gantt()->highlightedValue() == value && w.memoryMap()->highlightedValue() == value &&
             w.usageChart()->highlightedValue() == value && w.inspector()->shownValue() == value))
        QApplication::processEvents();
    QApplication::processEvents(); // the queued highlight replots
    const double clickMs = static_cast<double>(click.nsecsElapsed()) / 1e6;
    for (const QMetaObject::Connection &c : watching)
        QObject::disconnect(c); // `replots` is not to be written after this
    // BENCH_CLICKS=N: N more clicks on other values (for profiling the click path).
    for (int i = 0, n = qEnvironmentVariableIntValue("BENCH_CLICKS");
         i < n && static_cast<std::size_t>(i + 1) < live.size(); ++i) {
        w.selection()->setCurrentValue(static_cast<int>(live[static_cast<std::size_t>(i + 1)]));
        QApplication::processEvents();
    }

    // Sorting the value table by size, then back by id.
    QTableView *table = w.valueTable()->table();
    QElapsedTimer sort;
    sort.start();
    table->sortByColumn(2, Qt::DescendingOrder);
    QApplication::processEvents();
    const double sortMs = static_cast<double>(sort.nsecsElapsed()) / 1e6;

    // Filtering the value table (Enter applies at once): a common word, then a rare one, then
    // back to everything. The longest GUI stall is measured again over the three.
    const qint64 loadStall = longestStall;
    sinceTick.restart();
    longestStall = 0;
    ticker.start();
    const auto filterMs = [&](const QString &text) {
        QElapsedTimer clock;
        clock.start();
        w.valueTable()->filterEdit()->setText(text);
        Q_EMIT w.valueTable()->filterEdit()->returnPressed();
        waitUntil([&] { return !w.valueTable()->isFiltering(); }); // matched on a worker
        QApplication::processEvents();
        return static_cast<double>(clock.nsecsElapsed()) / 1e6;
    };
    const double filterCommonMs = filterMs(QStringLiteral("fusion"));
    const int commonRows = table->model()->rowCount();
    const double filterRareMs = filterMs(QStringLiteral("all-reduce.7"));
    const int rareRows = table->model()->rowCount();
    const double filterClearMs = filterMs(QString());
    ticker.stop();
    const qint64 filterStall = longestStall;

    // Other things a user does that rebuild a view at once: the Gantt in another order, the
    // memory map on the largest allocation, and that allocation expanded in the tree.
    const auto timedMs = [&w](const auto &work) {
        QElapsedTimer clock;
        clock.start();
        work();
        waitUntil([&w] { return !w.gantt()->isBuilding() && !w.memoryMap()->isBuilding(); });
        QApplication::processEvents();
        return static_cast<double>(clock.nsecsElapsed()) / 1e6;
    };
    sinceTick.restart();
    longestStall = 0;
    ticker.start();
    const double reorderMs = timedMs([&] { w.gantt()->setOrder(LiveRangeGantt::Order::BySize); });
    std::size_t largest = 0;
    for (std::size_t a = 0; a < dump.allocations.size(); ++a)
        if (dump.allocations[a].valueCount > dump.allocations[largest].valueCount)
            largest = a;
    const double allocationMs =
        timedMs([&] { w.memoryMap()->setAllocation(static_cast<int>(largest)); });
    QTreeView *tree = w.allocationTree();
    const double expandMs = timedMs([&] {
        for (int r = 0; r < tree->model()->rowCount(); ++r) {
            const QModelIndex i = tree->model()->index(r, 0);
            if (tree->model()->rowCount(i) ==
                static_cast<int>(dump.allocations[largest].valueCount)) {
                tree->expand(i);
                tree->scrollTo(tree->model()->index(tree->model()->rowCount(i) - 1, 0, i));
                break;
            }
        }
    });
    ticker.stop();
    const qint64 rebuildStall = longestStall;
    // Stepping through the program (the arrow keys): ten steps, each processed in full.
    sinceTick.restart();
    longestStall = 0;
    ticker.start();
    QElapsedTimer stepping;
    stepping.start();
    for (int i = 1; i <= 10; ++i) {
        w.selection()->setCurrentStep(std::max<qint64>(0, static_cast<qint64>(centre) - i * 1000));
        QApplication::processEvents();
    }
    waitUntil([&] { return !w.peakPanel()->isComputing(); });
    const double stepMs = static_cast<double>(stepping.nsecsElapsed()) / 1e6 / 10;
    ticker.stop();
    const qint64 stepStall = longestStall;
    // The same with the Breakdown chart on screen instead of What Fills Memory.
    for (QDockWidget *dock : w.docks())
        if (dock->widget() && dock->widget()->isAncestorOf(w.breakdownChart()))
            dock->raise();
    QApplication::processEvents();
    sinceTick.restart();
    longestStall = 0;
    ticker.start();
    stepping.restart();
    for (int i = 1; i <= 10; ++i) {
        w.selection()->setCurrentStep(std::max<qint64>(0, static_cast<qint64>(centre) + i * 1000));
        QApplication::processEvents();
    }
    const double breakdownStepMs = static_cast<double>(stepping.nsecsElapsed()) / 1e6 / 10;
    ticker.stop();
    const qint64 breakdownStepStall = longestStall;

    std::printf("%s: %zu values, %lld steps\n", qPrintable(file), dump.values.size(),
                static_cast<long long>(steps));
    std::printf("  load (parse, analyses, boxes; worker)     %8lld ms\n",
                static_cast<long long>(loadMs));
    std::printf("  longest GUI-thread stall while loading    %8lld ms\n",
                static_cast<long long>(loadStall));
    std::printf("  time to first paint                       %8lld ms\n",
                static_cast<long long>(firstPaintMs));
    std::printf("  usage chart replot, full view             %8.1f ms\n", usageFull);
    std::printf("  repaint of the whole window               %8.1f ms\n", windowPaintMs);
    std::printf("  Gantt replot, full view / zoomed          %8.1f / %.1f ms\n", ganttFull,
                ganttZoom);
    std::printf("  memory map replot, full view / zoomed     %8.1f / %.1f ms\n", mapFull, mapZoom);
    std::printf("  hover hit-test, Gantt / memory map        %8.2f / %.2f ms\n", ganttHover,
                mapHover);
    std::printf("  click to all views highlighted            %8.1f ms (%.1f ms in the signal; "
                "full replots: %s)\n",
                clickMs, syncMs, qPrintable(replots.join(QStringLiteral(", "))));
    std::printf("  value table sort by size                  %8.1f ms\n", sortMs);
    std::printf("  value table filter: common / rare / clear %8.1f / %.1f / %.1f ms (%d, %d rows; "
                "longest GUI stall %lld ms)\n",
                filterCommonMs, filterRareMs, filterClearMs, commonRows, rareRows,
                static_cast<long long>(filterStall));
    std::printf("  Gantt by size / map of the largest allocation (%u values) / that allocation "
                "expanded: %.1f / %.1f / %.1f ms (longest GUI stall %lld ms)\n",
                dump.allocations[largest].valueCount, reorderMs, allocationMs, expandMs,
                static_cast<long long>(rebuildStall));
    std::printf("  step change (10 in a row), mean / longest GUI stall %.1f / %lld ms; with the "
                "Breakdown chart shown %.1f / %lld ms\n",
                stepMs, static_cast<long long>(stepStall), breakdownStepMs,
                static_cast<long long>(breakdownStepStall));
    std::printf("  peak RSS up to first paint / overall      %8.1f / %.1f MiB\n", loadRssMiB,
                peakRssMiB());

    // Saving the Gantt's data as CSV (after the RSS line: the text is as big as the dump's
    // values): made and written on a worker, while the window keeps answering.
    {
        QTemporaryDir csvDir;
        const QString csvPath = csvDir.filePath(QStringLiteral("gantt.csv"));
        bool csvDone = false;
        QString csvError;
        const QMetaObject::Connection c = QObject::connect(
            w.gantt(), &ChartView::csvWritten, [&](const QString &, const QString &error) {
                csvDone = true;
                csvError = error;
            });
        sinceTick.restart();
        longestStall = 0;
        ticker.start();
        QElapsedTimer csvClock;
        csvClock.start();
        if (w.gantt()->writeCsvInBackground(csvPath))
            waitUntil([&] { return csvDone; });
        const double csvMs = static_cast<double>(csvClock.nsecsElapsed()) / 1e6;
        ticker.stop();
        QObject::disconnect(c);
        if (!csvDone || !csvError.isEmpty()) {
            std::fprintf(stderr, "the Gantt's CSV was not written: %s\n", qPrintable(csvError));
            return 1;
        }
        std::printf("  Gantt data as CSV (%.0f MB, on a worker)  %8.1f ms (longest GUI stall %lld "
                    "ms)\n",
                    static_cast<double>(QFileInfo(csvPath).size()) / 1e6, csvMs,
                    static_cast<long long>(longestStall));
    }

    // --compare-with FILE2: File → Compare With through the window (load and diff on a worker),
    // timed until the comparison window is open, with the longest GUI stall meanwhile.
    if (const qsizetype at = args.indexOf(QStringLiteral("--compare-with")); at > 0) {
        CompareView *opened = nullptr;
        QObject::connect(&w, &MainWindow::compareOpened,
                         [&opened](CompareView *view) { opened = view; });
        sinceTick.restart();
        longestStall = 0;
        ticker.start();
        QElapsedTimer comparing;
        comparing.start();
        w.compareWith(args.value(at + 1));
        waitUntil([&] { return opened != nullptr; });
        QApplication::processEvents();
        const qint64 openMs = comparing.elapsed();
        const qint64 openStall = longestStall;
        const double compareReplot = replotMs(opened->plot());
        // Closing it frees the other dump and the comparison.
        longestStall = 0;
        sinceTick.restart();
        QElapsedTimer closing;
        closing.start();
        opened->close();
        QApplication::processEvents();
        QApplication::processEvents();
        const qint64 closeMs = closing.elapsed();
        ticker.stop();
        std::printf("  compare with %s: open %lld ms (longest GUI stall %lld ms), replot %.1f ms, "
                    "close %lld ms (stall %lld ms)\n",
                    qPrintable(args.value(at + 1)), static_cast<long long>(openMs),
                    static_cast<long long>(openStall), compareReplot,
                    static_cast<long long>(closeMs), static_cast<long long>(longestStall));
    }

    if (!shots.isEmpty()) {
        w.grab().save(shots + QStringLiteral("/window.png"));
        BreakdownPanel *panel = w.peakPanel();
        panel->setParent(nullptr); // out of its dock, at a readable size
        panel->resize(1200, 800);
        panel->show();
        QApplication::processEvents();
        panel->grab().save(shots + QStringLiteral("/what-fills-memory.png"));
        const qsizetype at = args.indexOf(QStringLiteral("--compare"));
        LoadedDump other = w.current();
        QString error;
        if (at > 0 && !loadDump(args.value(at + 1), other, error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        CompareView compare(w.workspace()->jobs());
        compare.setDumps(
            w.current().dump, w.current().timeline,
            QString::fromStdString(w.current().dump->module), other.dump, other.timeline,
            QString::fromStdString(other.dump->module),
            std::make_shared<const DumpDiff>(DumpDiff::compute(
                *w.current().dump, *w.current().timeline, *other.dump, *other.timeline)));
        compare.resize(1100, 760);
        compare.show();
        QElapsedTimer settle; // the tables fill a moment after the window shows
        settle.start();
        while (settle.elapsed() < 200)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        compare.grab().save(shots + QStringLiteral("/compare.png"));
    }
    return 0;
}
