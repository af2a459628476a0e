#include "Catalog.h"

#include "model/ModuleNames.h"
#include "parse/MappedFile.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ModuleFiles.h"
#include "parse/OomMessage.h"
#include "parse/XPlaneModules.h"

#include <algorithm>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace bufferscope {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kCapture = ".xplane.pb";

bool isRegularFile(const std::string &path)
{
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

/// What a file's first bytes say it is, for a file whose name says nothing.
enum class Content
{
    Text,
    Compressed, ///< gzip (1f 8b) or xz (fd 37 7a 58 5a 00)
    Binary,     ///< a NUL byte in the first 4 KiB: protobuf data
    Unreadable
};

Content sniff(const std::string &path, std::string *head)
{
    // A regular file only (the caller checked): open cannot block.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return Content::Unreadable;
    head->resize(4096);
    const ssize_t got = ::read(fd, head->data(), head->size());
    ::close(fd);
    if (got < 0)
        return Content::Unreadable;
    head->resize(static_cast<std::size_t>(got));
    const auto byte = [head](std::size_t i) {
        return i < head->size() ? static_cast<unsigned char>((*head)[i]) : 0x100u;
    };
    if ((byte(0) == 0x1f && byte(1) == 0x8b) ||
        (byte(0) == 0xfd && byte(1) == 0x37 && byte(2) == 0x7a && byte(3) == 0x58 &&
         byte(4) == 0x5a && byte(5) == 0x00))
        return Content::Compressed;
    return head->find('\0') != std::string::npos ? Content::Binary : Content::Text;
}

void nameRef(ModuleRef &ref, std::string name)
{
    ref.name = std::move(name);
    ref.function = ModuleNames::functionOf(ref.name);
    ref.number = ModuleNames::numberOf(ref.name);
}

ModuleRef memberRef(const std::string &capture, const XPlaneModules::Module &m)
{
    ModuleRef ref;
    ref.format = ModuleFormat::CaptureMember;
    ref.path = Catalog::memberPath(capture, m.name);
    ref.files = {capture};
    ref.container = capture;
    ref.member = m.name;
    ref.bytes = m.bytes;
    nameRef(ref, m.name);
    return ref;
}

/// A capture as itself: one that cannot be listed (opening it says why), or one named alone.
ModuleRef captureRef(const std::string &capture, std::int64_t bytes)
{
    ModuleRef ref;
    ref.format = ModuleFormat::Capture;
    ref.path = capture;
    ref.files = {capture};
    ref.container = capture;
    ref.bytes = bytes;
    nameRef(ref, ModuleNames::moduleName(capture));
    return ref;
}

/// A capture's modules, each a reference of its own, from one read of the capture; a capture
/// that cannot be read lists as itself.
std::vector<ModuleRef> captureModules(const std::string &capture)
{
    std::string error;
    const std::vector<XPlaneModules::Module> modules = XPlaneModules::list(capture, &error);
    std::vector<ModuleRef> out;
    if (modules.empty()) {
        out.push_back(captureRef(capture, 0));
        return out;
    }
    for (const XPlaneModules::Module &m : modules)
        out.push_back(memberRef(capture, m));
    return out;
}

/// One file of a folder's listing.
struct Found
{
    std::string path; ///< as it is listed: the folder as given, then the name
    std::string key;  ///< its module (ModuleFiles::moduleKey)
    std::int64_t size = 0;
    bool main = false;    ///< `<stem>-buffer-assignment.txt`: the file a split module is opened by
    char separator = '-'; ///< between the stem and the suffix ('.' in renamed copies)
    int order = 0;        ///< the kind's rank: allocations, values, live ranges, proto, report
    ModuleFormat format = ModuleFormat::DumpText;
    std::vector<ModuleRef> capture; ///< a capture's modules (one Found per capture)
    std::shared_ptr<const std::vector<std::string>> texts; ///< ModuleRef::textsBeside
};

/// Where the walk of one folder may go. A symbolic link is followed only to a file or folder
/// inside the folder, and each real file or folder (by device and inode) is taken once: a
/// subfolder linked to another, or to the folder itself, lists nothing twice, and a link
/// out of the folder is not read.
class Walk
{
public:
    explicit Walk(const fs::path &folder)
    {
        std::error_code ec;
        const fs::path real = fs::canonical(folder, ec);
        m_root = ec ? std::string() : real.string();
        if (!m_root.empty() && m_root.back() != '/')
            m_root += '/';
        struct stat st
        {};
        if (::stat(folder.c_str(), &st) == 0)
            m_seen.insert({st.st_dev, st.st_ino});
    }

    /// Whether subfolder `path` (shown as `shown`) is to be listed: inside the folder (its
    /// real path, whatever part of it is a link) and not seen before; else why not is kept.
    bool admitFolder(const fs::path &path, const std::string &shown)
    {
        if (!inside(path)) {
            skip(shown, "a symbolic link out of the folder: not followed");
            return false;
        }
        if (!once(path, nullptr)) {
            skip(shown, "a link to a folder listed already (a loop): listed once");
            return false;
        }
        return true;
    }
    /// Whether module file `entry` of an admitted folder (shown as `shown`) is to be listed:
    /// not a link out of the folder, not seen before. Its size (of what a link points to)
    /// goes to `size`; why one is not is kept.
    bool admitFile(const fs::directory_entry &entry, const std::string &shown, std::int64_t *size)
    {
        std::error_code ec;
        if (entry.is_symlink(ec) && !inside(entry.path())) {
            skip(shown, "a symbolic link out of the folder: not read");
            return false;
        }
        if (!once(entry.path(), size)) {
            skip(shown, "the same file as one listed already (a link to it): listed once");
            return false;
        }
        return true;
    }
    /// A module's file that is no file to read (a dangling link, a FIFO, a device).
    void notAFile(const fs::directory_entry &entry, const std::string &shown)
    {
        std::error_code ec;
        const bool link = entry.is_symlink(ec);
        const bool dangling = link && !fs::exists(entry.path(), ec);
        skip(shown, dangling ? "a symbolic link to nothing (dangling): not read"
                             : "not a regular file (a FIFO or a device): never opened");
    }
    /// The links out of the folder (or dangling) not followed so far.
    int outside() const { return m_outside; }
    /// What the walk did not list, each with why, in the order met (at most kSkipsNamed).
    const std::vector<CatalogProblem> &skipped() const { return m_skipped; }
    std::size_t skippedCount() const { return m_skippedCount; }
    static constexpr std::size_t kSkipsNamed = 50;

private:
    bool inside(const fs::path &path)
    {
        std::error_code ec;
        const fs::path real = fs::canonical(path, ec);
        // The folder itself (a link `self` to `.`) is inside it: a loop, said as one.
        const std::string r = real.string();
        if (!ec && !m_root.empty() &&
            (r.starts_with(m_root) || r == std::string_view(m_root).substr(0, m_root.size() - 1)))
            return true;
        ++m_outside;
        return false;
    }
    bool once(const fs::path &path, std::int64_t *size)
    {
        struct stat st
        {};
        if (::stat(path.c_str(), &st) != 0)
            return false;
        if (size)
            *size = static_cast<std::int64_t>(st.st_size);
        return m_seen.insert({st.st_dev, st.st_ino}).second;
    }

    void skip(const std::string &shown, const char *why)
    {
        if (m_skippedCount++ < kSkipsNamed)
            m_skipped.push_back({shown, why});
    }

    std::vector<CatalogProblem> m_skipped;
    std::size_t m_skippedCount = 0;
    int m_outside = 0;  ///< links out of the folder (or dangling) not followed
    std::string m_root; ///< the folder's real path and a '/'; empty when it has none
    std::set<std::pair<dev_t, ino_t>> m_seen;
};

/// The module files directly in `folder` (as given: `shown`, on disk: `absolute`), with their
/// sizes. One directory read and one stat per module file, none for the other files: a dump
/// folder holds thousands of modules (and their HLO texts) and is listed on every open.
void listFolder(const std::string &shown, const fs::path &absolute, Walk &walk,
                std::vector<Found> &out)
{
    const std::size_t first = out.size();
    auto texts = std::make_shared<std::vector<std::string>>();
    std::error_code ec;
    for (fs::directory_iterator it(absolute, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name.front() == '.')
            continue;
        const bool capture = name.ends_with(kCapture);
        const ModuleFileKind *kind = capture ? nullptr : ModuleNames::kindOf(name);
        if (!capture && !kind) {
            if (name.ends_with(".txt")) // an HLO text: looked up by name, not on disk
                texts->push_back(name);
            continue;
        }
        std::error_code statError;
        if (!it->is_regular_file(statError)) {
            walk.notAFile(*it, shown + '/' + name); // a FIFO or a device is never opened
            continue;
        }
        std::int64_t size = 0;
        if (!walk.admitFile(*it, shown + '/' + name, &size))
            continue;
        Found f;
        f.path = shown + '/' + name;
        if (capture) {
            f.key = f.path;
            f.order = 3;
            f.capture = captureModules(f.path);
        } else {
            f.key = ModuleFiles::moduleKey(it->path().string());
            f.size = size;
            f.main = name.ends_with("-buffer-assignment.txt");
            f.separator = name[ModuleNames::stemOf(name).size()];
            f.order = kind->rank;
            f.format = kind->format == ModuleFileFormat::HloProto      ? ModuleFormat::HloProto
                       : kind->format == ModuleFileFormat::ReportText  ? ModuleFormat::ReportText
                       : kind->format == ModuleFileFormat::ReportProto ? ModuleFormat::ReportProto
                                                                       : ModuleFormat::DumpText;
        }
        out.push_back(std::move(f));
    }
    std::sort(texts->begin(), texts->end());
    std::shared_ptr<const std::vector<std::string>> listed = std::move(texts);
    for (std::size_t k = first; k < out.size(); ++k)
        out[k].texts = listed;
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const Found &a, const Found &b) { return a.path < b.path; });
}

/// QDir(path).path(): the path as given, without one trailing '/'.
std::string shownFolder(std::string path)
{
    if (path.empty())
        return ".";
    if (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path;
}

std::string cleaned(const std::string &path)
{
    std::string out = fs::path(path).lexically_normal().string();
    if (out.size() > 1 && out.back() == '/')
        out.pop_back();
    return out.empty() ? std::string(".") : out;
}

std::string absoluteOf(const std::string &path)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    return (ec ? fs::path(path) : absolute).lexically_normal().string();
}

/// A folder's modules, largest first, each once, into `out`.
void walkFolder(const std::string &path, std::unordered_set<std::string> &seen, Catalog &out)
{
    const std::string shown = shownFolder(path);
    const fs::path absolute(absoluteOf(path));
    std::vector<Found> found;
    Walk walk(absolute);
    listFolder(shown, absolute, walk, found);
    // Its direct subfolders (some tools write one folder per module), in name order; deeper
    // folders are not searched.
    std::vector<std::string> subfolders;
    std::error_code ec;
    for (fs::directory_iterator it(absolute, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeError;
        const std::string name = it->path().filename().string();
        if (!name.empty() && name.front() != '.' && it->is_directory(typeError))
            subfolders.push_back(name);
    }
    std::sort(subfolders.begin(), subfolders.end());
    for (const std::string &sub : subfolders)
        if (walk.admitFolder(absolute / sub, shown + '/' + sub))
            listFolder(shown + '/' + sub, absolute / sub, walk, found);
    // A profile folder as jax.profiler.trace writes it: plugins/profile/<run>/*.xplane.pb (and
    // XProf's sidecars), opened as its log folder, its `plugins/` or its `plugins/profile/`
    // alike (the last is the direct-subfolder case above).
    const bool atPlugins =
        (absolute.has_filename() ? absolute : absolute.parent_path()).filename() == "plugins";
    const fs::path runs = atPlugins ? absolute / "profile" : absolute / "plugins" / "profile";
    const std::string runsShown = shown + (atPlugins ? "/profile/" : "/plugins/profile/");
    if (fs::is_directory(runs, ec)) {
        std::vector<std::string> names;
        for (fs::directory_iterator it(runs, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_directory(ec))
                names.push_back(it->path().filename().string());
        std::sort(names.begin(), names.end());
        for (const std::string &run : names)
            if (walk.admitFolder(runs / run, runsShown + run))
                listFolder(runsShown + run, runs / run, walk, found);
    }
    // Nothing skipped unsaid: each link out, dangling link, loop and file that is no file.
    out.problems.insert(out.problems.end(), walk.skipped().begin(), walk.skipped().end());
    if (walk.skippedCount() > Walk::kSkipsNamed)
        out.problems.push_back({shown, "and " +
                                           std::to_string(walk.skippedCount() - Walk::kSkipsNamed) +
                                           " more entries not listed, for the reasons above"});
    // A capture stands for its modules.
    std::vector<Found> expanded;
    expanded.reserve(found.size());
    for (Found &f : found) {
        if (f.capture.empty()) {
            expanded.push_back(std::move(f));
            continue;
        }
        for (ModuleRef &m : f.capture) {
            Found one;
            one.path = m.path;
            one.key = m.path;
            one.size = m.bytes;
            one.order = 3;
            one.format = m.format;
            one.capture = {std::move(m)};
            expanded.push_back(std::move(one));
        }
    }
    found = std::move(expanded);
    // The main file of a split module first, so it is the one kept for the module; then a
    // binary module (it holds all a dump holds), then a lone memory-usage report.
    const auto rank = [](const Found &f) { return f.main ? 0 : f.order == 3 ? 1 : 2; };
    std::stable_sort(found.begin(), found.end(),
                     [&rank](const Found &a, const Found &b) { return rank(a) < rank(b); });
    std::vector<const Found *> kept;
    std::unordered_map<std::string, std::vector<const Found *>> byKey;
    for (const Found &f : found) {
        byKey[f.key].push_back(&f);
        if (seen.insert(f.key).second)
            kept.push_back(&f);
        else if (!f.capture.empty())
            // Two captures' members with one address (`a.xplane.pb` holding `x#y` and a file
            // `a.xplane.pb#x` holding `y`): the second cannot be named apart, and is said.
            out.problems.push_back(
                {f.path, "a module of " + f.capture.front().container +
                             " whose address is another module's: not listed (rename the "
                             "capture to open it)"});
    }
    if (kept.empty())
        out.problems.push_back(
            {path, "no buffer-assignment dumps in this folder (expected files named "
                   "*buffer-assignment.txt, *after_optimizations.hlo.pb, *.hlo_proto.pb or "
                   "*.xplane.pb)" +
                       (walk.outside() > 0 ? "; " + std::to_string(walk.outside()) +
                                                 " symbolic link(s) out of the folder not followed"
                                           : std::string())});
    // Largest modules first: they are the ones that run out of memory.
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Found *a, const Found *b) { return a->size > b->size; });
    for (const Found *f : kept) {
        if (!f->capture.empty()) {
            out.modules.push_back(f->capture.front());
            continue;
        }
        ModuleRef ref;
        ref.format = f->format;
        ref.path = f->path;
        ref.textsBeside = f->texts;
        // Its module's files: those with its separator, a report only when it is alone; a
        // proto or a report kept for its module is the only file read (no text dump here).
        std::vector<const Found *> members;
        if (f->order >= 3) {
            members = {f};
        } else {
            for (const Found *m : byKey[f->key])
                if (m->separator == f->separator && m->order < 3)
                    members.push_back(m);
            std::sort(members.begin(), members.end(),
                      [](const Found *a, const Found *b) { return a->order < b->order; });
        }
        ref.bytes = 0;
        for (const Found *m : members) {
            ref.files.push_back(m->path);
            ref.bytes += m->size;
        }
        nameRef(ref, ModuleNames::moduleName(f->path));
        out.modules.push_back(std::move(ref));
    }
}

} // namespace

bool ModuleRef::hasBeside(const std::string &folder, const std::string &file) const
{
    if (textsBeside)
        return std::binary_search(textsBeside->begin(), textsBeside->end(), file);
    std::error_code ec;
    return fs::is_regular_file(folder + file, ec);
}

std::string Catalog::memberPath(const std::string &capture, const std::string &member)
{
    return XPlaneModules::modulePath(capture, member);
}

ModuleRef Catalog::memberOf(const std::string &capture, const std::string &member)
{
    XPlaneModules::Module m;
    m.name = member;
    ModuleRef ref = memberRef(capture, m);
    ref.bytes = -1;
    return ref;
}

bool Catalog::splitMember(const std::string &path, std::string *capture, std::string *member)
{
    // Anything of that name on disk (a file, a folder such as a run `exp#1`, a link, a FIFO)
    // is itself, '#' and all: never a member of a capture `exp` beside it. Else a prefix
    // before a '#' that is a file is the capture: a member's name may hold '#' and
    // `.xplane.pb#` too, and is then looked up inside the capture, never on disk.
    {
        std::error_code ec;
        if (fs::exists(fs::symlink_status(path, ec)))
            return false;
    }
    std::vector<std::size_t> cuts; // each '#' after which the rest may be a member's name
    for (std::size_t at = path.find('#'); at != std::string::npos; at = path.find('#', at + 1))
        if (at > 0 && at + 1 < path.size() && isRegularFile(path.substr(0, at)))
            cuts.push_back(at);
    if (cuts.empty())
        return false;
    // Two files before a '#' (captures `a.xplane.pb` and `a.xplane.pb#x.xplane.pb`): the
    // member is the one of the capture that holds a module of that name, the shorter first as
    // the catalog lists it; only then is a capture's index read.
    std::size_t chosen = cuts.front();
    if (cuts.size() > 1)
        for (const std::size_t at : cuts) {
            std::string error;
            const std::string name = path.substr(at + 1);
            const std::vector<XPlaneModules::Module> held =
                XPlaneModules::list(path.substr(0, at), &error);
            if (std::any_of(held.begin(), held.end(),
                            [&name](const XPlaneModules::Module &m) { return m.name == name; })) {
                chosen = at;
                break;
            }
        }
    *capture = path.substr(0, chosen);
    *member = path.substr(chosen + 1);
    return true;
}

ModuleRef Catalog::refOf(const std::string &path)
{
    std::string capture;
    std::string member;
    if (splitMember(path, &capture, &member)) {
        ModuleRef ref = memberOf(capture, member);
        ref.path = path;
        return ref;
    }
    ModuleRef ref;
    ref.path = path;
    ref.files = {path};
    nameRef(ref, ModuleNames::moduleName(path));
    if (!isRegularFile(path))
        return ref; // missing, a folder, a FIFO: its reader says which, without opening it
    if (path.ends_with(kCapture)) {
        ref = captureRef(path, -1);
        return ref;
    }
    const std::string_view name = ModuleNames::baseName(path);
    if (const ModuleFileKind *kind = ModuleNames::kindOf(name)) {
        switch (kind->format) {
        case ModuleFileFormat::DumpText:
            ref.files = ModuleFiles::siblings(path);
            return ref;
        case ModuleFileFormat::HloProto:
            ref.format = ModuleFormat::HloProto;
            return ref;
        case ModuleFileFormat::ReportText:
        case ModuleFileFormat::ReportProto: {
            // XLA's memory-usage report is not a dump: its module's dump, when it is beside it,
            // is read in its place and the report checked against it.
            const std::vector<std::string> dump = ModuleFiles::siblings(path);
            if (dump.size() == 1 && dump.front() == path) {
                ref.format = kind->format == ModuleFileFormat::ReportText
                                 ? ModuleFormat::ReportText
                                 : ModuleFormat::ReportProto;
                return ref;
            }
            ref.files = dump;
            ref.report = path;
            return ref;
        }
        }
    }
    // A name that says nothing: the first bytes decide. A `.txt` or `.log` says text: the
    // text reader says what is wrong with one that holds other bytes.
    std::string head;
    Content content = sniff(path, &head);
    if (content != Content::Unreadable && (name.ends_with(".txt") || name.ends_with(".log")))
        content = Content::Text;
    switch (content) {
    case Content::Compressed:
        ref.format = ModuleFormat::HloProto; // tools keep HloProtos compressed
        return ref;
    case Content::Binary: {
        std::string error;
        if (!XPlaneModules::list(path, &error).empty())
            return captureRef(path, -1);
        ref.format = ModuleFormat::HloProto;
        return ref;
    }
    case Content::Text:
        if (MemoryUsageReports::looksLike(head))
            ref.format = ModuleFormat::ReportText;
        return ref;
    case Content::Unreadable:
        return ref;
    }
    return ref;
}

FileKind Catalog::kindOf(const std::string &path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!ec && fs::is_directory(status))
        return FileKind::Folder;
    if (ec || !fs::is_regular_file(status))
        return FileKind::Dump; // the load says what it is (missing, a FIFO, …)
    const ModuleRef ref = refOf(path);
    if (ref.isReport())
        return FileKind::MemoryUsageReport;
    if (ref.format != ModuleFormat::DumpText || ModuleNames::kindOf(ModuleNames::baseName(path)))
        return FileKind::Dump;
    MappedFile file;
    std::string error;
    if (file.open(path, error) && OomLog::looksLike(file.data()))
        return FileKind::OomLog;
    return FileKind::Dump;
}

const char *Catalog::kindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Folder:
        return "folder";
    case FileKind::Dump:
        return "dump";
    case FileKind::MemoryUsageReport:
        return "memory-usage report";
    case FileKind::OomLog:
        return "out-of-memory log";
    }
    return "?";
}

bool Catalog::isRun(const std::string &path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec)
        return false;
    if (fs::is_directory(status))
        return true;
    if (!fs::is_regular_file(status) || refOf(path).format != ModuleFormat::Capture)
        return false;
    std::string error;
    return XPlaneModules::list(path, &error).size() > 1;
}

Catalog Catalog::of(const std::vector<std::string> &paths, Split split)
{
    Catalog out;
    std::unordered_set<std::string> seen; // one entry per module (the 2026 split has three files)
    for (const std::string &path : paths) {
        std::error_code ec;
        const FileKind kind = split == Split::ByKind       ? kindOf(path)
                              : fs::is_directory(path, ec) ? FileKind::Folder
                                                           : FileKind::Dump;
        switch (kind) {
        case FileKind::OomLog:
            out.logs.push_back(path);
            continue;
        case FileKind::MemoryUsageReport:
            out.reports.push_back(refOf(path));
            continue;
        case FileKind::Folder:
            out.runs.push_back(path);
            walkFolder(path, seen, out);
            continue;
        case FileKind::Dump:
            break;
        }
        ModuleRef ref = refOf(path);
        if (ref.format == ModuleFormat::Capture) {
            // A capture stands for its modules, largest first.
            out.runs.push_back(path);
            std::vector<ModuleRef> members = captureModules(cleaned(path));
            std::stable_sort(
                members.begin(), members.end(),
                [](const ModuleRef &a, const ModuleRef &b) { return a.bytes > b.bytes; });
            for (ModuleRef &m : members)
                if (seen.insert(m.path).second)
                    out.modules.push_back(std::move(m));
            continue;
        }
        if (!seen.insert(ModuleFiles::moduleKey(absoluteOf(path))).second)
            continue;
        ref.bytes = -1; // given by name: not measured
        out.modules.push_back(std::move(ref));
    }
    // A folder whose only module is a lone memory-usage report is that report.
    if (split == Split::ByKind && out.modules.size() == 1 && out.modules.front().isReport()) {
        out.reports.push_back(std::move(out.modules.front()));
        out.modules.clear();
    }
    return out;
}

} // namespace bufferscope
