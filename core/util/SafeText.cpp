#include "SafeText.h"

#include <cstdint>

namespace bufferscope::safetext {

namespace {

constexpr char kHex[] = "0123456789abcdef";

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char32_t decode(const unsigned char *p, std::size_t n)
{
    switch (n) {
    case 2:
        return (char32_t(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
    case 3:
        return (char32_t(p[0] & 0x0F) << 12) | (char32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    case 4:
        return (char32_t(p[0] & 0x07) << 18) | (char32_t(p[1] & 0x3F) << 12) |
               (char32_t(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    default:
        return p[0];
    }
}

void appendByteEscape(std::string &out, unsigned char c)
{
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
}

void appendCodePointEscape(std::string &out, char32_t c)
{
    out += "\\u{";
    bool started = false;
    for (int shift = 20; shift >= 0; shift -= 4) {
        const auto digit = static_cast<unsigned>((c >> shift) & 15);
        if (digit != 0 || started || shift <= 12) {
            out += kHex[digit];
            started = true;
        }
    }
    out += '}';
}

bool isNumber(std::string_view t)
{
    std::size_t i = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-'))
        ++i;
    std::size_t digits = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
        ++digits;
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
            ++digits;
    if (digits == 0)
        return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        std::size_t exponent = 0;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
            ++exponent;
        if (exponent == 0)
            return false;
    }
    return i == t.size();
}

} // namespace

std::size_t utf8Length(const unsigned char *p, std::size_t left, std::size_t &bad)
{
    const unsigned char c = p[0];
    std::size_t need = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (c < 0x80) {
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        need = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80; // overlong below U+0800
        hi = c == 0xED ? 0x9F : 0xBF; // surrogates U+D800..U+DFFF
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4;
        lo = c == 0xF0 ? 0x90 : 0x80; // overlong below U+10000
        hi = c == 0xF4 ? 0x8F : 0xBF; // past U+10FFFF
    } else {
        bad = 1;
        return 0;
    }
    for (std::size_t k = 1; k < need; ++k) {
        const unsigned char lower = k == 1 ? lo : 0x80;
        const unsigned char upper = k == 1 ? hi : 0xBF;
        if (k >= left || p[k] < lower || p[k] > upper) {
            bad = k;
            return 0;
        }
    }
    return need;
}

bool isBidiControl(char32_t c)
{
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

std::string unescapeC(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 >= text.size()) {
            out += text[i];
            continue;
        }
        const char c = text[i + 1];
        if (c >= '0' && c <= '7') {
            unsigned value = 0;
            std::size_t j = i + 1;
            for (std::size_t n = 0; n < 3 && j < text.size() && text[j] >= '0' && text[j] <= '7';
                 ++n, ++j)
                value = value * 8 + static_cast<unsigned>(text[j] - '0');
            if (value > 0xFF) { // not a byte: absl refuses it; keep the text as written
                out += text[i];
                continue;
            }
            out += static_cast<char>(value);
            i = j - 1;
            continue;
        }
        if (c == 'x') {
            unsigned value = 0;
            std::size_t j = i + 2;
            for (std::size_t n = 0; n < 2 && j < text.size() && hexDigit(text[j]) >= 0; ++n, ++j)
                value = value * 16 + static_cast<unsigned>(hexDigit(text[j]));
            if (j == i + 2) { // "\x" with no digit
                out += text[i];
                continue;
            }
            out += static_cast<char>(value);
            i = j - 1;
            continue;
        }
        if (c == 'u' || c == 'U') {
            const std::size_t digits = c == 'u' ? 4 : 8;
            char32_t value = 0;
            bool ok = i + 2 + digits <= text.size();
            for (std::size_t k = 0; ok && k < digits; ++k) {
                const int d = hexDigit(text[i + 2 + k]);
                ok = d >= 0;
                value = value * 16 + static_cast<char32_t>(d < 0 ? 0 : d);
            }
            if (!ok || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
                out += text[i];
                continue;
            }
            appendUtf8(out, value);
            i += 1 + digits;
            continue;
        }
        char decoded = 0;
        switch (c) {
        case 'n':
            decoded = '\n';
            break;
        case 'r':
            decoded = '\r';
            break;
        case 't':
            decoded = '\t';
            break;
        case 'a':
            decoded = '\a';
            break;
        case 'b':
            decoded = '\b';
            break;
        case 'f':
            decoded = '\f';
            break;
        case 'v':
            decoded = '\v';
            break;
        case '\\':
        case '\'':
        case '"':
        case '?':
            decoded = c;
            break;
        default: // not an escape absl writes: the backslash stays
            out += text[i];
            continue;
        }
        out += decoded;
        ++i;
    }
    return out;
}

bool needsTerminalEscape(std::string_view text)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = bytes[i];
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F)
                return true;
            ++i;
            continue;
        }
        std::size_t bad = 0;
        const std::size_t n = utf8Length(bytes + i, text.size() - i, bad);
        if (n == 0)
            return true;
        const char32_t cp = decode(bytes + i, n);
        if (cp < 0xA0 || isBidiControl(cp))
            return true;
        i += n;
    }
    return false;
}

std::string forTerminal(std::string_view text)
{
    if (!needsTerminalEscape(text))
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 16);
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = bytes[i];
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F)
                appendByteEscape(out, c);
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::size_t bad = 0;
        const std::size_t n = utf8Length(bytes + i, text.size() - i, bad);
        if (n == 0) {
            for (std::size_t k = 0; k < bad; ++k)
                appendByteEscape(out, bytes[i + k]);
            i += bad;
            continue;
        }
        const char32_t cp = decode(bytes + i, n);
        if (cp < 0xA0 || isBidiControl(cp))
            appendCodePointEscape(out, cp);
        else
            out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

std::string validUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    const auto *bytes = reinterpret_cast<const unsigned char *>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = bytes[i];
        if (c < 0x80) {
            if (c != 0)
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::size_t bad = 0;
        const std::size_t n = utf8Length(bytes + i, text.size() - i, bad);
        if (n > 0)
            out.append(text.substr(i, n));
        else
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        i += n > 0 ? n : bad;
    }
    return out;
}

std::string csvCell(std::string_view text)
{
    std::string out = validUtf8(text);
    if (out.empty())
        return out;
    const char first = out.front();
    const bool risky = first == '=' || first == '+' || first == '-' || first == '@' ||
                       first == '\t' || first == '\r';
    if (risky && !isNumber(out))
        out.insert(out.begin(), '\'');
    return out;
}

std::string forMarkdown(std::string_view text)
{
    const std::string safe = forTerminal(text);
    std::string out;
    out.reserve(safe.size() + 8);
    for (const char c : safe) {
        if (std::string_view("\\`*_{}[]()#+-.!|<>~@&").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

void appendUtf8(std::string &out, char32_t c)
{
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

} // namespace bufferscope::safetext
