#include "DumpParser.h"

#include "parse/MappedFile.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ModuleFiles.h"
#include "parse/ShapeParser.h"
#include "parse/StackFrames.h"
#include "util/FlatMap.h"
#include "util/Parallel.h"
#include "util/SafeText.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <mutex>
#include <numeric>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace bufferscope {

namespace {

using sv = std::string_view;

constexpr sv kBom = "\xEF\xBB\xBF";
constexpr std::size_t kReleaseChunk = 16u << 20; // drop mapped pages behind us every 16 MiB
constexpr std::size_t kProgressChunk = 1u << 20;
constexpr std::size_t kPopulateChunk = 4u << 20; // map the file's pages ahead of the parse

/// Parses all of `text` as a non-negative decimal; false on junk or overflow.
bool parseInt(sv text, std::int64_t &out)
{
    if (text.empty() || text[0] == '-' || text[0] == '+')
        return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
}

/// Reads a decimal at the front of `text` and advances past it (a leading '-' is accepted so
/// that negative sizes can be reported rather than called malformed).
bool readInt(sv &text, std::int64_t &out)
{
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || ptr == text.data())
        return false;
    text.remove_prefix(static_cast<std::size_t>(ptr - text.data()));
    return true;
}

bool consume(sv &text, sv prefix)
{
    if (!text.starts_with(prefix))
        return false;
    text.remove_prefix(prefix.size());
    return true;
}

/// A printable excerpt of a line for messages: at most 80 bytes, cut between two UTF-8
/// characters, control bytes escaped.
std::string excerpt(sv line)
{
    std::string out;
    std::size_t n = std::min<std::size_t>(line.size(), 80);
    while (n > 0 && n < line.size() && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80)
        --n; // not inside a character: "3×c128" is not cut after half of its ×
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c < 0x20 || c == 0x7f) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (line.size() > n)
        out += "…";
    return out;
}

/// When a line failed to parse because one of its numbers overflows 64 bits, says so (" : the
/// number 9999… does not fit in 64 bits"); otherwise empty.
std::string overflowNote(sv line)
{
    for (std::size_t i = 0; i < line.size();) {
        if (line[i] < '0' || line[i] > '9') {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < line.size() && line[j] >= '0' && line[j] <= '9')
            ++j;
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(line.data() + i, line.data() + j, value);
        (void)ptr;
        if (ec == std::errc::result_out_of_range)
            return "; the number " + excerpt(line.substr(i, std::min<std::size_t>(j - i, 30))) +
                   " does not fit in 64 bits";
        i = j;
    }
    return {};
}

/// Splits a trailing `{0,1}` ShapeIndex off a name; names never contain braces.
void splitIndex(sv full, sv &name, sv &index)
{
    name = full;
    index = {};
    if (!full.empty() && full.back() == '}') {
        const auto open = full.rfind('{');
        if (open != sv::npos) {
            name = full.substr(0, open);
            index = full.substr(open);
        }
    }
}

bool validIndex(sv index)
{
    if (index.size() < 2 || index.front() != '{' || index.back() != '}')
        return false;
    for (char c : index.substr(1, index.size() - 2)) {
        if (!((c >= '0' && c <= '9') || c == ','))
            return false;
    }
    return true;
}

bool validName(sv name)
{
    if (name.empty())
        return false;
    for (char c : name) {
        if (c == ' ' || c == '{' || c == '}' || c == '<' || c == '>' || c == ',' ||
            static_cast<unsigned char>(c) < 0x20)
            return false;
    }
    return true;
}

/// No device has 256 TiB; a byte count or offset beyond it is damage. With every count under
/// this bound and the sums kept under kMaxSum, no sum the analyses form can overflow 64 bits.
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 48;
constexpr std::int64_t kMaxSum = std::int64_t{1} << 62;

/// XLA numbers values densely from 0; an id beyond this is damage. The bound leaves room to
/// number the unallocated values after the largest id without overflow.
constexpr std::int64_t kMaxValueId = std::int64_t{1} << 62;

struct ShortValue
{
    std::int64_t id = 0;
    sv name;
    sv index;
    bool phi = false;
    std::int32_t color = 0;
};

/// `ID NAME[IDX][ (phi)][ @C]` (the text inside `<...>`); the 2019 form `ID PHI NAME @C` too.
bool parseShortInner(sv s, ShortValue &out, std::string &error)
{
    std::int64_t id = 0;
    if (!readInt(s, id) || id < 0) {
        error = "expected a value id after '<'";
        return false;
    }
    if (id > kMaxValueId) {
        error = "value id " + std::to_string(id) + " is out of range (XLA numbers values from 0)";
        return false;
    }
    if (!consume(s, " ")) {
        error = "expected a space after the value id";
        return false;
    }
    out.id = id;
    if (consume(s, "PHI "))
        out.phi = true;
    const auto at = s.rfind(" @");
    if (at != sv::npos) {
        std::int64_t color = 0;
        sv c = s.substr(at + 2);
        const bool negative = consume(c, "-");
        if (!parseInt(c, color) || color > 0x7fffffff) {
            error = "bad memory space '@" + std::string(s.substr(at + 2)) + "'";
            return false;
        }
        out.color = negative ? 0 : static_cast<std::int32_t>(color); // 2019: @-1 = no color
        s = s.substr(0, at);
    }
    if (s.ends_with(" (phi)")) {
        out.phi = true;
        s.remove_suffix(6);
    }
    splitIndex(s, out.name, out.index);
    if (!validName(out.name)) {
        error = "bad value name '" + excerpt(s) + "'";
        return false;
    }
    if (!out.index.empty() && !validIndex(out.index)) {
        error = "bad ShapeIndex '" + excerpt(out.index) + "'";
        return false;
    }
    return true;
}

/// Parses a whole `<...>` token; `rest` receives what follows the '>'.
bool parseShort(sv text, ShortValue &out, sv &rest, std::string &error)
{
    if (!consume(text, "<")) {
        error = "expected '<' to open a value";
        return false;
    }
    const auto close = text.find('>');
    if (close == sv::npos) {
        error = "expected '>' to close the value";
        return false;
    }
    rest = text.substr(close + 1);
    return parseShortInner(text.substr(0, close), out, error);
}

/// ` value: <ID NAME @C> (size=S,offset=O): SHAPE`, a value's line in its allocation. False,
/// with the warning to give in `error`, when the line is malformed.
bool parseValueLine(sv line, ShortValue &s, std::int64_t &offset, std::int64_t &size, sv &shape,
                    std::string &error)
{
    sv rest;
    if (!parseShort(line.substr(8), s, rest, error)) {
        error = "malformed value line: " + error;
        return false;
    }
    if (!consume(rest, " (size=") || !readInt(rest, size) || !consume(rest, ",offset=") ||
        !readInt(rest, offset) || !consume(rest, "):")) {
        error = "malformed value line; expected ' (size=S,offset=O): SHAPE' after the value" +
                overflowNote(line);
        return false;
    }
    consume(rest, " ");
    shape = rest;
    return true;
}

/// `STEP:NAME`, an InstructionSequence line without its indent.
bool parseSequenceLine(sv text, std::int64_t &step, sv &name, std::string &error)
{
    const auto colon = text.find(':');
    if (colon == sv::npos || !parseInt(text.substr(0, colon), step)) {
        error = "malformed InstructionSequence line; expected '    STEP:NAME'";
        return false;
    }
    name = text.substr(colon + 1);
    if (!validName(name)) {
        error = "malformed instruction name in InstructionSequence";
        return false;
    }
    return true;
}

/// `NAME{IDX}:START-END`, a BufferLiveRange line without its indent.
bool parseLiveRangeLine(sv text, sv &name, sv &index, std::int64_t &start, std::int64_t &end,
                        std::string &error)
{
    const auto colon = text.rfind(':');
    const auto dash = colon == sv::npos ? sv::npos : text.find('-', colon);
    if (colon == sv::npos || dash == sv::npos ||
        !parseInt(text.substr(colon + 1, dash - colon - 1), start) ||
        !parseInt(text.substr(dash + 1), end)) {
        error = "malformed BufferLiveRange line '" + excerpt(text) +
                "'; expected 'NAME{idx}:START-END'" + overflowNote(text);
        return false;
    }
    splitIndex(text.substr(0, colon), name, index);
    if (index.empty() || !validName(name) || !validIndex(index)) {
        error = "malformed BufferLiveRange key '" + excerpt(text.substr(0, colon)) + "'";
        return false;
    }
    return true;
}

enum class Section
{
    Start,
    Allocations,
    Total,
    UsedValues,
    LiveRangeHeader,
    Sequence,
    BufferLiveRange,
    Peak,
    StackTrace,
    Done
};

enum class Block
{
    None,
    Header,
    Positions,
    Uses,
    UsesUnknown, // " uses are not initialized yet."
    Done,
    Skip // the header was malformed: its block is passed over without more warnings
};

class FileTextSource final : public TextSource
{
public:
    struct File
    {
        std::string path;
        std::int64_t size = 0;
        std::string memory; ///< for in-memory buffers: the text itself
        bool inMemory = false;
        int fd = -1; ///< kept open: the loaded version stays readable if the file is deleted
    };
    std::vector<File> files;

    ~FileTextSource() override
    {
        for (const File &f : files) {
            if (f.fd >= 0)
                ::close(f.fd);
        }
    }

    std::string read(const TextRef &ref) const override
    {
        if (ref.file >= files.size())
            return {};
        const File &f = files[ref.file];
        if (f.inMemory) {
            if (ref.offset + ref.length > f.memory.size())
                return {};
            return f.memory.substr(ref.offset, ref.length);
        }
        // The descriptor still reads the file as loaded when it was deleted or replaced by a
        // new one; only an edit in place can change it under us, and the size tells most.
        struct stat st
        {};
        if (f.fd < 0 || ::fstat(f.fd, &st) != 0)
            return "[" + f.path + " can no longer be read]";
        if (static_cast<std::int64_t>(st.st_size) != f.size)
            return "[" + f.path + " changed on disk since it was loaded]";
        if (ref.offset + ref.length > static_cast<std::uint64_t>(f.size))
            return {};
        std::string out(ref.length, '\0');
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t n = ::pread(f.fd, out.data() + done, out.size() - done,
                                      static_cast<off_t>(ref.offset + done));
            if (n <= 0)
                break;
            done += static_cast<std::size_t>(n);
        }
        out.resize(done);
        return out;
    }
};

class Builder
{
public:
    Builder(Dump &dump, const ParseOptions &options) : d(dump), gd(dump), m_options(options)
    {
        d.shapes.emplace_back(); // ShapeId 0: no shape
    }
    /// A builder for one chunk of the Used values section (parseUsedValues): it reads what
    /// `main` knows (values, instructions, names, shapes) and keeps what it adds itself in
    /// `local`, under local ids, for the merge.
    Builder(Dump &local, const ParseOptions &options, Builder &main, std::uint32_t chunk)
        : d(local), gd(main.d), m_options(options), m_main(&main), m_chunk(chunk)
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

ShapeId Builder::shapeFor(sv text)
{
    return shapeFor(text, StringPool::hash(text));
}

ShapeId Builder::shapeFor(sv text, std::uint64_t h)
{
    if (const ShapeId found = G().findShape(text, h); found != 0)
        return found;
    if (!m_main)
        return addShape(text, h, makeShapeInfo(text, h));
    if (const ShapeId local = findShape(text, h); local != 0)
        return kLocal | local;
    // New to the chunk: its warnings stand only if the merge finds it new to the dump too.
    m_creatingShape = static_cast<ShapeId>(d.shapes.size());
    const ShapeInfo info = makeShapeInfo(text, h);
    m_creatingShape = kNone;
    return kLocal | addShape(text, h, info);
}

ShapeId Builder::findShape(sv text, std::uint64_t h) const
{
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    const std::size_t mask = m_shapeSlots.size() - 1;
    for (std::size_t i = h & mask; m_shapeSlots[i].shape != 0; i = (i + 1) & mask) {
        if (m_shapeSlots[i].tag == tag && shapeTextOf(m_shapeSlots[i]) == text)
            return m_shapeSlots[i].shape;
    }
    return 0;
}

ShapeInfo Builder::makeShapeInfo(sv text, std::uint64_t h)
{
    ShapeInfo info;
    info.text = intern(text, h);
    const ShapeParseResult parsed = ShapeParser::parse(text);
    if (parsed.ok) {
        info.valid = true;
        const Shape &shape = parsed.shape;
        info.elementType = shape.type;
        info.tupleArity = shape.isTuple() ? static_cast<std::int32_t>(shape.elements.size()) : -1;
        info.memorySpace = static_cast<std::int32_t>(shape.layout.memorySpace);
        std::int64_t bytes = shape.byteSize(8);
        if (bytes > kMaxBytes)
            bytes = -1; // beyond any device: treated like an overflow
        info.bytesKnown = bytes >= 0;
        info.logicalBytes = bytes >= 0 ? bytes : 0;
        if (bytes < 0)
            warn("shape '" + excerpt(text) +
                 "' has an unbounded or overflowing size; its logical bytes count as 0");
    } else {
        warn("cannot read shape '" + excerpt(text) + "': " + parsed.error);
    }
    return info;
}

ShapeId Builder::addShape(sv text, std::uint64_t h, const ShapeInfo &info)
{
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    std::size_t mask = m_shapeSlots.size() - 1;
    std::size_t i = h & mask;
    while (m_shapeSlots[i].shape != 0)
        i = (i + 1) & mask;
    const auto shapeId = static_cast<ShapeId>(d.shapes.size());
    d.shapes.push_back(info);
    const std::size_t length = std::min<std::size_t>(text.size(), 0xffffffffu);
    m_shapeSlots[i] = {m_shapeTexts.size(), static_cast<std::uint32_t>(length), tag, shapeId};
    m_shapeTexts.append(text.substr(0, length));
    if (d.shapes.size() * 2 > m_shapeSlots.size()) {
        // Keep the load under 1/2.
        std::vector<ShapeSlot> slots(m_shapeSlots.size() * 2);
        mask = slots.size() - 1;
        for (const ShapeSlot &slot : m_shapeSlots) {
            if (slot.shape == 0)
                continue;
            std::size_t j = StringPool::hash(shapeTextOf(slot)) & mask;
            while (slots[j].shape != 0)
                j = (j + 1) & mask;
            slots[j] = slot;
        }
        m_shapeSlots.swap(slots);
    }
    return shapeId;
}

void Builder::unrecognized(sv line, sv expected)
{
    warn("unrecognized line '" + excerpt(line) + "'; expected " + std::string(expected));
}

void Builder::hintAhead(sv line, std::int64_t lineNo)
{
    Hint &hint = m_hints[static_cast<std::size_t>(lineNo) % kAhead];
    hint = Hint{};
    if (line.size() < 3 || line[0] != ' ')
        return;
    sv name;
    sv shape;
    if (line.starts_with(" value: <")) {
        // ` value: <ID NAME[{IDX}][ (phi)] @C> ...`: the id for the id map, the name for the pool.
        sv rest = line.substr(9);
        std::int64_t id = 0;
        if (!readInt(rest, id) || id < 0 || !consume(rest, " "))
            return;
        G().m_valueById.prefetch(static_cast<std::uint64_t>(id));
        consume(rest, "PHI ");
        name = rest.substr(0, rest.find_first_of(" {>"));
        // `... (size=S,offset=O): SHAPE`
        if (const auto colon = rest.find("): "); colon != sv::npos)
            shape = rest.substr(colon + 3);
    } else if (line.starts_with(" from instruction:")) {
        // ` from instruction:[ ]%NAME = SHAPE opcode(...`: the instruction's shape.
        sv rest = line.substr(18);
        consume(rest, " ");
        if (const auto eq = rest.find(" = "); eq != sv::npos && eq < 1024) {
            rest.remove_prefix(eq + 3);
            shape = rest.substr(0, ShapeParser::shapeTokenLength(rest));
        }
    } else if (line[1] == ' ' && line[2] != ' ') {
        // Used values: `  NAME[ {IDX}]` (a position) or `  NAME, operand N` (a use).
        name = line.substr(2);
        name = name.substr(0, name.find_first_of(" ,\r"));
    } else if (line.starts_with("    ") && line.size() > 4 && line[4] >= '0' && line[4] <= '9') {
        // InstructionSequence: `    STEP:NAME`.
        const auto colon = line.find(':');
        if (colon == sv::npos)
            return;
        name = line.substr(colon + 1);
        if (name.ends_with('\r'))
            name.remove_suffix(1);
    }
    if (shape.ends_with('\r'))
        shape.remove_suffix(1);
    if (!shape.empty()) {
        hint.shape = shape.data();
        hint.shapeLength = shape.size();
        hint.shapeHash = StringPool::hash(shape);
        const std::vector<ShapeSlot> &slots = G().m_shapeSlots;
        __builtin_prefetch(&slots[hint.shapeHash & (slots.size() - 1)]);
    }
    if (name.empty())
        return;
    hint.name = name.data();
    hint.length = name.size();
    hint.hash = StringPool::hash(name);
    gd.strings.prefetchSlot(hint.hash);
}

bool Builder::parseText(sv text, std::uint32_t file, MappedFile *mapping, std::int64_t &bytesDone,
                        std::int64_t bytesTotal)
{
    m_file = file;
    m_line = 0;
    m_section = Section::Start;
    if (file == 0 && bytesTotal > 0) {
        // Generated and real dumps hold one distinct name per 600 bytes or more: sized for half
        // that, the tables rarely have to grow (and rehash everything) while parsing.
        const auto expected = static_cast<std::size_t>(bytesTotal) / 1024;
        d.strings.reserve(expected);
        m_valueById.reserve(expected);
        // The big arrays too, generously: capacity that is never written costs address space,
        // not memory, while growing by doubling copies everything and touches twice the pages.
        // Generated dumps have one value per 610 bytes, real ones mostly fewer; capped so a huge
        // file does not ask for more address space than a strict overcommit policy grants.
        const auto records =
            std::min<std::size_t>(static_cast<std::size_t>(bytesTotal) / 512, std::size_t{1} << 25);
        // Memory is faulted in ahead, by the read-ahead's helpers while this thread builds, for
        // fewer records: a page faulted in and never written is time lost (a fresh page costs
        // about as much as parsing 3 KiB of text on the virtual machines we measure on, and two
        // threads fault pages in only a third faster than one), and the few records past it
        // fault in as they come. The positions and uses too: the Used values merge copies every
        // chunk's into them, on this thread alone, and faulting them in there was most of its
        // time. In the order the parse fills them.
        const std::size_t faulted = records * 512 / 640;
        d.values.reserve(records);
        d.instructions.reserve(records);
        d.positions.reserve(records);
        d.uses.reserve(records);
        d.allocationValues.reserve(records);
        d.sequence.reserve(records);
        m_prefault.add(d.values.data(), faulted * sizeof(Value));
        m_prefault.add(d.instructions.data(), faulted * sizeof(Instruction));
        m_prefault.add(d.positions.data(), faulted * sizeof(Position));
        m_prefault.add(d.uses.data(), faulted * sizeof(Use));
    }
    m_stopFile = false;
    m_sawHeader = false;
    const char *const base = text.data();
    std::size_t pos = 0;
    if (text.starts_with(kBom)) {
        d.traits.bom = true;
        pos = kBom.size();
    }
    if (text.empty()) {
        fail(0, "the file is empty; expected an XLA buffer-assignment dump");
        return false;
    }
    // A NUL byte near the start means a binary file; say so instead of listing garbage lines.
    const std::size_t probe = std::min<std::size_t>(text.size(), 64 * 1024);
    if (const void *nul = std::memchr(base, '\0', probe)) {
        const auto at = static_cast<std::size_t>(static_cast<const char *>(nul) - base);
        const auto line = 1 + std::count(base, base + at, '\n');
        fail(line, "binary data (a NUL byte) at line " + std::to_string(line) +
                       "; this is not a text buffer-assignment dump");
        return false;
    }
    bool first = true;
    const int threads = m_options.threads > 0 ? m_options.threads : threadsToUse();
    bool readAheadAllocations = threads > 1;
    std::size_t lastProgress = 0;
    std::size_t lastRelease = 0;
    std::size_t populated = pos;
    std::uint64_t linesSinceCheck = 0;
    const std::size_t size = text.size();
    LineQueue lines(text, pos, size, m_line);
    m_hints.fill(Hint{});
    QueuedLine current;
    while (!m_stopFile && lines.next(current, *this)) {
        pos = current.begin;
        const bool hasNewline = current.newline;
        const std::size_t end = current.end;
        const std::uint64_t lineOffset = pos;
        ++m_line;
        hintEntry(m_line + static_cast<std::int64_t>(kAhead / 2));
        const sv line = lineText(text, current);
        // The first bytes of the next line, for the glued `from instruction:` check. Only a
        // few bytes are needed, so the (often very long) next line is not scanned twice.
        const sv next =
            hasNewline ? sv(base + end + 1, std::min<std::size_t>(size - end - 1, 16)) : sv();
        if (first && !line.empty()) {
            first = false;
            if (!handleFirstLine(line))
                return false;
        }
        const Section sectionBefore = m_section;
        handleLine(line, lineOffset, next);
        if (m_section != m_timedSection)
            enterSection();
        if (fatal)
            return false;
        pos = hasNewline ? end + 1 : size;
        // The long sections go on other threads: Used values, the InstructionSequence and the
        // BufferLiveRange lines in chunks (at each of their headers), the allocations through
        // the read-ahead (once a file).
        const bool enterUsedValues = m_enterUsedValues && threads > 1;
        m_enterUsedValues = false;
        const bool enterAllocations = m_section == Section::Allocations && readAheadAllocations;
        const bool enterLiveRangeLines =
            threads > 1 && m_section != sectionBefore &&
            (m_section == Section::Sequence || m_section == Section::BufferLiveRange);
        if (enterUsedValues || enterAllocations || enterLiveRangeLines) {
            if (enterAllocations)
                readAheadAllocations = false;
            bytesDone += static_cast<std::int64_t>(pos - lastProgress);
            const std::size_t resume =
                enterUsedValues
                    ? parseUsedValues(text, pos, mapping, threads, bytesDone, bytesTotal)
                : enterAllocations
                    ? readAhead(text, pos, mapping, threads, bytesDone, bytesTotal)
                    : parseLiveRangeLines(text, pos, mapping, threads, bytesDone, bytesTotal,
                                          m_section == Section::Sequence);
            if (resume == sv::npos)
                return false;
            if (enterAllocations)
                m_prefault.finish(threads); // what the helpers had no time for
            pos = lastProgress = lastRelease = resume;
            lines.jump(resume, m_line);
            if (mapping)
                mapping->releaseBefore(resume);
            continue;
        }

        if (++linesSinceCheck >= 4096) {
            linesSinceCheck = 0;
            if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return false;
            }
        }
        if (pos - lastProgress >= kProgressChunk) {
            bytesDone += static_cast<std::int64_t>(pos - lastProgress);
            lastProgress = pos;
            if (m_options.progress)
                m_options.progress(bytesDone, bytesTotal);
        }
        if (mapping && pos - lastRelease >= kReleaseChunk) {
            mapping->releaseBefore(static_cast<std::size_t>(lineOffset));
            lastRelease = pos;
        }
        if (mapping && pos + kPopulateChunk / 2 >= populated) {
            populated = std::max(populated, pos);
            mapping->populate(populated, populated + kPopulateChunk);
            populated += kPopulateChunk;
        }
    }
    m_totalLines += m_line;
    bytesDone += static_cast<std::int64_t>(pos - lastProgress);
    if (m_options.progress)
        m_options.progress(bytesDone, bytesTotal);
    if (first) {
        fail(m_line, "the file holds only blank lines; expected an XLA buffer-assignment dump");
        return false;
    }
    return true;
}

namespace {
/// Lowers `at` to `to` unless it is lower already; safe from any thread (where a chunked
/// section ends: the first end any thread finds).
void lowerTo(std::atomic<std::size_t> &at, std::size_t to)
{
    for (std::size_t was = at.load(); to < was;) {
        if (at.compare_exchange_weak(was, to))
            break;
    }
}

/// The first line start at or after `at`: `at` itself when a line starts there, else the byte
/// after the next '\n' (the end of `text` when there is none).
std::size_t lineStartFrom(sv text, std::size_t at)
{
    if (at == 0 || at >= text.size() || text[at - 1] == '\n')
        return std::min(at, text.size());
    const auto *nl =
        static_cast<const char *>(std::memchr(text.data() + at, '\n', text.size() - at));
    return nl ? static_cast<std::size_t>(nl - text.data()) + 1 : text.size();
}

/// The instruction name of a value block's header line `<ID NAME...`.
sv blockName(sv line)
{
    const auto space = line.find(' ');
    if (space == sv::npos)
        return {};
    line.remove_prefix(space + 1);
    consume(line, "PHI ");
    return line.substr(0, line.find_first_of(" {>\r\n"));
}
} // namespace

std::size_t Builder::chunkBoundary(sv text, std::size_t from, std::size_t limit)
{
    const char *const base = text.data();
    const std::size_t size = text.size();
    std::size_t p = lineStartFrom(text, from);
    // The block before: chunks are cut between instructions, not inside a tuple's values.
    sv previous;
    for (std::size_t q = p, budget = std::size_t{1} << 20, window = 256; q > 1 && budget > 0;) {
        // Back to the previous newline, reading a window that grows from a line's length up to
        // the budget: a search bounded by what it may need, not by the file before it (a
        // sanitizer's memrchr marks the whole range it is given as read).
        window = std::min(window, budget);
        const std::size_t low = q - 1 > window ? q - 1 - window : 0;
        const auto *nl = static_cast<const char *>(::memrchr(base + low, '\n', q - 1 - low));
        if (!nl && low > 0) {
            if (window == budget)
                break; // a line longer than the budget: no block before within reach
            window *= 16;
            continue;
        }
        const std::size_t start = nl ? static_cast<std::size_t>(nl - base) + 1 : 0;
        if (base[start] == '<') {
            previous = blockName(text.substr(start, q - start));
            break;
        }
        budget -= std::min(budget, q - start);
        q = start;
    }
    while (p < limit && p < size) {
        const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
        const std::size_t end = nl ? static_cast<std::size_t>(nl - base) : size;
        const char c = base[p];
        if (c == '<') {
            const sv name = blockName(text.substr(p, end - p));
            if (name != previous || name.empty())
                return p;
            previous = name;
        } else if (c != ' ' && c != '\n' && c != '\r') {
            return p; // the end of the section (or a line only the serial loop knows)
        }
        if (nl == nullptr)
            break;
        p = end + 1;
    }
    return sv::npos;
}

bool Builder::parseChunk(sv text, std::size_t begin, std::size_t end)
{
    const char *const base = text.data();
    const std::size_t size = text.size();
    LineQueue lines(text, begin, end, 0);
    m_hints.fill(Hint{});
    QueuedLine current;
    std::uint64_t linesSinceCheck = 0;
    while (lines.next(current, *this)) {
        // A line outside a value block ends the section: the serial loop goes on from there.
        const sv raw = text.substr(current.begin, current.end - current.begin);
        if (!raw.empty() && raw[0] != ' ' && raw[0] != '<' && raw != "\r") {
            m_sectionEnd = current.begin;
            break;
        }
        ++m_line;
        hintEntry(m_line + static_cast<std::int64_t>(kAhead / 2));
        const sv line = lineText(text, current);
        const sv next = current.newline ? sv(base + current.end + 1,
                                             std::min<std::size_t>(size - current.end - 1, 16))
                                        : sv();
        handleLine(line, current.begin, next);
        if (++linesSinceCheck >= 4096) {
            linesSinceCheck = 0;
            if (m_main->m_stopChunks.load(std::memory_order_relaxed))
                return false;
            if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                m_main->m_stopChunks.store(true, std::memory_order_relaxed);
                return false;
            }
        }
    }
    return !m_main->m_stopChunks.load(std::memory_order_relaxed);
}

std::size_t Builder::parseUsedValues(sv text, std::size_t begin, MappedFile *mapping, int threads,
                                     std::int64_t &bytesDone, std::int64_t bytesTotal)
{
    const Stopwatch clock;
    const std::size_t size = text.size();
    const auto slices = static_cast<std::size_t>(threads) * 4;
    const std::size_t chunkBytes =
        std::clamp<std::size_t>((size - begin) / slices, 512, std::size_t{16} << 20);
    const std::size_t count = (size - begin + chunkBytes - 1) / chunkBytes;
    // Local ids carry the top bit: a dump with 2^31 of anything is read serially.
    if (count < 2 || d.values.size() >= kLocal || d.instructions.size() >= kLocal ||
        d.strings.size() >= kLocal || d.shapes.size() >= kLocal)
        return begin;
    m_prefault.finish(threads); // where no read-ahead ran before
    m_sharedSeen = std::make_unique<std::atomic<std::uint8_t>[]>(d.values.size());
    // Blocks read by an earlier Used values section (a damaged file may have two) count as
    // seen: a chunk that meets one again hands the load to the serial path, which warns.
    for (std::size_t i = 0; i < m_blockSeen.size() && i < d.values.size(); ++i)
        m_sharedSeen[i].store(m_blockSeen[i], std::memory_order_relaxed);
    m_textOwner = std::make_unique<std::atomic<std::uint32_t>[]>(d.instructions.size());
    m_stopChunks.store(false);
    m_serialNeeded.store(false);
    struct Chunk
    {
        std::size_t start = sv::npos;
        std::size_t end = sv::npos;
        std::unique_ptr<Dump> dump;
        std::unique_ptr<Builder> builder;
    };
    std::vector<Chunk> chunks(count);
    const auto raw = [&](std::size_t k) { return std::min(size, begin + k * chunkBytes); };
    std::atomic<std::size_t> sectionEnd{size};
    std::atomic<std::int64_t> parsed{0};
    const std::int64_t doneBefore = bytesDone;
    const auto caller = std::this_thread::get_id();
    parallelFor(count, threads, [&](std::size_t k) {
        Chunk &c = chunks[k];
        if (m_stopChunks.load(std::memory_order_relaxed) || (k > 0 && raw(k) >= sectionEnd.load()))
            return;
        c.start = k == 0 ? begin : chunkBoundary(text, raw(k), raw(k + 1));
        if (c.start == sv::npos)
            return; // the chunk before runs on over this stretch
        c.end = size;
        for (std::size_t j = k + 1; j < count; ++j) {
            if (const std::size_t b = chunkBoundary(text, raw(j), raw(j + 1)); b != sv::npos) {
                c.end = b;
                break;
            }
        }
        if (mapping)
            mapping->populate(c.start, c.end); // one call, not a fault every 64 KiB
        c.dump = std::make_unique<Dump>();
        c.builder =
            std::make_unique<Builder>(*c.dump, m_options, *this, static_cast<std::uint32_t>(k));
        if (!c.builder->parseChunk(text, c.start, c.end))
            return;
        const std::size_t stop = std::min(c.end, c.builder->m_sectionEnd);
        lowerTo(sectionEnd, c.builder->m_sectionEnd);
        if (mapping)
            mapping->releaseRange(c.start, stop);
        parsed += static_cast<std::int64_t>(stop - c.start);
        if (m_options.progress && std::this_thread::get_id() == caller)
            m_options.progress(doneBefore + parsed.load(), bytesTotal);
    });
    m_sharedSeen.reset();
    m_textOwner.reset();
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
        cancelled = true;
        return sv::npos;
    }
    const std::size_t end = sectionEnd.load();
    bool serial = m_serialNeeded.load();
    // A chunk that began after the section's end read value blocks the serial loop would not
    // have taken for this section.
    for (const Chunk &c : chunks) {
        if (c.start != sv::npos && c.start >= end && c.builder && c.builder->m_line > 0) {
            spdlog::debug("chunked Used values: a chunk at byte {} read {} lines after the "
                          "section's end at byte {}; the serial parse takes over",
                          c.start, c.builder->m_line, end);
            serial = true;
        }
    }
    if (serial) {
        restartSerial = true;
        return sv::npos;
    }
    if (m_blockSeen.size() < d.values.size())
        m_blockSeen.resize(d.values.size(), 0);
    const double parallelSeconds = clock.seconds();
    std::size_t merged = 0;
    for (Chunk &c : chunks) {
        if (c.start == sv::npos || c.start >= end || !c.builder)
            continue;
        mergeChunk(*c.builder);
        ++merged;
    }
    bytesDone = doneBefore + static_cast<std::int64_t>(end - begin);
    if (m_options.progress)
        m_options.progress(bytesDone, bytesTotal);
    spdlog::debug("used values: {} chunks of ~{} KiB on {} threads in {:.3f} s ({:.3f} s to merge)",
                  merged, chunkBytes >> 10, threads, clock.seconds(),
                  clock.seconds() - parallelSeconds);
    return end;
}

void Builder::mergeChunk(Builder &c)
{
    Dump &l = c.d;
    // Names first, in the order the chunk met them: ids come out as a serial parse gives them.
    std::vector<StringId> strings(l.strings.size(), kNoString);
    for (StringId i = 1; i < l.strings.size(); ++i)
        strings[i] = d.strings.intern(l.strings.view(i));
    const auto mapString = [&](StringId id) { return isLocal(id) ? strings[id & ~kLocal] : id; };
    std::vector<ShapeId> shapes(l.shapes.size(), 0);
    std::vector<std::uint8_t> newShape(l.shapes.size(), 0);
    for (ShapeId i = 1; i < l.shapes.size(); ++i) {
        const sv text = c.str(l.shapes[i].text);
        const std::uint64_t h = StringPool::hash(text);
        shapes[i] = findShape(text, h);
        if (shapes[i] == 0) {
            ShapeInfo info = l.shapes[i];
            info.text = mapString(info.text);
            shapes[i] = addShape(text, h, info);
            newShape[i] = 1;
        }
    }
    std::vector<std::uint32_t> instructions(l.instructions.size(), kNone);
    for (std::size_t i = 0; i < l.instructions.size(); ++i)
        instructions[i] = instructionFor(mapString(l.instructions[i].name));
    const auto mapInstruction = [&](std::uint32_t i) {
        return isLocal(i) ? instructions[i & ~kLocal] : i;
    };
    // Warnings in file order, lines counted from the file's start; a chunk's warning about a
    // shape an earlier chunk made first is one the serial parse never gave.
    const std::int64_t lineBase = m_line;
    for (std::size_t w = 0; w < l.warnings.size(); ++w) {
        const std::uint32_t shape = c.m_warningShape[w];
        if (shape != kNone && !newShape[shape])
            continue;
        Diagnostic &diag = l.warnings[w];
        warnAt(lineBase + diag.line, std::move(diag.message), diag.value);
    }
    d.suppressedWarnings += l.suppressedWarnings;
    d.traits.crlf = d.traits.crlf || l.traits.crlf;
    d.traits.truncated = d.traits.truncated || l.traits.truncated;
    d.traits.fromInstructionNoSpace =
        d.traits.fromInstructionNoSpace || l.traits.fromInstructionNoSpace;
    d.traits.gluedFromInstruction = d.traits.gluedFromInstruction || l.traits.gluedFromInstruction;
    m_sawFromInstruction = m_sawFromInstruction || c.m_sawFromInstruction;

    const auto positionBase = static_cast<std::uint32_t>(d.positions.size());
    const auto useBase = static_cast<std::uint32_t>(d.uses.size());
    for (Position p : l.positions) {
        p.instruction = mapInstruction(p.instruction);
        p.index = mapString(p.index);
        d.positions.push_back(p);
    }
    for (Use u : l.uses) {
        u.instruction = mapInstruction(u.instruction);
        u.index = mapString(u.index);
        d.uses.push_back(u);
    }
    for (std::size_t b = 0; b < c.m_blocks.size(); ++b) {
        Value &v = d.values[c.m_blocks[b]];
        if (c.m_blockFlags[b] & 1)
            v.firstPosition += positionBase;
        if (c.m_blockFlags[b] & 2)
            v.firstUse += useBase;
        m_blockSeen[c.m_blocks[b]] = 1;
    }
    for (const std::uint32_t i : c.m_claimed) {
        Instruction &ins = d.instructions[i];
        if (isLocal(ins.shape))
            ins.shape = shapes[ins.shape & ~kLocal];
        ins.opcode = mapString(ins.opcode);
        ins.opType = mapString(ins.opType);
        ins.opName = mapString(ins.opName);
        ins.sourceFile = mapString(ins.sourceFile);
    }
    // The serial loop goes on in the state the last chunk left.
    m_line += c.m_line;
    m_block = c.m_block;
    m_blockValue = c.m_blockValue;
}

std::size_t Builder::parseLiveRangeLines(sv text, std::size_t begin, MappedFile *mapping,
                                         int threads, std::int64_t &bytesDone,
                                         std::int64_t bytesTotal, bool sequence)
{
    const Stopwatch clock;
    const char *const base = text.data();
    const std::size_t size = text.size();
    const auto slices = static_cast<std::size_t>(threads) * 4;
    const std::size_t chunkBytes =
        std::clamp<std::size_t>((size - begin) / slices, 512, std::size_t{4} << 20);
    const std::size_t count = (size - begin + chunkBytes - 1) / chunkBytes;
    // A second InstructionSequence, or values added since the order was built, are the serial
    // loop's to sort out.
    if (count < 2 || (sequence && !d.sequence.empty()))
        return begin;
    if (!sequence && m_idOrder.size() != d.values.size())
        buildIdOrder();
    struct Piece
    {
        std::size_t start = 0;
        std::size_t end = 0;
        std::size_t lines = 0;       ///< newlines in [start, end)
        std::size_t parsed = 0;      ///< lines taken
        std::size_t stop = sv::npos; ///< the first line not indented as the subsection's
        std::size_t bad = sv::npos;  ///< the first indented line that does not parse
        bool crlf = false;
        bool complete = false;  ///< it read on to its end
        std::size_t cursor = 0; ///< BufferLiveRange: where in id order it stopped
        std::int64_t firstStep = -1;
        std::int64_t maxEnd = -1;
        std::vector<std::uint32_t> steps; ///< per line its instruction; kNone for a new name
        std::vector<sv> newNames;         ///< the names of the kNone lines, in order
    };
    std::vector<Piece> pieces(count);
    const auto raw = [&](std::size_t k) { return std::min(size, begin + k * chunkBytes); };
    const auto bound = [&](Piece &piece, std::size_t k) {
        piece.start = k == 0 ? begin : lineStartFrom(text, raw(k));
        piece.end = k + 1 == count ? size : lineStartFrom(text, raw(k + 1));
    };
    // A BufferLiveRange piece's first line is the value as many places after the last one in
    // id order as there are lines before it: count them first.
    std::vector<std::size_t> linesBefore(count, 0);
    if (!sequence) {
        parallelFor(count, threads, [&](std::size_t k) {
            Piece &piece = pieces[k];
            bound(piece, k);
            if (piece.start >= piece.end)
                return;
            if (mapping)
                mapping->populate(piece.start, piece.end);
            piece.lines =
                static_cast<std::size_t>(std::count(base + piece.start, base + piece.end, '\n'));
        });
        for (std::size_t k = 1; k < count; ++k)
            linesBefore[k] = linesBefore[k - 1] + pieces[k - 1].lines;
    }

    m_stopChunks.store(false);
    m_serialNeeded.store(false);
    std::atomic<std::size_t> runEnd{size}; // the first line not indented, or a bad one
    std::atomic<std::int64_t> parsedBytes{0};
    const std::int64_t doneBefore = bytesDone;
    const auto caller = std::this_thread::get_id();
    const std::vector<std::uint32_t> &byName = m_instructionByName;
    // Found by name when a live range is not the next value in id order (a value without one,
    // say): built by the first thread that needs it.
    std::once_flag indexed;
    bool keysUnique = true;
    std::vector<std::uint32_t> placeInOrder; // a value's place in m_idOrder
    const auto indexValues = [&] {
        keysUnique = buildValueByKey();
        placeInOrder.resize(m_idOrder.size());
        for (std::uint32_t i = 0; i < m_idOrder.size(); ++i)
            placeInOrder[m_idOrder[i]] = i;
    };
    parallelFor(count, threads, [&](std::size_t k) {
        Piece &piece = pieces[k];
        if (sequence) {
            bound(piece, k);
            if (mapping && (k == 0 || piece.start < runEnd.load()))
                mapping->populate(piece.start, piece.end);
        }
        if (m_stopChunks.load(std::memory_order_relaxed) ||
            (k > 0 && piece.start >= runEnd.load()) || piece.start >= piece.end)
            return;
        std::size_t cursor = m_liveCursor + linesBefore[k];
        std::string scratch;
        struct Name
        {
            sv text;
            std::uint64_t hash;
        };
        std::vector<Name> names; // sequence: each line's name, looked up after the loop
        std::uint64_t sinceCheck = 0;
        std::size_t p = piece.start;
        while (p < piece.end) {
            const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
            if (nl == nullptr) {
                piece.bad = p; // the last line, without its newline: the serial loop warns
                break;
            }
            const auto lineEnd = static_cast<std::size_t>(nl - base);
            sv line(base + p, lineEnd - p);
            if (line.ends_with('\r')) {
                line.remove_suffix(1);
                piece.crlf = true;
            }
            if (!line.starts_with("    ")) {
                piece.stop = p;
                lowerTo(runEnd, p);
                break;
            }
            const sv rest = line.substr(4);
            if (sequence) {
                std::int64_t step = 0;
                sv name;
                if (!parseSequenceLine(rest, step, name, scratch) ||
                    (piece.parsed > 0 &&
                     step != piece.firstStep + static_cast<std::int64_t>(piece.parsed))) {
                    piece.bad = p;
                    break;
                }
                if (piece.parsed == 0)
                    piece.firstStep = step;
                names.push_back({name, StringPool::hash(name)});
            } else {
                std::int64_t start = 0;
                std::int64_t end = 0;
                sv name;
                sv index;
                if (!parseLiveRangeLine(rest, name, index, start, end, scratch) || start > end ||
                    (d.printedMax >= 0 && end > d.printedMax)) {
                    piece.bad = p; // the serial parse warns
                    break;
                }
                // Nearly always the value after the last one in id order; else it is found by
                // its name, and the order goes on from there.
                std::uint32_t value = cursor < m_idOrder.size() ? m_idOrder[cursor] : kNone;
                if (value == kNone || !isValueCalled(value, name, index)) {
                    std::call_once(indexed, indexValues);
                    if (!keysUnique) {
                        needSerial("two values with one name and index", -1);
                        break;
                    }
                    value = lookupValueByKey(name, index);
                    if (value == FlatMap64::kMissing) {
                        piece.bad = p; // in no allocation: the serial parse adds it, and warns
                        break;
                    }
                    cursor = placeInOrder[value];
                }
                Value &v = d.values[value];
                if (std::int64_t unset = -1;
                    !std::atomic_ref<std::int64_t>(v.start).compare_exchange_strong(unset, start)) {
                    piece.bad = p; // a second range for the value: the serial parse warns
                    break;
                }
                v.end = end;
                piece.maxEnd = std::max(piece.maxEnd, end);
                ++cursor;
            }
            ++piece.parsed;
            p = lineEnd + 1;
            if (++sinceCheck >= 4096) {
                sinceCheck = 0;
                if (m_stopChunks.load(std::memory_order_relaxed))
                    break;
                if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                    m_stopChunks.store(true, std::memory_order_relaxed);
                    break;
                }
            }
        }
        piece.complete = p >= piece.end;
        piece.cursor = cursor;
        // The names in the pool and their instructions: random reads, so each is fetched a
        // few lines ahead.
        piece.steps.reserve(names.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (i + kAhead < names.size())
                gd.strings.prefetchSlot(names[i + kAhead].hash);
            if (i + kAhead / 2 < names.size())
                gd.strings.prefetchEntry(names[i + kAhead / 2].hash);
            const StringId id = gd.strings.find(names[i].text, names[i].hash);
            const std::uint32_t ins = id != kNoString && id < byName.size() ? byName[id] : kNone;
            if (ins == kNone) {
                piece.newNames.push_back(names[i].text);
            } else if (std::int64_t unscheduled = -1;
                       !std::atomic_ref<std::int64_t>(d.instructions[ins].step)
                            .compare_exchange_strong(
                                unscheduled, piece.firstStep + static_cast<std::int64_t>(i))) {
                needSerial("an instruction scheduled twice",
                           piece.firstStep + static_cast<std::int64_t>(i));
                break;
            }
            piece.steps.push_back(ins);
        }
        if (piece.bad != sv::npos)
            lowerTo(runEnd, piece.bad);
        if (mapping)
            mapping->releaseRange(piece.start, p);
        parsedBytes += static_cast<std::int64_t>(p - piece.start);
        if (m_options.progress && std::this_thread::get_id() == caller)
            m_options.progress(doneBefore + parsedBytes.load(), bytesTotal);
    });
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
        cancelled = true;
        return sv::npos;
    }
    // The lines before the run's end must all have been taken, in one run of steps; a bad
    // line before it, or lines taken after it, are the serial parse's to report.
    const std::size_t end = runEnd.load();
    bool serial = m_serialNeeded.load();
    std::size_t taken = 0;
    std::int64_t nextStep = static_cast<std::int64_t>(d.sequence.size());
    for (const Piece &piece : pieces) {
        if (piece.bad == end)
            serial = true; // a line of the run the serial parse warns about
        if (piece.start >= end) {
            serial = serial || piece.parsed > 0; // lines taken after the run's end
            continue;
        }
        if (piece.stop != end && !piece.complete)
            serial = true; // stopped short of its end
        if (sequence && piece.parsed > 0) {
            serial = serial || piece.firstStep != nextStep;
            nextStep += static_cast<std::int64_t>(piece.parsed);
        }
        taken += piece.parsed;
    }
    if (serial) {
        spdlog::debug("chunked {}: met what only the serial parse decides; it takes over",
                      sequence ? "InstructionSequence" : "BufferLiveRange");
        restartSerial = true;
        return sv::npos;
    }
    if (sequence) {
        // Names no value or use made come in file order, as the serial parse makes them.
        for (const Piece &piece : pieces) {
            if (piece.start >= end)
                break;
            std::size_t named = 0;
            for (std::uint32_t ins : piece.steps) {
                if (ins == kNone) {
                    ins = instructionFor(intern(piece.newNames[named++]));
                    if (d.instructions[ins].step >= 0) {
                        restartSerial = true; // scheduled twice: the serial parse warns
                        return sv::npos;
                    }
                    d.instructions[ins].step = static_cast<std::int64_t>(d.sequence.size());
                }
                d.sequence.push_back(ins);
            }
        }
    } else {
        for (const Piece &piece : pieces) {
            if (piece.start < end && piece.parsed > 0)
                m_liveCursor = piece.cursor;
        }
    }
    for (const Piece &piece : pieces) {
        if (piece.start >= end)
            break;
        m_maxEnd = std::max(m_maxEnd, piece.maxEnd);
        d.traits.crlf = d.traits.crlf || piece.crlf;
    }
    m_line += static_cast<std::int64_t>(taken);
    bytesDone = doneBefore + static_cast<std::int64_t>(end - begin);
    if (m_options.progress)
        m_options.progress(bytesDone, bytesTotal);
    spdlog::debug("{}: {} lines in {} chunks of ~{} KiB on {} threads in {:.3f} s",
                  sequence ? "instruction sequence" : "buffer live ranges", taken, count,
                  chunkBytes >> 10, threads, clock.seconds());
    return end;
}

void Builder::tokenize(sv line, Token &t, std::string &scratch)
{
    t.kind = TokenKind::Other;
    if (line.starts_with(" value: <")) {
        if (parseValueLine(line, t.value, t.a, t.b, t.shape, scratch)) {
            t.kind = TokenKind::AllocationValue;
            t.hashes.name = StringPool::hash(t.value.name);
            t.hashes.shape = t.shape.empty() ? 0 : StringPool::hash(t.shape);
        }
    }
}

void Builder::prefetchToken(const Token &t, bool entries) const
{
    switch (t.kind) {
    case TokenKind::AllocationValue:
        if (entries) {
            gd.strings.prefetchEntry(t.hashes.name);
            if (!t.shape.empty()) {
                const ShapeSlot &slot = m_shapeSlots[t.hashes.shape & (m_shapeSlots.size() - 1)];
                if (slot.shape != 0)
                    __builtin_prefetch(m_shapeTexts.data() + slot.begin);
            }
        } else {
            gd.strings.prefetchSlot(t.hashes.name);
            m_valueById.prefetch(static_cast<std::uint64_t>(t.value.id));
            if (!t.shape.empty())
                __builtin_prefetch(&m_shapeSlots[t.hashes.shape & (m_shapeSlots.size() - 1)]);
        }
        break;
    case TokenKind::Other:
        break;
    }
}

std::size_t Builder::readAhead(sv text, std::size_t begin, MappedFile *mapping, int threads,
                               std::int64_t &bytesDone, std::int64_t bytesTotal)
{
    const Stopwatch clock;
    const std::size_t size = text.size();
    // Stretches of up to 128 KiB, small enough on a small file that every thread gets some.
    const std::size_t stretchBytes = std::clamp<std::size_t>(
        (size - begin) / (static_cast<std::size_t>(threads) * 64), 512, std::size_t{128} << 10);
    const std::size_t count = (size - begin + stretchBytes - 1) / stretchBytes;
    if (count < 2)
        return begin;
    const auto inSection = [](sv line) {
        return line.empty() || line[0] == ' ' || line.starts_with("allocation ");
    };
    // A ring of stretches: the one in slot k % window is refilled once this thread is done
    // with stretch k, so at most `window` stretches of tokens exist at once.
    struct Stretch
    {
        std::vector<Token> tokens;
        std::size_t stopAt = sv::npos;     ///< the line that ends the section, if in this stretch
        std::size_t end = 0;               ///< where its last line ends
        std::atomic<std::size_t> ready{0}; ///< k + 1 once stretch k's tokens are in
    };
    // Helpers with stretches enough in hand fault in the big arrays' pages meanwhile (parseText).
    const std::size_t window = static_cast<std::size_t>(threads) * 16;
    std::vector<Stretch> ring(window);
    std::atomic<std::size_t> next{0};      // the next stretch to claim
    std::atomic<std::size_t> limit{count}; // no stretch from here on is needed
    std::atomic<std::size_t> consumed{0};  // stretches this thread is done with
    std::atomic<bool> stop{false};
    const char *const base = text.data();
    const auto raw = [&](std::size_t k) { return std::min(size, begin + k * stretchBytes); };
    // Stretch k holds the lines that start in [raw(k), raw(k + 1)).
    const auto fill = [&](std::size_t k) {
        Stretch &s = ring[k % window];
        s.tokens.clear();
        s.stopAt = sv::npos;
        std::string scratch;
        const std::size_t until = raw(k + 1);
        if (mapping)
            mapping->populate(raw(k), until + 4096); // the last line runs on past `until`
        std::size_t p = lineStartFrom(text, raw(k));
        s.end = p;
        while (p < until && p < size) {
            const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
            const std::size_t end = nl ? static_cast<std::size_t>(nl - base) : size;
            sv line = text.substr(p, end - p);
            if (line.ends_with('\r'))
                line.remove_suffix(1);
            if (!inSection(line)) {
                s.stopAt = p;
                lowerTo(limit, k + 1);
                break;
            }
            Token &t = s.tokens.emplace_back();
            t.line = {p, end, nl != nullptr};
            tokenize(line, t, scratch);
            s.end = end;
            p = nl ? end + 1 : size;
        }
        s.ready.store(k + 1, std::memory_order_release);
        s.ready.notify_all();
    };
    const auto produce = [&] {
        for (;;) {
            std::size_t k = next.load();
            if (stop.load(std::memory_order_relaxed) || k >= limit.load())
                return;
            const std::size_t done = consumed.load(std::memory_order_acquire);
            if (k >= done + window / 2 && m_prefault.step())
                continue;
            if (k >= done + window) {
                consumed.wait(done);
                continue;
            }
            if (next.compare_exchange_weak(k, k + 1))
                fill(k);
        }
    };
    std::size_t resume = size;
    bool ok = true;
    const std::int64_t doneBefore = bytesDone;
    // This thread builds the tables from the stretches in order, splitting those no helper
    // has taken yet itself.
    const auto build = [&] {
        std::size_t lastProgress = begin;
        std::size_t lastRelease = begin;
        std::uint64_t linesSinceCheck = 0;
        for (std::size_t k = 0; k < count && ok; ++k) {
            Stretch &s = ring[k % window];
            if (std::size_t claim = k;
                next.load() == k && next.compare_exchange_strong(claim, k + 1)) {
                fill(k);
            } else {
                for (std::size_t r = s.ready.load(std::memory_order_acquire); r != k + 1;
                     r = s.ready.load(std::memory_order_acquire))
                    s.ready.wait(r);
            }
            const std::vector<Token> &tokens = s.tokens;
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                if (i + kAhead < tokens.size())
                    prefetchToken(tokens[i + kAhead], false);
                if (i + kAhead / 2 < tokens.size())
                    prefetchToken(tokens[i + kAhead / 2], true);
                const Token &t = tokens[i];
                ++m_line;
                const sv line = lineText(text, t.line);
                if (t.kind == TokenKind::AllocationValue && m_section == Section::Allocations) {
                    allocationValue(t);
                } else {
                    const sv ahead = t.line.newline
                                         ? sv(base + t.line.end + 1,
                                              std::min<std::size_t>(size - t.line.end - 1, 16))
                                         : sv();
                    handleLine(line, t.line.begin, ahead);
                }
                // Only lines outside the section (which end it) can stop the file or fail it.
                if (m_section != m_timedSection)
                    enterSection();
                if (++linesSinceCheck >= 4096) {
                    linesSinceCheck = 0;
                    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                        cancelled = true;
                        ok = false;
                        break;
                    }
                }
            }
            // The slot is refilled once it is handed back: read what is needed first.
            const std::size_t stretchEnd = s.end;
            const std::size_t stopAt = s.stopAt;
            consumed.store(k + 1, std::memory_order_release);
            consumed.notify_all();
            if (stretchEnd - lastProgress >= kProgressChunk) {
                bytesDone = doneBefore + static_cast<std::int64_t>(stretchEnd - begin);
                lastProgress = stretchEnd;
                if (m_options.progress)
                    m_options.progress(bytesDone, bytesTotal);
            }
            if (mapping && stretchEnd - lastRelease >= kReleaseChunk) {
                mapping->releaseBefore(lastProgress);
                lastRelease = stretchEnd;
            }
            if (stopAt != sv::npos) {
                resume = stopAt;
                break;
            }
        }
        // Wake the helpers that wait for room, and let them go.
        stop.store(true);
        consumed.store(std::numeric_limits<std::size_t>::max() / 2, std::memory_order_release);
        consumed.notify_all();
    };
    const std::size_t helpers =
        withHelpers(std::min(static_cast<std::size_t>(threads), count) - 1, produce, build);
    if (!ok)
        return sv::npos;
    bytesDone = doneBefore + static_cast<std::int64_t>(resume - begin);
    spdlog::debug("allocations: {} stretches of ~{} KiB, {} threads splitting lines, in {:.3f} s; "
                  "{} of {} slices of the big arrays faulted in meanwhile",
                  count, stretchBytes >> 10, helpers, clock.seconds(), m_prefault.taken(),
                  m_prefault.slices());
    return resume;
}

bool Builder::handleFirstLine(sv line)
{
    if (line.starts_with("BufferAssignment:") || line.starts_with("Total bytes used:") ||
        line.starts_with("Used values:") || line.starts_with("HloLiveRange") ||
        line.starts_with("*** Begin ") || line.starts_with("allocation ")) {
        if (line.starts_with("allocation ")) {
            warn("the file starts with an allocation, not 'BufferAssignment:'; is its head "
                 "missing?");
            m_section = Section::Allocations;
        }
        return true;
    }
    fail(m_line, "not an XLA buffer-assignment dump: line " + std::to_string(m_line) + " reads '" +
                     excerpt(line) +
                     "', expected 'BufferAssignment:' (or 'Total bytes used:' / "
                     "'HloLiveRange' for a split module's other files)");
    return false;
}

void Builder::handleLine(sv line, std::uint64_t offset, sv next)
{
    if (line.empty()) {
        if (m_section == Section::Allocations) {
            m_inCrossColor = false;
            m_allocation = kNone;
            flushColorChecks();
        }
        return;
    }
    const char c0 = line[0];
    if (c0 == ' ') {
        // Indented lines: their meaning depends on the section.
        if (m_section == Section::Allocations) {
            if (line.starts_with(" value: <"))
                return allocationValue(line);
            if (line.starts_with("  value: <") && m_inCrossColor)
                return crossColorValue(line);
            if (line == " reused by buffers of a different color:") {
                if (m_allocation == kNone)
                    warn("a cross-color block outside an allocation");
                m_inCrossColor = true;
                return;
            }
            if (line.find("](#") != sv::npos)
                return logicalBufferLine(line);
            return unrecognized(line, "' value: <ID NAME @C> (size=S,offset=O): SHAPE'");
        }
        if (m_section == Section::UsedValues) {
            if (m_block == Block::Skip) {
                if (line.starts_with(" from instruction:"))
                    m_block = Block::Done;
                return;
            }
            if (line.starts_with(" from instruction:"))
                return fromInstruction(line, offset, next);
            if (line == " positions:") {
                if (m_block != Block::Header)
                    return warn("' positions:' outside a value block");
                m_block = Block::Positions;
                if (m_blockValue != kNone) {
                    gd.values[m_blockValue].firstPosition =
                        static_cast<std::uint32_t>(d.positions.size());
                    if (m_main)
                        m_blockFlags.back() |= 1;
                }
                return;
            }
            if (line == " uses:") {
                if (m_block != Block::Positions)
                    return warn("' uses:' not after the positions of a value");
                m_block = Block::Uses;
                if (m_blockValue != kNone) {
                    Value &v = gd.values[m_blockValue];
                    v.firstUse = static_cast<std::uint32_t>(d.uses.size());
                    v.usesState = UsesState::Known;
                    if (m_main)
                        m_blockFlags.back() |= 2;
                }
                return;
            }
            if (line == " uses are not initialized yet.") {
                m_block = Block::UsesUnknown;
                if (m_blockValue != kNone)
                    gd.values[m_blockValue].usesState = UsesState::NotInitialized;
                return;
            }
            if (line == "  (none)" && m_block == Block::Uses)
                return;
            if (line.starts_with("  ") && line.size() > 2 && line[2] != ' ') {
                if (m_block == Block::Positions)
                    return position(line.substr(2));
                if (m_block == Block::Uses)
                    return use(line.substr(2));
            }
            return unrecognized(line, "a position, use or ' from instruction:' line");
        }
        if (m_section == Section::LiveRangeHeader || m_section == Section::Sequence ||
            m_section == Section::BufferLiveRange || m_section == Section::Peak ||
            m_section == Section::StackTrace) {
            if (line == "  InstructionSequence:") {
                m_section = Section::Sequence;
                return;
            }
            if (line == "  BufferLiveRange:") {
                m_section = Section::BufferLiveRange;
                return;
            }
            if (line.starts_with("  Live ranges at "))
                return peakHeader(line);
            if (line.starts_with("  Stack trace breakdown for peak usage: "))
                return stackTraceHeader(line);
            if (line.starts_with("  Peak memory could not be determined")) {
                d.printedPeak.undetermined = true;
                m_section = Section::Done;
                return;
            }
            if (line.starts_with("    ")) {
                switch (m_section) {
                case Section::Sequence:
                    return sequenceLine(line.substr(4));
                case Section::BufferLiveRange:
                    return bufferLiveRange(line.substr(4));
                case Section::Peak:
                    return peakEntry(line.substr(4));
                case Section::StackTrace:
                    return stackTraceLine(line);
                default:
                    break;
                }
            }
            return unrecognized(line, "a line of the HloLiveRange section");
        }
        return unrecognized(line, "a section header");
    }
    if (c0 == '<') {
        if (m_section != Section::UsedValues)
            return warn("value block '" + excerpt(line) + "' outside the 'Used values:' section");
        return valueHeader(line);
    }
    if (line.starts_with("allocation ")) {
        if (m_section != Section::Allocations && m_section != Section::Start)
            warn("allocation header after the allocation list");
        m_section = Section::Allocations;
        return allocationHeader(line);
    }
    if (line == "BufferAssignment:") {
        if (m_sawHeader || m_sawAllocations) {
            warn("a second 'BufferAssignment:' block; this file holds more than one module and "
                 "only the first is read");
            m_stopFile = true;
            return;
        }
        m_sawHeader = true;
        m_section = Section::Allocations;
        return;
    }
    if (line.starts_with("Total bytes used: ")) {
        sv rest = line.substr(18);
        std::int64_t total = 0;
        if (!readInt(rest, total) || total < 0)
            return warn("malformed 'Total bytes used:' line; expected a byte count");
        d.printedTotalBytes = total;
        if (consume(rest, " (")) {
            if (!rest.ends_with(")") || rest.substr(0, rest.size() - 1) != humanBytes(total))
                warn("'Total bytes used' prints " + std::string(rest.substr(0, rest.size() - 1)) +
                     " but " + std::to_string(total) + " bytes are " + humanBytes(total));
        }
        m_section = Section::Total;
        return;
    }
    if (line == "Used values:") {
        m_section = Section::UsedValues;
        d.traits.hasUsedValues = true;
        m_block = Block::None;
        m_blockValue = kNone;
        // The blocks come in ascending id (docs/FORMAT.md): walk the values in that order instead
        // of hashing every id, and fetch the next ones' records ahead of time.
        buildIdOrder();
        m_headerCursor = 0;
        m_enterUsedValues = m_main == nullptr;
        return;
    }
    if (line.starts_with("HloLiveRange (max "))
        return liveRangeHeader(line);
    if (line.starts_with("HloLiveRange not available")) {
        d.traits.liveRangeUnavailable = true;
        warn("XLA wrote no live ranges for this module ('" + excerpt(line) +
             "'); memory over time cannot be shown");
        return;
    }
    if (line.starts_with("*** Begin ") || line.starts_with("*** End ")) {
        // --xla_dump_to=- wraps each file in these markers; a second module's markers end it.
        if (line.starts_with("*** End ") && (m_sawAllocations || d.traits.hasUsedValues))
            m_stopFile = true;
        return;
    }
    unrecognized(line, "a section header ('BufferAssignment:', 'allocation N: ...', "
                       "'Total bytes used:', 'Used values:' or 'HloLiveRange')");
}

void Builder::allocationHeader(sv line)
{
    m_inCrossColor = false;
    m_allocation = kNone;
    flushColorChecks();
    sv rest = line.substr(11);
    std::int64_t index = 0;
    if (!readInt(rest, index) || index < 0 || !consume(rest, ": "))
        return warn("malformed allocation header; expected 'allocation N: size S...:'");
    if (rest.ends_with(":"))
        rest.remove_suffix(1);
    else
        warn("allocation header does not end with ':'; the line may be cut off");
    Allocation a;
    a.index = index;
    a.file = m_file;
    a.line = m_line;
    if (rest.starts_with("0x")) {
        const auto comma = rest.find(", ");
        sv hex = rest.substr(2, comma == sv::npos ? sv::npos : comma - 2);
        std::uint64_t pointer = 0;
        auto [p, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), pointer, 16);
        if (ec != std::errc() || p != hex.data() + hex.size())
            warn("malformed allocation address '" + excerpt(hex) + "'");
        a.pointer = pointer;
        d.traits.allocationPointers = true;
        rest = comma == sv::npos ? sv() : rest.substr(comma + 2);
    }
    if (!consume(rest, "size ") || !readInt(rest, a.size))
        return warn("allocation header without 'size N'" + overflowNote(line));
    if (a.size < 0) {
        warn("allocation " + std::to_string(index) + " has a negative size " +
             std::to_string(a.size) + "; counted as 0");
        a.size = 0;
    } else if (a.size > kMaxBytes || m_allocationBytes + a.size > kMaxSum) {
        warn("allocation " + std::to_string(index) + " has size " + std::to_string(a.size) +
             (a.size > kMaxBytes ? ", beyond 256 TiB" : ", which takes the total beyond 4 EiB") +
             "; counted as 0");
        a.size = 0;
    }
    m_allocationBytes += a.size;
    while (!rest.empty()) {
        if (!consume(rest, ", ")) {
            warn("unexpected text '" + excerpt(rest) + "' in allocation header");
            break;
        }
        std::int64_t n = 0;
        if (consume(rest, "color ")) {
            if (!readInt(rest, n) || n < 0 || n > 0x7fffffff)
                warn("bad 'color N' in allocation header");
            a.color = static_cast<std::int32_t>(std::clamp<std::int64_t>(n, 0, 0x7fffffff));
        } else if (consume(rest, "page ")) {
            if (!readInt(rest, a.page))
                warn("bad 'page N' in allocation header");
        } else if (consume(rest, "parameter ")) {
            if (!readInt(rest, a.parameterNumber) || a.parameterNumber < 0)
                warn("bad 'parameter N' in allocation header");
            a.isParameter = true;
            if (consume(rest, ", shape |")) {
                const auto bar = rest.find('|');
                if (bar == sv::npos) {
                    warn("parameter shape without closing '|'");
                    break;
                }
                a.parameterShape = d.strings.intern(rest.substr(0, bar));
                rest.remove_prefix(bar + 1);
            }
            if (consume(rest, " at ShapeIndex ")) {
                const auto close = rest.find('}');
                if (close == sv::npos || !validIndex(rest.substr(0, close + 1))) {
                    warn("bad ShapeIndex in allocation header");
                    break;
                }
                a.parameterIndex = d.strings.intern(rest.substr(0, close + 1));
                rest.remove_prefix(close + 1);
            }
        } else if (consume(rest, "output shape is |")) {
            const auto bar = rest.find('|');
            if (bar == sv::npos) {
                warn("output shape without closing '|'");
                break;
            }
            a.outputShape = d.strings.intern(rest.substr(0, bar));
            rest.remove_prefix(bar + 1);
        } else if (consume(rest, "constant")) {
            a.isConstant = true;
        } else if (consume(rest, "thread-local")) {
            a.isThreadLocal = true;
        } else if (consume(rest, "maybe-live-out")) {
            a.isMaybeLiveOut = true;
        } else if (consume(rest, "preallocated-temp")) {
            a.isPreallocatedTemp = true;
        } else {
            const auto comma = rest.find(", ");
            warn("unknown allocation attribute '" +
                 excerpt(rest.substr(0, comma == sv::npos ? rest.size() : comma)) + "'");
            if (comma == sv::npos)
                break;
            rest.remove_prefix(comma);
        }
    }
    if (index != static_cast<std::int64_t>(d.allocations.size()))
        warn("allocation " + std::to_string(index) + " is listed at position " +
             std::to_string(d.allocations.size()) + "; XLA numbers allocations 0..n-1 in order");
    // Indices seen so far, by hash: a linear scan here was quadratic in the allocation count.
    if (const std::uint32_t first = m_allocationByIndex.insert(
            static_cast<std::uint64_t>(index), static_cast<std::uint32_t>(d.allocations.size()));
        first != d.allocations.size())
        warn("allocation index " + std::to_string(index) + " appears twice (first at line " +
             std::to_string(d.allocations[first].line) + ")");
    a.firstValue = static_cast<std::uint32_t>(d.allocationValues.size());
    a.firstCrossColor = static_cast<std::uint32_t>(d.crossColorValues.size());
    m_allocation = static_cast<std::uint32_t>(d.allocations.size());
    d.allocations.push_back(a);
    m_sawAllocations = true;
}

std::uint32_t Builder::addValue(const ShortValue &s, std::uint32_t allocation, std::int64_t offset,
                                std::int64_t size, sv shape, const LineHashes *hashes)
{
    const auto index = static_cast<std::uint32_t>(d.values.size());
    const std::uint32_t existing = m_valueById.insert(static_cast<std::uint64_t>(s.id), index);
    if (existing != index) {
        const Value &first = d.values[existing];
        warn("value " + std::to_string(s.id) + " is listed again (first in allocation " +
                 (first.allocation == kNone
                      ? std::string("none")
                      : std::to_string(d.allocations[first.allocation].index)) +
                 " at line " + std::to_string(first.line) + "); this listing is ignored",
             existing);
        return kNone;
    }
    Value v;
    v.id = s.id;
    v.instruction = instructionFor(hashes ? intern(s.name, hashes->name) : internHinted(s.name));
    v.index = indexOrEmpty(s.index);
    v.printedIndex = !s.index.empty();
    v.phi = s.phi;
    v.color = s.color;
    v.allocation = allocation;
    v.file = m_file;
    v.line = m_line;
    if (offset < 0 || size < 0) {
        warn("value " + std::to_string(s.id) + " has a negative " +
                 (offset < 0 ? "offset" : "size") + "; counted as 0",
             index);
        offset = std::max<std::int64_t>(offset, 0);
        size = std::max<std::int64_t>(size, 0);
    }
    if (offset > kMaxBytes || size > kMaxBytes || m_valueBytes + size > kMaxSum) {
        warn("value " + std::to_string(s.id) + " has " +
                 (offset > kMaxBytes || size > kMaxBytes
                      ? std::string(offset > kMaxBytes ? "an offset" : "a size") + " beyond 256 TiB"
                      : std::string("a size that takes the total beyond 4 EiB")) +
                 "; its offset and size count as 0",
             index);
        offset = 0;
        size = 0;
    }
    m_valueBytes += size;
    v.offset = offset;
    v.size = size;
    v.shape = shape.empty() ? 0 : hashes ? shapeFor(shape, hashes->shape) : shapeHinted(shape);
    if (allocation != kNone) {
        const Allocation &a = d.allocations[allocation];
        std::int64_t endByte = 0;
        if (__builtin_add_overflow(offset, size, &endByte) || endByte > a.size)
            warn("value " + std::to_string(s.id) + " [" + std::to_string(offset) + ", +" +
                     std::to_string(size) + ") reaches past the end of allocation " +
                     std::to_string(a.index) + " (size " + std::to_string(a.size) + ")",
                 index);
        if (v.color != a.color)
            m_colorChecks.push_back({index, allocation, m_file, m_line});
        d.allocationValues.push_back(index);
        ++d.allocations[allocation].valueCount;
    }
    d.values.push_back(v);
    return index;
}

bool Builder::valueLineHasAllocation()
{
    if (m_allocation == kNone) {
        warn("a value line outside any allocation");
        return false;
    }
    if (d.allocations[m_allocation].firstValue + d.allocations[m_allocation].valueCount !=
        d.allocationValues.size()) {
        warn("a value line separated from its allocation header");
        return false;
    }
    return true;
}

void Builder::allocationValue(const Token &token)
{
    if (valueLineHasAllocation())
        addValue(token.value, m_allocation, token.a, token.b, token.shape, &token.hashes);
}

void Builder::allocationValue(sv line)
{
    if (!valueLineHasAllocation())
        return;
    ShortValue s;
    std::int64_t size = 0;
    std::int64_t offset = 0;
    sv shape;
    if (!parseValueLine(line, s, offset, size, shape, m_error))
        return warn(m_error);
    addValue(s, m_allocation, offset, size, shape);
}

void Builder::crossColorValue(sv line)
{
    ShortValue s;
    sv rest;
    if (!parseShort(line.substr(9), s, rest, m_error))
        return warn("malformed cross-color value line: " + m_error);
    const std::uint32_t index = m_valueById.find(static_cast<std::uint64_t>(s.id));
    if (index == FlatMap64::kMissing)
        return warn("cross-color block names value " + std::to_string(s.id) +
                    " which is not listed in any allocation");
    if (m_allocation == kNone)
        return;
    d.crossColorValues.push_back(index);
    d.crossColorPrinted.push_back(s.color);
    ++d.allocations[m_allocation].crossColorCount;
}

void Builder::flushColorChecks()
{
    for (const ColorCheck &c : m_colorChecks) {
        const Allocation &a = d.allocations[c.allocation];
        Value &v = d.values[c.value];
        bool listed = false;
        for (std::uint32_t i = 0; i < a.crossColorCount && !listed; ++i)
            listed = d.crossColorValues[a.firstCrossColor + i] == c.value;
        if (listed) {
            // Placed in an allocation of another colour on purpose (XLA PR #44279): it takes up
            // that memory space, so it counts there (docs/FORMAT.md Part B §3.2).
            v.color = a.color;
            continue;
        }
        if (d.warnings.size() >= m_options.maxWarnings) {
            ++d.suppressedWarnings;
            continue;
        }
        d.warnings.push_back({Severity::Warning, c.file, c.line,
                              "value " + std::to_string(v.id) + " has memory space @" +
                                  std::to_string(v.color) + " but allocation " +
                                  std::to_string(a.index) + " has color " + std::to_string(a.color),
                              c.value});
    }
    m_colorChecks.clear();
}

void Builder::logicalBufferLine(sv line)
{
    // 2019 LogicalBuffer era: `  name[i,j](#id @c) [offset,size]: shape`
    d.traits.logicalBufferEra = true;
    if (m_allocation == kNone)
        return warn("a buffer line outside any allocation");
    sv rest = line;
    while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
    const auto marker = rest.find("](#");
    const auto open = rest.substr(0, marker).rfind('[');
    if (open == sv::npos)
        return warn(
            "malformed LogicalBuffer line; expected 'name[i](#id @c) [offset,size]: shape'");
    ShortValue s;
    s.name = rest.substr(0, open);
    const sv idx = rest.substr(open + 1, marker - open - 1);
    std::string index = "{" + std::string(idx) + "}";
    rest.remove_prefix(marker + 3);
    const auto close = rest.find(')');
    if (close == sv::npos)
        return warn("malformed LogicalBuffer line; expected ')' after the id");
    sv inner = rest.substr(0, close);
    rest.remove_prefix(close + 1);
    std::int64_t color = 0;
    if (!readInt(inner, s.id) || s.id < 0 || s.id > kMaxValueId || !consume(inner, " @") ||
        !readInt(inner, color))
        return warn("malformed LogicalBuffer id; expected '(#ID @COLOR)'");
    s.color = color < 0 ? 0 : static_cast<std::int32_t>(std::min<std::int64_t>(color, 0x7fffffff));
    std::int64_t offset = 0;
    std::int64_t size = 0;
    if (!consume(rest, " [") || !readInt(rest, offset) || !consume(rest, ",") ||
        !readInt(rest, size) || !consume(rest, "]:"))
        return warn("malformed LogicalBuffer line; expected ' [offset,size]: shape'");
    consume(rest, " ");
    if (!validName(s.name) || !validIndex(index))
        return warn("malformed LogicalBuffer name '" + excerpt(s.name) + "'");
    const StringId indexId = d.strings.intern(index);
    s.index = d.strings.view(indexId);
    const std::uint32_t v = addValue(s, m_allocation, offset, size, rest);
    if (v != kNone)
        d.values[v].printedIndex = idx.size() > 0;
}

void Builder::valueHeader(sv line)
{
    m_block = Block::None;
    m_blockValue = kNone;
    ShortValue s;
    sv rest;
    m_error.clear();
    if (!parseShort(line, s, rest, m_error) || !rest.empty()) {
        m_block = Block::Skip;
        return warn("malformed value header '" + excerpt(line) +
                    "': " + (m_error.empty() ? std::string("unexpected text after '>'") : m_error) +
                    "; its block is skipped");
    }
    const std::vector<std::uint32_t> &idOrder = G().m_idOrder;
    std::uint32_t index = FlatMap64::kMissing;
    if (m_headerCursor < idOrder.size() && gd.values[idOrder[m_headerCursor]].id == s.id) {
        index = idOrder[m_headerCursor++];
    } else {
        index = G().m_valueById.find(static_cast<std::uint64_t>(s.id));
        if (index != FlatMap64::kMissing)
            resyncHeaderCursor(index);
    }
    // Two blocks ahead: its value record; one block ahead: its instruction and name.
    if (m_headerCursor + 2 < idOrder.size()) {
        __builtin_prefetch(&gd.values[idOrder[m_headerCursor + 2]]);
        const Value &next = gd.values[idOrder[m_headerCursor + 1]];
        if (next.instruction != kNone) {
            __builtin_prefetch(&gd.instructions[next.instruction]);
        }
        const Value &now = gd.values[idOrder[m_headerCursor]];
        if (now.instruction != kNone)
            gd.strings.prefetch(gd.instructions[now.instruction].name);
    }
    if (index == FlatMap64::kMissing && m_main) {
        // A value in no allocation gets a record of its own: the serial path numbers those.
        m_main->needSerial("a value block of a value in no allocation", s.id);
        return;
    }
    if (index == FlatMap64::kMissing) {
        warn("value " + std::to_string(s.id) +
             " is listed under 'Used values' but in no allocation; shown as unallocated");
        index = addValue(s, kNone, 0, 0, {});
        if (index == kNone)
            return;
    } else {
        const Value &v = gd.values[index];
        if (gd.valueName(v) != s.name || (!s.index.empty() && gd.str(v.index) != s.index))
            warn("value " + std::to_string(s.id) + " is called '" + excerpt(line) + "' here but '" +
                     gd.valueDisplayName(v) + "' in its allocation",
                 index);
    }
    if (m_main) {
        // Each value's block is read once; a second one, in this chunk or another, is for the
        // serial path to report in file order.
        if (m_main->m_sharedSeen[index].exchange(1, std::memory_order_relaxed) != 0) {
            m_main->needSerial("a second block for a value", s.id);
            return;
        }
        m_blocks.push_back(index);
        m_blockFlags.push_back(0);
        m_blockValue = index;
        m_block = Block::Header;
        return;
    }
    if (index >= m_blockSeen.size())
        m_blockSeen.resize(std::max<std::size_t>(d.values.size(), index + 1) * 2, 0);
    if (m_blockSeen[index]) {
        warn("value " + std::to_string(s.id) + " has a second 'Used values' block; ignored", index);
        m_block = Block::Done;
        return;
    }
    m_blockSeen[index] = 1;
    m_blockValue = index;
    m_block = Block::Header;
}

void Builder::resyncHeaderCursor(std::uint32_t index)
{
    // Ids ascend along m_idOrder, the id-less values (-1) last.
    const std::vector<std::uint32_t> &idOrder = G().m_idOrder;
    const std::int64_t id = gd.values[index].id;
    const auto at = std::lower_bound(idOrder.begin(), idOrder.end(), id,
                                     [this](std::uint32_t i, std::int64_t wanted) {
                                         const std::int64_t have = gd.values[i].id;
                                         return have >= 0 && have < wanted;
                                     });
    if (at != idOrder.end() && *at == index)
        m_headerCursor = static_cast<std::size_t>(at - idOrder.begin()) + 1;
}

void Builder::position(sv text)
{
    if (m_blockValue == kNone)
        return;
    sv name = text;
    sv index;
    const auto space = text.find(' ');
    if (space != sv::npos) {
        name = text.substr(0, space);
        index = text.substr(space + 1);
        if (!validIndex(index))
            return warn("malformed position '" + excerpt(text) + "'; expected 'NAME [{idx}]'");
    }
    if (!validName(name))
        return warn("malformed position '" + excerpt(text) + "'");
    Position p;
    // The first position is nearly always the defining instruction, whose name valueHeader has
    // just compared (so it is in cache): skip the pool lookup then.
    const std::uint32_t own = gd.values[m_blockValue].instruction;
    if (own != kNone && gd.str(gd.instructions[own].name) == name)
        p.instruction = own;
    else
        p.instruction = instructionFor(internHinted(name));
    p.index = index.empty() ? kNoString : internRecent(index);
    d.positions.push_back(p);
    ++gd.values[m_blockValue].positionCount;
}

void Builder::use(sv text)
{
    if (m_blockValue == kNone)
        return;
    const auto comma = text.find(", operand ");
    if (comma == sv::npos)
        return warn("malformed use '" + excerpt(text) + "'; expected 'NAME, operand N [{idx}]'");
    const sv name = text.substr(0, comma);
    sv rest = text.substr(comma + 10);
    Use u;
    if (!readInt(rest, u.operand) || u.operand < 0 || !validName(name))
        return warn("malformed use '" + excerpt(text) + "'; expected 'NAME, operand N [{idx}]'");
    if (!rest.empty()) {
        if (!consume(rest, " ") || !validIndex(rest))
            return warn("malformed use '" + excerpt(text) +
                        "'; expected 'NAME, operand N [{idx}]'");
        u.index = internRecent(rest);
    }
    u.instruction = instructionFor(internHinted(name));
    d.uses.push_back(u);
    ++gd.values[m_blockValue].useCount;
}

namespace {
/// Whether `ahead` (the first bytes of a line) is exactly ` positions:`.
bool isPositionsLine(sv ahead)
{
    constexpr sv kPositions = " positions:";
    if (!ahead.starts_with(kPositions))
        return false;
    ahead.remove_prefix(kPositions.size());
    return ahead.empty() || ahead.front() == '\n' || ahead.starts_with("\r\n") || ahead == "\r";
}
} // namespace

void Builder::fromInstruction(sv line, std::uint64_t offset, sv next)
{
    m_sawFromInstruction = true;
    sv text = line.substr(18);
    std::uint64_t textOffset = offset + 18;
    if (consume(text, " ")) {
        ++textOffset;
    } else {
        d.traits.fromInstructionNoSpace = true; // 2021-09 .. 2024-01
    }
    // 2024-01..2024-11: the next value's header is glued to the end of this line. Split it off
    // only when the following line confirms it (` positions:`), as docs/FORMAT.md 3.6 advises.
    sv glued;
    if (!text.empty() && text.back() == '>' && isPositionsLine(next)) {
        const auto open = text.rfind('<');
        ShortValue s;
        sv rest;
        std::string error;
        if (open != sv::npos && parseShort(text.substr(open), s, rest, error) && rest.empty()) {
            glued = text.substr(open);
            text = text.substr(0, open);
            d.traits.gluedFromInstruction = true;
        }
    }
    if (m_blockValue != kNone && m_block != Block::Done) {
        Value &v = gd.values[m_blockValue];
        if (v.usesState == UsesState::Missing && m_block != Block::Uses)
            warn("value block without a ' uses:' line", m_blockValue);
        instructionText(text, textOffset, v.instruction);
    }
    m_block = Block::Done;
    if (!glued.empty())
        valueHeader(glued);
}

void Builder::instructionText(sv text, std::uint64_t offset, std::uint32_t instruction)
{
    if (m_main) {
        // Chunks are cut between instructions, so each reads the text of its own; one that
        // comes back in a later chunk is for the serial path.
        std::uint32_t owner = 0;
        if (!m_main->m_textOwner[instruction].compare_exchange_strong(owner, m_chunk + 1) &&
            owner != m_chunk + 1) {
            m_main->needSerial("an instruction's text in two chunks", instruction);
            return;
        }
    }
    Instruction &ins = gd.instructions[instruction];
    if (ins.hasText)
        return; // the other elements of a tuple instruction repeat the same text
    if (m_main)
        m_claimed.push_back(instruction);
    ins.hasText = true;
    ins.text =
        TextRef{offset, static_cast<std::uint32_t>(std::min<std::size_t>(text.size(), 0xffffffffu)),
                m_file};
    sv t = text;
    consume(t, "%");
    const auto eq = t.find(" = ");
    if (eq == sv::npos) {
        warn("instruction text does not start with '%NAME = SHAPE opcode('");
        return;
    }
    const sv name = t.substr(0, eq);
    if (name != gd.str(ins.name))
        warn("value of '" + std::string(gd.str(ins.name)) + "' comes from instruction '" +
             excerpt(name) + "'");
    t.remove_prefix(eq + 3);
    const std::size_t shapeLen = ShapeParser::shapeTokenLength(t);
    if (shapeLen == 0) {
        warn("cannot find the shape in the instruction text");
        return;
    }
    ins.shape = shapeHinted(t.substr(0, shapeLen));
    t.remove_prefix(shapeLen);
    consume(t, " ");
    const auto paren = t.find('(');
    if (paren != sv::npos && paren > 0 && paren < 64)
        ins.opcode = internRecent(t.substr(0, paren));
    // metadata normally precedes the long backend_config, so the search usually stops early.
    const auto meta = t.find(", metadata={");
    if (meta == sv::npos)
        return;
    sv m = t.substr(meta + 12);
    while (!m.empty() && m.front() != '}') {
        while (consume(m, " ")) {
        }
        const auto eqPos = m.find('=');
        if (eqPos == sv::npos || eqPos > 64)
            break;
        const sv key = m.substr(0, eqPos);
        m.remove_prefix(eqPos + 1);
        sv value;
        bool escaped = false;
        if (consume(m, "\"")) {
            std::size_t i = 0;
            while (i < m.size() && m[i] != '"') {
                if (m[i] == '\\') {
                    escaped = true;
                    ++i;
                }
                ++i;
            }
            if (i >= m.size())
                break;
            value = m.substr(0, i);
            m.remove_prefix(i + 1);
        } else {
            std::size_t i = 0;
            while (i < m.size() && m[i] != ' ' && m[i] != '}')
                ++i;
            value = m.substr(0, i);
            m.remove_prefix(i);
        }
        StringId *target = nullptr;
        if (key == "op_type")
            target = &ins.opType;
        else if (key == "op_name")
            target = &ins.opName;
        else if (key == "source_file")
            target = &ins.sourceFile;
        else if (key == "source_line") {
            std::int64_t lineNo = 0;
            if (parseInt(value, lineNo))
                ins.sourceLine = lineNo;
        } else if (key == "stack_frame_id") {
            std::int64_t id = 0;
            if (parseInt(value, id) && id > 0 && id <= std::numeric_limits<std::uint32_t>::max())
                ins.stackFrame = static_cast<std::uint32_t>(id);
        }
        if (target)
            *target = escaped ? intern(safetext::unescapeC(value)) : internRecent(value);
    }
}

void Builder::liveRangeHeader(sv line)
{
    sv rest = line.substr(18);
    std::int64_t max = 0;
    if (!readInt(rest, max) || max < 0 || rest != "):")
        return warn("malformed 'HloLiveRange (max N):' line");
    if (d.traits.hasLiveRange)
        return warn("a second HloLiveRange section; ignored");
    d.traits.hasLiveRange = true;
    d.printedMax = max;
    m_liveRangeLine = m_line;
    m_liveRangeFile = m_file;
    m_section = Section::LiveRangeHeader;
}

void Builder::sequenceLine(sv text)
{
    std::int64_t step = 0;
    sv name;
    if (!parseSequenceLine(text, step, name, m_error))
        return warn(m_error);
    sequenceStep(step, name, internHinted(name));
}

void Builder::sequenceStep(std::int64_t step, sv name, StringId nameId)
{
    if (step != static_cast<std::int64_t>(d.sequence.size()))
        warn("InstructionSequence step " + std::to_string(step) + " where " +
             std::to_string(d.sequence.size()) + " was expected; steps are taken in file order");
    const std::uint32_t ins = instructionFor(nameId);
    if (d.instructions[ins].step >= 0)
        warn("instruction '" + std::string(name) + "' is scheduled twice (steps " +
             std::to_string(d.instructions[ins].step) + " and " +
             std::to_string(d.sequence.size()) + ")");
    else
        d.instructions[ins].step = static_cast<std::int64_t>(d.sequence.size());
    d.sequence.push_back(ins);
}

std::uint32_t Builder::findValueByKey(sv name, sv index)
{
    buildValueByKey(); // on the first live range out of id order: by then every value is known
    return lookupValueByKey(name, index);
}

bool Builder::buildValueByKey()
{
    if (m_keyMapBuilt)
        return m_keysUnique;
    m_keyMapBuilt = true;
    m_valueByKey = FlatMap64(d.values.size() + 16);
    for (std::uint32_t i = 0; i < d.values.size(); ++i) {
        const Value &v = d.values[i];
        const std::uint64_t key = (static_cast<std::uint64_t>(v.instruction) << 32) | v.index;
        m_keysUnique = m_valueByKey.insert(key, i) == i && m_keysUnique;
    }
    return m_keysUnique;
}

std::uint32_t Builder::lookupValueByKey(sv name, sv index) const
{
    const StringId nameId = d.strings.find(name);
    const StringId indexId = d.strings.find(index);
    if (nameId == kNoString || indexId == kNoString || nameId >= m_instructionByName.size() ||
        m_instructionByName[nameId] == kNone)
        return FlatMap64::kMissing;
    return m_valueByKey.find((static_cast<std::uint64_t>(m_instructionByName[nameId]) << 32) |
                             indexId);
}

void Builder::buildIdOrder()
{
    // Ids are unique (addValue drops a repeat); only live-range-only values have none (-1), and
    // they go last in the order they were added.
    const std::size_t n = d.values.size();
    m_idOrder.resize(n);
    std::int64_t maxId = -1;
    for (const Value &v : d.values)
        maxId = std::max(maxId, v.id);
    if (maxId >= 0 && static_cast<std::uint64_t>(maxId) < 4 * static_cast<std::uint64_t>(n)) {
        // XLA numbers values densely from 0: place each value at its id, in O(n).
        std::vector<std::uint32_t> at(static_cast<std::size_t>(maxId) + 1, kNone);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (d.values[i].id >= 0)
                at[static_cast<std::size_t>(d.values[i].id)] = i;
        }
        std::size_t k = 0;
        for (const std::uint32_t i : at) {
            if (i != kNone)
                m_idOrder[k++] = i;
        }
        for (std::uint32_t i = 0; i < n; ++i) {
            if (d.values[i].id < 0)
                m_idOrder[k++] = i;
        }
        return;
    }
    std::iota(m_idOrder.begin(), m_idOrder.end(), 0u);
    std::stable_sort(m_idOrder.begin(), m_idOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
        const std::int64_t ia = d.values[a].id;
        const std::int64_t ib = d.values[b].id;
        if ((ia < 0) != (ib < 0))
            return ib < 0;
        return ia < ib;
    });
}

void Builder::bufferLiveRange(sv text)
{
    // BufferLiveRange lists the values in ascending id (docs/FORMAT.md 7.2), so the next line is
    // nearly always the value after the previous one in id order: check that guess first. The
    // order built for Used values serves unless values were added since.
    std::int64_t start = 0;
    std::int64_t end = 0;
    sv name;
    sv index;
    if (!parseLiveRangeLine(text, name, index, start, end, m_error))
        return warn(m_error);
    liveRange(name, index, start, end);
}

void Builder::liveRange(sv name, sv index, std::int64_t start, std::int64_t end)
{
    if (m_idOrder.size() != d.values.size())
        buildIdOrder();
    // NAME{IDX}, as the line prints it: the two are next to each other in the text.
    const sv key(name.data(), static_cast<std::size_t>(index.data() + index.size() - name.data()));
    std::uint32_t value = FlatMap64::kMissing;
    if (m_liveCursor < m_idOrder.size()) {
        const std::uint32_t guess = m_idOrder[m_liveCursor];
        if (isValueCalled(guess, name, index)) {
            value = guess;
            ++m_liveCursor;
        }
    }
    if (value == FlatMap64::kMissing)
        value = findValueByKey(name, index);
    if (value == FlatMap64::kMissing) {
        warn("live range for '" + excerpt(key) +
             "', which is in no allocation; shown as an unallocated value");
        // Unallocated values get ids after every real one (in finish()), so ascending-id order
        // still holds.
        Value v;
        v.id = -1;
        v.instruction = instructionFor(d.strings.intern(name));
        v.index = d.strings.intern(index);
        v.printedIndex = index != "{}";
        v.file = m_file;
        v.line = m_line;
        value = static_cast<std::uint32_t>(d.values.size());
        d.values.push_back(v);
        // Id-less values go last in id order, in the order they come: keep the order in step
        // rather than rebuild it for the next line.
        m_idOrder.push_back(value);
    }
    Value &v = d.values[value];
    if (v.start >= 0)
        return warn("second live range for '" + excerpt(key) + "'; ignored", value);
    if (start > end)
        return warn("live range of '" + excerpt(key) + "' runs backwards (" +
                        std::to_string(start) + " > " + std::to_string(end) + "); ignored",
                    value);
    if (d.printedMax >= 0 && end > d.printedMax) {
        warn("live range of '" + excerpt(key) + "' ends at " + std::to_string(end) +
                 ", after max " + std::to_string(d.printedMax) + "; cut at max",
             value);
        end = d.printedMax;
        start = std::min(start, end);
    }
    v.start = start;
    v.end = end;
    m_maxEnd = std::max(m_maxEnd, end);
}

void Builder::peakHeader(sv line)
{
    sv rest = line.substr(17);
    std::int64_t step = 0;
    if (!readInt(rest, step) || step < 0 || rest != " (peak):")
        return warn("malformed 'Live ranges at T (peak):' line");
    d.printedPeak.present = true;
    d.printedPeak.step = step;
    d.printedPeak.file = m_file;
    d.printedPeak.line = m_line;
    m_section = Section::Peak;
}

void Builder::peakEntry(sv text)
{
    const auto colon = text.find(": ");
    if (colon == sv::npos)
        return warn("malformed peak entry; expected 'NAME: N bytes'");
    PeakEntry e;
    sv name;
    sv index;
    splitIndex(text.substr(0, colon), name, index);
    sv rest = text.substr(colon + 2);
    if (!readInt(rest, e.bytes) || e.bytes < 0 || !consume(rest, " bytes"))
        return warn("malformed peak entry; expected 'NAME: N bytes'" + overflowNote(text));
    if (e.bytes > kMaxBytes || d.printedPeak.bytes + e.bytes > kMaxSum)
        return warn("peak entry of " + std::to_string(e.bytes) +
                    " bytes is beyond any device; ignored");
    PeakFormat format = index.empty() ? PeakFormat::V1 : PeakFormat::V2;
    if (consume(rest, " (cumulative: ")) {
        if (!readInt(rest, e.cumulative) || rest != " bytes)")
            return warn("malformed cumulative count in peak entry");
        format = PeakFormat::V3;
    } else if (!rest.empty()) {
        return warn("unexpected text after peak entry bytes");
    }
    if (!validName(name) || (!index.empty() && !validIndex(index)))
        return warn("malformed peak entry name '" + excerpt(text.substr(0, colon)) + "'");
    auto &peak = d.printedPeak;
    if (peak.format == PeakFormat::None)
        peak.format = format;
    else if (peak.format != format)
        warn("peak entries mix formats");
    e.name = d.strings.intern(name);
    e.index = index.empty() ? kNoString : d.strings.intern(index);
    peak.bytes += e.bytes;
    if (e.cumulative >= 0 && e.cumulative != peak.bytes)
        warn("cumulative " + std::to_string(e.cumulative) + " bytes is not the running sum " +
             std::to_string(peak.bytes));
    peak.entries.push_back(e);
    m_peakLines.push_back(m_line);
}

namespace {
bool parseSpaced(sv text, std::int64_t &out)
{
    out = 0;
    bool any = false;
    for (char c : text) {
        if (c == ' ')
            continue;
        if (c < '0' || c > '9' || __builtin_mul_overflow(out, 10, &out) ||
            __builtin_add_overflow(out, c - '0', &out))
            return false;
        any = true;
    }
    return any;
}
} // namespace

void Builder::stackTraceHeader(sv line)
{
    sv rest = line.substr(40);
    if (!rest.ends_with(" bytes") ||
        !parseSpaced(rest.substr(0, rest.size() - 6), d.printedPeak.stackTraceBytes))
        warn("malformed stack-trace header");
    if (d.printedPeak.format == PeakFormat::V3)
        d.printedPeak.format = PeakFormat::V4;
    m_section = Section::StackTrace;
}

void Builder::stackTraceLine(sv line)
{
    // Node names are free text, so the numbers are read from the end of the line.
    const auto open = line.rfind(" (");
    if (open == sv::npos || !line.ends_with(" bytes)"))
        return warn("malformed stack-trace line");
    sv stats = line.substr(open + 2, line.size() - open - 3);
    StackTraceNode node;
    const auto pct = stats.find("%, total: ");
    const auto cur = stats.find(" bytes, current: ");
    const auto rem = stats.find(" bytes, remaining: ");
    if (pct == sv::npos || cur == sv::npos || rem == sv::npos || !stats.ends_with(" bytes"))
        return warn("malformed stack-trace line");
    // from_chars, not strtod: the process locale may want a decimal comma.
    const sv percent = stats.substr(0, pct);
    if (std::from_chars(percent.data(), percent.data() + percent.size(), node.percent).ec !=
            std::errc() ||
        !parseSpaced(stats.substr(pct + 10, cur - pct - 10), node.total) ||
        !parseSpaced(stats.substr(cur + 17, rem - cur - 17), node.current) ||
        !parseSpaced(stats.substr(rem + 19, stats.size() - rem - 19 - 6), node.remaining))
        return warn("malformed numbers in stack-trace line");
    // Columns, not bytes: the tree prefix uses 3-byte UTF-8 box-drawing characters.
    sv head = line.substr(0, open);
    std::size_t columns = 0;
    bool connector = false;
    std::size_t i = 0;
    while (i < head.size()) {
        if (head[i] == ' ') {
            ++columns;
            ++i;
        } else if (head.substr(i).starts_with("\u2502")) { // │
            ++columns;
            i += 3;
        } else if (head.substr(i).starts_with("\u251c\u2500\u2500 ") ||
                   head.substr(i).starts_with("\u2514\u2500\u2500 ")) { // ├── └──
            connector = true;
            columns += 4;
            i += 10;
            break;
        } else {
            break;
        }
    }
    node.name.assign(head.substr(i));
    node.depth = connector ? 1 + static_cast<int>(columns > 10 ? (columns - 10) / 4 : 0) : 0;
    d.printedPeak.stackTrace.push_back(std::move(node));
}

void Builder::finish()
{
    flushColorChecks();
    enterSection();
    const auto &t = m_sectionSeconds;
    spdlog::debug("parse time by section: allocations {:.3f} s, used values {:.3f} s, live "
                  "ranges {:.3f} s (sequence {:.3f}, buffer live ranges {:.3f}, peak {:.3f})",
                  t[static_cast<std::size_t>(Section::Allocations)] +
                      t[static_cast<std::size_t>(Section::Total)],
                  t[static_cast<std::size_t>(Section::UsedValues)],
                  t[static_cast<std::size_t>(Section::LiveRangeHeader)] +
                      t[static_cast<std::size_t>(Section::Sequence)] +
                      t[static_cast<std::size_t>(Section::BufferLiveRange)] +
                      t[static_cast<std::size_t>(Section::Peak)] +
                      t[static_cast<std::size_t>(Section::StackTrace)],
                  t[static_cast<std::size_t>(Section::Sequence)],
                  t[static_cast<std::size_t>(Section::BufferLiveRange)],
                  t[static_cast<std::size_t>(Section::Peak)]);
    struct LogFinish // on every way out of finish()
    {
        Stopwatch timing;
        ~LogFinish()
        {
            spdlog::debug("parse finish (id order, indexes, printed peak) {:.3f} s",
                          timing.seconds());
        }
    } logFinish;
    // -- order values by XLA id: the order of Used values and BufferLiveRange.
    // Unallocated live-range-only values (id -1) go last. The order Used values and
    // BufferLiveRange used serves unless values were added since.
    const std::size_t n = d.values.size();
    if (m_idOrder.size() != n)
        buildIdOrder();
    std::vector<std::uint32_t> order = std::move(m_idOrder);
    m_idOrder.clear();
    std::vector<std::uint32_t> newIndex(n);
    for (std::uint32_t i = 0; i < n; ++i)
        newIndex[order[i]] = i;
    // Permuted in place, cycle by cycle (place i takes the value at order[i]; a place done is
    // marked order[i] = i): a sorted copy would need the values' memory twice, and fresh memory
    // is among the dearest things the parse touches.
    for (std::uint32_t first = 0; first < n; ++first) {
        if (order[first] == first)
            continue;
        const Value held = d.values[first];
        std::uint32_t at = first;
        for (;;) {
            const std::uint32_t from = order[at];
            order[at] = at;
            if (from == first) {
                d.values[at] = held;
                break;
            }
            d.values[at] = d.values[from];
            at = from;
        }
    }
    for (auto &v : d.allocationValues)
        v = newIndex[v];
    for (auto &v : d.crossColorValues)
        v = newIndex[v];
    for (auto &w : d.warnings) {
        if (w.value != kNone && w.value < n)
            w.value = newIndex[w.value];
    }
    // Ids for live-range-only values: after the largest real id.
    std::int64_t nextId = 0;
    for (const Value &v : d.values)
        nextId = std::max(nextId, v.id + 1);
    for (Value &v : d.values) {
        if (v.id < 0)
            v.id = nextId++;
    }

    // -- steps: 0..max, where max is the length of the instruction sequence.
    const std::uint32_t saveFile = m_file;
    m_file = m_liveRangeFile;
    if (d.traits.hasLiveRange) {
        const auto seqLen = static_cast<std::int64_t>(d.sequence.size());
        if (d.sequence.empty() && m_maxEnd > 0) {
            // XLA prints one sequence line per step, so a real program has no more steps than
            // the file has lines; a bigger number is damage, and must not size an allocation.
            std::int64_t steps = m_maxEnd;
            if (steps > m_totalLines) {
                warnAt(m_liveRangeLine, "live ranges reach step " + std::to_string(m_maxEnd) +
                                            " but the file has " + std::to_string(m_totalLines) +
                                            " lines and no InstructionSequence; steps stop at " +
                                            std::to_string(m_totalLines));
                steps = m_totalLines;
            }
            warnAt(m_liveRangeLine, "no InstructionSequence: steps have no instruction names");
            d.sequence.assign(static_cast<std::size_t>(steps), kNone);
        } else if (d.printedMax != seqLen) {
            warnAt(m_liveRangeLine, "HloLiveRange says max " + std::to_string(d.printedMax) +
                                        " but the InstructionSequence has " +
                                        std::to_string(seqLen) + " steps; using " +
                                        std::to_string(seqLen));
        }
        const auto max = static_cast<std::int64_t>(d.sequence.size());
        std::int64_t clipped = 0;
        for (Value &v : d.values) {
            if (v.start > max) {
                v.start = v.end = -1;
                ++clipped;
            } else if (v.end > max) {
                v.end = max;
                ++clipped;
            }
        }
        if (clipped > 0)
            warnAt(m_liveRangeLine, std::to_string(clipped) +
                                        " live ranges reach past the last step " +
                                        std::to_string(max) + " and were cut");
    }

    m_instructionByName.resize(d.strings.size(), kNone);
    d.instructionByName = std::move(m_instructionByName);
    d.buildIndexes();

    // -- the printed peak: map its names to values (V1 names are instruction names only).
    auto &peak = d.printedPeak;
    if (peak.present) {
        std::size_t unknown = 0;
        for (std::size_t k = 0; k < peak.entries.size(); ++k) {
            PeakEntry &e = peak.entries[k];
            const std::uint32_t ins =
                e.name < d.instructionByName.size() ? d.instructionByName[e.name] : kNone;
            if (ins != kNone) {
                for (auto [it, end] = d.valuesOf(ins); it != end; ++it) {
                    const Value &v = d.values[*it];
                    if (e.index != kNoString ? v.index == e.index : v.liveAt(peak.step))
                        e.values.push_back(*it);
                }
            }
            if (e.values.empty() && unknown++ < 20)
                warnAt(m_peakLines[k], "the printed peak names '" + std::string(d.str(e.name)) +
                                           std::string(d.str(e.index)) +
                                           "', which is no value live at step " +
                                           std::to_string(peak.step));
        }
    }
    if (peak.present) {
        // XLA prints every value with start <= T <= end; fewer lines means a cut-off list.
        std::vector<std::uint8_t> listed(n, 0);
        for (const PeakEntry &e : peak.entries)
            for (std::uint32_t v : e.values)
                listed[v] = 1;
        std::size_t live = 0;
        std::size_t unlisted = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (d.values[i].liveAt(peak.step)) {
                ++live;
                unlisted += !listed[i];
            }
        }
        if (unlisted > 0) {
            if (m_peakLines.empty() || m_peakLines.back() == m_line)
                d.traits.truncated = true; // the list is where the file ends
            warnAt(peak.line, "the printed peak lists " + std::to_string(live - unlisted) +
                                  " of the " + std::to_string(live) + " values live at step " +
                                  std::to_string(peak.step) + " (a cut-off or edited list)");
        }
    }
    m_file = saveFile;

    // -- allocation kinds (a parameter that is also an output counts as a parameter)
    for (Allocation &a : d.allocations) {
        if (a.isParameter)
            a.kind = AllocationKind::Parameter;
        else if (a.isMaybeLiveOut)
            a.kind = AllocationKind::Output;
        else if (a.isConstant)
            a.kind = AllocationKind::Constant;
        else if (a.isThreadLocal)
            a.kind = AllocationKind::ThreadLocal;
        else
            a.kind = AllocationKind::Temp;
    }

    // -- what is missing
    m_file = 0;
    if (d.printedTotalBytes && *d.printedTotalBytes != d.allocationSizeSum())
        warnAt(0, "'Total bytes used' says " + std::to_string(*d.printedTotalBytes) +
                      " but the allocations add up to " + std::to_string(d.allocationSizeSum()));
    if (m_sawAllocations && !d.traits.hasUsedValues && !d.traits.logicalBufferEra) {
        d.traits.truncated = true;
        warnAt(0, "no 'Used values:' section: the dump looks truncated after the allocations, "
                  "so values have no positions, uses or instruction text");
    }
    if (d.traits.hasUsedValues) {
        std::size_t missing = 0;
        for (std::uint32_t i = 0; i < n; ++i)
            missing += (order[i] >= m_blockSeen.size() || !m_blockSeen[order[i]]) &&
                       d.values[i].allocation != kNone;
        if (missing > 0) {
            d.traits.truncated = true;
            warnAt(0, std::to_string(missing) +
                          " allocated values have no 'Used values' block (the dump looks "
                          "truncated): they have no positions, uses or instruction text");
        }
    }
    if (d.traits.hasUsedValues && !d.traits.hasLiveRange && !d.traits.liveRangeUnavailable &&
        m_sawFromInstruction) {
        // BufferAssignment::ToString ends after the value blocks; only the dump writer adds the
        // HloLiveRange section. A print whose value blocks are all there is complete
        // (Reactant.jl and others print it so); one that lacks some was cut.
        if (!d.traits.truncated) {
            d.traits.printedWithoutLiveRanges = true;
        } else {
            warnAt(0, "no HloLiveRange section although this XLA version writes one: the "
                      "dump looks truncated, so memory over time cannot be shown");
        }
    }
    if (d.traits.hasLiveRange && !peak.present && !peak.undetermined) {
        d.traits.truncated = true;
        warnAt(0, "the HloLiveRange section has no 'Live ranges at T (peak)' list: the dump "
                  "looks truncated");
    }
    if (d.allocations.empty() && d.values.empty() && d.sequence.empty())
        fail(m_line, "no allocations, values or live ranges were found");
}

} // namespace

namespace {

LoadResult finishLoad(std::unique_ptr<Dump> dump, Builder &builder,
                      std::shared_ptr<FileTextSource> source,
                      const std::function<void(Dump &)> &more = {})
{
    LoadResult result;
    if (builder.cancelled) {
        result.cancelled = true;
        return result;
    }
    if (!builder.fatal)
        builder.finish();
    if (builder.fatal) {
        const Diagnostic &f = *builder.fatal;
        result.errorFile = f.file < dump->files.size() ? dump->files[f.file].path : "<input>";
        result.errorLine = f.line;
        result.error = dump->diagnosticText(f);
        return result;
    }
    if (more)
        more(*dump);
    dump->textSource = std::move(source);
    result.dump = std::move(dump);
    return result;
}

} // namespace

LoadResult DumpParser::loadBuffer(std::string_view text, const std::string &name,
                                  const ParseOptions &options)
{
    auto source = std::make_shared<FileTextSource>();
    source->files.push_back(
        {name, static_cast<std::int64_t>(text.size()), std::string(text), true});
    ParseOptions how = options;
    for (;;) {
        auto dump = std::make_unique<Dump>();
        dump->module = ModuleFiles::moduleName(name);
        dump->files.push_back(
            {name, ModuleFiles::Role::Combined, static_cast<std::int64_t>(text.size())});
        Builder builder(*dump, how);
        std::int64_t done = 0;
        builder.parseText(text, 0, nullptr, done, static_cast<std::int64_t>(text.size()));
        if (builder.restartSerial && how.threads != 1) {
            spdlog::debug("{}: the chunked parse met what only the serial one decides; reading "
                          "it again on one thread",
                          name);
            how.threads = 1;
            continue;
        }
        LoadResult result = finishLoad(std::move(dump), builder, std::move(source));
        result.readAgainSerially = how.threads != options.threads;
        return result;
    }
}

namespace {

/// Whether `path` is XLA's memory-usage report: by its name, or by what it begins with.
bool isMemoryUsageReport(const std::string &path)
{
    if (ModuleFiles::isMemoryUsageReportName(path))
        return true;
    MappedFile map;
    std::string error;
    return map.open(path, error) && MemoryUsageReport::looksLike(map.data().substr(0, 4096));
}

/// Reads the memory-usage report beside a dump and says where it disagrees with the dump
/// (docs/FORMAT.md Part B §5): its total is exact, its sizes are rounded as XLA prints them.
/// Returns whether the two agree.
bool checkMemoryUsageReport(Dump &d, const std::string &reportPath)
{
    MappedFile map;
    std::string error;
    if (!map.open(reportPath, error)) {
        d.warnings.push_back({Severity::Warning, 0, 0, reportPath + ": " + error, kNone});
        return false;
    }
    d.files.push_back({reportPath, ModuleFiles::Role::MemoryUsageReport, map.size()});
    const auto file = static_cast<std::uint32_t>(d.files.size() - 1);
    const MemoryUsageReport r = MemoryUsageReport::parse(map.data());
    const auto warn = [&](std::int64_t line, std::string message) {
        d.warnings.push_back({Severity::Warning, file, line, std::move(message), kNone});
    };
    for (const MemoryUsageReport::Problem &p : r.problems)
        warn(p.line, p.message);
    if (r.totalBytes >= 0 && r.totalBytes != d.allocationSizeSum())
        warn(0, "the memory-usage report's total is " + std::to_string(r.totalBytes) +
                    " bytes, the dump's allocations add up to " +
                    std::to_string(d.allocationSizeSum()));
    const std::int64_t listed = r.allocationCount();
    if (listed != static_cast<std::int64_t>(d.allocations.size()))
        warn(0, "the memory-usage report lists " + std::to_string(listed) +
                    " allocations, the dump " + std::to_string(d.allocations.size()));
    std::unordered_map<std::int64_t, const Allocation *> byIndex;
    for (const Allocation &candidate : d.allocations)
        byIndex.emplace(candidate.index, &candidate);
    std::size_t differ = 0;
    for (const MemoryUsageReport::Allocation &a : r.allocations) {
        const auto found = byIndex.find(a.index);
        const Allocation *mine = found == byIndex.end() ? nullptr : found->second;
        if (!mine) {
            warn(0, "allocation " + std::to_string(a.index) +
                        " of the memory-usage report is not in the dump");
            continue;
        }
        const bool sizeDiffers = std::llabs(mine->size - a.size) > a.sizeUlp;
        std::int64_t grouped = 0;
        for (const MemoryUsageReport::Group &g : a.groups)
            grouped += g.values;
        const bool valuesDiffer =
            !a.groups.empty() && a.hiddenGroups == 0 && grouped != std::int64_t(mine->valueCount);
        if ((sizeDiffers || valuesDiffer) && ++differ <= 10)
            warn(0, "allocation " + std::to_string(a.index) + ": the memory-usage report says " +
                        (sizeDiffers ? "size " + humanBytes(a.size) +
                                           " (the dump: " + std::to_string(mine->size) + " bytes)"
                                     : std::to_string(grouped) + " values (the dump: " +
                                           std::to_string(mine->valueCount) + ")"));
    }
    if (differ > 10)
        warn(0, std::to_string(differ - 10) + " more allocations differ");
    return r.problems.empty() && differ == 0 &&
           listed == static_cast<std::int64_t>(d.allocations.size()) &&
           r.totalBytes == d.allocationSizeSum();
}

} // namespace

bool DumpParser::isLoneMemoryUsageReport(const std::string &path)
{
    return ModuleFiles::siblings(path) == std::vector<std::string>{path} &&
           isMemoryUsageReport(path);
}

LoadResult DumpParser::loadFile(const std::string &path, const ParseOptions &options)
{
    // XLA's memory-usage report is not a dump: its module's dump is read in its place and the
    // report checked against it.
    if (isMemoryUsageReport(path)) {
        const std::vector<std::string> dumpFiles = ModuleFiles::siblings(path);
        if (dumpFiles.size() == 1 && dumpFiles.front() == path) {
            LoadResult result;
            result.errorFile = path;
            result.error = path + ": this is XLA's memory-usage report " +
                           "(BufferAssignment::MemoryUsageReport), not a buffer-assignment dump, " +
                           "and its module's '" + ModuleFiles::moduleName(path) +
                           "-buffer-assignment.txt' is not beside it; 'bufferscope report' "
                           "prints what the report holds";
            return result;
        }
        LoadResult result = loadModule(dumpFiles.front(), options, path);
        return result;
    }
    return loadModule(path, options, {});
}

LoadResult DumpParser::loadModule(const std::string &path, const ParseOptions &options,
                                  const std::string &reportPath)
{
    auto dump = std::make_unique<Dump>();
    dump->module = ModuleFiles::moduleName(path);
    const std::vector<std::string> paths = ModuleFiles::siblings(path);
    std::vector<std::unique_ptr<MappedFile>> maps;
    std::int64_t total = 0;
    for (const std::string &p : paths) {
        auto map = std::make_unique<MappedFile>();
        std::string error;
        if (!map->open(p, error)) {
            LoadResult result;
            result.errorFile = p;
            result.error = p + ": " + error;
            return result;
        }
        total += map->size();
        maps.push_back(std::move(map));
    }
    const std::string stem = ModuleFiles::stemOf(path.substr(path.rfind('/') + 1));
    auto source = std::make_shared<FileTextSource>();
    for (std::size_t i = 0; i < paths.size(); ++i) {
        dump->files.push_back(
            {paths[i], ModuleFiles::roleOf(paths[i], paths.size()), maps[i]->size()});
        source->files.push_back({paths[i], maps[i]->size(), {}, false, maps[i]->takeDescriptor()});
    }
    if (paths.size() > 1 || (!stem.empty() && !path.ends_with("buffer-assignment.txt")))
        dump->traits.splitFiles = true;
    if (dump->files.front().role != ModuleFiles::Role::Combined &&
        dump->files.front().role != ModuleFiles::Role::BufferAssignment) {
        LoadResult result;
        result.errorFile = path;
        result.error = path + ": this is part of a split module, but its '" + stem +
                       "-buffer-assignment.txt' (the allocations) is not next to it";
        return result;
    }
    spdlog::debug("loading {} ({} file(s), {} bytes)", path, paths.size(), total);
    ParseOptions how = options;
    std::unique_ptr<Builder> builder;
    for (;;) {
        builder = std::make_unique<Builder>(*dump, how);
        std::int64_t done = 0;
        for (std::size_t i = 0; i < maps.size(); ++i) {
            if (!builder->parseText(maps[i]->data(), static_cast<std::uint32_t>(i), maps[i].get(),
                                    done, total))
                break;
        }
        if (!builder->restartSerial || how.threads == 1)
            break;
        spdlog::debug("{}: the chunked parse met what only the serial one decides; reading it "
                      "again on one thread",
                      path);
        how.threads = 1;
        auto fresh = std::make_unique<Dump>();
        fresh->module = dump->module;
        fresh->files = dump->files;
        fresh->traits.splitFiles = dump->traits.splitFiles;
        builder.reset();
        dump = std::move(fresh);
    }
    // A file cut short while it was read: what was read past its new end was zeros.
    for (std::size_t i = 0; i < maps.size() && !builder->cancelled; ++i) {
        const std::int64_t now = maps[i]->shrank();
        if (now < 0)
            continue;
        LoadResult result;
        result.errorFile = paths[i];
        result.error = paths[i] + ": the file shrank while it was being read (from " +
                       std::to_string(maps[i]->size()) + " bytes" +
                       (now > 0 ? " to " + std::to_string(now) : std::string()) +
                       "): it is still being written or was replaced; open it again when it "
                       "is complete";
        return result;
    }
    // The call stacks of 2026 dumps are in the module's optimized HLO text, when it is there.
    const std::string hlo = ModuleFiles::optimizedHlo(path);
    LoadResult result = finishLoad(
        std::move(dump), *builder, std::move(source), [&hlo, &options, &reportPath](Dump &d) {
            // The module's memory-usage report, when it is there, is checked against the dump.
            const std::string report = reportPath.empty()
                                           ? ModuleFiles::memoryUsageReport(d.files.front().path)
                                           : reportPath;
            if (!report.empty()) {
                const bool agrees = checkMemoryUsageReport(d, report);
                d.notes.push_back(
                    (reportPath.empty() ? "the module's memory-usage report "
                                        : "opened XLA's memory-usage report: read its module's "
                                          "dump; the report ") +
                    std::string(agrees ? "agrees with the dump (total, allocation sizes as it "
                                         "rounds them, values per allocation)"
                                       : "differs from the dump (see the warnings)"));
            }
            if (hlo.empty())
                return;
            MappedFile map;
            std::string error;
            if (!map.open(hlo, error)) {
                d.warnings.push_back({Severity::Warning, 0, 0,
                                      hlo + ": " + error + " (call stacks not read)", kNone});
                return;
            }
            d.files.push_back({hlo, ModuleFiles::Role::OptimizedHlo, map.size()});
            const std::size_t warningsBefore = d.warnings.size() + d.suppressedWarnings;
            const Stopwatch clock;
            const std::size_t frames = readStackFrames(
                map.data(), static_cast<std::uint32_t>(d.files.size() - 1), d, options.maxWarnings);
            spdlog::debug("{} stack frames read from {} in {:.3f} s", frames, hlo, clock.seconds());
            if (map.shrank() >= 0)
                d.warnings.push_back({Severity::Warning, 0, 0,
                                      hlo + ": the file shrank while it was being read; its call "
                                            "stacks may be incomplete",
                                      kNone});
            // A module's files are those that gave it something.
            if (frames == 0 && d.warnings.size() + d.suppressedWarnings == warningsBefore)
                d.files.pop_back();
        });
    result.readAgainSerially = how.threads != options.threads;
    return result;
}

} // namespace bufferscope
