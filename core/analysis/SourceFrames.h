#pragma once

#include "model/Dump.h"

#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// Which frames of a call stack are library code rather than the user's own: a frame is
/// library code when its file contains one of the patterns (plain substrings). The defaults
/// cover Python packages and the frameworks' internals, as XProf's source stack and heaptrack
/// skip them, so the line a user wrote shows.
std::vector<std::string> defaultLibraryPatterns();

/// A frame as text, for the source view and the command line: the file as the dump names it.
struct SourcePlace
{
    std::string file;
    std::string function; ///< empty when unknown (inline sources)
    std::int32_t line = 0;
    std::int32_t column = 0; ///< 0 when unknown
    bool isValid() const { return !file.empty(); }
    bool operator==(const SourcePlace &) const = default;
};
SourcePlace placeOf(const Dump &dump, const StackFrame &frame);
/// The instruction's frames, innermost first: its stack, else its inline source as one frame
/// without a function or caller (line -1 when none was printed); empty when it has neither.
std::vector<StackFrame> framesOf(const Dump &dump, const Instruction &instruction);
/// framesOf as places.
std::vector<SourcePlace> placesOf(const Dump &dump, const Instruction &instruction);
bool isLibraryFile(std::string_view file, const std::vector<std::string> &patterns);

/// The frame of `instruction`'s stack to show as "where it comes from": the innermost frame
/// outside the library patterns, else the innermost frame; null without a stack.
const StackFrame *userFrame(const Dump &dump, const Instruction &instruction,
                            const std::vector<std::string> &patterns);
/// "file:line" of userFrame, or the instruction's inline source when it has no stack.
std::string userSource(const Dump &dump, const Instruction &instruction,
                       const std::vector<std::string> &patterns);

/// A path prefix on the machine that compiled (`/home/alice/proj`) and where the same tree is
/// on this one (`/home/bob/src/proj`).
struct PathMapping
{
    std::string from;
    std::string to;
    bool operator==(const PathMapping &) const = default;
};
/// Where `file` may be on this machine, in the order to try: each mapping whose `from` is a
/// whole-directory prefix of `file` (longest first) with `to` in its place, then `file` itself.
/// A `to` starting with `~/` is under `home`. Every candidate is an absolute path: a relative
/// one (the dump's file, or a mapping's `to`) is taken in `dumpFolder`, the folder of the dump
/// that names it, and left out when there is none — never in the program's current folder,
/// where a file the dump chose could be found and handed to an editor.
std::vector<std::string> localCandidates(const std::string &file,
                                         const std::vector<PathMapping> &mappings,
                                         const std::string &home,
                                         const std::string &dumpFolder = {});

/// Lines `line - context` … `line + context` of a text file (1-based), for the source view.
/// Reads no further than it shows, and at most a few MB; an error says why nothing shows.
struct SourceExcerpt
{
    std::int32_t firstLine = 1;     ///< the number of lines.front()
    std::vector<std::string> lines; ///< without their line ends
    std::string error;              ///< empty on success
};
SourceExcerpt readExcerpt(const std::string &path, std::int32_t line, std::int32_t context);

} // namespace bufferscope
