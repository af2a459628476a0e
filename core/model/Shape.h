#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// XLA primitive types as printed in shapes (`f32`, `bf16`, `pred`, ...), plus Tuple.
enum class ElementType : std::uint8_t
{
    Invalid,
    Pred,
    S2,
    S4,
    S8,
    S16,
    S32,
    S64,
    U2,
    U4,
    U8,
    U16,
    U32,
    U64,
    F4E2M1FN,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E4M3B11FNUZ,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E3M4,
    F8E8M0FNU,
    F16,
    BF16,
    F32,
    F64,
    C64,
    C128,
    Token,
    Opaque,
    Tuple,
};

ElementType elementTypeFromName(std::string_view name);
std::string_view elementTypeName(ElementType type);
/// Bytes per element as ShapeUtil::ByteSizeOfPrimitiveType gives it (sub-byte types: 1).
int elementByteSize(ElementType type);

struct Dimension
{
    enum class Kind : std::uint8_t
    {
        Static,
        Bounded,
        Unbounded
    };
    std::int64_t size = 0; ///< the bound for `<=N`, 0 for `?`
    Kind kind = Kind::Static;
};

struct Tile
{
    std::vector<std::int64_t> dims; ///< -1 stands for `*` (combine dimension)
};

struct Layout
{
    bool present = false; ///< a `{...}` followed the dimensions
    std::vector<std::int64_t> minorToMajor;
    std::vector<Tile> tiles;
    std::int64_t memorySpace = 0;     ///< `S(n)`
    std::int64_t elementSizeBits = 0; ///< `E(n)`, 0 when absent
    std::string attributes;           ///< everything after `:`, verbatim
};

/// A fully parsed XLA shape. Arrays have a type, dims and maybe a layout; tuples have elements.
struct Shape
{
    ElementType type = ElementType::Invalid;
    std::vector<Dimension> dims;
    Layout layout;
    std::vector<Shape> elements;

    bool isTuple() const { return type == ElementType::Tuple; }
    bool isArray() const { return type != ElementType::Tuple && type != ElementType::Invalid; }
    bool hasUnboundedDim() const;
    /// Product of dims (bounded dims at their bound); 1 for a scalar.
    std::int64_t elementCount() const;
    /// ShapeUtil::ByteSizeOf(shape, pointer_size): a tuple is pointer_size per top-level element.
    std::int64_t byteSize(int pointerSize = 8) const;
    /// The shape as XLA prints it without layout (the allocation-header form).
    std::string toStringWithoutLayout() const;
};

struct ShapeParseResult
{
    Shape shape;
    bool ok = false;
    std::string error;        ///< what was expected, when !ok
    std::size_t consumed = 0; ///< characters of the input that formed the shape
};

} // namespace bufferscope
