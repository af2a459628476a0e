#pragma once

#include "drawing/PixelFold.h"
#include "layout/BoxSet.h"

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace bufferscope {

/// Draws many boxes as one plottable (never one QCPItemRect per box), at a cost that follows
/// the pixels on screen rather than the number of values:
/// - only boxes that overlap the visible axis ranges are visited (binary search on the top,
///   a linear transform instead of per-box coordinate calls);
/// - a box at least 1.5 device pixels wide and tall is painted as its own rectangle;
/// - every other box is folded: it adds its colour to the pixels it covers (a column for a
///   narrow box, a row for a flat one, one pixel for a tiny one) and is counted once, at its
///   first pixel. Each pixel column is then cut into runs of one colour, painted through one
///   image: a run's colour is the count-weighted mix of what covers it and its opacity grows
///   with how many values overlap there. Nothing is dropped, and the last frame's
///   bookkeeping (lastFrame()) lets tests check that.
/// Reads the painter's scale, so exports at 2x keep their detail.
class BoxPlottable : public QCPAbstractPlottable
{
    Q_OBJECT
public:
    /// A vertical run of folded pixels in one column, in device pixels of the last frame.
    using FoldedRun = PixelFold::Run;
    /// What the last draw did with the boxes in view.
    struct Frame
    {
        std::size_t visible = 0; ///< boxes overlapping the visible ranges
        std::size_t own = 0;     ///< of those, painted as their own rectangle
        std::size_t folded = 0;  ///< of those, folded (the sum of the runs' counts)
        /// With setRecording(true): the folded runs (a picture at 3840 × 2160 has millions),
        /// the values painted as their own box, and those folded.
        std::vector<FoldedRun> runs;
        std::vector<std::uint32_t> ownValues;
        std::vector<std::uint32_t> foldedValues;
    };

    BoxPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis);

    void setBoxes(std::vector<Box> boxes);
    /// Adopts boxes built elsewhere (e.g. on the loader thread).
    void setBoxSet(std::shared_ptr<const BoxSet> set);
    const std::vector<Box> &boxes() const { return m_set->boxes(); }
    const std::shared_ptr<const BoxSet> &boxSet() const { return m_set; }
    /// Colours by Box::colour, each box filled solid.
    void setColours(const std::vector<QColor> &colours);
    /// Thin borders between neighbouring boxes, so reused regions read as separate values.
    void setOutlined(bool outlined) { m_outlined = outlined; }
    /// A pen drawn around every box (highlights). Qt::NoPen (the default) draws none.
    void setOutlinePen(const QPen &pen) { m_outlinePen = pen; }
    /// 0 (the default): small boxes are folded. Otherwise no box is folded and each is drawn
    /// at least this many device pixels wide and tall, centred on where it is: for the few
    /// boxes of a highlight, which must stay visible at any zoom.
    void setMinimumPixelSize(double pixels)
    {
        m_minimumPixels = pixels;
        m_minimumAcross = pixels;
    }
    /// The same along the key axis (time) only; across it (rows, offsets) at least
    /// `acrossPixels`: tints that must not cover the neighbouring rows.
    void setMinimumPixelSize(double alongPixels, double acrossPixels)
    {
        m_minimumPixels = alongPixels;
        m_minimumAcross = acrossPixels;
    }
    /// `r` (device pixels) grown about its centre to `along` pixels on the key axis and
    /// `across` on the value axis, where it is smaller.
    static QRectF grown(const QRectF &r, double along, double across, bool keyHorizontal);
    /// Records which values each frame drew and how, and its folded runs (tests).
    void setRecording(bool on) { m_recording = on; }
    const Frame &lastFrame() const { return m_frame; }

    /// The box under a widget pixel (the smallest when several overlap), or -1. Boxes thinner
    /// than a few pixels are hit within a small tolerance.
    int boxAt(const QPointF &pixel) const;
    /// Indices of the boxes of `value` (in Gantt order one, in stacked maps possibly more).
    std::vector<int> boxesOfValue(std::uint32_t value) const { return m_set->boxesOfValue(value); }
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
    std::shared_ptr<const BoxSet> m_set;
    std::vector<QBrush> m_brushes;
    std::vector<QColor> m_borders;
    std::vector<QRgb> m_rgb;
    QPen m_outlinePen = Qt::NoPen;
    double m_minimumPixels = 0;
    double m_minimumAcross = 0;
    bool m_outlined = true;
    bool m_recording = false;
    Frame m_frame;
};

} // namespace bufferscope
