#pragma once

#include <qcustomplot.h>

namespace bufferscope {

/// Byte axes: ticks at 1, 2 or 5 times a power of 1024 (so labels read "256 KiB", not
/// "262144"), labelled in the fewest digits with a space before the unit ("768 MiB",
/// "1.5 GiB").
class BytesTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;
};

} // namespace bufferscope
