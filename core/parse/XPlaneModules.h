#pragma once

#include "parse/DumpParser.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// Profiler captures: `plugins/profile/<run>/<host>.xplane.pb`, written by jax.profiler.trace and
/// read by XProf. Its plane "/host:metadata" holds one serialized xla.HloProto per module that
/// ran, named "<module>(<program_id>)". A capture opens as a folder of those modules: each is
/// named by a path `<capture>#<name>`, and loads as a binary module (HloProtoDumps).
class XPlaneModules
{
public:
    struct Module
    {
        std::string name; ///< "jit_train_step(12)", as XProf names it
        std::int64_t programId = -1;
        std::int64_t bytes = 0; ///< the serialized HloProto's size
    };

    static bool isCaptureName(std::string_view path); ///< `*.xplane.pb`
    /// `<capture>#<name>`: one module of a capture.
    static bool isModulePath(std::string_view path);
    static std::string modulePath(const std::string &capture, const std::string &name);

    /// The modules a capture holds, in the order written; `*error` says why none can be read.
    static std::vector<Module> list(const std::string &capture, std::string *error);
    /// One module of a capture (`<capture>#<name>`), or a capture that holds exactly one; a
    /// capture of several says which there are and how to name one.
    static LoadResult load(const std::string &path, const ParseOptions &options = {});

    /// For tests and the fuzzer: the modules of a capture's bytes, with their protos.
    struct Found
    {
        Module module;
        std::string hloProto;
    };
    static std::vector<Found> read(std::string_view bytes, std::string *error,
                                   const std::string &only = {});
};

} // namespace bufferscope
