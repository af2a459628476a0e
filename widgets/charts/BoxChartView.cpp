#include "charts/BoxChartView.h"

#include "Workspace.h"
#include "drawing/BoxPlottable.h"
#include "drawing/ChartPalette.h"
#include "drawing/StepMarks.h"
#include "drawing/StepTicker.h"
#include "drawing/SwatchLegendItem.h"
#include "models/QtText.h"
#include "models/Selection.h"

#include <QToolTip>

#include <cmath>

namespace bufferscope {

namespace {
constexpr double kHighlightPixels = 7; ///< the least size of the selected and hovered box
constexpr std::size_t kGroupBoxesDrawnAlone = 2000;
} // namespace

BoxChartView::BoxChartView(Workspace *workspace, QWidget *parent) : ChartView(workspace, parent)
{
    setDeferHiddenReplots(true);
    QCustomPlot *p = plot();
    m_boxes = new BoxPlottable(p->xAxis, p->yAxis);
    m_boxes->removeFromLegend();
    m_stepTicker = StepTicker::install(p->xAxis).data();
    p->xAxis->setLabel(tr("program order (step)"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    p->axisRect()->setRangeZoom(Qt::Horizontal);

    // A picked group (a breakdown group, a finding): a veil fades every other box and the
    // group's boxes are drawn over it in their own colours, outlined, under the selected
    // value.
    m_veil = new QCPItemRect(p);
    m_veil->setLayer(highlightLayer());
    m_veil->setSelectable(false);
    for (QCPItemPosition *corner : {m_veil->topLeft, m_veil->bottomRight})
        corner->setType(QCPItemPosition::ptAxisRectRatio);
    m_veil->topLeft->setCoords(0, 0);
    m_veil->bottomRight->setCoords(1, 1);
    m_veil->setPen(Qt::NoPen);
    m_veil->setVisible(false);
    m_group = new BoxPlottable(p->xAxis, p->yAxis);
    m_group->removeFromLegend();
    m_group->setLayer(highlightLayer());

    // The selected value's producers and consumers, under it: a few pixels along the program
    // order at least, but no taller than their own row, so they never cover a neighbour.
    m_producers = new BoxPlottable(p->xAxis, p->yAxis);
    m_consumers = new BoxPlottable(p->xAxis, p->yAxis);
    for (BoxPlottable *b : {m_producers, m_consumers}) {
        b->removeFromLegend();
        b->setLayer(highlightLayer());
        b->setMinimumPixelSize(kHighlightPixels, 1);
    }
    // The selected and hovered value: never folded, and at least a few pixels on screen, so
    // they stay visible at any zoom.
    m_selected = new BoxPlottable(p->xAxis, p->yAxis);
    m_hovered = new BoxPlottable(p->xAxis, p->yAxis);
    for (BoxPlottable *b : {m_selected, m_hovered}) {
        b->removeFromLegend();
        b->setLayer(highlightLayer());
        b->setMinimumPixelSize(kHighlightPixels);
    }
    m_currentStep = new QCPItemStraightLine(p);
    m_currentStep->setLayer(highlightLayer());
    m_currentStep->setVisible(false);
    m_marks = std::make_unique<StepMarks>(p->xAxis, p->yAxis, highlightLayer());

    connect(p, &QCustomPlot::mouseWheel, this, [this](QWheelEvent *event) {
        // Wheel zooms the program order; Ctrl+wheel zooms the rows or bytes.
        plot()->axisRect()->setRangeZoom(
            (event->modifiers() & Qt::ControlModifier) ? Qt::Vertical : Qt::Horizontal);
    });
    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        if (event->buttons() != Qt::NoButton)
            return;
        const int box = m_boxes->boxAt(event->position());
        this->selection()->setHoveredValue(
            box < 0 ? -1 : static_cast<int>(m_boxes->boxes()[static_cast<std::size_t>(box)].value));
        const QString tip = toolTipAt(event->position());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), tip, plot());
    });
}

BoxChartView::~BoxChartView() = default;

std::vector<qint64> BoxChartView::markedUseSteps() const
{
    return m_marks->useSteps();
}

std::vector<qint64> BoxChartView::markedPositionSteps() const
{
    return m_marks->positionSteps();
}

void BoxChartView::addFlowLegend()
{
    m_marks->addToLegend();
    QCPLegend *legend = plot()->legend;
    legend->addItem(new SwatchLegendItem(legend, ChartPalette::producer(), tr("producer")));
    legend->addItem(new SwatchLegendItem(legend, ChartPalette::consumer(), tr("consumer")));
}

bool BoxChartView::clickAt(const QPointF &pixel)
{
    if (!dump())
        return false;
    const int box = m_boxes->boxAt(pixel);
    if (box >= 0) {
        selection()->setCurrentValue(
            static_cast<int>(m_boxes->boxes()[static_cast<std::size_t>(box)].value));
    }
    // The step under the click, so the tables and the usage chart follow the pointer.
    if (const qint64 step = stepAtPixel(pixel.x()); step >= 0)
        selection()->setCurrentStep(step);
    return box >= 0;
}

QString BoxChartView::toolTipAt(const QPointF &pixel) const
{
    if (!dump())
        return {};
    QString marks = richEscaped(m_marks->toolTipAt(pixel));
    if (!marks.isEmpty())
        marks = marks.replace(QLatin1Char('\n'), QStringLiteral("<br>")) + QStringLiteral("<hr>");
    const int box = m_boxes->boxAt(pixel);
    if (box >= 0)
        return marks + boxToolTip(m_boxes->boxes()[static_cast<std::size_t>(box)]);
    if (!marks.isEmpty())
        return marks;
    const qint64 step = stepAtPixel(pixel.x());
    const std::uint32_t ins = dump()->instructionAtStep(step);
    if (ins == kNone || !plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    return tr("step %1: %2").arg(step).arg(toQString(dump()->str(dump()->instructions[ins].name)));
}

QString BoxChartView::boxToolTip(const Box &box) const
{
    const Dump &d = *dump();
    const Value &v = d.values[box.value];
    const Instruction *ins = d.instructionOf(v);
    QString tip = QStringLiteral("<b>%1</b> (id %2)<br>")
                      .arg(richEscaped(d.valueDisplayName(v)), QString::number(v.id));
    tip += tr("size %1 (%2 bytes) · offset %3 (0x%4)<br>")
               .arg(humanBytesText(v.size))
               .arg(v.size)
               .arg(v.offset)
               .arg(QString::number(v.offset, 16));
    tip += tr("shape %1<br>").arg(richEscaped(d.shapeText(v)));
    if (const std::int32_t printed = d.printedColorOf(box.value); printed >= 0)
        tip += tr("an S(%1) value in an S(%2) allocation<br>").arg(printed).arg(v.color);
    if (v.hasLiveRange()) {
        const auto name = [&d](std::int64_t step) {
            const std::uint32_t i = d.instructionAtStep(step);
            return i == kNone ? QStringLiteral("end") : toQString(d.str(d.instructions[i].name));
        };
        tip += tr("live %1 (%2) – %3 (%4)<br>")
                   .arg(QString::number(v.start), richEscaped(name(v.start)),
                        QString::number(v.end), richEscaped(name(v.end)));
    }
    if (v.allocation != kNone) {
        const Allocation &a = d.allocations[v.allocation];
        tip += tr("allocation %1 (%2)<br>").arg(a.index).arg(toQString(allocationKindName(a.kind)));
    }
    if (ins && ins->opName != kNoString)
        tip += tr("op_name %1").arg(richEscaped(d.str(ins->opName)));
    return tip;
}

const Box *BoxChartView::boxOf(int value) const
{
    if (value < 0)
        return nullptr;
    const std::vector<int> found = m_boxes->boxesOfValue(static_cast<std::uint32_t>(value));
    return found.empty() ? nullptr : &m_boxes->boxes()[static_cast<std::size_t>(found.front())];
}

QRectF BoxChartView::highlightedPixelRect() const
{
    const Box *box = boxOf(highlightedValue());
    return box ? m_boxes->pixelRect(*box) : QRectF();
}

std::vector<Box> BoxChartView::boxesFor(int value, bool ownColours) const
{
    std::vector<Box> out;
    if (value < 0)
        return out;
    for (int b : m_boxes->boxesOfValue(static_cast<std::uint32_t>(value))) {
        Box box = m_boxes->boxes()[static_cast<std::size_t>(b)];
        if (!ownColours)
            box.colour = 0; // the one colour of a plottable that draws them all alike
        out.push_back(box);
    }
    return out;
}

const std::vector<Box> &BoxChartView::groupBoxes() const
{
    return m_group->boxes();
}

void BoxChartView::setBoxColours(const std::vector<QColor> &colours)
{
    m_boxes->setColours(colours);
    m_group->setColours(colours);
}

void BoxChartView::showGroup(const QVector<int> &values)
{
    std::vector<Box> boxes;
    for (int value : values) {
        // In their kinds' colours, as the legend says (every one was drawn in the first, the
        // parameter's blue).
        std::vector<Box> more = boxesFor(value, true);
        boxes.insert(boxes.end(), more.begin(), more.end());
    }
    m_groupShown = static_cast<int>(boxes.size());
    m_veil->setVisible(!values.isEmpty());
    // A few boxes each at least a few pixels along the program order, so a small one still
    // shows; thousands folded by pixel like the chart itself (each on its own would cost a
    // rectangle per value at every replot).
    m_group->setMinimumPixelSize(boxes.size() <= kGroupBoxesDrawnAlone ? kHighlightPixels : 0, 1);
    m_group->setBoxes(std::move(boxes));
}

void BoxChartView::showValue(int value)
{
    // The boxes may have been rebuilt (another order or allocation): redo the group's too.
    showGroup(selection()->highlightedGroup());
    const Box *box = boxOf(value);
    m_selected->setBoxes(boxesFor(value));
    setHighlighted(box ? value : -1);
    m_marks->clear();
    m_producerValues.clear();
    m_consumerValues.clear();
    std::vector<Box> producers;
    std::vector<Box> consumers;
    if (box) {
        // Positions in the box's middle, uses pointing down at it from above: an instruction that
        // both uses the value and is one of its positions shows both marks.
        const std::shared_ptr<const ValueFlow> flow = workspace()->flow(dumpPointer(), value);
        const double middle = (box->y0 + box->y1) / 2;
        m_marks->show(
            *dump(), *flow, [middle](qint64) { return middle; }, (box->y1 - box->y0) / 2);
        const auto tint = [this](const std::vector<std::uint32_t> &values,
                                 std::vector<std::uint32_t> &shown, std::vector<Box> &boxes) {
            for (std::uint32_t v : values) {
                std::vector<Box> more = boxesFor(static_cast<int>(v));
                if (more.empty())
                    continue;
                shown.push_back(v);
                boxes.insert(boxes.end(), more.begin(), more.end());
            }
        };
        tint(flow->producers, m_producerValues, producers);
        tint(flow->consumers, m_consumerValues, consumers);
    }
    m_producers->setBoxes(std::move(producers));
    m_consumers->setBoxes(std::move(consumers));
    if (!box)
        return;
    revealValue(value);
}

void BoxChartView::showHover(int value)
{
    m_hovered->setBoxes(value == highlightedValue() ? std::vector<Box>() : boxesFor(value));
}

void BoxChartView::showStep(qint64 step)
{
    placeStepLine(m_currentStep, step);
}

void BoxChartView::applyPalette()
{
    ChartView::applyPalette();
    const QPalette pal = palette();
    m_selected->setColours({ChartPalette::highlight()});
    m_selected->setOutlinePen(QPen(ChartPalette::foreground(pal), 1));
    QColor veil = ChartPalette::background(pal);
    veil.setAlpha(185);
    m_veil->setBrush(veil);
    m_group->setOutlinePen(QPen(ChartPalette::picked(), 1));
    m_hovered->setColours({Qt::transparent});
    m_producers->setColours({ChartPalette::producer()});
    m_consumers->setColours({ChartPalette::consumer()});
    for (BoxPlottable *b : {m_producers, m_consumers})
        b->setOutlinePen(QPen(ChartPalette::foreground(pal), 1));
    m_marks->applyPalette(pal);
    m_hovered->setOutlinePen(QPen(ChartPalette::hover(), 1.5));
    m_currentStep->setPen(QPen(ChartPalette::currentStep(pal), 1.2));
}

} // namespace bufferscope
