#pragma once

#include <QTableWidgetItem>
#include <QTreeWidget>
#include <QTreeWidgetItem>

namespace bufferscope {

/// A tree row whose columns holding a value under `SortRole` sort by it (sizes, counts,
/// deltas), the others by their text: "9.0KiB" after "10.0KiB" is text order, not size order.
template <int SortRole> class SortedRow : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant a = data(column, SortRole);
        const QVariant b = other.data(column, SortRole);
        if (a.isValid() && b.isValid())
            return QVariant::compare(a, b) == QPartialOrdering::Less;
        return QTreeWidgetItem::operator<(other);
    }
};

/// The same for a table's cell: by its value under `SortRole` where both have one.
template <int SortRole> class SortedCell : public QTableWidgetItem
{
public:
    using QTableWidgetItem::QTableWidgetItem;
    bool operator<(const QTableWidgetItem &other) const override
    {
        const QVariant a = data(SortRole);
        const QVariant b = other.data(SortRole);
        if (a.isValid() && b.isValid())
            return QVariant::compare(a, b) == QPartialOrdering::Less;
        return QTableWidgetItem::operator<(other);
    }
};

} // namespace bufferscope
