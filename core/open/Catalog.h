#pragma once

#include "open/ModuleRef.h"

#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// What a path the user gave is, decided once (Catalog::kindOf).
enum class FileKind
{
    Folder,            ///< searched for modules
    Dump,              ///< a module's file (any format), or any file no other kind claims: its
                       ///< reader says what is wrong with it
    MemoryUsageReport, ///< XLA's memory-usage report with no dump of its module beside it
    OomLog             ///< a log (or any text) that holds an out-of-memory message
};

/// Something opened that could not be used: the path and what is wrong, apart (a path may
/// hold a ':').
struct CatalogProblem
{
    std::string path;
    std::string message;
};

/// What was opened, classified once into typed module references, logs, lone reports and
/// problems: the one way files come in, for the window (on a job: workspace/Opened), every
/// command and the tests. Every kind of file is a row of ModuleNames::fileKinds(); a file whose
/// name says nothing is sniffed by its first bytes (gzip, xz, protobuf, text) here, once.
///
/// A folder is searched with its direct subfolders (some tools write one folder per module) and
/// `plugins/profile/<run>/` (a profile as jax.profiler.trace writes it); the three files of a
/// 2026 split module count once; a profiler capture stands for its modules, listed from one
/// read; a folder lists its largest modules first.
struct Catalog
{
    std::vector<ModuleRef> modules;
    std::vector<std::string> logs;  ///< out-of-memory logs
    std::vector<ModuleRef> reports; ///< memory-usage reports given alone
    std::vector<CatalogProblem> problems;
    /// The paths given that are runs, folders and profiler captures, as given.
    std::vector<std::string> runs;

    /// How `of` treats a file given by name.
    enum class Split
    {
        ByKind,     ///< logs to `logs`, lone reports to `reports`, the rest to `modules`
        ModulesOnly ///< every file is a module (its reader says what is wrong with it)
    };
    static Catalog of(const std::vector<std::string> &paths, Split split = Split::ByKind);
    /// The module a path names: a module's file (any of a split module's three, or its report
    /// when its dump is beside it), `<capture>#<member>`, or any other file (sniffed). Reads
    /// no more than the file's first bytes, and a capture's index when no member is named.
    static ModuleRef refOf(const std::string &path);
    /// What `path` is (refOf, as a kind); a path that does not exist is a Dump, so that its
    /// reader names it and says why.
    static FileKind kindOf(const std::string &path);
    static const char *kindName(FileKind kind);
    /// Whether `path` is a run rather than one module: a folder, or a profiler capture of more
    /// than one module (what `list`, `summary` and a run `diff` take).
    static bool isRun(const std::string &path);
    /// `<capture>#<member>` split into its capture file and member name, when `path` is one:
    /// a path that is nothing on disk, of which a prefix before a '#' is a file. Of two such
    /// prefixes (captures `a.xplane.pb` and `a.xplane.pb#x.xplane.pb`), the shorter whose
    /// capture holds a module of that name. For addresses a user typed or a setting kept; the
    /// window and the commands open what a listing found by its ModuleRef, not by this.
    static bool splitMember(const std::string &path, std::string *capture, std::string *member);
    static std::string memberPath(const std::string &capture, const std::string &member);
    /// The reference of the module `member` of the capture `capture`, named apart: what a
    /// listing that kept them apart opens again (its bytes not measured).
    static ModuleRef memberOf(const std::string &capture, const std::string &member);
};

} // namespace bufferscope
