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

    /// Whether row `row`'s name, shape, op_name or source location ("file.py:12") contains
    /// `needle`, ignoring ASCII case. `needle` must be lower case (UTF-8). Reads the dump's
    /// strings in place: filtering a million rows builds no QString.
    bool matches(int row, std::string_view needle) const;
    /// Whether row `a` sorts before row `b` in `column`, compared on the dump's own numbers
    /// and strings (what SortRole gives, without building a QVariant per comparison: sorting
    /// a million rows makes twenty million comparisons).
    bool lessThan(int a, int b, int column) const;

private:
    std::shared_ptr<const Dump> m_dump;
};

} // namespace bufferscope
