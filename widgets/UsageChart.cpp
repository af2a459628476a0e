#include "UsageChart.h"

#include "BytesTicker.h"
#include "ChartPalette.h"
#include "StepMarks.h"
#include "StepTicker.h"
#include "Workspace.h"
#include "analysis/MemoryAnalysis.h"
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
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace bufferscope {

UsageChart::UsageChart(Workspace *workspace, QWidget *parent)
    : ChartView(workspace, parent), m_space(new QComboBox(this)), m_budgetBox(new QComboBox(this)),
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
    m_budgetBox->setToolTip(tr("The device's memory, drawn with the headroom left at the peak"));
    m_budgetBox->addItem(tr("none"), qint64(0));
    for (qint64 preset : budgetPresets())
        m_budgetBox->addItem(budgetPresetName(preset), preset);
    // Closed, the box shows the size and the start of the names; the list shows them whole.
    m_budgetBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_budgetBox->setMinimumContentsLength(10);
    m_budgetBox->view()->setMinimumWidth(m_budgetBox->view()->sizeHintForColumn(0) + 24);
    m_budgetBox->addItem(tr("Custom…"), qint64(-1));
    toolRow()->addWidget(budgetLabel);
    toolRow()->addWidget(m_budgetBox);
    toolRow()->addStretch(1);
    connect(m_budgetBox, &QComboBox::activated, this, [this](int index) {
        qint64 bytes = m_budgetBox->itemData(index).toLongLong();
        if (bytes < 0) {
            bool ok = false;
            const QString text = QInputDialog::getText(
                this, tr("Memory Budget"),
                tr("Device memory (e.g. 16GiB, 40 GiB, 81559MiB or a byte count):"),
                QLineEdit::Normal, m_budget > 0 ? humanBytesText(m_budget) : QString(), &ok);
            bytes = ok ? parseByteSize(text) : -1;
            if (bytes <= 0) {
                setBudget(m_budget); // back to what was shown
                return;
            }
        }
        setBudget(bytes);
    });
    connect(m_space, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setMemorySpace(m_space->itemData(index).toInt());
    });
    connect(workspace, &Workspace::memorySpaceChanged, this, &UsageChart::followSpace);
    connect(m_logical, &QCheckBox::toggled, this, [this](bool on) {
        m_logicalGraph->setVisible(on);
        m_logicalGraph->removeFromLegend();
        if (on)
            m_logicalGraph->addToLegend();
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
    m_peakLabel = new QCPItemText(p);
    m_peakLabel->position->setParentAnchor(m_peak->position);
    m_peakLabel->position->setCoords(-8, -8);
    m_peakLabel->setPositionAlignment(Qt::AlignBottom | Qt::AlignRight);
    m_printedPeak = new QCPItemStraightLine(p);
    m_printedPeakLabel = new QCPItemText(p);
    m_printedPeakLabel->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_printedPeakLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_printedPeakLabel->setPositionAlignment(Qt::AlignBottom | Qt::AlignRight);
    m_budgetLine = new QCPItemStraightLine(p);
    m_budgetLine->setVisible(false);
    m_budgetLabel = new QCPItemText(p);
    m_budgetLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_budgetLabel->setPositionAlignment(Qt::AlignBottom | Qt::AlignLeft);
    m_budgetLabel->setVisible(false);
    m_heldLine = new QCPItemStraightLine(p);
    m_heldLine->setVisible(false);
    m_heldLabel = new QCPItemText(p);
    m_heldLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_heldLabel->setPositionAlignment(Qt::AlignBottom | Qt::AlignRight);
    m_heldLabel->setVisible(false);

    // Selection-dependent items live on the buffered highlight layer.
    m_valueBand = new QCPItemRect(p);
    m_valueBand->setLayer(highlightLayer());
    m_valueBand->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_valueBand->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_valueLabel = new QCPItemText(p);
    m_valueLabel->setLayer(highlightLayer());
    m_valueLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
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
    m_marks->addToLegend();

    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        moveCursorTo(event->position().x(), event->position().y());
        replotHighlight();
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
    QColor share = ChartPalette::highlight();
    share.setAlpha(120);
    m_groupGraph->setPen(QPen(ChartPalette::highlight(), 1));
    m_groupGraph->setBrush(share);
    m_peak->setPen(QPen(ChartPalette::peakMarker(), 2));
    m_peak->setBrush(Qt::NoBrush);
    m_peakLabel->setColor(ChartPalette::peakMarker());
    m_peakLabel->setFont(QFont(font().family(), font().pointSize(), QFont::Bold));
    m_printedPeak->setPen(QPen(ChartPalette::printedPeakMarker(), 1.5, Qt::DashDotLine));
    m_printedPeakLabel->setColor(ChartPalette::printedPeakMarker());
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
    m_cursor->setPen(QPen(ChartPalette::grid(pal), 1, Qt::DashLine));
    m_cursorLabel->setColor(fg);
    m_cursorLabel->setBrush(ChartPalette::background(pal));
    m_cursorLabel->setPen(QPen(ChartPalette::grid(pal)));
}

void UsageChart::rebuild()
{
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
    for (const SpaceTimeline &s : timeline()->spaces())
        m_space->addItem(tr("%1 · peak %2")
                             .arg(toQString(memorySpaceLabel(platformOf(*dump()), s.memorySpace)))
                             .arg(humanBytesText(s.peak.bytes)),
                         s.memorySpace);
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

void UsageChart::fitBytes()
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (!space)
        return;
    // The peaks are the curves' tops.
    const auto top = static_cast<double>(
        std::max(space->peak.bytes, m_logical->isChecked() ? space->logicalPeak.bytes : 0));
    plot()->yAxis->setRange(0, std::max(1.0, top * 1.18));
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
        m_peakLabel->setText(
            tr("peak %1 · step %2%3")
                .arg(humanBytesText(space->peak.bytes))
                .arg(space->peak.step)
                .arg(ins == kNone ? QString()
                                  : QStringLiteral(" · ") +
                                        toQString(dump()->str(dump()->instructions[ins].name))));
        // Labels open towards the middle of the chart so they stay inside it.
        const bool rightHalf = static_cast<double>(space->peak.step) > n / 2.0;
        m_peakLabel->position->setCoords(rightHalf ? -10 : 10, 0);
        m_peakLabel->setPositionAlignment(Qt::AlignVCenter |
                                          (rightHalf ? Qt::AlignRight : Qt::AlignLeft));
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
        m_printedPeakLabel->position->setCoords(x, 0.97);
        m_printedPeakLabel->setText(tr(" XLA printed peak: step %1 (%2) ")
                                        .arg(printed.step)
                                        .arg(humanBytesText(printed.bytes)));
        const bool rightHalf = static_cast<double>(printed.step) > n / 2.0;
        m_printedPeakLabel->setPositionAlignment(Qt::AlignBottom |
                                                 (rightHalf ? Qt::AlignRight : Qt::AlignLeft));
        m_printedPeak->setVisible(true);
        m_printedPeakLabel->setVisible(true);
    }
    placeBudget();
}

QString UsageChart::budgetPresetName(qint64 bytes)
{
    constexpr qint64 GiB = qint64(1) << 30;
    // The memory their makers state; the runtime gets a little less (see the README).
    const struct
    {
        qint64 bytes;
        const char *devices;
    } names[] = {{16 * GiB, "V100 16GB, TPU v5e, TPU v3 core"},
                 {24 * GiB, "L4, RTX 4090, A10"},
                 {32 * GiB, "V100 32GB, TPU v4, TPU v6e"},
                 {40 * GiB, "A100 40GB"},
                 {48 * GiB, "L40S, RTX A6000"},
                 {80 * GiB, "A100 80GB, H100 80GB"},
                 {96 * GiB, "H100 NVL"},
                 {141 * GiB, "H200"}};
    for (const auto &n : names)
        if (n.bytes == bytes)
            return QStringLiteral("%1 · %2").arg(humanBytesText(bytes), QLatin1String(n.devices));
    return humanBytesText(bytes);
}

QList<qint64> UsageChart::budgetPresets()
{
    constexpr qint64 GiB = qint64(1) << 30;
    return {16 * GiB, 24 * GiB, 32 * GiB, 40 * GiB, 48 * GiB, 80 * GiB, 96 * GiB, 141 * GiB};
}

void UsageChart::setBudget(qint64 bytes)
{
    bytes = std::max<qint64>(0, bytes);
    const bool changed = bytes != m_budget;
    m_budget = bytes;
    {
        const QSignalBlocker blocker(m_budgetBox);
        int index = m_budgetBox->findData(bytes);
        if (index < 0) {
            // A custom size gets its own entry, just before "Custom…".
            index = m_budgetBox->count() - 1;
            m_budgetBox->insertItem(index, humanBytesText(bytes), bytes);
        }
        m_budgetBox->setCurrentIndex(index);
    }
    placeBudget();
    replotAll();
    if (changed)
        Q_EMIT budgetChanged(bytes);
}

qint64 UsageChart::heldBytes() const
{
    if (!dump())
        return 0;
    const MemoryAnalysis m = MemoryAnalysis::of(*dump());
    return m_memorySpace == MemoryAnalysis::kHostMemorySpace ? m.host.held() : m.device.held();
}

QString UsageChart::budgetText() const
{
    const SpaceTimeline *space = timeline() ? timeline()->space(m_memorySpace) : nullptr;
    if (m_budget <= 0 || !space)
        return {};
    // Against what the device holds while the module runs, not the live peak: the temp and
    // the outputs are allocated whole when it starts (MemoryAnalysis.h).
    const qint64 headroom = m_budget - heldBytes();
    return headroom >= 0 ? tr("budget %1 · headroom %2 while it runs")
                               .arg(humanBytesText(m_budget), humanBytesText(headroom))
                         : tr("budget %1 · OVER by %2 while it runs")
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
        m_heldLine->setPen(QPen(ChartPalette::foreground(palette()), 1, Qt::DotLine));
        m_heldLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
        m_heldLabel->position->setCoords(0.99, level);
        m_heldLabel->setColor(ChartPalette::foreground(palette()));
        m_heldLabel->setText(
            held > space->peak.bytes
                ? tr("held while it runs %1 (%2 above the live peak: packing loss, outputs whole)")
                      .arg(humanBytesText(held), humanBytesText(held - space->peak.bytes))
                : tr("held while it runs %1").arg(humanBytesText(held)));
        const double top = std::max(plot()->yAxis->range().upper, level * 1.3);
        plot()->yAxis->setRange(0, top);
    }
    const bool show = m_budget > 0 && space;
    m_budgetLine->setVisible(show);
    m_budgetLabel->setVisible(show);
    if (!show)
        return;
    const double y = static_cast<double>(m_budget);
    m_budgetLine->point1->setCoords(0, y);
    m_budgetLine->point2->setCoords(1, y);
    m_budgetLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_budgetLabel->position->setCoords(0.01, y);
    m_budgetLabel->setText(budgetText());
    const bool over = heldBytes() > m_budget;
    const QColor colour = over ? ChartPalette::highlight() : ChartPalette::foreground(palette());
    m_budgetLine->setPen(QPen(colour, 1.5, Qt::DashLine));
    m_budgetLabel->setColor(colour);
    // Two levels, two labels: the upper one's above its line, the lower one's below its own,
    // so they never print over each other; each on the plot's background, so no line strikes
    // through it.
    const bool heldAbove = !showHeld || heldBytes() >= m_budget;
    m_heldLabel->setPositionAlignment((heldAbove ? Qt::AlignBottom : Qt::AlignTop) |
                                      Qt::AlignRight);
    m_budgetLabel->setPositionAlignment((heldAbove && showHeld ? Qt::AlignTop : Qt::AlignBottom) |
                                        Qt::AlignLeft);
    for (QCPItemText *label : {m_heldLabel, m_budgetLabel})
        label->setPadding(QMargins(2, 0, 2, 0));
    // Keep both the curve and the budget in view.
    const double top = std::max(plot()->yAxis->range().upper, y * 1.08);
    plot()->yAxis->setRange(0, top);
}

namespace {
QRectF boxOf(const QCPItemText *label)
{
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
        .normalized();
}

/// Where `label` would stand anchored at `anchor` with `alignment` (widget pixels).
QRectF boxAt(const QCPItemText *label, QPointF anchor, Qt::Alignment alignment)
{
    const QFontMetricsF metrics(label->font());
    const QMargins pad = label->padding();
    const double w = metrics.horizontalAdvance(label->text()) + pad.left() + pad.right();
    const double h = metrics.height() + pad.top() + pad.bottom();
    const double left = alignment & Qt::AlignRight     ? anchor.x() - w
                        : alignment & Qt::AlignHCenter ? anchor.x() - w / 2
                                                       : anchor.x();
    const double top = alignment & Qt::AlignBottom    ? anchor.y() - h
                       : alignment & Qt::AlignVCenter ? anchor.y() - h / 2
                                                      : anchor.y();
    return QRectF(left, top, w, h);
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

bool UsageChart::placeLevelLabels()
{
    bool moved = false;
    const QRectF area = plot()->axisRect()->rect();
    // The peak's label opens towards the side with room; never out of the plot.
    if (m_peakLabel->visible()) {
        const QRectF box = boxOf(m_peakLabel);
        const bool right = m_peakLabel->positionAlignment() & Qt::AlignRight;
        if ((right && box.left() < area.left()) || (!right && box.right() > area.right())) {
            const QPointF at = m_peak->position->pixelPosition();
            const bool flip = right ? at.x() + 10 + box.width() <= area.right()
                                    : at.x() - 10 - box.width() >= area.left();
            if (flip) {
                m_peakLabel->position->setCoords(right ? 10 : -10,
                                                 m_peakLabel->position->coords().y());
                m_peakLabel->setPositionAlignment(Qt::AlignVCenter |
                                                  (right ? Qt::AlignLeft : Qt::AlignRight));
                moved = true;
            }
        }
        // A peak near the floor or the ceiling of the plot (a budget far above the curve): the
        // label moves up or down into the plot, off its marker's centre line.
        const double below = box.bottom() - area.bottom();
        const double above = area.top() - box.top();
        const double shift = below > 0 ? -below - 2 : above > 0 ? above + 2 : 0;
        if (shift != 0) {
            m_peakLabel->position->setCoords(m_peakLabel->position->coords().x(),
                                             m_peakLabel->position->coords().y() + shift);
            moved = true;
        }
    }
    // XLA's printed peak sits at the foot of its line; where the peak's label is there too (a
    // peak on the floor), it goes to the top of its line instead.
    if (m_printedPeakLabel->visible() && m_peakLabel->visible() &&
        boxOf(m_printedPeakLabel).intersects(boxOf(m_peakLabel)) &&
        m_printedPeakLabel->position->coords().y() > 0.5) {
        m_printedPeakLabel->position->setCoords(m_printedPeakLabel->position->coords().x(), 0.03);
        m_printedPeakLabel->setPositionAlignment(
            Qt::AlignTop | (m_printedPeakLabel->positionAlignment() & Qt::AlignHorizontal_Mask));
        moved = true;
    }
    // The held and budget levels: each label above or below its line, at the right or the
    // left end, the first place the peak's and XLA's labels (and each other) leave free.
    QList<QRectF> taken;
    if (m_peakLabel->visible())
        taken << boxOf(m_peakLabel);
    if (m_printedPeakLabel->visible())
        taken << boxOf(m_printedPeakLabel);
    if (m_peak->visible()) {
        const QPointF p = m_peak->position->pixelPosition();
        taken << QRectF(p.x() - 6, p.y() - 6, 12, 12);
    }
    const auto place = [&](QCPItemText *label, double level, Qt::Alignment preferredSide,
                           bool preferRight) {
        if (!label->visible())
            return;
        const double line = plot()->yAxis->coordToPixel(level);
        const Qt::Alignment other =
            preferredSide == Qt::AlignBottom ? Qt::AlignTop : Qt::AlignBottom;
        const double rightX = area.left() + 0.99 * area.width();
        const double leftX = area.left() + 0.01 * area.width();
        struct Spot
        {
            Qt::Alignment alignment;
            double ratio;
            double x;
        };
        const Spot right{Qt::AlignRight, 0.99, rightX};
        const Spot left{Qt::AlignLeft, 0.01, leftX};
        const Spot order[] = {preferRight ? right : left, preferRight ? left : right};
        const auto tryAt = [&](double y, Qt::Alignment side, const Spot &spot) {
            const Qt::Alignment alignment = side | spot.alignment;
            const QRectF box = boxAt(label, QPointF(spot.x, y), alignment);
            bool free = area.contains(box);
            for (const QRectF &t : taken)
                free = free && !box.intersects(t);
            if (!free)
                return false;
            const double coord = plot()->yAxis->pixelToCoord(y);
            if (label->positionAlignment() != alignment ||
                label->position->coords().x() != spot.ratio ||
                std::abs(plot()->yAxis->coordToPixel(label->position->coords().y()) - y) > 0.5) {
                label->setPositionAlignment(alignment);
                label->position->setCoords(spot.ratio, coord);
                moved = true;
            }
            taken << box;
            return true;
        };
        // On its line: above or below it, at either end.
        for (const Qt::Alignment side : {preferredSide, other})
            for (const Spot &spot : order)
                if (tryAt(line, side, spot))
                    return;
        // Levels a few pixels apart (a budget just above what the device holds, just above
        // the peak): the label steps away from its line, a label's height at a time, rather
        // than print over another.
        const double step = boxOf(label).height() + 2;
        for (int k = 1; k <= 6; ++k)
            for (const Qt::Alignment side : {preferredSide, other})
                for (const Spot &spot : order)
                    if (tryAt(side == Qt::AlignBottom ? line - k * step : line + k * step, side,
                              spot))
                        return;
        taken << boxOf(label); // nowhere free: where it is
    };
    // The upper level's label above its line, the lower one's below (placeBudget).
    const bool heldAbove = !m_budgetLabel->visible() || heldBytes() >= m_budget;
    place(m_heldLabel, static_cast<double>(heldBytes()), heldAbove ? Qt::AlignBottom : Qt::AlignTop,
          true);
    place(m_budgetLabel, static_cast<double>(m_budget),
          heldAbove && m_heldLabel->visible() ? Qt::AlignTop : Qt::AlignBottom, false);
    return moved;
}

bool UsageChart::updateLabels()
{
    const bool levels = placeLevelLabels();
    // The selected value's name starts at its band; a band too near the right edge for the
    // name to fit gets it ending at the band's end instead, so it is never cut off. It sits at
    // the top of the chart, else at the bottom, else halfway: the first place no other label
    // (the peak, XLA's peak, the budget) covers.
    if (!m_valueLabel->visible())
        return levels;
    const QCPAxisRect *rect = plot()->axisRect();
    const QFontMetricsF metrics(m_valueLabel->font());
    const double width = metrics.horizontalAdvance(m_valueLabel->text());
    const double start = plot()->xAxis->coordToPixel(m_valueRange.first);
    const double end = plot()->xAxis->coordToPixel(m_valueRange.second);
    const bool right = start + width > rect->right() && end - width >= rect->left();
    const double left = right ? end - width : start;
    const auto covered = [&](const QRectF &place) {
        for (const QCPItemText *other :
             {m_peakLabel, m_printedPeakLabel, m_budgetLabel, m_heldLabel}) {
            if (other->visible() && place.intersects(QRectF(other->topLeft->pixelPosition(),
                                                            other->bottomRight->pixelPosition())
                                                         .normalized()))
                return true;
        }
        return false;
    };
    const double height = metrics.height();
    const double top = rect->top() + 0.01 * rect->height();
    const double bottom = rect->top() + 0.99 * rect->height();
    ValueLabelRow row = ValueLabelRow::Top;
    if (covered(QRectF(left, top, width, height))) {
        row = covered(QRectF(left, bottom - height, width, height)) ? ValueLabelRow::Middle
                                                                    : ValueLabelRow::Bottom;
    }
    if (right == m_valueLabelRight && row == m_valueLabelRow)
        return levels;
    m_valueLabelRight = right;
    m_valueLabelRow = row;
    const Qt::Alignment vertical = row == ValueLabelRow::Top      ? Qt::AlignTop
                                   : row == ValueLabelRow::Bottom ? Qt::AlignBottom
                                                                  : Qt::AlignVCenter;
    m_valueLabel->setPositionAlignment(vertical | (right ? Qt::AlignRight : Qt::AlignLeft));
    m_valueLabel->position->setCoords(right ? m_valueRange.second : m_valueRange.first,
                                      row == ValueLabelRow::Top      ? 0.01
                                      : row == ValueLabelRow::Bottom ? 0.99
                                                                     : 0.5);
    return true;
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
    m_valueLabelRight = false;
    m_valueLabelRow = ValueLabelRow::Top;
    m_valueLabel->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_valueLabel->position->setCoords(m_valueRange.first, 0.01);
    m_valueBand->setVisible(true);
    m_valueLabel->setVisible(true);
    // Selecting replots the highlight layer only (no afterReplot): place the label now.
    updateLabels();
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
    m_groupGraph->removeFromLegend();
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
            m_groupGraph->addToLegend();
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

void UsageChart::plotClicked(const QPointF &pixel)
{
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
