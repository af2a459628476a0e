#include "charts/BreakdownChart.h"

#include "Workspace.h"
#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "report/ViewCsv.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <qcustomplot.h>

#include <algorithm>

namespace bufferscope {

namespace {
constexpr int kRowPixels = 22; ///< each bar gets at least this height; fewer bars when short
} // namespace

BreakdownChart::BreakdownChart(Workspace *workspace, QWidget *parent)
    : ChartView(workspace, parent), m_grouping(new QComboBox(this)), m_summary(new QLabel(this))
{
    auto *label = new QLabel(tr("&Group by:"), this);
    label->setBuddy(m_grouping);
    m_grouping->addItem(tr("op_name"), static_cast<int>(Grouping::OpName));
    m_grouping->addItem(tr("source line"), static_cast<int>(Grouping::Source));
    m_grouping->addItem(tr("op_type"), static_cast<int>(Grouping::OpType));
    m_grouping->addItem(tr("allocation kind"), static_cast<int>(Grouping::Kind));
    m_grouping->addItem(tr("shape and dtype"), static_cast<int>(Grouping::Shape));
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setTextFormat(Qt::PlainText); // it names an instruction of the dump
    toolRow()->addWidget(label);
    toolRow()->addWidget(m_grouping);
    toolRow()->addSpacing(12);
    toolRow()->addWidget(m_summary, 1);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this](int index) {
        setGrouping(static_cast<Grouping>(m_grouping->itemData(index).toInt()));
    });

    QCustomPlot *p = plot();
    m_bars = new QCPBars(p->yAxis, p->xAxis);
    m_bars->setWidth(0.7);
    m_bars->setName(tr("live bytes"));
    m_highlight = new QCPBars(p->yAxis, p->xAxis);
    m_highlight->setWidth(0.7);
    m_highlight->setLayer(highlightLayer());
    m_highlight->setName(tr("group of the selected value"));
    auto bytesTicker = QSharedPointer<BytesTicker>::create();
    bytesTicker->setTickCount(3); // byte labels are wide; the dock is often narrow (updateLabels)
    p->xAxis->setTicker(bytesTicker);
    p->xAxis->setLabel(tr("live bytes at the step (shared in place: once)"));
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    p->yAxis->setRangeReversed(true);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setSubTicks(false);
    p->yAxis->setTickLength(0, 2);
    connect(workspace, &Workspace::breakdownReady, this, [this] {
        if (m_waiting && m_onScreen)
            follow(selection()->currentStep());
    });
    // Another memory space on show: what is live in it at the same step.
    connect(workspace, &Workspace::memorySpaceChanged, this, [this] {
        if (!dump())
            return;
        if (!m_onScreen) {
            m_stale = true;
            return;
        }
        follow(selection()->currentStep());
    });
    applyPalette();
}

const Breakdown &BreakdownChart::breakdown() const
{
    static const Breakdown none;
    return m_shown ? m_shown->breakdown : none;
}

void BreakdownChart::plotClicked(const QPointF &pixel)
{
    // A click on a bar selects the largest value of its group.
    const int row = qRound(plot()->yAxis->pixelToCoord(pixel.y()));
    const double x = plot()->xAxis->pixelToCoord(pixel.x());
    if (row < 0 || row >= static_cast<int>(m_rows.size()) || x < 0 ||
        x > static_cast<double>(m_rows[static_cast<std::size_t>(row)].bytes))
        return;
    const BreakdownRow &r = m_rows[static_cast<std::size_t>(row)];
    if (!r.members.empty())
        selection()->setCurrentValue(static_cast<int>(r.members.front()));
}

QString BreakdownChart::title() const
{
    if (!dump())
        return tr("Breakdown");
    return tr("What is live at step %1 of %2, by %3")
        .arg(breakdown().step)
        .arg(toQString(dump()->module), m_grouping->currentText());
}

void BreakdownChart::applyPalette()
{
    ChartView::applyPalette();
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(ChartPalette::liveBytes());
    m_highlight->setPen(QPen(ChartPalette::foreground(palette()), 1.5));
    m_highlight->setBrush(ChartPalette::highlight());
}

void BreakdownChart::setGrouping(Grouping grouping)
{
    m_groupBy = grouping;
    {
        const QSignalBlocker blocker(m_grouping);
        m_grouping->setCurrentIndex(m_grouping->findData(static_cast<int>(grouping)));
    }
    if (!m_shown)
        return;
    fillBars();
    showValue(selection()->currentValue());
    replotAll();
}

void BreakdownChart::rebuild()
{
    m_shown.reset();
    m_waiting = false;
    follow(selection()->currentStep());
}

void BreakdownChart::follow(qint64 step, bool now)
{
    std::shared_ptr<const StepBreakdown> b =
        workspace()->breakdown(dumpPointer(), timelinePointer(), step, now);
    if (!b) {
        // Computed on a job (big dumps): the old bars stay until it is ready.
        m_waiting = true;
        m_summary->setText(tr("step %1: reading what is live…").arg(step));
        return;
    }
    m_waiting = false;
    apply(std::move(b));
}

void BreakdownChart::apply(std::shared_ptr<const StepBreakdown> shown)
{
    m_shown = std::move(shown);
    fillBars();
    showValue(selection()->currentValue());
    replotAll();
}

void BreakdownChart::fillBars()
{
    const Breakdown &b = m_shown->breakdown;
    const std::vector<BreakdownRow> &all = b.rows(m_groupBy);
    // As many bars as the height holds legibly; the rest fold into one "smaller groups" bar.
    const auto maxBars =
        static_cast<std::size_t>(std::clamp(height() / kRowPixels - 3, 3, kMaxBars));
    m_rows.assign(all.begin(),
                  all.begin() + static_cast<std::ptrdiff_t>(std::min(maxBars, all.size())));
    if (all.size() > maxBars) {
        BreakdownRow other;
        other.key = tr("(%1 smaller groups)").arg(all.size() - maxBars).toStdString();
        for (std::size_t i = maxBars; i < all.size(); ++i) {
            other.bytes += all[i].bytes;
            other.values += all[i].values;
        }
        m_rows.push_back(std::move(other));
    }
    QVector<double> keys;
    QVector<double> bytes;
    auto ticker = plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    const QFontMetrics metrics(font());
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        keys << static_cast<double>(i);
        bytes << static_cast<double>(m_rows[i].bytes);
        const QString key = toQString(Breakdown::rowLabel(m_groupBy, m_rows[i]));
        // Labels take at most 40 % of the width; op_name prefixes repeat, so keep the tail.
        // op_name prefixes repeat, so their tail is kept; a shape keeps its count and its end.
        const QString shown =
            metrics.elidedText(key, m_groupBy == Grouping::Shape ? Qt::ElideMiddle : Qt::ElideLeft,
                               std::max(80, width() * 2 / 5));
        ticker->addTick(static_cast<double>(i),
                        QStringLiteral("%1  ·  %2").arg(shown, humanBytesText(m_rows[i].bytes)));
    }
    m_bars->setData(keys, bytes, true);
    const std::uint32_t ins = dump()->instructionAtStep(b.step);
    m_summary->setText(
        b.step < 0 ? tr("No live ranges in this dump")
                   : tr("step %1 (%2): %3 in %n value(s)", nullptr, static_cast<int>(b.valueCount))
                         .arg(QString::number(b.step),
                              ins == kNone ? tr("end")
                                           : toQString(dump()->str(dump()->instructions[ins].name)),
                              humanBytesText(b.bytes)));
    resetZoom();
}

bool BreakdownChart::updateLabels()
{
    // A byte label every 150 pixels or so: three in a narrow dock, more in a wide export.
    const int wanted = std::clamp(plot()->axisRect()->width() / 150, 3, 8);
    QSharedPointer<QCPAxisTicker> ticker = plot()->xAxis->ticker();
    if (ticker->tickCount() == wanted)
        return false;
    ticker->setTickCount(wanted);
    return true;
}

ChartView::CsvWork BreakdownChart::csvWork() const
{
    return [shown = m_shown, grouping = m_groupBy] {
        static const Breakdown none;
        return ViewCsv::breakdown(shown ? shown->breakdown : none, grouping);
    };
}

void BreakdownChart::resetZoom()
{
    double top = 1;
    for (const BreakdownRow &r : m_rows)
        top = std::max(top, static_cast<double>(r.bytes));
    plot()->xAxis->setRange(0, top * 1.05);
    plot()->yAxis->setRange(-0.6, std::max<double>(static_cast<double>(m_rows.size()) - 0.4, 4));
    replotAll();
}

void BreakdownChart::showValue(int value)
{
    m_highlight->data()->clear();
    m_highlightRow = -1;
    setHighlighted(-1);
    if (value < 0)
        return;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const auto &members = m_rows[i].members;
        if (std::find(members.begin(), members.end(), static_cast<std::uint32_t>(value)) !=
            members.end()) {
            m_highlightRow = static_cast<int>(i);
            m_highlight->addData(static_cast<double>(i), static_cast<double>(m_rows[i].bytes));
            setHighlighted(value);
            return;
        }
    }
}

void BreakdownChart::showStep(qint64 step)
{
    if (!dump() || step < 0 || step >= dump()->stepCount() || step == breakdown().step)
        return;
    // A breakdown is O(values): behind another dock tab it waits until it is shown (or
    // exported), so stepping through a million-value dump does not pay for it.
    if (!m_onScreen) {
        m_stale = true;
        return;
    }
    m_stale = false;
    follow(step);
}

void BreakdownChart::ensureCurrent()
{
    // An export draws what is live at the current step, computed now if need be.
    if (!dump() || (!m_stale && !m_waiting))
        return;
    m_stale = false;
    follow(selection()->currentStep(), true);
}

void BreakdownChart::setOnScreen(bool onScreen)
{
    m_onScreen = onScreen;
    if (!onScreen && m_waiting) {
        // It stops waiting for the job; the step is read again when the chart is shown.
        m_waiting = false;
        m_stale = true;
    }
    if (onScreen && m_stale) {
        ensureCurrent();
        replotAll();
    }
}

} // namespace bufferscope
