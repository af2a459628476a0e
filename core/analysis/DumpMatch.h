#pragma once

#include "model/Dump.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace bufferscope {

/// The two programs' steps side by side: rows in program order, each a step of A, of B or of
/// both (an instruction matched in both). Both columns increase; a step missing on one side is
/// -1. Built from the matched instructions that keep their order (a longest increasing run);
/// between two of them, stretches as long on both sides pair step for step, and otherwise a
/// stretch shows as steps of one side followed by steps of the other.
struct StepAlignment
{
    struct Row
    {
        std::int64_t a = -1;
        std::int64_t b = -1;
    };
    std::vector<Row> rows;             ///< steps 0..maxStep of both, the programs' ends in one row
    std::vector<std::uint32_t> rowOfA; ///< A step -> row
    std::vector<std::uint32_t> rowOfB; ///< B step -> row

    /// Calls fn(row, a, b) for each row in order, a side without a step in the row holding its
    /// step of the row before (0 before its first): what each curve shows at that row.
    template <class Fn> void forEachHeld(Fn fn) const
    {
        std::int64_t a = 0;
        std::int64_t b = 0;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            a = rows[r].a >= 0 ? rows[r].a : a;
            b = rows[r].b >= 0 ? rows[r].b : b;
            fn(r, a, b);
        }
    }

    /// The B step in A step `a`'s row, or the nearest B step before it (0 when none).
    std::int64_t bAt(std::int64_t a) const;
    /// The A step in B step `b`'s row, or the nearest A step before it.
    std::int64_t aAt(std::int64_t b) const;
};

/// Which value of B is which value of A, found by structure, not by name: a recompile renumbers
/// instructions (`fusion.27` → `fusion.28`) and value ids, and may reorder the schedule.
///
/// Instructions are matched first, by keys from the strictest to the loosest:
///  - refined: what an instruction is — opcode, shape with layout, op_name, op_type, source
///    line and call stack, the shape index, shape and colour of each value it defines, and for
///    an entry parameter its number — refined six times with the same of its operands (by
///    operand number), of the values it holds (positions) and of its users (Weisfeiler–Lehman
///    style), so equal-looking temporaries differ by where they sit in the data flow;
///  - own: the same without the neighbours;
///  - loose: opcode, op_name, op_type, source and stack only (a shape that changed: "resized";
///    an instruction without text is known by its name's stem);
///  - the same three without what a rename changes: the names inside op_name's scopes
///    (`jit(_tau_kernel)/jit(main)/…` is `jit()/jit()/…`), the source line, the stack;
///  - the same again without the `jit(…)` and `pjit(…)` scopes at all, which an upgrade adds
///    or drops (`jit(f)/jit(main)/op` → `jit(f)/op`);
///  - only between compiles of one program (the keys above paired at least half of the
///    smaller side): the structure alone (opcode, shapes, neighbours; refined, then own),
///    then from every pair an operand or single user of the same opcode and element types
///    (a split GEMM keeps one of its halves), then a name, opcode and shape, then a name and
///    opcode left over on both sides.
/// For each key: first the sure pairs (a key one instruction has on each side; off the
/// schedule, groups as large on both sides in order of appearance), spread outwards (the
/// definers of the same operand, a single user alike on each side); then the rest, nearest
/// first on the steps aligned by what is matched so far, equal names breaking ties, spread again.
/// Values then pair within matched instructions by shape index, and values left over on both
/// sides with one name and size pair with each other, then those of one size, defining opcode
/// and shape index live over the same stretch of the aligned program (an upgrade renamed
/// `cudnn-conv.1.0` `cudnn-conv.1` while something beside it changed); allocations pair by the
/// bytes of the matched values they share.
struct DumpMatch
{
    std::vector<std::uint32_t> instructionInB; ///< per A instruction, kNone when unmatched
    std::vector<std::uint32_t> instructionInA; ///< per B instruction
    std::vector<std::uint32_t> valueInB;       ///< per A value
    std::vector<std::uint32_t> valueInA;       ///< per B value
    std::vector<std::uint32_t> allocationInB;  ///< per A allocation: its counterpart
    std::vector<std::uint32_t> allocationInA;  ///< per B allocation
    StepAlignment steps;
    bool cancelled = false;
    /// The metadata paired at least half of the smaller side's instructions: two compiles of
    /// one program, where structure alone may pair the rest and a region of unpaired
    /// instructions on both sides is one computation restructured.
    bool sameProgram = false;

    /// Whether step `sa` of A and step `sb` of B are the same point of the program: both unset,
    /// or in one row of the alignment (matched instructions, the programs' ends, or the same
    /// place in a stretch as long on both sides).
    bool sameStep(const Dump &a, std::int64_t sa, const Dump &b, std::int64_t sb) const;

    /// `threads` as util/Parallel.h threadsFor takes them.
    static DumpMatch compute(const Dump &a, const Dump &b,
                             const std::atomic<bool> *cancel = nullptr, int threads = 0);
};

} // namespace bufferscope
