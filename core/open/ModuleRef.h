#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bufferscope {

/// How a module's bytes are written, decided once by the catalog (open/Catalog): by the file
/// kind table (model/ModuleNames) where the name says, by the content where it does not.
enum class ModuleFormat : std::uint8_t
{
    DumpText,      ///< a buffer-assignment dump, whole or split into XLA's 2026 three files
    HloProto,      ///< XLA's binary HloProto, plain, gzip or xz (HloProtoDumps)
    CaptureMember, ///< one module of a profiler capture (XPlaneModules)
    Capture,       ///< a capture not split into modules: unreadable, or named as itself
    ReportText,    ///< XLA's memory-usage report, text, with no dump of its module beside it
    ReportProto,   ///< the same as a proto
};

/// One module as the catalog found it: what the reader needs (format, files, container and
/// member) and what a listing shows before reading it (bytes, names). Paths are kept as
/// std::string bytes; `path` is the address the window and the commands show and hand back
/// (Catalog::refOf makes the same reference again from it).
struct ModuleRef
{
    ModuleFormat format = ModuleFormat::DumpText;
    /// As given, or as listed under the folder given; `<capture>#<member>` for a capture's
    /// module.
    std::string path;
    /// The files read, in reading order: a text dump's allocations, values, live ranges; the
    /// one file of a proto or a report; the capture of a member.
    std::vector<std::string> files;
    /// The memory-usage report a text dump was opened through (read with it, checked against
    /// it), else empty.
    std::string report;
    std::string container; ///< the capture of a CaptureMember or Capture
    std::string member;    ///< the module's name in its capture ("jit_step(12)")
    /// The bytes of its files (a member: its serialized proto), as the listing measured them;
    /// -1 for a file given by name (not measured).
    std::int64_t bytes = -1;
    std::string name;     ///< the module name: a dump's stem, a member's name
    std::string function; ///< the jitted function ("jit_train_step"), else the name
    std::string number;   ///< XLA's module id ("0294"), empty where the name has none
    /// The names of the other `.txt` files of its folder (its HLO texts: `<stem>.txt`, the
    /// function's `before_optimizations.txt`), sorted, as the listing saw them: looked up
    /// here rather than on disk, one module at a time. Null where it was not listed.
    std::shared_ptr<const std::vector<std::string>> textsBeside;
    /// Whether its folder holds `file`: from textsBeside when listed, else on disk.
    bool hasBeside(const std::string &folder, const std::string &file) const;

    bool isReport() const
    {
        return format == ModuleFormat::ReportText || format == ModuleFormat::ReportProto;
    }
    bool listed() const { return bytes >= 0; }
};

} // namespace bufferscope
