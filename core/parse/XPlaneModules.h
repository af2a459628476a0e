#pragma once

#include "parse/DumpParser.h"
#include "util/MemoryBudget.h"

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
    static std::string modulePath(const std::string &capture, const std::string &name);

    /// The modules a capture holds, in the order written; `*error` says why none can be read.
    static std::vector<Module> list(const std::string &capture, std::string *error);
    /// For tests and the fuzzer: the modules of a capture's bytes, with their protos.
    struct Found
    {
        Module module;
        std::string hloProto;
    };
    /// A capture read once: its modules (only the one named `only`, when given) with their
    /// protos, or why none can be read. Every module of a capture is loaded from one index.
    struct Index
    {
        std::string capture;
        std::string error;
        std::vector<Found> modules;
        MemoryBudget::Grant budget; ///< what the modules' protos take, while they are held
    };
    static Index index(const std::string &capture, const std::string &only = {});
    /// The module `name` of a capture, or, with no name, the capture's only module; a capture
    /// of several says which there are and how to name one.
    static LoadResult load(const std::string &capture, const std::string &name,
                           const ParseOptions &options = {});
    static LoadResult load(const Index &index, const std::string &name,
                           const ParseOptions &options = {});

    static std::vector<Found> read(std::string_view bytes, std::string *error,
                                   const std::string &only = {});
};

} // namespace bufferscope
