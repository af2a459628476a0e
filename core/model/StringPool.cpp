#include "StringPool.h"

#include <cstring>

namespace bufferscope {

namespace {
constexpr std::size_t kChunkSize = 1 << 20;
constexpr std::size_t kInitialSlots = 1 << 12;
} // namespace

StringPool::StringPool() : m_slots(kInitialSlots, 0), m_mask(kInitialSlots - 1)
{
    m_strings.emplace_back();
}

std::uint64_t StringPool::hash(std::string_view text)
{
    // Eight bytes per round with a multiply-xorshift mix, then a final avalanche so that the
    // low bits (the table index) stay well spread for names like fusion.1 .. fusion.N.
    const char *p = text.data();
    std::size_t n = text.size();
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    while (n >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * 0x94d049bb133111ebull;
        h ^= h >> 31;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

std::string_view StringPool::store(std::string_view text)
{
    if (text.size() > kChunkSize / 4) {
        // Oversized strings get a chunk of their own so they don't waste the current one.
        auto chunk = std::make_unique<char[]>(text.size());
        std::memcpy(chunk.get(), text.data(), text.size());
        std::string_view stored(chunk.get(), text.size());
        m_chunks.insert(m_chunks.end() - (m_chunks.empty() ? 0 : 1), std::move(chunk));
        return stored;
    }
    if (m_chunkUsed + text.size() > m_chunkCapacity) {
        m_chunks.push_back(std::make_unique<char[]>(kChunkSize));
        m_chunkUsed = 0;
        m_chunkCapacity = kChunkSize;
    }
    char *dst = m_chunks.back().get() + m_chunkUsed;
    std::memcpy(dst, text.data(), text.size());
    m_chunkUsed += text.size();
    return {dst, text.size()};
}

void StringPool::grow()
{
    std::vector<std::uint64_t> slots(m_slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint64_t slot : m_slots) {
        if (slot == 0)
            continue;
        const StringId id = static_cast<StringId>((slot & 0xffffffffu) - 1);
        std::size_t i = hash(m_strings[id]) & mask;
        while (slots[i] != 0)
            i = (i + 1) & mask;
        slots[i] = slot;
    }
    m_slots.swap(slots);
    m_mask = mask;
}

std::size_t StringPool::probe(std::string_view text, std::uint64_t h) const
{
    // Linear probing: the slot holding `text`, or the empty slot where it would go.
    const std::uint64_t tag = h >> 32;
    std::size_t i = h & m_mask;
    while (m_slots[i] != 0) {
        if ((m_slots[i] >> 32) == tag &&
            m_strings[static_cast<StringId>((m_slots[i] & 0xffffffffu) - 1)] == text)
            return i;
        i = (i + 1) & m_mask;
    }
    return i;
}

StringId StringPool::intern(std::string_view text)
{
    if (text.empty())
        return kNoString;
    const std::uint64_t h = hash(text);
    const std::size_t i = probe(text, h);
    if (m_slots[i] != 0)
        return static_cast<StringId>((m_slots[i] & 0xffffffffu) - 1);
    const auto id = static_cast<StringId>(m_strings.size());
    m_strings.push_back(store(text));
    m_slots[i] = ((h >> 32) << 32) | (static_cast<std::uint64_t>(id) + 1);
    // Keep the load factor under 1/2 so probes stay short.
    if (m_strings.size() * 2 > m_slots.size())
        grow();
    return id;
}

StringId StringPool::find(std::string_view text) const
{
    if (text.empty())
        return kNoString;
    const std::size_t i = probe(text, hash(text));
    return m_slots[i] == 0 ? kNoString : static_cast<StringId>((m_slots[i] & 0xffffffffu) - 1);
}

std::size_t StringPool::memoryBytes() const
{
    return m_chunks.size() * kChunkSize + m_strings.capacity() * sizeof(std::string_view) +
           m_slots.capacity() * sizeof(std::uint64_t);
}

} // namespace bufferscope
