#include "drawing/StepTicker.h"

#include "models/QtText.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace bufferscope {

namespace {
/// Below this many pixels a step, no name is measured: the steps are numbered.
constexpr double kFewestNamePixels = 40;
/// The room kept between two neighbouring names.
constexpr double kNameGap = 12;
} // namespace

QString StepTicker::nameAt(std::int64_t step) const
{
    const std::uint32_t ins = m_dump->instructionAtStep(step);
    if (ins != kNone)
        return toQString(m_dump->str(m_dump->instructions[ins].name));
    if (step == m_dump->maxStep())
        return QStringLiteral("(end)");
    return {};
}

QSharedPointer<StepTicker> StepTicker::install(QCPAxis *axis)
{
    auto ticker = QSharedPointer<StepTicker>::create();
    ticker->m_axis = axis;
    axis->setTicker(ticker);
    // The ticks are made before the layout, from the width the axis had at the last one: a
    // plot made narrower (another dump's wider value names, a smaller window) would keep
    // names that no longer fit, until something else replotted it. Once laid out, the
    // choice is made again from the width as it is now.
    QCustomPlot *plot = axis->parentPlot();
    QObject::connect(
        plot, &QCustomPlot::afterLayout, plot, [weak = ticker.toWeakRef(), axis, plot] {
            const QSharedPointer<StepTicker> t = weak.toStrongRef();
            if (t && axis->ticker() == t && t->m_usedWidth != axis->axisRect()->width() &&
                t->namesFit(axis->range()) != t->m_names)
                plot->replot(QCustomPlot::rpQueuedReplot);
        });
    return ticker;
}

bool StepTicker::namesFit(const QCPRange &range) const
{
    const double pixels = m_axis ? m_axis->axisRect()->width() : 0;
    if (!m_dump || range.size() <= 0 || pixels / range.size() < kFewestNamePixels)
        return false;
    // Every name on screen is measured in the axis's own font, so that none runs into the
    // next, whatever the names and the fonts: at most pixels / kFewestNamePixels of them.
    const QFontMetricsF metrics(m_axis->tickLabelFont());
    const double room = pixels / range.size() - kNameGap;
    // Only the dump's steps have names (kept within them before any cast: a range may lie
    // far outside).
    const double end = static_cast<double>(m_dump->maxStep());
    const auto first = static_cast<std::int64_t>(std::clamp(std::floor(range.lower), 0.0, end));
    const auto last = static_cast<std::int64_t>(std::clamp(std::floor(range.upper), 0.0, end));
    for (std::int64_t step = first; step <= last; ++step)
        if (metrics.horizontalAdvance(nameAt(step)) > room)
            return false;
    return true;
}

double StepTicker::getTickStep(const QCPRange &range)
{
    m_usedWidth = m_axis ? m_axis->axisRect()->width() : 0;
    m_names = namesFit(range);
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
    if (m_names && m_dump)
        if (const QString name = nameAt(step); !name.isEmpty())
            return QString::number(step) + QLatin1Char('\n') + name;
    return QCPAxisTicker::getTickLabel(static_cast<double>(step), locale, formatChar, precision);
}

} // namespace bufferscope
