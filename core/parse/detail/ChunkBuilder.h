#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
#include "parse/detail/Builder.h"

namespace bufferscope::parse_detail {

/// Ids a chunk gives to what it adds itself (names, instructions, shapes) carry kLocal until
/// the merge renumbers them; a dump with 2^31 of anything is read serially.
constexpr std::uint32_t kLocal = 0x80000000u;
inline bool isLocal(std::uint32_t id)
{
    return id != kNone && (id & kLocal) != 0;
}

/// What the chunks of one Used values run share. The records of the main builder's values and
/// instructions that a chunk fills in (a value's block: its positions, uses and counts; an
/// instruction's text) are handed out here, each to the one chunk that claims it first; a second
/// claim (a value with two blocks, an instruction whose text two chunks read) sends the load to
/// the serial path, which reports it in file order. No other record is written by a chunk.
class ChunkRun
{
public:
    explicit ChunkRun(Dump &records)
        : m_records(records),
          m_seen(std::make_unique<std::atomic<std::uint8_t>[]>(records.values.size())),
          m_textOwner(std::make_unique<std::atomic<std::uint32_t>[]>(records.instructions.size()))
    {}
    /// Marks value `value`'s block as read before the run (by an earlier Used values section).
    void markRead(std::uint32_t value) { m_seen[value].store(1, std::memory_order_relaxed); }
    /// Value `value`'s record for the chunk that reads its block, or null when another block of
    /// it was read (the serial path takes over).
    Value *claimBlock(std::uint32_t value, std::int64_t id)
    {
        if (m_seen[value].exchange(1, std::memory_order_relaxed) != 0) {
            stop.needSerial("a second block for a value", id);
            return nullptr;
        }
        return &m_records.values[value];
    }
    /// Instruction `instruction`'s record for chunk `chunk` to fill in from its text, or null:
    /// when the chunk has read the text already (a tuple's elements repeat it), when an earlier
    /// section had, or when another chunk claimed it (chunks are cut between instructions, so
    /// that is for the serial path).
    Instruction *claimText(std::uint32_t instruction, std::uint32_t chunk)
    {
        std::uint32_t owner = 0;
        if (!m_textOwner[instruction].compare_exchange_strong(owner, chunk + 1)) {
            if (owner != chunk + 1)
                stop.needSerial("an instruction's text in two chunks", instruction);
            return nullptr;
        }
        Instruction &ins = m_records.instructions[instruction];
        return ins.hasText ? nullptr : &ins;
    }
    ChunkStop stop;

private:
    Dump &m_records;
    std::unique_ptr<std::atomic<std::uint8_t>[]> m_seen;
    std::unique_ptr<std::atomic<std::uint32_t>[]> m_textOwner;
};

/// A builder for one chunk of the Used values section, on a thread of its own. It looks names,
/// instructions, shapes and values up in the main builder's tables, which it only reads; what it
/// adds itself (names, instructions and shapes new to the dump, positions, uses, warnings) goes
/// into its own `local` dump under kLocal ids, for Builder::mergeChunk to renumber and append in
/// file order. The only records of the main builder it writes are the ones the run hands it
/// (ChunkRun: the values whose blocks and the instructions whose texts it reads).
class ChunkBuilder : public LineRules<ChunkBuilder>
{
public:
    ChunkBuilder(Dump &local, const Builder &main, ChunkRun &run, std::uint32_t chunk)
        : LineRules(local, main.d, main.m_options), m_main(main), m_run(run), m_chunk(chunk)
    {
        m_file = main.m_file;
    }
    /// Reads [begin, end) of `text`; false when the whole parse must stop.
    bool parse(sv text, std::size_t begin, std::size_t end);

private:
    friend class LineRules<ChunkBuilder>;
    friend class Builder; // the merge reads what the chunk found

    // -- what LineRules asks of its role (LineRules.h)
    void warnAt(std::int64_t line, std::string message, std::uint32_t value = kNone)
    {
        // Every warning about a shape the chunk made is kept, for the merge decides whether
        // the shape is new (and so whether the serial parse would have warned).
        const bool aboutNewShape = m_creatingShape != kNone;
        if (!aboutNewShape && m_keptWarnings >= m_options.maxWarnings) {
            ++d.suppressedWarnings;
            return;
        }
        d.warnings.push_back({Severity::Warning, m_file, line, std::move(message), value});
        m_warningShape.push_back(m_creatingShape);
        m_keptWarnings += !aboutNewShape;
    }
    sv str(StringId id) const
    {
        return isLocal(id) ? d.strings.view(id & ~kLocal) : gd.strings.view(id);
    }
    StringId intern(sv text, std::uint64_t hash)
    {
        if (const StringId id = gd.strings.find(text, hash); id != kNoString || text.empty())
            return id;
        return kLocal | d.strings.intern(text, hash);
    }
    std::uint32_t instructionFor(StringId name)
    {
        const std::vector<std::uint32_t> &byName = m_main.m_instructionByName;
        if (!isLocal(name) && name < byName.size() && byName[name] != kNone)
            return byName[name];
        const auto next = static_cast<std::uint32_t>(d.instructions.size());
        const std::uint32_t local = m_localInstructions.insert(name, next);
        if (local == next) {
            Instruction ins;
            ins.name = name;
            d.instructions.push_back(ins);
        }
        return kLocal | local;
    }
    ShapeId shapeFor(sv text, std::uint64_t hash)
    {
        if (const ShapeId found = m_main.m_shapes.find(text, hash); found != 0)
            return found;
        if (const ShapeId local = m_shapes.find(text, hash); local != 0)
            return kLocal | local;
        // New to the chunk: its warnings stand only if the merge finds it new to the dump too.
        m_creatingShape = static_cast<ShapeId>(d.shapes.size());
        const ShapeInfo info = makeShapeInfo(text, hash);
        m_creatingShape = kNone;
        return kLocal | addShape(text, hash, info);
    }
    const std::vector<std::uint32_t> &idOrder() const { return m_main.m_idOrder; }
    const FlatMap64 &valueById() const { return m_main.m_valueById; }
    const ShapeTable &mainShapes() const { return m_main.m_shapes; }
    std::uint32_t unlistedValue(const ShortValue &s)
    {
        // A value in no allocation gets a record of its own: the serial path numbers those.
        m_run.stop.needSerial("a value block of a value in no allocation", s.id);
        return kNone;
    }
    bool claimBlock(std::uint32_t value, std::int64_t id)
    {
        Value *record = m_run.claimBlock(value, id);
        if (!record)
            return false;
        m_blocks.push_back(value);
        m_blockFlags.push_back(0);
        m_blockRecord = record;
        return true;
    }
    Value &figures() { return *m_blockRecord; }
    void startPositions(std::uint32_t at)
    {
        m_blockRecord->firstPosition = at;
        m_blockFlags.back() |= kPositionsHere;
    }
    void startUses(std::uint32_t at)
    {
        m_blockRecord->firstUse = at;
        m_blockRecord->usesState = UsesState::Known;
        m_blockFlags.back() |= kUsesHere;
    }
    Instruction *textFor(std::uint32_t instruction)
    {
        Instruction *record = m_run.claimText(instruction, m_chunk);
        if (record)
            m_claimed.push_back(instruction);
        return record;
    }

    const Builder &m_main;
    ChunkRun &m_run;
    std::uint32_t m_chunk = 0;
    // What the merge needs besides the local dump: the values whose blocks the chunk read (and
    // whether their firstPosition / firstUse are indices into the chunk's positions / uses),
    // and the instructions whose text it read (their names and shapes may be local).
    static constexpr std::uint8_t kPositionsHere = 1;
    static constexpr std::uint8_t kUsesHere = 2;
    std::vector<std::uint32_t> m_blocks;
    std::vector<std::uint8_t> m_blockFlags;
    Value *m_blockRecord = nullptr; ///< the record of the block being read (m_blockValue)
    std::vector<std::uint32_t> m_claimed;
    /// Per warning: the local shape whose making raised it (kNone for the rest).
    std::vector<std::uint32_t> m_warningShape;
    std::uint32_t m_creatingShape = kNone;
    std::size_t m_keptWarnings = 0;
    std::size_t m_sectionEnd = std::string_view::npos; ///< the line that ended the section
    FlatMap64 m_localInstructions{16};
};

} // namespace bufferscope::parse_detail
