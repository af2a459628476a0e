#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace bufferscope {

/// Where a chart's labels go so that none covers another, the data or a marker: every chart
/// (the usage curve, the memory-usage report's bars, exported pictures) asks it the same way.
/// Each label offers the places it may stand, best first; the first one inside the area that
/// meets nothing already taken wins. Pure geometry in pixels (y grows downwards), no toolkit.
class LabelLayout
{
public:
    struct Box
    {
        double x = 0, y = 0, w = 0, h = 0;
        double right() const { return x + w; }
        double bottom() const { return y + h; }
        bool intersects(const Box &o) const
        {
            return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
        }
        bool contains(const Box &o) const
        {
            return o.x >= x && o.y >= y && o.right() <= right() && o.bottom() <= bottom();
        }
    };

    explicit LabelLayout(Box area) : m_area(area) {}

    /// Something drawn that no label may cover (a marker, a label placed elsewhere).
    void addObstacle(const Box &box) { m_taken.push_back(box); }
    /// The data as a skyline: for each pixel column from the area's left edge, the highest
    /// pixel (smallest y) the data reaches there; a label must stay above it. Columns past the
    /// end, or given as the area's bottom, hold no data.
    void setSkyline(std::vector<double> topOfData) { m_skyline = std::move(topOfData); }

    /// The first of `candidates` that is inside the area and free, taken for good; its index,
    /// or -1 when none is (nothing is taken then).
    int place(std::span<const Box> candidates);
    /// Whether `box` is inside the area and meets nothing taken and no data.
    bool isFree(const Box &box) const;
    /// The highest data pixel (smallest y) under the columns `box` spans; the area's bottom
    /// where there is none.
    double dataTopUnder(double left, double right) const;
    const std::vector<Box> &taken() const { return m_taken; }
    const Box &area() const { return m_area; }

    /// A box of `w` × `h` anchored at (`ax`, `ay`): `horizontal` -1 ends at the anchor, 0 is
    /// centred on it, 1 starts at it; `vertical` likewise (-1: above the anchor).
    static Box anchored(double ax, double ay, double w, double h, int horizontal, int vertical);

    /// One row of labels along an axis (the report's bars, a legend): the centres wanted, in
    /// order, each label `extent` long; returns centres as near as can be to those wanted with
    /// no two closer than their extents plus `gap`, all within [lo, hi] where it is long enough.
    static std::vector<double> spreadAlong(std::span<const double> wanted,
                                           std::span<const double> extent, double gap, double lo,
                                           double hi);

private:
    Box m_area;
    std::vector<Box> m_taken;
    std::vector<double> m_skyline;
};

} // namespace bufferscope
