#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace bufferscope {

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// Human size (XLA's units) for display; exact bytes belong in tooltips.
QString humanBytesText(qint64 bytes);
/// An axis tick: the largest IEC unit not above it, a space, and no more decimals than the
/// value needs (up to three): "0 B", "768 MiB", "1 GiB", "1.5 GiB", "−256 KiB".
QString tickBytesText(double bytes);
/// "1,234,567 bytes" with grouping, for tooltips.
QString exactBytesText(qint64 bytes);
/// A change in bytes: "+1.5KiB", "−512B" (a real minus sign) or "±0B".
QString signedBytesText(qint64 delta);

} // namespace bufferscope
