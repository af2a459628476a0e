#include "charts/LiveRangeGantt.h"

#include "Workspace.h"
#include "drawing/BoxPlottable.h"
#include "drawing/ChartPalette.h"
#include "drawing/StepTicker.h"
#include "model/MemorySpaces.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "report/ViewCsv.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QToolButton>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace bufferscope {

namespace {
constexpr double kNamedRowPixels = 13; ///< rows at least this tall get their names
constexpr int kMaxNameStride = 3;      ///< shorter rows: every second or third is named
} // namespace

LiveRangeGantt::LiveRangeGantt(Workspace *workspace, QWidget *parent)
    : BoxChartView(workspace, parent), m_orderBox(new QComboBox(this)),
      m_apartButton(new QToolButton(this)), m_apart(new QListWidget(this)),
      m_rows(std::make_shared<const GanttRows>())
{
    auto *orderLabel = new QLabel(tr("&Order:"), this);
    orderLabel->setBuddy(m_orderBox);
    m_orderBox->addItem(tr("By start"), static_cast<int>(Order::ByStart));
    m_orderBox->addItem(tr("By size"), static_cast<int>(Order::BySize));
    m_orderBox->addItem(tr("By allocation and offset"), static_cast<int>(Order::ByAllocation));
    m_apartButton->setCheckable(true);
    m_apartButton->setVisible(false); // until a dump says how many values have no range
    m_apartButton->setToolTip(tr("Values XLA gave no live range (listed apart; not drawn)"));
    m_apart->setVisible(false);
    m_apart->setMaximumHeight(120);
    m_apart->setUniformItemSizes(true);
    toolRow()->addWidget(orderLabel);
    toolRow()->addWidget(m_orderBox);
    toolRow()->addStretch(1);
    toolRow()->addWidget(m_apartButton);
    addBelowPlot(m_apart);
    connect(m_orderBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setOrder(static_cast<Order>(m_orderBox->itemData(index).toInt()));
    });
    connect(m_apartButton, &QToolButton::toggled, m_apart, &QWidget::setVisible);
    connect(m_apart, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            this->selection()->setCurrentValue(m_apart->item(row)->data(Qt::UserRole).toInt());
    });

    QCustomPlot *p = plot();
    p->yAxis->setRangeReversed(true);
    p->yAxis->setLabel(tr("values"));
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());

    m_rowBand = new QCPItemRect(p);
    m_rowBand->setLayer(highlightLayer());
    m_rowBand->topLeft->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_rowBand->bottomRight->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_rowBand->setVisible(false);
    connect(p->yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this] { updateLabels(); });
    connect(workspace, &Workspace::ganttRowsReady, this, [this] {
        if (isBuilding())
            takeRows();
    });
    applyPalette();
}

QString LiveRangeGantt::title() const
{
    if (!dump())
        return tr("Live ranges");
    return tr("Live ranges of %1 (%2 values, %3)")
        .arg(toQString(dump()->module), QString::number(m_rows->values.size()),
             m_orderBox->currentText().toLower());
}

void LiveRangeGantt::applyPalette()
{
    BoxChartView::applyPalette();
    const QPalette pal = palette();
    QColor band = ChartPalette::highlight();
    band.setAlpha(40);
    m_rowBand->setBrush(band);
    m_rowBand->setPen(Qt::NoPen);
    std::vector<QColor> colours;
    colours.reserve(kAllocationKindCount + 1);
    for (int k = 0; k < kAllocationKindCount; ++k)
        colours.push_back(ChartPalette::kindColor(static_cast<AllocationKind>(k)));
    colours.push_back(ChartPalette::grid(pal)); // values in no allocation
    setBoxColours(colours);
}

void LiveRangeGantt::setOrder(Order order)
{
    if (m_order == order && !m_rows->values.empty())
        return;
    m_order = order;
    {
        const QSignalBlocker blocker(m_orderBox);
        m_orderBox->setCurrentIndex(m_orderBox->findData(static_cast<int>(order)));
    }
    if (dump())
        takeRows();
}

void LiveRangeGantt::takeRows(bool rebuilding)
{
    std::shared_ptr<const GanttRows> rows = workspace()->ganttRows(dumpPointer(), m_order);
    setBuilding(!rows);
    if (!rows)
        return; // a million rows take a few hundred ms to sort: the old order stays meanwhile
    const bool hadNone = m_rows->values.empty(); // the first rows of a dump: fit them
    m_rows = std::move(rows);
    boxes()->setBoxSet(m_rows->bars);
    if (!m_apartListed)
        listApart();
    placeBands();
    updateLabels();
    if (rebuilding)
        return; // rebuild() goes on with the new dump
    if (hadNone)
        resetZoom();
    showValue(selection()->currentValue());
    replotAll();
    Q_EMIT built();
}

void LiveRangeGantt::rebuild()
{
    stepTicker()->setDump(dump());
    m_rows = std::make_shared<const GanttRows>();
    boxes()->setBoxSet(m_rows->bars);
    m_apart->clear();
    m_apartListed = false;
    m_apartButton->setVisible(false); // until the rows say how many values have no range
    takeRows(true);

    // Legend: the kinds that occur, then the marks.
    setKindLegend();
    addFlowLegend();
    resetZoom();
}

void LiveRangeGantt::listApart()
{
    // Every order lists the same values apart (found on the job runner with the rows): the
    // list is filled once per dump. It is for finding a value, not for browsing millions.
    m_apartListed = true;
    const Dump &d = *dump();
    for (const std::uint32_t i : m_rows->apart) {
        auto *item =
            new QListWidgetItem(tr("%1 · %2").arg(toQString(d.valueDisplayName(d.values[i])),
                                                  humanBytesText(d.values[i].size)),
                                m_apart);
        item->setData(Qt::UserRole, static_cast<int>(i));
    }
    const auto apart = static_cast<qlonglong>(m_rows->apartCount);
    m_apartButton->setText(tr("No live range: %1").arg(apart));
    m_apartButton->setEnabled(apart > 0);
    m_apartButton->setVisible(true);
}

void LiveRangeGantt::placeBands()
{
    for (QCPItemStraightLine *line : m_bandLines)
        plot()->removeItem(line);
    for (QCPItemText *label : m_bandLabels)
        plot()->removeItem(label);
    m_bandLines.clear();
    m_bandLabels.clear();
    if (m_rows->bands.size() < 2 || !dump())
        return;
    // Several memory spaces: each its own band of rows, named at its first row, so an S(1)
    // value is never read as device memory.
    const QPalette pal = palette();
    for (const GanttRows::Band &band : m_rows->bands) {
        const auto y = static_cast<double>(band.firstRow);
        if (band.firstRow > 0) {
            auto *line = new QCPItemStraightLine(plot());
            line->point1->setCoords(0, y);
            line->point2->setCoords(1, y);
            line->setPen(QPen(ChartPalette::foreground(pal), 1, Qt::DashLine));
            line->setSelectable(false);
            m_bandLines.push_back(line);
        }
        auto *label = new QCPItemText(plot());
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.995, y);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        label->setText(
            tr("%1 · %n value(s)", nullptr, static_cast<int>(band.rows))
                .arg(toQString(memorySpaceLabel(platformOf(*dump()), band.memorySpace))));
        label->setColor(ChartPalette::foreground(pal));
        QColor ground = ChartPalette::background(pal);
        ground.setAlpha(220);
        label->setBrush(ground);
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setSelectable(false);
        m_bandLabels.push_back(label);
    }
}

QStringList LiveRangeGantt::bandLabels() const
{
    QStringList out;
    for (const QCPItemText *label : m_bandLabels)
        out << label->text();
    return out;
}

int LiveRangeGantt::rowOf(int value) const
{
    if (value < 0 || static_cast<std::size_t>(value) >= m_rows->rowOf.size())
        return -1;
    return m_rows->rowOf[static_cast<std::size_t>(value)];
}

bool LiveRangeGantt::updateLabels()
{
    auto ticker = plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || !dump())
        return false;
    QMap<double, QString> ticks;
    const QCPRange range = plot()->yAxis->range();
    // Names where they fit: every row's when rows are tall enough, else every second or
    // third row's (a tick marks the row each names); more rows than that leave none, and
    // hovering shows them.
    // The selected value's row is always named, and the rows too close to it to carry a name
    // of their own are not: a name beside the selected bar would read as its name.
    const double perRow = range.size() > 0 ? plot()->axisRect()->height() / range.size() : 0;
    const int stride = perRow > 0 ? static_cast<int>(std::ceil(kNamedRowPixels / perRow)) : 0;
    const int first = std::max(0, static_cast<int>(range.lower));
    const int last = std::min(rowCount() - 1, static_cast<int>(range.upper));
    const int selected = rowOf(selection()->currentValue());
    const auto name = [&](int row) {
        const Value &v = dump()->values[m_rows->values[static_cast<std::size_t>(row)]];
        ticks.insert(row + 0.5, toQString(dump()->valueDisplayName(v)));
    };
    if (stride >= 1 && stride <= kMaxNameStride) {
        for (int row = first; row <= last; ++row)
            if (row % stride == 0 && (selected < 0 || std::abs(row - selected) >= stride))
                name(row);
    }
    if (stride >= 1 && selected >= first && selected <= last)
        name(selected);
    if (ticks == ticker->ticks())
        return false;
    ticker->setTicks(ticks);
    return true;
}

ChartView::CsvWork LiveRangeGantt::csvWork() const
{
    return [dump = dumpPointer(), rows = m_rows] { return ViewCsv::values(*dump, rows->values); };
}

void LiveRangeGantt::resetZoom()
{
    if (!dump())
        return;
    plot()->xAxis->setRange(0, std::max<double>(1, static_cast<double>(dump()->stepCount())));
    plot()->yAxis->setRange(0, std::max(1, rowCount()));
    replotAll();
}

void LiveRangeGantt::showValue(int value)
{
    m_rowBand->setVisible(false);
    BoxChartView::showValue(value);
    if (updateLabels())
        plot()->replot(QCustomPlot::rpQueuedReplot);
    const int row = rowOf(value);
    if (!dump() || row < 0) {
        if (value >= 0 && dump() &&
            !dump()->values[static_cast<std::size_t>(value)].hasLiveRange()) {
            // Point at it in the list of values without a live range.
            for (int i = 0; i < m_apart->count(); ++i) {
                if (m_apart->item(i)->data(Qt::UserRole).toInt() == value) {
                    const QSignalBlocker blocker(m_apart);
                    m_apart->setCurrentRow(i);
                    m_apart->scrollToItem(m_apart->item(i));
                    break;
                }
            }
        }
        return;
    }
    m_rowBand->topLeft->setCoords(0, row);
    m_rowBand->bottomRight->setCoords(1, row + 1);
    m_rowBand->setVisible(true);
}

void LiveRangeGantt::revealValue(int value)
{
    const int row = rowOf(value);
    if (row < 0)
        return;
    const QCPRange range = plot()->yAxis->range();
    if (row >= range.lower && row + 1 <= range.upper)
        return;
    const double half = range.size() / 2;
    plot()->yAxis->setRange(row + 0.5 - half, row + 0.5 + half);
    replotAll();
}

} // namespace bufferscope
