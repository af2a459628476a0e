#pragma once

#include <QObject>
#include <QString>
#include <QVector>

#include <functional>

namespace bufferscope {

/// The one selection every view reads and writes: a value, a step and a hovered value, all as
/// dense indices (-1 for none). Setters emit only on change, so views can write back freely.
class Selection : public QObject
{
    Q_OBJECT
public:
    explicit Selection(QObject *parent = nullptr);

    int currentValue() const { return m_value; }
    qint64 currentStep() const { return m_step; }
    int hoveredValue() const { return m_hovered; }
    /// A group of values highlighted together (a breakdown group or a finding).
    const QVector<int> &highlightedGroup() const { return m_group; }
    /// While frozen every setter is ignored: the workspace freezes the selection while it hands
    /// a new dump to the views one per event-loop turn, so no view hears of a value of a dump
    /// it does not have yet.
    void setFrozen(bool frozen) { m_frozen = frozen; }
    bool isFrozen() const { return m_frozen; }
    /// The step that goes with a value chosen at `step` (the workspace's rule: into its live
    /// range); applied by setCurrentValue before it says anything, so value and step change
    /// as one.
    using StepRule = std::function<qint64(int value, qint64 step)>;
    void setStepRule(StepRule rule) { m_stepRule = std::move(rule); }

    enum Change
    {
        ValueChanged = 1,
        StepChanged = 2
    };

public Q_SLOTS:
    void setCurrentValue(int value);
    void setCurrentStep(qint64 step);
    void setHoveredValue(int value);
    /// `label` names the group (the breakdown path or the finding's title) for the signal.
    void setHighlightedGroup(const QVector<int> &values, const QString &label);
    /// Clears value, hover and group (Esc), keeps the step.
    void clear();

Q_SIGNALS:
    void currentValueChanged(int value);
    void currentStepChanged(qint64 step);
    /// Once per change of the value, the step or both (after currentStepChanged and
    /// currentValueChanged): what a view that draws both listens to, to redraw once per click.
    /// `changes` is a combination of Change.
    void currentChanged(int value, qint64 step, int changes);
    void hoveredValueChanged(int value);
    void highlightedGroupChanged(const QVector<int> &values, const QString &label);

private:
    int m_value = -1;
    qint64 m_step = -1;
    int m_hovered = -1;
    QVector<int> m_group;
    QString m_groupLabel;
    bool m_frozen = false;
    StepRule m_stepRule;
};

} // namespace bufferscope
