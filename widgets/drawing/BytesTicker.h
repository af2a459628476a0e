#pragma once

#include <qcustomplot.h>

namespace bufferscope {

/// Byte axes: ticks at 1, 2 or 5 times a power of 1024 (so labels read "256 KiB", not
/// "262144"), labelled in the fewest digits with a space before the unit ("768 MiB",
/// "1.5 GiB").
class BytesTicker : public QCPAxisTicker
{
public:
    /// How many byte labels an upright axis `pixels` long takes: one every 22 pixels or so,
    /// two at least, five at most (five on a short chart overlapped).
    static int ticksFor(int pixels);
    /// Puts a BytesTicker on the upright axis `axis` whose label count follows its length
    /// (ticksFor): when a replot finds the axis resized, the count changes and one more
    /// replot is queued.
    static void installUpright(QCPAxis *axis);

protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;
};

} // namespace bufferscope
