#include "BoxPlottable.h"

#include <algorithm>
#include <cmath>

namespace bufferscope {

BoxPlottable::BoxPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setAntialiased(false);
    setAntialiasedFill(false);
    setSelectable(QCP::stNone);
    setPen(Qt::NoPen);
}

void BoxPlottable::setBoxes(std::vector<Box> boxes)
{
    std::sort(boxes.begin(), boxes.end(),
              [](const Box &a, const Box &b) { return a.y0 != b.y0 ? a.y0 < b.y0 : a.x0 < b.x0; });
    m_boxes = std::move(boxes);
    m_maxHeight = 0;
    m_keyRange = QCPRange();
    m_valueRange = QCPRange();
    bool first = true;
    for (const Box &b : m_boxes) {
        m_maxHeight = std::max(m_maxHeight, b.y1 - b.y0);
        if (first) {
            m_keyRange = QCPRange(b.x0, b.x1);
            m_valueRange = QCPRange(b.y0, b.y1);
            first = false;
        } else {
            m_keyRange.expand(QCPRange(b.x0, b.x1));
            m_valueRange.expand(QCPRange(b.y0, b.y1));
        }
    }
    m_byValue.resize(m_boxes.size());
    for (std::size_t i = 0; i < m_boxes.size(); ++i)
        m_byValue[i] = static_cast<int>(i);
    std::sort(m_byValue.begin(), m_byValue.end(), [this](int a, int b) {
        return m_boxes[static_cast<std::size_t>(a)].value <
               m_boxes[static_cast<std::size_t>(b)].value;
    });
}

void BoxPlottable::setColours(const std::vector<QColor> &colours)
{
    m_brushes.clear();
    m_borders.clear();
    for (const QColor &c : colours) {
        m_brushes.emplace_back(c, m_brushStyle);
        m_borders.push_back(c.darker(160));
    }
}

std::size_t BoxPlottable::firstCandidate(double y) const
{
    const double from = y - m_maxHeight;
    return static_cast<std::size_t>(
        std::lower_bound(m_boxes.begin(), m_boxes.end(), from,
                         [](const Box &b, double v) { return b.y0 < v; }) -
        m_boxes.begin());
}

QRectF BoxPlottable::pixelRect(const Box &box) const
{
    const QPointF a = coordsToPixels(box.x0, box.y0);
    const QPointF b = coordsToPixels(box.x1, box.y1);
    return QRectF(a, b).normalized();
}

std::vector<int> BoxPlottable::boxesOfValue(std::uint32_t value) const
{
    auto it =
        std::lower_bound(m_byValue.begin(), m_byValue.end(), value, [this](int i, std::uint32_t v) {
            return m_boxes[static_cast<std::size_t>(i)].value < v;
        });
    std::vector<int> out;
    for (; it != m_byValue.end() && m_boxes[static_cast<std::size_t>(*it)].value == value; ++it)
        out.push_back(*it);
    return out;
}

int BoxPlottable::boxAt(const QPointF &pixel) const
{
    if (!mKeyAxis || !mValueAxis || m_boxes.empty())
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
    for (std::size_t i = firstCandidate(vlo); i < m_boxes.size() && m_boxes[i].y0 <= vhi; ++i) {
        const Box &b = m_boxes[i];
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
    foundRange = !m_boxes.empty();
    return m_keyRange;
}

QCPRange BoxPlottable::getValueRange(bool &foundRange, QCP::SignDomain inSignDomain,
                                     const QCPRange &inKeyRange) const
{
    Q_UNUSED(inSignDomain)
    Q_UNUSED(inKeyRange)
    foundRange = !m_boxes.empty();
    return m_valueRange;
}

void BoxPlottable::draw(QCPPainter *painter)
{
    if (!mKeyAxis || !mValueAxis || m_boxes.empty() || m_brushes.empty())
        return;
    applyDefaultAntialiasingHint(painter);
    painter->setPen(Qt::NoPen);
    const QCPRange keys = mKeyAxis->range();
    const QCPRange vals = mValueAxis->range();
    const QRect clip = clipRect();
    // Sub-pixel boxes are folded: each pixel they touch is painted once, in the colour of the
    // last box that touched it, instead of painting thousands of invisible rectangles.
    const int w = std::max(1, clip.width());
    const int h = std::max(1, clip.height());
    std::vector<std::uint8_t> tiny; // colour + 1 per pixel, 0 = untouched
    const bool outline = m_outlined;
    for (std::size_t i = firstCandidate(vals.lower);
         i < m_boxes.size() && m_boxes[i].y0 <= vals.upper; ++i) {
        const Box &b = m_boxes[i];
        if (b.y1 < vals.lower || b.x1 < keys.lower || b.x0 > keys.upper)
            continue;
        const QRectF raw = pixelRect(b);
        if (raw.right() < clip.left() - 1 || raw.left() > clip.right() + 1 ||
            raw.bottom() < clip.top() - 1 || raw.top() > clip.bottom() + 1)
            continue;
        // Clip by hand: QRectF::intersected() turns a zero-width hairline into nothing.
        QRectF r(
            QPointF(std::max(raw.left(), clip.left() - 1.0), std::max(raw.top(), clip.top() - 1.0)),
            QPointF(std::min(raw.right(), clip.right() + 1.0),
                    std::min(raw.bottom(), clip.bottom() + 1.0)));
        const std::size_t colour = std::min<std::size_t>(b.colour, m_brushes.size() - 1);
        if (r.width() < 1.5 && r.height() < 1.5) {
            if (tiny.empty())
                tiny.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
            const int px = std::clamp(static_cast<int>(r.center().x()) - clip.left(), 0, w - 1);
            const int py = std::clamp(static_cast<int>(r.center().y()) - clip.top(), 0, h - 1);
            tiny[static_cast<std::size_t>(py) * static_cast<std::size_t>(w) +
                 static_cast<std::size_t>(px)] = static_cast<std::uint8_t>(colour + 1);
            continue;
        }
        // Keep every box at least one pixel wide and tall so short live ranges stay visible.
        if (r.width() < 1)
            r.setWidth(1);
        if (r.height() < 1)
            r.setHeight(1);
        painter->fillRect(r, m_brushes[colour]);
        if (outline && r.width() >= 4 && r.height() >= 4) {
            painter->setPen(QPen(m_borders[colour], 0));
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(r.adjusted(0, 0, -1, -1));
            painter->setPen(Qt::NoPen);
        }
    }
    if (!tiny.empty()) {
        for (int y = 0; y < h; ++y) {
            const std::uint8_t *row =
                tiny.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w);
            for (int x = 0; x < w; ++x) {
                if (row[x] == 0)
                    continue;
                // Runs of the same colour become one rectangle.
                int end = x + 1;
                while (end < w && row[end] == row[x])
                    ++end;
                painter->fillRect(QRectF(clip.left() + x, clip.top() + y, end - x, 1),
                                  m_brushes[row[x] - 1u]);
                x = end - 1;
            }
        }
    }
}

void BoxPlottable::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    if (m_brushes.empty())
        return;
    painter->fillRect(rect.adjusted(2, 2, -2, -2), m_brushes.front());
}

} // namespace bufferscope
