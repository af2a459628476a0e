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
// A thread pool's region, the instants that begin and end work handed to it (and its link).
constexpr std::string_view kRegionStart = "ThreadpoolListener::StartRegion";
constexpr std::string_view kRegionStop = "ThreadpoolListener::StopRegion";

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
    ProducerType,
    ProducerId,
    ConsumerType,
    ConsumerId,
    Module,
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
        // Links between events of different threads (XPlane semantics) and the module a
        // kernel launch or an executable's run names.
        {"_pt", Stat::ProducerType},
        {"_p", Stat::ProducerId},
        {"_ct", Stat::ConsumerType},
        {"_c", Stat::ConsumerId},
        {"hlo_module", Stat::Module},
        {"module_name", Stat::Module},
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

/// A module named by a stat (hlo_module, module_name): "jit_f", or as XProf names a program,
/// "jit_f(12)", whose program id is dropped.
std::string moduleNameOf(std::string_view text)
{
    if (text.ends_with(")")) {
        const std::size_t open = text.rfind('(');
        if (open != std::string_view::npos && open > 0 && open + 2 < text.size() &&
            std::all_of(text.begin() + static_cast<std::ptrdiff_t>(open) + 1, text.end() - 1,
                        [](char c) { return c >= '0' && c <= '9'; }))
            return std::string(text.substr(0, open));
    }
    return std::string(text);
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

/// A span of time on one line, ordered by its start: a module's run, or the work that consumes
/// a link from another thread.
struct Span
{
    std::int64_t start;
    std::int64_t end;
    std::uint32_t what; ///< a module (into strings) or a link
};

/// The innermost of `spans` (sorted by start; spans of one line nest) around `t`: the one that
/// began last of those begun by `t` and not yet ended. A bounded look back: linear in the line.
const Span *innermost(const std::vector<Span> &spans, std::int64_t t)
{
    auto at = std::upper_bound(spans.begin(), spans.end(), t,
                               [](std::int64_t x, const Span &s) { return x < s.start; });
    for (int looked = 0; at != spans.begin() && looked < 64; ++looked) {
        --at;
        if (at->end >= t)
            return &*at;
    }
    return nullptr;
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
                        m_kind[id] = Kind::Allocation;
                    else if (name == kDeallocation)
                        m_kind[id] = Kind::Deallocation;
                    else if (name == kRegionStart)
                        m_kind[id] = Kind::RegionStart;
                    else if (name == kRegionStop)
                        m_kind[id] = Kind::RegionStop;
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
        resolveLinks();
        return true;
    }

private:
    enum class Kind : std::uint8_t
    {
        Allocation,
        Deallocation,
        RegionStart, ///< a thread pool's region begins (its link) ...
        RegionStop,  ///< ... and ends here
    };
    XPlaneMemory &m_out;
    std::unordered_map<std::int64_t, Kind> m_kind; ///< by event metadata id
    std::unordered_map<std::int64_t, Stat> m_stats;
    std::unordered_map<std::int64_t, std::string> m_statNames;
    std::unordered_map<std::int64_t, std::uint32_t> m_moduleOf; ///< event metadata -> module
    // Of the line being read:
    std::vector<Span> m_runs;      ///< modules' runs
    std::vector<Span> m_consumers; ///< work consuming a link (what: the link)
    std::vector<std::int64_t> m_regionStops;
    std::vector<std::pair<std::int64_t, std::uint32_t>> m_producers; ///< (time, link)
    std::vector<std::pair<std::size_t, std::size_t>> m_placed;       ///< (allocator, event) of it
    // Of the whole plane: links between threads, by (type, id).
    std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> m_linkIds;
    std::vector<std::uint32_t> m_linkModule; ///< the module its producer ran in (0: none)
    std::vector<std::uint32_t> m_linkVia;    ///< else the link its producer consumed
    struct Pending
    {
        std::size_t allocator;
        std::size_t event;
        std::uint32_t link;
    };
    std::vector<Pending> m_pending; ///< memory events in no run, inside a link's work
    std::map<std::string, std::size_t> m_allocatorAt;
    std::unordered_map<std::string, std::uint32_t> m_interned;
    bool m_warnedNoAllocator = false;
    bool m_warnedBadStat = false;
    static constexpr std::uint32_t kNoLink = std::numeric_limits<std::uint32_t>::max();

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

    std::uint32_t linkId(std::int64_t type, std::int64_t id)
    {
        auto [at, added] =
            m_linkIds.try_emplace({type, id}, static_cast<std::uint32_t>(m_linkModule.size()));
        if (added) {
            m_linkModule.push_back(0);
            m_linkVia.push_back(kNoLink);
        }
        return at->second;
    }

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
        m_runs.clear();
        m_consumers.clear();
        m_regionStops.clear();
        m_producers.clear();
        m_placed.clear();
        for (const std::string_view e : events)
            if (!event(e, index, startNs))
                return false;
        attribute();
        return true;
    }

    /// Each memory event of the line just read in the innermost module run around it; where
    /// there is none, the innermost work around it that consumes a link from another thread
    /// is noted, and resolved once every line is read. A producer of a link ran in the module
    /// around it, or consumed another link in turn.
    void attribute()
    {
        const auto byStart = [](const Span &a, const Span &b) { return a.start < b.start; };
        std::sort(m_runs.begin(), m_runs.end(), byStart);
        // A thread pool's region is an instant that starts it and one that stops it.
        std::sort(m_regionStops.begin(), m_regionStops.end());
        for (Span &c : m_consumers)
            if (c.end < 0) {
                const auto stop =
                    std::lower_bound(m_regionStops.begin(), m_regionStops.end(), c.start);
                c.end = stop == m_regionStops.end() ? c.start : *stop;
            }
        std::sort(m_consumers.begin(), m_consumers.end(), byStart);
        for (const auto &[allocator, k] : m_placed) {
            MemoryEvent &e = m_out.allocators[allocator].events[k];
            if (const Span *run = innermost(m_runs, e.timePs)) {
                e.module = run->what;
                e.made = MemoryEvent::Made::InRun;
            } else if (const Span *work = innermost(m_consumers, e.timePs)) {
                m_pending.push_back({allocator, k, work->what});
            }
        }
        for (const auto &[time, link] : m_producers) {
            if (const Span *run = innermost(m_runs, time))
                m_linkModule[link] = run->what;
            else if (const Span *work = innermost(m_consumers, time); work && work->what != link)
                m_linkVia[link] = work->what;
        }
    }

    /// The pending memory events' modules: their link's producer's, following links that
    /// were themselves consumed, at most 16 hops (a loop of links ends there).
    void resolveLinks()
    {
        for (const Pending &p : m_pending) {
            std::uint32_t link = p.link;
            for (int hop = 0; hop < 16 && link != kNoLink; ++hop) {
                if (m_linkModule[link] != 0) {
                    MemoryEvent &e = m_out.allocators[p.allocator].events[p.event];
                    e.module = m_linkModule[link];
                    e.made = MemoryEvent::Made::Linked;
                    break;
                }
                link = m_linkVia[link];
            }
        }
        m_pending.clear();
    }

    /// A stat's text: its string, or the name of the stat metadata it refers to.
    std::string_view textOf(const StatValue &v) const
    {
        if (v.ref < 0)
            return v.text;
        const auto ref = m_statNames.find(v.ref);
        return ref == m_statNames.end() ? std::string_view() : std::string_view(ref->second);
    }

    /// An event that is not the allocator's: a module's run, a link's producer or consumer,
    /// a thread pool region's end.
    void otherEvent(std::int64_t metadata, std::int64_t time, std::int64_t end,
                    const std::vector<std::string_view> &stats, bool regionStart)
    {
        std::int64_t producerType = 0;
        std::int64_t consumerType = 0;
        std::int64_t producer = -1;
        std::int64_t consumer = -1;
        std::uint32_t module = 0;
        for (const std::string_view s : stats) {
            StatValue v;
            if (!readStat(s, v))
                continue;
            const auto found = m_stats.find(v.metadata);
            if (found == m_stats.end())
                continue;
            switch (found->second) {
            case Stat::ProducerType:
                producerType = v.integer;
                break;
            case Stat::ProducerId:
                producer = v.integer;
                break;
            case Stat::ConsumerType:
                consumerType = v.integer;
                break;
            case Stat::ConsumerId:
                consumer = v.integer;
                break;
            case Stat::Module:
                module = intern(moduleNameOf(textOf(v)), 256);
                break;
            default:
                break;
            }
        }
        if (const auto named = m_moduleOf.find(metadata); named != m_moduleOf.end())
            module = named->second;
        if (module != 0 && end > time)
            m_runs.push_back({time, end, module});
        if (producer >= 0)
            m_producers.emplace_back(time, linkId(producerType, producer));
        if (consumer >= 0)
            m_consumers.push_back(
                {time, regionStart && end == time ? -1 : end, linkId(consumerType, consumer)});
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
        const auto kind = m_kind.find(metadata);
        if (kind == m_kind.end() || kind->second == Kind::RegionStart) {
            otherEvent(metadata, time, time + std::clamp<std::int64_t>(duration, 0, kMaxNs * 1000),
                       stats, kind != m_kind.end());
            return true;
        }
        if (kind->second == Kind::RegionStop) {
            m_regionStops.push_back(time);
            return true;
        }
        MemoryEvent e;
        e.allocation = kind->second == Kind::Allocation;
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
            const std::string_view text = textOf(v);
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
            default:
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
