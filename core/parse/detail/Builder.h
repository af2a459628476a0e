#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
#include "parse/detail/LineSyntax.h"

namespace bufferscope::parse_detail {

class Builder
{
public:
    Builder(Dump &dump, const ParseOptions &options)
        : d(dump), gd(dump), m_options(options), m_prefault(options.threads)
    {
        d.shapes.emplace_back(); // ShapeId 0: no shape
    }
    /// A builder for one chunk of the Used values section (parseUsedValues): it reads what
    /// `main` knows (values, instructions, names, shapes) and keeps what it adds itself in
    /// `local`, under local ids, for the merge.
    Builder(Dump &local, const ParseOptions &options, Builder &main, std::uint32_t chunk)
        : d(local), gd(main.d), m_options(options), m_main(&main), m_chunk(chunk), m_prefault(1)
    {
        d.shapes.emplace_back();
        m_file = main.m_file;
        m_section = Section::UsedValues;
    }

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

    void warn(std::string message, std::uint32_t value = kNone)
    {
        warnAt(m_line, std::move(message), value);
    }
    void warnAt(std::int64_t line, std::string message, std::uint32_t value = kNone)
    {
        // A chunk keeps every warning about a shape it made, for the merge decides whether the
        // shape is new (and so whether the serial parse would have warned).
        const bool aboutNewShape = m_creatingShape != kNone;
        const std::size_t kept = m_main ? m_keptWarnings : d.warnings.size();
        if (!aboutNewShape && kept >= m_options.maxWarnings) {
            ++d.suppressedWarnings;
            return;
        }
        d.warnings.push_back({Severity::Warning, m_file, line, std::move(message), value});
        if (m_main) {
            m_warningShape.push_back(m_creatingShape);
            m_keptWarnings += !aboutNewShape;
        }
    }
    void fail(std::int64_t line, std::string message)
    {
        if (!fatal)
            fatal = Diagnostic{Severity::Error, m_file, line, std::move(message), kNone};
    }

    // -- chunks: ids a chunk gives to what it adds itself carry kLocal until the merge
    static constexpr std::uint32_t kLocal = 0x80000000u;
    static bool isLocal(std::uint32_t id) { return id != kNone && (id & kLocal) != 0; }
    /// The main builder: the one whose tables a chunk reads.
    const Builder &G() const { return m_main ? *m_main : *this; }
    sv str(StringId id) const
    {
        return isLocal(id) ? d.strings.view(id & ~kLocal) : gd.strings.view(id);
    }
    StringId intern(sv text, std::uint64_t hash)
    {
        if (!m_main)
            return d.strings.intern(text, hash);
        if (const StringId id = gd.strings.find(text, hash); id != kNoString || text.empty())
            return id;
        return kLocal | d.strings.intern(text, hash);
    }
    StringId intern(sv text) { return intern(text, StringPool::hash(text)); }

    // -- interning
    std::uint32_t instructionFor(StringId name)
    {
        if (m_main) {
            const std::vector<std::uint32_t> &byName = m_main->m_instructionByName;
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
    ShapeId shapeFor(sv text);
    /// intern() through a small direct-mapped cache, for the strings that repeat a lot (shapes,
    /// shape indices, opcodes, metadata): a hit never touches the pool's big table.
    StringId internRecent(sv text)
    {
        if (text.empty())
            return kNoString;
        const std::uint64_t h = StringPool::hash(text);
        RecentString &slot = m_recent[h & (m_recent.size() - 1)];
        if (slot.hash == h && slot.id != kNoString && str(slot.id) == text)
            return slot.id;
        slot = {h, intern(text, h)};
        return slot.id;
    }
    StringId indexOrEmpty(sv index) { return internRecent(index.empty() ? sv("{}") : index); }

    // -- lookahead: the parse waits mostly on cache misses in the string pool and the id map,
    // so the names of the next lines are hashed and their slots fetched while this one is
    // handled (parseText keeps kAhead lines queued).
    static constexpr std::size_t kAhead = 16;
    struct Hint
    {
        const char *name = nullptr;
        std::size_t length = 0;
        std::uint64_t hash = 0;
        const char *shape = nullptr; ///< the shape the line will look up, if any
        std::size_t shapeLength = 0;
        std::uint64_t shapeHash = 0;
    };
    std::array<Hint, kAhead> m_hints{};
    /// Hashes the name that `line` (line number `lineNo`, still ahead) will intern, if any,
    /// and prefetches what interning it will touch.
    void hintAhead(sv line, std::int64_t lineNo);
    /// Stage two for line `lineNo`: its slot should be in cache now; fetch the entry.
    void hintEntry(std::int64_t lineNo) const
    {
        const Hint &h = m_hints[static_cast<std::size_t>(lineNo) % kAhead];
        if (h.name)
            gd.strings.prefetchEntry(h.hash);
        if (h.shape) {
            const Builder &g = G();
            const ShapeSlot &slot = g.m_shapeSlots[h.shapeHash & (g.m_shapeSlots.size() - 1)];
            if (slot.shape != 0)
                __builtin_prefetch(g.m_shapeTexts.data() + slot.begin);
        }
    }
    /// The lines of [from, limit), found kAhead lines before they are handled so that
    /// hintAhead can prefetch what they will look up.
    struct QueuedLine
    {
        std::size_t begin = 0;
        std::size_t end = 0; ///< where the '\n' is (or the end of the text)
        bool newline = false;
    };
    class LineQueue
    {
    public:
        LineQueue(sv text, std::size_t from, std::size_t limit, std::int64_t line)
            : m_text(text), m_scan(from), m_limit(std::min(limit, text.size())), m_scanLine(line)
        {}
        bool next(QueuedLine &out, Builder &builder)
        {
            const char *const base = m_text.data();
            while (m_queued < kAhead && m_scan < m_limit) {
                const auto *nl = static_cast<const char *>(
                    std::memchr(base + m_scan, '\n', m_text.size() - m_scan));
                const std::size_t end = nl ? static_cast<std::size_t>(nl - base) : m_text.size();
                m_lines[(m_head + m_queued) % kAhead] = {m_scan, end, nl != nullptr};
                ++m_queued;
                builder.hintAhead(sv(base + m_scan, end - m_scan), ++m_scanLine);
                m_scan = nl ? end + 1 : m_text.size();
            }
            if (m_queued == 0)
                return false;
            out = m_lines[m_head];
            m_head = (m_head + 1) % kAhead;
            --m_queued;
            return true;
        }
        /// Goes on from `to` (a line start), whose line number is `line` + 1.
        void jump(std::size_t to, std::int64_t line)
        {
            m_scan = to;
            m_scanLine = line;
            m_queued = 0;
        }

    private:
        sv m_text;
        std::size_t m_scan;
        std::size_t m_limit;
        std::int64_t m_scanLine;
        std::array<QueuedLine, kAhead> m_lines{};
        std::size_t m_head = 0;
        std::size_t m_queued = 0;
    };
    /// A queued line's text without its '\r'; notes CRLF and a last line without a newline.
    sv lineText(sv text, const QueuedLine &l)
    {
        sv line = text.substr(l.begin, l.end - l.begin);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
            d.traits.crlf = true;
        }
        if (!l.newline) {
            d.traits.truncated = true;
            warn("the last line has no newline: the file looks truncated");
        }
        return line;
    }
    /// intern() of a name on the current line, with the hash hintAhead computed for it.
    StringId internHinted(sv name)
    {
        const Hint &h = m_hints[static_cast<std::size_t>(m_line) % kAhead];
        if (h.name == name.data() && h.length == name.size())
            return intern(name, h.hash);
        return intern(name);
    }

    // -- line kinds
    void handleLine(sv line, std::uint64_t offset, sv next);
    bool handleFirstLine(sv line);
    void allocationHeader(sv line);
    void allocationValue(sv line);
    void crossColorValue(sv line);
    void logicalBufferLine(sv line);
    void valueHeader(sv shortText);
    void position(sv line);
    void use(sv line);
    void fromInstruction(sv line, std::uint64_t offset, sv next);
    void instructionText(sv text, std::uint64_t offset, std::uint32_t instruction);
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
    void unrecognized(sv line, sv expected);

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
    /// A chunk's own loop over [begin, end); false when the whole parse must stop.
    bool parseChunk(sv text, std::size_t begin, std::size_t end);
    void mergeChunk(Builder &chunk);
    /// The first value block (a `<` line whose instruction is not the previous block's) or
    /// section end in [from, limit), or npos: where chunks may be cut.
    static std::size_t chunkBoundary(sv text, std::size_t from, std::size_t limit);
    /// Points m_headerCursor just past value `index` in id order.
    void resyncHeaderCursor(std::uint32_t index);

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

    Dump &d;
    Dump &gd; ///< the Dump values and instructions are in: d, or the main builder's for a chunk
    const ParseOptions &m_options;
    Builder *m_main = nullptr;
    std::uint32_t m_chunk = 0;
    // What a chunk hands to the merge (besides d's strings, instructions, shapes, positions,
    // uses and warnings): the values whose blocks it read (and which of firstPosition/firstUse
    // it set, as chunk-local indices), the instructions whose text it read, and for each
    // warning the local shape whose making raised it (kNone for the rest).
    std::vector<std::uint32_t> m_blocks;
    std::vector<std::uint8_t> m_blockFlags;
    std::vector<std::uint32_t> m_claimed;
    std::vector<std::uint32_t> m_warningShape;
    std::uint32_t m_creatingShape = kNone;
    std::size_t m_keptWarnings = 0;
    std::size_t m_sectionEnd = std::string_view::npos; ///< the line that ended a chunk's section
    FlatMap64 m_localInstructions{16};
    // The main builder's, while chunks run: which values' blocks were read, and which chunk
    // (+1) read each instruction's text; a second claim sends the load to the serial path.
    std::unique_ptr<std::atomic<std::uint8_t>[]> m_sharedSeen;
    /// The big arrays' pages, faulted in ahead by the read-ahead's helpers when they have room
    /// (parseText, readAhead); what is left before the Used values section needs it.
    Prefaulter m_prefault;
    std::unique_ptr<std::atomic<std::uint32_t>[]> m_textOwner;
    std::atomic<bool> m_stopChunks{false};
    std::atomic<bool> m_serialNeeded{false};
    void needSerial(const char *why, std::int64_t id)
    {
        if (!m_serialNeeded.exchange(true))
            spdlog::debug("chunked parse: {} (id {}); the serial parse takes over", why, id);
        m_stopChunks.store(true, std::memory_order_relaxed);
    }
    bool m_enterUsedValues = false; ///< handleLine saw `Used values:`
    std::uint32_t m_file = 0;
    std::int64_t m_line = 0;
    Section m_section = Section::Start;
    bool m_sawHeader = false;
    bool m_sawAllocations = false;
    bool m_sawFromInstruction = false;
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
    std::uint32_t m_blockValue = kNone;
    Block m_block = Block::None;
    std::int64_t m_maxEnd = -1;
    std::int64_t m_totalLines = 0;      ///< over all files read so far
    std::int64_t m_allocationBytes = 0; ///< sum of allocation sizes, kept under kMaxSum
    std::int64_t m_valueBytes = 0;      ///< sum of value sizes, kept under kMaxSum
    Section m_timedSection = Section::Start;
    std::chrono::steady_clock::time_point m_sectionSince = std::chrono::steady_clock::now();
    std::array<double, 10> m_sectionSeconds{};
    std::vector<std::uint32_t> m_instructionByName;
    // Shape text -> ShapeId. A dump has 10^4..10^5 distinct shapes but two lookups per value
    // (its line and its instruction's text). Going through the string pool (a million names)
    // and a StringId-indexed map cost two cache misses a lookup, a fifth of a 1M-value report.
    // This table is small, and hintAhead fetches the slot and then the text of a line's shape
    // before the line is handled.
    struct ShapeSlot
    {
        std::uint64_t begin = 0; ///< the text in m_shapeTexts
        std::uint32_t length = 0;
        std::uint32_t tag = 0; ///< high half of the text's hash
        ShapeId shape = 0;     ///< 0: empty slot
    };
    std::vector<ShapeSlot> m_shapeSlots = std::vector<ShapeSlot>(1024);
    std::string m_shapeTexts; ///< every distinct shape's text, back to back
    sv shapeTextOf(const ShapeSlot &slot) const
    {
        return sv(m_shapeTexts).substr(slot.begin, slot.length);
    }
    /// shapeFor() with the text's hash known (hintAhead computed it).
    ShapeId shapeFor(sv text, std::uint64_t hash);
    /// The shape of `text` in this builder's table, or 0.
    ShapeId findShape(sv text, std::uint64_t hash) const;
    /// A new shape's record: its text interned, its size worked out (warnings if it has none).
    ShapeInfo makeShapeInfo(sv text, std::uint64_t hash);
    /// Puts a shape not in the table into it and into d.shapes; returns its id.
    ShapeId addShape(sv text, std::uint64_t hash, const ShapeInfo &info);
    ShapeId shapeHinted(sv text)
    {
        const Hint &h = m_hints[static_cast<std::size_t>(m_line) % kAhead];
        if (h.shape == text.data() && h.shapeLength == text.size())
            return shapeFor(text, h.shapeHash);
        return shapeFor(text);
    }
    struct RecentString
    {
        std::uint64_t hash = 0;
        StringId id = kNoString;
    };
    std::vector<RecentString> m_recent = std::vector<RecentString>(std::size_t{1} << 12);
    FlatMap64 m_valueById{1024};
    FlatMap64 m_allocationByIndex{64};
    FlatMap64 m_valueByKey{16};
    bool m_keyMapBuilt = false;
    bool m_keysUnique = true;              ///< no two values share an instruction and index
    std::vector<std::uint32_t> m_idOrder;  ///< value indices in ascending id
    std::size_t m_liveCursor = 0;          ///< into m_idOrder: the next expected live range
    std::size_t m_headerCursor = 0;        ///< into m_idOrder: the next expected value block
    std::vector<std::uint8_t> m_blockSeen; ///< per value: its Used-values block was read
    std::vector<std::int64_t> m_peakLines;
    std::int64_t m_liveRangeLine = 0;
    std::uint32_t m_liveRangeFile = 0;
    std::string m_error;
};

} // namespace bufferscope::parse_detail
