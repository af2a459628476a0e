#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <vector>

namespace bufferscope {

/// One axis-aligned box of a box view: a Gantt bar or a memory-map rectangle.
struct Box
{
    double x0 = 0;           ///< key: first step
    double x1 = 0;           ///< key: one past the last step
    double y0 = 0;           ///< value: top (row or byte offset)
    double y1 = 0;           ///< value: bottom (exclusive)
    std::uint32_t value = 0; ///< value index in the Dump
    std::uint8_t colour = 0; ///< index into the plottable's colours
};

/// Draws many boxes as one plottable (never one QCPItemRect per box): boxes are sorted by top
/// so drawing and hit-testing cull by binary search; boxes smaller than a pixel are folded into
/// one pixel each; antialiasing is off and brushes are cached. Reads the painter's scale, so
/// exports at 2x keep their detail.
class BoxPlottable : public QCPAbstractPlottable
{
    Q_OBJECT
public:
    BoxPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis);

    void setBoxes(std::vector<Box> boxes);
    const std::vector<Box> &boxes() const { return m_boxes; }
    /// Colours by Box::colour, filled with the brush style (call setBrushStyle first).
    void setColours(const std::vector<QColor> &colours);
    /// Solid by default; a hatch lets the boxes underneath show through (group highlights).
    void setBrushStyle(Qt::BrushStyle style) { m_brushStyle = style; }
    /// Thin borders between neighbouring boxes, so reused regions read as separate values.
    void setOutlined(bool outlined) { m_outlined = outlined; }

    /// The box under a widget pixel (the smallest when several overlap), or -1. Boxes thinner
    /// than a few pixels are hit within a small tolerance.
    int boxAt(const QPointF &pixel) const;
    /// Indices of the boxes of `value` (in Gantt order one, in stacked maps possibly more).
    std::vector<int> boxesOfValue(std::uint32_t value) const;
    /// The box in widget pixels.
    QRectF pixelRect(const Box &box) const;

    double selectTest(const QPointF &pos, bool onlySelectable,
                      QVariant *details = nullptr) const override;
    QCPRange getKeyRange(bool &foundRange,
                         QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange &inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;

private:
    /// First box whose top may reach `y` (all earlier boxes end above it).
    std::size_t firstCandidate(double y) const;

    std::vector<Box> m_boxes;   ///< sorted by y0
    std::vector<int> m_byValue; ///< box indices sorted by value, for boxesOfValue
    std::vector<QBrush> m_brushes;
    std::vector<QColor> m_borders;
    double m_maxHeight = 0;
    QCPRange m_keyRange;
    QCPRange m_valueRange;
    bool m_outlined = true;
    Qt::BrushStyle m_brushStyle = Qt::SolidPattern;
};

} // namespace bufferscope
