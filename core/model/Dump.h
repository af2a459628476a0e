#pragma once

#include "model/FileRole.h"
#include "model/Shape.h"
#include "model/StringPool.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bufferscope {

using ShapeId = std::uint32_t; ///< index into Dump::shapes; 0 is "no shape"
inline constexpr std::uint32_t kNone = 0xffffffffu;

/// Where a piece of text sits in one of the dump's files; read back lazily (see TextSource).
struct TextRef
{
    std::uint64_t offset = 0;
    std::uint32_t length = 0; ///< a longer text is cut at 4 GiB
    std::uint32_t file = 0;
};

/// One distinct shape string of the dump, parsed once.
struct ShapeInfo
{
    StringId text = kNoString;
    std::int64_t logicalBytes = 0; ///< ByteSizeOf(shape, 8); 0 when unknown
    std::int32_t tupleArity = -1;  ///< top-level element count, -1 for arrays
    std::int32_t memorySpace = 0;  ///< `S(n)` of the layout
    ElementType elementType = ElementType::Invalid;
    bool valid = false;      ///< the shape parsed
    bool bytesKnown = false; ///< logicalBytes is exact (false for `?` dims or bad shapes)
};

enum class AllocationKind : std::uint8_t
{
    Parameter,
    Output,
    Constant,
    ThreadLocal,
    Temp
};
inline constexpr int kAllocationKindCount = 5;
std::string_view allocationKindName(AllocationKind kind); ///< "parameter", "output", ...

struct Allocation
{
    std::int64_t index = 0;
    std::int64_t size = 0;
    std::int32_t color = 0;
    std::int64_t page = -1;
    std::uint64_t pointer = 0; ///< pre-2022 `0x…` object address, 0 when absent
    std::int64_t parameterNumber = -1;
    StringId parameterShape = kNoString; ///< `shape |S|`, layout-free
    StringId parameterIndex = kNoString; ///< `at ShapeIndex {i}`
    StringId outputShape = kNoString;    ///< `output shape is |S|`
    bool isParameter = false;
    bool isConstant = false;
    bool isThreadLocal = false;
    bool isMaybeLiveOut = false;
    bool isPreallocatedTemp = false;
    AllocationKind kind = AllocationKind::Temp;
    std::uint32_t firstValue = 0; ///< into Dump::allocationValues
    std::uint32_t valueCount = 0;
    std::uint32_t firstCrossColor = 0; ///< into Dump::crossColorValues (2026 block)
    std::uint32_t crossColorCount = 0;
    std::uint32_t file = 0;
    std::int64_t line = 0;
};

struct Instruction
{
    std::int64_t step = -1; ///< index in InstructionSequence, -1 when not scheduled
    std::int64_t sourceLine = -1;
    TextRef text; ///< the whole `from instruction:` text
    StringId name = kNoString;
    ShapeId shape = 0; ///< the instruction's own shape (`%name = SHAPE opcode(`)
    StringId opcode = kNoString;
    StringId opType = kNoString; ///< metadata op_type
    StringId opName = kNoString; ///< metadata op_name
    StringId sourceFile = kNoString;
    std::uint32_t stackFrame = 0; ///< metadata stack_frame_id (1-based; 0: none)
    bool hasText = false;
};

/// One frame of a call stack, from the stack-frame tables of the module's optimized HLO text
/// (`<stem>.txt`, 2026; docs/FORMAT.md Part B §13): a place in the source and its caller.
struct StackFrame
{
    StringId file = kNoString;
    StringId function = kNoString;
    std::int32_t line = 0;
    std::int32_t column = 0;
    std::uint32_t parent = 0; ///< the calling frame's id (1-based); 0 for the outermost
};

struct Position
{
    std::uint32_t instruction = kNone;
    StringId index = kNoString; ///< printed ShapeIndex (`{1}`), kNoString when not printed
};

struct Use
{
    std::uint32_t instruction = kNone;
    StringId index = kNoString;
    std::int64_t operand = 0;
};

enum class UsesState : std::uint8_t
{
    Missing,
    Known,
    NotInitialized
};

/// One HLO value (` value: <ID NAME @C> (size=S,offset=O): SHAPE`).
struct Value
{
    // 8-byte fields first, then 4-byte, then 1-byte: 96 bytes, a million of them per big dump.
    std::int64_t id = 0;
    std::int64_t offset = 0;
    std::int64_t size = 0;   ///< assigned bytes (`size=`)
    std::int64_t start = -1; ///< live range, inclusive; -1 when the value has none
    std::int64_t end = -1;
    std::int64_t line = 0;             ///< the allocation's ` value:` line
    std::uint32_t instruction = kNone; ///< defining instruction
    StringId index = kNoString;        ///< ShapeIndex, always set ("{}" when not printed)
    std::int32_t color = 0;
    std::uint32_t allocation = kNone;
    ShapeId shape = 0;
    std::uint32_t firstPosition = 0;
    std::uint32_t positionCount = 0;
    std::uint32_t firstUse = 0;
    std::uint32_t useCount = 0;
    std::uint32_t file = 0;
    bool printedIndex = false; ///< SHORT carried `{idx}` (the instruction is a tuple)
    bool phi = false;
    UsesState usesState = UsesState::Missing;

    bool hasLiveRange() const { return start >= 0; }
    bool liveAt(std::int64_t step) const { return start >= 0 && start <= step && step <= end; }
};

enum class PeakFormat : std::uint8_t
{
    None,
    V1,
    V2,
    V3,
    V4
};

struct PeakEntry
{
    StringId name = kNoString;  ///< instruction name
    StringId index = kNoString; ///< `{idx}` (V2+), kNoString in V1
    std::int64_t bytes = 0;
    std::int64_t cumulative = -1;      ///< V3+
    std::vector<std::uint32_t> values; ///< the values this line stands for (V1 may be several)
};

struct StackTraceNode
{
    int depth = 0;
    std::string name;
    double percent = 0;
    std::int64_t total = 0;
    std::int64_t current = 0;
    std::int64_t remaining = 0;
};

/// What XLA printed after `Live ranges at T (peak):`; never mixed with BufferScope's own peak.
struct PrintedPeak
{
    bool present = false;
    bool undetermined = false; ///< "Peak memory could not be determined ..."
    std::uint32_t file = 0;    ///< where `Live ranges at T (peak):` stands
    std::int64_t line = 0;
    std::int64_t step = -1;
    PeakFormat format = PeakFormat::None;
    std::vector<PeakEntry> entries;
    std::int64_t bytes = 0; ///< sum of the printed entries
    std::int64_t stackTraceBytes = -1;
    std::vector<StackTraceNode> stackTrace;
};

enum class Severity : std::uint8_t
{
    Warning,
    Error
};

/// A message about the input, always tied to a file and a 1-based line (0: the whole file).
struct Diagnostic
{
    Severity severity = Severity::Warning;
    std::uint32_t file = 0;
    std::int64_t line = 0;
    std::string message;
    std::uint32_t value = kNone; ///< related value, when there is one
};

struct SourceFile
{
    std::string path;
    DumpFileRole role = DumpFileRole::Combined;
    std::int64_t size = 0;
};

/// Facts about how the text was written, detected while parsing (the "era" of XLA).
struct FormatTraits
{
    bool bom = false;
    bool crlf = false;
    bool allocationPointers = false;   ///< pre-2022 `0x…`
    bool gluedFromInstruction = false; ///< 2024 glued lines
    bool fromInstructionNoSpace = false;
    bool logicalBufferEra = false; ///< 2019 `name[i](#id @c) [off,size]` lines
    bool splitFiles = false;       ///< 2026 three-file layout
    bool truncated = false;
    bool hasUsedValues = false;
    bool hasLiveRange = false;
    bool liveRangeUnavailable = false;
    /// Complete, but printed by `BufferAssignment::ToString` (which ends after the value
    /// blocks; the dump writer adds the HloLiveRange section): no live ranges, no truncation.
    bool printedWithoutLiveRanges = false;
};

/// Reads lazily the long texts the parser only located (instruction text can be megabytes).
class TextSource
{
public:
    virtual ~TextSource() = default;
    /// The text, or an explanation in brackets when the file can no longer be read.
    virtual std::string read(const TextRef &ref) const = 0;
};

/// The immutable result of loading one module. Ids are dense indices into the vectors.
struct Dump
{
    std::string module;
    std::vector<SourceFile> files;
    StringPool strings;
    std::vector<ShapeInfo> shapes; ///< shapes[0] is the "no shape" entry
    std::vector<Instruction> instructions;
    std::vector<Allocation> allocations;
    std::vector<std::uint32_t> allocationValues; ///< value indices, grouped per allocation
    std::vector<std::uint32_t> crossColorValues;
    /// The colour each cross-colour value's own line printed (`@C`), parallel to
    /// crossColorValues; the value itself counts in its allocation's colour.
    std::vector<std::int32_t> crossColorPrinted;
    /// The colour `value` printed when an allocation of another colour holds it (the 2026
    /// cross-colour block), else -1.
    std::int32_t printedColorOf(std::uint32_t value) const;
    std::vector<Value> values; ///< ascending XLA id
    std::vector<Position> positions;
    std::vector<Use> uses;
    std::vector<std::uint32_t> sequence; ///< step -> instruction
    std::int64_t printedMax = -1;        ///< `HloLiveRange (max N)`
    std::optional<std::int64_t> printedTotalBytes;
    PrintedPeak printedPeak;
    std::vector<Diagnostic> warnings;
    /// What the reader did that the user should know and that is not a problem ("opened the
    /// memory-usage report: read its module's dump").
    std::vector<std::string> notes;
    std::int64_t suppressedWarnings = 0; ///< warnings beyond the stored limit
    FormatTraits traits;
    std::shared_ptr<const TextSource> textSource;

    // Lookups built after parsing.
    /// Steps run 0..maxStep() inclusive; step t < maxStep() executes sequence[t], and maxStep()
    /// itself is the end of the program (live ranges of outputs end there).
    std::int64_t maxStep() const { return static_cast<std::int64_t>(sequence.size()); }
    std::int64_t stepCount() const { return traits.hasLiveRange ? maxStep() + 1 : 0; }
    std::uint32_t instructionAtStep(std::int64_t step) const
    {
        return step >= 0 && step < maxStep() ? sequence[static_cast<std::size_t>(step)] : kNone;
    }
    bool hasLiveRanges() const { return traits.hasLiveRange; }
    /// Why a dump has no live ranges, in a sentence for the user; empty when it has them.
    std::string noLiveRangesText() const;
    std::string_view str(StringId id) const { return strings.view(id); }
    std::string_view valueName(const Value &value) const;
    /// The instruction's opcode; without its text, the start of its name, which XLA forms
    /// from the opcode ("custom-call.12" → "custom-call").
    std::string_view opcode(const Instruction &in) const;
    /// "name{idx}" as in BufferLiveRange (the join key).
    std::string valueKey(const Value &value) const;
    /// The SHORT name as the dump prints it: name plus `{idx}` only for tuple instructions.
    std::string valueDisplayName(const Value &value) const;
    std::string_view shapeText(const Value &value) const { return str(shapes[value.shape].text); }
    std::int64_t logicalBytes(const Value &value) const { return shapes[value.shape].logicalBytes; }
    const Instruction *instructionOf(const Value &value) const
    {
        return value.instruction == kNone ? nullptr : &instructions[value.instruction];
    }
    /// Value index for an XLA value id, kNone if absent.
    std::uint32_t findValueById(std::int64_t id) const;
    /// Value index by "name", "name{idx}" or the numeric id; kNone if absent.
    std::uint32_t findValue(std::string_view nameOrId) const;
    std::uint32_t findInstruction(std::string_view name) const;
    std::int64_t totalBytes() const;
    std::int64_t allocationSizeSum() const;
    std::string instructionText(std::uint32_t instruction) const;
    std::string sourceLocation(const Instruction &instruction) const; ///< "file.py:12" or ""
    std::string diagnosticText(const Diagnostic &d) const;            ///< "file:line: message"

    std::vector<std::uint32_t> instructionByName; ///< StringId -> instruction (kNone)
    /// The values each instruction defines: instructionValues[instructionValueStart[i] ..
    /// instructionValueStart[i + 1]) in ascending id (tuple instructions define several).
    std::vector<std::uint32_t> instructionValueStart;
    std::vector<std::uint32_t> instructionValues;
    std::pair<const std::uint32_t *, const std::uint32_t *>
    valuesOf(std::uint32_t instruction) const
    {
        const std::uint32_t *base = instructionValues.data();
        return {base + instructionValueStart[instruction],
                base + instructionValueStart[instruction + 1]};
    }
    /// The values each instruction reads, by the values' `uses:` lists: instructionUsers[
    /// instructionUserStart[i] .. instructionUserStart[i + 1]) in ascending index (a value read
    /// as two operands is there twice).
    std::vector<std::uint32_t> instructionUserStart;
    std::vector<std::uint32_t> instructionUsers;
    std::pair<const std::uint32_t *, const std::uint32_t *> usersOf(std::uint32_t instruction) const
    {
        const std::uint32_t *base = instructionUsers.data();
        return {base + instructionUserStart[instruction],
                base + instructionUserStart[instruction + 1]};
    }
    /// Call-stack frames; frame id k is stackFrames[k - 1]. Parents always point to a frame
    /// and never round a cycle (the reader cuts bad links and says so).
    std::vector<StackFrame> stackFrames;
    /// The frames of `instruction`'s call stack, innermost first (empty when it has none).
    std::vector<const StackFrame *> stackOf(const Instruction &instruction) const;
    /// Builds the lookups above; the parser calls it once.
    void buildIndexes();
};

std::string humanBytes(std::int64_t bytes); ///< tsl::strings::HumanReadableNumBytes
/// A change in bytes as every view and command writes one: "+1.00GiB", "-512B", "±0B" (the
/// ASCII minus, as humanBytes writes a negative size and scripts read it).
std::string signedHumanBytes(std::int64_t delta);

} // namespace bufferscope
