#pragma once

#include "analysis/DumpDiff.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace bufferscope {

/// The values a comparison found added, removed or changed, one row each (added, removed, then
/// changed, as DumpDiff lists them, until sorted), or those a filter takes. A value renamed by
/// the recompile reads `fusion.27{} → fusion.28{}`. Reads the shared DumpDiff: a million changes
/// cost no item per cell, and sorting is a permutation of the rows.
class ValueChangeModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        ChangeColumn,
        DeltaColumn,
        BeforeColumn,
        AfterColumn,
        KeyColumn,
        ColumnCount
    };
    enum class Change : std::uint8_t
    {
        Added,
        Removed,
        Changed,
        LostDonation ///< a value of a parameter aliased with an output in A, not in B
    };
    /// Which rows show.
    enum class Filter : std::uint8_t
    {
        All, ///< added, removed and changed
        Added,
        Removed,
        Changed,
        Grown,
        Shrunk,
        LiveRange,
        Moved,
        LostDonation
    };

    explicit ValueChangeModel(QObject *parent = nullptr);

    void setDiff(std::shared_ptr<const DumpDiff> diff);
    /// Shows only the rows `filter` takes, in the diff's order.
    void setFilter(Filter filter);
    Filter filter() const { return m_filter; }
    /// How many rows `filter` would show.
    int countOf(Filter filter) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    /// Stable: rows that tie keep their current order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// The change shown in `row`, and what kind it is.
    const ValueChange &changeAt(int row) const;
    Change kindAt(int row) const;

private:
    struct Row
    {
        Change kind;
        std::uint32_t index; ///< into the diff's list of that kind
    };
    void fill();
    template <class Fn> void forEachRow(Filter filter, Fn fn) const;

    std::shared_ptr<const DumpDiff> m_diff;
    std::vector<Row> m_rows;
    Filter m_filter = Filter::All;
};

} // namespace bufferscope
