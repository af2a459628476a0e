#include "parse/HloProtoDump.h"

#include "model/Dump.h"
#include "model/ModuleNames.h"
#include "parse/ShapeParser.h"
#include "parse/StackFrames.h"
#include "parse/detail/HloProtoReader.h"
#include "parse/detail/ParsedSize.h"
#include "proto/hlo_min.pb.h"
#include "util/Decompress.h"
#include "util/MemoryBudget.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace bufferscope {

using hloproto::Refused;
namespace pb = bufferscope::xlapb;

bool HloProtoDumps::isName(std::string_view path)
{
    // Every HloProto kind of the one table, whatever the stem (a module before optimization
    // is read, to say it has no buffer assignment).
    for (const ModuleFileKind &kind : ModuleNames::fileKinds())
        if (kind.format == ModuleFileFormat::HloProto && path.size() > kind.suffix.size() &&
            path.ends_with(kind.suffix) && path[path.size() - kind.suffix.size() - 1] == '.')
            return true;
    return false;
}

std::string HloProtoDumps::dumpText(std::string_view bytes, std::string *error,
                                    std::vector<std::string> *notes, std::string *stackTables)
{
    const Stopwatch clock;
    // What the parse would take, before it takes it (empty messages of repeated fields are two
    // bytes each on the wire and a whole object in memory).
    const std::int64_t allowance =
        decompress::expandedLimit(static_cast<std::int64_t>(bytes.size()));
    if (bytes.size() <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        // Real modules take 6 to 13 times their size; a quarter of the allowance is 16 times.
        const std::int64_t parseAllowance = allowance / 4;
        const std::int64_t parsed =
            wire::parsedSize(bytes, *pb::HloProto::descriptor(), parseAllowance);
        spdlog::debug("hlo proto: {} bytes, about {} to parse", bytes.size(), parsed);
        if (parsed > parseAllowance) {
            *error = "its " + std::to_string(bytes.size()) + " bytes would take more than " +
                     std::to_string(parseAllowance) +
                     " bytes of memory to read: messages packed far more densely than XLA "
                     "writes them (empty instructions or allocations, by the million); refused "
                     "rather than filling memory";
            return {};
        }
    }
    // On an arena: a module is hundreds of thousands of small messages, made and dropped at once.
    google::protobuf::Arena arena;
    pb::HloProto &proto = *google::protobuf::Arena::CreateMessage<pb::HloProto>(&arena);
    google::protobuf::io::CodedInputStream in(
        reinterpret_cast<const std::uint8_t *>(bytes.data()),
        static_cast<int>(std::min<std::size_t>(bytes.size(), std::numeric_limits<int>::max())));
    in.SetRecursionLimit(100);
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        !proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
        *error = "not a serialized xla.HloProto (the protobuf data does not parse: damaged, cut "
                 "short, or another kind of file)";
        return {};
    }
    spdlog::debug("hlo proto: {} bytes parsed in {:.3f} s", bytes.size(), clock.seconds());
    try {
        std::vector<std::string> said;
        hloproto::Reader reader(proto, allowance);
        std::string text = reader.run(said);
        spdlog::debug("hlo proto: module worked out and written as {} bytes of text at {:.3f} s",
                      text.size(), clock.seconds());
        if (notes)
            *notes = std::move(said);
        if (stackTables)
            *stackTables = reader.stackTables();
        return text;
    } catch (const Refused &r) {
        *error = r.message;
    } catch (const std::bad_alloc &) {
        *error = "the module is too large to read in this machine's memory";
    }
    return {};
}

LoadResult HloProtoDumps::loadBytes(std::string_view bytes, const std::string &name,
                                    const ParseOptions &options)
{
    LoadResult result;
    std::string error;
    std::vector<std::string> notes;
    std::string tables;
    // The text may be as large as the allowance; reserved before it is written, and what it
    // takes held until it is read.
    MemoryBudget::Grant budget =
        MemoryBudget::reserve(decompress::expandedLimit(static_cast<std::int64_t>(bytes.size())));
    const std::string text = dumpText(bytes, &error, &notes, &tables);
    budget.keep(static_cast<std::int64_t>(text.size()));
    if (!error.empty()) {
        result.error = name + ": " + error;
        result.errorFile = name;
        return result;
    }
    ParseOptions how = options;
    how.companions = false;
    LoadResult parsed = DumpParser::loadBuffer(text, name, how);
    if (!parsed.ok()) {
        // The text was made here from a proto whose parts disagree; say so of the proto.
        result.error = name + ": the module's buffer assignment does not hold together (" +
                       parsed.error.substr(std::min(parsed.error.size(), name.size() + 1)) + ")";
        result.errorFile = name;
        return result;
    }
    // The dump was made just now and is held nowhere else: it may still be added to.
    auto dump = std::const_pointer_cast<Dump>(parsed.dump);
    dump->notes.insert(dump->notes.begin(),
                       "read from XLA's binary HloProto: positions, uses and live ranges worked "
                       "out by XLA's dataflow and live-range rules from the module's schedule");
    for (std::string &n : notes)
        dump->notes.push_back(std::move(n));
    // The call stacks, from the module's own stack-frame index (what a text dump takes from the
    // optimized HLO beside it).
    if (!tables.empty())
        readStackFrames(tables, 0, *dump, options.maxWarnings);
    result.dump = std::move(dump);
    return result;
}

LoadResult HloProtoDumps::load(const std::string &path, const ParseOptions &options)
{
    const Decompressed read = decompress::file(path);
    if (!read.ok()) {
        LoadResult result;
        result.error = path + ": " + read.error;
        result.errorFile = path;
        return result;
    }
    return loadBytes(read.bytes, path, options);
}

} // namespace bufferscope
