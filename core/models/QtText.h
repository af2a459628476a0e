#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace bufferscope {

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// A file name's bytes as a QString that keeps them: valid UTF-8 as its text, and each byte that
/// is not (a name made on another system, or by hand: ff fe) as the lone surrogate U+DC80 + the
/// byte, as Python's "surrogateescape" does. Qt's own decoding replaces such a byte with U+FFFD,
/// after which the file cannot be opened. Every path that comes from the command line or from
/// a folder's listing becomes a QString this way, and goes back to bytes with pathBytes.
QString pathFromBytes(std::string_view bytes);
/// The bytes of a path made by pathFromBytes (any other QString: its UTF-8).
std::string pathBytes(const QString &path);
/// What is at a path, by its bytes (QFileInfo would look for the name with U+FFFD in it).
bool pathExists(const QString &path);
bool pathIsDir(const QString &path);
bool pathIsFile(const QString &path);

/// How much of one piece of dump text a tooltip or a rich-text view shows.
inline constexpr qsizetype kMaxRichChars = 2000;

/// Text from a dump (or a file name) for a place that reads rich text — a label with links,
/// an HTML view, a tooltip built of several parts: HTML-escaped, line breaks kept as <br>, cut
/// at `maxChars` with "…". Every piece of dump text shown as rich text goes through this.
QString richEscaped(const QString &text, qsizetype maxChars = kMaxRichChars);
inline QString richEscaped(std::string_view text, qsizetype maxChars = kMaxRichChars)
{
    return richEscaped(toQString(text), maxChars);
}

/// A tooltip that shows `text` as it is. Qt shows a tooltip that looks like HTML as HTML
/// (Qt::mightBeRichText), so a name of nested tables froze the window; this one is escaped
/// and marked as rich text ("<qt>…</qt>"), cut at `maxChars`. Every tooltip, item tooltip and
/// ToolTipRole that holds dump text or a file name goes through this.
QString plainToolTip(const QString &text, qsizetype maxChars = kMaxRichChars);

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
