#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bufferscope {

/// One axis-aligned box of a box view: a Gantt bar or a memory-map rectangle. Boxes are
/// half-open: [x0, x1) × [y0, y1).
struct Box
{
    double x0 = 0;           ///< key: first step
    double x1 = 0;           ///< key: one past the last step
    double y0 = 0;           ///< value: top (row or byte offset)
    double y1 = 0;           ///< value: bottom (exclusive)
    std::uint32_t value = 0; ///< value index in the Dump
    std::uint8_t colour = 0; ///< index into the drawing plottable's colours
};

/// A closed interval [lower, upper] on one axis (the extent of a set of boxes).
struct Span
{
    double lower = 0;
    double upper = 0;
};

/// Boxes sorted and indexed for drawing and hit-testing. Immutable once built and free of
/// widgets, so a worker thread builds it while the GUI thread keeps running; the views only
/// draw it.
class BoxSet
{
public:
    BoxSet() = default;
    explicit BoxSet(std::vector<Box> boxes);

    const std::vector<Box> &boxes() const { return m_boxes; }
    bool empty() const { return m_boxes.empty(); }
    /// First box whose top may reach `y` (every earlier box ends above it).
    std::size_t firstCandidate(double y) const;
    /// Indices of the boxes of `value` (in Gantt order one, in stacked maps possibly more).
    std::vector<int> boxesOfValue(std::uint32_t value) const;
    /// The extent of all boxes on the key (step) and value axis; {0, 0} when empty.
    const Span &keySpan() const { return m_keySpan; }
    const Span &valueSpan() const { return m_valueSpan; }

private:
    std::vector<Box> m_boxes;             ///< sorted by y0, then x0
    std::vector<std::uint32_t> m_byValue; ///< box indices sorted by value
    double m_maxHeight = 0;
    Span m_keySpan;
    Span m_valueSpan;
};

} // namespace bufferscope
