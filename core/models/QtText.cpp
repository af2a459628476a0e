#include "QtText.h"

#include "model/Dump.h"
#include "util/SafeText.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>

namespace bufferscope {

QString pathFromBytes(std::string_view bytes)
{
    QString out;
    out.reserve(static_cast<qsizetype>(bytes.size()));
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
    std::size_t i = 0;
    while (i < bytes.size()) {
        // Well-formed UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF) is text.
        std::size_t bad = 0;
        if (const std::size_t n = safetext::utf8Length(p + i, bytes.size() - i, bad); n > 0) {
            out += QString::fromUtf8(bytes.data() + i, static_cast<qsizetype>(n));
            i += n;
        } else {
            out += QChar(static_cast<char16_t>(0xDC00 + p[i])); // the byte, kept
            ++i;
        }
    }
    return out;
}

std::string pathBytes(const QString &path)
{
    std::string out;
    out.reserve(static_cast<std::size_t>(path.size()));
    const auto put = [&out](char32_t code) { safetext::appendUtf8(out, code); };
    for (qsizetype i = 0; i < path.size(); ++i) {
        const char16_t u = path.at(i).unicode();
        if (QChar::isHighSurrogate(u) && i + 1 < path.size() &&
            QChar::isLowSurrogate(path.at(i + 1).unicode())) {
            put(QChar::surrogateToUcs4(u, path.at(i + 1).unicode()));
            ++i;
        } else if (u >= 0xDC80 && u <= 0xDCFF) {
            out += static_cast<char>(u - 0xDC00); // a byte pathFromBytes kept
        } else if (QChar::isSurrogate(u)) {
            put(0xFFFD); // a lone surrogate of some other making: no byte stands for it
        } else {
            put(u);
        }
    }
    return out;
}

bool pathExists(const QString &path)
{
    std::error_code error;
    return std::filesystem::exists(pathBytes(path), error);
}

bool pathIsDir(const QString &path)
{
    std::error_code error;
    return std::filesystem::is_directory(pathBytes(path), error);
}

bool pathIsFile(const QString &path)
{
    std::error_code error;
    return std::filesystem::is_regular_file(pathBytes(path), error);
}

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
    return (negative ? QStringLiteral("-") : QString()) + number + QLatin1Char(' ') +
           QLatin1String(kUnits[unit]);
}

QString exactBytesText(qint64 bytes)
{
    QLocale locale(QLocale::English);
    return locale.toString(bytes) + QStringLiteral(" bytes");
}

QString signedBytesText(qint64 delta)
{
    return toQString(signedHumanBytes(delta));
}

} // namespace bufferscope
