#pragma once

#include "drawing/ChartPalette.h"
#include "models/Roles.h"

#include <QPainter>
#include <QStyledItemDelegate>

namespace bufferscope {

/// Tints the rows a model marks (MarkedRole) in the selection's colour: the steps where the
/// selected value is used or held, the values of a picked group.
class MarkedRowDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        if (index.data(MarkedRole).toBool() && !(option.state & QStyle::State_Selected)) {
            QColor tint = ChartPalette::highlight();
            tint.setAlpha(45);
            painter->fillRect(option.rect, tint);
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

} // namespace bufferscope
