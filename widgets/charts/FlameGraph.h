#pragma once

#include "analysis/PeakBreakdown.h"

#include <QWidget>

#include <functional>

namespace bufferscope {

/// An icicle graph (a flame graph drawn from the top, as Brendan Gregg's flamegraph.pl
/// `--inverted` and hotspot draw them) of a breakdown tree: the root across the top, each
/// node's children below it, width = bytes live at the step. Zoomed into a node, its ancestors
/// stay as full-width bars above it. Frames are warm colours (library frames grey-blue, so the
/// user's own code stands out), instruction names green. Click a bar to pick its group;
/// double-click one to zoom into it, an ancestor to zoom back out.
class FlameGraph : public QWidget
{
    Q_OBJECT
public:
    explicit FlameGraph(QWidget *parent = nullptr);

    /// Shows `root`'s tree (nullptr: nothing), zoomed into the last node of `focus` (the chain
    /// from one of root's children down; empty: the root). The tree must outlive its display.
    void setTree(const BreakdownNode *root, std::int64_t total,
                 std::vector<const BreakdownNode *> focus = {});
    void setFocus(std::vector<const BreakdownNode *> focus);
    const BreakdownNode *root() const { return m_root; }
    /// Which frames are library code (drawn grey-blue); none unless set.
    void setLibraryTest(std::function<bool(const BreakdownNode &)> isLibrary);
    /// The bar drawn highlighted (nullptr: none).
    void setHighlighted(const BreakdownNode *node);

    struct Bar
    {
        QRectF rect;
        const BreakdownNode *node = nullptr;
        bool ancestor = false; ///< the root or a node zoomed through, drawn full width
    };
    /// The bars as laid out, for hit tests and tests.
    const std::vector<Bar> &bars() const { return m_bars; }
    const Bar *barAt(const QPointF &pos) const;
    const Bar *barOf(const BreakdownNode *node) const;
    int rowHeight() const;

    QSize sizeHint() const override;

Q_SIGNALS:
    void clicked(const bufferscope::BreakdownNode *node);
    /// Double-click: zoom into `node` (or back out to it, for an ancestor).
    void activated(const bufferscope::BreakdownNode *node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    void layout();
    void layOut(const BreakdownNode &node, double x, double width, int row);
    QColor fillOf(const Bar &bar) const;

    const BreakdownNode *m_root = nullptr;
    std::vector<const BreakdownNode *> m_focus;
    const BreakdownNode *m_highlighted = nullptr;
    std::function<bool(const BreakdownNode &)> m_isLibrary;
    std::int64_t m_total = 0;
    std::vector<Bar> m_bars;
    int m_rows = 0;
};

} // namespace bufferscope
