#include "charts/UsageChart.h"

#include "Workspace.h"
#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
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
    connect(workspace, &Workspace::budgetChanged, this, &UsageChart::showBudget);
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
    m_stepTicker = StepTicker::install(p->xAxis).data();
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
    // A lever picked in Categories: the curve it would leave, dashed, in the legend with it.
    m_leverGraph = p->addGraph();
    m_leverGraph->setLineStyle(QCPGraph::lsStepLeft);
    m_leverGraph->removeFromLegend();
    connect(workspace, &Workspace::leverShown, this, &UsageChart::showLever);
    for (QCPGraph *g : {m_live, m_logicalGraph, m_groupGraph, m_leverGraph}) {
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
    if (workspace->budget() > 0)
        showBudget(workspace->budget()); // the session's, set before this chart was made
}

UsageChart::~UsageChart() = default;

QString UsageChart::title() const
{
    if (!dump())
        return tr("Memory usage");
    return tr("Memory usage of %1 — memory space %2")
        .arg(toQString(dump()->module), QString::number(m_memorySpace));
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
    m_leverGraph->setPen(QPen(ChartPalette::peakMarker(), 1, Qt::DashLine));
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
                             ? tr("%1 · peak %2").arg(name, humanBytesText(s.peak.bytes))
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
    uncrowd();
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
    uncrowd();
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

void UsageChart::showLever(int lever, const std::vector<std::int64_t> &curve)
{
    m_leverGraph->data()->clear();
    const LoadedDump &shown = workspace()->current();
    const SpaceTimeline *primary = timeline() ? timeline()->primary() : nullptr;
    // The lever's curve is of the primary memory space, and of the dump on show.
    if (!curve.empty() && primary && primary->memorySpace == m_memorySpace && shown.byCategory &&
        shown.dump == dumpPointer() && lever >= 0 &&
        static_cast<std::size_t>(lever) < shown.byCategory->levers.size()) {
        const Lever &l = shown.byCategory->levers[static_cast<std::size_t>(lever)];
        QVector<QCPGraphData> points(static_cast<qsizetype>(curve.size() + 1));
        for (std::size_t t = 0; t < curve.size(); ++t)
            points[static_cast<qsizetype>(t)] = {static_cast<double>(t),
                                                 static_cast<double>(curve[t])};
        points.back() = {static_cast<double>(curve.size()), static_cast<double>(curve.back())};
        m_leverGraph->data()->set(points, true);
        m_leverGraph->setName(
            tr("with the %1 lever: peak %2")
                .arg(toQString(Lever::kindName(l.kind)), humanBytesText(l.newPeakBytes)));
    }
    refreshLegend();
    replotAll();
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
