#pragma once

#include "analysis/MemoryAnalysis.h"
#include "charts/ChartView.h"

#include <QHash>
#include <QPair>
#include <QSet>
#include <QStringList>
#include <qcustomplot.h>

#include <array>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;

namespace bufferscope {

class DeviceSizeBox;
class StepMarks;
class StepTicker;

/// Live bytes and logical live bytes over the program order for one memory space, with the
/// peak and XLA's printed peak marked, a cursor that follows the mouse, the current step and
/// the selected value's live range. Clicking sets the current step.
class UsageChart : public ChartView
{
    Q_OBJECT
public:
    explicit UsageChart(Workspace *workspace, QWidget *parent = nullptr);
    ~UsageChart() override;

    QString viewName() const override { return QStringLiteral("usage"); }
    QString title() const override;
    void resetZoom() override;

    /// Which memory space is shown (its @N colour): the workspace's memory space, which this
    /// sets for every view.
    void setMemorySpace(int memorySpace);
    int memorySpace() const { return m_memorySpace; }
    /// The x range [start, end + 1) the selected value's band covers; empty when none.
    QPair<double, double> highlightedRange() const;
    /// The text under the mouse cursor (step, instruction, bytes); empty when outside.
    QString cursorText() const;
    /// The boxes (widget pixels) of the labels on show: peak, XLA's printed peak, held,
    /// budget, selected value. For tests: none overlaps another or leaves the plot.
    QList<QRectF> labelBoxes() const;
    /// Moves the cursor as the mouse would (widget pixels), for tests and keyboard use; over a
    /// use or position mark of the selected value the text names it too.
    void moveCursorTo(double pixelX, double pixelY = -1);
    void pointerLeft() override;
    /// Steps marked for the selected value's uses and positions (sorted), on the curve.
    std::vector<qint64> markedUseSteps() const;
    std::vector<qint64> markedPositionSteps() const;
    /// Where the mark of `step` is drawn (widget pixels); null when it is not marked.
    QPointF markPixel(qint64 step) const;
    /// Sets the session's device memory budget (Workspace::setBudget), which this chart draws
    /// as a line with the headroom at the peak; 0: none.
    void setBudget(qint64 bytes);
    qint64 budget() const { return m_budget; }
    /// "headroom 3.2GiB at the peak" or "over budget by …"; empty without a budget.
    QString budgetText() const;
    /// The presets offered (bytes): the sizes of DeviceFit's one list of devices.
    static QList<qint64> budgetPresets();
    /// "80.00GiB · A100 80GB, H100 80GB": a preset with the devices that have that memory.
    static QString budgetPresetName(qint64 bytes);
    /// The picked group's live bytes at each step of the space on show (empty: none, or not
    /// computed yet).
    const std::vector<std::int64_t> &groupBytes() const { return m_groupBytes; }

    /// What the label, level line or legend key at `pixel` means, with this dump's figures;
    /// empty elsewhere.
    QString toolTipAt(const QPointF &pixel) const;

Q_SIGNALS:
    void budgetChanged(qint64 bytes);
    /// The held level's label was clicked: its explanation is What Fills Memory's finding.
    void heldExplanationRequested();

protected:
    void rebuild() override;
    void showValue(int value) override;
    void showStep(qint64 step) override;
    void showGroup(const QVector<int> &values) override;
    /// The live bytes with lever `lever` applied (Workspace::leverShown); empty: none.
    void showLever(int lever, const std::vector<std::int64_t> &curve);
    void applyPalette() override;
    void plotClicked(const QPointF &pixel) override;
    CsvWork csvWork() const override;
    /// Lays the labels out where none covers the curve, a marker or another label (one
    /// LabelLayout), redrawing their layer when they move; true when the axis changed (for the
    /// plot's height or more room), which needs a full replot.
    bool updateLabels() override;
    /// Without live ranges, also what the device holds while it runs, and the budget's verdict.
    QString emptyText() const override;

private:
    /// The graphs' data of one memory space, built on any thread.
    struct Curves
    {
        QSharedPointer<QCPGraphDataContainer> live;
        QSharedPointer<QCPGraphDataContainer> logical;
    };
    static Curves curvesOf(const SpaceTimeline &space);
    /// The bytes axis from 0 to fittedTop().
    void fitBytes();
    /// The highest of the curves shown, the held level and the budget, with m_labelRows of
    /// label room above it at the plot's present height.
    double fittedTop() const;
    /// The highest of the curves shown and the held level (the data, without the budget).
    double dataTop() const;
    /// A budget more than kOffScale times the data stays off the axis (its label says so).
    static constexpr double kOffScale = 4;
    bool budgetOffScale() const;
    /// For each pixel column of the plot, the highest pixel the curves reach (LabelLayout).
    const std::vector<double> &skyline() const;
    /// The legend in one order: curves, levels, XLA's peak, the picked group, the marks.
    void refreshLegend();
    void fillSpaces();
    /// Plots the workspace's memory space if it is not the one shown.
    void followSpace();
    void plotSpace();
    QString stepSummary(qint64 step) const;

    void placeBudget();
    /// The session's budget changed: drawn, and budgetChanged.
    void showBudget(qint64 bytes);
    /// What the device holds while the module runs, for the memory space on show
    /// (MemoryAnalysis: host for S(5), the device's spaces together otherwise); 0 without a dump.
    qint64 heldBytes() const;
    /// The memory space on show's side of the dump's MemoryAnalysis, worked out once per dump.
    const MemoryAnalysis::Side &heldSide() const;
    mutable const Dump *m_analysisOf = nullptr;
    mutable MemoryAnalysis m_analysis;

    QComboBox *m_space;
    DeviceSizeBox *m_budgetBox;
    qint64 m_budget = 0;
    QCPItemStraightLine *m_budgetLine = nullptr;
    QCPItemText *m_budgetLabel = nullptr;
    QCPItemStraightLine *m_heldLine = nullptr;
    QCPItemText *m_heldLabel = nullptr;
    QCheckBox *m_logical;
    StepTicker *m_stepTicker = nullptr;
    QCPGraph *m_live = nullptr;
    QCPGraph *m_logicalGraph = nullptr;
    QCPGraph *m_groupGraph = nullptr;       ///< a picked group's share of the curve
    QCPGraph *m_leverGraph = nullptr;       ///< the curve with a lever applied (Categories)
    std::vector<std::int64_t> m_groupBytes; ///< that share at each step (empty: none)
    QCPItemTracer *m_peak = nullptr;
    QCPItemText *m_peakLabel = nullptr;
    QCPItemStraightLine *m_printedPeak = nullptr;
    QCPItemText *m_printedPeakLabel = nullptr;
    QCPItemStraightLine *m_currentStep = nullptr;
    QCPItemStraightLine *m_cursor = nullptr;
    QCPItemText *m_cursorLabel = nullptr;
    QCPItemRect *m_valueBand = nullptr;
    std::unique_ptr<StepMarks> m_marks;
    QCPItemText *m_valueLabel = nullptr;
    QPair<double, double> m_valueRange; ///< the selected value's band, [start, end + 1)
    QCPGraph *m_heldKey = nullptr;      ///< legend keys of the levels and XLA's peak
    QCPGraph *m_budgetKey = nullptr;
    QCPGraph *m_printedKey = nullptr;
    QCPGraph *m_stepKey = nullptr; ///< the current step's line
    /// Rows of label room kept above the highest level drawn; grows when a label found no
    /// free place, back to kLabelRows with another dump or budget.
    static constexpr int kLabelRows = 2;
    static constexpr int kMaxLabelRows = 5;
    int m_labelRows = kLabelRows;
    /// Each label's words, and fewer words for where the first do not fit.
    QHash<QCPItemText *, QStringList> m_labelTexts;
    /// Labels hidden because no free place was left for them with the most room the chart
    /// keeps (a short chart, large fonts): hidden rather than drawn over another label, shown
    /// again at the next layout (uncrowd) or when their own state is set.
    QSet<QCPItemText *> m_crowded;
    void uncrowd();
    mutable std::array<double, 10> m_skylineKey{};
    mutable std::vector<double> m_skyline;
    int m_memorySpace = 0; ///< the one plotted
    int m_curveLane;
    int m_groupLane;
};

} // namespace bufferscope
