#include "StackFrames.h"

#include "util/SafeText.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <string>
#include <vector>

namespace bufferscope {

namespace {

using sv = std::string_view;

bool readNumber(sv &s, std::int64_t &out)
{
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc())
        return false;
    s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
    return true;
}

/// `key=N` inside `{…}`; -1 when missing or not a number.
std::int64_t field(sv body, sv key)
{
    std::size_t at = 0;
    while ((at = body.find(key, at)) != sv::npos) {
        if ((at == 0 || body[at - 1] == ' ' || body[at - 1] == '{') &&
            at + key.size() < body.size() && body[at + key.size()] == '=') {
            sv rest = body.substr(at + key.size() + 1);
            std::int64_t n = 0;
            return readNumber(rest, n) ? n : -1;
        }
        at += key.size();
    }
    return -1;
}

enum class Table
{
    None,
    FileNames,
    FunctionNames,
    FileLocations,
    StackFrames
};

struct Location
{
    std::int64_t file = 0, function = 0, line = 0, column = 0;
};

struct Frame
{
    std::int64_t location = 0, parent = 0;
    std::int64_t textLine = 0;
};

} // namespace

std::size_t readStackFrames(std::string_view text, std::uint32_t fileIndex, Dump &d,
                            std::size_t maxWarnings)
{
    const auto warn = [&](std::int64_t line, std::string message) {
        if (d.warnings.size() >= maxWarnings) {
            ++d.suppressedWarnings;
            return;
        }
        d.warnings.push_back({Severity::Warning, fileIndex, line, std::move(message), kNone});
    };
    std::vector<StringId> files, functions;
    std::vector<Location> locations;
    std::vector<Frame> frames;
    Table table = Table::None;
    bool sawModule = false;
    std::int64_t lineNo = 0;
    // No table line is this long (a path or a function name): a longer one is not part of the
    // tables, and the search for its end stops here rather than read a huge file to its end.
    constexpr std::size_t kMaxLine = 1u << 20;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.substr(pos, kMaxLine + 1).find('\n');
        if (end == sv::npos) {
            if (text.size() - pos > kMaxLine) {
                if (table != Table::None)
                    warn(lineNo + 1, "line longer than 1 MB in the stack-frame tables; they are "
                                     "read up to here");
                break;
            }
            end = text.size();
        } else {
            end += pos;
        }
        sv line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        if (line == "FileNames" || line == "FunctionNames" || line == "FileLocations" ||
            line == "StackFrames") {
            table = line == "FileNames"       ? Table::FileNames
                    : line == "FunctionNames" ? Table::FunctionNames
                    : line == "FileLocations" ? Table::FileLocations
                                              : Table::StackFrames;
            continue;
        }
        if (table == Table::None) {
            // The module's header (and its indented recovery table) comes first.
            if (line.starts_with("HloModule ")) {
                sawModule = true;
                continue;
            }
            if (sawModule && (line.front() == ' ' || line.front() == '}'))
                continue;
            break; // a computation, or not HLO text at all: no tables
        }
        if (line.front() < '0' || line.front() > '9')
            break; // the first computation: the tables are over
        sv rest = line;
        std::int64_t id = 0;
        const std::size_t expected = table == Table::FileNames       ? files.size()
                                     : table == Table::FunctionNames ? functions.size()
                                     : table == Table::FileLocations ? locations.size()
                                                                     : frames.size();
        if (!readNumber(rest, id) || !rest.starts_with(' ')) {
            warn(lineNo, "malformed stack-frame table entry");
            continue;
        }
        if (id != static_cast<std::int64_t>(expected) + 1) {
            warn(lineNo, "stack-frame table entry " + std::to_string(id) +
                             " out of order (expected " + std::to_string(expected + 1) +
                             "); skipped");
            continue;
        }
        rest.remove_prefix(1);
        if (table == Table::FileNames || table == Table::FunctionNames) {
            if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"') {
                warn(lineNo, "malformed name in a stack-frame table (expected N \"text\")");
                (table == Table::FileNames ? files : functions).push_back(kNoString);
                continue;
            }
            const std::string name = safetext::unescapeC(rest.substr(1, rest.size() - 2));
            (table == Table::FileNames ? files : functions).push_back(d.strings.intern(name));
            continue;
        }
        if (rest.size() < 2 || rest.front() != '{' || rest.back() != '}') {
            warn(lineNo, "malformed stack-frame table entry (expected N {key=value …})");
            if (table == Table::FileLocations)
                locations.push_back({});
            else
                frames.push_back({0, 0, lineNo});
            continue;
        }
        if (table == Table::FileLocations)
            locations.push_back({field(rest, "file_name_id"), field(rest, "function_name_id"),
                                 field(rest, "line"), field(rest, "column")});
        else
            frames.push_back(
                {field(rest, "file_location_id"), field(rest, "parent_frame_id"), lineNo});
    }

    // Frames, checked: the printed parent is the caller's id plus one (1: none).
    d.stackFrames.assign(frames.size(), StackFrame{});
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const Frame &f = frames[i];
        StackFrame &out = d.stackFrames[i];
        if (f.location >= 1 && f.location <= static_cast<std::int64_t>(locations.size())) {
            const Location &l = locations[static_cast<std::size_t>(f.location - 1)];
            if (l.file >= 1 && l.file <= static_cast<std::int64_t>(files.size()))
                out.file = files[static_cast<std::size_t>(l.file - 1)];
            else
                warn(f.textLine, "stack frame " + std::to_string(i + 1) +
                                     ": its location names file " + std::to_string(l.file) +
                                     ", which FileNames does not have");
            if (l.function >= 1 && l.function <= static_cast<std::int64_t>(functions.size()))
                out.function = functions[static_cast<std::size_t>(l.function - 1)];
            out.line = static_cast<std::int32_t>(std::clamp<std::int64_t>(l.line, 0, INT32_MAX));
            out.column =
                static_cast<std::int32_t>(std::clamp<std::int64_t>(l.column, 0, INT32_MAX));
        } else {
            warn(f.textLine, "stack frame " + std::to_string(i + 1) + " names file location " +
                                 std::to_string(f.location) +
                                 ", which FileLocations does not have");
        }
        const std::int64_t parent = f.parent - 1;
        if (parent >= 1 && parent <= static_cast<std::int64_t>(frames.size()))
            out.parent = static_cast<std::uint32_t>(parent);
        else if (parent != 0)
            warn(f.textLine, "stack frame " + std::to_string(i + 1) + " names parent frame " +
                                 std::to_string(parent) + ", which StackFrames does not have");
    }
    // No caller chain may go round: cut the link that closes a cycle.
    std::vector<std::uint8_t> state(frames.size(), 0); // 0 new, 1 on the walk, 2 done
    std::vector<std::uint32_t> walk;
    for (std::uint32_t start = 1; start <= frames.size(); ++start) {
        walk.clear();
        for (std::uint32_t id = start; id != 0 && state[id - 1] != 2;) {
            if (state[id - 1] == 1) {
                const std::uint32_t last = walk.back();
                warn(frames[last - 1].textLine, "stack frame " + std::to_string(last) +
                                                    " closes a cycle of callers; its "
                                                    "parent is ignored");
                d.stackFrames[last - 1].parent = 0;
                break;
            }
            state[id - 1] = 1;
            walk.push_back(id);
            id = d.stackFrames[id - 1].parent;
        }
        for (std::uint32_t id : walk)
            state[id - 1] = 2;
    }
    // No stack deeper than kMaxStackDepth (Python's own recursion limit): a frame that would
    // be deeper becomes an outermost one, so walking any stack is bounded.
    std::vector<std::uint32_t> depth(frames.size(), 0);
    std::size_t cut = 0;
    std::size_t firstCut = 0;
    for (std::uint32_t start = 1; start <= frames.size(); ++start) {
        walk.clear();
        for (std::uint32_t id = start; id != 0 && depth[id - 1] == 0;
             id = d.stackFrames[id - 1].parent)
            walk.push_back(id);
        for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
            StackFrame &f = d.stackFrames[*it - 1];
            const std::uint32_t above = f.parent == 0 ? 0 : depth[f.parent - 1];
            if (above >= kMaxStackDepth) {
                if (cut++ == 0)
                    firstCut = *it;
                f.parent = 0;
                depth[*it - 1] = 1;
            } else {
                depth[*it - 1] = above + 1;
            }
        }
    }
    if (cut > 0)
        warn(frames[firstCut - 1].textLine,
             "stack frame " + std::to_string(firstCut) +
                 (cut > 1 ? " and " + std::to_string(cut - 1) + " more" : std::string()) +
                 " would be deeper than " + std::to_string(kMaxStackDepth) +
                 " frames; their stacks are cut there");
    // Instructions get their innermost frame as the source, unless the dump printed one.
    std::size_t dangling = 0;
    for (Instruction &ins : d.instructions) {
        if (ins.stackFrame == 0)
            continue;
        if (ins.stackFrame > d.stackFrames.size()) {
            if (dangling++ == 0)
                warn(0, "instruction " + std::string(d.str(ins.name)) + " names stack frame " +
                            std::to_string(ins.stackFrame) + ", which StackFrames does not have" +
                            (d.stackFrames.empty() ? " (the file has no stack-frame tables)" : ""));
            ins.stackFrame = 0;
            continue;
        }
        const StackFrame &inner = d.stackFrames[ins.stackFrame - 1];
        if (ins.sourceFile == kNoString && inner.file != kNoString) {
            ins.sourceFile = inner.file;
            ins.sourceLine = inner.line;
        }
    }
    if (dangling > 1)
        warn(0,
             std::to_string(dangling) + " instructions name stack frames the file does not have");
    return frames.size();
}

} // namespace bufferscope
