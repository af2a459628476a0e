#pragma once

#include "model/Shape.h"

#include <string>
#include <string_view>

namespace bufferscope {

/// Parses XLA's human shape strings, with or without layout:
/// `f32[16,32]{1,0:T(8,128)S(1)}`, `(s32[], bf16[<=8,?])`, `u32[]{:S(2)}`, `token[]`, `()`.
/// Bracket-balanced, no regular expressions; depth is bounded so hostile input cannot overflow
/// the stack.
class ShapeParser
{
public:
    /// Parses a shape at the start of `text`; trailing text is allowed and left unconsumed.
    static ShapeParseResult parsePrefix(std::string_view text);
    /// Parses `text` as exactly one shape (trailing spaces allowed).
    static ShapeParseResult parse(std::string_view text);
    /// The one shape-without-layout of BufferScope, as XLA's ShapeUtil::HumanString prints a
    /// shape: `bf16[8,128]{1,0:T(8,128)}` → `bf16[8,128]`, `(f32[2]{0}, /*index=1*/s8[4])` →
    /// `(f32[2], s8[4])`. Text that is no shape loses its braces, comments and spaces alike.
    /// Run signatures, out-of-memory matches and the breakdown by shape all use it.
    static std::string withoutLayout(std::string_view text);
    /// Length of the shape token at the start of `text` (balanced parentheses/braces), 0 if none.
    static std::size_t shapeTokenLength(std::string_view text);
};

} // namespace bufferscope
