// The level of detail never drops a value. On a generated dump, at every zoom from the whole
// program down to a few steps, every value whose box overlaps the visible range is drawn as its
// own box or counted in exactly one folded run (the counts add up), and a selected value is
// drawn highlighted at any zoom. The expected sets are computed here from the dump, not with
// the plottable's index.
#include "DumpGenerator.h"
#include "Workspace.h"
#include "charts/LiveRangeGantt.h"
#include "charts/MemoryMap.h"
#include "drawing/BoxPlottable.h"
#include "drawing/ChartPalette.h"
#include "drawing/PixelFold.h"
#include "models/Selection.h"

#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace bufferscope;

namespace {

constexpr double kBarInset = 0.12; // LiveRangeGantt's gap between bars, in rows

/// A visible range as fractions of the full one: x (steps) and y (rows or bytes).
struct Zoom
{
    double x0, x1, y0, y1;
};

} // namespace

Q_DECLARE_METATYPE(Zoom)

namespace {

bool overlaps(double a0, double a1, const QCPRange &r)
{
    return a1 > r.lower && a0 < r.upper;
}

/// Checks one frame against the values expected in view; returns an empty string when right.
QString accountFor(const BoxPlottable::Frame &frame, std::vector<std::uint32_t> expected)
{
    std::vector<std::uint32_t> drawn = frame.ownValues;
    drawn.insert(drawn.end(), frame.foldedValues.begin(), frame.foldedValues.end());
    std::sort(drawn.begin(), drawn.end());
    std::sort(expected.begin(), expected.end());
    if (std::adjacent_find(drawn.begin(), drawn.end()) != drawn.end())
        return QStringLiteral("a value was drawn twice");
    if (drawn != expected)
        return QStringLiteral("drawn %1 values, expected %2")
            .arg(drawn.size())
            .arg(expected.size());
    if (frame.visible != expected.size() || frame.own + frame.folded != frame.visible ||
        frame.own != frame.ownValues.size() || frame.folded != frame.foldedValues.size())
        return QStringLiteral("frame counts %1 = %2 own + %3 folded")
            .arg(frame.visible)
            .arg(frame.own)
            .arg(frame.folded);
    std::uint64_t counted = 0;
    for (const BoxPlottable::FoldedRun &run : frame.runs) {
        if (run.bottom <= run.top)
            return QStringLiteral("an empty run");
        counted += run.count;
    }
    if (counted != frame.folded)
        return QStringLiteral("the runs count %1 values, %2 were folded")
            .arg(counted)
            .arg(frame.folded);
    return {};
}

} // namespace

class TestLod : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    LoadedDump m_loaded;

    /// A small, short-lived value of the heap: a fraction of a pixel at full view.
    std::uint32_t smallValue() const
    {
        const Dump &d = *m_loaded.dump;
        std::uint32_t best = kNone;
        for (std::uint32_t i = 0; i < d.values.size(); ++i) {
            const Value &v = d.values[i];
            if (!v.hasLiveRange() || v.allocation == kNone || v.end - v.start > 3 || v.size > 4096)
                continue;
            if (d.allocations[v.allocation].kind != AllocationKind::Temp)
                continue;
            best = i;
            if (i > d.values.size() / 2)
                break; // one from the middle of the program
        }
        return best;
    }

    /// The generated dump in `view`, on screen, recording what it draws.
    bool showDump(BoxChartView &view) const
    {
        view.resize(900, 520);
        view.setDump(m_loaded.dump, m_loaded.timeline);
        view.show();
        view.boxes()->setRecording(true);
        return QTest::qWaitForWindowExposed(&view);
    }

    static void setRanges(ChartView &view, const QCPRange &x, const QCPRange &y)
    {
        view.plot()->xAxis->setRange(x);
        view.plot()->yAxis->setRange(y);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
    }

    static QCPRange part(const QCPRange &full, double from, double to)
    {
        return QCPRange(full.lower + full.size() * from, full.lower + full.size() * to);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString path = m_dir.filePath(QStringLiteral("lod-buffer-assignment.txt"));
        std::FILE *f = std::fopen(path.toLocal8Bit().constData(), "wb");
        QVERIFY(f);
        bench::generateDump({20000, 11}, f);
        std::fclose(f);
        QString error;
        QVERIFY2(loadDump(path, m_loaded, error), qPrintable(error));
        QVERIFY(smallValue() != kNone);
    }

    void zooms_data()
    {
        QTest::addColumn<Zoom>("zoom");
        QTest::newRow("everything") << Zoom{0, 1, 0, 1};
        QTest::newRow("half") << Zoom{0.25, 0.75, 0.25, 0.75};
        QTest::newRow("a twentieth") << Zoom{0.5, 0.55, 0.4, 0.45};
        QTest::newRow("all steps, a sliver of rows") << Zoom{0, 1, 0.6, 0.601};
        QTest::newRow("all rows, a sliver of steps") << Zoom{0.3, 0.3004, 0, 1};
        QTest::newRow("a few boxes") << Zoom{0.5, 0.5002, 0.5, 0.5005};
        QTest::newRow("off the end") << Zoom{0.9, 1.2, -0.1, 0.2};
    }

    void ganttDrawsEveryValueOnce_data() { zooms_data(); }
    void ganttDrawsEveryValueOnce()
    {
        QFETCH(Zoom, zoom);
        Workspace workspace;
        LiveRangeGantt gantt(&workspace);
        QVERIFY(showDump(gantt));
        const Dump &d = *m_loaded.dump;
        QCPRange x = part(QCPRange(0, static_cast<double>(d.stepCount())), zoom.x0, zoom.x1);
        QCPRange y = part(QCPRange(0, gantt.rowCount()), zoom.y0, zoom.y1);
        if (QByteArray(QTest::currentDataTag()) == "a few boxes") {
            // The same small window, moved onto the middle row's box, wherever the generator
            // put it (tuples define many values at one step, which bends the diagonal).
            for (std::uint32_t i = 0; i < d.values.size(); ++i)
                if (gantt.rowOf(static_cast<int>(i)) == gantt.rowCount() / 2) {
                    const double start = static_cast<double>(d.values[i].start);
                    x = QCPRange(start, start + x.size());
                    y = QCPRange(gantt.rowCount() / 2, gantt.rowCount() / 2 + y.size());
                    break;
                }
        }
        setRanges(gantt, x, y);

        std::vector<std::uint32_t> expected;
        for (std::uint32_t i = 0; i < d.values.size(); ++i) {
            const Value &v = d.values[i];
            const int row = gantt.rowOf(static_cast<int>(i));
            QCOMPARE(row >= 0, v.hasLiveRange());
            if (row >= 0 &&
                overlaps(static_cast<double>(v.start), static_cast<double>(v.end + 1), x) &&
                overlaps(row + kBarInset, row + 1 - kBarInset, y))
                expected.push_back(i);
        }
        const BoxPlottable::Frame &frame = gantt.boxes()->lastFrame();
        const QString wrong = accountFor(frame, expected);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QVERIFY(!expected.empty());
        if (QByteArray(QTest::currentDataTag()) == "everything") {
            // 20,000 rows in a few hundred pixels: most are folded, into far fewer runs.
            QVERIFY(frame.folded > expected.size() / 2);
            const QRect area = gantt.plot()->axisRect()->rect();
            QVERIFY(frame.runs.size() <= static_cast<std::size_t>(area.width() * area.height()));
        }
        if (QByteArray(QTest::currentDataTag()) == "a few boxes")
            QCOMPARE(frame.folded, std::size_t(0)); // close enough to see each one
    }

    void memoryMapDrawsEveryValueOnce_data() { zooms_data(); }
    void memoryMapDrawsEveryValueOnce()
    {
        QFETCH(Zoom, zoom);
        const Dump &d = *m_loaded.dump;
        Workspace workspace;
        MemoryMap map(&workspace);
        QVERIFY(showDump(map));
        const QCPRange steps(0, static_cast<double>(d.stepCount()));

        // One allocation, the largest (the temp heap): boxes at their offsets, from the dump.
        std::size_t heap = 0;
        for (std::size_t a = 0; a < d.allocations.size(); ++a)
            if (d.allocations[a].size > d.allocations[heap].size)
                heap = a;
        map.setAllocation(static_cast<int>(heap));
        const QCPRange x = part(steps, zoom.x0, zoom.x1);
        const QCPRange y =
            part(QCPRange(0, static_cast<double>(d.allocations[heap].size)), zoom.y0, zoom.y1);
        setRanges(map, x, y);
        std::vector<std::uint32_t> expected;
        for (std::uint32_t i = 0; i < d.values.size(); ++i) {
            const Value &v = d.values[i];
            if (v.allocation == heap && v.hasLiveRange() &&
                overlaps(static_cast<double>(v.start), static_cast<double>(v.end + 1), x) &&
                overlaps(static_cast<double>(v.offset),
                         static_cast<double>(v.offset + std::max<std::int64_t>(v.size, 1)), y))
                expected.push_back(i);
        }
        QString wrong = accountFor(map.boxes()->lastFrame(), expected);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));

        // All allocations stacked: every box, tested one by one (no index).
        map.setAllocation(MemoryMap::kAllAllocations);
        const QCPRange stackY = part(QCPRange(map.boxes()->boxSet()->valueSpan().lower,
                                              map.boxes()->boxSet()->valueSpan().upper),
                                     zoom.y0, zoom.y1);
        setRanges(map, x, stackY);
        expected.clear();
        for (const Box &b : map.boxes()->boxes())
            if (overlaps(b.x0, b.x1, x) && overlaps(b.y0, b.y1, stackY))
                expected.push_back(b.value);
        wrong = accountFor(map.boxes()->lastFrame(), expected);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void exportSizedFramesFoldByRow()
    {
        // A picture far larger than the window (an export at 4x) folds by row, not into
        // grids of its area, and still draws every value once.
        const Dump &d = *m_loaded.dump;
        Workspace workspace;
        LiveRangeGantt gantt(&workspace);
        QVERIFY(showDump(gantt));
        gantt.resetZoom();
        const QPixmap picture = gantt.plot()->toPixmap(900, 520, 4.0);
        QVERIFY(!picture.isNull());
        QVERIFY(!PixelFold::shared().dense());
        std::vector<std::uint32_t> expected;
        for (std::uint32_t i = 0; i < d.values.size(); ++i)
            if (d.values[i].hasLiveRange())
                expected.push_back(i);
        const BoxPlottable::Frame &frame = gantt.boxes()->lastFrame();
        const QString wrong = accountFor(frame, expected);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QVERIFY(frame.folded > 0);
    }

    void foldedPixelsMixTheirColours()
    {
        // Worked by hand from the rule: a pixel's colour is the mean of the colours over it,
        // with opacity 150, 185, 210, 230, then 255 for 1, 2, 3, 4, 5+ boxes, times their own
        // mean opacity; each box is counted at its first pixel.
        const QRgb red = qRgba(255, 0, 0, 255);
        const QRgb blue = qRgba(0, 0, 255, 255);
        const QRgb faintGreen = qRgba(0, 200, 0, 102);
        for (const PixelFold::Mode mode : {PixelFold::Mode::Dense, PixelFold::Mode::ByRow}) {
            PixelFold fold;
            fold.begin(4, 3, true, mode);
            fold.column(1, 0, 2, red);     // column 1, rows 0-1
            fold.column(1, 1, 3, blue);    // column 1, rows 1-2
            fold.row(2, 0, 4, faintGreen); // row 2, columns 0-3
            fold.column(3, 0, 1, red);     // one pixel
            QImage image(4, 3, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            std::vector<PixelFold::Run> runs;
            fold.paint(image, runs);
            const auto at = [&](int x, int y) { return qUnpremultiply(image.pixel(x, y)); };
            QCOMPARE(at(0, 0), qRgba(0, 0, 0, 0));
            QCOMPARE(qAlpha(at(1, 0)), 150);
            QCOMPARE(qRed(at(1, 0)), 255);
            // Red and blue: (127, 0, 127), opacity 185.
            QCOMPARE(qAlpha(at(1, 1)), 185);
            QVERIFY(std::abs(qRed(at(1, 1)) - 127) <= 1 && std::abs(qBlue(at(1, 1)) - 127) <= 1);
            // Blue and the faint green: (0, 100, 127), opacity 185 × (255 + 102) / 2 / 255.
            QCOMPARE(qAlpha(at(1, 2)), qRound(185.0 * (255 + 102) / 2 / 255));
            QVERIFY(std::abs(qGreen(at(1, 2)) - 100) <= 2);
            // The faint green alone: opacity 150 × 102 / 255 = 60.
            QCOMPARE(qAlpha(at(0, 2)), 60);
            QCOMPARE(qAlpha(at(3, 0)), 150);
            QCOMPARE(qAlpha(at(2, 1)), 0);
            // Column 1 is three runs (red; red and blue; blue and green), the red box counted
            // in the first, the blue in the second; the green flat box at column 0.
            std::vector<PixelFold::Run> column1;
            std::uint32_t counted = 0;
            for (const PixelFold::Run &run : runs) {
                counted += run.count;
                if (run.column == 1)
                    column1.push_back(run);
            }
            QCOMPARE(counted, 4u);
            std::sort(column1.begin(), column1.end(),
                      [](const auto &a, const auto &b) { return a.top < b.top; });
            QCOMPARE(column1.size(), std::size_t(3));
            QCOMPARE(column1[0].count, 1u);
            QCOMPARE(column1[1].count, 1u);
            QCOMPARE(column1[2].count, 0u);
            QCOMPARE(column1[2].bottom, 3);
        }
    }

    void denseAndByRowFoldAlike()
    {
        // The two ways of holding folded boxes paint the same pixels and the same runs, boxes
        // reaching the picture's last row and column included.
        std::mt19937 random(38);
        for (const QSize size : {QSize(1, 1), QSize(7, 5), QSize(64, 48), QSize(301, 97)}) {
            const int w = size.width(), h = size.height();
            std::uniform_int_distribution<int> xs(0, w - 1), ys(0, h - 1), colours(0, 5);
            const QRgb palette[] = {qRgba(230, 159, 0, 255), qRgba(86, 180, 233, 255),
                                    qRgba(0, 158, 115, 200), qRgba(240, 228, 66, 255),
                                    qRgba(0, 114, 178, 14),  qRgba(213, 94, 0, 255)};
            struct Drawn
            {
                QImage image;
                std::vector<PixelFold::Run> runs;
            };
            std::vector<Drawn> drawn;
            const std::uint32_t seed = random();
            for (const PixelFold::Mode mode : {PixelFold::Mode::Dense, PixelFold::Mode::ByRow}) {
                std::mt19937 boxes(seed); // the same boxes both ways
                PixelFold fold;
                fold.begin(w, h, true, mode);
                for (int i = 0; i < 4000; ++i) {
                    const QRgb rgb = palette[colours(boxes)];
                    if (boxes() % 2) {
                        const int x = xs(boxes), top = ys(boxes);
                        fold.column(x, top, std::min(h, top + 1 + static_cast<int>(boxes() % 9)),
                                    rgb);
                    } else {
                        const int y = ys(boxes), left = xs(boxes);
                        fold.row(y, left, std::min(w, left + 1 + static_cast<int>(boxes() % 40)),
                                 rgb);
                    }
                }
                Drawn d{QImage(w, h, QImage::Format_ARGB32_Premultiplied), {}};
                d.image.fill(Qt::transparent);
                fold.paint(d.image, d.runs);
                std::sort(d.runs.begin(), d.runs.end(), [](const auto &a, const auto &b) {
                    return std::tie(a.column, a.top) < std::tie(b.column, b.top);
                });
                drawn.push_back(std::move(d));
            }
            QCOMPARE(drawn[0].image, drawn[1].image);
            QCOMPARE(drawn[0].runs.size(), drawn[1].runs.size());
            std::uint64_t counted = 0;
            for (std::size_t k = 0; k < drawn[0].runs.size(); ++k) {
                const PixelFold::Run &a = drawn[0].runs[k], &b = drawn[1].runs[k];
                QVERIFY(a.column == b.column && a.top == b.top && a.bottom == b.bottom &&
                        a.count == b.count && a.colour == b.colour);
                counted += a.count;
            }
            QCOMPARE(counted, std::uint64_t(4000));
        }
        // Which one a picture gets: grids while they are small enough to keep between frames.
        PixelFold fold;
        fold.begin(900, 520, false);
        QVERIFY(fold.dense());
        fold.begin(3840, 2160, false);
        QVERIFY(!fold.dense());
    }

    void hiddenChartsDrawWhenShown()
    {
        // A box chart not on screen (a tabbed-away dock, a chart drawn for `export`) does not
        // draw its 20,000 boxes when the selection moves; it draws when it is shown.
        Workspace workspace;
        LiveRangeGantt gantt(&workspace);
        gantt.resize(900, 520);
        workspace.show(m_loaded, Workspace::Fill::AtOnce); // the selection moves to the peak
        workspace.selection()->setCurrentValue(static_cast<int>(smallValue()));
        QCOMPARE(gantt.boxes()->lastFrame().visible, std::size_t(0));
        gantt.show();
        QVERIFY(QTest::qWaitForWindowExposed(&gantt));
        QTRY_VERIFY(gantt.boxes()->lastFrame().visible > 0);
    }

    void selectedValueIsHighlightedAtAnyZoom()
    {
        const Dump &d = *m_loaded.dump;
        const std::uint32_t value = smallValue();
        const Value &v = d.values[value];
        Workspace workspace;
        Selection &selection = *workspace.selection();
        LiveRangeGantt gantt(&workspace);
        MemoryMap map(&workspace);
        for (BoxChartView *view :
             {static_cast<BoxChartView *>(&gantt), static_cast<BoxChartView *>(&map)}) {
            view->resize(900, 520);
            view->setDump(m_loaded.dump, m_loaded.timeline);
            view->show();
            QVERIFY(QTest::qWaitForWindowExposed(view));
        }
        selection.setCurrentValue(static_cast<int>(value));
        const double centreX = (static_cast<double>(v.start) + static_cast<double>(v.end + 1)) / 2;
        const double steps = static_cast<double>(d.stepCount());
        for (BoxChartView *view :
             {static_cast<BoxChartView *>(&gantt), static_cast<BoxChartView *>(&map)}) {
            view->resetZoom();
            const QCPRange fullY = view->plot()->yAxis->range();
            const std::vector<int> boxes = view->boxes()->boxesOfValue(value);
            QCOMPARE(boxes.size(), std::size_t(1));
            const Box box = view->boxes()->boxes()[static_cast<std::size_t>(boxes.front())];
            const double centreY = (box.y0 + box.y1) / 2;
            int marksSeen = 0;
            // From the whole program (the box far below a pixel) to a few steps (far above).
            for (double magnify : {1.0, 10.0, 100.0, 1e3, 1e4, 1e5}) {
                const double halfX = steps / magnify / 2;
                const double halfY = fullY.size() / magnify / 2;
                const QCPRange x = magnify == 1.0 ? QCPRange(0, steps)
                                                  : QCPRange(centreX - halfX, centreX + halfX);
                const QCPRange y =
                    magnify == 1.0 ? fullY : QCPRange(centreY - halfY, centreY + halfY);
                setRanges(*view, x, y);
                const QString where =
                    QStringLiteral("%1 at %2x").arg(view->viewName()).arg(magnify);
                const BoxPlottable::Frame &frame = view->selectedBoxes()->lastFrame();
                QVERIFY2(frame.own == 1 && frame.folded == 0, qPrintable(where));
                // The pixel at the middle of the box is the highlight colour.
                QRectF r = view->highlightedPixelRect().intersected(
                    QRectF(view->plot()->axisRect()->rect()));
                if (r.isEmpty()) // thinner than a pixel: the middle of the hairline
                    r = QRectF(view->highlightedPixelRect().center(), QSizeF(0, 0));
                const QImage picture = view->plot()->toPixmap().toImage();
                if (qEnvironmentVariableIsSet("BUFFERSCOPE_SHOTS"))
                    picture.save(
                        QStringLiteral("/tmp/lod-%1-%2.png").arg(view->viewName()).arg(magnify));
                const QPoint middle = r.center().toPoint();
                QVERIFY2(view->plot()->axisRect()->rect().contains(middle), qPrintable(where));
                // Within a few levels: the Gantt's translucent row band lies over the bar.
                const QColor seen(picture.pixel(middle));
                const QColor want = ChartPalette::highlight();
                const bool close = std::abs(seen.red() - want.red()) <= 8 &&
                                   std::abs(seen.green() - want.green()) <= 8 &&
                                   std::abs(seen.blue() - want.blue()) <= 8;
                QVERIFY2(close, qPrintable(where + QStringLiteral(": %1 at %2,%3")
                                                       .arg(QColor(picture.pixel(middle)).name())
                                                       .arg(middle.x())
                                                       .arg(middle.y())));
                // The marks never fold: a use in view has its filled triangle just above the
                // box as drawn (at least 7 px tall), at every zoom.
                QVERIFY2(!view->markedUseSteps().empty(), qPrintable(where));
                for (qint64 use : view->markedUseSteps()) {
                    const double ux =
                        view->plot()->xAxis->coordToPixel(static_cast<double>(use) + 0.5);
                    const QRectF drawn = view->highlightedPixelRect();
                    const double half = std::max(drawn.height() / 2, 3.5);
                    const QPoint tip(qRound(ux), qRound(drawn.center().y() - half - 4.5));
                    if (!view->plot()->axisRect()->rect().adjusted(0, 6, 0, 0).contains(tip))
                        continue;
                    const QColor mark(picture.pixel(tip));
                    QVERIFY2(
                        mark.lightness() < 80,
                        qPrintable(
                            where +
                            QStringLiteral(": use at step %1 drawn %2").arg(use).arg(mark.name())));
                    ++marksSeen;
                }
            }
            QVERIFY2(marksSeen > 0, qPrintable(view->viewName()));
        }
    }
};

QTEST_MAIN(TestLod)
#include "tst_lod.moc"
