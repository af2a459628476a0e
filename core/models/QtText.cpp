#include "QtText.h"

#include "model/Dump.h"

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
    const auto at = [&bytes](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    std::size_t i = 0;
    while (i < bytes.size()) {
        const unsigned char b = at(i);
        if (b < 0x80) {
            out += QChar(static_cast<char16_t>(b));
            ++i;
            continue;
        }
        // A well-formed UTF-8 sequence (no overlong form, no surrogate, nothing past U+10FFFF).
        std::size_t length = 0;
        char32_t code = 0;
        char32_t least = 0;
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
            code = b & 0x1F;
            least = 0x80;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3;
            code = b & 0x0F;
            least = 0x800;
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4;
            code = b & 0x07;
            least = 0x10000;
        }
        bool valid = length > 0 && i + length <= bytes.size();
        for (std::size_t k = 1; valid && k < length; ++k) {
            valid = (at(i + k) & 0xC0) == 0x80;
            code = (code << 6) | (at(i + k) & 0x3F);
        }
        valid = valid && code >= least && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF);
        if (!valid) {
            out += QChar(static_cast<char16_t>(0xDC00 + b)); // the byte, kept
            ++i;
            continue;
        }
        if (code >= 0x10000) {
            out += QChar(QChar::highSurrogate(code));
            out += QChar(QChar::lowSurrogate(code));
        } else {
            out += QChar(static_cast<char16_t>(code));
        }
        i += length;
    }
    return out;
}

std::string pathBytes(const QString &path)
{
    std::string out;
    out.reserve(static_cast<std::size_t>(path.size()));
    const auto put = [&out](char32_t code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    };
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
