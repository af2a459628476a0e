#pragma once

#include "model/Dump.h"

#include <qcustomplot.h>

namespace bufferscope {

/// Program-order axes: integer steps, and at deep zoom (few steps on screen, each wide enough
/// for its name in the axis's font) the name of the instruction scheduled at each step, so
/// the axis reads like the schedule.
class StepTicker : public QCPAxisTicker
{
public:
    /// A ticker made the ticker of `axis`: names are shown only when each step has room for
    /// one at the axis's width as laid out.
    static QSharedPointer<StepTicker> install(QCPAxis *axis);
    void setDump(const Dump *dump) { m_dump = dump; }

protected:
    double getTickStep(const QCPRange &range) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;

private:
    /// The instruction's name at `step`, "(end)" past the last; empty where there is none.
    QString nameAt(std::int64_t step) const;
    /// Every step of `range` on screen has room for its name.
    bool namesFit(const QCPRange &range) const;

    const Dump *m_dump = nullptr;
    QCPAxis *m_axis = nullptr;
    bool m_names = false;
    int m_usedWidth = 0; ///< the axis's width the last ticks were made for
};

} // namespace bufferscope
