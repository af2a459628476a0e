#include "drawing/BoxPlottable.h"

#include <algorithm>
#include <cmath>

namespace bufferscope {

QRectF BoxPlottable::grown(const QRectF &r, double along, double across, bool keyHorizontal)
{
    const double minWidth = keyHorizontal ? along : across;
    const double minHeight = keyHorizontal ? across : along;
    QRectF out = r;
    if (out.width() < minWidth)
        out = QRectF(out.center().x() - minWidth / 2, out.top(), minWidth, out.height());
    if (out.height() < minHeight)
        out = QRectF(out.left(), out.center().y() - minHeight / 2, out.width(), minHeight);
    return out;
}

namespace {

/// Boxes thinner than this many device pixels in a direction are folded in that direction.
constexpr double kFoldBelow = 1.5;

/// An axis's coordinate → device pixel mapping, as a + b·v (the axes are linear).
struct Linear
{
    double a = 0;
    double b = 0;
    double operator()(double v) const { return a + b * v; }
};

Linear linearOf(const QCPAxis *axis, double origin, double scale)
{
    const QCPRange r = axis->range();
    const double p0 = axis->coordToPixel(r.lower);
    const double p1 = axis->coordToPixel(r.upper);
    const double b = r.size() != 0 ? (p1 - p0) / r.size() : 0;
    return {(p0 - b * r.lower - origin) * scale, b * scale};
}

int clampInt(double v, int lo, int hi)
{
    if (!(v >= lo)) // also NaN
        return lo;
    if (v >= hi)
        return hi;
    return static_cast<int>(v);
}

} // namespace

// --- BoxPlottable ------------------------------------------------------------------------------

BoxPlottable::BoxPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis), m_set(std::make_shared<const BoxSet>())
{
    setAntialiased(false);
    setAntialiasedFill(false);
    setSelectable(QCP::stNone);
    setPen(Qt::NoPen);
}

void BoxPlottable::setBoxes(std::vector<Box> boxes)
{
    setBoxSet(std::make_shared<const BoxSet>(std::move(boxes)));
}

void BoxPlottable::setBoxSet(std::shared_ptr<const BoxSet> set)
{
    m_set = set ? std::move(set) : std::make_shared<const BoxSet>();
}

void BoxPlottable::setColours(const std::vector<QColor> &colours)
{
    m_brushes.clear();
    m_borders.clear();
    m_rgb.clear();
    for (const QColor &c : colours) {
        m_brushes.emplace_back(c, Qt::SolidPattern);
        m_borders.push_back(c.darker(160));
        m_rgb.push_back(c.rgba());
    }
}

QRectF BoxPlottable::pixelRect(const Box &box) const
{
    const QPointF a = coordsToPixels(box.x0, box.y0);
    const QPointF b = coordsToPixels(box.x1, box.y1);
    return QRectF(a, b).normalized();
}

int BoxPlottable::boxAt(const QPointF &pixel) const
{
    const std::vector<Box> &boxes = m_set->boxes();
    if (!mKeyAxis || !mValueAxis || boxes.empty())
        return -1;
    // A tolerance of two pixels in each direction, so hairline boxes can still be clicked.
    constexpr double kTolerance = 2.0;
    double key0 = 0, val0 = 0, key1 = 0, val1 = 0;
    pixelsToCoords(pixel - QPointF(kTolerance, kTolerance), key0, val0);
    pixelsToCoords(pixel + QPointF(kTolerance, kTolerance), key1, val1);
    double key = 0, val = 0;
    pixelsToCoords(pixel, key, val);
    const double klo = std::min(key0, key1), khi = std::max(key0, key1);
    const double vlo = std::min(val0, val1), vhi = std::max(val0, val1);
    int best = -1;
    double bestArea = 0;
    bool bestExact = false;
    for (std::size_t i = m_set->firstCandidate(vlo); i < boxes.size() && boxes[i].y0 <= vhi; ++i) {
        const Box &b = boxes[i];
        if (b.y1 < vlo || b.x1 < klo || b.x0 > khi)
            continue;
        const bool exact = key >= b.x0 && key < b.x1 && val >= b.y0 && val < b.y1;
        const double area = (b.x1 - b.x0) * (b.y1 - b.y0);
        // An exact hit beats a near one; among equals the smallest box is the most specific.
        if (best < 0 || (exact && !bestExact) || (exact == bestExact && area < bestArea)) {
            best = static_cast<int>(i);
            bestArea = area;
            bestExact = exact;
        }
    }
    return best;
}

double BoxPlottable::selectTest(const QPointF &pos, bool onlySelectable, QVariant *details) const
{
    if (onlySelectable && mSelectable == QCP::stNone)
        return -1;
    const int box = boxAt(pos);
    if (box < 0)
        return -1;
    if (details)
        *details = box;
    return 0;
}

QCPRange BoxPlottable::getKeyRange(bool &foundRange, QCP::SignDomain inSignDomain) const
{
    Q_UNUSED(inSignDomain)
    foundRange = !m_set->empty();
    return QCPRange(m_set->keySpan().lower, m_set->keySpan().upper);
}

QCPRange BoxPlottable::getValueRange(bool &foundRange, QCP::SignDomain inSignDomain,
                                     const QCPRange &inKeyRange) const
{
    Q_UNUSED(inSignDomain)
    Q_UNUSED(inKeyRange)
    foundRange = !m_set->empty();
    return QCPRange(m_set->valueSpan().lower, m_set->valueSpan().upper);
}

void BoxPlottable::draw(QCPPainter *painter)
{
    m_frame.visible = m_frame.own = m_frame.folded = 0;
    m_frame.runs.clear();
    m_frame.ownValues.clear();
    m_frame.foldedValues.clear();
    const std::vector<Box> &boxes = m_set->boxes();
    if (!mKeyAxis || !mValueAxis || boxes.empty() || m_brushes.empty())
        return;
    applyDefaultAntialiasingHint(painter);
    painter->setPen(Qt::NoPen);
    const QRect clip = clipRect();
    // Device pixels per widget pixel (2 when exporting at 2x).
    const double scale = std::max(1e-6, std::abs(painter->transform().m11()));
    const int w = std::max(1, static_cast<int>(std::ceil(clip.width() * scale)));
    const int h = std::max(1, static_cast<int>(std::ceil(clip.height() * scale)));
    const QCPRange keys = mKeyAxis->range();
    const QCPRange vals = mValueAxis->range();
    // Box coordinates → device pixels relative to the clip's corner.
    const bool keyHorizontal = mKeyAxis->orientation() == Qt::Horizontal;
    const Linear keyMap = linearOf(mKeyAxis, keyHorizontal ? clip.left() : clip.top(), scale);
    const Linear valueMap = linearOf(mValueAxis, keyHorizontal ? clip.top() : clip.left(), scale);
    const std::size_t maxColour = m_brushes.size() - 1;

    PixelFold &fold = PixelFold::shared();
    fold.begin(w, h, m_recording);

    const double outlineMin = 4 * scale;
    for (std::size_t i = m_set->firstCandidate(vals.lower);
         i < boxes.size() && boxes[i].y0 < vals.upper; ++i) {
        const Box &b = boxes[i];
        if (b.y1 <= vals.lower || b.x1 <= keys.lower || b.x0 >= keys.upper)
            continue;
        ++m_frame.visible;
        const double k0 = keyMap(b.x0), k1 = keyMap(b.x1);
        const double v0 = valueMap(b.y0), v1 = valueMap(b.y1);
        const double x0 = keyHorizontal ? k0 : v0, x1 = keyHorizontal ? k1 : v1;
        const double y0 = keyHorizontal ? v0 : k0, y1 = keyHorizontal ? v1 : k1;
        // Clipped to the plot, one pixel of slack so outlines at the edge stay outside.
        const double left = std::max(-1.0, std::min(x0, x1));
        const double right = std::min(w + 1.0, std::max(x0, x1));
        const double top = std::max(-1.0, std::min(y0, y1));
        const double bottom = std::min(h + 1.0, std::max(y0, y1));
        const std::size_t colour = std::min<std::size_t>(b.colour, maxColour);
        const bool narrow = right - left < kFoldBelow;
        const bool flat = bottom - top < kFoldBelow;
        if (m_minimumPixels > 0 || (!narrow && !flat)) {
            const QRectF r = grown(QRectF(left, top, right - left, bottom - top),
                                   std::max(1.0, m_minimumPixels * scale),
                                   std::max(1.0, m_minimumAcross * scale), keyHorizontal);
            // Back to widget coordinates: the painter scales them.
            const QRectF logical(clip.left() + r.left() / scale, clip.top() + r.top() / scale,
                                 r.width() / scale, r.height() / scale);
            painter->fillRect(logical, m_brushes[colour]);
            if (m_outlinePen.style() != Qt::NoPen) {
                painter->setPen(m_outlinePen);
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(logical);
                painter->setPen(Qt::NoPen);
            } else if (m_outlined && r.width() >= outlineMin && r.height() >= outlineMin) {
                painter->setPen(QPen(m_borders[colour], 0));
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(logical.adjusted(0, 0, -1 / scale, -1 / scale));
                painter->setPen(Qt::NoPen);
            }
            ++m_frame.own;
            if (m_recording)
                m_frame.ownValues.push_back(b.value);
            continue;
        }
        // Folded: into the column (narrow), the row (flat) or the one pixel (both) it covers,
        // counted once at its first pixel.
        const QRgb rgb = m_rgb[colour];
        if (narrow) {
            const int x = clampInt((left + right) / 2, 0, w - 1);
            const int y =
                flat ? clampInt((top + bottom) / 2, 0, h - 1) : clampInt(std::floor(top), 0, h - 1);
            const int end = flat ? y + 1 : std::max(y + 1, clampInt(std::ceil(bottom), 0, h));
            fold.column(x, y, end, rgb);
        } else {
            const int y = clampInt((top + bottom) / 2, 0, h - 1);
            const int x = clampInt(std::floor(left), 0, w - 1);
            const int end = std::max(x + 1, clampInt(std::ceil(right), 0, w));
            fold.row(y, x, end, rgb);
        }
        ++m_frame.folded;
        if (m_recording)
            m_frame.foldedValues.push_back(b.value);
    }
    if (m_frame.folded == 0)
        return;
    QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    fold.paint(image, m_frame.runs);
    painter->drawImage(QRectF(clip.left(), clip.top(), w / scale, h / scale), image);
}

void BoxPlottable::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    if (m_brushes.empty())
        return;
    painter->fillRect(rect.adjusted(2, 2, -2, -2), m_brushes.front());
}

} // namespace bufferscope
