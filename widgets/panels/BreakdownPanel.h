#pragma once

#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/SourceFrames.h"
#include "model/Dump.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QSortFilterProxyModel;
class QStackedWidget;
class QTextBrowser;
class QToolButton;
class QTreeView;

namespace bufferscope {

class BreakdownTreeModel;
class FlameGraph;
class Selection;
class Treemap;
class Workspace;
struct StepBreakdown;

/// What fills memory at the current step (the peak until a step is chosen): the breakdown as a
/// sortable tree (op_name as a hierarchy, source line, op_type, allocation kind, or the call
/// stacks top-down and bottom-up) next to a treemap of the same groups — a flame graph for the
/// call stacks — and the explainer's findings below. Picking a group — a tree row, a treemap
/// rectangle, a flame-graph bar or a finding's link — highlights its values in every view.
class BreakdownPanel : public QWidget
{
    Q_OBJECT
public:
    using Grouping = Breakdown::Grouping;

    /// The workspace computes the breakdown the panel waits for (in the background on big
    /// dumps).
    bool isComputing() const { return m_waiting; }

    explicit BreakdownPanel(Workspace *workspace, QWidget *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump, std::shared_ptr<const MemoryTimeline> timeline);
    void setGrouping(Grouping grouping);
    /// The step shown (-1 before there is one).
    qint64 step() const;
    const Breakdown &breakdown() const;
    const std::vector<Finding> &findings() const;
    BreakdownTreeModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    /// "Pin to peak": the panel stays at the peak of the memory space on show.
    void setPinnedToPeak(bool pinned);
    Treemap *treemap() const { return m_treemap; }
    /// The treemap's path from the top down to the node it shows (empty: the top).
    const std::vector<const BreakdownNode *> &drillPath() const { return m_drill; }
    FlameGraph *flameGraph() const { return m_flame; }
    /// The picture on show (the treemap, or the whole flame graph) as an image file, its
    /// format by extension (.png, .jpg, .bmp); false with `error` set when it cannot be written.
    bool savePicture(const QString &path, QString *error = nullptr) const;
    /// Zooms the treemap or flame graph into `node` (the root: all), as a double-click would.
    void zoomTo(const BreakdownNode *node);
    /// Highlights finding `k`'s values (what its link does).
    void showFinding(int k);
    /// Scrolls the findings to the first of `kind`; false when there is none at this step.
    bool revealFinding(Finding::Kind kind);

    /// Whether the panel can be seen (its dock tab is current); off screen, following the
    /// step waits until it is shown again. On by default.
    void setOnScreen(bool onScreen);

Q_SIGNALS:
    /// A call-stack frame was picked: the source view shows it.
    void framePicked(const bufferscope::SourcePlace &place);

private:
    /// Shows what is live at `step`: the workspace's breakdown, or a note while it computes it.
    void follow(qint64 step);
    void apply(std::shared_ptr<const StepBreakdown> shown);
    void showTreemapNode(const BreakdownNode *node);
    void pick(const BreakdownNode *node);
    void fillFindings();

    Workspace *m_workspace;
    Selection *m_selection;
    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const MemoryTimeline> m_timeline;
    QComboBox *m_grouping;
    QCheckBox *m_pin; ///< stay at the peak whatever the current step
    QLabel *m_summary;
    QToolButton *m_up;
    QLabel *m_crumbs;
    BreakdownTreeModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_tree;
    Treemap *m_treemap;
    FlameGraph *m_flame;
    QScrollArea *m_flameScroll;
    QStackedWidget *m_pictures;
    QTextBrowser *m_findingsView;
    Grouping m_groupBy = Grouping::OpName;
    std::shared_ptr<const StepBreakdown> m_shown;
    bool m_waiting = false; ///< for the workspace to compute the current step (breakdownReady)
    /// The treemap's or flame graph's path below the root to the node it is zoomed into.
    std::vector<const BreakdownNode *> m_drill;
    bool m_picking = false;
    bool m_stale = false; ///< the step moved while the panel was off screen
    bool m_onScreen = true;
    int m_pendingReveal = -1; ///< a Finding::Kind revealFinding waits for
};

} // namespace bufferscope
