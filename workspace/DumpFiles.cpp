#include "DumpFiles.h"

#include "parse/ModuleFiles.h"
#include "parse/XPlaneModules.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

namespace bufferscope {

namespace {

struct Found
{
    QString path; ///< as it is listed: the folder as given, then the name
    std::string key;
    qint64 size = 0;
    bool main = false;    ///< `<stem>-buffer-assignment.txt`: the file a split module is opened by
    char separator = '-'; ///< between the stem and the suffix ('.' in renamed copies)
    int order = 0;        ///< among a module's files: allocations, values, live ranges, report
};

/// A profiler capture's modules, each a Found of its own (`capture#NAME`), its size the
/// module's proto. A capture that cannot be read lists as itself: opening it says why.
void captureModules(const QString &capture, std::vector<Found> &out)
{
    std::string error;
    const std::vector<XPlaneModules::Module> modules =
        XPlaneModules::list(capture.toStdString(), &error);
    if (modules.empty()) {
        Found f;
        f.path = capture;
        f.key = capture.toStdString();
        f.order = 3;
        out.push_back(std::move(f));
        return;
    }
    for (const XPlaneModules::Module &m : modules) {
        Found f;
        f.path = QString::fromStdString(XPlaneModules::modulePath(capture.toStdString(), m.name));
        f.key = f.path.toStdString();
        f.size = m.bytes;
        f.order = 3;
        out.push_back(std::move(f));
    }
}

/// The dump files directly in `folder` (as given: `shown`, absolute: `absolute`), with their
/// sizes. One directory read and one stat per dump file, none for the other files: a dump
/// folder holds thousands of modules (and their HLO texts) and is listed on every open.
void listFolder(const QString &shown, const std::filesystem::path &absolute,
                std::vector<Found> &out)
{
    namespace fs = std::filesystem;
    const std::size_t first = out.size();
    std::error_code ec;
    for (fs::directory_iterator it(absolute, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name.front() != '.' && XPlaneModules::isCaptureName(name)) {
            captureModules(shown + QLatin1Char('/') + QString::fromStdString(name), out);
            continue;
        }
        if (name.empty() || name.front() == '.' || !ModuleFiles::isDumpName(name))
            continue;
        std::error_code statError;
        if (!it->is_regular_file(statError))
            continue;
        const std::uintmax_t size = it->file_size(statError);
        Found f;
        f.path = shown + QLatin1Char('/') + QString::fromStdString(name);
        f.key = ModuleFiles::moduleKey(it->path().string());
        f.size = statError ? 0 : static_cast<qint64>(size);
        f.main = name.ends_with("-buffer-assignment.txt");
        f.separator = name[ModuleFiles::stemOf(name).size()];
        f.order = ModuleFiles::kindOf(name)->rank;
        out.push_back(std::move(f));
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const Found &a, const Found &b) { return a.path < b.path; });
}

} // namespace

bool DumpFiles::isRun(const QString &path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path.toStdString(), ec);
    if (ec)
        return false;
    if (fs::is_directory(status))
        return true;
    if (!fs::is_regular_file(status) || !XPlaneModules::isCaptureName(path.toStdString()))
        return false;
    std::string error;
    return XPlaneModules::list(path.toStdString(), &error).size() > 1;
}

DumpFiles DumpFiles::collect(const QStringList &paths)
{
    namespace fs = std::filesystem;
    DumpFiles out;
    std::unordered_set<std::string>
        modules; // one entry per module (the 2026 split has three files)
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (!info.isDir() && XPlaneModules::isCaptureName(path.toStdString())) {
            std::vector<Found> found;
            captureModules(QDir::cleanPath(path), found);
            std::stable_sort(found.begin(), found.end(),
                             [](const Found &a, const Found &b) { return a.size > b.size; });
            for (const Found &f : found)
                if (modules.insert(f.key).second) {
                    out.files << f.path;
                    out.members << QStringList{f.path};
                    out.bytes << f.size;
                }
            continue;
        }
        if (!info.isDir()) {
            if (modules.insert(ModuleFiles::moduleKey(info.absoluteFilePath().toStdString()))
                    .second) {
                out.files << info.filePath();
                out.members << QStringList();
                out.bytes << -1;
            }
            continue;
        }
        // The folder's files, then those of its direct subfolders (some tools write one folder
        // per module); deeper folders are not searched. Subfolders in name order.
        const QString shown = QDir(path).path();
        const fs::path absolute = fs::path(info.absoluteFilePath().toStdString());
        std::vector<Found> found;
        listFolder(shown, absolute, found);
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
            listFolder(shown + QLatin1Char('/') + QString::fromStdString(sub), absolute / sub,
                       found);
        // A profile folder as jax.profiler.trace writes it: plugins/profile/<run>/*.xplane.pb.
        const fs::path runs = absolute / "plugins" / "profile";
        if (fs::is_directory(runs, ec)) {
            std::vector<std::string> names;
            for (fs::directory_iterator it(runs, ec), end; !ec && it != end; it.increment(ec))
                if (it->is_directory(ec))
                    names.push_back(it->path().filename().string());
            std::sort(names.begin(), names.end());
            for (const std::string &run : names)
                listFolder(shown + QStringLiteral("/plugins/profile/") +
                               QString::fromStdString(run),
                           runs / run, found);
        }
        // The main file of a split module first, so it is the one kept for the module; then
        // a binary module (it holds all a dump holds), then a lone memory-usage report.
        const auto rank = [](const Found &f) { return f.main ? 0 : f.order == 3 ? 1 : 2; };
        std::stable_sort(found.begin(), found.end(),
                         [&rank](const Found &a, const Found &b) { return rank(a) < rank(b); });
        std::vector<const Found *> kept;
        std::unordered_map<std::string, std::vector<const Found *>> byKey;
        for (const Found &f : found) {
            byKey[f.key].push_back(&f);
            if (modules.insert(f.key).second)
                kept.push_back(&f);
        }
        if (kept.empty())
            out.problems << OpenProblem{
                path, QStringLiteral("no buffer-assignment dumps in this folder "
                                     "(expected files named *buffer-assignment.txt, "
                                     "*after_optimizations.hlo.pb, *.hlo_proto.pb or "
                                     "*.xplane.pb)")};
        // Largest modules first: they are the ones that run out of memory.
        std::stable_sort(kept.begin(), kept.end(),
                         [](const Found *a, const Found *b) { return a->size > b->size; });
        for (const Found *f : kept) {
            out.files << f->path;
            // Its module's files: those with its separator, a report only when it is alone.
            std::vector<const Found *> members;
            for (const Found *m : byKey[f->key])
                if (m->separator == f->separator && (m->order < 3 || m == f))
                    members.push_back(m);
            std::sort(members.begin(), members.end(),
                      [](const Found *a, const Found *b) { return a->order < b->order; });
            if (f->order >= 3)
                members = {f}; // a proto or a report kept for its module: no text dump here
            QStringList files;
            qint64 bytes = 0;
            for (const Found *m : members) {
                files << m->path;
                bytes += m->size;
            }
            out.members << files;
            out.bytes << bytes;
        }
    }
    return out;
}

} // namespace bufferscope
