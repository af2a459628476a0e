#include "tables/WrapDelegate.h"

#include <QHeaderView>
#include <QTimer>
#include <QTreeView>

namespace bufferscope {

WrapDelegate::WrapDelegate(QTreeView *view) : QStyledItemDelegate(view), m_view(view) {}

void WrapDelegate::install(QTreeView *view, int column)
{
    view->setWordWrap(true);
    view->setUniformRowHeights(false);
    view->setTextElideMode(Qt::ElideNone);
    view->setItemDelegateForColumn(column, new WrapDelegate(view));
    // The rows measured again once a width changed; once for a burst of changes.
    auto *relayout = new QTimer(view);
    relayout->setSingleShot(true);
    relayout->setInterval(0);
    QObject::connect(relayout, &QTimer::timeout, view, [view] { view->doItemsLayout(); });
    QObject::connect(view->header(), &QHeaderView::sectionResized, relayout,
                     [relayout] { relayout->start(); });
}

QSize WrapDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem o = option;
    initStyleOption(&o, index);
    QSize size = QStyledItemDelegate::sizeHint(o, index);
    const int width = m_view->header()->sectionSize(index.column());
    if (width <= 0 || o.text.isEmpty())
        return size;
    // The text's margins as the style draws them, a few pixels each side.
    constexpr int kMargins = 8;
    const QRect wrapped = o.fontMetrics.boundingRect(
        QRect(0, 0, std::max(20, width - kMargins), 1 << 20), Qt::TextWordWrap, o.text);
    size.setHeight(std::max(size.height(), wrapped.height() + 4));
    return size;
}

} // namespace bufferscope
