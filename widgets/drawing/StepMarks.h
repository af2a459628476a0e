#pragma once

#include "analysis/ValueFlow.h"

#include <QString>

#include <functional>
#include <vector>

class QCPAxis;
class QCPGraph;
class QCPLayer;
class QPalette;
class QPointF;

namespace bufferscope {

/// The selected value's uses (▼) and positions (○) at their steps, drawn the same way in every
/// view with a step axis: one symbol size whatever the zoom (marks never fold into the level of
/// detail), the same colours and the same legend entries. Positions sit on the value (its box's
/// middle, or the curve); uses point down at it from just above, clear of the selected box
/// however thin it is drawn (at least 7 px, as the selection).
class StepMarks
{
public:
    StepMarks(QCPAxis *keyAxis, QCPAxis *valueAxis, QCPLayer *layer);

    void applyPalette(const QPalette &palette);
    /// Puts "use (selected value)" and "position (selected value)" into the plot's legend.
    void addToLegend();
    void removeFromLegend();
    /// Marks the scheduled uses and positions of `flow` at `y(step)` on the value axis, on a
    /// value drawn `halfHeight` (value-axis units) above and below that line.
    void show(const Dump &dump, ValueFlow flow, const std::function<double(qint64)> &y,
              double halfHeight = 0);
    void clear();
    std::vector<qint64> useSteps() const { return m_useSteps; }
    std::vector<qint64> positionSteps() const { return m_positionSteps; }
    /// What the marks within a few pixels of `pixel` are ("use: fusion.40, operand 1 · step 36"),
    /// one per line; empty when there is none.
    QString toolTipAt(const QPointF &pixel) const;
    /// Where a use mark (always ▼, as the legends show it) is drawn for a value whose centre is
    /// at pixel row `valueY`: `lift` pixels above it, or, where the plot's `top` leaves no room,
    /// at the top, still pointing down at the value.
    static double useMarkY(double valueY, double lift, double top);

private:
    const Dump *m_dump = nullptr;
    ValueFlow m_flow;
    class Graph;
    Graph *m_uses;
    Graph *m_positions;
    std::vector<qint64> m_useSteps;
    std::vector<qint64> m_positionSteps;
};

} // namespace bufferscope
