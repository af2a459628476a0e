#include "BoxSet.h"

#include <algorithm>
#include <cmath>

namespace bufferscope {

BoxSet::BoxSet(std::vector<Box> boxes) : m_boxes(std::move(boxes))
{
    std::sort(m_boxes.begin(), m_boxes.end(),
              [](const Box &a, const Box &b) { return a.y0 != b.y0 ? a.y0 < b.y0 : a.x0 < b.x0; });
    bool first = true;
    for (const Box &b : m_boxes) {
        m_maxHeight = std::max(m_maxHeight, b.y1 - b.y0);
        if (first) {
            m_keySpan = {std::min(b.x0, b.x1), std::max(b.x0, b.x1)};
            m_valueSpan = {std::min(b.y0, b.y1), std::max(b.y0, b.y1)};
            first = false;
        } else {
            m_keySpan = {std::min({m_keySpan.lower, b.x0, b.x1}),
                         std::max({m_keySpan.upper, b.x0, b.x1})};
            m_valueSpan = {std::min({m_valueSpan.lower, b.y0, b.y1}),
                           std::max({m_valueSpan.upper, b.y0, b.y1})};
        }
    }
    m_byValue.resize(m_boxes.size());
    for (std::size_t i = 0; i < m_boxes.size(); ++i)
        m_byValue[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(m_byValue.begin(), m_byValue.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_boxes[a].value < m_boxes[b].value;
    });
}

std::size_t BoxSet::firstCandidate(double y) const
{
    // A little below y - maxHeight, so rounding in y0 + height never hides a box.
    const double from = y - m_maxHeight - std::abs(m_maxHeight) * 1e-9 - 1e-9 * std::abs(y);
    return static_cast<std::size_t>(
        std::lower_bound(m_boxes.begin(), m_boxes.end(), from,
                         [](const Box &b, double v) { return b.y0 < v; }) -
        m_boxes.begin());
}

std::vector<int> BoxSet::boxesOfValue(std::uint32_t value) const
{
    auto it =
        std::lower_bound(m_byValue.begin(), m_byValue.end(), value,
                         [this](std::uint32_t i, std::uint32_t v) { return m_boxes[i].value < v; });
    std::vector<int> out;
    for (; it != m_byValue.end() && m_boxes[*it].value == value; ++it)
        out.push_back(static_cast<int>(*it));
    return out;
}

} // namespace bufferscope
