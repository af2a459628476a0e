#pragma once

#include "model/Dump.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bufferscope {

struct BreakdownRow
{
    std::string key;
    std::int64_t bytes = 0; ///< assigned bytes (`size=`) of the group's values
    std::int64_t values = 0;
    std::vector<std::uint32_t> members; ///< value indices, largest first
};

/// What the values live at one step are made of, grouped four ways. Every grouping adds up to
/// the sum of the assigned bytes of the values of `memorySpace` live at `step`.
struct Breakdown
{
    std::int64_t step = -1;
    std::int32_t memorySpace = 0;
    std::int64_t bytes = 0;
    std::int64_t valueCount = 0;
    std::vector<BreakdownRow> byOpName;
    std::vector<BreakdownRow> bySource;
    std::vector<BreakdownRow> byOpType;
    std::vector<BreakdownRow> byKind;

    static Breakdown compute(const Dump &dump, std::int64_t step, std::int32_t memorySpace = 0);

    static constexpr const char *kNoOpName = "(no op_name)";
    static constexpr const char *kNoSource = "(no source)";
    static constexpr const char *kNoOpType = "(no op_type)";
};

} // namespace bufferscope
