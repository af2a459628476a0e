#pragma once

#include "util/MemoryBudget.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace bufferscope {

/// Reading a file that may be compressed as dump tools keep them: `.gz` (gzip, zlib) and `.xz`
/// (liblzma). Never more than `limit` bytes come out: a small file that expands without end (a
/// "zip bomb") stops with an error, not with the machine's memory.
struct Decompressed
{
    std::string bytes;
    std::string error; ///< empty on success: what was wrong, in words
    /// What `file` read counts against the process's MemoryBudget, held as long as the bytes.
    MemoryBudget::Grant budget;
    bool ok() const { return error.empty(); }
};

namespace decompress {

/// 2 GiB, the most a protobuf message can be.
inline constexpr std::int64_t kDefaultLimit = std::int64_t{2} << 30;
/// What a compressed file may become: kExpansion times its own size, or kExpansionFloor for a
/// small one, never more than the limit. Real protos and dumps compress 3 to 20 times; a file
/// that expands further is a bomb, refused before it takes the machine's memory.
inline constexpr std::int64_t kExpansion = 64;
inline constexpr std::int64_t kExpansionFloor = std::int64_t{64} << 20;
/// The most `compressedSize` bytes of a compressed file may expand to, under `limit`.
std::int64_t expandedLimit(std::int64_t compressedSize, std::int64_t limit = kDefaultLimit);

enum class Format : std::uint8_t
{
    None,
    Gzip,
    Xz
};

/// By the name's ending (`.gz`, `.xz`), else by the first bytes (1f 8b; fd 37 7a 58 5a 00).
Format formatOf(std::string_view path, std::string_view head);
/// The bytes of `input` decompressed as `format` (None: copied).
Decompressed bytes(std::string_view input, Format format, std::int64_t limit = kDefaultLimit);
/// Reads `path` whole and decompresses it as its name or first bytes say, at most to
/// expandedLimit(its size, limit) bytes. What is not a regular file (a FIFO, a device) is
/// refused before it is read, without blocking. Before it reads, it reserves the file's size
/// and what it may expand to from the MemoryBudget (waiting while other reads hold too much),
/// and keeps what the bytes it returns take.
Decompressed file(const std::string &path, std::int64_t limit = kDefaultLimit);

} // namespace decompress

} // namespace bufferscope
