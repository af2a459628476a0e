#pragma once

#include "model/Dump.h"

#include <string_view>

namespace bufferscope {

/// What BufferScope calls a collective, one definition for the run summary, the comparison and
/// its causes (docs/FORMAT.md Part A, "Collectives"): an instruction that moves data between
/// devices and defines a buffer of its own for it — all-gather, all-reduce, reduce-scatter,
/// all-to-all, ragged-all-to-all, collective-permute, collective-broadcast, their `-start` forms
/// and an `async-start`/`async-update` wrapper named after one (`all-gather-start.3`). Never a
/// `-done`: HloDataflowAnalysis gives it no value of its own, it passes its start's buffer on.
namespace collectives {

/// Whether an opcode as printed is a collective ("all-gather", "all-reduce-start").
bool isOpcode(std::string_view opcode);

/// Whether an instruction is one: its opcode, or an async wrapper whose name (its uniquifying
/// suffix dropped) is a collective opcode.
bool isInstruction(std::string_view opcode, std::string_view name);

/// Whether a value is the buffer of a collective: its defining instruction is one.
bool isValue(const Dump &dump, const Value &value);

} // namespace collectives
} // namespace bufferscope
