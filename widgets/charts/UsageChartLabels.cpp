// The usage chart's levels and their words: the budget and what the device holds, the legend,
// where every label goes (core/layout/LabelLayout) and the tooltips. The rest is UsageChart.cpp.
#include "Workspace.h"
#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
#include "charts/UsageChart.h"
#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "drawing/StepMarks.h"
#include "drawing/StepTicker.h"
#include "layout/LabelLayout.h"
#include "model/MemorySpaces.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "report/ViewCsv.h"
#include "windows/DeviceSizeBox.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QToolTip>
#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace bufferscope {

QString UsageChart::budgetPresetName(qint64 bytes)
{
    for (const DeviceFit::DeviceSize &size : DeviceFit::deviceSizes())
        if (size.bytes == bytes)
            return QStringLiteral("%1 · %2").arg(humanBytesText(bytes), toQString(size.devices));
    return humanBytesText(bytes);
}

QList<qint64> UsageChart::budgetPresets()
{
    QList<qint64> out;
    for (const DeviceFit::DeviceSize &size : DeviceFit::deviceSizes())
        out << size.bytes;
    return out;
}

void UsageChart::setBudget(qint64 bytes)
{
    workspace()->setBudget(bytes); // the session's; drawn when it says so (showBudget)
}

void UsageChart::showBudget(qint64 bytes)
{
    m_budget = bytes;
    m_labelRows = kLabelRows;
    m_budgetBox->setBytes(bytes);
    placeBudget();
    updateEmptyState();
    replotAll();
    Q_EMIT budgetChanged(bytes);
}

const MemoryAnalysis::Side &UsageChart::heldSide() const
{
    // One pass over the allocations per dump: the axis fit, the label layout after every
    // replot and the tooltips all ask.
    if (m_analysisOf != dump()) {
        m_analysisOf = dump();
        m_analysis = dump() ? MemoryAnalysis::of(*dump()) : MemoryAnalysis();
    }
    return m_memorySpace == MemoryAnalysis::kHostMemorySpace ? m_analysis.host : m_analysis.device;
}

qint64 UsageChart::heldBytes() const
{
    return dump() ? heldSide().held() : 0;
}

QString UsageChart::budgetText() const
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (m_budget <= 0 || !space)
        return {};
    // Against what the device holds while the module runs, not the live peak: the temp and
    // the outputs are allocated whole when it starts (MemoryAnalysis.h).
    const qint64 headroom = m_budget - heldBytes();
    return headroom >= 0 ? tr("budget %1 · headroom %2")
                               .arg(humanBytesText(m_budget), humanBytesText(headroom))
                         : tr("budget %1 · OVER by %2")
                               .arg(humanBytesText(m_budget), humanBytesText(-headroom));
}

void UsageChart::placeBudget()
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    // The level the device holds while the module runs, above the live curve; the gap is the
    // temp allocation's packing loss and the outputs held whole.
    const qint64 held = space ? heldBytes() : 0;
    const bool showHeld = held > 0;
    uncrowd(); // the labels' own state, set below, comes first
    m_heldLine->setVisible(showHeld);
    m_heldLabel->setVisible(showHeld);
    if (showHeld) {
        const double level = static_cast<double>(held);
        m_heldLine->point1->setCoords(0, level);
        m_heldLine->point2->setCoords(1, level);
        m_labelTexts[m_heldLabel] = {tr("held while it runs %1").arg(humanBytesText(held)),
                                     tr("held %1").arg(humanBytesText(held))};
        m_heldLabel->setText(m_labelTexts[m_heldLabel].front());
    }
    const bool show = m_budget > 0 && space;
    m_budgetLine->setVisible(show && !budgetOffScale());
    m_budgetLabel->setVisible(show);
    if (show) {
        const double y = static_cast<double>(m_budget);
        m_budgetLine->point1->setCoords(0, y);
        m_budgetLine->point2->setCoords(1, y);
        // In fewer words it keeps the verdict: the legend names the line.
        const qint64 headroom = m_budget - heldBytes();
        const QString verdict = headroom >= 0 ? tr("headroom %1").arg(humanBytesText(headroom))
                                              : tr("OVER by %1").arg(humanBytesText(-headroom));
        m_labelTexts[m_budgetLabel] =
            budgetOffScale() ? QStringList{tr("↑ budget %1, above the chart · %2")
                                               .arg(humanBytesText(m_budget), verdict),
                                           tr("↑ budget %1").arg(humanBytesText(m_budget))}
                             : QStringList{budgetText(), verdict};
        m_budgetLabel->setText(m_labelTexts[m_budgetLabel].front());
        // The budget in the foreground's colour, its label in the alert colour when the module
        // does not fit: never the peak's orange.
        const bool over = heldBytes() > m_budget;
        m_budgetLine->setPen(QPen(ChartPalette::foreground(palette()), 1.5, Qt::DashLine));
        m_budgetLabel->setColor(over ? ChartPalette::alert(palette())
                                     : ChartPalette::foreground(palette()));
    }
    refreshLegend();
    fitBytes();
}

void UsageChart::refreshLegend()
{
    // One order whatever came and went: the curves, the levels, XLA's peak, the picked group,
    // then the selected value's marks.
    for (QCPGraph *g : {m_live, m_logicalGraph, m_heldKey, m_budgetKey, m_printedKey, m_stepKey,
                        m_groupGraph, m_leverGraph})
        g->removeFromLegend();
    m_marks->removeFromLegend();
    m_live->addToLegend();
    if (m_logical->isChecked())
        m_logicalGraph->addToLegend();
    if (m_heldLine->visible())
        m_heldKey->addToLegend();
    if (m_budgetLine->visible())
        m_budgetKey->addToLegend();
    if (m_printedPeak->visible())
        m_printedKey->addToLegend();
    m_stepKey->addToLegend();
    if (!m_groupGraph->data()->isEmpty())
        m_groupGraph->addToLegend();
    if (!m_leverGraph->data()->isEmpty())
        m_leverGraph->addToLegend();
    m_marks->addToLegend();
}

namespace {
QRectF boxOf(const QCPItemText *label)
{
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
        .normalized();
}

/// The size a label's box takes as QCPItemText draws it: its text's bounds and its padding.
QSizeF sizeOf(const QCPItemText *label)
{
    const QFontMetrics metrics(label->font());
    const QRect text =
        metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip | label->textAlignment(), label->text());
    const QMargins pad = label->padding();
    return {static_cast<double>(text.width() + pad.left() + pad.right()),
            static_cast<double>(text.height() + pad.top() + pad.bottom())};
}

LabelLayout::Box toBox(const QRectF &r)
{
    return {r.x(), r.y(), r.width(), r.height()};
}
} // namespace

QList<QRectF> UsageChart::labelBoxes() const
{
    QList<QRectF> boxes;
    for (const QCPItemText *label :
         {m_peakLabel, m_printedPeakLabel, m_heldLabel, m_budgetLabel, m_valueLabel})
        if (label->visible())
            boxes << boxOf(label);
    return boxes;
}

const std::vector<double> &UsageChart::skyline() const
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    const QRect area = plot()->axisRect()->rect();
    // Worked out again only when what it depends on changed: a click on a value lays the
    // labels out again, and a million steps take a millisecond or two to scan.
    const std::array<double, 10> key = {
        plot()->xAxis->range().lower,       plot()->xAxis->range().upper,
        plot()->yAxis->range().upper,       static_cast<double>(area.left()),
        static_cast<double>(area.top()),    static_cast<double>(area.width()),
        static_cast<double>(area.height()), m_logical->isChecked() ? 1.0 : 0.0,
        static_cast<double>(m_memorySpace), static_cast<double>(reinterpret_cast<quintptr>(space))};
    if (key == m_skylineKey)
        return m_skyline;
    m_skylineKey = key;
    std::vector<double> &top = m_skyline;
    top.assign(static_cast<std::size_t>(std::max(0, area.width())),
               static_cast<double>(area.bottom() + 1));
    if (!space || space->liveBytes.empty())
        return top;
    const auto steps = static_cast<qint64>(space->liveBytes.size());
    const bool logical = m_logical->isChecked();
    QCPAxis *x = plot()->xAxis;
    QCPAxis *y = plot()->yAxis;
    for (std::size_t c = 0; c < top.size(); ++c) {
        const double left = area.left() + static_cast<double>(c);
        auto first = static_cast<qint64>(std::floor(x->pixelToCoord(left)));
        auto last = static_cast<qint64>(std::floor(x->pixelToCoord(left + 1)));
        first = std::clamp<qint64>(first, 0, steps - 1);
        last = std::clamp<qint64>(last, 0, steps - 1);
        if (x->pixelToCoord(left + 1) < 0 || x->pixelToCoord(left) > static_cast<double>(steps))
            continue;
        std::int64_t most = 0;
        for (qint64 t = first; t <= last; ++t) {
            const auto i = static_cast<std::size_t>(t);
            most = std::max(most, space->liveBytes[i]);
            if (logical)
                most = std::max(most, space->logicalBytes[i]);
        }
        if (most > 0)
            top[c] = std::floor(y->coordToPixel(static_cast<double>(most))) - 1;
    }
    return top;
}

void UsageChart::uncrowd()
{
    for (QCPItemText *label : std::as_const(m_crowded))
        label->setVisible(true);
    m_crowded.clear();
}

bool UsageChart::updateLabels()
{
    uncrowd(); // each layout tries every label again
    // The plot's height may have changed since the axis was fitted (a resize, the legend
    // wrapping): the room kept above the data follows it.
    // Laid out at once with the new axis (the axis rect keeps its size): one replot follows,
    // not one for the axis and another for the labels.
    bool axisChanged = false;
    // A byte label every 22 pixels or so: two on a short chart, where five overlapped.
    const int ticks = BytesTicker::ticksFor(plot()->axisRect()->height());
    if (plot()->yAxis->ticker()->tickCount() != ticks) {
        plot()->yAxis->ticker()->setTickCount(ticks);
        axisChanged = true;
    }
    if (dump() && timeline() && timeline()->space(m_memorySpace)) {
        const double want = fittedTop();
        if (std::abs(plot()->yAxis->range().upper - want) > 1e-6 * want) {
            plot()->yAxis->setRange(0, want);
            axisChanged = true;
        }
    }
    const QRect rect = plot()->axisRect()->rect();
    LabelLayout layout(toBox(QRectF(rect).adjusted(1, 1, -1, -1)));
    layout.setSkyline(skyline());
    if (m_peak->visible()) {
        const QPointF p = m_peak->position->pixelPosition();
        layout.addObstacle({p.x() - 7, p.y() - 7, 14, 14});
    }
    // The level lines: no label hides one (each level's own label stands just off its line).
    for (const auto &[line, bytes] :
         {std::pair{m_heldLine, heldBytes()}, std::pair{m_budgetLine, m_budget}})
        if (line->visible())
            layout.addObstacle({static_cast<double>(rect.left()),
                                plot()->yAxis->coordToPixel(static_cast<double>(bytes)) - 0.5,
                                static_cast<double>(rect.width()), 1});
    const double gap = 3;
    bool allPlaced = true;
    bool moved = false;
    using Candidates = std::function<std::vector<LabelLayout::Box>(QSizeF)>;
    // Each label in its words, else in fewer words (m_labelTexts), at the first free place.
    const auto put = [&](QCPItemText *label, const Candidates &candidatesFor) {
        if (!label->visible())
            return;
        const QStringList texts = m_labelTexts.value(label, {label->text()});
        std::vector<LabelLayout::Box> first;
        for (qsizetype t = 0; t < texts.size(); ++t) {
            if (label->text() != texts[t]) {
                label->setText(texts[t]);
                moved = true;
            }
            const std::vector<LabelLayout::Box> c = candidatesFor(sizeOf(label));
            if (t == 0)
                first = c;
            if (const int k = layout.place(c); k >= 0) {
                const QPointF at(c[static_cast<std::size_t>(k)].x,
                                 c[static_cast<std::size_t>(k)].y);
                if (label->position->coords() != at) {
                    label->position->setCoords(at);
                    moved = true;
                }
                return;
            }
        }
        // Nowhere free, and the chart keeps no more room above the data: hidden, never drawn
        // over another label (its line and legend key stay, with their tooltips).
        if (m_labelRows >= kMaxLabelRows) {
            if (label->text() != texts.front())
                label->setText(texts.front());
            label->setVisible(false);
            m_crowded.insert(label);
            moved = true;
            return;
        }
        // Nowhere free: in its words where it would go best; the next fit makes room
        // (m_labelRows).
        allPlaced = false;
        if (label->text() != texts.front())
            label->setText(texts.front());
        if (first.empty())
            return;
        layout.addObstacle(first.front());
        label->position->setCoords(first.front().x, first.front().y);
        moved = true;
    };
    // The peak's label beside its marker, towards the middle of the chart first, else above it.
    if (m_peakLabel->visible()) {
        const QPointF p = m_peak->position->pixelPosition();
        const int toward = p.x() > rect.center().x() ? -1 : 1;
        put(m_peakLabel, [&](QSizeF sz) {
            std::vector<LabelLayout::Box> c;
            for (const int side : {toward, -toward})
                c.push_back(LabelLayout::anchored(p.x() + side * 10, p.y(), sz.width(), sz.height(),
                                                  side, 0));
            for (int k = 0; k < 8; ++k)
                for (const int side : {toward, -toward, 0})
                    c.push_back(LabelLayout::anchored(p.x() + side * 4,
                                                      p.y() - 6 - k * (sz.height() + gap),
                                                      sz.width(), sz.height(), side, -1));
            return c;
        });
    }
    // A level's label on its line, above or below it, at either end or along it; then a row at
    // a time away from it, anywhere along the row.
    const auto level = [&](QCPItemText *label, double bytes) {
        const double line = plot()->yAxis->coordToPixel(bytes);
        const double left = rect.left() + 4;
        const double right = rect.right() - 4;
        put(label, [&](QSizeF sz) {
            std::vector<LabelLayout::Box> c;
            for (int k = 0; k < 8; ++k) {
                for (const int side : {-1, 1}) {
                    const double y = line + side * (1 + k * (sz.height() + gap));
                    c.push_back(LabelLayout::anchored(right, y, sz.width(), sz.height(), -1, side));
                    c.push_back(LabelLayout::anchored(left, y, sz.width(), sz.height(), 1, side));
                    for (int j = 1; j < 16; ++j)
                        c.push_back(LabelLayout::anchored(left + j * (right - left) / 16.0, y,
                                                          sz.width(), sz.height(), 0, side));
                }
            }
            return c;
        });
    };
    level(m_heldLabel, static_cast<double>(heldBytes()));
    // Off the scale, the budget's label hangs from the top of the plot.
    level(m_budgetLabel,
          budgetOffScale() ? plot()->yAxis->range().upper : static_cast<double>(m_budget));
    // XLA's printed peak at its line, from the top of the plot down to the data.
    if (m_printedPeakLabel->visible()) {
        const double x = m_printedPeak->point1->pixelPosition().x();
        const int toward = x > rect.center().x() ? -1 : 1;
        put(m_printedPeakLabel, [&](QSizeF sz) {
            std::vector<LabelLayout::Box> c;
            for (int k = 0; k < 12; ++k)
                for (const int side : {toward, -toward})
                    c.push_back(LabelLayout::anchored(x + side * 3,
                                                      rect.top() + 2 + k * (sz.height() + gap),
                                                      sz.width(), sz.height(), side, 1));
            return c;
        });
    }
    // The selected value's name at its band: from its start, else ending at its end, from the
    // top of the plot down; else along the row, nearest the band first.
    if (m_valueLabel->visible()) {
        const double start = plot()->xAxis->coordToPixel(m_valueRange.first);
        const double end = plot()->xAxis->coordToPixel(m_valueRange.second);
        put(m_valueLabel, [&](QSizeF sz) {
            std::vector<LabelLayout::Box> c;
            for (int k = 0; k < 12; ++k) {
                const double y = rect.top() + 2 + k * (sz.height() + gap);
                c.push_back(LabelLayout::anchored(start, y, sz.width(), sz.height(), 1, 1));
                c.push_back(LabelLayout::anchored(end, y, sz.width(), sz.height(), -1, 1));
                for (int j = 1; j <= 16; ++j)
                    for (const double at :
                         {start - j * rect.width() / 16.0, end + j * rect.width() / 16.0})
                        c.push_back(LabelLayout::anchored(at, y, sz.width(), sz.height(),
                                                          at < start ? -1 : 1, 1));
            }
            return c;
        });
    }
    // Not all found a free place: one more row of room above the data, up to a limit.
    if (!allPlaced && m_labelRows < kMaxLabelRows) {
        ++m_labelRows;
        fitBytes();
        return true;
    }
    // Labels that only moved need their own layer redrawn, not the whole chart (a full replot
    // of a 100k-step curve at every first paint and click).
    if (moved && !axisChanged)
        if (QCPLayer *labels = plot()->layer(QStringLiteral("labels")))
            labels->replot();
    return axisChanged;
}

QString UsageChart::emptyText() const
{
    QString text = ChartView::emptyText();
    if (text.isEmpty() || !dump())
        return text;
    // Without live ranges the allocations still say what the device holds while it runs.
    heldSide(); // the analysis of this dump
    const MemoryAnalysis::Side &d = m_analysis.device;
    if (d.held() <= 0)
        return text;
    text += QStringLiteral("\n\n") +
            tr("While it runs the device holds %1: argument %2 + output %3 − alias %4 + temp %5, "
               "from the allocations.")
                .arg(humanBytesText(d.held()), humanBytesText(d.argument), humanBytesText(d.output),
                     humanBytesText(d.alias), humanBytesText(d.temp));
    if (m_budget > 0) {
        const qint64 headroom = m_budget - d.held();
        text += QLatin1Char(' ') +
                (headroom >= 0 ? tr("Budget %1: headroom %2.")
                                     .arg(humanBytesText(m_budget), humanBytesText(headroom))
                               : tr("Budget %1: OVER by %2.")
                                     .arg(humanBytesText(m_budget), humanBytesText(-headroom)));
    }
    return text;
}

QString UsageChart::toolTipAt(const QPointF &pixel) const
{
    if (!dump() || !timeline())
        return {};
    const SpaceTimeline *space = timeline()->space(m_memorySpace);
    if (!space)
        return {};
    enum class What
    {
        None,
        Peak,
        Printed,
        Held,
        Budget,
        Step
    } what = What::None;
    const auto over = [&pixel](const QCPItemText *label) {
        return label->visible() && boxOf(label).contains(pixel);
    };
    const QRect area = plot()->axisRect()->rect();
    const auto nearLevel = [&](const QCPItemStraightLine *line, qint64 bytes) {
        return line->visible() && area.contains(pixel.toPoint()) &&
               std::abs(plot()->yAxis->coordToPixel(static_cast<double>(bytes)) - pixel.y()) <= 3;
    };
    // The printed peak's label ranks above the held and budget levels, its line below them.
    if (over(m_peakLabel))
        what = What::Peak;
    else if (over(m_printedPeakLabel))
        what = What::Printed; // NOLINT(bugprone-branch-clone)
    else if (over(m_heldLabel) || nearLevel(m_heldLine, heldBytes()))
        what = What::Held;
    else if (over(m_budgetLabel) || nearLevel(m_budgetLine, m_budget))
        what = What::Budget;
    else if (m_printedPeak->visible() && area.contains(pixel.toPoint()) &&
             std::abs(m_printedPeak->point1->pixelPosition().x() - pixel.x()) <= 3)
        what = What::Printed;
    else if (m_currentStep->visible() && area.contains(pixel.toPoint()) &&
             std::abs(m_currentStep->point1->pixelPosition().x() - pixel.x()) <= 2)
        what = What::Step;
    for (int i = 0; what == What::None && i < plot()->legend->itemCount(); ++i) {
        auto *item = qobject_cast<QCPPlottableLegendItem *>(plot()->legend->item(i));
        if (!item || !item->outerRect().contains(pixel.toPoint()))
            continue;
        if (item->plottable() == m_heldKey)
            what = What::Held;
        else if (item->plottable() == m_budgetKey)
            what = What::Budget;
        else if (item->plottable() == m_printedKey)
            what = What::Printed;
        else if (item->plottable() == m_live)
            what = What::Peak;
        else if (item->plottable() == m_stepKey)
            what = What::Step;
    }
    const QString livePeak =
        tr("%1 at step %2").arg(humanBytesText(space->peak.bytes)).arg(space->peak.step);
    const MemoryAnalysis::Side &side = heldSide();
    switch (what) {
    case What::None:
        return {};
    case What::Peak:
        return tr("The live peak: the most bytes assigned and live at one step, %1. Each value "
                  "counts its assigned bytes from its first step through its last, bytes shared "
                  "in place once. This is the curve XLA's heap simulator packs, and the figure "
                  "to trust for what the module uses.")
            .arg(livePeak);
    case What::Printed: {
        const PrintedPeak &printed = dump()->printedPeak;
        QString text =
            tr("XLA's own peak, printed in the dump: step %1, %2. XLA counts each value by its "
               "shape's bytes%3, not by the bytes assigned to it, so its peak can be lower and "
               "at another step. The live peak, %4, counts what the allocations hold: trust it "
               "for what fits.")
                .arg(printed.step)
                .arg(humanBytesText(printed.bytes))
                .arg(printed.format == PeakFormat::V1
                         ? tr(" (a tuple's element at its tuple's 8-byte index table)")
                         : QString())
                .arg(livePeak);
        const MemoryTimeline::Unseen unseen =
            MemoryTimeline::unseenByPrintedRule(*dump(), space->peak.step, m_memorySpace);
        if (unseen.bytes > 0) {
            QStringList names;
            for (std::size_t k = 0; k < unseen.values.size() && k < 3; ++k)
                names << toQString(dump()->valueDisplayName(dump()->values[unseen.values[k]]));
            if (unseen.values.size() > 3)
                names << tr("%n more", nullptr, static_cast<int>(unseen.values.size() - 3));
            text += tr(" At step %1 XLA's rule does not see %2: %3.")
                        .arg(space->peak.step)
                        .arg(humanBytesText(unseen.bytes), names.join(QStringLiteral(", ")));
        }
        return text;
    }
    case What::Held:
        return tr("While it runs the device holds %1, %2 more than the live peak of %3. %4 "
                  "Click the label for What Fills Memory.")
            .arg(humanBytesText(heldBytes()),
                 humanBytesText(std::max<qint64>(0, heldBytes() - space->peak.bytes)),
                 humanBytesText(space->peak.bytes), toQString(MemoryAnalysis::whyHeld(side)));
    case What::Step:
        return tr("The current step, %1: what every view shows (What Fills Memory, the "
                  "Instructions list, the Gantt and the memory map). Click the chart, or use "
                  "the arrow keys, to move it.")
            .arg(selection()->currentStep());
    case What::Budget:
        return tr("The limit chosen in the Budget box, %1. The headroom is counted against what "
                  "the device holds while the module runs (%2), not against the live peak. A "
                  "GPU of the list counts at the share XLA's allocator gets of it (%3 unless "
                  "XLA_CLIENT_MEM_FRACTION says otherwise), a TPU at its memory.")
            .arg(budgetPresetName(m_budget), humanBytesText(heldBytes()),
                 toQString(DeviceFit::percent(DeviceFit::kGpuMemFraction)));
    }
    return {};
}

void UsageChart::plotClicked(const QPointF &pixel)
{
    if (m_heldLabel->visible() && boxOf(m_heldLabel).contains(pixel)) {
        Q_EMIT heldExplanationRequested();
        return;
    }
    if (const qint64 step = stepAtPixel(pixel.x()); step >= 0)
        selection()->setCurrentStep(step);
}

} // namespace bufferscope
