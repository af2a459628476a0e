#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
#include "parse/detail/LineRules.h"

namespace bufferscope::parse_detail {

class ChunkBuilder;

/// The main builder: reads the whole dump into `dump`, handing stretches of it to other
/// threads (the read-ahead, the chunks of Used values and of the live ranges).
class Builder : public LineRules<Builder>
{
public:
    Builder(Dump &dump, const ParseOptions &options)
        : LineRules(dump, dump, options), m_prefault(options.threads)
    {}

    /// Returns false when parsing must stop (fatal error, cancel, or restartSerial).
    bool parseText(sv text, std::uint32_t file, MappedFile *mapping, std::int64_t &bytesDone,
                   std::int64_t bytesTotal);
    void finish();

    bool cancelled = false;
    /// The chunked parse met something only the serial path can decide (a value listed twice,
    /// a block outside the section...): the load starts over with one thread.
    bool restartSerial = false;
    std::optional<Diagnostic> fatal;

private:
    // -- diagnostics
    /// Time spent per section, logged at debug level (--verbose) to show where parsing goes.
    void enterSection()
    {
        const auto now = std::chrono::steady_clock::now();
        m_sectionSeconds[static_cast<std::size_t>(m_timedSection)] +=
            std::chrono::duration<double>(now - m_sectionSince).count();
        m_sectionSince = now;
        m_timedSection = m_section;
    }

    void fail(std::int64_t line, std::string message)
    {
        if (!fatal)
            fatal = Diagnostic{Severity::Error, m_file, line, std::move(message), kNone};
    }

    // -- what LineRules asks of its role (LineRules.h)
    friend class LineRules<Builder>;
    friend class ChunkBuilder;
    void warnAt(std::int64_t line, std::string message, std::uint32_t value = kNone)
    {
        if (d.warnings.size() >= m_options.maxWarnings) {
            ++d.suppressedWarnings;
            return;
        }
        d.warnings.push_back({Severity::Warning, m_file, line, std::move(message), value});
    }
    sv str(StringId id) const { return d.strings.view(id); }
    StringId intern(sv text, std::uint64_t hash) { return d.strings.intern(text, hash); }
    StringId intern(sv text) { return intern(text, StringPool::hash(text)); }
    std::uint32_t instructionFor(StringId name)
    {
        if (name >= m_instructionByName.size())
            m_instructionByName.resize(std::max<std::size_t>(d.strings.size(), name + 1) * 2,
                                       kNone);
        std::uint32_t &slot = m_instructionByName[name];
        if (slot == kNone) {
            slot = static_cast<std::uint32_t>(d.instructions.size());
            Instruction ins;
            ins.name = name;
            d.instructions.push_back(ins);
        }
        return slot;
    }
    ShapeId shapeFor(sv text) { return shapeFor(text, StringPool::hash(text)); }
    ShapeId shapeFor(sv text, std::uint64_t hash)
    {
        if (const ShapeId found = m_shapes.find(text, hash); found != 0)
            return found;
        return addShape(text, hash, makeShapeInfo(text, hash));
    }
    const std::vector<std::uint32_t> &idOrder() const { return m_idOrder; }
    const FlatMap64 &valueById() const { return m_valueById; }
    const ShapeTable &mainShapes() const { return m_shapes; }
    std::uint32_t unlistedValue(const ShortValue &s)
    {
        warn("value " + std::to_string(s.id) +
             " is listed under 'Used values' but in no allocation; shown as unallocated");
        return addValue(s, kNone, 0, 0, {});
    }
    bool claimBlock(std::uint32_t value, std::int64_t id)
    {
        if (value >= m_blockSeen.size())
            m_blockSeen.resize(std::max<std::size_t>(d.values.size(), value + 1) * 2, 0);
        if (m_blockSeen[value]) {
            warn("value " + std::to_string(id) + " has a second 'Used values' block; ignored",
                 value);
            return false;
        }
        m_blockSeen[value] = 1;
        return true;
    }
    Value &figures() { return d.values[m_blockValue]; }
    void startPositions(std::uint32_t at) { figures().firstPosition = at; }
    void startUses(std::uint32_t at)
    {
        figures().firstUse = at;
        figures().usesState = UsesState::Known;
    }
    Instruction *textFor(std::uint32_t instruction)
    {
        Instruction &ins = d.instructions[instruction];
        return ins.hasText ? nullptr : &ins; // a tuple's elements repeat their instruction's text
    }

    // -- line kinds
    void handleLine(sv line, std::uint64_t offset, sv next);
    bool handleFirstLine(sv line);
    void allocationHeader(sv line);
    void allocationValue(sv line);
    void crossColorValue(sv line);
    void logicalBufferLine(sv line);
    void liveRangeHeader(sv line);
    void sequenceLine(sv line);
    void sequenceStep(std::int64_t step, sv name, StringId nameId);
    void bufferLiveRange(sv line);
    void liveRange(sv name, sv index, std::int64_t start, std::int64_t end);
    void buildIdOrder();
    std::uint32_t findValueByKey(sv name, sv index);
    /// Builds m_valueByKey once; returns m_keysUnique.
    bool buildValueByKey();
    /// The value called NAME{IDX} in m_valueByKey (built), or FlatMap64::kMissing; reads only.
    std::uint32_t lookupValueByKey(sv name, sv index) const;
    /// Whether value `value` is NAME{IDX}; reads only.
    bool isValueCalled(std::uint32_t value, sv name, sv index) const
    {
        const Value &v = d.values[value];
        return v.instruction != kNone && d.str(v.index) == index &&
               d.str(d.instructions[v.instruction].name) == name;
    }
    void peakHeader(sv line);
    void peakEntry(sv line);
    void stackTraceHeader(sv line);
    void stackTraceLine(sv line);

    /// Hashes of a line's name and shape, worked out ahead (readAhead).
    struct LineHashes
    {
        std::uint64_t name = 0;
        std::uint64_t shape = 0;
    };
    std::uint32_t addValue(const ShortValue &s, std::uint32_t allocation, std::int64_t offset,
                           std::int64_t size, sv shape, const LineHashes *hashes = nullptr);

    // -- reading ahead: the lines of the Allocations section are split into fields on other
    // threads while this one builds the tables from them, in file order (ARCHITECTURE.md, "The
    // parse in chunks").
    enum class TokenKind : std::uint8_t
    {
        Other, ///< handled by handleLine
        AllocationValue
    };
    struct Token
    {
        QueuedLine line;
        TokenKind kind = TokenKind::Other;
        ShortValue value;   ///< AllocationValue: the value
        std::int64_t a = 0; ///< offset
        std::int64_t b = 0; ///< size
        sv shape;
        LineHashes hashes;
    };
    /// Splits `line` (no '\r') into a token; what it cannot split stays TokenKind::Other.
    static void tokenize(sv line, Token &token, std::string &scratch);
    /// Parses from `begin` (a line start) to the end of the Allocations section, with
    /// `threads` - 1 threads splitting lines ahead of this one. Returns where the serial loop
    /// goes on; npos when the parse must stop.
    std::size_t readAhead(sv text, std::size_t begin, MappedFile *mapping, int threads,
                          std::int64_t &bytesDone, std::int64_t bytesTotal);
    void prefetchToken(const Token &token, bool entries) const;
    void allocationValue(const Token &token);
    /// For a value line: whether an allocation is open for it; warns when not.
    bool valueLineHasAllocation();

    // -- the Used values section in chunks, on every core (ARCHITECTURE.md, "The parse in
    // chunks")
    /// Parses the Used values section from `begin` (the line after its header) in chunks on
    /// `threads` threads and merges them in file order. Returns where the serial loop goes on
    /// (the line that ends the section, or the end of `text`); npos when the parse must stop.
    std::size_t parseUsedValues(sv text, std::size_t begin, MappedFile *mapping, int threads,
                                std::int64_t &bytesDone, std::int64_t bytesTotal);
    void mergeChunk(ChunkBuilder &chunk);
    /// The first value block (a `<` line whose instruction is not the previous block's) or
    /// section end in [from, limit), or npos: where chunks may be cut.
    static std::size_t chunkBoundary(sv text, std::size_t from, std::size_t limit);

    // -- the InstructionSequence and BufferLiveRange lines in chunks (ARCHITECTURE.md, "The
    // parse in chunks")
    /// Parses the lines of the subsection whose header the serial loop has just read (the
    /// InstructionSequence, or with `sequence` false the BufferLiveRange) from `begin`, in
    /// chunks on `threads` threads. Returns where the serial loop goes on: the first line that
    /// is not one of them, or `begin` when there are too few to split. Returns npos when the
    /// parse must stop: cancelled, or something only the serial parse decides (restartSerial).
    std::size_t parseLiveRangeLines(sv text, std::size_t begin, MappedFile *mapping, int threads,
                                    std::int64_t &bytesDone, std::int64_t bytesTotal,
                                    bool sequence);

    /// The big arrays' pages, faulted in ahead by the read-ahead's helpers when they have room
    /// (parseText, readAhead); what is left before the Used values section needs it.
    Prefaulter m_prefault;
    bool m_enterUsedValues = false; ///< handleLine saw `Used values:`
    /// Where the Used values section that starts at `from` ends (ParseOptions::usedValues off):
    /// the first line that is not indented, a value block or blank; counts the lines to it.
    static std::size_t usedValuesEnd(sv text, std::size_t from, std::int64_t &line,
                                     MappedFile *mapping);
    Section m_section = Section::Start;
    bool m_sawHeader = false;
    bool m_sawAllocations = false;
    bool m_stopFile = false;
    std::uint32_t m_allocation = kNone;
    bool m_inCrossColor = false;
    /// Values whose colour is not their allocation's: a warning unless the allocation's
    /// cross-colour block (which follows its values) lists them.
    struct ColorCheck
    {
        std::uint32_t value;
        std::uint32_t allocation;
        std::uint32_t file;
        std::int64_t line;
    };
    std::vector<ColorCheck> m_colorChecks;
    void flushColorChecks();
    std::int64_t m_maxEnd = -1;
    std::int64_t m_totalLines = 0;      ///< over all files read so far
    std::int64_t m_allocationBytes = 0; ///< sum of allocation sizes, kept under kMaxSum
    std::int64_t m_valueBytes = 0;      ///< sum of value sizes, kept under kMaxSum
    Section m_timedSection = Section::Start;
    std::chrono::steady_clock::time_point m_sectionSince = std::chrono::steady_clock::now();
    std::array<double, 10> m_sectionSeconds{};
    std::vector<std::uint32_t> m_instructionByName;
    FlatMap64 m_valueById{64}; // parseText reserves for a big file
    FlatMap64 m_allocationByIndex{64};
    FlatMap64 m_valueByKey{16};
    bool m_keyMapBuilt = false;
    bool m_keysUnique = true;              ///< no two values share an instruction and index
    std::vector<std::uint32_t> m_idOrder;  ///< value indices in ascending id
    std::size_t m_liveCursor = 0;          ///< into m_idOrder: the next expected live range
    std::vector<std::uint8_t> m_blockSeen; ///< per value: its Used-values block was read
    std::vector<std::int64_t> m_peakLines;
    std::int64_t m_liveRangeLine = 0;
    std::uint32_t m_liveRangeFile = 0;
};

} // namespace bufferscope::parse_detail
