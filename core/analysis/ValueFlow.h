#pragma once

#include "model/Dump.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// One place the dump lists a value at: a position (`positions:`, where the value appears in an
/// instruction's output, at a shape index) or a use (`uses:`, an instruction that reads it as
/// operand `operand`). `step` is the instruction's place in the schedule, -1 for instructions
/// outside the sequence (in a called computation, or in a dump without one).
struct ValueMark
{
    std::uint32_t instruction = kNone;
    std::int64_t step = -1;
    std::int64_t operand = -1;  ///< uses only
    StringId index = kNoString; ///< the printed shape index, kNoString when none was printed
};

/// A value and the data flow around it (docs/FORMAT.md Part B §12): where it appears, who reads
/// it, the values its defining instruction reads (producers) and the values its readers define
/// (consumers). Everything here comes from the dump's `uses:` and `positions:` lists.
struct ValueFlow
{
    std::vector<ValueMark> positions;     ///< in the dump's order
    std::vector<ValueMark> uses;          ///< in the dump's order
    std::vector<std::uint32_t> producers; ///< value indices, ascending, without the value itself
    std::vector<std::uint32_t> consumers; ///< value indices, ascending, without the value itself
    /// The dump printed this value's uses (older dumps and some values have none to print).
    bool usesKnown = false;

    /// The scheduled steps of the uses / positions, ascending, each once.
    std::vector<std::int64_t> useSteps() const;
    std::vector<std::int64_t> positionSteps() const;

    static ValueFlow of(const Dump &dump, std::uint32_t value);
};

/// The operand names of an instruction's text (`%a = f32[2] add(f32[2] %x, f32[2] %y), …` gives
/// `x`, `y`), in operand order; empty when the text is not an instruction.
std::vector<std::string_view> operandNames(std::string_view instructionText);

} // namespace bufferscope
