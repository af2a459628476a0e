#include "UsageChart.h"

#include "BytesTicker.h"
#include "ChartPalette.h"
#include "DeviceSizeBox.h"
#include "StepMarks.h"
#include "StepTicker.h"
#include "Workspace.h"
#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
#include "layout/LabelLayout.h"
#include "model/MemorySpaces.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "report/ViewCsv.h"

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

UsageChart::UsageChart(Workspace *workspace, QWidget *parent)
    : ChartView(workspace, parent), m_space(new QComboBox(this)),
      m_budgetBox(new DeviceSizeBox(DeviceSizeBox::None::Offered, this)),
      m_logical(new QCheckBox(tr("Logical bytes"), this)),
      m_curveLane(workspace->jobs()->newLane("usage curves", JobRunner::Scope::Dump)),
      m_groupLane(workspace->jobs()->newLane("picked group's curve", JobRunner::Scope::Dump))
{
    auto *spaceLabel = new QLabel(tr("Memory &space:"), this);
    spaceLabel->setBuddy(m_space);
    // Long entries must not widen the dock (the popup shows them whole): 16 characters at
    // least, and as wide as its entries where the row has room (fillSpaces).
    m_space->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_space->setMinimumContentsLength(16);
    m_space->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_space->setToolTip(tr("Memory space (the @N colour of values and allocations)"));
    m_logical->setChecked(true);
    m_logical->setToolTip(tr("Also plot the logical bytes: the sum of the live values' shape "
                             "sizes, without the padding and alignment of their buffers"));
    toolRow()->addWidget(spaceLabel);
    toolRow()->addWidget(m_space, 1);
    toolRow()->addSpacing(12);
    toolRow()->addWidget(m_logical);
    toolRow()->addSpacing(12);
    auto *budgetLabel = new QLabel(tr("&Budget:"), this);
    budgetLabel->setBuddy(m_budgetBox);
    toolRow()->addWidget(budgetLabel);
    toolRow()->addWidget(m_budgetBox);
    toolRow()->addStretch(1);
    connect(m_budgetBox, &DeviceSizeBox::chosen, this, &UsageChart::setBudget);
    connect(m_space, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setMemorySpace(m_space->itemData(index).toInt());
    });
    connect(workspace, &Workspace::memorySpaceChanged, this, &UsageChart::followSpace);
    connect(m_logical, &QCheckBox::toggled, this, [this](bool on) {
        m_logicalGraph->setVisible(on);
        refreshLegend();
        fitBytes(); // the logical curve may stand above the live one
        replotAll();
    });

    QCustomPlot *p = plot();
    auto stepTicker = QSharedPointer<StepTicker>::create();
    m_stepTicker = stepTicker.data();
    m_stepTicker->setAxis(p->xAxis);
    p->xAxis->setTicker(stepTicker);
    p->yAxis->setTicker(QSharedPointer<BytesTicker>::create());
    p->xAxis->setLabel(tr("program order (step)"));
    p->yAxis->setLabel(tr("live bytes"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeDrag(Qt::Horizontal);
    p->axisRect()->setRangeZoom(Qt::Horizontal);

    m_live = p->addGraph();
    m_live->setName(tr("live bytes (assigned)"));
    m_live->setLineStyle(QCPGraph::lsStepLeft);
    m_logicalGraph = p->addGraph();
    m_logicalGraph->setName(tr("logical bytes (shapes)"));
    m_logicalGraph->setLineStyle(QCPGraph::lsStepLeft);
    // A picked group (a breakdown group, a finding): its own live bytes, filled over the
    // curve's, in the legend while there is one.
    m_groupGraph = p->addGraph();
    m_groupGraph->setName(tr("picked group"));
    m_groupGraph->setLineStyle(QCPGraph::lsStepLeft);
    m_groupGraph->removeFromLegend();
    for (QCPGraph *g : {m_live, m_logicalGraph, m_groupGraph}) {
        g->setAntialiased(false);
        g->setAntialiasedFill(false);
    }

    m_peak = new QCPItemTracer(p);
    m_peak->setStyle(QCPItemTracer::tsCircle);
    m_peak->setSize(9);
    m_printedPeak = new QCPItemStraightLine(p);
    m_budgetLine = new QCPItemStraightLine(p);
    m_budgetLine->setVisible(false);
    m_heldLine = new QCPItemStraightLine(p);
    m_heldLine->setVisible(false);
    m_peakLabel = new QCPItemText(p);
    m_printedPeakLabel = new QCPItemText(p);
    m_budgetLabel = new QCPItemText(p);
    m_heldLabel = new QCPItemText(p);
    // Where these labels stand is worked out in pixels after each replot (updateLabels), so
    // that none covers the curve, a marker or another label.
    for (QCPItemText *label : {m_peakLabel, m_printedPeakLabel, m_budgetLabel, m_heldLabel}) {
        label->position->setType(QCPItemPosition::ptAbsolute);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setVisible(false);
    }
    // The levels and XLA's peak in the legend too, so every line drawn is named.
    m_heldKey = p->addGraph();
    m_heldKey->setName(tr("held while it runs"));
    m_budgetKey = p->addGraph();
    m_budgetKey->setName(tr("budget"));
    m_printedKey = p->addGraph();
    m_printedKey->setName(tr("XLA's printed peak"));
    m_stepKey = p->addGraph();
    m_stepKey->setName(tr("current step"));
    for (QCPGraph *key : {m_heldKey, m_budgetKey, m_printedKey, m_stepKey}) {
        key->removeFromLegend();
        key->setSelectable(QCP::stNone);
    }

    // Selection-dependent items live on the buffered highlight layer.
    m_valueBand = new QCPItemRect(p);
    m_valueBand->setLayer(highlightLayer());
    m_valueBand->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_valueBand->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_valueLabel = new QCPItemText(p);
    m_valueLabel->setLayer(highlightLayer());
    m_valueLabel->position->setType(QCPItemPosition::ptAbsolute);
    m_valueLabel->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_currentStep = new QCPItemStraightLine(p);
    m_currentStep->setLayer(highlightLayer());
    m_cursor = new QCPItemStraightLine(p);
    m_cursor->setLayer(highlightLayer());
    m_cursorLabel = new QCPItemText(p);
    m_cursorLabel->setLayer(highlightLayer());
    m_cursorLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_cursorLabel->setPadding(QMargins(4, 2, 4, 2));
    m_cursorLabel->setTextAlignment(Qt::AlignLeft);
    for (QCPAbstractItem *item : std::initializer_list<QCPAbstractItem *>{
             m_valueBand, m_valueLabel, m_currentStep, m_cursor, m_cursorLabel, m_peak, m_peakLabel,
             m_printedPeak, m_printedPeakLabel})
        item->setVisible(false);
    // Every label above every line and mark, so none strikes through them; buffered, and
    // redrawn with the highlight layer (ChartView::replotHighlight), as the selected value's
    // and the cursor's labels move with the selection and the pointer.
    if (p->addLayer(QStringLiteral("labels"), highlightLayer(), QCustomPlot::limAbove)) {
        p->layer(QStringLiteral("labels"))->setMode(QCPLayer::lmBuffered);
        for (QCPItemText *label : {m_peakLabel, m_printedPeakLabel, m_heldLabel, m_budgetLabel,
                                   m_valueLabel, m_cursorLabel})
            label->setLayer(QStringLiteral("labels"));
    }

    m_marks = std::make_unique<StepMarks>(p->xAxis, p->yAxis, highlightLayer());
    refreshLegend();

    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        moveCursorTo(event->position().x(), event->position().y());
        replotHighlight();
        // Every label, line and legend key says what it is and why, under the pointer.
        const QString tip = toolTipAt(event->position());
        if (!tip.isEmpty())
            QToolTip::showText(event->globalPosition().toPoint(), tip, plot());
        else
            QToolTip::hideText();
    });
    connect(p->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange &range) {
                // Keep the view on the program: no panning into negative steps or past the end.
                if (!dump() || dump()->stepCount() == 0)
                    return;
                const double total = static_cast<double>(dump()->stepCount());
                QCPRange r = range;
                if (r.size() > total)
                    r = QCPRange(0, total);
                if (r.lower < 0)
                    r = QCPRange(0, r.size());
                if (r.upper > total)
                    r = QCPRange(total - r.size(), total);
                if (r != range)
                    plot()->xAxis->setRange(r);
            });
    applyPalette();
}

UsageChart::~UsageChart() = default;

QString UsageChart::title() const
{
    if (!dump())
        return tr("Memory usage");
    return tr("Memory usage of %1 — memory space %2")
        .arg(toQString(dump()->module))
        .arg(m_memorySpace);
}

void UsageChart::applyPalette()
{
    ChartView::applyPalette();
    const QPalette pal = palette();
    const QColor fg = ChartPalette::foreground(pal);
    QColor fill = ChartPalette::liveBytes();
    fill.setAlpha(45);
    // One-pixel pens and no antialiasing (the steps are axis-aligned anyway): Qt strokes
    // wider or fractional pens through its path stroker, which costs 40 ms more per replot on
    // a 100k-step curve.
    m_live->setPen(QPen(ChartPalette::liveBytes(), 1));
    m_live->setBrush(fill);
    m_logicalGraph->setPen(QPen(ChartPalette::logicalBytes(), 1, Qt::DashLine));
    QColor share = ChartPalette::picked();
    share.setAlpha(120);
    m_groupGraph->setPen(QPen(ChartPalette::picked(), 1));
    m_groupGraph->setBrush(share);
    m_peak->setPen(QPen(ChartPalette::peakMarker(), 2));
    m_peak->setBrush(Qt::NoBrush);
    m_peakLabel->setColor(ChartPalette::peakMarker());
    m_peakLabel->setFont(QFont(font().family(), font().pointSize(), QFont::Bold));
    m_printedPeak->setPen(QPen(ChartPalette::printedPeakMarker(), 1.5, Qt::DashDotLine));
    m_printedKey->setPen(m_printedPeak->pen());
    m_printedPeakLabel->setColor(ChartPalette::printedPeakMarker());
    m_heldLine->setPen(QPen(fg, 1, Qt::DotLine));
    m_heldKey->setPen(m_heldLine->pen());
    m_heldLabel->setColor(fg);
    m_budgetKey->setPen(QPen(fg, 1.5, Qt::DashLine));
    // Labels on the plot's background: no level line strikes through them.
    QColor ground = ChartPalette::background(palette());
    ground.setAlpha(235);
    for (QCPItemText *label :
         {m_peakLabel, m_printedPeakLabel, m_valueLabel, m_heldLabel, m_budgetLabel})
        label->setBrush(ground);
    QColor band = ChartPalette::highlight();
    band.setAlpha(50);
    m_valueBand->setBrush(band);
    m_valueBand->setPen(QPen(ChartPalette::highlight(), 1));
    m_valueLabel->setColor(ChartPalette::highlight());
    m_marks->applyPalette(palette());
    m_currentStep->setPen(QPen(ChartPalette::currentStep(pal), 1.2));
    m_stepKey->setPen(m_currentStep->pen());
    m_cursor->setPen(QPen(ChartPalette::grid(pal), 1, Qt::DashLine));
    m_cursorLabel->setColor(fg);
    m_cursorLabel->setBrush(ChartPalette::background(pal));
    m_cursorLabel->setPen(QPen(ChartPalette::grid(pal)));
}

void UsageChart::rebuild()
{
    m_analysisOf = nullptr; // another dump: its own analysis
    m_stepTicker->setDump(dump());
    fillSpaces();
    plotSpace();
    // Another dump: the last one's group share (its steps) must not be read against this one.
    showGroup(selection()->highlightedGroup());
}

void UsageChart::fillSpaces()
{
    const QSignalBlocker blocker(m_space);
    m_space->clear();
    if (!timeline())
        return;
    for (const SpaceTimeline &s : timeline()->spaces()) {
        const QString name = toQString(memorySpaceLabel(platformOf(*dump()), s.memorySpace));
        // Without live ranges there is no peak to name (not "peak 0B").
        m_space->addItem(dump()->hasLiveRanges()
                             ? tr("%1 · peak %2").arg(name).arg(humanBytesText(s.peak.bytes))
                             : name,
                         s.memorySpace);
    }
    m_memorySpace = workspace()->memorySpaceIn(*timeline());
    m_space->setCurrentIndex(std::max(0, m_space->findData(m_memorySpace)));
    m_space->setEnabled(m_space->count() > 1);
    int widest = 0;
    for (int i = 0; i < m_space->count(); ++i)
        widest = std::max(widest, m_space->fontMetrics().horizontalAdvance(m_space->itemText(i)));
    m_space->setMaximumWidth(std::max(m_space->minimumSizeHint().width(), widest + 48));
}

void UsageChart::setMemorySpace(int memorySpace)
{
    workspace()->setMemorySpace(memorySpace); // memorySpaceChanged: followSpace
    followSpace();
}

void UsageChart::followSpace()
{
    if (!dump() || !timeline())
        return;
    const int memorySpace = workspace()->memorySpaceIn(*timeline());
    if (memorySpace == m_memorySpace && m_live->dataCount() > 0)
        return;
    m_memorySpace = memorySpace;
    {
        const QSignalBlocker blocker(m_space);
        const int index = m_space->findData(memorySpace);
        if (index >= 0)
            m_space->setCurrentIndex(index);
    }
    plotSpace();
    showValue(selection()->currentValue());
    showStep(selection()->currentStep());
    showGroup(selection()->highlightedGroup());
    replotAll();
}

UsageChart::Curves UsageChart::curvesOf(const SpaceTimeline &space)
{
    Curves out;
    const std::size_t n = space.liveBytes.size();
    QVector<QCPGraphData> live(static_cast<qsizetype>(n + 1));
    QVector<QCPGraphData> logical(static_cast<qsizetype>(n + 1));
    for (std::size_t t = 0; t < n; ++t) {
        const auto key = static_cast<double>(t);
        live[static_cast<qsizetype>(t)] = {key, static_cast<double>(space.liveBytes[t])};
        logical[static_cast<qsizetype>(t)] = {key, static_cast<double>(space.logicalBytes[t])};
    }
    // Step-left lines hold each value until the next key: repeat the last one so the final
    // step is as wide as the others.
    if (n > 0) {
        live[static_cast<qsizetype>(n)] = {static_cast<double>(n),
                                           live[static_cast<qsizetype>(n - 1)].value};
        logical[static_cast<qsizetype>(n)] = {static_cast<double>(n),
                                              logical[static_cast<qsizetype>(n - 1)].value};
    }
    out.live = QSharedPointer<QCPGraphDataContainer>::create();
    out.live->set(live, true);
    out.logical = QSharedPointer<QCPGraphDataContainer>::create();
    out.logical->set(logical, true);
    return out;
}

double UsageChart::fittedTop() const
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (!space)
        return 1;
    // From what is drawn now, never from what was drawn before: the curves' tops, what the
    // device holds and the budget. Trying 80, then 24 GiB brings the axis back down.
    double top = dataTop();
    // A budget far above the data (24 GiB over a 219 MiB module) would flatten the curve: it
    // stays off the scale, said by its label at the top.
    if (m_budget > 0 && !budgetOffScale())
        top = std::max(top, static_cast<double>(m_budget));
    // Room above the highest of them for the labels' rows, in pixels of the plot as it is.
    const double height = plot()->axisRect()->height();
    const double row = QFontMetricsF(font()).height() + 6;
    const double room = height > 40 ? std::clamp(m_labelRows * row / height, 0.12, 0.55) : 0.18;
    return std::max(1.0, top / (1 - room));
}

double UsageChart::dataTop() const
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (!space)
        return 0;
    const double curves = static_cast<double>(
        std::max(space->peak.bytes, m_logical->isChecked() ? space->logicalPeak.bytes : 0));
    return std::max(curves, static_cast<double>(heldBytes()));
}

bool UsageChart::budgetOffScale() const
{
    return m_budget > 0 && static_cast<double>(m_budget) > kOffScale * dataTop();
}

void UsageChart::fitBytes()
{
    if (timeline() && timeline()->space(m_memorySpace))
        plot()->yAxis->setRange(0, fittedTop());
}

void UsageChart::plotSpace()
{
    m_live->data()->clear();
    m_logicalGraph->data()->clear();
    for (QCPAbstractItem *item : std::initializer_list<QCPAbstractItem *>{
             m_peak, m_peakLabel, m_printedPeak, m_printedPeakLabel})
        item->setVisible(false);
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (!dump() || !space || space->liveBytes.empty()) {
        plot()->xAxis->setRange(0, 1);
        plot()->yAxis->setRange(0, 1);
        return;
    }
    const auto n = static_cast<double>(space->liveBytes.size());
    plot()->xAxis->setRange(0, n);
    m_labelRows = kLabelRows;
    // A million steps take a hundred ms to copy into the graphs: on a job for big dumps, the
    // axes and the peak shown meanwhile.
    fitBytes();
    const auto adopt = [this](const Curves &curves) {
        m_live->setData(curves.live);
        m_logicalGraph->setData(curves.logical);
    };
    if (workspace()->buildsInBackground(*dump())) {
        m_live->data()->clear(); // not the old dump's curve under the new axes
        m_logicalGraph->data()->clear();
        const std::shared_ptr<const MemoryTimeline> keep = timelinePointer();
        workspace()->jobs()->run(
            m_curveLane, this, [keep, space](const JobControl &) { return curvesOf(*space); },
            [this, adopt, keep](const Curves &curves) {
                if (timelinePointer() != keep)
                    return; // another dump or memory space meanwhile
                adopt(curves);
                replotAll();
            });
    } else {
        adopt(curvesOf(*space));
    }

    if (space->peak.step >= 0) {
        m_peak->position->setCoords(static_cast<double>(space->peak.step) + 0.5,
                                    static_cast<double>(space->peak.bytes));
        const std::uint32_t ins = dump()->instructionAtStep(space->peak.step);
        const QString peak =
            tr("peak %1 · step %2").arg(humanBytesText(space->peak.bytes)).arg(space->peak.step);
        m_labelTexts[m_peakLabel] = {
            ins == kNone ? peak
                         : peak + QStringLiteral(" · ") +
                               toQString(dump()->str(dump()->instructions[ins].name)),
            peak};
        m_peakLabel->setText(m_labelTexts[m_peakLabel].front());
        m_peak->setVisible(true);
        m_peakLabel->setVisible(true);
    }
    // XLA prints one peak for the module's default memory space.
    const PrintedPeak &printed = dump()->printedPeak;
    const SpaceTimeline *primary = timeline()->primary();
    if (printed.present && printed.step >= 0 && primary && primary->memorySpace == m_memorySpace) {
        const double x = static_cast<double>(printed.step) + 0.5;
        m_printedPeak->point1->setCoords(x, 0);
        m_printedPeak->point2->setCoords(x, 1);
        m_labelTexts[m_printedPeakLabel] = {tr("XLA printed peak: step %1 (%2)")
                                                .arg(printed.step)
                                                .arg(humanBytesText(printed.bytes)),
                                            tr("XLA peak %1").arg(humanBytesText(printed.bytes))};
        m_printedPeakLabel->setText(m_labelTexts[m_printedPeakLabel].front());
        m_printedPeak->setVisible(true);
        m_printedPeakLabel->setVisible(true);
    }
    placeBudget();
}

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
    bytes = std::max<qint64>(0, bytes);
    const bool changed = bytes != m_budget;
    m_budget = bytes;
    m_labelRows = kLabelRows;
    m_budgetBox->setBytes(bytes);
    placeBudget();
    updateEmptyState();
    replotAll();
    if (changed)
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
    for (QCPGraph *g :
         {m_live, m_logicalGraph, m_heldKey, m_budgetKey, m_printedKey, m_stepKey, m_groupGraph})
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

bool UsageChart::updateLabels()
{
    // The plot's height may have changed since the axis was fitted (a resize, the legend
    // wrapping): the room kept above the data follows it.
    // Laid out at once with the new axis (the axis rect keeps its size): one replot follows,
    // not one for the axis and another for the labels.
    bool axisChanged = false;
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

ChartView::CsvWork UsageChart::csvWork() const
{
    return [dump = dumpPointer(), timeline = timelinePointer()] {
        return ViewCsv::usage(*dump, *timeline);
    };
}

void UsageChart::resetZoom()
{
    if (dump())
        plot()->xAxis->setRange(0, std::max<double>(1, static_cast<double>(dump()->stepCount())));
    replotAll();
}

void UsageChart::showValue(int value)
{
    m_valueBand->setVisible(false);
    m_valueLabel->setVisible(false);
    m_marks->clear();
    setHighlighted(-1);
    if (!dump() || value < 0 || static_cast<std::size_t>(value) >= dump()->values.size())
        return;
    const Value &v = dump()->values[static_cast<std::size_t>(value)];
    if (!v.hasLiveRange())
        return;
    if (v.color != m_memorySpace && timeline()->space(v.color))
        return setMemorySpace(v.color); // follow the selection into its memory space
    m_valueBand->topLeft->setCoords(static_cast<double>(v.start), 0);
    m_valueBand->bottomRight->setCoords(static_cast<double>(v.end + 1), 1);
    m_valueLabel->setText(QStringLiteral(" ") + toQString(dump()->valueDisplayName(v)) +
                          QStringLiteral(" · ") + humanBytesText(v.size) + QStringLiteral(" "));
    m_valueRange = {static_cast<double>(v.start), static_cast<double>(v.end + 1)};
    m_valueBand->setVisible(true);
    m_valueLabel->setVisible(true);
    // Selecting replots the highlight layer only (no afterReplot): place the label now (its
    // layer is replotted with the highlight), and replot the whole chart only in the rare case
    // the axis changed for more room above the data.
    if (updateLabels())
        replotAll();
    // Its uses and positions on the live-bytes curve.
    const SpaceTimeline *space = timeline()->space(m_memorySpace);
    m_marks->show(*dump(), *workspace()->flow(dumpPointer(), value), [space](qint64 step) {
        const auto s = static_cast<std::size_t>(step);
        return space && s < space->liveBytes.size() ? static_cast<double>(space->liveBytes[s])
                                                    : 0.0;
    });
    setHighlighted(value);
}

std::vector<qint64> UsageChart::markedUseSteps() const
{
    return m_marks->useSteps();
}

std::vector<qint64> UsageChart::markedPositionSteps() const
{
    return m_marks->positionSteps();
}

QPointF UsageChart::markPixel(qint64 step) const
{
    const std::vector<qint64> uses = m_marks->useSteps();
    const std::vector<qint64> positions = m_marks->positionSteps();
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (!space || step < 0 || static_cast<std::size_t>(step) >= space->liveBytes.size() ||
        (!std::binary_search(uses.begin(), uses.end(), step) &&
         !std::binary_search(positions.begin(), positions.end(), step)))
        return {};
    return {plot()->xAxis->coordToPixel(static_cast<double>(step) + 0.5),
            plot()->yAxis->coordToPixel(
                static_cast<double>(space->liveBytes[static_cast<std::size_t>(step)]))};
}

QPair<double, double> UsageChart::highlightedRange() const
{
    if (!m_valueBand->visible())
        return {0, 0};
    return {m_valueBand->topLeft->coords().x(), m_valueBand->bottomRight->coords().x()};
}

void UsageChart::showStep(qint64 step)
{
    placeStepLine(m_currentStep, step);
}

void UsageChart::showGroup(const QVector<int> &values)
{
    workspace()->jobs()->cancel(m_groupLane);
    m_groupBytes.clear();
    m_groupGraph->data()->clear();
    refreshLegend();
    if (values.isEmpty() || !dump())
        return;
    // The share by the curve's own rule (bytes shared in place once), on a job: a group may
    // hold most of a big dump's values.
    std::vector<std::uint32_t> members;
    members.reserve(static_cast<std::size_t>(values.size()));
    for (int v : values)
        if (v >= 0)
            members.push_back(static_cast<std::uint32_t>(v));
    const std::shared_ptr<const Dump> keep = dumpPointer();
    const int space = m_memorySpace;
    workspace()->jobs()->run(
        m_groupLane, this,
        [keep, space, members = std::move(members),
         threads = workspace()->threads()](const JobControl &control) mutable {
            return MemoryTimeline::liveBytesOf(*keep, std::move(members), space, control.flag(),
                                               threads)
                .value_or(std::vector<std::int64_t>());
        },
        [this, keep, space](std::vector<std::int64_t> bytes) {
            if (dumpPointer() != keep || space != m_memorySpace)
                return; // another dump or memory space meanwhile
            QVector<QCPGraphData> points(static_cast<qsizetype>(bytes.size() + 1));
            for (std::size_t t = 0; t < bytes.size(); ++t)
                points[static_cast<qsizetype>(t)] = {static_cast<double>(t),
                                                     static_cast<double>(bytes[t])};
            if (!bytes.empty()) // the last step as wide as the others (curvesOf)
                points.back() = {static_cast<double>(bytes.size()),
                                 static_cast<double>(bytes.back())};
            m_groupGraph->data()->set(points, true);
            refreshLegend();
            m_groupBytes = std::move(bytes);
            replotAll();
        });
}

QString UsageChart::stepSummary(qint64 step) const
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (!space || step < 0 || static_cast<std::size_t>(step) >= space->liveBytes.size())
        return {};
    const std::uint32_t ins = dump()->instructionAtStep(step);
    const QString name = ins == kNone ? tr("(end of program)")
                                      : toQString(dump()->str(dump()->instructions[ins].name));
    const auto i = static_cast<std::size_t>(step);
    QString text =
        tr("step %1 · %2\nlive %3 · logical %4")
            .arg(step)
            .arg(name, humanBytesText(space->liveBytes[i]), humanBytesText(space->logicalBytes[i]));
    if (i < m_groupBytes.size()) {
        const std::int64_t live = space->liveBytes[i];
        text += tr("\npicked group %1 (%2%)")
                    .arg(humanBytesText(m_groupBytes[i]))
                    .arg(live > 0 ? qRound(100.0 * static_cast<double>(m_groupBytes[i]) /
                                           static_cast<double>(live))
                                  : 0);
    }
    return text;
}

void UsageChart::moveCursorTo(double pixelX, double pixelY)
{
    const qint64 step = stepAtPixel(pixelX);
    QString text = stepSummary(step);
    if (const QString marks = m_marks->toolTipAt(QPointF(pixelX, pixelY));
        !text.isEmpty() && !marks.isEmpty())
        text += QLatin1Char('\n') + marks;
    const bool inside =
        !text.isEmpty() && plot()->axisRect()->rect().contains(
                               QPoint(static_cast<int>(pixelX), plot()->axisRect()->center().y()));
    m_cursor->setVisible(inside);
    m_cursorLabel->setVisible(inside);
    if (!inside)
        return;
    const double at = static_cast<double>(step) + 0.5;
    m_cursor->point1->setCoords(at, 0);
    m_cursor->point2->setCoords(at, 1);
    m_cursorLabel->setText(text);
    // Keep the label on the side with room.
    const bool left = pixelX > plot()->axisRect()->center().x();
    m_cursorLabel->position->setCoords(at, 0.1);
    m_cursorLabel->setPositionAlignment(Qt::AlignTop | (left ? Qt::AlignRight : Qt::AlignLeft));
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
    if (over(m_peakLabel))
        what = What::Peak;
    else if (over(m_printedPeakLabel))
        what = What::Printed;
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
        return tr("The device memory chosen in the Budget box, %1. The headroom is counted "
                  "against what the device holds while the module runs (%2), not against the "
                  "live peak. The runtime gets less than the maker states, and JAX preallocates "
                  "75 % of a GPU unless XLA_PYTHON_CLIENT_MEM_FRACTION says otherwise.")
            .arg(humanBytesText(m_budget), humanBytesText(heldBytes()));
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

void UsageChart::pointerLeft()
{
    ChartView::pointerLeft();
    if (!m_cursor->visible() && !m_cursorLabel->visible())
        return;
    m_cursor->setVisible(false);
    m_cursorLabel->setVisible(false);
    m_cursorLabel->layer()->replot();
}

QString UsageChart::cursorText() const
{
    return m_cursorLabel->visible() ? m_cursorLabel->text() : QString();
}

} // namespace bufferscope
