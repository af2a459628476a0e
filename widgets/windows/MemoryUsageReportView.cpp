#include "windows/MemoryUsageReportView.h"

#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "layout/LabelLayout.h"
#include "model/ModuleNames.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "tables/TableCsv.h"

#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace bufferscope {

namespace {

enum Column
{
    IndexColumn,
    KindColumn,
    SizeColumn,
    ValuesColumn,
    DescriptionColumn,
    ColumnCount
};

QTableWidgetItem *item(const QString &text, const QVariant &sortKey = {})
{
    auto *i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    i->setToolTip(plainToolTip(text));
    if (sortKey.isValid())
        i->setData(SortRole, sortKey);
    return i;
}

QCustomPlot *newPlot(QWidget *parent)
{
    auto *p = new QCustomPlot(parent);
    p->setNoAntialiasingOnDrag(true);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    p->yAxis->setRangeReversed(true);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setSubTicks(false);
    p->xAxis->setTicker(QSharedPointer<BytesTicker>::create());
    ChartPalette::follow(p); // the palette's colours, and again when it changes
    return p;
}

} // namespace

MemoryUsageReportView::MemoryUsageReportView(MemoryUsageReport report, const QString &path,
                                             QWidget *parent)
    : QWidget(parent, Qt::Window), m_report(std::move(report)), m_summary(new QLabel(this)),
      m_table(new QTableWidget(this)), m_sizes(newPlot(this)), m_offsets(newPlot(this))
{
    const QString module = toQString(ModuleNames::moduleName(path.toStdString()));
    setWindowTitle(tr("%1 — memory-usage report — BufferScope").arg(module));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QString summary =
        tr("XLA's memory-usage report of %1: %2 allocations, %3 in all (%4 bytes).")
            .arg(module, QString::number(m_report.allocationCount()),
                 humanBytesText(m_report.totalBytes), QString::number(m_report.totalBytes));
    if (m_report.layout != 3)
        summary += QLatin1Char(' ') +
                   tr("Only the total is exact: the report rounds every other size as it prints "
                      "it.");
    summary += QLatin1Char(' ') +
               tr("Its module's buffer-assignment dump is not beside it, so there are no live "
                  "ranges here: open the dump for memory over time, the peak and the values.");
    if (m_report.layout >= 2) {
        // The 2026 layout: by memory space, each with its exact total.
        QStringList spaces;
        for (const MemoryUsageReport::MemorySpace &space : m_report.memorySpaces)
            spaces << (space.name.empty()
                           ? tr("S(%1) %2").arg(space.color).arg(humanBytesText(space.totalBytes))
                           : tr("%1 (S(%2)) %3")
                                 .arg(toQString(space.name), QString::number(space.color),
                                      humanBytesText(space.totalBytes)));
        summary += QLatin1Char(' ') +
                   (m_report.layout == 3
                        ? tr("XLA's binary report: by memory space, exact totals: %1. Each "
                             "allocation's number and size are exact; its kind is not given.")
                        : tr("The 2026 layout: by memory space, exact totals: %1. It prints no "
                             "allocation's number, kind or size; each size here is what its "
                             "values' groups add up to."))
                       .arg(spaces.join(QStringLiteral(", ")));
    }
    if (!m_report.problems.empty())
        summary += QLatin1Char(' ') + tr("%n line(s) could not be read.", nullptr,
                                         static_cast<int>(m_report.problems.size()));
    m_summary->setText(summary);

    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels(
        {tr("Allocation"), tr("Kind"), tr("Size"), tr("Values"), tr("Attributes")});
    m_table->horizontalHeaderItem(SizeColumn)
        ->setToolTip(tr("As the report rounds it (e.g. 2.70GiB)"));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    TableCsv::addActions(m_table, QStringLiteral("memory-usage-report"));
    fillTable();

    m_sizes->xAxis->setLabel(tr("size, as the report rounds it"));
    m_offsets->xAxis->setLabel(tr("offset within the allocation"));
    m_offsets->yAxis->setLabel(tr("values at one offset"));
    fillSizes();

    auto *charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_sizes);
    charts->addWidget(m_offsets);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    // The charts three fifths of the width, whatever the table's widest row would ask.
    split->setSizes({400, 600});
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    // The rows' names follow the chart's height (after each replot), the rest on hover.
    connect(m_offsets, &QCustomPlot::afterReplot, this, [this] {
        if (nameRows())
            m_offsets->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_sizes, &QCustomPlot::afterReplot, this, [this] {
        if (nameRows())
            m_offsets->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_offsets, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const QString tip = offsetToolTip(event->position());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), tip, m_offsets);
    });
    connect(m_table, &QTableWidget::currentCellChanged, this,
            [this](int row) { showAllocation(row); });
    m_table->selectRow(0);
    showAllocation(0);
    resize(1200, 720);
}

void MemoryUsageReportView::fillTable()
{
    m_table->setRowCount(static_cast<int>(m_report.allocations.size()));
    for (std::size_t r = 0; r < m_report.allocations.size(); ++r) {
        const MemoryUsageReport::Allocation &a = m_report.allocations[r];
        const int row = static_cast<int>(r);
        std::int64_t values = 0;
        for (const MemoryUsageReport::Group &g : a.groups)
            values += g.values;
        // The 2026 layout prints no number, kind or attributes: its memory space and place.
        QString kind = a.attributesKnown ? toQString(allocationKindName(a.kind()))
                                         : tr("S(%1), kind not printed").arg(a.color);
        if (a.attributesKnown && a.donated())
            kind += tr(" → output, donated");
        m_table->setItem(row, IndexColumn,
                         item(a.index >= 0 ? QString::number(a.index) : QStringLiteral("—"),
                              qint64(a.index >= 0 ? a.index : qint64(r))));
        m_table->setItem(row, KindColumn, item(kind));
        QTableWidgetItem *size = item(humanBytesText(a.size), qint64(a.size));
        size->setData(BytesRole, qint64(a.size));
        size->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        size->setToolTip(tr("about %1 bytes (± %2)").arg(a.size).arg(a.sizeUlp));
        m_table->setItem(row, SizeColumn, size);
        m_table->setItem(row, ValuesColumn,
                         item(a.groups.empty()     ? tr("1")
                              : a.hiddenGroups > 0 ? tr("%1 + more").arg(values)
                                                   : QString::number(values),
                              qint64(values)));
        m_table->setItem(row, DescriptionColumn, item(toQString(a.description)));
    }
    m_table->resizeColumnsToContents();
}

void MemoryUsageReportView::fillSizes()
{
    // The 20 largest, largest on top.
    const std::size_t n = std::min<std::size_t>(m_report.allocations.size(), 20);
    auto ticker = m_sizes->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    QVector<double> keys;
    QVector<double> sizes;
    for (std::size_t i = 0; i < n; ++i) {
        const MemoryUsageReport::Allocation &a = m_report.allocations[i];
        auto *bar = new QCPBars(m_sizes->yAxis, m_sizes->xAxis);
        bar->setWidth(0.7);
        bar->setBrush(a.attributesKnown ? ChartPalette::kindColor(a.kind())
                                        : ChartPalette::kindColor(AllocationKind::Temp));
        bar->setPen(Qt::NoPen);
        bar->setData({double(i)}, {double(a.size)}, true);
        ticker->addTick(double(i), toQString(m_report.allocationLabel(i)));
    }
    m_sizes->yAxis->setRange(-0.6, double(std::max<std::size_t>(n, 1)) - 0.4);
    double largest = 1;
    for (std::size_t i = 0; i < n; ++i)
        largest = std::max(largest, double(m_report.allocations[i].size));
    m_sizes->xAxis->setRange(0, largest * 1.05);
    m_sizes->replot();
}

namespace {
/// Names the rows of a bar chart's text ticker that fit at its height, largest first: each
/// takes a line of the axis, and one that would meet a name already placed is left out
/// (LabelLayout). True when the names changed.
bool nameRowsOf(QCustomPlot *plot, const QStringList &names, const std::vector<std::int64_t> &sizes)
{
    auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker)
        return false;
    const QCPAxisRect *rect = plot->axisRect();
    const double height = QFontMetricsF(plot->yAxis->tickLabelFont()).height() + 1;
    LabelLayout layout({0, static_cast<double>(rect->top()) - height, 1,
                        static_cast<double>(rect->height()) + 2 * height});
    std::vector<std::size_t> bySize(static_cast<std::size_t>(names.size()));
    for (std::size_t i = 0; i < bySize.size(); ++i)
        bySize[i] = i;
    std::stable_sort(bySize.begin(), bySize.end(),
                     [&sizes](std::size_t x, std::size_t y) { return sizes[x] > sizes[y]; });
    QMap<double, QString> ticks;
    for (const std::size_t i : bySize) {
        const double y = plot->yAxis->coordToPixel(double(i));
        const LabelLayout::Box box{0, y - height / 2, 1, height};
        if (layout.place(std::span(&box, 1)) >= 0)
            ticks.insert(double(i), names[static_cast<qsizetype>(i)]);
    }
    if (ticks == ticker->ticks())
        return false;
    ticker->setTicks(ticks);
    return true;
}
} // namespace

bool MemoryUsageReportView::nameRows()
{
    // The offset map's names and the sizes chart's, each only where it fits; the rest on
    // hover.
    bool offsets = nameRowsOf(m_offsets, m_rowNames, m_rowSizes);
    // The offset map's title as wide as the plot at most, cut at its end (whole on the table's
    // row tooltip): centred and wider, it ran off both sides.
    const QString title = QFontMetrics(m_offsets->xAxis2->labelFont())
                              .elidedText(m_offsetsTitle, Qt::ElideRight,
                                          std::max(60, m_offsets->axisRect()->width()));
    if (title != m_offsets->xAxis2->label()) {
        m_offsets->xAxis2->setLabel(title);
        offsets = true;
    }
    QStringList sizeNames;
    std::vector<std::int64_t> sizes;
    for (std::size_t i = 0; i < std::min<std::size_t>(m_report.allocations.size(), 20); ++i) {
        sizeNames << toQString(m_report.allocationLabel(i));
        sizes.push_back(m_report.allocations[i].size);
    }
    if (nameRowsOf(m_sizes, sizeNames, sizes))
        m_sizes->replot(QCustomPlot::rpQueuedReplot);
    return offsets;
}

QStringList MemoryUsageReportView::namedRows() const
{
    auto ticker = m_offsets->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

QString MemoryUsageReportView::offsetToolTip(const QPointF &pixel) const
{
    if (!m_offsets->axisRect()->rect().adjusted(-400, 0, 0, 0).contains(pixel.toPoint()))
        return {};
    const auto row = static_cast<qsizetype>(std::lround(m_offsets->yAxis->pixelToCoord(pixel.y())));
    return row >= 0 && row < m_rowNames.size() ? m_rowNames[row] : QString();
}

void MemoryUsageReportView::showAllocation(int row)
{
    if (row < 0 || row >= static_cast<int>(m_report.allocations.size()))
        return;
    m_shown = row;
    const MemoryUsageReport::Allocation &a = m_report.allocations[static_cast<std::size_t>(row)];
    m_offsets->clearPlottables();
    m_offsets->clearItems();
    auto ticker = m_offsets->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    // One bar per offset, in offset order: where the values sit, how far the largest reaches.
    std::vector<const MemoryUsageReport::Group *> groups;
    for (const MemoryUsageReport::Group &g : a.groups)
        groups.push_back(&g);
    std::sort(groups.begin(), groups.end(),
              [](const auto *x, const auto *y) { return x->offset < y->offset; });
    const QColor color = ChartPalette::kindColor(a.kind());
    m_rowNames.clear();
    m_rowSizes.clear();
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const MemoryUsageReport::Group &g = *groups[i];
        auto *box = new QCPItemRect(m_offsets);
        box->topLeft->setCoords(double(g.offset), double(i) - 0.35);
        box->bottomRight->setCoords(double(g.offset + g.size), double(i) + 0.35);
        box->setBrush(color);
        box->setPen(QPen(color.darker(130)));
        QString shapes = toQString(g.shapes);
        if (shapes.size() > 30)
            shapes = shapes.left(29) + QStringLiteral("…");
        m_rowNames << tr("%1 · %n value(s)", nullptr, static_cast<int>(g.values)).arg(shapes);
        m_rowSizes.push_back(g.size);
    }
    if (groups.empty()) {
        // One value (the report lists its values only for allocations with more than one).
        auto *box = new QCPItemRect(m_offsets);
        box->topLeft->setCoords(0, -0.35);
        box->bottomRight->setCoords(double(a.size), 0.35);
        box->setBrush(color);
        box->setPen(QPen(color.darker(130)));
        m_rowNames << tr("one value");
        m_rowSizes.push_back(a.size);
    }
    nameRows();
    m_offsets->yAxis->setRange(-0.6, double(std::max<std::size_t>(groups.size(), 1)) - 0.4);
    // To the farthest a group reaches: in the 2026 layout a.size is what the groups add up to,
    // and they may sit far apart in the allocation.
    std::int64_t reach = a.size;
    for (const MemoryUsageReport::Group &g : a.groups)
        reach = std::max(reach, g.offset + g.size);
    m_offsets->xAxis->setRange(0, double(std::max<std::int64_t>(reach, 1)));
    QString title = tr("%1: %2").arg(
        toQString(m_report.allocationLabel(static_cast<std::size_t>(row))), humanBytesText(a.size));
    if (a.hiddenGroups > 0)
        title +=
            tr(" · %n smaller offset(s) not listed", nullptr, static_cast<int>(a.hiddenGroups));
    m_offsets->xAxis2->setVisible(true);
    m_offsets->xAxis2->setTicks(false);
    m_offsets->xAxis2->setTickLabels(false);
    m_offsetsTitle = title;
    m_offsets->xAxis2->setLabel(title);
    m_offsets->replot();
}

} // namespace bufferscope
