#include "parse/XPlaneMemory.h"

#include "parse/detail/WireRead.h"
#include "util/Decompress.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

namespace bufferscope {

namespace {

using wire::CodedInputStream;
using wire::isLengthDelimited;
using wire::lengthDelimited;
using wire::streamOf;
using wire::WireFormatLite;

constexpr std::string_view kHostPlane = "/host:CPU";
constexpr std::string_view kAllocation = "MemoryAllocation";
constexpr std::string_view kDeallocation = "MemoryDeallocation";

/// The stats XProf's converter reads (xprof/convert/xplane_to_memory_profile.cc), by the names
/// xla/tsl/profiler/utils/xplane_schema.cc gives them.
enum class Stat : std::uint8_t
{
    Unknown,
    Allocator,
    DeviceOrdinal,
    Allocated,
    Reserved,
    Available,
    Fragmentation,
    PeakInUse,
    Requested,
    AllocationBytes,
    Address,
    Op,
    Region,
    DataType,
    Shape,
    Group,
};

Stat statOf(std::string_view name)
{
    static const std::unordered_map<std::string_view, Stat> kNames = {
        {"allocator_name", Stat::Allocator},
        {"index_on_host", Stat::DeviceOrdinal},
        {"device_ordinal", Stat::DeviceOrdinal},
        {"bytes_allocated", Stat::Allocated},
        {"bytes_reserved", Stat::Reserved},
        {"bytes_available", Stat::Available},
        {"fragmentation", Stat::Fragmentation},
        {"peak_bytes_in_use", Stat::PeakInUse},
        {"requested_bytes", Stat::Requested},
        {"allocation_bytes", Stat::AllocationBytes},
        {"addr", Stat::Address},
        {"tf_op", Stat::Op},
        {"region_type", Stat::Region},
        {"data_type", Stat::DataType},
        {"shape", Stat::Shape},
        {"group_id", Stat::Group},
    };
    const auto found = kNames.find(name);
    return found == kNames.end() ? Stat::Unknown : found->second;
}

/// The module an event name says ran: "jit_f:XLA GPU module" (the host's launch of a
/// module, XLA:GPU), "jit_f:XLA TPU module", or "PjitFunction(f)" (JAX's call of a jitted f,
/// whose module is jit_f); else empty.
std::string moduleOf(std::string_view name)
{
    // JAX names the module of a jitted `f` "jit_f" (`_mean`: "jit__mean").
    if (name.starts_with("PjitFunction(") && name.ends_with(")") && name.size() > 14)
        return "jit_" + std::string(name.substr(13, name.size() - 14));
    for (const std::string_view tail : {":XLA GPU module", ":XLA TPU module", ":XLA CPU module"})
        if (name.size() > tail.size() && name.ends_with(tail))
            return std::string(name.substr(0, name.size() - tail.size()));
    return {};
}

/// TensorFlow's name of a DataType (tensorflow/core/framework/types.proto; DataTypeString).
std::string dataTypeName(std::int64_t t)
{
    static constexpr std::string_view kNames[] = {
        "INVALID",   "float",  "double",     "int32", "uint8",    "int16",   "int8",     "string",
        "complex64", "int64",  "bool",       "qint8", "quint8",   "qint32",  "bfloat16", "qint16",
        "quint16",   "uint16", "complex128", "half",  "resource", "variant", "uint32",   "uint64"};
    if (t >= 0 && static_cast<std::size_t>(t) < std::size(kNames))
        return std::string(kNames[static_cast<std::size_t>(t)]);
    return "DataType " + std::to_string(t);
}

/// One stat's value, as XStatVisitor reads it: IntValue (int64 or uint64), DoubleValue,
/// StrOrRefValue (a string, or a reference to a stat metadata's name).
struct StatValue
{
    std::int64_t metadata = 0;
    std::int64_t integer = 0;
    double real = 0;
    std::string_view text;
    std::int64_t ref = -1;
};

bool readStat(std::string_view bytes, StatValue &v)
{
    CodedInputStream in = streamOf(bytes);
    while (std::uint32_t tag = in.ReadTag()) {
        const int field = WireFormatLite::GetTagFieldNumber(tag);
        std::uint64_t n = 0;
        switch (field) {
        case 1:
        case 3:
        case 4:
        case 7:
            if (WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_VARINT ||
                !in.ReadVarint64(&n))
                return false;
            if (field == 1)
                v.metadata = static_cast<std::int64_t>(n);
            else if (field == 7)
                v.ref = static_cast<std::int64_t>(n);
            else
                v.integer = static_cast<std::int64_t>(n);
            break;
        case 2:
            if (WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_FIXED64 ||
                !in.ReadLittleEndian64(&n))
                return false;
            std::memcpy(&v.real, &n, sizeof v.real);
            break;
        case 5:
            if (!isLengthDelimited(tag) || !lengthDelimited(in, bytes, &v.text))
                return false;
            break;
        default:
            if (!WireFormatLite::SkipField(&in, tag))
                return false;
        }
    }
    return in.ConsumedEntireMessage();
}

/// The id and name of a metadata map entry (XEventMetadata or XStatMetadata: id 1, name 2,
/// under the entry's key 1 and value 2).
bool readMetadataEntry(std::string_view bytes, std::int64_t &id, std::string_view &name)
{
    CodedInputStream in = streamOf(bytes);
    while (std::uint32_t tag = in.ReadTag()) {
        const int field = WireFormatLite::GetTagFieldNumber(tag);
        if (field == 1 && WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_VARINT) {
            std::uint64_t n = 0;
            if (!in.ReadVarint64(&n))
                return false;
            id = static_cast<std::int64_t>(n);
        } else if (field == 2 && isLengthDelimited(tag)) {
            std::string_view value;
            if (!lengthDelimited(in, bytes, &value))
                return false;
            CodedInputStream v = streamOf(value);
            while (std::uint32_t t = v.ReadTag()) {
                if (WireFormatLite::GetTagFieldNumber(t) == 2 && isLengthDelimited(t)) {
                    if (!lengthDelimited(v, value, &name))
                        return false;
                } else if (!WireFormatLite::SkipField(&v, t)) {
                    return false;
                }
            }
        } else if (!WireFormatLite::SkipField(&in, tag)) {
            return false;
        }
    }
    return true;
}

class Reader
{
public:
    explicit Reader(XPlaneMemory &out) : m_out(out) {}

    /// Reads the host plane's bytes; false when they do not parse.
    bool plane(std::string_view bytes)
    {
        // The metadata maps first (they follow the lines on the wire), then the lines.
        std::vector<std::string_view> lines;
        CodedInputStream in = streamOf(bytes);
        while (std::uint32_t tag = in.ReadTag()) {
            const int field = WireFormatLite::GetTagFieldNumber(tag);
            if (isLengthDelimited(tag) && (field == 3 || field == 4 || field == 5)) {
                std::string_view part;
                if (!lengthDelimited(in, bytes, &part))
                    return false;
                if (field == 3) {
                    lines.push_back(part);
                    continue;
                }
                std::int64_t id = 0;
                std::string_view name;
                if (!readMetadataEntry(part, id, name))
                    return false;
                if (field == 4) {
                    if (name == kAllocation)
                        m_kind[id] = 1;
                    else if (name == kDeallocation)
                        m_kind[id] = 2;
                    else if (const std::string module = moduleOf(name); !module.empty())
                        m_moduleOf[id] = intern(module, 256);
                } else {
                    m_statNames[id] = std::string(name.substr(0, 256));
                    m_stats[id] = statOf(name);
                }
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                return false;
            }
        }
        if (!in.ConsumedEntireMessage())
            return false;
        for (const std::string_view l : lines)
            if (!line(l))
                return false;
        return true;
    }

private:
    XPlaneMemory &m_out;
    std::unordered_map<std::int64_t, int> m_kind; ///< event metadata id -> 1 alloc, 2 dealloc
    std::unordered_map<std::int64_t, Stat> m_stats;
    std::unordered_map<std::int64_t, std::string> m_statNames;
    std::unordered_map<std::int64_t, std::uint32_t> m_moduleOf; ///< event metadata -> module
    /// A module's run on a line: [start, end] on the capture's clock.
    struct Span
    {
        std::int64_t start;
        std::int64_t end;
        std::uint32_t module;
    };
    std::vector<Span> m_spans;             ///< of the line being read
    std::vector<std::size_t> m_lineEvents; ///< its memory events, into the allocators' lists
    std::vector<std::pair<std::size_t, std::size_t>> m_placed; ///< (allocator, event) of those
    std::map<std::string, std::size_t> m_allocatorAt;
    std::unordered_map<std::string, std::uint32_t> m_interned;
    bool m_warnedNoAllocator = false;

    /// The id of `text` in XPlaneMemory::strings (cut at `limit` bytes), added once.
    std::uint32_t intern(std::string_view text, std::size_t limit = 4096)
    {
        if (text.empty())
            return 0;
        auto [at, added] = m_interned.try_emplace(std::string(text.substr(0, limit)),
                                                  static_cast<std::uint32_t>(m_out.strings.size()));
        if (added)
            m_out.strings.push_back(at->first);
        return at->second;
    }
    bool m_warnedBadStat = false;

    bool line(std::string_view bytes)
    {
        const auto index = static_cast<std::uint32_t>(m_out.lines.size());
        std::string name;
        std::int64_t startNs = 0;
        std::vector<std::string_view> events;
        CodedInputStream in = streamOf(bytes);
        while (std::uint32_t tag = in.ReadTag()) {
            const int field = WireFormatLite::GetTagFieldNumber(tag);
            if (field == 2 && isLengthDelimited(tag)) {
                std::string_view part;
                if (!lengthDelimited(in, bytes, &part))
                    return false;
                name.assign(part.substr(0, 256));
            } else if (field == 3 &&
                       WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_VARINT) {
                std::uint64_t n = 0;
                if (!in.ReadVarint64(&n))
                    return false;
                startNs = static_cast<std::int64_t>(n);
            } else if (field == 4 && isLengthDelimited(tag)) {
                std::string_view part;
                if (!lengthDelimited(in, bytes, &part))
                    return false;
                events.push_back(part);
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                return false;
            }
        }
        if (!in.ConsumedEntireMessage())
            return false;
        m_out.lines.push_back(std::move(name));
        m_spans.clear();
        m_placed.clear();
        for (const std::string_view e : events)
            if (!event(e, index, startNs))
                return false;
        attribute();
        return true;
    }

    /// Each memory event of the line just read in the innermost module run around it: the
    /// run that began last of those that began by its time and have not ended (runs on one
    /// line nest). A bounded look back from the last run begun: linear in the line.
    void attribute()
    {
        if (m_spans.empty())
            return;
        std::sort(m_spans.begin(), m_spans.end(),
                  [](const Span &a, const Span &b) { return a.start < b.start; });
        for (const auto &[allocator, k] : m_placed) {
            MemoryEvent &e = m_out.allocators[allocator].events[k];
            auto at = std::upper_bound(m_spans.begin(), m_spans.end(), e.timePs,
                                       [](std::int64_t t, const Span &s) { return t < s.start; });
            for (int looked = 0; at != m_spans.begin() && looked < 64; ++looked) {
                --at;
                if (at->end >= e.timePs) {
                    e.module = at->module;
                    break;
                }
            }
        }
    }

    bool event(std::string_view bytes, std::uint32_t line, std::int64_t startNs)
    {
        std::int64_t metadata = 0;
        std::int64_t offset = 0;
        std::int64_t duration = 0;
        std::vector<std::string_view> stats;
        CodedInputStream in = streamOf(bytes);
        while (std::uint32_t tag = in.ReadTag()) {
            const int field = WireFormatLite::GetTagFieldNumber(tag);
            if ((field == 1 || field == 2 || field == 3) &&
                WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_VARINT) {
                std::uint64_t n = 0;
                if (!in.ReadVarint64(&n))
                    return false;
                (field == 1   ? metadata
                 : field == 2 ? offset
                              : duration) = static_cast<std::int64_t>(n);
            } else if (field == 4 && isLengthDelimited(tag)) {
                std::string_view part;
                if (!lengthDelimited(in, bytes, &part))
                    return false;
                stats.push_back(part);
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                return false;
            }
        }
        if (!in.ConsumedEntireMessage())
            return false;
        // A line's start in ns and an offset in ps: on the capture's clock, saturated.
        const std::int64_t kMaxNs = std::numeric_limits<std::int64_t>::max() / 4000;
        const std::int64_t time = std::clamp<std::int64_t>(startNs, -kMaxNs, kMaxNs) * 1000 +
                                  std::clamp<std::int64_t>(offset, -kMaxNs * 1000, kMaxNs * 1000);
        if (const auto module = m_moduleOf.find(metadata); module != m_moduleOf.end()) {
            m_spans.push_back({time, time + std::clamp<std::int64_t>(duration, 0, kMaxNs * 1000),
                               module->second});
            return true;
        }
        const auto kind = m_kind.find(metadata);
        if (kind == m_kind.end())
            return true; // not a memory event
        MemoryEvent e;
        e.allocation = kind->second == 1;
        e.offsetPs = offset;
        e.timePs = time;
        e.line = line;
        e.order = static_cast<std::uint32_t>(
            std::min<std::size_t>(m_out.events, std::numeric_limits<std::uint32_t>::max()));
        std::string allocator;
        bool named = false;
        for (const std::string_view s : stats) {
            StatValue v;
            if (!readStat(s, v)) {
                if (!m_warnedBadStat)
                    m_out.warnings.push_back("a memory event on line " + std::to_string(line) +
                                             " has a stat that does not parse; it is skipped");
                m_warnedBadStat = true;
                continue;
            }
            const auto found = m_stats.find(v.metadata);
            if (found == m_stats.end())
                continue;
            std::string_view text = v.text;
            if (v.ref >= 0) {
                const auto ref = m_statNames.find(v.ref);
                text = ref == m_statNames.end() ? std::string_view() : ref->second;
            }
            switch (found->second) {
            case Stat::Allocator:
                allocator.assign(text.substr(0, 256));
                named = true;
                break;
            case Stat::DeviceOrdinal:
                allocator = std::to_string(v.integer);
                named = true;
                break;
            case Stat::Allocated:
                e.heap = v.integer;
                break;
            case Stat::Reserved:
                e.stack = v.integer;
                break;
            case Stat::Available:
                e.free = v.integer;
                break;
            case Stat::Fragmentation:
                e.fragmentation = v.real;
                break;
            case Stat::PeakInUse:
                e.peakInUse = v.integer;
                break;
            case Stat::Requested:
                e.requested = v.integer;
                break;
            case Stat::AllocationBytes:
                e.bytes = v.integer;
                break;
            case Stat::Address:
                e.address = static_cast<std::uint64_t>(v.integer);
                break;
            case Stat::Op:
                e.op = intern(text);
                break;
            case Stat::Region:
                e.region = intern(text, 256);
                break;
            case Stat::DataType:
                e.dataType = intern(dataTypeName(v.integer));
                break;
            case Stat::Shape:
                e.shape = intern(text);
                break;
            case Stat::Group:
                e.group = v.integer;
                break;
            case Stat::Unknown:
                break;
            }
        }
        if (e.dataType == 0)
            e.dataType = intern(dataTypeName(0));
        if (!named) {
            if (!m_warnedNoAllocator)
                m_out.warnings.push_back("memory events without an allocator_name or device "
                                         "number: counted as the allocator \"(unnamed)\"");
            m_warnedNoAllocator = true;
            allocator = "(unnamed)";
        }
        auto [at, added] = m_allocatorAt.try_emplace(allocator, m_out.allocators.size());
        if (added)
            m_out.allocators.push_back({allocator, {}});
        std::vector<MemoryEvent> &list = m_out.allocators[at->second].events;
        m_placed.emplace_back(at->second, list.size());
        list.push_back(e);
        ++m_out.events;
        return true;
    }
};

} // namespace

XPlaneMemory XPlaneMemory::read(std::string_view bytes, std::string *error)
{
    XPlaneMemory out;
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        *error = "the capture is larger than 2 GiB, more than a protobuf message can be";
        return out;
    }
    CodedInputStream in = streamOf(bytes);
    bool sawHost = false;
    bool damaged = false;
    Reader reader(out);
    while (std::uint32_t tag = in.ReadTag()) {
        if (WireFormatLite::GetTagFieldNumber(tag) != 1 || !isLengthDelimited(tag)) {
            if (!WireFormatLite::SkipField(&in, tag)) {
                damaged = true;
                break;
            }
            continue;
        }
        std::string_view planeBytes;
        if (!lengthDelimited(in, bytes, &planeBytes)) {
            damaged = true;
            break;
        }
        // The plane's name (field 2) decides whether it is read.
        CodedInputStream p = streamOf(planeBytes);
        std::string_view name;
        while (std::uint32_t t = p.ReadTag()) {
            if (WireFormatLite::GetTagFieldNumber(t) == 2 && isLengthDelimited(t)) {
                if (!lengthDelimited(p, planeBytes, &name))
                    damaged = true;
                break;
            }
            if (!WireFormatLite::SkipField(&p, t)) {
                damaged = true;
                break;
            }
        }
        if (damaged)
            break;
        if (name != kHostPlane)
            continue;
        sawHost = true;
        if (!reader.plane(planeBytes)) {
            damaged = true;
            break;
        }
    }
    if (damaged || !in.ConsumedEntireMessage()) {
        *error = "not a profiler capture (an XSpace), or a damaged one: the protobuf data does "
                 "not parse";
        out.allocators.clear();
        out.events = 0;
    } else if (!sawHost) {
        *error = "the capture has no \"/host:CPU\" plane, where the profiler records the "
                 "allocators' events";
    } else if (out.events == 0) {
        *error = "the capture's \"/host:CPU\" plane has no MemoryAllocation or "
                 "MemoryDeallocation event (was it taken with the host tracer on?)";
    }
    std::sort(out.allocators.begin(), out.allocators.end(),
              [](const Allocator &a, const Allocator &b) { return a.name < b.name; });
    return out;
}

XPlaneMemory XPlaneMemory::readFile(const std::string &capture, std::string *error)
{
    const Decompressed file = decompress::file(capture);
    if (!file.ok()) {
        *error = file.error;
        return {};
    }
    return read(file.bytes, error);
}

} // namespace bufferscope
