#include "parse/detail/LineRulesImpl.h"

namespace bufferscope::parse_detail {

void ShapeTable::add(sv text, std::uint64_t hash, ShapeId shape)
{
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    std::size_t mask = m_slots.size() - 1;
    std::size_t i = hash & mask;
    while (m_slots[i].shape != 0)
        i = (i + 1) & mask;
    const std::size_t length = std::min<std::size_t>(text.size(), 0xffffffffu);
    m_slots[i] = {m_texts.size(), static_cast<std::uint32_t>(length), tag, shape};
    m_texts.append(text.substr(0, length));
    // Keep the load under 1/2.
    if (++m_count * 2 >= m_slots.size()) {
        std::vector<Slot> slots(m_slots.size() * 2);
        mask = slots.size() - 1;
        for (const Slot &slot : m_slots) {
            if (slot.shape == 0)
                continue;
            std::size_t j = StringPool::hash(textOf(slot)) & mask;
            while (slots[j].shape != 0)
                j = (j + 1) & mask;
            slots[j] = slot;
        }
        m_slots.swap(slots);
    }
}

template class LineRules<Builder>;

} // namespace bufferscope::parse_detail
