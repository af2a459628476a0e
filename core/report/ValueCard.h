#pragma once

#include "analysis/Categories.h"
#include "analysis/SourceFrames.h"
#include "analysis/ValueFlow.h"
#include "model/Dump.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bufferscope {

/// Everything BufferScope says about one value, decided once: `report --value` prints it as
/// text or JSON (Report::valueText, Report::valueJson) and the window's inspector renders it as
/// HTML with links (widgets/ValueInspector). Strings are the dump's, raw: each renderer makes
/// them safe for its exit.
struct ValueCard
{
    /// Where the value lives: its allocation and its offset in it.
    struct Placement
    {
        std::int64_t index = 0; ///< the allocation's number as XLA prints it
        AllocationKind kind = AllocationKind::Temp;
        std::int64_t size = 0;
        std::int64_t offset = 0;
        /// Its page in a multi-page assignment (XLA 32c53592fb prints `, page N`; the temps
        /// of a colour are split in pages of `page_size_kib`, one allocation each); -1: none.
        std::int64_t page = -1;
    };

    std::uint32_t value = 0; ///< its index in the dump
    std::int64_t id = 0;
    std::string name; ///< NAME or NAME{INDEX}
    std::string key;  ///< what `--value` and the diff match it by
    std::string shape;
    std::int32_t memorySpace = 0;
    /// "S(1) collective"; for a value XLA printed in another colour than its allocation's
    /// (docs/FORMAT.md Part B §14): "S(0): an S(1) value in an S(0) allocation".
    std::string memorySpaceText;
    std::int64_t bytes = 0;                   ///< assigned
    std::optional<std::int64_t> logicalBytes; ///< none: a dynamic or unreadable shape
    std::optional<Placement> allocation;      ///< none: in no allocation
    std::int64_t start = -1;                  ///< live range, -1 when none was printed
    std::int64_t end = -1;
    ValueFlow flow;                  ///< positions, uses (each with its step), producers, consumers
    bool usesNotInitialized = false; ///< XLA printed "uses: not initialized yet"
    std::uint32_t instruction = kNone; ///< its defining instruction
    std::string opcode;
    std::string opType;
    std::string opName;
    std::string source;             ///< "file.py:12", "" when none
    std::vector<SourcePlace> stack; ///< innermost first; the inline source as one frame
    std::string listedFile;         ///< where the dump lists it
    std::int64_t listedLine = 0;
    /// What kind of memory it is (analysis/Categories) and why; empty when not asked for.
    std::string category;
    std::string categoryEvidence;

    bool hasLiveRange() const { return start >= 0; }

    /// `flow`: the value's data flow when the caller has it (the workspace keeps the last one);
    /// else it is worked out here.
    /// `categories`: the dump's, for the value's category and its evidence.
    static ValueCard of(const Dump &dump, std::uint32_t value, const ValueFlow *flow = nullptr,
                        const ValueCategories *categories = nullptr);
};

/// What a page other than 0 says (`, page N` in the allocation header): "2, not the first: …".
std::string pageNote(std::int64_t page);

} // namespace bufferscope
