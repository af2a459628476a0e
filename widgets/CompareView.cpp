#include "CompareView.h"

#include "BytesTicker.h"
#include "ChartPalette.h"
#include "JobRunner.h"
#include "models/QtText.h"
#include "models/ValueChangeModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <spdlog/spdlog.h>

namespace bufferscope {

namespace {

/// A table cell that sorts by `sortKey` (bytes) and shows `text`.
QTableWidgetItem *cell(const QString &text, qint64 sortKey, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, sortKey);
    item->setToolTip(number ? QObject::tr("%1 bytes").arg(sortKey) : text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

QTableWidget *makeTable(QWidget *parent, const QStringList &headers)
{
    auto *t = new QTableWidget(parent);
    t->setColumnCount(static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->setAlternatingRowColors(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

} // namespace

CompareView::CompareView(JobRunner *jobs, QWidget *parent, Qt::WindowFlags flags)
    : QWidget(parent, flags), m_jobs(jobs), m_summary(new QLabel(this)),
      m_plot(new QCustomPlot(this)), m_tabs(new QTabWidget(this))
{
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_byOpName = makeTable(this, {tr("Δ bytes"), tr("before"), tr("after"), tr("op_name")});
    m_bySource = makeTable(this, {tr("Δ bytes"), tr("before"), tr("after"), tr("source")});
    // A model over the diff, not an item per cell: two million-value dumps can differ in
    // every value.
    m_valueChanges = new ValueChangeModel(this);
    m_values = new QTableView(this);
    m_values->setModel(m_valueChanges);
    m_values->verticalHeader()->hide();
    m_values->verticalHeader()->setDefaultSectionSize(m_values->fontMetrics().height() + 6);
    m_values->setAlternatingRowColors(true);
    m_values->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_values->horizontalHeader()->setStretchLastSection(true);
    m_values->setWordWrap(false);
    m_values->setSortingEnabled(true);
    m_values->verticalHeader()->setResizeContentsPrecision(100);
    m_values->setToolTip(tr("Click a row to select the value in the main window"));
    connect(m_values, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        if (!m_diff || !index.isValid())
            return;
        const ValueChange &c = m_valueChanges->changeAt(index.row());
        Q_EMIT valuePicked(c.before.value == kNone ? -1 : static_cast<int>(c.before.value),
                           toQString(c.name()));
    });
    m_tabs->addTab(m_byOpName, tr("By op_name at the peaks"));
    m_tabs->addTab(m_bySource, tr("By source at the peaks"));
    m_tabs->addTab(m_values, tr("Values"));
    m_plot->setMinimumHeight(220);
    m_plot->yAxis->setTicker(QSharedPointer<BytesTicker>::create());
    auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
    steps->setTickStep(1);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(steps);
    m_plot->xAxis->setLabel(tr("program order (step)"));
    m_plot->yAxis->setLabel(tr("live bytes"));
    m_plot->legend->setVisible(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_plot, 3);
    layout->addWidget(m_tabs, 2);
}

CompareView::~CompareView()
{
    // The other dump and a comparison of two big ones take long to free: not here.
    m_valueChanges->setDiff(nullptr);
    m_jobs->release(std::move(m_diff), std::move(m_before), std::move(m_after),
                    std::move(m_beforeTimeline), std::move(m_afterTimeline));
}

void CompareView::setDumps(std::shared_ptr<const Dump> before,
                           std::shared_ptr<const MemoryTimeline> tb, QString beforeName,
                           std::shared_ptr<const Dump> after,
                           std::shared_ptr<const MemoryTimeline> ta, QString afterName,
                           std::shared_ptr<const DumpDiff> diff)
{
    m_before = std::move(before);
    m_beforeTimeline = std::move(tb);
    m_beforeName = std::move(beforeName);
    m_after = std::move(after);
    m_afterTimeline = std::move(ta);
    m_afterName = std::move(afterName);
    m_diff = std::move(diff);
    m_summary->setText(summaryText());
    fillPlot();
    // The tables in a later turn of the event loop (a timer, not a posted call, so input and
    // painting come in between): the window shows first.
    QTimer::singleShot(1, this, [this, diff = m_diff] {
        if (diff == m_diff) {
            fillTables();
            spdlog::debug("comparison tables filled");
        }
    });
}

QString CompareView::summaryText() const
{
    if (!m_before)
        return {};
    const auto row = [](const QString &what, qint64 a, qint64 b, const QString &extra = {}) {
        return QStringLiteral(
                   "<tr><td>%1</td><td align=right>%2</td><td>→</td>"
                   "<td align=right>%3</td><td align=right><b>%4</b></td><td>%5</td></tr>")
            .arg(what, humanBytesText(a), humanBytesText(b), signedBytesText(b - a), extra);
    };
    return QStringLiteral("<b>%1</b> → <b>%2</b><table cellspacing=6>%3%4</table>%5")
        .arg(m_beforeName.toHtmlEscaped(), m_afterName.toHtmlEscaped(),
             row(tr("total"), m_diff->totalBefore, m_diff->totalAfter),
             row(tr("peak"), m_diff->peakBefore, m_diff->peakAfter,
                 tr("steps %1 → %2").arg(m_diff->peakStepBefore).arg(m_diff->peakStepAfter)),
             tr("Values matched by structure: %1 in both (%2 renamed), %3 added, %4 removed, "
                "%5 changed.")
                 .arg(m_diff->matched)
                 .arg(m_diff->renamed)
                 .arg(m_diff->added.size())
                 .arg(m_diff->removed.size())
                 .arg(m_diff->changed.size()));
}

void CompareView::fillPlot()
{
    m_plot->clearGraphs();
    const SpaceTimeline *a =
        m_beforeTimeline->space(0) ? m_beforeTimeline->space(0) : m_beforeTimeline->primary();
    const SpaceTimeline *b =
        m_afterTimeline->space(0) ? m_afterTimeline->space(0) : m_afterTimeline->primary();
    // Step-left lines: key t holds the bytes of step t; the key after a program's last step
    // repeats it (so that step is as wide as the others), and later keys are 0.
    const auto series = [](const SpaceTimeline *s, std::size_t n) {
        QVector<double> keys;
        QVector<double> values;
        const std::size_t length = s ? s->liveBytes.size() : 0;
        for (std::size_t t = 0; t <= n; ++t) {
            keys.push_back(static_cast<double>(t));
            double v = 0;
            if (t < length)
                v = static_cast<double>(s->liveBytes[t]);
            else if (t == length && length > 0)
                v = static_cast<double>(s->liveBytes[length - 1]);
            values.push_back(v);
        }
        return std::pair{keys, values};
    };
    const std::size_t n = std::max(a ? a->liveBytes.size() : 0, b ? b->liveBytes.size() : 0);
    const auto [ka, va] = series(a, n);
    const auto [kb, vb] = series(b, n);
    QCPGraph *before = m_plot->addGraph();
    before->setName(tr("before: %1").arg(m_beforeName));
    before->setLineStyle(QCPGraph::lsStepLeft);
    before->setData(ka, va, true);
    // 1 px pens without antialiasing: wider ones go through Qt's path stroker, slow on long
    // programs (the steps are axis-aligned anyway).
    before->setPen(QPen(ChartPalette::kindColor(AllocationKind::Parameter), 1));
    before->setAntialiased(false);
    QCPGraph *after = m_plot->addGraph();
    after->setName(tr("after: %1").arg(m_afterName));
    after->setLineStyle(QCPGraph::lsStepLeft);
    after->setData(kb, vb, true);
    after->setPen(QPen(ChartPalette::kindColor(AllocationKind::ThreadLocal), 1));
    after->setAntialiased(false);
    after->setAntialiasedFill(false);
    // The difference, shaded between the two curves.
    QColor shade = ChartPalette::highlight();
    shade.setAlpha(60);
    after->setBrush(shade);
    after->setChannelFillGraph(before);
    double top = 1;
    for (double v : va)
        top = std::max(top, v);
    for (double v : vb)
        top = std::max(top, v);
    m_plot->xAxis->setRange(0, std::max<double>(1, static_cast<double>(n)));
    m_plot->yAxis->setRange(0, top * 1.12);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CompareView::fillTables()
{
    const auto fillDeltas = [](QTableWidget *t, const std::vector<KeyDelta> &rows) {
        t->setSortingEnabled(false);
        t->setRowCount(static_cast<int>(rows.size()));
        for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
            const KeyDelta &d = rows[static_cast<std::size_t>(r)];
            t->setItem(r, 0, cell(signedBytesText(d.delta()), d.delta(), true));
            t->setItem(r, 1, cell(humanBytesText(d.before), d.before, true));
            t->setItem(r, 2, cell(humanBytesText(d.after), d.after, true));
            t->setItem(r, 3, cell(toQString(d.key), 0, false));
        }
        t->resizeColumnsToContents();
    };
    fillDeltas(m_byOpName, m_diff->byOpName);
    fillDeltas(m_bySource, m_diff->bySource);
    m_valueChanges->setDiff(m_diff);
    // As XLA listed them (added, removed, changed, largest first in each) until a header is
    // clicked.
    m_values->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_values->resizeColumnsToContents();
}

} // namespace bufferscope
