#pragma once

#include "analysis/PeakBreakdown.h"

#include <QWidget>

#include <functional>

namespace bufferscope {

/// A squarified treemap (Bruls, Huizing, van Wijk) of one breakdown node's children: area is
/// bytes, colour the Okabe–Ito category palette in order, labels where they fit. Click a
/// rectangle to pick its group; double-click one with children to go into it.
class Treemap : public QWidget
{
    Q_OBJECT
public:
    explicit Treemap(QWidget *parent = nullptr);

    /// Shows `node`'s children (nullptr: nothing). The node must outlive its display.
    void setNode(const BreakdownNode *node, std::int64_t total);
    const BreakdownNode *node() const { return m_node; }
    /// The child drawn highlighted (nullptr: none).
    void setHighlighted(const BreakdownNode *child);
    /// How to colour child `i` (an invalid colour: the palette's cycle); empty: the cycle.
    void setColorOf(std::function<QColor(const BreakdownNode &child, std::size_t i)> colorOf);
    /// The colour child `i` is drawn in.
    QColor fillOf(std::size_t i) const;
    /// Rectangles as laid out, for hit tests and tests: child index -> rect.
    const std::vector<QRectF> &rects() const { return m_rects; }
    const BreakdownNode *childAt(const QPointF &pos) const;

    QSize sizeHint() const override { return {360, 240}; }

Q_SIGNALS:
    void clicked(const bufferscope::BreakdownNode *child);
    void activated(const bufferscope::BreakdownNode *child);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    std::function<QColor(const BreakdownNode &, std::size_t)> m_colorOf;
    void layout();

    const BreakdownNode *m_node = nullptr;
    const BreakdownNode *m_highlighted = nullptr;
    std::int64_t m_total = 0;
    std::vector<QRectF> m_rects;
};

} // namespace bufferscope
