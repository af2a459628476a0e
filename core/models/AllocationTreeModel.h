#pragma once

#include "analysis/Categories.h"
#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"

#include <QAbstractItemModel>

#include <memory>

namespace bufferscope {

/// Allocations at the top level, their values as children.
class AllocationTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        SizeColumn,
        CategoryColumn, ///< beside the size: the dock is narrow
        KindColumn,
        OffsetColumn,
        LiveColumn,
        ColumnCount
    };

    explicit AllocationTreeModel(QObject *parent = nullptr);

    /// `usage` (largest live bytes per allocation) may be empty; it must outlive the model's use.
    void setDump(std::shared_ptr<const Dump> dump, std::vector<AllocationUsage> usage = {});

    /// What kind of memory each allocation and value is (the Category column: an
    /// allocation's is the category holding most of its bytes); "—" until given.
    void setCategories(std::shared_ptr<const ValueCategories> categories);

    /// The row of a value (child of its allocation); invalid for unallocated values.
    QModelIndex indexOfValue(int value, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    static constexpr quintptr kTopLevel = ~quintptr(0);
    /// The categories, when they are of this dump.
    const ValueCategories *categories() const;

    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const ValueCategories> m_categories;
    std::vector<AllocationUsage> m_usage;
    std::vector<int> m_rowInAllocation; ///< per value: its row under its allocation
};

} // namespace bufferscope
