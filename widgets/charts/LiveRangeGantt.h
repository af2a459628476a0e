#pragma once

#include "charts/BoxChartView.h"
#include "layout/GanttRows.h"

#include <memory>
#include <vector>

class QComboBox;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QListWidget;
class QToolButton;

namespace bufferscope {

/// Live ranges over the program order: one row per value, bars coloured by allocation kind.
/// For the selected value its bar is highlighted and its uses (triangles) and positions
/// (circles) are marked at their steps. Values without a live range are listed apart. The rows
/// come from the workspace (GanttRows); the chart only draws them.
class LiveRangeGantt : public BoxChartView
{
    Q_OBJECT
public:
    using Order = GanttOrder;

    explicit LiveRangeGantt(Workspace *workspace, QWidget *parent = nullptr);

    QString viewName() const override { return QStringLiteral("gantt"); }
    QString title() const override;
    void resetZoom() override;

    void setOrder(Order order);
    Order order() const { return m_order; }
    /// Row of `value` in the current order, -1 when it has no live range.
    int rowOf(int value) const;
    int rowCount() const { return static_cast<int>(m_rows->values.size()); }
    /// The memory spaces' labels drawn over their rows ("S(1) · 12 values"); empty with one.
    QStringList bandLabels() const;
    /// Values listed apart because they have no live range.
    QListWidget *noLiveRangeList() const { return m_apart; }

protected:
    void rebuild() override;
    void showValue(int value) override;
    void revealValue(int value) override;
    void applyPalette() override;
    /// Value names on the rows when rows are tall enough to read them; true when they changed.
    bool updateLabels() override;
    CsvWork csvWork() const override;

private:
    /// Shows the workspace's rows in the current order, or keeps the old ones while it builds.
    void takeRows(bool rebuilding = false);
    /// A line and a label at the first row of each memory space, when there are several.
    void listApart();
    void placeBands();

    QComboBox *m_orderBox;
    QToolButton *m_apartButton;
    QListWidget *m_apart;
    bool m_apartListed = false; ///< m_apart holds the current dump's values without a range
    QCPItemRect *m_rowBand;
    std::vector<QCPItemStraightLine *> m_bandLines;
    std::vector<QCPItemText *> m_bandLabels;
    Order m_order = Order::ByStart;
    std::shared_ptr<const GanttRows> m_rows;
};

} // namespace bufferscope
