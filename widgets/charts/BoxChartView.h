#pragma once

#include "charts/ChartView.h"
#include "layout/BoxSet.h"

#include <memory>
#include <vector>

class QCPItemRect;
class QCPItemStraightLine;

namespace bufferscope {

class BoxPlottable;
class StepMarks;
class StepTicker;

/// What the Gantt chart and the memory map share: one BoxPlottable of values over the program
/// order, the selected and hovered value outlined on the highlight layer, the current step as
/// a vertical line, hover tooltips, click-to-select, wheel zoom on steps (Ctrl+wheel on the
/// other axis) and drag pan.
class BoxChartView : public ChartView
{
    Q_OBJECT
public:
    explicit BoxChartView(Workspace *workspace, QWidget *parent = nullptr);
    ~BoxChartView() override;

    BoxPlottable *boxes() const { return m_boxes; }
    /// The colours of the boxes, by Box::colour (a picked group is drawn in them too).
    void setBoxColours(const std::vector<QColor> &colours);
    /// The selected value's box in widget pixels (empty when it is not drawn).
    QRectF highlightedPixelRect() const;
    /// The plottable that draws the selected value (its lastFrame() says what it drew).
    BoxPlottable *selectedBoxes() const { return m_selected; }
    /// What hovering `pixel` shows (empty: nothing there). Also the tooltip text.
    QString toolTipAt(const QPointF &pixel) const;
    /// Hit-tests `pixel` as a click would and selects what is there; true when a value was hit.
    bool clickAt(const QPointF &pixel);
    /// Boxes drawn for the highlighted group (tests).
    int groupBoxCount() const { return m_groupShown; }
    /// The picked group's boxes as drawn (their colour indices among the chart's colours).
    const std::vector<Box> &groupBoxes() const;
    /// Steps marked for the selected value's uses and positions (sorted), on its box.
    std::vector<qint64> markedUseSteps() const;
    std::vector<qint64> markedPositionSteps() const;
    /// The selected value's producers and consumers this view tints (value indices, ascending;
    /// those it draws).
    const std::vector<std::uint32_t> &tintedProducers() const { return m_producerValues; }
    const std::vector<std::uint32_t> &tintedConsumers() const { return m_consumerValues; }
    /// The workspace builds the boxes (another order or allocation) in the background; the
    /// chart shows the previous ones meanwhile.
    bool isBuilding() const { return m_building; }

Q_SIGNALS:
    /// Boxes built in the background are now shown.
    void built();

protected:
    /// Tooltip for the value of `box` (rich text allowed).
    virtual QString boxToolTip(const Box &box) const;
    /// Where `value` is drawn; nullptr when the current mode does not draw it.
    const Box *boxOf(int value) const;
    /// The boxes of `value`, each in colour 0 (for a plottable that draws them alike) or, with
    /// `ownColours`, in the colour it has in the chart.
    std::vector<Box> boxesFor(int value, bool ownColours = false) const;
    /// Called after the highlight moved to `value`, e.g. to scroll it into view.
    virtual void revealValue(int value) { Q_UNUSED(value) }

    void plotClicked(const QPointF &pixel) override { clickAt(pixel); }
    void showValue(int value) override;
    void showStep(qint64 step) override;
    void showHover(int value) override;
    void showGroup(const QVector<int> &values) override;
    void applyPalette() override;
    StepTicker *stepTicker() const { return m_stepTicker; }
    /// Adds the marks' and the data flow's legend entries after the kinds.
    void addFlowLegend();
    /// The boxes shown are not those asked for yet: the workspace builds them.
    void setBuilding(bool building) { m_building = building; }

private:
    BoxPlottable *m_boxes;
    StepTicker *m_stepTicker;
    BoxPlottable *m_group;
    QCPItemRect *m_veil; // fades what is not in the picked group
    int m_groupShown = 0;
    BoxPlottable *m_selected;
    BoxPlottable *m_hovered;
    BoxPlottable *m_producers;
    BoxPlottable *m_consumers;
    std::vector<std::uint32_t> m_producerValues;
    std::vector<std::uint32_t> m_consumerValues;
    std::unique_ptr<StepMarks> m_marks;
    QCPItemStraightLine *m_currentStep;
    bool m_building = false;
};

} // namespace bufferscope
