#pragma once

#include "model/Dump.h"

#include <qcustomplot.h>

namespace bufferscope {

/// Program-order axes: integer steps, and at deep zoom (few steps on screen) the name of the
/// instruction scheduled at each step, so the axis reads like the schedule.
class StepTicker : public QCPAxisTicker
{
public:
    void setDump(const Dump *dump) { m_dump = dump; }
    /// The axis the ticker labels: names are shown only when each step has room for one.
    void setAxis(QCPAxis *axis) { m_axis = axis; }

protected:
    double getTickStep(const QCPRange &range) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;

private:
    const Dump *m_dump = nullptr;
    QCPAxis *m_axis = nullptr;
    bool m_names = false;
};

} // namespace bufferscope
