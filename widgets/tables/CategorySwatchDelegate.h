#pragma once

#include "analysis/Categories.h"
#include "drawing/ChartPalette.h"
#include "tables/MarkedRowDelegate.h"

namespace bufferscope {

/// A Category column's cells with the category's swatch before its name, the colours of the
/// Categories view's key; marked rows tinted as everywhere (MarkedRowDelegate).
class CategorySwatchDelegate : public MarkedRowDelegate
{
public:
    using MarkedRowDelegate::MarkedRowDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        MarkedRowDelegate::initStyleOption(option, index);
        const QString text = index.data(Qt::DisplayRole).toString();
        for (std::size_t c = 0; c < kCategoryCount; ++c) {
            const auto category = static_cast<Category>(c);
            if (text == QLatin1String(categoryTitle(category).data(),
                                      static_cast<qsizetype>(categoryTitle(category).size()))) {
                option->features |= QStyleOptionViewItem::HasDecoration;
                option->icon = ChartPalette::categorySwatch(category);
                option->decorationSize = QSize(12, 12);
                return;
            }
        }
    }
};

} // namespace bufferscope
