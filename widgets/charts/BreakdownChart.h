#pragma once

#include "analysis/PeakBreakdown.h"
#include "charts/ChartView.h"

#include <memory>

class QComboBox;
class QCPBars;
class QLabel;

namespace bufferscope {

struct StepBreakdown;

/// What the live bytes at the current step (the peak until a step is chosen) are made of:
/// horizontal bars of the largest groups by op_name, source line, op_type or allocation kind.
/// The selected value's group is highlighted; clicking a bar selects that group's largest value.
/// The breakdown is the workspace's, shared with What Fills Memory.
class BreakdownChart : public ChartView
{
    Q_OBJECT
public:
    using Grouping = Breakdown::Grouping;
    static constexpr int kMaxBars = 20; ///< more groups are folded into one "other" bar

    explicit BreakdownChart(Workspace *workspace, QWidget *parent = nullptr);

    QString viewName() const override { return QStringLiteral("breakdown"); }
    QString title() const override;
    void resetZoom() override;

    void setGrouping(Grouping grouping);
    /// The breakdown shown (step -1 before there is one).
    const Breakdown &breakdown() const;
    /// The rows drawn, largest first (the "other" row last, when there is one).
    const std::vector<BreakdownRow> &shownRows() const { return m_rows; }
    /// Row of the highlighted group (-1: none).
    int highlightedRow() const { return m_highlightRow; }
    /// Whether the chart can be seen (its dock tab is current); off screen, following the step
    /// waits until it is shown again or exported. On by default.
    void setOnScreen(bool onScreen);

protected:
    void rebuild() override;
    void showValue(int value) override;
    void showStep(qint64 step) override;
    void applyPalette() override;
    void plotClicked(const QPointF &pixel) override;
    void ensureCurrent() override;
    CsvWork csvWork() const override;
    bool updateLabels() override;

private:
    /// Shows the breakdown at `step`: the workspace's, or a note while it computes it.
    void follow(qint64 step, bool now = false);
    void apply(std::shared_ptr<const StepBreakdown> shown);
    void fillBars();

    QComboBox *m_grouping;
    QLabel *m_summary;
    QCPBars *m_bars;
    QCPBars *m_highlight;
    Grouping m_groupBy = Grouping::OpName;
    std::shared_ptr<const StepBreakdown> m_shown;
    bool m_waiting = false; ///< for the workspace to compute the current step (breakdownReady)
    std::vector<BreakdownRow> m_rows;
    int m_highlightRow = -1;
    bool m_stale = false; ///< the step moved while the chart was off screen
    bool m_onScreen = true;
};

} // namespace bufferscope
