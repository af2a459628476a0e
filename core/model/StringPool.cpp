#include "StringPool.h"

#include <algorithm>
#include <cstring>

namespace bufferscope {

namespace {
/// Names are stored in chunks that start small (a module of a few dozen values needs a few KiB)
/// and double up to 1 MiB; a chunk is not zeroed, every byte of it is written before it is read.
constexpr std::size_t kFirstChunkSize = 1 << 14;
constexpr std::size_t kChunkSize = 1 << 20;
constexpr std::size_t kInitialSlots = 1 << 8; // a big dump reserves more (DumpParser)
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

namespace {
constexpr std::size_t kHeader = 2 * sizeof(std::uint32_t); // id, length

struct Entry
{
    StringId id;
    std::uint32_t length;
    const char *bytes;
};

Entry readEntry(const char *at)
{
    Entry e{};
    std::memcpy(&e.id, at, sizeof e.id);
    std::memcpy(&e.length, at + sizeof e.id, sizeof e.length);
    e.bytes = at + kHeader;
    return e;
}

const char *slotEntry(std::uint64_t slot)
{
    return reinterpret_cast<const char *>(static_cast<std::uintptr_t>(slot >> 16));
}

// User-space addresses on Linux x86-64 and AArch64 fit in 48 bits (the kernel hands out higher
// ones only to mmap calls that ask for them), which leaves 16 bits of the slot for a hash tag.
static_assert(sizeof(void *) == 8, "StringPool packs entry addresses into 48 bits");

std::uint64_t makeSlot(const char *entry, std::uint64_t hash)
{
    return (static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(entry)) << 16) |
           (hash >> 48);
}
} // namespace

const char *StringPool::store(std::string_view text, StringId id)
{
    const auto length = static_cast<std::uint32_t>(text.size());
    const std::size_t need = kHeader + text.size();
    char *dst = nullptr;
    if (need > kChunkSize / 4) {
        // Oversized strings get a chunk of their own so they don't waste the current one.
        auto chunk = std::make_unique_for_overwrite<char[]>(need);
        dst = chunk.get();
        m_chunks.insert(m_chunks.end() - (m_chunks.empty() ? 0 : 1), std::move(chunk));
    } else {
        if (m_chunkUsed + need > m_chunkCapacity) {
            const std::size_t size =
                std::max(need, m_chunkCapacity == 0 ? kFirstChunkSize
                                                    : std::min(m_chunkCapacity * 2, kChunkSize));
            m_chunks.push_back(std::make_unique_for_overwrite<char[]>(size));
            m_chunkUsed = 0;
            m_chunkCapacity = size;
        }
        dst = m_chunks.back().get() + m_chunkUsed;
        m_chunkUsed += need;
    }
    std::memcpy(dst, &id, sizeof id);
    std::memcpy(dst + sizeof id, &length, sizeof length);
    std::memcpy(dst + kHeader, text.data(), text.size());
    return dst;
}

void StringPool::reserve(std::size_t n)
{
    while (n * 2 > m_slots.size())
        grow();
}

void StringPool::grow()
{
    std::vector<std::uint64_t> slots(m_slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint64_t slot : m_slots) {
        if (slot == 0)
            continue;
        const Entry e = readEntry(slotEntry(slot));
        std::size_t i = hash({e.bytes, e.length}) & mask;
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
    const std::uint64_t tag = h >> 48;
    std::size_t i = h & m_mask;
    while (m_slots[i] != 0) {
        if ((m_slots[i] & 0xffffu) == tag) {
            const Entry e = readEntry(slotEntry(m_slots[i]));
            if (e.length == text.size() && std::memcmp(e.bytes, text.data(), text.size()) == 0)
                return i;
        }
        i = (i + 1) & m_mask;
    }
    return i;
}

StringId StringPool::intern(std::string_view text, std::uint64_t h)
{
    if (text.empty())
        return kNoString;
    if (text.size() > 0xffffffffu) {
        text = text.substr(0, 0xffffffffu); // a 4 GiB name is no name; keep the prefix
        h = hash(text);
    }
    const std::size_t i = probe(text, h);
    if (m_slots[i] != 0)
        return readEntry(slotEntry(m_slots[i])).id;
    const auto id = static_cast<StringId>(m_strings.size());
    const char *entry = store(text, id);
    m_strings.emplace_back(entry + kHeader, text.size());
    m_slots[i] = makeSlot(entry, h);
    // Keep the load factor under 1/2 so probes stay short.
    if (m_strings.size() * 2 > m_slots.size())
        grow();
    return id;
}

void StringPool::prefetchEntry(std::uint64_t hash) const
{
    const std::uint64_t slot = m_slots[hash & m_mask];
    if (slot != 0 && (slot & 0xffffu) == (hash >> 48))
        __builtin_prefetch(slotEntry(slot));
}

StringId StringPool::find(std::string_view text) const
{
    return find(text, hash(text));
}

StringId StringPool::find(std::string_view text, std::uint64_t hash) const
{
    if (text.empty())
        return kNoString;
    if (text.size() > 0xffffffffu)
        return kNoString;
    const std::size_t i = probe(text, hash);
    return m_slots[i] == 0 ? kNoString : readEntry(slotEntry(m_slots[i])).id;
}

} // namespace bufferscope
