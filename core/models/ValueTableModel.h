#pragma once

#include "model/Dump.h"

#include <QAbstractTableModel>

#include <memory>

namespace bufferscope {

/// Every value of the dump, one row each, in ascending id. Thin: reads the shared Dump.
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
        OffsetColumn,
        StartColumn,
        EndColumn,
        OpNameColumn,
        SourceColumn,
        ColumnCount
    };

    explicit ValueTableModel(QObject *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump);
    const Dump *dump() const { return m_dump.get(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Sorts the rows by `column` (stable), keeping persistent indexes on their values. The
    /// keys are the dump's own numbers and strings: a million rows sort in well under a second.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    /// The value shown in `row`, and the row showing `value` (-1 when out of range).
    int valueAt(int row) const;
    int rowOfValue(int value) const;

    /// Whether row `row`'s name, shape, op_name or source location ("file.py:12") contains
    /// `needle`, ignoring ASCII case. `needle` must be lower case (UTF-8). Reads the dump's
    /// strings in place: filtering a million rows builds no QString.
    bool matches(int row, std::string_view needle) const;
    /// Whether value `a` sorts before value `b` in `column`, compared on the dump's own numbers
    /// and strings (what SortRole gives, without building a QVariant per comparison: sorting
    /// a million rows makes twenty million comparisons).
    bool lessThan(int a, int b, int column) const;

private:
    std::shared_ptr<const Dump> m_dump;
    std::vector<std::uint32_t> m_order; ///< row -> value index
    std::vector<std::uint32_t> m_rowOf; ///< value index -> row
};

} // namespace bufferscope
