#include "windows/RunDiffView.h"

#include "models/ByteSize.h"
#include "models/QtText.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"
#include "tables/WrapDelegate.h"
#include "windows/ToolWindow.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bufferscope {

namespace {

constexpr int kBeforeRole = Qt::UserRole;
constexpr int kAfterRole = Qt::UserRole + 1;
constexpr int kSortRole = Qt::UserRole + 2;

enum Column
{
    kChange,
    kFunction,
    kWhat,
    kHeldBefore,
    kHeldAfter,
    kHeldDelta,
    kPeakDelta,
    kWhy,
    kColumns
};

using Row = SortedRow<kSortRole>;

} // namespace

RunDiffView::RunDiffView(QWidget *parent)
    : QWidget(parent, Qt::Window), m_summary(new QLabel(this)), m_table(new QTreeWidget(this))
{
    setWindowTitle(tr("Two Runs Compared — BufferScope"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setColumnCount(kColumns);
    m_table->setHeaderLabels({tr("Change"), tr("Function"), tr("What changed"), tr("Held before"),
                              tr("Held after"), tr("Δ held"), tr("Δ live peak"), tr("Why")});
    m_table->headerItem()->setToolTip(kHeldDelta,
                                      tr("What the device holds while the module runs (argument "
                                         "+ output − alias + temp), after − before"));
    m_table->headerItem()->setToolTip(kWhy, tr("The comparison of the two modules, in a "
                                               "sentence: what moved the peak and what is held"));
    m_table->setRootIsDecorated(false);
    // Rows as tall as their wrapped sentences: the whole of why and what changed, never cut.
    WrapDelegate::install(m_table, kWhy);
    WrapDelegate::install(m_table, kWhat);
    m_table->setAlternatingRowColors(true);
    m_table->setSortingEnabled(true);
    m_table->header()->setStretchLastSection(true);
    TableCsv::addActions(m_table, QStringLiteral("run-diff"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    ToolWindow::addClose(this, layout);
    connect(m_table, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const QString before = item->data(0, kBeforeRole).toString();
        const QString after = item->data(0, kAfterRole).toString();
        if (!before.isEmpty() && !after.isEmpty())
            Q_EMIT compareModules(before, after);
        else if (!before.isEmpty() || !after.isEmpty())
            Q_EMIT openModule(before.isEmpty() ? after : before);
    });
    ToolWindow::fitScreen(this, QSize(1200, 600));
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
    QString text =
        tr("%1 (before) and %2 (after): %3 compiles paired, %4 unchanged, %5 changed; %6 new and "
           "%7 gone compiles; %8 functions appeared, %9 vanished.")
            .arg(before, after)
            .arg(d.pairedCompiles)
            .arg(d.unchangedCompiles)
            .arg(d.count(RunDiff::Change::Changed))
            .arg(d.count(RunDiff::Change::New))
            .arg(d.count(RunDiff::Change::Gone))
            .arg(d.appeared.size())
            .arg(d.vanished.size());
    constexpr std::size_t kNamed = 4;
    for (std::size_t k = 0; k < d.recompiled.size() && k < kNamed; ++k) {
        const RunDiff::Recompiled &r = d.recompiled[k];
        text += QLatin1Char(' ') +
                tr("%1 compiled %2× before, %3× after.")
                    .arg(toQString(r.name), QString::number(r.before), QString::number(r.after));
    }
    if (d.recompiled.size() > kNamed)
        text += QLatin1Char(' ') + tr("%1 more functions compiled another number of times.")
                                       .arg(d.recompiled.size() - kNamed);
    for (const std::string &shared : d.sharedNames)
        text += QLatin1Char(' ') + toQString(shared) + tr(": each is compared on its own.");
    // A module that could not be read is compared with nothing: said, with why (the first few).
    for (std::size_t k = 0; k < d.unreadable.size() && k < kNamed; ++k)
        text += QLatin1Char(' ') + (d.unreadable[k].after ? tr("Not read (after run): %1.")
                                                          : tr("Not read (before run): %1."))
                                       .arg(toQString(d.unreadable[k].said()));
    if (d.unreadable.size() > kNamed)
        text +=
            QLatin1Char(' ') + tr("%1 more modules not read.").arg(d.unreadable.size() - kNamed);
    text += QLatin1Char(' ') + tr("Double-click a changed compile to compare its two modules, a "
                                  "new or gone one to open it.");
    m_summary->setText(text);
    m_table->setSortingEnabled(false);
    m_table->clear();
    QList<QTreeWidgetItem *> rows;
    for (const RunDiff::Row &c : d.rows) {
        auto *row = new Row;
        const QString change = c.change == RunDiff::Change::New    ? tr("new")
                               : c.change == RunDiff::Change::Gone ? tr("gone")
                                                                   : tr("changed");
        row->setText(kChange, change);
        // In the order RunDiff gives (the largest |Δ held| first) until a header is clicked.
        row->setData(kChange, kSortRole, qint64(rows.size()));
        row->setText(kFunction, toQString(c.name));
        row->setToolTip(
            kFunction,
            plainToolTip(
                toQString(c.name + " " + c.signature) +
                (c.renamedFrom.empty()
                     ? QString()
                     : QLatin1Char('\n') + tr("renamed from %1").arg(toQString(c.renamedFrom)))));
        const QString what =
            c.renamedFrom.empty()
                ? toQString(c.whatChanged)
                : tr("renamed from %1; %2").arg(toQString(c.renamedFrom), toQString(c.whatChanged));
        row->setText(kWhat, what);
        row->setToolTip(kWhat, plainToolTip(what + QLatin1Char('\n') + toQString(c.signature)));
        row->setData(0, kBeforeRole, toQString(c.beforeFile));
        row->setData(0, kAfterRole, toQString(c.afterFile));
        const auto bytes = [row](int column, qint64 value, const QString &shown) {
            row->setText(column, shown);
            row->setData(column, kSortRole, value);
            row->setToolTip(column, tr("%1 bytes").arg(value));
            row->setTextAlignment(column, Qt::AlignRight | Qt::AlignTop);
        };
        bytes(kHeldBefore, c.heldBefore,
              c.before.empty() ? QStringLiteral("—") : humanBytesText(c.heldBefore));
        bytes(kHeldAfter, c.heldAfter,
              c.after.empty() ? QStringLiteral("—") : humanBytesText(c.heldAfter));
        bytes(kHeldDelta, c.heldDelta(), signedBytesText(c.heldDelta()));
        bytes(kPeakDelta, c.peakDelta(), signedBytesText(c.peakDelta()));
        const QString why = toQString(c.change == RunDiff::Change::Changed && !c.comparison.ok
                                          ? c.comparison.notCompared()
                                          : c.comparison.cause);
        row->setText(kWhy, why);
        row->setToolTip(kWhy, plainToolTip(why + (c.comparison.causeText.empty()
                                                      ? QString()
                                                      : QStringLiteral("\n\n") +
                                                            toQString(c.comparison.causeText))));
        for (int column : {kChange, kFunction, kWhat, kWhy})
            row->setTextAlignment(column, Qt::AlignLeft | Qt::AlignTop);
        rows << row;
    }
    m_table->addTopLevelItems(rows);
    m_table->sortByColumn(kChange, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->header()->setSortIndicator(kChange, Qt::AscendingOrder);
    // After the sort indicator: a header's width counts it ("Change" was cut to "Chang").
    for (int column = 0; column < kWhy; ++column)
        m_table->resizeColumnToContents(column);
    m_table->setColumnWidth(kFunction, std::min(m_table->columnWidth(kFunction), 240));
    m_table->setColumnWidth(kWhat, std::min(m_table->columnWidth(kWhat), 300));
}

} // namespace bufferscope
