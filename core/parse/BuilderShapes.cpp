#include "parse/detail/Builder.h"

namespace bufferscope::parse_detail {

ShapeId Builder::shapeFor(sv text)
{
    return shapeFor(text, StringPool::hash(text));
}

ShapeId Builder::shapeFor(sv text, std::uint64_t h)
{
    if (const ShapeId found = G().findShape(text, h); found != 0)
        return found;
    if (!m_main)
        return addShape(text, h, makeShapeInfo(text, h));
    if (const ShapeId local = findShape(text, h); local != 0)
        return kLocal | local;
    // New to the chunk: its warnings stand only if the merge finds it new to the dump too.
    m_creatingShape = static_cast<ShapeId>(d.shapes.size());
    const ShapeInfo info = makeShapeInfo(text, h);
    m_creatingShape = kNone;
    return kLocal | addShape(text, h, info);
}

ShapeId Builder::findShape(sv text, std::uint64_t h) const
{
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    const std::size_t mask = m_shapeSlots.size() - 1;
    for (std::size_t i = h & mask; m_shapeSlots[i].shape != 0; i = (i + 1) & mask) {
        if (m_shapeSlots[i].tag == tag && shapeTextOf(m_shapeSlots[i]) == text)
            return m_shapeSlots[i].shape;
    }
    return 0;
}

ShapeInfo Builder::makeShapeInfo(sv text, std::uint64_t h)
{
    ShapeInfo info;
    info.text = intern(text, h);
    const ShapeParseResult parsed = ShapeParser::parse(text);
    if (parsed.ok) {
        info.valid = true;
        const Shape &shape = parsed.shape;
        info.elementType = shape.type;
        info.tupleArity = shape.isTuple() ? static_cast<std::int32_t>(shape.elements.size()) : -1;
        info.memorySpace = static_cast<std::int32_t>(shape.layout.memorySpace);
        std::int64_t bytes = shape.byteSize(8);
        if (bytes > kMaxBytes)
            bytes = -1; // beyond any device: treated like an overflow
        info.bytesKnown = bytes >= 0;
        info.logicalBytes = bytes >= 0 ? bytes : 0;
        if (bytes < 0)
            warn("shape '" + excerpt(text) +
                 "' has an unbounded or overflowing size; its logical bytes count as 0");
    } else {
        warn("cannot read shape '" + excerpt(text) + "': " + parsed.error);
    }
    return info;
}

ShapeId Builder::addShape(sv text, std::uint64_t h, const ShapeInfo &info)
{
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    std::size_t mask = m_shapeSlots.size() - 1;
    std::size_t i = h & mask;
    while (m_shapeSlots[i].shape != 0)
        i = (i + 1) & mask;
    const auto shapeId = static_cast<ShapeId>(d.shapes.size());
    d.shapes.push_back(info);
    const std::size_t length = std::min<std::size_t>(text.size(), 0xffffffffu);
    m_shapeSlots[i] = {m_shapeTexts.size(), static_cast<std::uint32_t>(length), tag, shapeId};
    m_shapeTexts.append(text.substr(0, length));
    if (d.shapes.size() * 2 > m_shapeSlots.size()) {
        // Keep the load under 1/2.
        std::vector<ShapeSlot> slots(m_shapeSlots.size() * 2);
        mask = slots.size() - 1;
        for (const ShapeSlot &slot : m_shapeSlots) {
            if (slot.shape == 0)
                continue;
            std::size_t j = StringPool::hash(shapeTextOf(slot)) & mask;
            while (slots[j].shape != 0)
                j = (j + 1) & mask;
            slots[j] = slot;
        }
        m_shapeSlots.swap(slots);
    }
    return shapeId;
}

} // namespace bufferscope::parse_detail
