#include "Shape.h"

#include <array>
#include <limits>
#include <utility>

namespace bufferscope {

namespace {
struct TypeEntry
{
    std::string_view name;
    ElementType type;
    int bytes;
};

// ShapeUtil::ByteSizeOfPrimitiveType: sub-byte and 8-bit types take one byte, token none,
// opaque a pointer.
constexpr std::array kTypes = {
    TypeEntry{"pred", ElementType::Pred, 1},
    TypeEntry{"s2", ElementType::S2, 1},
    TypeEntry{"s4", ElementType::S4, 1},
    TypeEntry{"s8", ElementType::S8, 1},
    TypeEntry{"s16", ElementType::S16, 2},
    TypeEntry{"s32", ElementType::S32, 4},
    TypeEntry{"s64", ElementType::S64, 8},
    TypeEntry{"u2", ElementType::U2, 1},
    TypeEntry{"u4", ElementType::U4, 1},
    TypeEntry{"u8", ElementType::U8, 1},
    TypeEntry{"u16", ElementType::U16, 2},
    TypeEntry{"u32", ElementType::U32, 4},
    TypeEntry{"u64", ElementType::U64, 8},
    TypeEntry{"f4e2m1fn", ElementType::F4E2M1FN, 1},
    TypeEntry{"f8e5m2", ElementType::F8E5M2, 1},
    TypeEntry{"f8e4m3", ElementType::F8E4M3, 1},
    TypeEntry{"f8e4m3fn", ElementType::F8E4M3FN, 1},
    TypeEntry{"f8e4m3b11fnuz", ElementType::F8E4M3B11FNUZ, 1},
    TypeEntry{"f8e5m2fnuz", ElementType::F8E5M2FNUZ, 1},
    TypeEntry{"f8e4m3fnuz", ElementType::F8E4M3FNUZ, 1},
    TypeEntry{"f8e3m4", ElementType::F8E3M4, 1},
    TypeEntry{"f8e8m0fnu", ElementType::F8E8M0FNU, 1},
    TypeEntry{"f16", ElementType::F16, 2},
    TypeEntry{"bf16", ElementType::BF16, 2},
    TypeEntry{"f32", ElementType::F32, 4},
    TypeEntry{"f64", ElementType::F64, 8},
    TypeEntry{"c64", ElementType::C64, 8},
    TypeEntry{"c128", ElementType::C128, 16},
    TypeEntry{"token", ElementType::Token, 0},
    TypeEntry{"opaque", ElementType::Opaque, 8},
};
} // namespace

ElementType elementTypeFromName(std::string_view name)
{
    for (const auto &entry : kTypes) {
        if (entry.name == name)
            return entry.type;
    }
    return ElementType::Invalid;
}

std::string_view elementTypeName(ElementType type)
{
    if (type == ElementType::Tuple)
        return "tuple";
    for (const auto &entry : kTypes) {
        if (entry.type == type)
            return entry.name;
    }
    return "invalid";
}

int elementByteSize(ElementType type)
{
    for (const auto &entry : kTypes) {
        if (entry.type == type)
            return entry.bytes;
    }
    return 0;
}

bool Shape::hasUnboundedDim() const
{
    for (const auto &dim : dims) {
        if (dim.kind == Dimension::Kind::Unbounded)
            return true;
    }
    return false;
}

std::int64_t Shape::elementCount() const
{
    std::int64_t count = 1;
    for (const auto &dim : dims) {
        if (dim.kind == Dimension::Kind::Unbounded)
            return -1;
        if (__builtin_mul_overflow(count, dim.size, &count))
            return -1;
    }
    return count;
}

std::int64_t Shape::byteSize(int pointerSize) const
{
    switch (type) {
    case ElementType::Invalid:
        return -1;
    case ElementType::Tuple:
        return static_cast<std::int64_t>(elements.size()) * pointerSize;
    case ElementType::Token:
        return 0;
    case ElementType::Opaque:
        return pointerSize;
    default:
        break;
    }
    const std::int64_t count = elementCount();
    if (count < 0)
        return -1;
    std::int64_t bytes = 0;
    if (layout.elementSizeBits > 0) {
        if (__builtin_mul_overflow(count, layout.elementSizeBits, &bytes))
            return -1;
        return bytes / 8 + (bytes % 8 != 0 ? 1 : 0);
    }
    if (__builtin_mul_overflow(count, static_cast<std::int64_t>(elementByteSize(type)), &bytes))
        return -1;
    return bytes;
}

std::string Shape::toStringWithoutLayout() const
{
    std::string out;
    if (type == ElementType::Tuple) {
        out += '(';
        for (std::size_t i = 0; i < elements.size(); ++i) {
            if (i > 0)
                out += ", ";
            out += elements[i].toStringWithoutLayout();
        }
        out += ')';
        return out;
    }
    out += elementTypeName(type);
    out += '[';
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            out += ',';
        switch (dims[i].kind) {
        case Dimension::Kind::Static:
            out += std::to_string(dims[i].size);
            break;
        case Dimension::Kind::Bounded:
            out += "<=" + std::to_string(dims[i].size);
            break;
        case Dimension::Kind::Unbounded:
            out += '?';
            break;
        }
    }
    out += ']';
    return out;
}

} // namespace bufferscope
