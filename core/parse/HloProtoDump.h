#pragma once

#include "parse/DumpParser.h"

#include <string>
#include <string_view>

namespace bufferscope {

/// XLA's binary module dumps (`--xla_dump_hlo_as_proto`):
/// `module_NNNN.NAME.PLATFORM_after_optimizations.hlo.pb`, also kept compressed as `.hlo.pb.gz`
/// and `.hlo.pb.xz` (nsys-jax bundles), and XProf's `<module>(<program id>).hlo_proto.pb`
/// beside a profile's capture (the same bytes). An `xla.HloProto` holds the optimized module and
/// its BufferAssignmentProto: the values and the allocations with their offsets, but no positions,
/// uses or live ranges. Those are worked out here as XLA works them out (docs/FORMAT.md Part B
/// §17): the values' positions and uses by HloDataflowAnalysis's rules, the schedule flattened
/// and the live ranges bounded by HloLiveRange's rules, module-scoped as buffer assignment runs
/// it. The module is then written as the buffer-assignment text XLA prints for it and read by
/// DumpParser, so that a binary dump and a text dump become the same Dump.
class HloProtoDumps
{
public:
    /// `.hlo.pb`, `.hlo.pb.gz`, `.hlo.pb.xz`, `.hlo_proto.pb`: the HloProto kinds of
    /// ModuleNames::fileKinds().
    static bool isName(std::string_view path);
    /// The file's module (a Dump, every view and command as for a text dump), or an error
    /// naming the file and what is wrong with it.
    static LoadResult load(const std::string &path, const ParseOptions &options = {});
    /// `bytes` holds a serialized HloProto (already decompressed); `name` stands for its path.
    static LoadResult loadBytes(std::string_view bytes, const std::string &name,
                                const ParseOptions &options = {});

    /// The buffer-assignment text for a serialized HloProto, or an error (`*error` set, empty
    /// text); `*stackTables` gets the module's stack-frame tables as the optimized HLO prints
    /// them (empty without). Exposed for the tests and the fuzzer.
    static std::string dumpText(std::string_view bytes, std::string *error,
                                std::vector<std::string> *notes = nullptr,
                                std::string *stackTables = nullptr);
};

} // namespace bufferscope
