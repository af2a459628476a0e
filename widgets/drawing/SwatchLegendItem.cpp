#include "drawing/SwatchLegendItem.h"

namespace bufferscope {

SwatchLegendItem::SwatchLegendItem(QCPLegend *legend, const QColor &colour, const QString &text)
    : QCPAbstractLegendItem(legend), m_colour(colour), m_text(text)
{
    setSelectable(false);
}

void SwatchLegendItem::draw(QCPPainter *painter)
{
    const QSize icon = mParentLegend->iconSize();
    const QRect r = mRect;
    const QRectF swatch(r.left(), r.top() + (r.height() - icon.height()) / 2.0, icon.width(),
                        icon.height());
    painter->setAntialiasing(false);
    painter->fillRect(swatch.adjusted(1, 2, -1, -2), m_colour);
    painter->setFont(mParentLegend->font());
    painter->setPen(QPen(mParentLegend->textColor()));
    painter->drawText(
        QRectF(swatch.right() + mParentLegend->iconTextPadding(), r.top(), r.width(), r.height()),
        Qt::AlignLeft | Qt::AlignVCenter, m_text);
}

QSize SwatchLegendItem::minimumOuterSizeHint() const
{
    const QFontMetrics metrics(mParentLegend->font());
    const QSize icon = mParentLegend->iconSize();
    const QSize text = metrics.size(0, m_text);
    return QSize(icon.width() + mParentLegend->iconTextPadding() + text.width() + mMargins.left() +
                     mMargins.right(),
                 std::max(icon.height(), text.height()) + mMargins.top() + mMargins.bottom());
}

} // namespace bufferscope
