// The proto reader's shapes and names, as XLA prints them (detail/HloProtoReader.h).

#include "model/Dump.h"
#include "model/ModuleNames.h"
#include "parse/ShapeParser.h"
#include "parse/StackFrames.h"
#include "parse/detail/HloProtoReader.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace bufferscope::hloproto {

[[noreturn]] void refuse(std::string message)
{
    throw Refused{std::move(message)};
}

std::string indexText(const Index &index)
{
    std::string out = "{";
    for (std::size_t i = 0; i < index.size(); ++i)
        out += (i ? "," : "") + std::to_string(index[i]);
    return out + "}";
}

std::string_view elementTypeName(std::int32_t type)
{
    switch (type) {
    case 1:
        return "pred";
    case 2:
        return "s8";
    case 3:
        return "s16";
    case 4:
        return "s32";
    case 5:
        return "s64";
    case 6:
        return "u8";
    case 7:
        return "u16";
    case 8:
        return "u32";
    case 9:
        return "u64";
    case 10:
        return "f16";
    case 11:
        return "f32";
    case 12:
        return "f64";
    case 14:
        return "opaque";
    case 15:
        return "c64";
    case 16:
        return "bf16";
    case 17:
        return "token";
    case 18:
        return "c128";
    case 19:
        return "f8e5m2";
    case 20:
        return "f8e4m3fn";
    case 21:
        return "s4";
    case 22:
        return "u4";
    case 23:
        return "f8e4m3b11fnuz";
    case 24:
        return "f8e5m2fnuz";
    case 25:
        return "f8e4m3fnuz";
    case 26:
        return "s2";
    case 27:
        return "u2";
    case 28:
        return "f8e4m3";
    case 29:
        return "f8e3m4";
    case 30:
        return "s1";
    case 31:
        return "u1";
    case 32:
        return "f4e2m1fn";
    case 33:
        return "f8e8m0fnu";
    case 34:
        return "buffer";
    case 35:
        return "f6e3m2fn";
    case 36:
        return "f6e2m3fn";
    default:
        return {};
    }
}

void appendShape(std::string &out, const pb::ShapeProto &s, bool layout, int depth)
{
    if (depth > 64)
        refuse("a shape nests tuples more than 64 deep");
    if (s.element_type() == kTuple) {
        out += '(';
        for (int i = 0; i < s.tuple_shapes_size(); ++i) {
            if (i)
                out += ", ";
            appendShape(out, s.tuple_shapes(i), layout, depth + 1);
        }
        out += ')';
        return;
    }
    const std::string_view name = elementTypeName(s.element_type());
    if (name.empty())
        refuse("a shape has element type " + std::to_string(s.element_type()) +
               ", which XLA does not define");
    out += name;
    out += '[';
    for (int i = 0; i < s.dimensions_size(); ++i) {
        if (i)
            out += ',';
        const std::int64_t d = s.dimensions(i);
        const bool dynamic = i < s.is_dynamic_dimension_size() && s.is_dynamic_dimension(i);
        if (d == std::numeric_limits<std::int64_t>::min())
            out += '?';
        else
            out += (dynamic ? "<=" : "") + std::to_string(d);
    }
    out += ']';
    if (!layout || !s.has_layout())
        return;
    const pb::LayoutProto &l = s.layout();
    // A scalar prints its layout only for what it adds: `s32[]{:T(128)}`.
    if (s.dimensions_size() == 0 && l.tiles_size() == 0 && l.memory_space() == 0 &&
        l.element_size_in_bits() == 0)
        return;
    out += '{';
    for (int i = 0; i < l.minor_to_major_size(); ++i)
        out += (i ? "," : "") + std::to_string(l.minor_to_major(i));
    std::string extra;
    for (const pb::TileProto &t : l.tiles()) {
        extra += "T(";
        for (int i = 0; i < t.dimensions_size(); ++i)
            extra += (i ? "," : "") + std::to_string(t.dimensions(i));
        extra += ')';
    }
    if (l.element_size_in_bits() != 0)
        extra += "E(" + std::to_string(l.element_size_in_bits()) + ")";
    if (l.memory_space() != 0)
        extra += "S(" + std::to_string(l.memory_space()) + ")";
    if (!extra.empty())
        out += ':' + extra;
    out += '}';
}

std::string shapeText(const pb::ShapeProto &s, bool layout)
{
    std::string out;
    appendShape(out, s, layout, 0);
    return out;
}

void subshapes(const pb::ShapeProto &s, Index &at,
               std::vector<std::pair<Index, const pb::ShapeProto *>> &out)
{
    if (out.size() > (std::size_t{1} << 24))
        refuse("a shape has more than 16 million parts");
    out.push_back({at, &s});
    if (s.element_type() != kTuple)
        return;
    for (int i = 0; i < s.tuple_shapes_size(); ++i) {
        at.push_back(i);
        subshapes(s.tuple_shapes(i), at, out);
        at.pop_back();
    }
}

bool isHloName(std::string_view name)
{
    if (name.empty() || name.size() > 4096)
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '-';
    });
}

std::string cEscape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\'':
            out += "\\'";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            if (u < 0x20 || u == 0x7f) {
                const char oct[] = {'\\', static_cast<char>('0' + (u >> 6)),
                                    static_cast<char>('0' + ((u >> 3) & 7)),
                                    static_cast<char>('0' + (u & 7)), 0};
                out += oct;
            } else {
                out += c;
            }
        }
    }
    return out;
}

} // namespace bufferscope::hloproto
