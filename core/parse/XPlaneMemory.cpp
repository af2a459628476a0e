#include "parse/XPlaneMemory.h"

#include "parse/MappedFile.h"
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
    bool region;        ///< a thread pool region's start: it lasts until the next stop
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
    /// `bytes`: the whole capture; its pages are handed to `release` as they are read past.
    Reader(XPlaneMemory &out, const std::function<void(const char *)> &release,
           std::string_view bytes)
        : m_out(out), m_release(release), m_released(bytes.data())
    {}

    /// Says what was left out, once the planes are read; how many events were.
    std::size_t finish()
    {
        if (m_leftOut > 0)
            m_out.warnings.push_back(std::to_string(m_leftOut) +
                                     " memory event(s) left out: " + m_firstLeftOut +
                                     ", not a size an allocator has (below zero or past 2^60 "
                                     "bytes)");
        return m_leftOut;
    }

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
    const std::function<void(const char *)> &m_release;
    const char *m_released; ///< what was let go: the bytes before it
    static constexpr std::ptrdiff_t kReleaseEvery = std::ptrdiff_t{2} << 20;
    std::unordered_map<std::int64_t, Kind> m_kind; ///< by event metadata id
    std::unordered_map<std::int64_t, Stat> m_stats;
    std::unordered_map<std::int64_t, std::string> m_statNames;
    std::unordered_map<std::int64_t, std::uint32_t> m_moduleOf; ///< event metadata -> module
    // Of the line being read:
    std::vector<Span> m_runs;      ///< modules' runs
    std::vector<Span> m_consumers; ///< work consuming a link (what: the link)
    std::vector<std::int64_t> m_regionStops;
    std::vector<std::pair<std::int64_t, std::uint32_t>> m_producers; ///< (time, link)
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_placed;   ///< (allocator, event) of it
    /// Its candidate for each allocator's peak (allocator, candidate).
    std::vector<std::pair<std::size_t, XPlaneMemory::PeakCandidate>> m_lineCandidates;
    std::vector<std::int64_t> m_maxInUse; ///< per allocator, the most in use read so far
    struct DetailKey
    {
        std::uint64_t a;
        std::uint64_t b;
        std::int64_t group;
        bool operator==(const DetailKey &) const = default;
    };
    struct DetailHash
    {
        std::size_t operator()(const DetailKey &k) const
        {
            return std::hash<std::uint64_t>()(((k.a * 0x9E3779B97F4A7C15ULL) ^ k.b) *
                                                  0xC2B2AE3D27D4EB4FULL ^
                                              static_cast<std::uint64_t>(k.group));
        }
    };
    std::unordered_map<DetailKey, std::uint32_t, DetailHash> m_details;
    // Of the whole plane: links between threads, by (type, id).
    std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> m_linkIds;
    std::vector<std::uint32_t> m_linkModule; ///< the module its producer ran in (0: none)
    std::vector<std::uint32_t> m_linkVia;    ///< else the link its producer consumed
    struct Pending
    {
        std::uint32_t allocator;
        std::uint32_t event;
        std::uint32_t link;
    };
    std::vector<Pending> m_pending; ///< memory events in no run, inside a link's work
    std::map<std::string, std::size_t> m_allocatorAt;
    std::unordered_map<std::string, std::uint32_t> m_interned;
    bool m_warnedNoAllocator = false;
    bool m_warnedBadStat = false;
    std::size_t m_leftOut = 0;  ///< memory events whose sizes no allocator can report
    std::string m_firstLeftOut; ///< the first of them, named
    static constexpr std::uint32_t kNoLink = std::numeric_limits<std::uint32_t>::max();

    /// A line as a warning names it: its index on the host plane, and its name once read.
    std::string lineName(std::uint32_t line) const
    {
        std::string out = "line " + std::to_string(line);
        if (line < m_out.lines.size() && !m_out.lines[line].empty())
            out += " (\"" + m_out.lines[line] + "\")";
        return out;
    }

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
        m_out.lines.emplace_back();
        std::int64_t startNs = 0;
        m_runs.clear();
        m_consumers.clear();
        m_regionStops.clear();
        m_producers.clear();
        m_placed.clear();
        m_lineCandidates.clear();
        // Each event read as it comes, timed by its offset; the line's start, which may be
        // written after its events, is added once the line is read.
        CodedInputStream in = streamOf(bytes);
        while (std::uint32_t tag = in.ReadTag()) {
            const int field = WireFormatLite::GetTagFieldNumber(tag);
            if (field == 2 && isLengthDelimited(tag)) {
                std::string_view part;
                if (!lengthDelimited(in, bytes, &part))
                    return false;
                m_out.lines[index].assign(part.substr(0, 256));
            } else if (field == 3 &&
                       WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_VARINT) {
                std::uint64_t n = 0;
                if (!in.ReadVarint64(&n))
                    return false;
                startNs = static_cast<std::int64_t>(n);
            } else if (field == 4 && isLengthDelimited(tag)) {
                std::string_view part;
                if (!lengthDelimited(in, bytes, &part) || !event(part, index))
                    return false;
                // The bytes read go, a few MiB at a time.
                if (m_release && part.data() + part.size() - m_released > kReleaseEvery) {
                    m_released = part.data() + part.size();
                    m_release(m_released);
                }
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                return false;
            }
        }
        if (!in.ConsumedEntireMessage())
            return false;
        placeOnTheClock(startNs);
        attribute();
        return true;
    }

    /// A line's start in ns and an offset in ps: a time on the capture's clock, saturated.
    static constexpr std::int64_t kMaxNs = std::numeric_limits<std::int64_t>::max() / 4000;
    static std::int64_t clockOf(std::int64_t startNs, std::int64_t offsetPs)
    {
        return std::clamp<std::int64_t>(startNs, -kMaxNs, kMaxNs) * 1000 +
               std::clamp<std::int64_t>(offsetPs, -kMaxNs * 1000, kMaxNs * 1000);
    }

    /// The line's events, runs, links and peak candidates, timed by their offsets, on the
    /// capture's clock.
    void placeOnTheClock(std::int64_t startNs)
    {
        for (const auto &[allocator, k] : m_placed) {
            MemoryEvent &e = m_out.allocators[allocator].events[k];
            e.timePs = clockOf(startNs, e.timePs);
        }
        for (std::vector<Span> *spans : {&m_runs, &m_consumers})
            for (Span &s : *spans) {
                const std::int64_t length = s.end - s.start;
                s.start = clockOf(startNs, s.start);
                s.end = s.start + length;
            }
        for (std::int64_t &t : m_regionStops)
            t = clockOf(startNs, t);
        for (auto &[time, link] : m_producers)
            time = clockOf(startNs, time);
        // This line's candidate for each allocator's peak, if its own peak is still the most.
        for (const auto &[allocator, c] : m_lineCandidates) {
            XPlaneMemory::Allocator &a = m_out.allocators[allocator];
            if (a.events[c.event].inUse == m_maxInUse[allocator])
                a.peaks.push_back(c);
        }
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
            if (c.region) {
                const auto stop =
                    std::lower_bound(m_regionStops.begin(), m_regionStops.end(), c.start);
                c.end = stop == m_regionStops.end() ? c.start : *stop;
            }
        std::sort(m_consumers.begin(), m_consumers.end(), byStart);
        for (const auto &[allocator, k] : m_placed) {
            MemoryEvent &e = m_out.allocators[allocator].events[k];
            if (const Span *run = innermost(m_runs, e.timePs)) {
                e.module = std::min(run->what, MemoryEvent::kMaxModules);
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
                    e.module = std::min(m_linkModule[link], MemoryEvent::kMaxModules);
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
    /// a thread pool region's start. `offset` is within its line.
    void otherEvent(std::int64_t metadata, std::int64_t offset, std::int64_t duration,
                    std::string_view bytes, bool regionStart)
    {
        std::int64_t producerType = 0;
        std::int64_t consumerType = 0;
        std::int64_t producer = -1;
        std::int64_t consumer = -1;
        std::uint32_t module = 0;
        forEachStat(bytes, [&](const StatValue &v, Stat kind) {
            switch (kind) {
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
        });
        if (const auto named = m_moduleOf.find(metadata); named != m_moduleOf.end())
            module = named->second;
        // Both clamped as the clock clamps them: a lying offset or length never wraps.
        offset = std::clamp<std::int64_t>(offset, -kMaxNs * 1000, kMaxNs * 1000);
        const std::int64_t end = offset + std::clamp<std::int64_t>(duration, 0, kMaxNs * 1000);
        if (module != 0 && end > offset)
            m_runs.push_back({offset, end, module, false});
        if (producer >= 0)
            m_producers.emplace_back(offset, linkId(producerType, producer));
        if (consumer >= 0)
            m_consumers.push_back(
                {offset, end, linkId(consumerType, consumer), regionStart && end == offset});
    }

    /// Calls `f(value, kind)` for each stat of an event's bytes whose name is one it reads;
    /// false where a stat does not parse (the rest are still read).
    template <typename F> bool forEachStat(std::string_view event, F &&f)
    {
        bool whole = true;
        CodedInputStream in = streamOf(event);
        while (std::uint32_t tag = in.ReadTag()) {
            if (WireFormatLite::GetTagFieldNumber(tag) == 4 && isLengthDelimited(tag)) {
                std::string_view part;
                if (!lengthDelimited(in, event, &part))
                    return false;
                StatValue v;
                if (!readStat(part, v)) {
                    whole = false;
                    continue;
                }
                if (const auto found = m_stats.find(v.metadata); found != m_stats.end())
                    f(v, found->second);
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                return false;
            }
        }
        return whole;
    }

    std::uint32_t internDetail(const XPlaneMemory::Detail &d)
    {
        const DetailKey key{std::uint64_t{d.op} << 32 | d.region,
                            std::uint64_t{d.dataType} << 32 | d.shape, d.group};
        auto [at, added] =
            m_details.try_emplace(key, static_cast<std::uint32_t>(m_out.details.size()));
        if (added)
            m_out.details.push_back(d);
        return at->second;
    }

    bool event(std::string_view bytes, std::uint32_t line)
    {
        std::int64_t metadata = 0;
        std::int64_t offset = 0;
        std::int64_t duration = 0;
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
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                return false;
            }
        }
        if (!in.ConsumedEntireMessage())
            return false;
        const auto kind = m_kind.find(metadata);
        if (kind == m_kind.end() || kind->second == Kind::RegionStart) {
            otherEvent(metadata, offset, duration, bytes, kind != m_kind.end());
            return true;
        }
        if (kind->second == Kind::RegionStop) {
            m_regionStops.push_back(offset);
            return true;
        }
        MemoryEvent e;
        e.allocation = kind->second == Kind::Allocation;
        e.timePs = offset; // on the capture's clock once the line is read
        XPlaneMemory::PeakCandidate peak;
        peak.offsetPs = offset;
        peak.line = line;
        XPlaneMemory::Detail detail;
        std::int64_t peakInUse = 0;
        std::string allocator;
        bool named = false;
        const bool whole = forEachStat(bytes, [&](const StatValue &v, Stat stat) {
            const std::string_view text = textOf(v);
            switch (stat) {
            case Stat::Allocator:
                allocator.assign(text.substr(0, 256));
                named = true;
                break;
            case Stat::DeviceOrdinal:
                allocator = std::to_string(v.integer);
                named = true;
                break;
            case Stat::Allocated:
                peak.heap = v.integer;
                break;
            case Stat::Reserved:
                peak.stack = v.integer;
                break;
            case Stat::Available:
                peak.free = v.integer;
                break;
            case Stat::Fragmentation:
                peak.fragmentation = v.real;
                break;
            case Stat::PeakInUse:
                peakInUse = v.integer;
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
                detail.op = intern(text);
                break;
            case Stat::Region:
                detail.region = intern(text, 256);
                break;
            case Stat::DataType:
                detail.dataType = intern(dataTypeName(v.integer));
                break;
            case Stat::Shape:
                detail.shape = intern(text);
                break;
            case Stat::Group:
                detail.group = v.integer;
                break;
            default:
                break;
            }
        });
        if (!whole && !m_warnedBadStat) {
            m_out.warnings.push_back("a memory event on " + lineName(line) +
                                     " has a stat that does not parse; it is skipped");
            m_warnedBadStat = true;
        }
        // A size no allocator reports: below zero, or past 2^60 bytes (an exbibyte, a thousand
        // times any device's memory). Such an event says nothing true of the allocator, and
        // its sizes would wrap the sums; it is left out, and the first one named.
        {
            const std::pair<const char *, std::int64_t> sizes[] = {
                {"bytes_allocated", peak.heap},   {"bytes_reserved", peak.stack},
                {"allocation_bytes", e.bytes},    {"requested_bytes", e.requested},
                {"peak_bytes_in_use", peakInUse},
            };
            for (const auto &[stat, value] : sizes)
                if (value < 0 || value > MemoryEvent::kMaxSize) {
                    if (m_leftOut++ == 0)
                        m_firstLeftOut = std::string(e.allocation ? "the MemoryAllocation"
                                                                  : "the MemoryDeallocation") +
                                         " at offset " + std::to_string(offset) + " ps of " +
                                         lineName(line) + " reports " + stat + " = " +
                                         std::to_string(value);
                    return true;
                }
        }
        if (detail.dataType == 0)
            detail.dataType = intern(dataTypeName(0));
        e.detail = internDetail(detail);
        // Heap + stack, saturated: a lying file's sizes never wrap.
        e.inUse = peak.heap > std::numeric_limits<std::int64_t>::max() - peak.stack
                      ? std::numeric_limits<std::int64_t>::max()
                      : peak.heap + peak.stack;
        if (!named) {
            if (!m_warnedNoAllocator)
                m_out.warnings.push_back("memory events without an allocator_name or device "
                                         "number: counted as the allocator \"(unnamed)\"");
            m_warnedNoAllocator = true;
            allocator = "(unnamed)";
        }
        auto [at, added] = m_allocatorAt.try_emplace(allocator, m_out.allocators.size());
        if (added) {
            m_out.allocators.push_back({allocator, {}, {}, 0, 0});
            m_maxInUse.push_back(std::numeric_limits<std::int64_t>::min());
        }
        const std::size_t which = at->second;
        XPlaneMemory::Allocator &a = m_out.allocators[which];
        a.lifetimePeak = std::max(a.lifetimePeak, peakInUse);
        a.lastPeakStat = peakInUse;
        peak.event = a.events.size();
        m_placed.emplace_back(static_cast<std::uint32_t>(which),
                              static_cast<std::uint32_t>(a.events.size()));
        a.events.push_back(e);
        ++m_out.events;
        // A candidate for the peak: the most in use so far; of a line, its last in time.
        std::int64_t &most = m_maxInUse[which];
        if (e.inUse > most) {
            most = e.inUse;
            a.peaks.clear();
            std::erase_if(m_lineCandidates, [which](const auto &c) { return c.first == which; });
        }
        if (e.inUse == most) {
            auto mine = std::find_if(m_lineCandidates.begin(), m_lineCandidates.end(),
                                     [which](const auto &c) { return c.first == which; });
            if (mine == m_lineCandidates.end())
                m_lineCandidates.emplace_back(which, peak);
            else if (offset >= mine->second.offsetPs)
                mine->second = peak;
        }
        return true;
    }
};

} // namespace

XPlaneMemory XPlaneMemory::read(std::string_view bytes, std::string *error,
                                const std::function<void(const char *)> &release)
{
    XPlaneMemory out;
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        *error = "the capture is larger than 2 GiB, more than a protobuf message can be";
        return out;
    }
    CodedInputStream in = streamOf(bytes);
    bool sawHost = false;
    bool damaged = false;
    Reader reader(out, release, bytes);
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
    const std::size_t leftOut = reader.finish();
    if (damaged || !in.ConsumedEntireMessage()) {
        *error = "not a profiler capture (an XSpace), or a damaged one: the protobuf data does "
                 "not parse";
        out.allocators.clear();
        out.events = 0;
    } else if (!sawHost) {
        *error = "the capture has no \"/host:CPU\" plane, where the profiler records the "
                 "allocators' events";
    } else if (out.events == 0 && leftOut > 0) {
        *error = "every memory event of the capture reports a size no allocator has: " +
                 out.warnings.back();
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
    // A plain capture is mapped and its pages let go behind the reader: what stays is the
    // events, not the file. A compressed one is read whole, decompressed.
    {
        MappedFile mapped;
        std::string why;
        if (!mapped.open(capture, why)) {
            *error = why;
            return {};
        }
        const std::string_view head = mapped.data().substr(0, 6);
        if (decompress::formatOf(capture, head) == decompress::Format::None) {
            const char *base = mapped.data().data();
            XPlaneMemory out = read(mapped.data(), error, [&mapped, base](const char *end) {
                mapped.releaseBefore(static_cast<std::size_t>(end - base));
            });
            if (error->empty() && mapped.shrank() >= 0) {
                *error = "the capture changed while it was read: read it again";
                return {};
            }
            return out;
        }
    }
    const Decompressed file = decompress::file(capture);
    if (!file.ok()) {
        *error = file.error;
        return {};
    }
    return read(file.bytes, error);
}

} // namespace bufferscope
