#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
//
// What both kinds of builder run: the line queue and its prefetch hints, names and shapes, and
// the rules of a value's block in the Used values section. The main builder (Builder.h) reads
// the whole dump; a chunk builder (ChunkBuilder.h) reads a stretch of Used values on another
// thread, against the main builder's tables, which it only reads. What differs between the two
// (where a name is found or added, which block is whose, where a block's figures go) is asked of
// the builder type `Role`, resolved when the code is compiled: no rule tests which one it is.
#include "parse/detail/LineSyntax.h"

namespace bufferscope::parse_detail {

/// How many lines ahead of the one handled the queue reads, hashing and prefetching what they
/// will look up (the parse waits mostly on cache misses in the string pool and the id map).
constexpr std::size_t kAhead = 16;

/// Shape text -> ShapeId. A dump has 10^4..10^5 distinct shapes but two lookups per value (its
/// line and its instruction's text). Going through the string pool (a million names) and a
/// StringId-indexed map cost two cache misses a lookup, a fifth of a 1M-value report. This table
/// is small, and the hints fetch the slot and then the text of a line's shape before the line is
/// handled.
class ShapeTable
{
public:
    /// The shape of `text` (whose hash is `hash`), or 0.
    ShapeId find(sv text, std::uint64_t hash) const
    {
        const auto tag = static_cast<std::uint32_t>(hash >> 32);
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash & mask; m_slots[i].shape != 0; i = (i + 1) & mask) {
            if (m_slots[i].tag == tag && textOf(m_slots[i]) == text)
                return m_slots[i].shape;
        }
        return 0;
    }
    /// Files `text`, not in the table, as shape `shape`.
    void add(sv text, std::uint64_t hash, ShapeId shape);
    void prefetchSlot(std::uint64_t hash) const
    {
        __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
    }
    /// The text of the slot `hash` starts at, when the slot is filled (prefetchSlot first).
    void prefetchText(std::uint64_t hash) const
    {
        const Slot &slot = m_slots[hash & (m_slots.size() - 1)];
        if (slot.shape != 0)
            __builtin_prefetch(m_texts.data() + slot.begin);
    }

private:
    struct Slot
    {
        std::uint64_t begin = 0; ///< the text in m_texts
        std::uint32_t length = 0;
        std::uint32_t tag = 0; ///< high half of the text's hash
        ShapeId shape = 0;     ///< 0: empty slot
    };
    sv textOf(const Slot &slot) const { return sv(m_texts).substr(slot.begin, slot.length); }
    std::vector<Slot> m_slots = std::vector<Slot>(1024);
    std::string m_texts; ///< every distinct shape's text, back to back
    std::size_t m_count = 0;
};

/// A line of the text, found kAhead lines before it is handled.
struct QueuedLine
{
    std::size_t begin = 0;
    std::size_t end = 0; ///< where the '\n' is (or the end of the text)
    bool newline = false;
};

/// The lines of [from, limit), each handed to the builder's hintAhead kAhead lines before
/// next() returns it.
class LineQueue
{
public:
    LineQueue(sv text, std::size_t from, std::size_t limit, std::int64_t line)
        : m_text(text), m_scan(from), m_limit(std::min(limit, text.size())), m_scanLine(line)
    {}
    template <class Hinter> bool next(QueuedLine &out, Hinter &builder)
    {
        const char *const base = m_text.data();
        while (m_queued < kAhead && m_scan < m_limit) {
            const auto *nl =
                static_cast<const char *>(std::memchr(base + m_scan, '\n', m_text.size() - m_scan));
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

/// The rules both builders run. `Role` (Builder or ChunkBuilder) provides:
///   sv str(StringId) const;  StringId intern(sv, hash);  std::uint32_t instructionFor(StringId);
///   ShapeId shapeFor(sv, hash);  void warnAt(line, message, value);
///   const std::vector<std::uint32_t> &idOrder() const;  const FlatMap64 &valueById() const;
///   const ShapeTable &mainShapes() const;   (the main builder's tables, which hints prefetch)
///   std::uint32_t unlistedValue(const ShortValue &);  (a block of a value in no allocation)
///   bool claimBlock(std::uint32_t value, std::int64_t id);  (whether this block is read)
///   Value &figures();  (the record of the open block's value)
///   void startPositions(std::uint32_t at), startUses(std::uint32_t at);  (where they begin)
///   Instruction *textFor(std::uint32_t instruction);  (the record its text fills, or null)
template <class Role> class LineRules
{
public:
    /// Hashes the name that `line` (line number `lineNo`, still ahead) will intern, if any,
    /// and prefetches what interning it will touch.
    void hintAhead(sv line, std::int64_t lineNo);

protected:
    LineRules(Dump &own, const Dump &tables, const ParseOptions &options)
        : d(own), gd(tables), m_options(options)
    {
        d.shapes.emplace_back(); // ShapeId 0: no shape
    }

    Role &self() { return static_cast<Role &>(*this); }
    const Role &self() const { return static_cast<const Role &>(*this); }

    void warn(std::string message, std::uint32_t value = kNone)
    {
        self().warnAt(m_line, std::move(message), value);
    }
    void unrecognized(sv line, sv expected)
    {
        warn("unrecognized line '" + excerpt(line) + "'; expected " + std::string(expected));
    }

    // -- the queue's hints
    struct Hint
    {
        const char *name = nullptr;
        std::size_t length = 0;
        std::uint64_t hash = 0;
        const char *shape = nullptr; ///< the shape the line will look up, if any
        std::size_t shapeLength = 0;
        std::uint64_t shapeHash = 0;
    };
    /// Stage two for line `lineNo`: its slot should be in cache now; fetch the entry.
    void hintEntry(std::int64_t lineNo) const
    {
        const Hint &h = m_hints[static_cast<std::size_t>(lineNo) % kAhead];
        if (h.name)
            gd.strings.prefetchEntry(h.hash);
        if (h.shape)
            self().mainShapes().prefetchText(h.shapeHash);
    }
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
            return self().intern(name, h.hash);
        return self().intern(name, StringPool::hash(name));
    }
    /// shapeFor() of a shape on the current line, with the hash hintAhead computed for it.
    ShapeId shapeHinted(sv text)
    {
        const Hint &h = m_hints[static_cast<std::size_t>(m_line) % kAhead];
        if (h.shape == text.data() && h.shapeLength == text.size())
            return self().shapeFor(text, h.shapeHash);
        return self().shapeFor(text, StringPool::hash(text));
    }
    /// intern() through a small direct-mapped cache, for the strings that repeat a lot (shapes,
    /// shape indices, opcodes, metadata): a hit never touches the pool's big table.
    StringId internRecent(sv text)
    {
        if (text.empty())
            return kNoString;
        const std::uint64_t h = StringPool::hash(text);
        RecentString &slot = m_recent[h & (m_recent.size() - 1)];
        if (slot.hash == h && slot.id != kNoString && self().str(slot.id) == text)
            return slot.id;
        slot = {h, self().intern(text, h)};
        return slot.id;
    }
    StringId indexOrEmpty(sv index) { return internRecent(index.empty() ? sv("{}") : index); }

    // -- this builder's own shapes
    /// A new shape's record: its text interned, its size worked out (warnings if it has none).
    ShapeInfo makeShapeInfo(sv text, std::uint64_t hash);
    /// Puts a shape not in the table into it and into d.shapes; returns its id.
    ShapeId addShape(sv text, std::uint64_t hash, const ShapeInfo &info)
    {
        const auto shape = static_cast<ShapeId>(d.shapes.size());
        d.shapes.push_back(info);
        m_shapes.add(text, hash, shape);
        return shape;
    }

    // -- the Used values section
    /// An indented line of the section.
    void usedValueLine(sv line, std::uint64_t offset, sv next);
    void valueHeader(sv line);
    /// Points m_headerCursor just past value `index` in id order.
    void resyncHeaderCursor(std::uint32_t index);
    void position(sv line);
    void use(sv line);
    void fromInstruction(sv line, std::uint64_t offset, sv next);
    void instructionText(sv text, std::uint64_t offset, std::uint32_t instruction);

    Dump &d;        ///< what this builder adds to
    const Dump &gd; ///< where the values and instructions are: d, or the main builder's for a chunk
    const ParseOptions &m_options;
    std::uint32_t m_file = 0;
    std::int64_t m_line = 0;
    std::uint32_t m_blockValue = kNone;
    Block m_block = Block::None;
    std::size_t m_headerCursor = 0; ///< into idOrder(): the next expected value block
    bool m_sawFromInstruction = false;
    std::string m_error;
    std::array<Hint, kAhead> m_hints{};
    ShapeTable m_shapes;

private:
    struct RecentString
    {
        std::uint64_t hash = 0;
        StringId id = kNoString;
    };
    std::vector<RecentString> m_recent = std::vector<RecentString>(std::size_t{1} << 12);
};

} // namespace bufferscope::parse_detail
