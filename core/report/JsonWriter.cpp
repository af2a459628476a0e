#include "JsonWriter.h"

#include "util/SafeText.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace bufferscope {

std::string JsonWriter::escape(std::string_view text)
{
    // Names come from untrusted files: JSON must be UTF-8 (RFC 8259 §8.1), so ill-formed
    // sequences are written as U+FFFD, as decoders that replace do.
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = bytes[i];
        if (c >= 0x80) {
            std::size_t bad = 0;
            const std::size_t n = safetext::utf8Length(bytes + i, text.size() - i, bad);
            if (n > 0)
                out.append(text.substr(i, n));
            else
                out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            i += n > 0 ? n : bad;
            continue;
        }
        ++i;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::newline()
{
    if (m_indent <= 0)
        return;
    m_out += '\n';
    m_out.append(m_stack.size() * static_cast<std::size_t>(m_indent), ' ');
}

void JsonWriter::separator()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_stack.empty())
        return;
    if (!m_stack.back().empty)
        m_out += ',';
    m_stack.back().empty = false;
    newline();
}

JsonWriter &JsonWriter::beginObject()
{
    separator();
    m_out += '{';
    m_stack.push_back({false, true});
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    const bool empty = m_stack.back().empty;
    m_stack.pop_back();
    if (!empty)
        newline();
    m_out += '}';
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    separator();
    m_out += '[';
    m_stack.push_back({true, true});
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    const bool empty = m_stack.back().empty;
    m_stack.pop_back();
    if (!empty)
        newline();
    m_out += ']';
    return *this;
}

JsonWriter &JsonWriter::key(std::string_view name)
{
    separator();
    m_out += escape(name);
    m_out += m_indent > 0 ? ": " : ":";
    m_afterKey = true;
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view text)
{
    separator();
    m_out += escape(text);
    return *this;
}

JsonWriter &JsonWriter::value(std::int64_t number)
{
    separator();
    m_out += std::to_string(number);
    return *this;
}

JsonWriter &JsonWriter::value(double number)
{
    separator();
    if (!std::isfinite(number)) {
        m_out += "null";
        return *this;
    }
    // As %.6g, but never in the locale's digits: JSON's decimal point is '.'.
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, number, std::chars_format::general, 6);
    m_out.append(buf, r.ec == std::errc() ? r.ptr : buf);
    return *this;
}

JsonWriter &JsonWriter::value(bool flag)
{
    separator();
    m_out += flag ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::null()
{
    separator();
    m_out += "null";
    return *this;
}

} // namespace bufferscope
