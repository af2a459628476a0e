#include "parse/detail/ParsedSize.h"

#include "parse/detail/WireRead.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <unordered_map>

namespace bufferscope::wire {

namespace {

namespace gp = google::protobuf;

class Counter
{
public:
    explicit Counter(std::int64_t cap) : m_cap(cap) {}

    /// Adds what `bytes` as a `type` takes; false where the wire format is broken.
    bool message(std::string_view bytes, const gp::Descriptor &type, int depth)
    {
        if (depth > kDepth)
            return false;
        m_total += objectSize(type);
        CodedInputStream in = streamOf(bytes);
        while (m_total <= m_cap) {
            const std::uint32_t tag = in.ReadTag();
            if (tag == 0)
                return in.CurrentPosition() == static_cast<int>(bytes.size());
            const gp::FieldDescriptor *field =
                type.FindFieldByNumber(static_cast<int>(WireFormatLite::GetTagFieldNumber(tag)));
            const auto wireType = WireFormatLite::GetTagWireType(tag);
            if (wireType == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
                std::string_view inner;
                if (!lengthDelimited(in, bytes, &inner))
                    return false;
                if (field && field->type() == gp::FieldDescriptor::TYPE_MESSAGE) {
                    m_total += kPointer;
                    if (!message(inner, *field->message_type(), depth + 1))
                        return false;
                } else if (field && field->type() != gp::FieldDescriptor::TYPE_STRING &&
                           field->type() != gp::FieldDescriptor::TYPE_BYTES) {
                    // Packed scalars: at least a byte each on the wire, eight in memory.
                    m_total += static_cast<std::int64_t>(inner.size()) * kScalar;
                } else {
                    m_total += static_cast<std::int64_t>(inner.size()) + kString;
                }
            } else {
                if (!WireFormatLite::SkipField(&in, tag))
                    return false;
                m_total += field ? kScalar : kUnknown;
            }
        }
        return true;
    }

    std::int64_t total() const { return m_total; }

private:
    static constexpr int kDepth = 100; // as the parse's recursion limit
    static constexpr std::int64_t kPointer = 8;
    static constexpr std::int64_t kScalar = 8;
    static constexpr std::int64_t kString = 32;
    static constexpr std::int64_t kUnknown = 48;

    /// A message object: its header (the vtable, the arena and the has-bits) and each field's
    /// slot, a repeated field's three words; a map's entry is a node of its table as well.
    std::int64_t objectSize(const gp::Descriptor &type)
    {
        const auto [at, fresh] = m_sizes.try_emplace(&type, 0);
        if (fresh) {
            std::int64_t size = type.options().map_entry() ? 64 : 24;
            for (int k = 0; k < type.field_count(); ++k)
                size += type.field(k)->is_repeated() ? 24 : 8;
            at->second = size;
        }
        return at->second;
    }

    std::int64_t m_cap;
    std::int64_t m_total = 0;
    std::unordered_map<const gp::Descriptor *, std::int64_t> m_sizes;
};

} // namespace

std::int64_t parsedSize(std::string_view bytes, const google::protobuf::Descriptor &type,
                        std::int64_t cap)
{
    Counter counter(cap);
    if (!counter.message(bytes, type, 0))
        return counter.total() > cap ? counter.total() : -1;
    return counter.total();
}

} // namespace bufferscope::wire
