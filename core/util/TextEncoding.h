#pragma once

#include <string>
#include <string_view>

namespace bufferscope {

/// Text as users save it: a log written by PowerShell's `>` is UTF-16 with a byte-order mark,
/// one saved by Notepad may start with UTF-8's. `asUtf8` gives the bytes as UTF-8 without a
/// mark: the bytes themselves, less a UTF-8 mark (no copy), or, for UTF-16 (a mark FF FE or
/// FE FF, or none where every other of the first bytes is zero, as ASCII in UTF-16 is), the
/// text converted into `storage`, a lone surrogate as U+FFFD. O(bytes).
std::string_view asUtf8(std::string_view bytes, std::string &storage);

} // namespace bufferscope
