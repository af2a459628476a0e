#pragma once

#include <span>
#include <string>
#include <string_view>

namespace bufferscope {

/// How a module's file is written.
enum class ModuleFileFormat
{
    DumpText,    ///< a buffer-assignment dump, whole or one of its 2026 split parts
    HloProto,    ///< XLA's binary HloProto with its buffer assignment
    ReportText,  ///< XLA's memory-usage report, text
    ReportProto, ///< the same as a proto
};

/// One kind of module file BufferScope reads, known by the suffix after the module's stem:
/// the one table every reader, folder walk and dialog uses. Adding a kind of file is a row
/// here (and its reader, if its format is new).
struct ModuleFileKind
{
    std::string_view suffix; ///< after the stem and its separator
    ModuleFileFormat format;
    /// The reading order of a module's files (a text dump's allocations 0, values 1, live
    /// ranges 2), and which one stands for the module in a folder: the lowest present (the
    /// dump's main file, then a binary module, 3, which holds all a dump holds, then a
    /// memory-usage report, 4).
    int rank;
    std::string_view pattern; ///< the dialogs' filter, "*buffer-assignment.txt"
};

/// What a module's file names say, by XLA's file-name grammar (docs/FORMAT.md, "File names"):
/// pure functions of a name, for the views as for the parser. parse/ModuleFiles finds a
/// module's files on disk with them.
struct ModuleNames
{
    /// Every kind of module file, in the order their suffixes are tried.
    static std::span<const ModuleFileKind> fileKinds();
    /// The kind of `fileName` (a name, not a path), or null when it is none of them (or a
    /// module before optimization, which has no buffer assignment).
    static const ModuleFileKind *kindOf(std::string_view fileName);
    /// "*buffer-assignment.txt *live-range.txt …": every kind, for a file dialog's filter.
    static std::string dialogPatterns();
    /// The stem shared by a module's files, or empty if `fileName` has no dump suffix.
    static std::string stemOf(std::string_view fileName);
    /// `/a/b/module_0001.x-buffer-assignment.txt` → `module_0001.x-buffer-assignment.txt`.
    static std::string_view baseName(std::string_view path)
    {
        const auto slash = path.rfind('/');
        return slash == std::string_view::npos ? path : path.substr(slash + 1);
    }
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
    /// The jitted function a module name carries: `jit_train_step` of
    /// `module_0294.jit_train_step.sm_8.0_gpu_after_optimizations` or of XProf's
    /// `jit_train_step(12)`; the name itself where it carries none.
    static std::string functionOf(std::string_view moduleName);
    /// XLA's module id in a module name ("0294"), empty where it has none.
    static std::string numberOf(std::string_view moduleName);
    /// Whether the name is that of XLA's memory-usage report (`…-memory-usage-report.txt`).
    static bool isMemoryUsageReportName(std::string_view fileName);
};

} // namespace bufferscope
