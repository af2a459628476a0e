#pragma once

#include <string>
#include <string_view>

namespace bufferscope {

/// What a module's file names say, by XLA's file-name grammar (docs/FORMAT.md, "File names"):
/// pure functions of a name, for the views as for the parser. parse/ModuleFiles finds a
/// module's files on disk with them.
struct ModuleNames
{
    /// The stem shared by a module's files, or empty if `fileName` has no dump suffix.
    static std::string stemOf(std::string_view fileName);
    /// Whether `fileName` (a name, not a path) is one of a module's dump files.
    static bool isDumpName(std::string_view fileName) { return !stemOf(fileName).empty(); }
    /// The module name of a file: its stem, else the file name without its extension.
    static std::string moduleName(std::string_view path);
    /// The module as a person names it, from XLA's file-name grammar
    /// (`[<timestamp>.]module_<id>[.<module name>][.cl_<N>].<platform suffix>`): the module
    /// name and its id, `jit_train_step (0294)`; `module_0294` where XLA left the name out (too
    /// long for a file name); moduleName() for any other name.
    static std::string shortName(std::string_view path);
    /// The same for a stem or module name already without its file suffix
    /// (`module_0294.jit_train_step.sm_8.0_gpu_after_optimizations`).
    static std::string shortNameOfStem(std::string_view stem);
    /// Whether the name is that of XLA's memory-usage report (`…-memory-usage-report.txt`).
    static bool isMemoryUsageReportName(std::string_view fileName);
};

} // namespace bufferscope
