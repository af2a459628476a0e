#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace bufferscope {

using StringId = std::uint32_t;

/// Id 0 is always the empty string, so a default-constructed StringId means "absent".
inline constexpr StringId kNoString = 0;

/// Interns strings into an arena owned by the pool. Views handed out stay valid for the pool's
/// lifetime (chunks never move), and interning allocates only when a chunk or the table grows,
/// never per call — the parser's hot loop relies on that.
class StringPool
{
public:
    StringPool();
    StringPool(const StringPool &) = delete;
    StringPool &operator=(const StringPool &) = delete;
    StringPool(StringPool &&) noexcept = default;
    StringPool &operator=(StringPool &&) noexcept = default;

    StringId intern(std::string_view text) { return intern(text, hash(text)); }
    /// intern() for a caller that already has hash(text).
    StringId intern(std::string_view text, std::uint64_t hash);
    /// The id of `text` if it was interned, otherwise kNoString. Never inserts.
    StringId find(std::string_view text) const;
    /// find() for a caller that already has hash(text). Safe from many threads while no one
    /// interns.
    StringId find(std::string_view text, std::uint64_t hash) const;
    std::string_view view(StringId id) const { return m_strings[id]; }
    /// Hints the CPU to fetch `id`'s text soon (the parser reads names a few lines ahead).
    void prefetch(StringId id) const
    {
        if (id < m_strings.size())
            __builtin_prefetch(m_strings[id].data());
    }
    /// For a lookup coming soon: fetch the table slot of `hash` ...
    void prefetchSlot(std::uint64_t hash) const { __builtin_prefetch(&m_slots[hash & m_mask]); }
    /// ... and, a little later (the slot in cache by then), the entry it points to.
    void prefetchEntry(std::uint64_t hash) const;
    std::size_t size() const { return m_strings.size(); }
    /// Room for `n` strings without growing the table (growing rehashes every entry).
    void reserve(std::size_t n);

    static std::uint64_t hash(std::string_view text);

private:
    /// Stores `text` in a chunk behind an entry header (id, length); returns the header.
    const char *store(std::string_view text, StringId id);
    std::size_t probe(std::string_view text, std::uint64_t hash) const;
    void grow();

    std::vector<std::string_view> m_strings;
    std::vector<std::unique_ptr<char[]>> m_chunks;
    std::size_t m_chunkUsed = 0;
    std::size_t m_chunkCapacity = 0;
    // Open addressing: each slot is (entry address << 16) | (hash high 16 bits); 0 marks an empty
    // slot. A slot points straight at the entry (id, length, bytes), so a lookup that hits reads
    // two cache lines — the slot and the entry — and never the m_strings table.
    std::vector<std::uint64_t> m_slots;
    std::size_t m_mask = 0;
};

} // namespace bufferscope
