// The compare window's chart: both curves, their peaks and labels, the value shown on both,
// its CSV and export. The window, the causes and the tables are CompareView.cpp.
#include "JobRunner.h"
#include "drawing/BytesTicker.h"
#include "drawing/ChartExport.h"
#include "drawing/ChartPalette.h"
#include "layout/LabelLayout.h"
#include "model/ModuleNames.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/ValueChangeModel.h"
#include "report/DiffReport.h"
#include "report/Report.h"
#include "report/ViewCsv.h"
#include "tables/TableCsv.h"
#include "windows/CompareView.h"
#include "windows/DialogFolders.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <spdlog/spdlog.h>

namespace bufferscope {

std::string CompareView::curvesCsv() const
{
    if (!m_diff)
        return {};
    return ViewCsv::alignedUsage(*m_diff, *m_before, *m_beforeTimeline, *m_after, *m_afterTimeline);
}

bool CompareView::exportChart(const QString &path, const ExportOptions &options, QString *error)
{
    ExportOptions o = options;
    if (o.title.isNull())
        o.title = tr("Live bytes of %1 and %2, aligned").arg(m_beforeName, m_afterName);
    return ChartExport::write(
        m_plot, path, o, [this] { return curvesCsv(); }, {}, error);
}

void CompareView::fillPlot()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_spanBefore = m_spanAfter = nullptr;
    m_spanBeforeLabel = m_spanAfterLabel = nullptr;
    const SpaceTimeline *a =
        m_beforeTimeline->space(0) ? m_beforeTimeline->space(0) : m_beforeTimeline->primary();
    const SpaceTimeline *b =
        m_afterTimeline->space(0) ? m_afterTimeline->space(0) : m_afterTimeline->primary();
    // One key per aligned row: each side holds its last step's bytes through the rows only the
    // other side has (step-left lines; the last row is repeated so it is as wide as the others).
    const std::size_t n = m_diff->match.steps.rows.size();
    QVector<double> keys(static_cast<qsizetype>(n + 1));
    QVector<double> va(static_cast<qsizetype>(n + 1));
    QVector<double> vb(static_cast<qsizetype>(n + 1));
    const auto bytes = [](const SpaceTimeline *s, std::int64_t step) {
        return s && step >= 0 && static_cast<std::size_t>(step) < s->liveBytes.size()
                   ? static_cast<double>(s->liveBytes[static_cast<std::size_t>(step)])
                   : 0.0;
    };
    double top = 1;
    m_diff->match.steps.forEachHeld([&](std::size_t r, std::int64_t x, std::int64_t y) {
        const auto i = static_cast<qsizetype>(r);
        keys[i] = static_cast<double>(r);
        va[i] = bytes(a, x);
        vb[i] = bytes(b, y);
        top = std::max({top, va[i], vb[i]});
    });
    if (n > 0) { // the last row again, one step wide
        keys[static_cast<qsizetype>(n)] = static_cast<double>(n);
        va[static_cast<qsizetype>(n)] = va[static_cast<qsizetype>(n - 1)];
        vb[static_cast<qsizetype>(n)] = vb[static_cast<qsizetype>(n - 1)];
    }
    QCPGraph *before = m_plot->addGraph();
    before->setName(legendName(tr("before: %1").arg(shortName(m_beforeName))));
    before->setLineStyle(QCPGraph::lsStepLeft);
    before->setData(keys, va, true);
    // 1 px pens without antialiasing: wider ones go through Qt's path stroker, slow on long
    // programs (the steps are axis-aligned anyway).
    before->setPen(QPen(ChartPalette::kindColor(AllocationKind::Parameter), 1));
    before->setAntialiased(false);
    QCPGraph *after = m_plot->addGraph();
    after->setName(legendName(tr("after: %1").arg(shortName(m_afterName))));
    after->setLineStyle(QCPGraph::lsStepLeft);
    after->setData(keys, vb, true);
    after->setPen(QPen(ChartPalette::kindColor(AllocationKind::ThreadLocal), 1));
    after->setAntialiased(false);
    after->setAntialiasedFill(false);
    // The difference, shaded between the two curves: one colour where after is higher, another
    // where it is lower (each a curve through the higher or the lower side, filled down or
    // up to before's).
    QVector<double> higher(keys.size());
    QVector<double> lower(keys.size());
    bool grew = false;
    bool shrank = false;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        higher[i] = std::max(va[i], vb[i]);
        lower[i] = std::min(va[i], vb[i]);
        grew = grew || vb[i] > va[i];
        shrank = shrank || vb[i] < va[i];
    }
    const auto shade = [&](const QVector<double> &side, const QColor &colour, const QString &name,
                           bool present) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setData(keys, side, true);
        g->setPen(Qt::NoPen);
        QColor fill = colour;
        fill.setAlpha(70);
        g->setBrush(fill);
        g->setChannelFillGraph(before);
        g->setAntialiasedFill(false);
        if (!present)
            g->removeFromLegend();
    };
    shade(higher, ChartPalette::grew(), tr("after is higher"), grew);
    shade(lower, ChartPalette::shrank(), tr("after is lower"), shrank);

    // Both peaks, and where the curves part.
    m_peakMarks.clear();
    m_curveTop = higher;
    const auto marker = [this](double x, const QColor &color, const QString &text,
                               Qt::Alignment align) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        QPen pen(color, 1, Qt::DashLine);
        line->setPen(pen);
        auto *label = new QCPItemText(m_plot);
        // Placed in pixels after each replot (placePeakLabels): off the curves and each other.
        label->position->setType(QCPItemPosition::ptAbsolute);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        label->setPadding(QMargins(4, 1, 4, 1));
        label->setBrush(ChartPalette::background(palette()));
        label->setColor(color);
        label->setText(text);
        m_peakMarks.push_back({label, x, align & Qt::AlignRight ? -1 : 1});
    };
    const StepAlignment &steps = m_diff->match.steps;
    const auto rowOf = [](const std::vector<std::uint32_t> &rowOfStep, std::int64_t step) {
        return step >= 0 && static_cast<std::size_t>(step) < rowOfStep.size()
                   ? static_cast<double>(rowOfStep[static_cast<std::size_t>(step)])
                   : -1.0;
    };
    double peakA = rowOf(steps.rowOfA, m_diff->peakStepBefore);
    double peakB = rowOf(steps.rowOfB, m_diff->peakStepAfter);
    // Each label on the side of its line with more room; when both lines are on one side,
    // the labels go on either side of them.
    const double middle = static_cast<double>(n) / 2;
    Qt::Alignment sideA = peakA > middle ? Qt::AlignRight : Qt::AlignLeft;
    Qt::Alignment sideB = peakB > middle ? Qt::AlignRight : Qt::AlignLeft;
    if (sideA == sideB && peakA >= 0 && peakB >= 0) {
        sideA = peakA <= peakB ? Qt::AlignRight : Qt::AlignLeft;
        sideB = peakA <= peakB ? Qt::AlignLeft : Qt::AlignRight;
    }
    if (peakA >= 0 && peakA == peakB) {
        // One line for both: the labels would sit on either side of it, one off the chart.
        marker(peakA + 0.5, ChartPalette::foreground(palette()),
               tr("both peaks: before %1, after %2")
                   .arg(humanBytesText(m_diff->peakBefore), humanBytesText(m_diff->peakAfter)),
               peakA > middle ? Qt::AlignRight : Qt::AlignLeft);
        peakA = peakB = -1;
    }
    if (peakA >= 0)
        marker(peakA + 0.5, ChartPalette::kindColor(AllocationKind::Parameter),
               tr("before's peak %1").arg(humanBytesText(m_diff->peakBefore)), sideA);
    if (peakB >= 0)
        marker(peakB + 0.5, ChartPalette::kindColor(AllocationKind::ThreadLocal),
               tr("after's peak %1").arg(humanBytesText(m_diff->peakAfter)), sideB);
    m_plot->xAxis->setRange(0, std::max<double>(1, static_cast<double>(n)));
    // Room above the curves for the peaks' labels and the picked value's bands.
    m_plot->yAxis->setRange(0, top * 1.3);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool CompareView::placePeakLabels()
{
    if (m_peakMarks.empty())
        return false;
    const QRect rect = m_plot->axisRect()->rect();
    LabelLayout layout({static_cast<double>(rect.left()) + 1, static_cast<double>(rect.top()) + 1,
                        static_cast<double>(rect.width()) - 2,
                        static_cast<double>(rect.height()) - 2});
    // The curves' skyline, column by column.
    std::vector<double> sky(static_cast<std::size_t>(std::max(0, rect.width())),
                            static_cast<double>(rect.bottom() + 1));
    const auto rows = static_cast<qint64>(m_curveTop.size());
    for (std::size_t c = 0; c < sky.size() && rows > 0; ++c) {
        const double left = rect.left() + static_cast<double>(c);
        const auto first = std::clamp<qint64>(
            static_cast<qint64>(std::floor(m_plot->xAxis->pixelToCoord(left))), 0, rows - 1);
        const auto last = std::clamp<qint64>(
            static_cast<qint64>(std::floor(m_plot->xAxis->pixelToCoord(left + 1))), 0, rows - 1);
        double most = 0;
        for (qint64 r = first; r <= last; ++r)
            most = std::max(most, m_curveTop[static_cast<qsizetype>(r)]);
        if (most > 0)
            sky[c] = std::floor(m_plot->yAxis->coordToPixel(most)) - 1;
    }
    layout.setSkyline(std::move(sky));
    // The picked value's bands along the top, and their names.
    for (QCPAbstractItem *item : {static_cast<QCPAbstractItem *>(m_spanBefore),
                                  static_cast<QCPAbstractItem *>(m_spanAfter)}) {
        if (auto *band = qobject_cast<QCPItemRect *>(item); band && band->visible()) {
            const QRectF r =
                QRectF(band->topLeft->pixelPosition(), band->bottomRight->pixelPosition())
                    .normalized();
            layout.addObstacle({r.x(), r.y(), r.width(), r.height()});
        }
    }
    for (QCPItemText *label : {m_spanBeforeLabel, m_spanAfterLabel}) {
        if (label && label->visible()) {
            const QRectF r =
                QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                    .normalized();
            layout.addObstacle({r.x(), r.y(), r.width(), r.height()});
        }
    }
    bool moved = false;
    for (const PeakMark &mark : m_peakMarks) {
        const QFontMetrics metrics(mark.label->font());
        const QRect text = metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip, mark.label->text());
        const double w = text.width() + 8;
        const double h = text.height() + 2;
        const double x = m_plot->xAxis->coordToPixel(mark.x);
        std::vector<LabelLayout::Box> c;
        for (int k = 0; k < 16; ++k)
            for (const int side : {mark.side, -mark.side})
                c.push_back(LabelLayout::anchored(x + side * 3, rect.top() + 2 + k * (h + 2), w, h,
                                                  side, 1));
        int at = layout.place(c);
        if (at < 0)
            at = 0;
        const QPointF to(c[static_cast<std::size_t>(at)].x, c[static_cast<std::size_t>(at)].y);
        if (mark.label->position->coords() != to) {
            mark.label->position->setCoords(to);
            moved = true;
        }
    }
    return moved;
}

std::pair<double, double> CompareView::shownRange(bool after) const
{
    const QCPItemRect *span = after ? m_spanAfter : m_spanBefore;
    if (!span || !span->visible())
        return {-1, -1};
    return {span->topLeft->coords().x(), span->bottomRight->coords().x() - 1};
}

QString CompareView::shownLabel(bool after) const
{
    const QCPItemText *label = after ? m_spanAfterLabel : m_spanBeforeLabel;
    return label && label->visible() ? label->text() : QString();
}

void CompareView::showChange(const ValueChange &change)
{
    const StepAlignment &steps = m_diff->match.steps;
    const double rows = static_cast<double>(steps.rows.size());
    const auto span = [this, rows](QCPItemRect *&rect, QCPItemText *&label, const QString &side,
                                   const DiffSide &value,
                                   const std::vector<std::uint32_t> &rowOfStep, const QColor &color,
                                   double top, double bottom) {
        if (!rect) {
            rect = new QCPItemRect(m_plot);
            rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            label = new QCPItemText(m_plot);
            label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            label->setPadding(QMargins(4, 0, 4, 0));
            label->setClipToAxisRect(true);
        }
        const bool shown = value.value != kNone && value.start >= 0 &&
                           static_cast<std::size_t>(value.end) < rowOfStep.size() &&
                           static_cast<std::size_t>(value.start) < rowOfStep.size();
        rect->setVisible(shown);
        label->setVisible(shown);
        if (!shown)
            return;
        const double first = rowOfStep[static_cast<std::size_t>(value.start)];
        const double last = rowOfStep[static_cast<std::size_t>(value.end)];
        const double from = std::min(first, last);
        const double to = std::max(first, last) + 1;
        rect->topLeft->setCoords(from, top);
        rect->bottomRight->setCoords(to, bottom);
        QColor fill = color;
        fill.setAlpha(90);
        rect->setBrush(fill);
        rect->setPen(QPen(color, 1));
        // Named beside the band, on the side with more room.
        label->setText(tr("%1: %2 · %3 · steps %4–%5")
                           .arg(side, toQString(value.name), humanBytesText(value.bytes),
                                QString::number(value.start), QString::number(value.end)));
        label->setColor(color.darker(130));
        const bool before = from > rows - to;
        label->position->setCoords(before ? from : to, (top + bottom) / 2);
        label->setPositionAlignment((before ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    };
    // Before's range as a band along the top of the chart, after's just under it.
    span(m_spanBefore, m_spanBeforeLabel, tr("before"), change.before, steps.rowOfA,
         ChartPalette::kindColor(AllocationKind::Parameter), 0.0, 0.045);
    span(m_spanAfter, m_spanAfterLabel, tr("after"), change.after, steps.rowOfB,
         ChartPalette::kindColor(AllocationKind::ThreadLocal), 0.05, 0.095);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace bufferscope
