#pragma once

#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "model/Dump.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QThread;
class QLabel;
class QSortFilterProxyModel;
class QTextBrowser;
class QToolButton;
class QTreeView;

namespace bufferscope {

class BreakdownTreeModel;
class Selection;
class Treemap;

/// What fills memory at the current step (the peak until a step is chosen): the breakdown as a
/// sortable tree (op_name as a hierarchy, or source line, op_type, allocation kind) next to a
/// treemap of the same groups, and the explainer's findings below. Picking a group — a tree
/// row, a treemap rectangle or a finding's link — highlights its values in every view.
class BreakdownPanel : public QWidget
{
    Q_OBJECT
public:
    using Grouping = Breakdown::Grouping;

    /// Dumps with this many values or more have their breakdown computed off the GUI thread
    /// (50 000 by default; tests lower it).
    void setBackgroundFrom(std::size_t values) { m_backgroundFrom = values; }
    /// A breakdown is being computed in the background.
    bool isComputing() const { return m_job != nullptr; }

    explicit BreakdownPanel(Selection *selection, QWidget *parent = nullptr);
    ~BreakdownPanel() override;

    void setDump(std::shared_ptr<const Dump> dump, std::shared_ptr<const MemoryTimeline> timeline);
    void setGrouping(Grouping grouping);
    qint64 step() const { return m_step; }
    const Breakdown &breakdown() const { return m_breakdown; }
    const std::vector<Finding> &findings() const { return m_findings; }
    BreakdownTreeModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    Treemap *treemap() const { return m_treemap; }
    QTextBrowser *findingsView() const { return m_findingsView; }
    /// Highlights finding `k`'s values (what its link does).
    void showFinding(int k);

    /// Whether the panel can be seen (its dock tab is current); off screen, following the
    /// step waits until it is shown again. On by default.
    void setOnScreen(bool onScreen);

private:
    void recompute(qint64 step);
    void startJob();
    void jobDone(quint64 generation, qint64 step, Breakdown breakdown,
                 std::vector<Finding> findings);
    void apply(qint64 step, Breakdown breakdown, std::vector<Finding> findings);
    void showTreemapNode(const BreakdownNode *node);
    void pick(const BreakdownNode *node);
    void fillFindings();

    Selection *m_selection;
    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const MemoryTimeline> m_timeline;
    QComboBox *m_grouping;
    QLabel *m_summary;
    QToolButton *m_up;
    QLabel *m_crumbs;
    BreakdownTreeModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_tree;
    Treemap *m_treemap;
    QTextBrowser *m_findingsView;
    Grouping m_groupBy = Grouping::OpName;
    qint64 m_step = -1;
    Breakdown m_breakdown;
    std::vector<Finding> m_findings;
    std::vector<const BreakdownNode *> m_drill; ///< treemap path below the root
    bool m_picking = false;
    bool m_stale = false;      ///< the step moved while the panel was off screen
    QThread *m_job = nullptr;  ///< the breakdown being computed, for big dumps
    qint64 m_pendingStep = -1; ///< asked for while a job ran
    quint64 m_generation = 0;  ///< bumped per dump: results of an older one are dropped
    std::size_t m_backgroundFrom = 50000;
    bool m_onScreen = true;
};

} // namespace bufferscope
