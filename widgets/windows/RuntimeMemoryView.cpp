#include "windows/RuntimeMemoryView.h"

#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "report/RuntimeMemoryReport.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"
#include "windows/DialogFolders.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace bufferscope {

namespace {

constexpr int kByteSortRole = Qt::UserRole + 1;
using RuntimeRow = SortedRow<kByteSortRole>;

/// Milliseconds on the capture's clock, the chart's x axis.
double millis(std::int64_t ps)
{
    return static_cast<double>(ps) / 1e9;
}

void bytesCell(QTreeWidgetItem *item, int column, qint64 bytes)
{
    item->setText(column, humanBytesText(bytes));
    item->setToolTip(column, QObject::tr("%1 bytes").arg(bytes));
    item->setData(column, kByteSortRole, bytes);
    item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
}

constexpr int kMemberRole = Qt::UserRole + 2;     ///< the capture's member of the row's module
constexpr int kAllocationRole = Qt::UserRole + 3; ///< its plan's allocation of the row's size

QString dashIfEmpty(const std::string &s)
{
    return s.empty() ? QStringLiteral("—") : toQString(s);
}

} // namespace

RuntimeMemoryView::RuntimeMemoryView(QWidget *parent)
    : QWidget(parent, Qt::Window), m_summary(new QLabel(this)), m_allocator(new QComboBox(this)),
      m_plot(new QCustomPlot(this)), m_parts(new QTreeWidget(this)), m_table(new QTreeWidget(this))
{
    setWindowTitle(tr("Runtime Memory — BufferScope"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *pick = new QLabel(tr("&Allocator:"), this);
    pick->setBuddy(m_allocator);
    m_allocator->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_allocator->setToolTip(tr("The allocator (a GPU's BFC allocator, a host allocator, a TPU's "
                               "memory by device number) whose events are shown"));
    connect(m_allocator, &QComboBox::currentIndexChanged, this, &RuntimeMemoryView::showAllocator);

    m_plot->setMinimumHeight(180);
    m_plot->xAxis->setLabel(tr("time since the capture began (ms)"));
    m_plot->yAxis->setLabel(tr("bytes in use"));
    BytesTicker::installUpright(m_plot->yAxis);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    ChartPalette::follow(m_plot, [this] { showAllocator(m_allocator->currentIndex()); });
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        if (!shown())
            return;
        QMenu menu(this);
        menu.addAction(tr("Export Chart…"), this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export Chart"),
                DialogFolders::savePath(QStringLiteral("runtime-memory.png")),
                ChartExport::fileFilters(ExportFormat::Png));
            if (path.isEmpty())
                return;
            DialogFolders::rememberSaved(path);
            QString why;
            if (!exportChart(path, ExportOptions(), &why))
                ChartExport::warnNotWritten(this, tr("Export Failed"), path, why);
        });
        menu.addAction(tr("Copy Data as CSV"), this, [this] { ChartExport::copyText(curveCsv()); });
        menu.exec(m_plot->mapToGlobal(pos));
    });

    m_parts->setColumnCount(4);
    m_parts->setHeaderLabels(
        {tr("The peak is made of"), tr("Runtime"), tr("Planned"), tr("Plan's arguments")});
    m_parts->headerItem()->setToolTip(
        1, tr("The bytes of the allocations live at the peak that this part stands for"));
    m_parts->headerItem()->setToolTip(
        2, tr("From the module's buffer assignment in the capture: for the module running at "
              "the peak, what its run allocates when it starts (output − alias + temp); for "
              "a module whose earlier runs left arrays, its outputs (output − alias)"));
    m_parts->headerItem()->setToolTip(
        3, tr("The running module's arguments (planned): on the device before it starts, so "
              "among the other parts"));
    m_parts->setRootIsDecorated(false);
    m_parts->setUniformRowHeights(true);
    m_parts->setTextElideMode(Qt::ElideMiddle);
    // The part's words take what the figures leave.
    m_parts->header()->setStretchLastSection(false);
    m_parts->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_parts->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    TableCsv::addActions(m_parts, QStringLiteral("runtime-peak-parts"));

    m_table->setColumnCount(8);
    m_table->setHeaderLabels({tr("Bytes"), tr("Requested"), tr("×"), tr("Made by"), tr("Op"),
                              tr("Region"), tr("Data type"), tr("Shape")});
    m_table->headerItem()->setToolTip(
        3, tr("The module whose run made the allocations: the PjitFunction or XLA module event "
              "of its thread around it, the thread that handed it the work (a link), or the "
              "one module with an allocation of exactly that size. Click a row to open the "
              "module with that allocation selected"));
    m_table->headerItem()->setToolTip(
        0, tr("What the allocator gave (rounded up to its granularity), each"));
    m_table->headerItem()->setToolTip(2, tr("How many live allocations have this row's figures"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSortingEnabled(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    TableCsv::addActions(m_table, QStringLiteral("runtime-live-at-peak"));
    connect(m_table, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        const QString member = item->data(3, kMemberRole).toString();
        if (!member.isEmpty())
            Q_EMIT allocationActivated(member, item->data(3, kAllocationRole).toLongLong());
    });

    auto *top = new QHBoxLayout;
    top->addWidget(pick);
    top->addWidget(m_allocator);
    top->addStretch(1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    split->addWidget(m_parts);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    resize(980, 640);
}

void RuntimeMemoryView::setReading(const QString &capture)
{
    m_capture = capture;
    m_summary->setText(tr("Reading the allocators' events of %1…").arg(capture));
    m_allocator->setEnabled(false);
}

void RuntimeMemoryView::setError(const QString &capture, const QString &error)
{
    m_capture = capture;
    m_memory.reset();
    m_allocator->clear();
    m_allocator->setEnabled(false);
    m_table->clear();
    m_parts->clear();
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->replot();
    m_summary->setText(tr("%1: %2").arg(capture, error));
}

void RuntimeMemoryView::setMemory(const QString &capture,
                                  std::shared_ptr<const RuntimeMemory> memory)
{
    m_capture = capture;
    m_memory = std::move(memory);
    {
        const QSignalBlocker quiet(m_allocator);
        m_allocator->clear();
        for (const RuntimeAllocator &a : m_memory->allocators)
            m_allocator->addItem(toQString(a.name));
    }
    m_allocator->setEnabled(m_memory->allocators.size() > 1);
    // The allocator that peaked highest first: the device's, not the host's.
    const int largest = std::max(m_memory->largest(), 0);
    m_allocator->setCurrentIndex(largest);
    showAllocator(largest);
}

const RuntimeAllocator *RuntimeMemoryView::shown() const
{
    const int i = m_allocator->currentIndex();
    if (!m_memory || i < 0 || static_cast<std::size_t>(i) >= m_memory->allocators.size())
        return nullptr;
    return &m_memory->allocators[static_cast<std::size_t>(i)];
}

QString RuntimeMemoryView::summaryText() const
{
    return m_summary->text();
}

void RuntimeMemoryView::showAllocator(int)
{
    const RuntimeAllocator *a = shown();
    if (!a)
        return;
    // The capture's path and the allocator's name are the file's text: put beside the
    // sentence, never into it through arg(), where a "%2" of theirs would be filled in.
    const QString figures = tr("%1 memory events of %n allocator(s), on the capture's clock.",
                               nullptr, static_cast<int>(m_memory->allocators.size()))
                                .arg(m_memory->events);
    const QString peakText =
        tr("peaked at %1 (heap %2, stack %3) at %4 ms, step %5, of a capacity of %6; %7 "
           "allocations and %8 deallocations. Its lifetime peak is %9.")
            .arg(humanBytesText(a->peakBytes), humanBytesText(a->heapBytes),
                 humanBytesText(a->stackBytes))
            .arg(millis(a->peakTimePs), 0, 'f', 3)
            .arg(a->peakStep)
            .arg(humanBytesText(a->capacityBytes))
            .arg(a->allocations)
            .arg(a->deallocations)
            .arg(humanBytesText(a->lifetimePeakBytes));
    m_summary->setText(m_capture + QStringLiteral(": ") + figures + QLatin1Char(' ') +
                       toQString(a->name) + QLatin1Char(' ') + peakText +
                       (a->peakParts.empty()
                            ? QString()
                            : QLatin1Char('\n') + toQString(RuntimeMemoryReport::peakSentence(
                                                      *a, m_memory->plans))));
    m_parts->clear();
    for (const RuntimeAllocator::Part &p : a->peakParts) {
        auto *row = new QTreeWidgetItem(m_parts);
        row->setText(0, toQString(p.what));
        row->setToolTip(0, plainToolTip(row->text(0)));
        bytesCell(row, 1, p.bytes);
        if (p.planned >= 0) {
            bytesCell(row, 2, p.planned);
        } else if (const RuntimeMemoryReport::PlanNote note = RuntimeMemoryReport::planNote(p);
                   !note.cell.empty()) {
            row->setText(2, toQString(note.cell));
            row->setToolTip(2, plainToolTip(toQString(note.sentence)));
        }
        if (p.arguments >= 0)
            bytesCell(row, 3, p.arguments);
    }

    m_plot->clearGraphs();
    m_plot->clearItems();
    QCPGraph *g = m_plot->addGraph();
    g->setLineStyle(QCPGraph::lsStepLeft);
    QColor line = ChartPalette::liveBytes();
    g->setPen(QPen(line, 1.5));
    line.setAlpha(50);
    g->setBrush(line);
    QVector<double> x;
    QVector<double> y;
    x.reserve(static_cast<qsizetype>(a->curve.size()));
    y.reserve(static_cast<qsizetype>(a->curve.size()));
    for (const RuntimeAllocator::Point &p : a->curve) {
        x.push_back(millis(p.timePs));
        y.push_back(static_cast<double>(p.bytes));
    }
    g->setData(x, y, true);
    auto *peak = new QCPItemStraightLine(m_plot);
    peak->setPen(QPen(ChartPalette::peakMarker(), 1, Qt::DashLine));
    peak->point1->setCoords(millis(a->peakTimePs), 0);
    peak->point2->setCoords(millis(a->peakTimePs), 1);
    auto *label = new QCPItemText(m_plot);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(millis(a->peakTimePs), 0.02);
    label->setColor(ChartPalette::peakMarker());
    label->setText(tr("peak %1 at %2 ms")
                       .arg(humanBytesText(a->peakBytes))
                       .arg(millis(a->peakTimePs), 0, 'f', 3));
    const double first = x.isEmpty() ? 0 : x.front();
    const double last = x.isEmpty() ? 1 : x.back();
    const double span = std::max(last - first, 1e-6);
    m_plot->xAxis->setRange(first - span * 0.02, last + span * 0.02);
    m_plot->yAxis->setRange(0, std::max<double>(1, static_cast<double>(a->peakBytes)) * 1.15);
    // The label reads away from the line on the side with room: right of a peak in the
    // range's first two thirds, left of one later.
    const bool late = millis(a->peakTimePs) > first + span * 0.66;
    label->setPositionAlignment((late ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    label->setPadding(late ? QMargins(0, 0, 4, 0) : QMargins(4, 0, 0, 0));
    m_plot->replot();

    m_table->setSortingEnabled(false);
    m_table->clear();
    QList<QTreeWidgetItem *> rows;
    for (const RuntimeAllocator::Row &r : a->atPeak) {
        auto *row = new RuntimeRow;
        bytesCell(row, 0, r.bytes);
        bytesCell(row, 1, r.requested);
        row->setText(2, QString::number(r.count));
        row->setData(2, kByteSortRole, qint64(r.count));
        row->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(3, r.special ? QStringLiteral("—")
                                  : toQString(RuntimeMemoryReport::madeByText(r)));
        row->setToolTip(3, plainToolTip(row->text(3)));
        // A click opens the module the row's allocations belong to (its first one known).
        for (const RuntimeAllocator::Row::Maker &m : r.madeBy)
            if (!r.special && !m.member.empty()) {
                row->setData(3, kMemberRole, toQString(m.member));
                row->setData(3, kAllocationRole, qint64(m.allocation));
                break;
            }
        row->setText(4, dashIfEmpty(r.op));
        row->setToolTip(4, plainToolTip(dashIfEmpty(r.op)));
        row->setText(5, dashIfEmpty(r.region));
        // TensorFlow's DT_INVALID is how the allocator says it did not know the type.
        if (r.dataType == "INVALID") {
            row->setText(6, QStringLiteral("—"));
            row->setToolTip(6, tr("Not known to the allocator (INVALID)"));
        } else {
            row->setText(6, dashIfEmpty(r.dataType));
        }
        row->setText(7, dashIfEmpty(r.shape));
        row->setToolTip(7, plainToolTip(dashIfEmpty(r.shape)));
        if (r.special)
            for (int c = 0; c < 8; ++c)
                row->setForeground(c, palette().color(QPalette::PlaceholderText));
        rows << row;
    }
    m_table->addTopLevelItems(rows);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::DescendingOrder);
    for (int c = 0; c < 7; ++c)
        m_table->resizeColumnToContents(c);
    m_table->setColumnWidth(3, std::min(m_table->columnWidth(3), 320));
}

std::string RuntimeMemoryView::curveCsv() const
{
    const RuntimeAllocator *a = shown();
    return a ? RuntimeMemoryReport::curveCsv(*a) : std::string();
}

bool RuntimeMemoryView::exportChart(const QString &path, const ExportOptions &options,
                                    QString *error)
{
    ExportOptions o = options;
    const RuntimeAllocator *a = shown();
    if (o.title.isNull() && a)
        o.title = tr("Bytes in use by %1 over %2").arg(toQString(a->name), m_capture);
    return ChartExport::write(
        m_plot, path, o, [this] { return curveCsv(); }, {}, error);
}

} // namespace bufferscope
