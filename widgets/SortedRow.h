#pragma once

#include <QTreeWidget>
#include <QTreeWidgetItem>

namespace bufferscope {

/// A tree row whose columns holding a number under `SortRole` sort by it (sizes, counts,
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
            return a.toLongLong() < b.toLongLong();
        return QTreeWidgetItem::operator<(other);
    }
};

} // namespace bufferscope
