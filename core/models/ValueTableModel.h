#pragma once

#include "analysis/Categories.h"
#include "model/Dump.h"

#include <QAbstractTableModel>

#include <atomic>
#include <memory>
#include <vector>

namespace bufferscope {

/// Every value of the dump (or those a filter keeps), one row each, in ascending id until
/// sorted. Thin: reads the shared Dump. Sorting and filtering are done here, on the dump's own
/// numbers and strings, not by a QSortFilterProxyModel (which takes minutes to filter a
/// million rows).
class ValueTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        IdColumn,
        NameColumn,
        SizeColumn,
        LogicalColumn,
        ShapeColumn,
        AllocationColumn,
        KindColumn,
        CategoryColumn,
        OffsetColumn,
        StartColumn,
        EndColumn,
        OpNameColumn,
        SourceColumn,
        ColumnCount
    };

    explicit ValueTableModel(QObject *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump);
    /// What kind of memory each value is (the Category column; "—" until given, or when they
    /// are of another dump).
    void setCategories(std::shared_ptr<const ValueCategories> categories);
    const Dump *dump() const { return m_dump.get(); }
    const std::shared_ptr<const Dump> &sharedDump() const { return m_dump; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Sorts the rows by `column` (stable), keeping persistent indexes on their values. The
    /// keys are the dump's own numbers and strings: a million rows sort in well under a second.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    /// The value shown in `row`, and the row showing `value` (-1 when out of range or
    /// filtered out).
    int valueAt(int row) const;
    int rowOfValue(int value) const;

    /// Whether value `value`'s name, shape, op_name or source location ("file.py:12")
    /// contains `needle`, ignoring ASCII case. `needle` must be lower case (UTF-8). Reads the
    /// dump's strings in place: filtering a million rows builds no QString.
    static bool matches(const Dump &dump, std::uint32_t value, std::string_view needle);
    /// Which values match `needle` (one flag per value), for setFilter. Any thread; returns
    /// an empty vector when cancelled.
    static std::vector<std::uint8_t> matching(const Dump &dump, std::string_view needle,
                                              const std::atomic<bool> *cancel = nullptr);
    /// Shows only the values flagged in `keep` (from matching() on this dump), in the current
    /// order; an empty `keep` shows every value again. Resets the model.
    void setFilter(std::vector<std::uint8_t> keep);
    bool isFiltered() const { return !m_keep.empty(); }
    /// Marks the values of a picked group (MarkedRole); empty: none.
    void setMarked(const QVector<int> &values);
    /// Whether value `a` sorts before value `b` in `column`, compared on the dump's own numbers
    /// and strings (what SortRole gives, without building a QVariant per comparison: sorting
    /// a million rows makes twenty million comparisons).
    bool lessThan(int a, int b, int column) const;
    /// Whether `column` sorts on a number, and that number for `v`.
    static bool isNumeric(int column);
    std::int64_t numericKey(const Value &v, int column) const;

private:
    /// The rows shown: every value in m_order, or those m_keep flags.
    void updateRows();

    /// The category of value `v`, or kNoCategory when there are none for this dump.
    int categoryOf(std::size_t v) const;
    static constexpr int kNoCategory = -1;

    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const ValueCategories> m_categories;
    std::vector<std::uint32_t> m_order; ///< every value, in the sort order
    std::vector<std::uint8_t> m_keep;   ///< per value: shown under the filter (empty: no filter)
    std::vector<std::uint32_t> m_rows;  ///< row -> value index (those shown)
    std::vector<std::uint8_t> m_marked; ///< per value, in the picked group (empty: none)
    std::vector<std::uint32_t> m_rowOf; ///< value index -> row, kNoRow when filtered out
    static constexpr std::uint32_t kNoRow = 0xffffffffu;
};

} // namespace bufferscope
