#pragma once

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
    bool ok() const { return error.empty(); }
};

namespace decompress {

/// 2 GiB, the most a protobuf message can be.
inline constexpr std::int64_t kDefaultLimit = std::int64_t{2} << 30;

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
/// Reads `path` whole and decompresses it as its name or first bytes say.
Decompressed file(const std::string &path, std::int64_t limit = kDefaultLimit);

} // namespace decompress

} // namespace bufferscope
