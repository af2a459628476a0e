#pragma once

// The proto reader of HloProtoDumps (parse/HloProtoDump.h), shared by its parts: the shapes and
// names (HloProtoShapes.cpp), the module's graph and XLA's dataflow (HloProtoFlow.cpp), the
// schedule and live ranges (HloProtoLiveRange.cpp) and the text XLA prints for them
// (HloProtoText.cpp). Nothing outside core/parse includes it.

#include "proto/hlo_min.pb.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bufferscope::hloproto {

namespace pb = bufferscope::xlapb;
using Index = std::vector<std::int64_t>;

/// A file that breaks the rules is refused with this, caught at the top.
struct Refused
{
    std::string message;
};

[[noreturn]] void refuse(std::string message);

std::string indexText(const Index &index);

// -- shapes, printed as ShapeUtil::HumanString(WithLayout) prints them

std::string_view elementTypeName(std::int32_t type);

constexpr std::int32_t kTuple = 13;

void appendShape(std::string &out, const pb::ShapeProto &s, bool layout, int depth);

std::string shapeText(const pb::ShapeProto &s, bool layout);

/// Every subshape of a shape, in pre-order: {} first, then {0}, {0,0}, … {1}, …
void subshapes(const pb::ShapeProto &s, Index &at,
               std::vector<std::pair<Index, const pb::ShapeProto *>> &out);

/// XLA names: what HloInstruction names are made of. Anything else would be read as syntax in
/// the text this builds; such a file is refused.
bool isHloName(std::string_view name);

/// CEscape, as XLA prints metadata strings.
std::string cEscape(std::string_view s);

// -- the module as a graph

struct Ins
{
    const pb::HloInstructionProto *p = nullptr;
    int computation = -1;
    bool root = false;
    bool tupleShaped = false;
    std::vector<int> operands; ///< instruction numbers
    std::vector<int> users;    ///< each user once, in instruction order
    std::vector<int> called;   ///< computation numbers
    std::vector<std::pair<Index, const pb::ShapeProto *>> parts;
    /// Part numbers by ShapeIndex, for tuple-shaped instructions (an array has one part, {}).
    std::map<Index, int> tupleParts;
    /// The value each part defines (its number in the values), -1 where it passes one on.
    std::vector<int> defines;
    /// The part at `index`, or -1.
    int partAt(const Index &index) const
    {
        if (!tupleShaped)
            return index.empty() ? 0 : -1;
        const auto found = tupleParts.find(index);
        return found == tupleParts.end() ? -1 : found->second;
    }
    /// The values at each part (HloDataflowAnalysis's InstructionValueSet), by value number.
    std::vector<std::vector<int>> sets;
    bool flowed = false;
    const std::string &opcode() const { return p->opcode(); }
};

struct Comp
{
    const pb::HloComputationProto *p = nullptr;
    std::vector<int> instructions; ///< as listed
    std::vector<int> parameters;   ///< by parameter number
    std::vector<int> callers;      ///< the instructions that call it
    int root = -1;
    enum class Flow : std::uint8_t
    {
        No,
        Running,
        Done
    } flow = Flow::No;
};

struct Val
{
    std::int64_t id = 0;
    int instruction = -1;
    Index index;
    std::int64_t color = 0;
    std::int64_t size = 0;
    std::vector<std::pair<int, Index>> positions; ///< the defining one first
    struct UseOf
    {
        int instruction;
        int operand;
        Index index;
    };
    std::vector<UseOf> uses;
    std::int64_t start = -1, end = -1;
    int buffer = -1; ///< HloBuffer (alias set) number
};
class Reader
{
public:
    /// `allowance`: the most bytes of text the module may become (decompress::expandedLimit of
    /// the proto's size); its positions and uses together are held to one per 32 bytes of it.
    /// A module that would pass either is refused: its size is then the product of repeated
    /// fields (a tuple of N parts used K times over), not anything XLA writes.
    Reader(const pb::HloProto &proto, std::int64_t allowance)
        : m_proto(proto), m_module(proto.hlo_module()), m_allowance(allowance)
    {}

    /// The module's stack-frame index as the optimized HLO text prints it
    /// (HloModule::PrintStackFrameIndex, docs/FORMAT.md §13): four tables, ids 1-based, the
    /// parent printed one above the stored one. Empty when the module has none.
    std::string stackTables() const;

    std::string run(std::vector<std::string> &notes);

private:
    const pb::HloProto &m_proto;
    const pb::HloModuleProto &m_module;
    std::int64_t m_allowance;
    /// Positions and uses made so far, against m_allowance / 32.
    std::int64_t m_references = 0;
    void countReferences(std::size_t more);
    /// Refuses the module once `text` is larger than the allowance.
    void checkText(const std::string &text) const;
    std::vector<Ins> m_ins;
    std::vector<Comp> m_comps;
    std::unordered_map<std::int64_t, int> m_insById;
    std::unordered_map<std::int64_t, int> m_compById;
    int m_entry = -1;
    std::vector<Val> m_vals;
    std::unordered_map<std::int64_t, int> m_valById;
    std::vector<int> m_sequence; ///< flattened, instruction numbers
    std::vector<std::int64_t> m_time;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_span; ///< per computation, -1 unscheduled
    std::vector<std::string> m_notes;
    std::set<std::string> m_unfollowed;
    std::vector<bool> m_asyncContext; ///< per computation: wrapped by an async instruction
    std::vector<int> m_pending;       ///< topologicalOrder's operand counts
    mutable std::unordered_map<const pb::ShapeProto *, std::int64_t> m_byteSizes;

    // -- reading the module

    void graph();

    void values();

    // -- HloDataflowAnalysis: the values at each part of each instruction

    const std::vector<int> *setAt(int instruction, const Index &index) const;

    static Index join(const Index &head, const Index &tail, std::size_t from = 0);

    /// Parameters of a called computation are bound to the caller's operands (call: operand k;
    /// conditional branch b: operand b + 1; while: the while itself).
    struct Binding
    {
        std::vector<int> operands; ///< per parameter number, the instruction it stands for
    };

    void flow(int c, const Binding *binding, int depth);

    std::vector<int> topologicalOrder(const Comp &comp);

    /// Adds to `set` the values of `from` it does not hold, counted as references.
    void addTo(std::vector<int> &set, const std::vector<int> *from);
    /// addTo's marks: m_mark[v] == m_generation while v is in m_markedSet.
    std::vector<std::uint32_t> m_mark;
    std::uint32_t m_generation = 0;
    const std::vector<int> *m_markedSet = nullptr;

    void flowInstruction(int n, const Binding *binding, int depth);

    // -- HloValue::positions and ComputeUses

    /// HloValue.cc MayUseOperandValue.
    static bool mayUse(const Index &index, const std::string &user);

    void positionsAndUses();

    // -- HloLiveRange, module-scoped

    void schedule();

    void flatten(int c, int depth);

    /// In a computation an async instruction wraps, a value lives until its async-done: the
    /// latest time of the async-done instructions that call it (the computation's end when one
    /// is not scheduled).
    std::int64_t asyncDoneTime(int computation) const;

    bool parameterAliased(const Ins &param, const Index &index);
    /// The module's input_output_alias entries as (parameter number, index), sorted: looked
    /// up per parameter value (one tuple parameter may have 100,000 entries).
    std::vector<std::pair<std::int64_t, Index>> m_aliased;
    bool m_aliasedRead = false;
    /// The logical buffers in a maybe-live-out allocation, sorted: where the buffer assignment
    /// honours an alias (a donated parameter shares the output's allocation).
    std::vector<std::int64_t> m_liveOutBuffers;
    std::size_t m_unhonouredAliases = 0; ///< alias entries whose parameter is not live out
    std::string m_firstUnhonoured;       ///< the first, named

    void liveRanges();

    // -- the text XLA prints for it (BufferAssignment::ToString, HloLiveRange::ToString)

    /// A value XLA's dataflow makes where control flow merges: at a while or conditional, or
    /// at the parameter of a computation a while calls (HloValue::is_phi).
    bool isPhi(const Val &v) const;

    std::string valueName(const Val &v) const;

    std::string instructionText(const Ins &ins) const;

    std::string text() const;

    /// ShapeUtil::ByteSizeOf(shape, 8); -1 for a shape with an unbounded dimension. Worked
    /// out once per shape.
    std::int64_t byteSize(const pb::ShapeProto &shape) const;

    static std::int64_t byteSizeOnce(const pb::ShapeProto &shape);

    /// HloLiveRange::ComputePeakMemoryMoment and the list ToString prints at it: the values
    /// live at the first time the sum of their instructions' whole shapes is largest.
    void peakText(std::string &out, const std::vector<int> &order) const;
};

} // namespace bufferscope::hloproto
