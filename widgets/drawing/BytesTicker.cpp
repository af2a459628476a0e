#include "drawing/BytesTicker.h"

#include "models/QtText.h"

#include <algorithm>
#include <cmath>

namespace bufferscope {

int BytesTicker::ticksFor(int pixels)
{
    return std::clamp(pixels / 22, 2, 5);
}

void BytesTicker::installUpright(QCPAxis *axis)
{
    auto ticker = QSharedPointer<BytesTicker>::create();
    axis->setTicker(ticker);
    QCustomPlot *plot = axis->parentPlot();
    QObject::connect(plot, &QCustomPlot::afterReplot, axis, [axis, plot] {
        const int ticks = ticksFor(axis->axisRect()->height());
        if (axis->ticker()->tickCount() == ticks)
            return;
        axis->ticker()->setTickCount(ticks);
        plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

double BytesTicker::getTickStep(const QCPRange &range)
{
    const double raw = range.size() / (mTickCount + 1e-10);
    if (raw <= 1)
        return 1;
    // Power of 1024 below the raw step, then the smallest 1/2/5 x 2^k mantissa that covers it.
    double unit = 1;
    while (unit * 1024 <= raw)
        unit *= 1024;
    const double mantissa = raw / unit;
    double nice = 1;
    while (nice < mantissa)
        nice *= 2;
    return nice * unit;
}

QString BytesTicker::getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                                  int precision)
{
    Q_UNUSED(locale)
    Q_UNUSED(formatChar)
    Q_UNUSED(precision)
    // Ticks that are a rounding error off zero (range arithmetic) read "0 B".
    if (std::fabs(tick) < 0.5)
        tick = 0;
    return tickBytesText(tick);
}

} // namespace bufferscope
