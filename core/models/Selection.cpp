#include "Selection.h"

namespace bufferscope {

Selection::Selection(QObject *parent) : QObject(parent) {}

void Selection::setCurrentValue(int value)
{
    if (m_frozen)
        return;
    if (value < -1)
        value = -1;
    if (value == m_value)
        return;
    m_value = value;
    // The rule (the workspace's) moves the step with the value, before anyone hears of
    // either: one change, value and step together.
    const qint64 step = m_stepRule && value >= 0 ? m_stepRule(value, m_step) : m_step;
    const bool stepMoved = step >= -1 && step != m_step;
    if (stepMoved) {
        m_step = step;
        Q_EMIT currentStepChanged(step);
    }
    Q_EMIT currentValueChanged(value);
    Q_EMIT currentChanged(m_value, m_step, stepMoved ? StepChanged | ValueChanged : ValueChanged);
}

void Selection::setCurrentStep(qint64 step)
{
    if (m_frozen)
        return;
    if (step < -1)
        step = -1;
    if (step == m_step)
        return;
    m_step = step;
    Q_EMIT currentStepChanged(step);
    Q_EMIT currentChanged(m_value, m_step, StepChanged);
}

void Selection::setHoveredValue(int value)
{
    if (m_frozen)
        return;
    if (value < -1)
        value = -1;
    if (value == m_hovered)
        return;
    m_hovered = value;
    Q_EMIT hoveredValueChanged(value);
}

void Selection::setHighlightedGroup(const QVector<int> &values, const QString &label)
{
    if (m_frozen)
        return;
    if (values == m_group && label == m_groupLabel)
        return;
    m_group = values;
    m_groupLabel = label;
    Q_EMIT highlightedGroupChanged(m_group, m_groupLabel);
}

void Selection::clear()
{
    setCurrentValue(-1);
    setHoveredValue(-1);
    setHighlightedGroup({}, {});
}

} // namespace bufferscope
