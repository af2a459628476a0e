#include "LabelLayout.h"

#include <algorithm>
#include <cmath>

namespace bufferscope {

double LabelLayout::dataTopUnder(double left, double right) const
{
    double top = m_area.bottom();
    if (m_skyline.empty())
        return top;
    const auto first = static_cast<std::ptrdiff_t>(std::floor(std::max(0.0, left - m_area.x)));
    const auto last = static_cast<std::ptrdiff_t>(std::ceil(std::max(0.0, right - m_area.x)));
    const auto end = std::min<std::ptrdiff_t>(last, static_cast<std::ptrdiff_t>(m_skyline.size()));
    for (std::ptrdiff_t c = first; c < end; ++c)
        top = std::min(top, m_skyline[static_cast<std::size_t>(c)]);
    return top;
}

bool LabelLayout::isFree(const Box &box) const
{
    if (!m_area.contains(box))
        return false;
    for (const Box &t : m_taken)
        if (box.intersects(t))
            return false;
    // Half a pixel of tolerance: a label may sit on the data's top edge, not over it.
    return box.bottom() <= dataTopUnder(box.x, box.right()) + 0.5;
}

int LabelLayout::place(std::span<const Box> candidates)
{
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (isFree(candidates[i])) {
            m_taken.push_back(candidates[i]);
            return static_cast<int>(i);
        }
    }
    return -1;
}

LabelLayout::Box LabelLayout::anchored(double ax, double ay, double w, double h, int horizontal,
                                       int vertical)
{
    const double x = horizontal < 0 ? ax - w : horizontal == 0 ? ax - w / 2 : ax;
    const double y = vertical < 0 ? ay - h : vertical == 0 ? ay - h / 2 : ay;
    return {x, y, w, h};
}

std::vector<double> LabelLayout::spreadAlong(std::span<const double> wanted,
                                             std::span<const double> extent, double gap, double lo,
                                             double hi)
{
    const std::size_t n = wanted.size();
    std::vector<double> at(wanted.begin(), wanted.end());
    if (n == 0)
        return at;
    // Push down from the first: each starts no earlier than the last one's end plus the gap.
    for (std::size_t i = 0; i < n; ++i) {
        const double half = extent[i] / 2;
        at[i] = std::max(at[i], lo + half);
        if (i > 0)
            at[i] = std::max(at[i], at[i - 1] + extent[i - 1] / 2 + gap + half);
    }
    // Then back up from the last where that ran past the end, as far as the row allows.
    for (std::size_t k = n; k-- > 0;) {
        const double half = extent[k] / 2;
        double limit = hi - half;
        if (k + 1 < n)
            limit = std::min(limit, at[k + 1] - extent[k + 1] / 2 - gap - half);
        at[k] = std::min(at[k], limit);
    }
    // A row too short for them all: the first keeps its place at the start rather than leave
    // the row (the rest still never overlap).
    if (!at.empty() && at[0] - extent[0] / 2 < lo) {
        at[0] = lo + extent[0] / 2;
        for (std::size_t i = 1; i < n; ++i)
            at[i] = std::max(at[i], at[i - 1] + extent[i - 1] / 2 + gap + extent[i] / 2);
    }
    return at;
}

} // namespace bufferscope
