#include "ShapeParser.h"

#include <algorithm>
#include <charconv>

namespace bufferscope {

namespace {

constexpr int kMaxDepth = 64;

bool isIdentChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class Cursor
{
public:
    explicit Cursor(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }
    bool consume(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    bool consume(std::string_view s)
    {
        if (m_text.substr(m_pos, s.size()) != s)
            return false;
        m_pos += s.size();
        return true;
    }
    void skipSpaces()
    {
        while (peek() == ' ')
            ++m_pos;
    }
    bool readInt(std::int64_t &value)
    {
        const char *first = m_text.data() + m_pos;
        const char *last = m_text.data() + m_text.size();
        auto [ptr, ec] = std::from_chars(first, last, value);
        if (ec != std::errc() || ptr == first)
            return false;
        m_pos += static_cast<std::size_t>(ptr - first);
        return true;
    }
    std::string_view readIdent()
    {
        const std::size_t start = m_pos;
        while (!atEnd() && isIdentChar(m_text[m_pos]))
            ++m_pos;
        return m_text.substr(start, m_pos - start);
    }
    std::size_t pos() const { return m_pos; }
    void setPos(std::size_t pos) { m_pos = pos; }
    std::string_view text() const { return m_text; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Index just past the bracket that closes the one at `open` (which must be `(`, `{` or `[`),
/// honouring nesting of all three kinds; npos if unbalanced.
std::size_t matchClose(std::string_view text, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '{' || c == '[') {
            if (++depth > kMaxDepth * 4)
                return std::string_view::npos;
        } else if (c == ')' || c == '}' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
    }
    return std::string_view::npos;
}

class Parser
{
public:
    explicit Parser(std::string_view text) : m_cur(text) {}

    bool parseShape(Shape &shape, int depth)
    {
        if (depth > kMaxDepth)
            return fail("shape nested more than 64 levels deep");
        if (m_cur.consume('('))
            return parseTuple(shape, depth);
        return parseArray(shape);
    }

    std::string error;
    Cursor m_cur;

private:
    bool fail(std::string message)
    {
        if (error.empty())
            error = std::move(message) + " at column " + std::to_string(m_cur.pos() + 1);
        return false;
    }

    /// Skips a `/* … */` comment and the spaces after it, if there is one.
    bool skipComment()
    {
        if (!m_cur.consume("/*"))
            return true;
        const std::size_t end = m_cur.text().find("*/", m_cur.pos());
        if (end == std::string_view::npos)
            return fail("unterminated '/*' comment");
        m_cur.setPos(end + 2);
        m_cur.skipSpaces();
        return true;
    }

    bool parseTuple(Shape &shape, int depth)
    {
        shape.type = ElementType::Tuple;
        m_cur.skipSpaces();
        if (m_cur.consume(')'))
            return true;
        for (;;) {
            // XLA's shape printer writes a comment before every fifth element:
            // `(f32[], …, s32[], /*index=5*/f32[])` (docs/FORMAT.md §3.8).
            if (!skipComment())
                return false;
            Shape element;
            if (!parseShape(element, depth + 1))
                return false;
            shape.elements.push_back(std::move(element));
            m_cur.skipSpaces();
            if (m_cur.consume(')'))
                return true;
            if (!m_cur.consume(','))
                return fail("expected ',' or ')' in tuple shape");
            m_cur.skipSpaces();
        }
    }

    bool parseArray(Shape &shape)
    {
        const std::string_view name = m_cur.readIdent();
        if (name.empty())
            return fail("expected an element type or '('");
        shape.type = elementTypeFromName(name);
        if (shape.type == ElementType::Invalid)
            return fail("unknown element type '" + std::string(name) + "'");
        if (!m_cur.consume('['))
            return fail("expected '[' after element type");
        if (!m_cur.consume(']')) {
            for (;;) {
                Dimension dim;
                if (m_cur.consume('?')) {
                    dim.kind = Dimension::Kind::Unbounded;
                } else {
                    if (m_cur.consume("<="))
                        dim.kind = Dimension::Kind::Bounded;
                    if (!m_cur.readInt(dim.size) || dim.size < 0)
                        return fail("expected a dimension size");
                }
                shape.dims.push_back(dim);
                if (m_cur.consume(']'))
                    break;
                if (!m_cur.consume(','))
                    return fail("expected ',' or ']' in dimensions");
            }
        }
        if (m_cur.peek() == '{')
            return parseLayout(shape.layout);
        return true;
    }

    bool parseLayout(Layout &layout)
    {
        const std::size_t open = m_cur.pos();
        const std::size_t close = matchClose(m_cur.text(), open);
        if (close == std::string_view::npos)
            return fail("unbalanced '{' in layout");
        layout.present = true;
        m_cur.consume('{');
        if (m_cur.peek() != ':' && m_cur.peek() != '}') {
            for (;;) {
                std::int64_t dim = 0;
                if (!m_cur.readInt(dim))
                    return fail("expected a minor-to-major dimension in layout");
                layout.minorToMajor.push_back(dim);
                if (!m_cur.consume(','))
                    break;
            }
        }
        if (m_cur.consume(':')) {
            const std::size_t attrStart = m_cur.pos();
            const std::string_view attrs = m_cur.text().substr(attrStart, close - 1 - attrStart);
            layout.attributes.assign(attrs);
            if (!parseLayoutAttributes(attrs, layout))
                return false;
            m_cur.setPos(close - 1);
        }
        if (!m_cur.consume('}'))
            return fail("expected '}' to close layout");
        return true;
    }

    /// Tiles, memory space and element size are pulled out; the other attributes (L, #, *, SC,
    /// P, M, D and whatever future XLA adds) are kept verbatim but not interpreted.
    bool parseLayoutAttributes(std::string_view attrs, Layout &layout)
    {
        std::size_t i = 0;
        while (i < attrs.size()) {
            std::size_t nameEnd = i;
            while (nameEnd < attrs.size() && attrs[nameEnd] != '(' &&
                   (isIdentChar(attrs[nameEnd]) || attrs[nameEnd] == '#' || attrs[nameEnd] == '*'))
                ++nameEnd;
            const std::string_view name = attrs.substr(i, nameEnd - i);
            if (nameEnd >= attrs.size() || attrs[nameEnd] != '(') {
                // An attribute without arguments: skip one character and go on.
                i = nameEnd > i ? nameEnd : i + 1;
                continue;
            }
            std::size_t pos = nameEnd;
            while (pos < attrs.size() && attrs[pos] == '(') {
                const std::size_t close = matchClose(attrs, pos);
                if (close == std::string_view::npos)
                    return fail("unbalanced '(' in layout attributes");
                const std::string_view arg = attrs.substr(pos + 1, close - pos - 2);
                if (name == "T") {
                    Tile tile;
                    std::size_t j = 0;
                    while (j <= arg.size() && !arg.empty()) {
                        std::size_t comma = arg.find(',', j);
                        if (comma == std::string_view::npos)
                            comma = arg.size();
                        const std::string_view part = arg.substr(j, comma - j);
                        std::int64_t v = -1;
                        if (part != "*") {
                            auto [p, ec] =
                                std::from_chars(part.data(), part.data() + part.size(), v);
                            if (ec != std::errc() || p != part.data() + part.size())
                                return fail("bad tile dimension in layout");
                        }
                        tile.dims.push_back(v);
                        j = comma + 1;
                    }
                    layout.tiles.push_back(std::move(tile));
                } else if (name == "S" || name == "E") {
                    std::int64_t v = 0;
                    auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), v);
                    if (ec != std::errc() || p != arg.data() + arg.size() || v < 0)
                        return fail("bad " + std::string(name) + "(n) in layout");
                    (name == "S" ? layout.memorySpace : layout.elementSizeBits) = v;
                }
                pos = close;
                if (name != "T" && name != "SC")
                    break;
            }
            i = pos;
        }
        return true;
    }
};

} // namespace

ShapeParseResult ShapeParser::parsePrefix(std::string_view text)
{
    ShapeParseResult result;
    Parser parser(text);
    result.ok = parser.parseShape(result.shape, 0);
    result.consumed = parser.m_cur.pos();
    if (!result.ok)
        result.error = parser.error;
    return result;
}

ShapeParseResult ShapeParser::parse(std::string_view text)
{
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    ShapeParseResult result = parsePrefix(text);
    if (result.ok && result.consumed != text.size()) {
        result.ok = false;
        result.error =
            "unexpected text after shape at column " + std::to_string(result.consumed + 1);
    }
    return result;
}

std::size_t ShapeParser::shapeTokenLength(std::string_view text)
{
    if (text.empty())
        return 0;
    if (text[0] == '(') {
        const std::size_t close = matchClose(text, 0);
        return close == std::string_view::npos ? 0 : close;
    }
    // An array shape has no spaces; its layout braces may hold ':' and '(' but never spaces.
    std::size_t i = 0;
    int depth = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '(' || c == '{' || c == '[')
            ++depth;
        else if (c == ')' || c == '}' || c == ']') {
            if (depth == 0)
                break;
            --depth;
        } else if ((c == ' ' || c == ',') && depth == 0)
            break;
        ++i;
    }
    return depth == 0 ? i : 0;
}

std::string ShapeParser::withoutLayout(std::string_view text)
{
    const ShapeParseResult parsed = parse(text);
    if (parsed.ok)
        return parsed.shape.toStringWithoutLayout();
    std::string out;
    out.reserve(text.size());
    int braces = 0;
    int brackets = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            const std::size_t close = text.find("*/", i + 2);
            i = close == std::string_view::npos ? text.size() : close + 1;
            continue;
        }
        if (c == '{' || c == '}') {
            braces = c == '{' ? braces + 1 : std::max(0, braces - 1);
            continue;
        }
        if (braces > 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        brackets += c == '[' ? 1 : c == ']' ? -1 : 0;
        out += c;
        if (c == ',' && brackets <= 0)
            out += ' '; // between tuple elements, as HumanString writes them
    }
    return out;
}

} // namespace bufferscope
