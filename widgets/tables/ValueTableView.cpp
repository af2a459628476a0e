#include "tables/ValueTableView.h"

#include "Workspace.h"
#include "model/Dump.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"
#include "tables/CategorySwatchDelegate.h"
#include "tables/MarkedRowDelegate.h"
#include "tables/TableCsv.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace bufferscope {

ValueTableView::ValueTableView(ValueTableModel *model, Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_model(model), m_workspace(workspace), m_selection(workspace->selection()),
      m_filterLane(workspace->jobs()->newLane("value filter", JobRunner::Scope::Dump))
{
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name, op_name, source or shape"));
    m_filter->setClearButtonEnabled(true);
    m_count = new QLabel(this);
    m_count->setForegroundRole(QPalette::PlaceholderText);
    // Typing refilters once the keys stop for a moment; Enter applies at once.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(180);
    connect(debounce, &QTimer::timeout, this, &ValueTableView::applyFilter);
    connect(m_filter, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(m_filter, &QLineEdit::returnPressed, this, [this, debounce] {
        debounce->stop();
        // Find, then Enter: the first match is the one wanted (an empty filter finds nothing).
        m_selectFirst = !m_filter->text().trimmed().isEmpty();
        applyFilter();
    });
    m_filter->installEventFilter(this); // ↓ goes from the filter into the matches

    m_table = new QTableView(this);
    m_table->setModel(model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ValueTableModel::IdColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Column widths from the first rows only: measuring a thousand rows of a million-value
    // dump costs the GUI thread some 60 ms per dump.
    m_table->horizontalHeader()->setResizeContentsPrecision(100);
    m_table->setWordWrap(false);
    // Names keep their ends (fusion.28, {0}) and shapes their layouts when cut.
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setAlternatingRowColors(true);
    m_table->setItemDelegate(new MarkedRowDelegate(m_table)); // a picked group's values
    m_table->setItemDelegateForColumn(ValueTableModel::CategoryColumn,
                                      new CategorySwatchDelegate(m_table));
    TableCsv::addActions(m_table, QStringLiteral("values"));

    auto *filterRow = new QHBoxLayout;
    filterRow->setContentsMargins(0, 0, 0, 0);
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_count);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(filterRow);
    layout->addWidget(m_table);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                // Only a row the user selected (a click, the arrow keys). The view also moves
                // its current index by itself, unselected — to the first row when it gets the
                // focus without one — and that must never select a value.
                if (current.isValid() && !m_filtering &&
                    m_table->selectionModel()->isSelected(current))
                    m_selection->setCurrentValue(current.data(ValueIndexRole).toInt());
            });
    // A click on the row the view made current by itself selects it without moving the
    // current index: the selection change says so.
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndex current = m_table->selectionModel()->currentIndex();
        if (current.isValid() && !m_filtering && m_table->selectionModel()->isSelected(current))
            m_selection->setCurrentValue(current.data(ValueIndexRole).toInt());
    });
    connect(m_selection, &Selection::currentValueChanged, this, &ValueTableView::showValue);
    connect(m_selection, &Selection::highlightedGroupChanged, m_model,
            [this](const QVector<int> &values) { m_model->setMarked(values); });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        if (m_filtering)
            return; // the filter's own reset
        // Another dump: columns to its contents, and a fresh start: what was typed to find a
        // value of the last dump is not a question about this one.
        fitColumns();
        m_selectFirst = false;
        if (!m_filter->text().isEmpty()) {
            const QSignalBlocker blocker(m_filter);
            m_filter->clear();
            applyFilter();
        }
        m_count->clear();
    });
}

void ValueTableView::fitColumns()
{
    // Widths measured on the first rows (see setResizeContentsPrecision), then made to hold
    // what later rows may say: the largest id, any size, and names from 18 characters up to two
    // fifths of the view.
    m_table->resizeColumnsToContents();
    const Dump *dump = m_model->dump();
    if (!dump)
        return;
    const QFontMetrics metrics = m_table->fontMetrics();
    const int pad = 2 * m_table->style()->pixelMetric(QStyle::PM_HeaderMargin) + 12;
    const std::int64_t largestId = dump->values.empty() ? 0 : dump->values.back().id; // id order
    QHeaderView *header = m_table->horizontalHeader();
    const auto atLeast = [&](int column, const QString &text) {
        header->resizeSection(
            column, std::max(header->sectionSize(column), metrics.horizontalAdvance(text) + pad));
    };
    atLeast(ValueTableModel::IdColumn, QString::number(largestId));
    const QString size = QStringLiteral("1023.99MiB");
    atLeast(ValueTableModel::SizeColumn, size);
    atLeast(ValueTableModel::LogicalColumn, size);
    const int letter = metrics.horizontalAdvance(QLatin1Char('x'));
    header->resizeSection(ValueTableModel::NameColumn,
                          std::clamp(header->sectionSize(ValueTableModel::NameColumn), 18 * letter,
                                     std::max(28 * letter, width() * 2 / 5)));
}

bool ValueTableView::isFiltering() const
{
    return m_workspace->jobs()->isBusy(m_filterLane);
}

QString ValueTableView::countText() const
{
    return m_count->text();
}

void ValueTableView::applyFilter()
{
    m_workspace->jobs()->cancel(m_filterLane); // the newest filter wins
    const std::string needle = m_filter->text().trimmed().toLower().toStdString();
    const Dump *dump = m_model->dump();
    if (needle.empty() || !dump) {
        adoptFilter({});
        return;
    }
    if (dump->values.size() < static_cast<std::size_t>(std::max(0, m_backgroundFrom))) {
        adoptFilter(ValueTableModel::matching(*dump, needle));
        return;
    }
    // Big dumps match on a job; its result is dropped when a newer filter or another dump came
    // meanwhile.
    m_count->setText(tr("filtering…"));
    std::shared_ptr<const Dump> shared = m_model->sharedDump();
    m_workspace->jobs()->run(
        m_filterLane, this,
        [shared, needle](const JobControl &control) {
            return ValueTableModel::matching(*shared, needle, control.flag());
        },
        [this, shared](std::vector<std::uint8_t> keep) {
            if (m_model->dump() == shared.get())
                adoptFilter(std::move(keep));
        });
}

void ValueTableView::adoptFilter(std::vector<std::uint8_t> keep)
{
    // Filtering resets the rows; that must not select another value.
    m_filtering = true;
    m_model->setFilter(std::move(keep));
    m_filtering = false;
    const Dump *dump = m_model->dump();
    if (m_model->isFiltered() && dump)
        m_count->setText(tr("%L1 of %L2").arg(m_model->rowCount()).arg(dump->values.size()));
    else
        m_count->clear();
    showValue(m_selection->currentValue());
    if (m_selectFirst) {
        m_selectFirst = false;
        selectFirstRow();
    }
    Q_EMIT filterApplied();
}

void ValueTableView::selectFirstRow()
{
    if (m_model->rowCount() == 0)
        return;
    const QModelIndex first = m_table->model()->index(0, 0);
    m_table->selectionModel()->setCurrentIndex(first, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(first);
}

bool ValueTableView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Down && m_model->rowCount() > 0) {
        m_table->setFocus(Qt::OtherFocusReason);
        if (!m_table->selectionModel()->hasSelection())
            selectFirstRow();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ValueTableView::showValue(int value)
{
    if (value < 0) {
        m_table->clearSelection();
        return;
    }
    const int row = m_model->rowOfValue(value);
    if (row < 0)
        return; // filtered out: leave the filter as the user set it
    const QModelIndex index = m_model->index(row, 0);
    if (m_table->currentIndex().row() != row) {
        // Moving the current row to where the value already is selects nothing new.
        const bool wasFiltering = m_filtering;
        m_filtering = true;
        m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
        m_filtering = wasFiltering;
    }
    m_table->scrollTo(index);
}

} // namespace bufferscope
