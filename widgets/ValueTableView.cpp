#include "ValueTableView.h"

#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"
#include "util/BackgroundThread.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QTableView>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

namespace bufferscope {

ValueTableView::ValueTableView(ValueTableModel *model, Selection *selection, QWidget *parent)
    : QWidget(parent), m_model(model), m_selection(selection)
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
        applyFilter();
    });

    m_table = new QTableView(this);
    m_table->setModel(model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ValueTableModel::IdColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);

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
                if (current.isValid() && !m_filtering)
                    m_selection->setCurrentValue(current.data(ValueIndexRole).toInt());
            });
    connect(m_selection, &Selection::currentValueChanged, this, &ValueTableView::showValue);
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        if (m_filtering)
            return; // the filter's own reset
        // Another dump: columns to its contents, and the filter typed so far applies to it.
        m_table->resizeColumnsToContents();
        if (!m_filter->text().trimmed().isEmpty())
            applyFilter();
        else
            m_count->clear();
    });
}

ValueTableView::~ValueTableView()
{
    if (m_pending)
        m_pending->store(true);
}

QString ValueTableView::countText() const
{
    return m_count->text();
}

void ValueTableView::applyFilter()
{
    if (m_pending)
        m_pending->store(true); // the newest filter wins
    m_pending.reset();
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
    // Big dumps match on a worker; the result is dropped when a newer filter or another dump
    // came meanwhile.
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_pending = cancel;
    m_count->setText(tr("filtering…"));
    std::shared_ptr<const Dump> shared = m_model->sharedDump();
    QPointer<ValueTableView> self(this);
    QThreadPool::globalInstance()->start([self, cancel, shared, needle] {
        markBackgroundThread();
        std::vector<std::uint8_t> keep = ValueTableModel::matching(*shared, needle, cancel.get());
        if (cancel->load())
            return;
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, cancel, shared, keep = std::move(keep)]() mutable {
                if (!self || cancel->load() || self->m_pending != cancel ||
                    self->m_model->dump() != shared.get())
                    return;
                self->m_pending.reset();
                self->adoptFilter(std::move(keep));
            },
            Qt::QueuedConnection);
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
    Q_EMIT filterApplied();
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
