#pragma once

#include <QStyledItemDelegate>

class QTreeView;

namespace bufferscope {

/// A tree column whose text wraps at its width, each row as tall as its longest wrapped cell: a
/// QTreeView wraps text when told to but sizes its rows for one line. The rows are measured
/// again whenever a column's width changes.
class WrapDelegate : public QStyledItemDelegate
{
public:
    /// Wraps `column` of `view` (which owns the delegate).
    static void install(QTreeView *view, int column);

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    explicit WrapDelegate(QTreeView *view);
    QTreeView *m_view;
};

} // namespace bufferscope
