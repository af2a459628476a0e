#include "ValueTableView.h"

#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace bufferscope {

namespace {

/// Filters with the model's matches() (name, op_name, source, shape); sorting is the model's.
class ValueFilterProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setNeedle(const QString &needle)
    {
        m_needle = needle.trimmed().toLower().toStdString();
        invalidateRowsFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        if (m_needle.empty() || parent.isValid())
            return true;
        return static_cast<ValueTableModel *>(sourceModel())->matches(row, m_needle);
    }

public:
    /// The source model sorts itself (on the dump's own keys, fast); the proxy keeps its order.
    void sort(int column, Qt::SortOrder order) override { sourceModel()->sort(column, order); }

private:
    std::string m_needle;
};

} // namespace

ValueTableView::ValueTableView(ValueTableModel *model, Selection *selection, QWidget *parent)
    : QWidget(parent), m_model(model), m_selection(selection)
{
    auto *proxy = new ValueFilterProxy(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(SortRole);
    m_proxy = proxy;

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name, op_name, source or shape"));
    m_filter->setClearButtonEnabled(true);
    // Typing refilters once the keys stop for a moment (a million rows take a while); Enter
    // applies at once.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(180);
    // Filtering moves the table's current row; that must not select another value.
    const auto applyFilter = [this, proxy] {
        m_filtering = true;
        proxy->setNeedle(m_filter->text());
        m_filtering = false;
        showValue(m_selection->currentValue());
    };
    connect(debounce, &QTimer::timeout, this, applyFilter);
    connect(m_filter, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(m_filter, &QLineEdit::returnPressed, this, [debounce, applyFilter] {
        debounce->stop();
        applyFilter();
    });

    m_table = new QTableView(this);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ValueTableModel::IdColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Column widths from the visible rows and a sample, not from a thousand rows of a
    // million-value dump on every load.
    m_table->verticalHeader()->setResizeContentsPrecision(100);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_table);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && !m_filtering)
                    m_selection->setCurrentValue(current.data(ValueIndexRole).toInt());
            });
    connect(m_selection, &Selection::currentValueChanged, this, &ValueTableView::showValue);
    connect(model, &QAbstractItemModel::modelReset, this,
            [this] { m_table->resizeColumnsToContents(); });
}

void ValueTableView::showValue(int value)
{
    if (value < 0 || value >= m_model->rowCount()) {
        m_table->clearSelection();
        return;
    }
    const QModelIndex source = m_model->index(m_model->rowOfValue(value), 0);
    const QModelIndex proxied = m_proxy->mapFromSource(source);
    if (!proxied.isValid())
        return; // filtered out: leave the filter as the user set it
    if (m_table->currentIndex().row() != proxied.row())
        m_table->selectionModel()->setCurrentIndex(proxied, QItemSelectionModel::ClearAndSelect |
                                                                QItemSelectionModel::Rows);
    m_table->scrollTo(proxied);
}

} // namespace bufferscope
