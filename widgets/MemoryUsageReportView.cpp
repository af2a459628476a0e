#include "MemoryUsageReportView.h"

#include "BytesTicker.h"
#include "ChartPalette.h"
#include "TableCsv.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "parse/ModuleFiles.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

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
    return p;
}

} // namespace

MemoryUsageReportView::MemoryUsageReportView(MemoryUsageReport report, const QString &path,
                                             QWidget *parent)
    : QWidget(parent, Qt::Window), m_report(std::move(report)), m_summary(new QLabel(this)),
      m_table(new QTableWidget(this)), m_sizes(newPlot(this)), m_offsets(newPlot(this))
{
    const QString module = toQString(ModuleFiles::moduleName(path.toStdString()));
    setWindowTitle(tr("%1 — memory-usage report — BufferScope").arg(module));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QString summary = tr("XLA's memory-usage report of %1: %2 allocations, %3 in all (%4 bytes).")
                          .arg(module)
                          .arg(m_report.allocationCount())
                          .arg(humanBytesText(m_report.totalBytes))
                          .arg(m_report.totalBytes);
    summary += QLatin1Char(' ') +
               tr("Only the total is exact: the report rounds every other size as it prints it. "
                  "Its module's buffer-assignment dump is not beside it, so there are no live "
                  "ranges here: open the dump for memory over time, the peak and the values.");
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
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

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
        QString kind = toQString(allocationKindName(a.kind()));
        if (a.donated())
            kind += tr(" → output, donated");
        m_table->setItem(row, IndexColumn, item(QString::number(a.index), qint64(a.index)));
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
        bar->setBrush(ChartPalette::kindColor(a.kind()));
        bar->setPen(Qt::NoPen);
        bar->setData({double(i)}, {double(a.size)}, true);
        ticker->addTick(double(i), tr("allocation %1").arg(a.index));
    }
    m_sizes->yAxis->setRange(-0.6, double(std::max<std::size_t>(n, 1)) - 0.4);
    double largest = 1;
    for (std::size_t i = 0; i < n; ++i)
        largest = std::max(largest, double(m_report.allocations[i].size));
    m_sizes->xAxis->setRange(0, largest * 1.05);
    m_sizes->replot();
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
    // With many offsets, only the largest twelve are named: the rest would overprint.
    std::vector<std::size_t> bySize(groups.size());
    for (std::size_t i = 0; i < groups.size(); ++i)
        bySize[i] = i;
    std::stable_sort(bySize.begin(), bySize.end(), [&groups](std::size_t x, std::size_t y) {
        return groups[x]->size > groups[y]->size;
    });
    std::vector<bool> named(groups.size(), groups.size() <= 16);
    for (std::size_t k = 0; k < std::min<std::size_t>(bySize.size(), 12); ++k)
        named[bySize[k]] = true;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const MemoryUsageReport::Group &g = *groups[i];
        auto *box = new QCPItemRect(m_offsets);
        box->topLeft->setCoords(double(g.offset), double(i) - 0.35);
        box->bottomRight->setCoords(double(g.offset + g.size), double(i) + 0.35);
        box->setBrush(color);
        box->setPen(QPen(color.darker(130)));
        QString shapes = toQString(g.shapes);
        if (shapes.size() > 40)
            shapes = shapes.left(39) + QStringLiteral("…");
        if (named[i])
            ticker->addTick(
                double(i), tr("%1 · %n value(s)", nullptr, static_cast<int>(g.values)).arg(shapes));
    }
    if (groups.empty()) {
        // One value (the report lists its values only for allocations with more than one).
        auto *box = new QCPItemRect(m_offsets);
        box->topLeft->setCoords(0, -0.35);
        box->bottomRight->setCoords(double(a.size), 0.35);
        box->setBrush(color);
        box->setPen(QPen(color.darker(130)));
        ticker->addTick(0, tr("one value"));
    }
    m_offsets->yAxis->setRange(-0.6, double(std::max<std::size_t>(groups.size(), 1)) - 0.4);
    m_offsets->xAxis->setRange(0, double(std::max<std::int64_t>(a.size, 1)));
    QString title = tr("allocation %1: %2").arg(a.index).arg(humanBytesText(a.size));
    if (a.hiddenGroups > 0)
        title +=
            tr(" · %n smaller offset(s) not listed", nullptr, static_cast<int>(a.hiddenGroups));
    m_offsets->xAxis2->setVisible(true);
    m_offsets->xAxis2->setTicks(false);
    m_offsets->xAxis2->setTickLabels(false);
    m_offsets->xAxis2->setLabel(title);
    m_offsets->replot();
}

} // namespace bufferscope
