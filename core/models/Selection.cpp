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
    Q_EMIT currentValueChanged(value);
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
