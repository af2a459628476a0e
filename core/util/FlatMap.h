#pragma once

#include <cstdint>
#include <vector>

namespace bufferscope {

/// A small open-addressing map from 64-bit keys to 32-bit values, for the parser's joins
/// (value id -> index, (instruction, shape index) -> value). Grows by doubling; no per-insert
/// allocation. The key ~0 is reserved.
class FlatMap64
{
public:
    static constexpr std::uint32_t kMissing = 0xffffffffu;

    explicit FlatMap64(std::size_t expected = 16) { rehash(capacityFor(expected)); }

    /// Inserts key -> value unless the key is present; returns the value now stored.
    std::uint32_t insert(std::uint64_t key, std::uint32_t value)
    {
        if ((m_size + 1) * 2 > m_keys.size())
            rehash(m_keys.size() * 2);
        std::size_t i = slot(key);
        while (m_keys[i] != kEmpty) {
            if (m_keys[i] == key)
                return m_values[i];
            i = (i + 1) & m_mask;
        }
        m_keys[i] = key;
        m_values[i] = value;
        ++m_size;
        return value;
    }

    std::uint32_t find(std::uint64_t key) const
    {
        std::size_t i = slot(key);
        while (m_keys[i] != kEmpty) {
            if (m_keys[i] == key)
                return m_values[i];
            i = (i + 1) & m_mask;
        }
        return kMissing;
    }

    std::size_t size() const { return m_size; }
    /// Room for `n` keys without growing.
    void reserve(std::size_t n)
    {
        if (capacityFor(n) > m_keys.size())
            rehash(capacityFor(n));
    }
    /// For an insert or find of `key` coming soon.
    void prefetch(std::uint64_t key) const
    {
        const std::size_t i = slot(key);
        __builtin_prefetch(&m_keys[i]);
        __builtin_prefetch(&m_values[i]);
    }

private:
    static constexpr std::uint64_t kEmpty = ~0ull;

    static std::size_t capacityFor(std::size_t n)
    {
        std::size_t c = 16;
        while (c < n * 2)
            c *= 2;
        return c;
    }
    std::size_t slot(std::uint64_t key) const
    {
        key ^= key >> 33;
        key *= 0xff51afd7ed558ccdull;
        key ^= key >> 33;
        return static_cast<std::size_t>(key) & m_mask;
    }
    void rehash(std::size_t capacity)
    {
        std::vector<std::uint64_t> keys(capacity, kEmpty);
        std::vector<std::uint32_t> values(capacity, kMissing);
        keys.swap(m_keys);
        values.swap(m_values);
        m_mask = capacity - 1;
        m_size = 0;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] != kEmpty)
                insert(keys[i], values[i]);
        }
    }

    std::vector<std::uint64_t> m_keys;
    std::vector<std::uint32_t> m_values;
    std::size_t m_mask = 0;
    std::size_t m_size = 0;
};

} // namespace bufferscope
