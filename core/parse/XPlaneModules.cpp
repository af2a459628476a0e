#include "parse/XPlaneModules.h"

#include "parse/HloProtoDump.h"
#include "parse/MappedFile.h"
#include "parse/detail/WireRead.h"
#include "proto/xplane_min.pb.h"
#include "util/Decompress.h"

#include <limits>

namespace bufferscope {

namespace {

namespace pb = bufferscope::xplanepb;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

constexpr std::string_view kMetadataPlane = "/host:metadata";
constexpr std::string_view kHloProtoStat = "Hlo Proto";
constexpr std::string_view kProgramIdStat = "program_id";
constexpr std::string_view kSeparator = "#";

using wire::lengthDelimited;
using wire::streamOf;

/// One plane's name and the bytes of its map entries; everything else is skipped.
struct PlaneParts
{
    std::string name;
    std::vector<std::string_view> events;
    std::vector<std::string_view> stats;
};

bool readPlane(std::string_view bytes, PlaneParts &plane)
{
    CodedInputStream in = streamOf(bytes);
    in.SetRecursionLimit(100);
    while (std::uint32_t tag = in.ReadTag()) {
        const int field = WireFormatLite::GetTagFieldNumber(tag);
        if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED &&
            (field == 2 || field == 4 || field == 5)) {
            std::string_view part;
            if (!lengthDelimited(in, bytes, &part))
                return false;
            if (field == 2)
                plane.name.assign(part.substr(0, 256));
            else
                (field == 4 ? plane.events : plane.stats).push_back(part);
        } else if (!WireFormatLite::SkipField(&in, tag)) {
            return false;
        }
    }
    return in.ConsumedEntireMessage();
}

} // namespace

bool XPlaneModules::isCaptureName(std::string_view path)
{
    return path.ends_with(".xplane.pb");
}

std::string XPlaneModules::modulePath(const std::string &capture, const std::string &name)
{
    return capture + std::string(kSeparator) + name;
}

std::vector<XPlaneModules::Found> XPlaneModules::read(std::string_view bytes, std::string *error,
                                                      const std::string &only)
{
    std::vector<Found> out;
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        *error = "the capture is larger than 2 GiB, more than a protobuf message can be";
        return out;
    }
    CodedInputStream in = streamOf(bytes);
    bool sawMetadata = false;
    bool damaged = false;
    while (std::uint32_t tag = in.ReadTag()) {
        if (WireFormatLite::GetTagFieldNumber(tag) != 1 ||
            WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (!WireFormatLite::SkipField(&in, tag)) {
                damaged = true;
                break;
            }
            continue;
        }
        std::string_view planeBytes;
        PlaneParts plane;
        if (!lengthDelimited(in, bytes, &planeBytes) || !readPlane(planeBytes, plane)) {
            damaged = true;
            break;
        }
        if (plane.name != kMetadataPlane)
            continue;
        sawMetadata = true;
        std::int64_t hloStat = -1, programStat = -1;
        for (const std::string_view entry : plane.stats) {
            pb::XStatMetadataEntry e;
            if (!e.ParseFromArray(entry.data(), static_cast<int>(entry.size()))) {
                damaged = true;
                continue;
            }
            if (e.value().name() == kHloProtoStat)
                hloStat = e.key();
            else if (e.value().name() == kProgramIdStat)
                programStat = e.key();
        }
        for (const std::string_view entry : plane.events) {
            pb::XEventMetadataEntry e;
            if (!e.ParseFromArray(entry.data(), static_cast<int>(entry.size()))) {
                damaged = true;
                continue;
            }
            Found f;
            f.module.name =
                e.value().display_name().empty() ? e.value().name() : e.value().display_name();
            if (!only.empty() && f.module.name != only)
                continue;
            bool hasProto = false;
            for (const pb::XStat &s : e.value().stats()) {
                if (s.metadata_id() == hloStat && s.value_case() == pb::XStat::kBytesValue) {
                    f.hloProto = s.bytes_value();
                    hasProto = true;
                } else if (s.metadata_id() == programStat) {
                    f.module.programId = s.value_case() == pb::XStat::kUint64Value
                                             ? static_cast<std::int64_t>(s.uint64_value())
                                             : s.int64_value();
                }
            }
            if (!hasProto)
                continue;
            f.module.bytes = static_cast<std::int64_t>(f.hloProto.size());
            out.push_back(std::move(f));
        }
    }
    if (damaged && out.empty())
        *error = "not a profiler capture (an XSpace), or a damaged one: the protobuf data does "
                 "not parse";
    else if (!sawMetadata && out.empty())
        *error = "the capture has no \"/host:metadata\" plane: it holds no module (was it "
                 "taken with the profiler's HLO metadata on?)";
    else if (out.empty() && only.empty())
        *error = "the capture's \"/host:metadata\" plane holds no \"Hlo Proto\"";
    else if (out.empty())
        *error = "the capture holds no module named " + only;
    return out;
}

std::vector<XPlaneModules::Module> XPlaneModules::list(const std::string &capture,
                                                       std::string *error)
{
    const Decompressed file = decompress::file(capture);
    if (!file.ok()) {
        *error = file.error;
        return {};
    }
    std::vector<Module> out;
    for (Found &f : read(file.bytes, error))
        out.push_back(std::move(f.module));
    return out;
}

XPlaneModules::Index XPlaneModules::index(const std::string &capture, const std::string &only)
{
    Index index;
    index.capture = capture;
    // A plain capture is mapped: only its metadata plane's pages are read (the planes of
    // events, most of a capture, are skipped), and only the modules' protos are kept.
    {
        MappedFile mapped;
        std::string why;
        if (!mapped.open(capture, why)) {
            index.error = why;
            return index;
        }
        if (decompress::formatOf(capture, mapped.data().substr(0, 6)) == decompress::Format::None) {
            std::int64_t held = 0;
            index.modules = read(mapped.data(), &index.error, only);
            for (const Found &f : index.modules)
                held += static_cast<std::int64_t>(f.hloProto.size());
            index.budget = MemoryBudget::reserve(held);
            return index;
        }
    }
    Decompressed file = decompress::file(capture);
    if (!file.ok()) {
        index.error = file.error;
        return index;
    }
    index.modules = read(file.bytes, &index.error, only);
    // The capture's bytes go; the copies of its modules' protos stay, and count.
    std::int64_t held = 0;
    for (const Found &f : index.modules)
        held += static_cast<std::int64_t>(f.hloProto.size());
    index.budget = std::move(file.budget);
    index.budget.keep(held);
    return index;
}

LoadResult XPlaneModules::load(const std::string &capture, const std::string &name,
                               const ParseOptions &options)
{
    return load(index(capture, name), name, options);
}

LoadResult XPlaneModules::load(const Index &index, const std::string &name,
                               const ParseOptions &options)
{
    LoadResult result;
    const std::string &capture = index.capture;
    std::vector<const Found *> found;
    for (const Found &f : index.modules)
        if (name.empty() || f.module.name == name)
            found.push_back(&f);
    if (found.empty()) {
        result.error =
            capture + ": " +
            (!index.error.empty() ? index.error : "the capture holds no module named " + name);
        result.errorFile = capture;
        return result;
    }
    if (found.size() > 1 && name.empty()) {
        std::string names;
        for (std::size_t i = 0; i < found.size() && i < 8; ++i)
            names += (i ? ", " : "") + found[i]->module.name;
        if (found.size() > 8)
            names += ", …";
        result.error = capture + ": the capture holds " + std::to_string(found.size()) +
                       " modules (" + names + "); name one as '" + capture +
                       "#NAME', or list them with 'bufferscope list " + capture + "'";
        result.errorFile = capture;
        return result;
    }
    const Found &one = *found.front();
    LoadResult loaded =
        HloProtoDumps::loadBytes(one.hloProto, modulePath(capture, one.module.name), options);
    if (loaded.ok()) {
        auto dump = std::const_pointer_cast<Dump>(loaded.dump); // made just now, held nowhere
        dump->module = one.module.name;
        dump->notes.push_back("from the profiler capture " + capture + ", program id " +
                              std::to_string(one.module.programId));
    }
    return loaded;
}

} // namespace bufferscope
