#include "TextEncoding.h"

#include "util/SafeText.h"

#include <algorithm>
#include <cstdint>

namespace bufferscope {

namespace {

/// The first bytes look like ASCII in UTF-16 of `little` endianness: a zero at every other
/// byte, the others not.
bool looksUtf16(std::string_view bytes, bool little)
{
    const std::size_t n = std::min<std::size_t>(bytes.size() & ~std::size_t{1}, 64);
    if (n < 8)
        return false;
    for (std::size_t k = 0; k < n; k += 2) {
        const char high = little ? bytes[k + 1] : bytes[k];
        const char low = little ? bytes[k] : bytes[k + 1];
        if (high != 0 || low == 0)
            return false;
    }
    return true;
}

} // namespace

std::string_view asUtf8(std::string_view bytes, std::string &storage)
{
    const auto at = [&bytes](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    if (bytes.size() >= 3 && at(0) == 0xEF && at(1) == 0xBB && at(2) == 0xBF)
        return bytes.substr(3);
    bool little = false;
    std::size_t from = 0;
    if (bytes.size() >= 2 && at(0) == 0xFF && at(1) == 0xFE) {
        little = true;
        from = 2;
    } else if (bytes.size() >= 2 && at(0) == 0xFE && at(1) == 0xFF) {
        from = 2;
    } else if (looksUtf16(bytes, true)) {
        little = true;
    } else if (!looksUtf16(bytes, false)) {
        return bytes;
    }
    storage.clear();
    storage.reserve((bytes.size() - from) / 2 + 16);
    const auto unit = [&](std::size_t k) -> std::uint32_t {
        return little ? (at(k) | (at(k + 1) << 8)) : ((at(k) << 8) | at(k + 1));
    };
    for (std::size_t k = from; k + 1 < bytes.size(); k += 2) {
        const std::uint32_t u = unit(k);
        if (u >= 0xD800 && u < 0xDC00 && k + 3 < bytes.size()) {
            const std::uint32_t next = unit(k + 2);
            if (next >= 0xDC00 && next < 0xE000) {
                safetext::appendUtf8(storage, 0x10000 + ((u - 0xD800) << 10) + (next - 0xDC00));
                k += 2;
                continue;
            }
        }
        safetext::appendUtf8(storage, u >= 0xD800 && u < 0xE000 ? 0xFFFD : u);
    }
    return storage;
}

} // namespace bufferscope
