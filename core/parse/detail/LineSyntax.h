#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
#include "parse/DumpParser.h"
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

namespace bufferscope::parse_detail {

using sv = std::string_view;

constexpr sv kBom = "\xEF\xBB\xBF";
constexpr std::size_t kReleaseChunk = 16u << 20; // drop mapped pages behind us every 16 MiB
constexpr std::size_t kProgressChunk = 1u << 20;
constexpr std::size_t kPopulateChunk = 4u << 20; // map the file's pages ahead of the parse

/// Parses all of `text` as a non-negative decimal; false on junk or overflow.
inline bool parseInt(sv text, std::int64_t &out)
{
    if (text.empty() || text[0] == '-' || text[0] == '+')
        return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
}

/// Reads a decimal at the front of `text` and advances past it (a leading '-' is accepted so
/// that negative sizes can be reported rather than called malformed).
inline bool readInt(sv &text, std::int64_t &out)
{
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || ptr == text.data())
        return false;
    text.remove_prefix(static_cast<std::size_t>(ptr - text.data()));
    return true;
}

inline bool consume(sv &text, sv prefix)
{
    if (!text.starts_with(prefix))
        return false;
    text.remove_prefix(prefix.size());
    return true;
}

/// A printable excerpt of a line for messages: at most 80 bytes, cut between two UTF-8
/// characters, control bytes escaped.
inline std::string excerpt(sv line)
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
inline std::string overflowNote(sv line)
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
inline void splitIndex(sv full, sv &name, sv &index)
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

inline bool validIndex(sv index)
{
    if (index.size() < 2 || index.front() != '{' || index.back() != '}')
        return false;
    for (char c : index.substr(1, index.size() - 2)) {
        if (!((c >= '0' && c <= '9') || c == ','))
            return false;
    }
    return true;
}

inline bool validName(sv name)
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
inline bool parseShortInner(sv s, ShortValue &out, std::string &error)
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
inline bool parseShort(sv text, ShortValue &out, sv &rest, std::string &error)
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
inline bool parseValueLine(sv line, ShortValue &s, std::int64_t &offset, std::int64_t &size,
                           sv &shape, std::string &error)
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
inline bool parseSequenceLine(sv text, std::int64_t &step, sv &name, std::string &error)
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
inline bool parseLiveRangeLine(sv text, sv &name, sv &index, std::int64_t &start, std::int64_t &end,
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

/// Lowers `at` to `to` unless it is lower already; safe from any thread (where a chunked
/// section ends: the first end any thread finds).
inline void lowerTo(std::atomic<std::size_t> &at, std::size_t to)
{
    for (std::size_t was = at.load(); to < was;) {
        if (at.compare_exchange_weak(was, to))
            break;
    }
}

/// The first line start at or after `at`: `at` itself when a line starts there, else the byte
/// after the next '\n' (the end of `text` when there is none).
inline std::size_t lineStartFrom(sv text, std::size_t at)
{
    if (at == 0 || at >= text.size() || text[at - 1] == '\n')
        return std::min(at, text.size());
    const auto *nl =
        static_cast<const char *>(std::memchr(text.data() + at, '\n', text.size() - at));
    return nl ? static_cast<std::size_t>(nl - text.data()) + 1 : text.size();
}

/// How the threaded drivers cut [begin, size) of a text: `perThread` pieces a thread (so one
/// slow piece does not hold the others up), each at least 512 bytes and at most `maxBytes`. A
/// piece k starts at raw(k), which the driver moves to a line start (or a value block).
struct ChunkPlan
{
    std::size_t begin = 0;
    std::size_t size = 0;
    std::size_t bytes = 0; ///< per piece
    std::size_t count = 0;

    static ChunkPlan of(std::size_t begin, std::size_t size, int threads, std::size_t perThread,
                        std::size_t maxBytes)
    {
        ChunkPlan plan{begin, size, 0, 0};
        const std::size_t slices = static_cast<std::size_t>(std::max(threads, 1)) * perThread;
        plan.bytes = std::clamp<std::size_t>((size - begin) / slices, 512, maxBytes);
        plan.count = (size - begin + plan.bytes - 1) / plan.bytes;
        return plan;
    }
    /// Where piece k would start before it is moved to a line start.
    std::size_t raw(std::size_t k) const { return std::min(size, begin + k * bytes); }
};

/// What the pieces of one threaded run share to stop: set by the first piece that meets what
/// only the serial parse decides (or sees the load cancelled); every piece checks it now and then.
struct ChunkStop
{
    std::atomic<bool> stop{false};
    std::atomic<bool> serialNeeded{false};
    void needSerial(const char *why, std::int64_t id)
    {
        if (!serialNeeded.exchange(true))
            spdlog::debug("chunked parse: {} (id {}); the serial parse takes over", why, id);
        stop.store(true, std::memory_order_relaxed);
    }
    bool stopped() const { return stop.load(std::memory_order_relaxed); }
};

/// The instruction name of a value block's header line `<ID NAME...`.
inline sv blockName(sv line)
{
    const auto space = line.find(' ');
    if (space == sv::npos)
        return {};
    line.remove_prefix(space + 1);
    consume(line, "PHI ");
    return line.substr(0, line.find_first_of(" {>\r\n"));
}

} // namespace bufferscope::parse_detail
