#pragma once

#include <QObject>

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

public Q_SLOTS:
    void setCurrentValue(int value);
    void setCurrentStep(qint64 step);
    void setHoveredValue(int value);
    /// Clears value and hover (Esc), keeps the step.
    void clear();

Q_SIGNALS:
    void currentValueChanged(int value);
    void currentStepChanged(qint64 step);
    void hoveredValueChanged(int value);

private:
    int m_value = -1;
    qint64 m_step = -1;
    int m_hovered = -1;
};

} // namespace bufferscope
