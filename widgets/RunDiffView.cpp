#include "RunDiffView.h"

#include "SortedRow.h"
#include "TableCsv.h"
#include "models/ByteSize.h"
#include "models/QtText.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bufferscope {

namespace {

constexpr int kBeforeRole = Qt::UserRole;
constexpr int kAfterRole = Qt::UserRole + 1;
constexpr int kSortRole = Qt::UserRole + 2;

using Row = SortedRow<kSortRole>;

QString signedBytes(qint64 bytes)
{
    return bytes == 0 ? QStringLiteral("±0B")
                      : (bytes > 0 ? QStringLiteral("+") : QStringLiteral("-")) +
                            humanBytesText(bytes > 0 ? bytes : -bytes);
}

} // namespace

RunDiffView::RunDiffView(QWidget *parent)
    : QWidget(parent, Qt::Window), m_summary(new QLabel(this)), m_table(new QTreeWidget(this))
{
    setWindowTitle(tr("Two Runs Compared — BufferScope"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setHeaderLabels({tr("Function"), tr("What changed"), tr("Held before"),
                              tr("Held after"), tr("Δ held"), tr("Δ live peak"), tr("Why")});
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSortingEnabled(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    TableCsv::addActions(m_table, QStringLiteral("run-diff"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const QString before = item->data(0, kBeforeRole).toString();
        const QString after = item->data(0, kAfterRole).toString();
        if (!before.isEmpty() && !after.isEmpty())
            Q_EMIT compareModules(before, after);
    });
    resize(1100, 560);
}

void RunDiffView::setReading(const QString &what)
{
    m_summary->setText(what);
}

QString RunDiffView::summaryText() const
{
    return m_summary->text();
}

void RunDiffView::setDiff(const RunDiff &d, const QString &before, const QString &after)
{
    m_summary->setText(
        tr("%1 (before) and %2 (after): %3 compiles paired, %4 unchanged, %5 changed; %6 "
           "functions appeared, %7 vanished, %8 compiled another number of times. Double-click a "
           "changed compile to compare its two modules.")
            .arg(before, after)
            .arg(d.pairedCompiles)
            .arg(d.unchangedCompiles)
            .arg(d.changed.size())
            .arg(d.appeared.size())
            .arg(d.vanished.size())
            .arg(d.recompiled.size()));
    m_table->setSortingEnabled(false);
    m_table->clear();
    QList<QTreeWidgetItem *> rows;
    const auto add = [&rows](const std::string &name, const QString &what) {
        auto *row = new Row;
        row->setText(0, toQString(name));
        row->setToolTip(0, plainToolTip(toQString(name)));
        row->setText(1, what);
        rows << row;
        return row;
    };
    for (const std::string &n : d.appeared)
        add(n, tr("appeared"));
    for (const std::string &n : d.vanished)
        add(n, tr("vanished"));
    for (const RunDiff::Recompiled &r : d.recompiled)
        add(r.name, tr("compiled %1× before, %2× after").arg(r.before).arg(r.after));
    for (const RunDiff::Changed &c : d.changed) {
        QTreeWidgetItem *row = add(
            c.name,
            c.renamedFrom.empty()
                ? toQString(c.signature)
                : tr("renamed from %1; %2").arg(toQString(c.renamedFrom), toQString(c.signature)));
        row->setToolTip(1, plainToolTip(row->text(1)));
        row->setData(0, kBeforeRole, toQString(c.beforeFile));
        row->setData(0, kAfterRole, toQString(c.afterFile));
        row->setText(2, humanBytesText(c.heldBefore));
        row->setData(2, kSortRole, qint64(c.heldBefore));
        row->setText(3, humanBytesText(c.heldAfter));
        row->setData(3, kSortRole, qint64(c.heldAfter));
        row->setText(4, signedBytes(c.heldDelta()));
        row->setToolTip(4, tr("%1 bytes").arg(c.heldDelta()));
        row->setData(4, kSortRole, qint64(c.heldDelta()));
        row->setText(5, signedBytes(c.peakDelta()));
        row->setToolTip(5, tr("%1 bytes").arg(c.peakDelta()));
        row->setData(5, kSortRole, qint64(c.peakDelta()));
        for (int column = 2; column <= 5; ++column)
            row->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(6, toQString(c.comparison.cause));
        row->setToolTip(6, plainToolTip(toQString(c.comparison.cause)));
    }
    m_table->addTopLevelItems(rows);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(4, Qt::DescendingOrder); // what grew most first
    for (int column = 0; column < 6; ++column)
        m_table->resizeColumnToContents(column);
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), 280));
    m_table->setColumnWidth(1, std::min(m_table->columnWidth(1), 280));
}

} // namespace bufferscope
