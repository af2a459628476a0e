#include "charts/MemoryMap.h"

#include "Workspace.h"
#include "drawing/BoxPlottable.h"
#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "drawing/ElidedLabel.h"
#include "drawing/StepTicker.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "report/ViewCsv.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <qcustomplot.h>

namespace bufferscope {

namespace {
constexpr double kLabelMinPixels = 14; ///< bands thinner than this on screen get no label
} // namespace

MemoryMap::MemoryMap(Workspace *workspace, QWidget *parent)
    : BoxChartView(workspace, parent), m_allocationBox(new QComboBox(this)),
      m_info(new ElidedLabel(this)), m_layout(std::make_shared<const MemoryMapLayout>())
{
    auto *label = new QLabel(tr("&Allocation:"), this);
    label->setBuddy(m_allocationBox);
    // Long entries must not widen the dock: the popup shows them whole.
    m_allocationBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_allocationBox->setMinimumContentsLength(16);
    m_allocationBox->setMaxVisibleItems(30);
    toolRow()->addWidget(label);
    toolRow()->addWidget(m_allocationBox);
    toolRow()->addSpacing(12);
    // The summary may be long: it must not widen the dock; the tooltip has it all.
    m_info->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    toolRow()->addWidget(m_info, 1);
    connect(m_allocationBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setAllocation(m_allocationBox->itemData(index).toInt());
    });

    QCustomPlot *p = plot();
    m_bands = new BoxPlottable(p->xAxis, p->yAxis);
    m_bands->setLayer(QStringLiteral("grid"));
    m_bands->setOutlined(false);
    m_bands->removeFromLegend();
    p->yAxis->setRangeReversed(true);
    connect(p->yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this] { updateLabels(); });
    connect(workspace, &Workspace::mapLayoutReady, this, [this] {
        if (isBuilding())
            takeLayout();
    });
    applyPalette();
}

QString MemoryMap::title() const
{
    if (!dump())
        return tr("Memory map");
    if (m_allocation == kAllAllocations)
        return tr("Memory map of %1 — all allocations").arg(toQString(dump()->module));
    const Allocation &a = dump()->allocations[static_cast<std::size_t>(m_allocation)];
    return tr("Memory map of %1 — allocation %2 (%3, %4)")
        .arg(toQString(dump()->module), QString::number(a.index),
             toQString(allocationKindName(a.kind)), humanBytesText(a.size));
}

void MemoryMap::applyPalette()
{
    BoxChartView::applyPalette();
    std::vector<QColor> colours;
    colours.reserve(kAllocationKindCount);
    for (int k = 0; k < kAllocationKindCount; ++k)
        colours.push_back(ChartPalette::kindColor(static_cast<AllocationKind>(k)));
    setBoxColours(colours);
    QColor even = ChartPalette::foreground(palette());
    even.setAlpha(14);
    QColor odd = even;
    odd.setAlpha(30);
    m_bands->setColours({even, odd});
}

void MemoryMap::rebuild()
{
    stepTicker()->setDump(dump());
    const Dump &d = *dump();
    {
        const QSignalBlocker blocker(m_allocationBox);
        m_allocationBox->clear();
        m_allocationBox->addItem(tr("All allocations (stacked)"), kAllAllocations);
        for (std::size_t i = 0; i < d.allocations.size(); ++i) {
            const Allocation &a = d.allocations[i];
            m_allocationBox->addItem(
                tr("#%1 · %2 · %3 · %n value(s)", nullptr, static_cast<int>(a.valueCount))
                    .arg(a.index)
                    .arg(toQString(allocationKindName(a.kind)))
                    .arg(humanBytesText(a.size)),
                static_cast<int>(i));
        }
        if (m_allocation >= static_cast<int>(d.allocations.size()))
            m_allocation = kAllAllocations;
        m_allocationBox->setCurrentIndex(m_allocationBox->findData(m_allocation));
    }
    setKindLegend();
    addFlowLegend();
    // Nothing of the old dump's layout may stay: its bands index the old allocations.
    m_layout = std::make_shared<const MemoryMapLayout>();
    m_bands->setBoxSet(m_layout->bands);
    boxes()->setBoxSet(m_layout->boxes);
    takeLayout(true);
    resetZoom();
}

void MemoryMap::setAllocation(int allocation)
{
    if (allocation == m_allocation && !boxes()->boxes().empty())
        return;
    m_allocation = allocation;
    {
        const QSignalBlocker blocker(m_allocationBox);
        m_allocationBox->setCurrentIndex(std::max(0, m_allocationBox->findData(allocation)));
    }
    if (dump())
        takeLayout();
}

void MemoryMap::takeLayout(bool rebuilding)
{
    std::shared_ptr<const MemoryMapLayout> layout =
        workspace()->mapLayout(dumpPointer(), m_allocation);
    setBuilding(!layout);
    if (!layout)
        return; // the old map stays on screen until the new one is ready
    m_layout = std::move(layout);
    const Dump &d = *dump();
    if (m_allocation == kAllAllocations) {
        plot()->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        // Short: rotated along a short dock, a longer title ran off its ends.
        plot()->yAxis->setLabel(tr("allocation, offset in it"));
    } else {
        plot()->yAxis->setTicker(QSharedPointer<BytesTicker>::create());
        plot()->yAxis->setLabel(tr("offset in allocation"));
    }
    m_bands->setBoxSet(m_layout->bands);
    boxes()->setBoxSet(m_layout->boxes);
    QString info = tr("%n value(s) drawn", nullptr, static_cast<int>(m_layout->drawn));
    if (m_layout->undrawn > 0)
        info += tr(" · %n without a live range (not drawn)", nullptr,
                   static_cast<int>(m_layout->undrawn));
    if (m_layout->hiddenAllocations > 0)
        info += tr(" · %n allocation(s) with no live value not shown", nullptr,
                   static_cast<int>(m_layout->hiddenAllocations));
    if (!d.hasLiveRanges())
        info = tr("This dump has no live ranges: the memory map needs them");
    m_info->setText(info);

    updateLabels();
    if (rebuilding)
        return; // rebuild() goes on with the new dump
    resetZoom();
    showValue(selection()->currentValue());
    showHover(-1);
    Q_EMIT built();
}

bool MemoryMap::updateLabels()
{
    auto ticker = plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || !dump() || m_allocation != kAllAllocations)
        return false;
    QMap<double, QString> ticks;
    const QCPRange range = plot()->yAxis->range();
    const double pixels = plot()->axisRect()->height();
    if (range.size() > 0 && pixels > 0) {
        const double perPixel = range.size() / pixels;
        for (std::size_t i = 0; i < m_layout->bandOf.size(); ++i) {
            const Band &b = m_layout->bandOf[i];
            if (b.height <= 0 || b.height / perPixel < kLabelMinPixels ||
                b.base + b.height < range.lower || b.base > range.upper)
                continue;
            const Allocation &a = dump()->allocations[i];
            ticks.insert(b.base + b.height / 2, tr("#%1 %2 %3")
                                                    .arg(a.index)
                                                    .arg(toQString(allocationKindName(a.kind)))
                                                    .arg(humanBytesText(a.size)));
        }
    }
    if (ticks == ticker->ticks())
        return false;
    ticker->setTicks(ticks);
    return true;
}

ChartView::CsvWork MemoryMap::csvWork() const
{
    return [dump = dumpPointer(), layout = m_layout] { return ViewCsv::memoryMap(*dump, *layout); };
}

void MemoryMap::resetZoom()
{
    if (!dump())
        return;
    plot()->xAxis->setRange(0, std::max<double>(1, static_cast<double>(dump()->stepCount())));
    if (m_allocation == kAllAllocations) {
        double top = 0;
        for (const Band &b : m_layout->bandOf)
            top = std::max(top, b.base + b.height);
        plot()->yAxis->setRange(0, std::max(1.0, top));
    } else {
        const Allocation &a = dump()->allocations[static_cast<std::size_t>(m_allocation)];
        plot()->yAxis->setRange(0, std::max<double>(1, static_cast<double>(a.size)));
    }
    // Labels depend on the axis rect's height, known after a layout pass: the replot after
    // this one corrects them if they change (ChartView's afterReplot connection).
    updateLabels();
    replotAll();
}

void MemoryMap::showValue(int value)
{
    // A value of another allocation: follow it there (in single-allocation mode).
    if (dump() && value >= 0 && m_allocation != kAllAllocations) {
        const Value &v = dump()->values[static_cast<std::size_t>(value)];
        if (v.allocation != kNone && static_cast<int>(v.allocation) != m_allocation)
            return setAllocation(static_cast<int>(v.allocation));
    }
    BoxChartView::showValue(value);
}

void MemoryMap::revealValue(int value)
{
    const Box *box = boxOf(value);
    if (!box)
        return;
    const QCPRange y = plot()->yAxis->range();
    const QCPRange x = plot()->xAxis->range();
    bool moved = false;
    if (box->y1 < y.lower || box->y0 > y.upper) {
        plot()->yAxis->setRange((box->y0 + box->y1) / 2 - y.size() / 2,
                                (box->y0 + box->y1) / 2 + y.size() / 2);
        moved = true;
    }
    if (box->x1 < x.lower || box->x0 > x.upper) {
        plot()->xAxis->setRange((box->x0 + box->x1) / 2 - x.size() / 2,
                                (box->x0 + box->x1) / 2 + x.size() / 2);
        moved = true;
    }
    if (moved)
        replotAll();
}

} // namespace bufferscope
