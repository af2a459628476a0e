#include "drawing/StepTicker.h"

#include "models/QtText.h"

#include <cmath>

namespace bufferscope {

namespace {
constexpr double kNamePixels = 110; ///< each step this wide on screen: label it with its name
} // namespace

double StepTicker::getTickStep(const QCPRange &range)
{
    const double pixels = m_axis ? m_axis->axisRect()->width() : 0;
    m_names = m_dump && range.size() > 0 && pixels / range.size() >= kNamePixels;
    if (m_names)
        return 1;
    // Steps are integers, so are ticks: 1, 2, 5, 10, 20, 50, … (QCustomPlot's clean mantissas
    // include 2.5, which drew "2" at step 2.5).
    const double raw = range.size() / (mTickCount + 1e-10);
    if (raw <= 1)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double mantissa : {1.0, 2.0, 5.0})
        if (raw <= mantissa * magnitude)
            return mantissa * magnitude;
    return 10 * magnitude;
}

QVector<double> StepTicker::createTickVector(double tickStep, const QCPRange &range)
{
    QVector<double> ticks;
    // Named ticks sit at step centres: every view draws step t over [t, t + 1).
    const double offset = m_names ? 0.5 : 0.0;
    const double first = std::floor(range.lower / tickStep) * tickStep;
    for (double t = first; t <= range.upper + tickStep; t += tickStep) {
        const double at = t + offset;
        if (at >= range.lower && at <= range.upper)
            ticks.append(at);
        if (ticks.size() > 1000)
            break;
    }
    return ticks;
}

QString StepTicker::getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                                 int precision)
{
    const auto step = static_cast<std::int64_t>(std::floor(tick));
    if (m_names && m_dump) {
        const std::uint32_t ins = m_dump->instructionAtStep(step);
        if (ins != kNone)
            return QString::number(step) + QLatin1Char('\n') +
                   toQString(m_dump->str(m_dump->instructions[ins].name));
        if (step == m_dump->maxStep())
            return QString::number(step) + QStringLiteral("\n(end)");
    }
    return QCPAxisTicker::getTickLabel(static_cast<double>(step), locale, formatChar, precision);
}

} // namespace bufferscope
