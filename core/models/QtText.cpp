#include "QtText.h"

#include "model/Dump.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace bufferscope {

QString richEscaped(const QString &text, qsizetype maxChars)
{
    QString shown = text;
    if (shown.size() > maxChars) {
        qsizetype cut = maxChars;
        if (cut > 0 && shown.at(cut - 1).isHighSurrogate())
            --cut;
        shown = shown.left(cut) + QStringLiteral("…");
    }
    return shown.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString plainToolTip(const QString &text, qsizetype maxChars)
{
    if (text.isEmpty())
        return {};
    return QStringLiteral("<qt>") + richEscaped(text, maxChars) + QStringLiteral("</qt>");
}

QString humanBytesText(qint64 bytes)
{
    return toQString(humanBytes(bytes));
}

QString tickBytesText(double bytes)
{
    static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    const double magnitude = std::fabs(bytes);
    int unit = 0;
    double scaled = magnitude;
    while (unit + 1 < static_cast<int>(std::size(kUnits)) && scaled >= 1024) {
        scaled /= 1024;
        ++unit;
    }
    // The fewest decimals that write the tick exactly (ticks are 2^k steps: 1.5, 1.25, 1.125),
    // three at most.
    int decimals = 0;
    while (decimals < 3) {
        const double factor = std::pow(10.0, decimals);
        if (std::fabs(std::round(scaled * factor) / factor - scaled) <=
            1e-9 * std::max(1.0, scaled))
            break;
        ++decimals;
    }
    QString number = QString::number(scaled, 'f', decimals);
    if (number.contains(QLatin1Char('.'))) {
        while (number.endsWith(QLatin1Char('0')))
            number.chop(1);
        if (number.endsWith(QLatin1Char('.')))
            number.chop(1);
    }
    const bool negative = bytes < 0 && number != QLatin1String("0");
    return (negative ? QStringLiteral("−") : QString()) + number + QLatin1Char(' ') +
           QLatin1String(kUnits[unit]);
}

QString exactBytesText(qint64 bytes)
{
    QLocale locale(QLocale::English);
    return locale.toString(bytes) + QStringLiteral(" bytes");
}

QString signedBytesText(qint64 delta)
{
    const QString magnitude = humanBytesText(delta < 0 ? -delta : delta);
    return delta > 0   ? QStringLiteral("+") + magnitude
           : delta < 0 ? QStringLiteral("−") + magnitude
                       : QStringLiteral("±0B");
}

} // namespace bufferscope
