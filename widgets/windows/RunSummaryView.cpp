#include "windows/RunSummaryView.h"

#include "drawing/ChartPalette.h"
#include "model/ModuleNames.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"
#include "windows/ToolWindow.h"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace bufferscope {

namespace {

constexpr int kFileRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;
constexpr std::size_t kNotesShown = 3; ///< shared-name notes in the summary's text

using Row = SortedRow<kSortRole>;

QTreeWidget *table(QWidget *parent, const QStringList &headers, const QString &csvName)
{
    auto *t = new QTreeWidget(parent);
    t->setColumnCount(static_cast<int>(headers.size()));
    t->setHeaderLabels(headers);
    t->setRootIsDecorated(false);
    t->setUniformRowHeights(true);
    t->setAlternatingRowColors(true);
    t->setSortingEnabled(true);
    t->setTextElideMode(Qt::ElideMiddle);
    TableCsv::addActions(t, csvName);
    return t;
}

void sized(QTreeWidgetItem *item, int column, qint64 bytes)
{
    item->setText(column, bytes >= 0 ? humanBytesText(bytes) : QStringLiteral("—"));
    item->setToolTip(column, QObject::tr("%1 bytes").arg(bytes));
    item->setData(column, kSortRole, bytes);
    item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
}

/// A module's held bytes by category, the most first: the three largest in the cell (with
/// the first's swatch), every one in the tooltip; sorted by the largest's bytes.
void kinds(QTreeWidgetItem *item, int column, const RunSummary::Module &m)
{
    if (!m.categorized) {
        item->setText(column, QStringLiteral("—"));
        item->setData(column, kSortRole, qint64(-1));
        return;
    }
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < kCategoryCount; ++c)
        if (m.categoryHeld[c] > 0)
            order.push_back(c);
    std::stable_sort(order.begin(), order.end(), [&m](std::size_t x, std::size_t y) {
        return m.categoryHeld[x] > m.categoryHeld[y];
    });
    QString text;
    QString tip;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const QString part =
            QStringLiteral("%1 %2").arg(toQString(categoryTitle(static_cast<Category>(order[k]))),
                                        humanBytesText(m.categoryHeld[order[k]]));
        if (k < 3)
            text += (k ? QStringLiteral(" · ") : QString()) + part;
        tip += part + QLatin1Char('\n');
    }
    if (order.size() > 3)
        text += QStringLiteral(" · …");
    item->setText(column, text);
    item->setToolTip(column, tip.trimmed());
    if (!order.empty())
        item->setIcon(column, ChartPalette::categorySwatch(static_cast<Category>(order[0])));
    item->setData(column, kSortRole, qint64(order.empty() ? 0 : m.categoryHeld[order[0]]));
}

} // namespace

RunSummaryView::RunSummaryView(QWidget *parent)
    : QWidget(parent, Qt::Window), m_summary(new QLabel(this)), m_tabs(new QTabWidget(this)),
      m_functions(
          table(this,
                {tr("Function"), tr("Compiles"), tr("Holds at most"), tr("Holds in all"),
                 tr("Live peak"), tr("Kind of memory (largest compile)"), tr("Why compiled again")},
                QStringLiteral("run-functions"))),
      m_collectives(table(this,
                          {tr("Bytes"), tr("Opcode"), tr("Instruction"), tr("Function"),
                           tr("Module"), tr("Source")},
                          QStringLiteral("run-collectives"))),
      m_modules(table(this, {tr("Module"), tr("Holds"), tr("Live peak"), tr("Signature from")},
                      QStringLiteral("run-modules")))
{
    setWindowTitle(tr("Run Summary — BufferScope"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tabs->addTab(m_functions, tr("Functions"));
    m_tabs->addTab(m_collectives, tr("Collectives"));
    m_tabs->addTab(m_modules, tr("Largest modules"));
    m_functions->headerItem()->setToolTip(
        2, tr("What the device holds while its largest compile runs: argument + output - alias "
              "+ temp"));
    m_functions->headerItem()->setToolTip(
        5, tr("What its largest compile holds while it runs, by kind of memory (the Categories "
              "view's categories), the most first"));
    m_functions->headerItem()->setToolTip(6, tr("What differs between its compiles' ENTRY "
                                                "signatures (their arguments' shapes)"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
    ToolWindow::addClose(this, layout);
    for (QTreeWidget *t : {m_functions, m_collectives, m_modules})
        connect(t, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
            const QString file = item->data(0, kFileRole).toString();
            if (!file.isEmpty())
                Q_EMIT moduleActivated(file);
        });
    ToolWindow::fitScreen(this, QSize(1100, 620));
}

void RunSummaryView::setReading(int done, int total)
{
    m_summary->setText(tr("Reading the run's modules: %1 of %2…").arg(done).arg(total));
}

QString RunSummaryView::summaryText() const
{
    return m_summary->text();
}

void RunSummaryView::setSummary(const RunSummary &s, const QString &folder)
{
    std::size_t unreadable = 0;
    for (const RunSummary::Module &m : s.modules)
        unreadable += !m.read;
    m_summary->setText(
        tr("%1: %2 modules of %3 functions%4. Held: argument + output - alias + temp, what the "
           "device holds while a module runs. Double-click a row to open its module; right-click "
           "a table to copy or save it as CSV.%5")
            .arg(folder)
            .arg(s.modules.size())
            .arg(s.families.size())
            .arg((unreadable ? tr(", %1 unreadable").arg(unreadable) : QString()) +
                 (s.skipped.empty() ? QString()
                                    : tr(", %n files skipped (see the tooltip)", nullptr,
                                         static_cast<int>(s.skipped.size()))))
            .arg([&s] {
                // A few notes in the text, every one in its tooltip: a run of many shared
                // names made the window taller than the screen.
                QString notes;
                for (std::size_t i = 0; i < s.sharedNames.size() && i < kNotesShown; ++i)
                    notes += QLatin1Char(' ') + toQString(s.sharedNames[i]) + QLatin1Char('.');
                if (s.sharedNames.size() > kNotesShown)
                    notes += QLatin1Char(' ') +
                             tr("%n more functions share a name (see the tooltip).", nullptr,
                                static_cast<int>(s.sharedNames.size() - kNotesShown));
                return notes;
            }()));
    QString allNotes;
    for (const std::string &shared : s.sharedNames)
        allNotes += toQString(shared) + QLatin1Char('\n');
    for (const RunSummary::Skipped &k : s.skipped)
        allNotes +=
            tr("skipped: %1: %2").arg(toQString(k.path), toQString(k.why)) + QLatin1Char('\n');
    m_summary->setToolTip(plainToolTip(allNotes.trimmed()));
    for (QTreeWidget *t : {m_functions, m_collectives, m_modules}) {
        t->setSortingEnabled(false);
        t->clear();
    }
    QList<QTreeWidgetItem *> rows;
    for (const RunSummary::Family &f : s.families) {
        auto *row = new Row;
        row->setText(0, toQString(f.label));
        row->setToolTip(0, plainToolTip(toQString(f.label)));
        row->setData(0, kFileRole, toQString(s.modules[f.largest].file));
        row->setText(1, QString::number(f.modules.size()));
        row->setData(1, kSortRole, qint64(f.modules.size()));
        row->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        sized(row, 2, f.heldMax);
        sized(row, 3, f.heldSum);
        sized(row, 4, f.peakMax);
        kinds(row, 5, s.modules[f.largest]);
        row->setText(6, toQString(f.why));
        row->setToolTip(6, plainToolTip(toQString(f.why)));
        rows << row;
    }
    m_functions->addTopLevelItems(rows);
    rows.clear();
    for (const RunSummary::CollectiveRow &c : s.collectives) {
        const RunSummary::Module &m = s.modules[c.module];
        auto *row = new Row;
        sized(row, 0, c.collective.bytes);
        row->setData(0, kFileRole, toQString(m.file));
        row->setText(1, toQString(c.collective.opcode));
        row->setText(2, toQString(c.collective.instruction));
        row->setToolTip(2, plainToolTip(toQString(c.collective.shape)));
        row->setText(3, toQString(m.function));
        row->setText(4, toQString(ModuleNames::shortNameOfStem(m.name)));
        row->setToolTip(4, plainToolTip(toQString(m.name)));
        row->setText(5, toQString(c.collective.source));
        row->setToolTip(5, plainToolTip(toQString(c.collective.source)));
        rows << row;
    }
    m_collectives->addTopLevelItems(rows);
    rows.clear();
    for (const RunSummary::Module &m : s.modules) {
        if (!m.read)
            continue;
        auto *row = new Row;
        row->setText(0, toQString(ModuleNames::shortNameOfStem(m.name)));
        row->setToolTip(0, plainToolTip(toQString(m.file)));
        row->setData(0, kFileRole, toQString(m.file));
        sized(row, 1, m.held);
        sized(row, 2, m.livePeak);
        row->setText(3, toQString(m.signatureFrom));
        rows << row;
    }
    m_modules->addTopLevelItems(rows);
    m_functions->sortByColumn(2, Qt::DescendingOrder);
    m_collectives->sortByColumn(0, Qt::DescendingOrder);
    m_modules->sortByColumn(1, Qt::DescendingOrder);
    for (QTreeWidget *t : {m_functions, m_collectives, m_modules}) {
        t->setSortingEnabled(true);
        for (int c = 1; c < t->columnCount(); ++c)
            t->resizeColumnToContents(c);
    }
    // The name columns as wide as their names, up to a bound (the Module column stayed at its
    // 100-pixel default, cutting every name).
    for (QTreeWidget *t : {m_functions, m_modules}) {
        t->resizeColumnToContents(0);
        t->setColumnWidth(0, std::min(t->columnWidth(0), 420));
    }
}

} // namespace bufferscope
