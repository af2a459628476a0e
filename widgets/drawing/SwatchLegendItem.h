#pragma once

#include <qcustomplot.h>

namespace bufferscope {

/// A legend entry that is just a colour swatch and a label: box views draw every kind with one
/// plottable, so their legend lists colours, not plottables.
class SwatchLegendItem : public QCPAbstractLegendItem
{
    Q_OBJECT
public:
    SwatchLegendItem(QCPLegend *legend, const QColor &colour, const QString &text);

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    QColor m_colour;
    QString m_text;
};

} // namespace bufferscope
