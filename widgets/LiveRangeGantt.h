#pragma once

#include "BoxChartView.h"

#include <memory>
#include <vector>

class QComboBox;
class QCPGraph;
class QCPItemRect;
class QListWidget;
class QToolButton;

namespace bufferscope {

class BoxSet;
struct Dump;

/// Live ranges over the program order: one row per value, bars coloured by allocation kind.
/// For the selected value its bar is highlighted and its uses (triangles) and positions
/// (circles) are marked at their steps. Values without a live range are listed apart.
class LiveRangeGantt : public BoxChartView
{
    Q_OBJECT
public:
    enum class Order
    {
        ByStart,
        BySize,
        ByAllocation
    };

    /// The rows and bars of one order: built on any thread (the loader builds the default
    /// order's while the GUI runs), adopted by the view that shows that dump in that order.
    struct Rows
    {
        std::weak_ptr<const Dump> dump;
        Order order = Order::ByStart;
        std::vector<std::uint32_t> values; ///< row → value index
        std::vector<int> rowOf;            ///< value index → row, -1 without a live range
        std::shared_ptr<const BoxSet> bars;
    };
    static std::shared_ptr<const Rows> layOut(const std::shared_ptr<const Dump> &dump, Order order);

    explicit LiveRangeGantt(Selection *selection, QWidget *parent = nullptr);

    /// Rows built in advance: used instead of building them when their dump and order are shown.
    void setPrepared(std::shared_ptr<const Rows> rows) { m_prepared = std::move(rows); }

    QString viewName() const override { return QStringLiteral("gantt"); }
    QString title() const override;
    void resetZoom() override;

    void setOrder(Order order);
    Order order() const { return m_order; }
    /// Row of `value` in the current order, -1 when it has no live range.
    int rowOf(int value) const;
    int rowCount() const { return static_cast<int>(m_rows->values.size()); }
    /// Steps marked for the selected value's uses and positions (sorted).
    std::vector<qint64> markedUseSteps() const { return m_useSteps; }
    std::vector<qint64> markedPositionSteps() const { return m_positionSteps; }
    /// Values listed apart because they have no live range.
    QListWidget *noLiveRangeList() const { return m_apart; }

protected:
    void rebuild() override;
    void showValue(int value) override;
    void revealValue(int value) override;
    void applyPalette() override;

private:
    void buildRows();
    void updateRowLabels();

    QComboBox *m_orderBox;
    QToolButton *m_apartButton;
    QListWidget *m_apart;
    QCPGraph *m_uses;
    QCPGraph *m_positions;
    QCPItemRect *m_rowBand;
    Order m_order = Order::ByStart;
    std::shared_ptr<const Rows> m_rows;
    std::shared_ptr<const Rows> m_prepared;
    std::vector<qint64> m_useSteps;
    std::vector<qint64> m_positionSteps;
};

} // namespace bufferscope
