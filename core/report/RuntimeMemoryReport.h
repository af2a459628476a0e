#pragma once

#include "analysis/RuntimeMemory.h"

#include <string>

namespace bufferscope {

/// `bufferscope memory CAPTURE`: what each allocator of a capture really did (analysis/
/// RuntimeMemory), as text for a terminal (the capture's strings made safe for it) or JSON.
namespace RuntimeMemoryReport {

/// At most this many rows of the allocations live at the peak, per allocator.
inline constexpr std::size_t kTopRows = 20;

std::string text(const std::string &capture, const RuntimeMemory &memory);
/// "jit_f (by size: its only allocation of that size), allocation 3 ×2"; "not attributed".
std::string makerText(const RuntimeAllocator::Row::Maker &maker);
std::string madeByText(const RuntimeAllocator::Row &row); ///< each maker's, "; " between
/// The peak in one sentence: the running module's part beside its plan, then the rest.
std::string peakSentence(const RuntimeAllocator &a, const std::vector<ModulePlan> &plans);
std::string json(const std::string &capture, const RuntimeMemory &memory);
/// Why a module's part of the peak has no plan beside it: a short cell ("not in the
/// capture", "none matches", "by size") and its sentence; both empty where it has one, or is
/// no module's.
struct PlanNote
{
    std::string cell;
    std::string sentence;
};
PlanNote planNote(const RuntimeAllocator::Part &part);
/// The allocator's curve as CSV: allocator, time in picoseconds, bytes in use.
std::string curveCsv(const RuntimeAllocator &a);

} // namespace RuntimeMemoryReport

} // namespace bufferscope
