#include "Commands.h"
#include "DumpFiles.h"
#include "LoadedDump.h"
#include "Output.h"
#include "analysis/MemoryAnalysis.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ModuleFiles.h"
#include "report/JsonWriter.h"
#include "util/Parallel.h"
#include "util/SafeText.h"
#include "util/Stopwatch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace bufferscope {

using cli::fail;

int runList(const Args &args, int threads)
{
    const bool json = args.isSet("json");
    if (args.positional().size() > 1)
        return fail(QStringLiteral("list takes one DIR"), 1);
    const QString dir = args.positional().value(0);
    if (dir.isEmpty())
        return fail(QStringLiteral("list needs a DIR (an --xla_dump_to folder)\n") +
                        cli::usageOf(u"list"),
                    1);
    // A folder, or a profiler capture (its modules, named `capture#NAME`).
    const bool capture =
        pathIsFile(dir) && Catalog::refOf(pathBytes(dir)).format == ModuleFormat::Capture;
    if (!pathIsDir(dir) && !capture)
        return fail(dir + (pathExists(dir)
                               ? QStringLiteral(": is neither a folder nor a profiler capture")
                               : QStringLiteral(": no such folder")),
                    2);
    const Stopwatch clock;
    const DumpFiles found = DumpFiles::collect({dir});
    spdlog::debug("list: {} modules found in {:.3f} s", found.files.size(), clock.seconds());
    struct Entry
    {
        QString file;
        std::string module;
        std::vector<std::string> files;
        std::string capture; ///< a member's capture, named from the folder (a folder's listing)
        ModuleFigures figures;
    };
    const std::size_t count = static_cast<std::size_t>(found.files.size());
    std::vector<Entry> entries(count);
    const QString prefix = (capture ? QFileInfo(dir).path() : QDir(dir).path()) + QLatin1Char('/');
    for (std::size_t i = 0; i < count; ++i) {
        const auto at = static_cast<qsizetype>(i);
        entries[i].file = found.files[at];
        entries[i].module = found.refs[i].name;
        // Two captures in one folder may hold modules of one name: each is said with its own.
        const std::string container = found.refs[i].container;
        if (!capture && found.refs[i].format == ModuleFormat::CaptureMember) {
            const QString c = pathFromBytes(container);
            entries[i].capture = (c.startsWith(prefix) ? c.mid(prefix.size()) : c).toStdString();
        }
        // The module's files as the folder listing found them, named from the folder.
        for (const QString &f : found.members[at])
            entries[i].files.push_back(
                (f.startsWith(prefix) ? f.mid(prefix.size()) : f).toStdString());
    }
    keepHeapBetweenLoads();
    // The Modules dock's scan, on the threads it uses.
    std::atomic<std::size_t> done{0};
    std::mutex progressLock;
    const bool tty = ::isatty(fileno(stderr));
    ModuleFigures::readEach(found.refs, threads, nullptr,
                            [&](std::size_t i, ModuleFigures figures) {
                                entries[i].figures = std::move(figures);
                                const std::size_t n = done.fetch_add(1) + 1;
                                if (tty) {
                                    const std::lock_guard<std::mutex> hold(progressLock);
                                    std::fprintf(stderr, "\rread %zu/%zu\033[K", n, count);
                                }
                            });
    spdlog::debug("list: read in {:.3f} s", clock.seconds());
    int status = 0;
    for (const Entry &e : entries)
        if (e.figures.status != ModuleFigures::Status::Read)
            status = 2;
    if (tty && !entries.empty())
        std::fprintf(stderr, "\r\033[K");
    // The Modules dock's ranking (ModuleFigures::ranksAbove).
    std::sort(entries.begin(), entries.end(), [](const Entry &x, const Entry &y) {
        return ModuleFigures::ranksAbove(x.figures, x.file, y.figures, y.file);
    });
    std::string out;
    if (json) {
        JsonWriter w;
        w.beginArray();
        for (const Entry &e : entries) {
            w.beginObject();
            w.key("module").value(e.module);
            w.key("files").beginArray();
            for (const std::string &f : e.files)
                w.value(f);
            w.endArray();
            const ModuleFigures &f = e.figures;
            const bool read = f.status == ModuleFigures::Status::Read;
            w.key("total_bytes").value(read ? std::int64_t{f.total} : std::int64_t{0});
            if (read && !f.reportOnly) {
                // The names of XLA's CompiledMemoryStats (JAX's memory_analysis()).
                w.key("held_bytes").value(f.analysis.device.held());
                w.key("argument_size_in_bytes").value(f.analysis.device.argument);
                w.key("output_size_in_bytes").value(f.analysis.device.output);
                w.key("alias_size_in_bytes").value(f.analysis.device.alias);
                w.key("temp_size_in_bytes").value(f.analysis.device.temp);
                w.key("host_held_bytes").value(f.analysis.host.held());
            } else {
                w.key("held_bytes").null();
            }
            w.key("peak_step").value(read ? std::int64_t{f.step} : std::int64_t{-1});
            w.key("peak_bytes").value(read ? std::int64_t{f.peak} : std::int64_t{0});
            if (!read)
                w.key("error").value(f.error.toStdString());
            w.endObject();
        }
        // What the listing skipped (a link out of the folder, a dangling link, a loop, a
        // member at another's address), with the fields of an unreadable module and why.
        for (const OpenProblem &p : found.problems) {
            w.beginObject();
            w.key("module").null();
            w.key("files").beginArray();
            const QString path = p.path.startsWith(prefix) ? p.path.mid(prefix.size()) : p.path;
            w.value(pathBytes(path));
            w.endArray();
            w.key("total_bytes").value(std::int64_t{0});
            w.key("held_bytes").null();
            w.key("peak_step").value(std::int64_t{-1});
            w.key("peak_bytes").value(std::int64_t{0});
            w.key("skipped").value(true);
            w.key("error").value(p.message.toStdString());
            w.endObject();
        }
        w.endArray();
        out = w.str() + "\n";
    } else {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%-12s %-12s %-12s %8s  %s\n", "held", "total", "live peak",
                      "at step", "module (files)");
        out += buf;
        for (const Entry &e : entries) {
            const ModuleFigures &f = e.figures;
            if (f.status != ModuleFigures::Status::Read) {
                out += "(unreadable)                                    " +
                       safetext::forTerminal(e.module) + ": " +
                       safetext::forTerminal(f.error.toStdString()) + "\n";
                continue;
            }
            // No peak (no live ranges, or only the memory-usage report): a dash, not 0B.
            const bool peak = f.step >= 0;
            std::snprintf(buf, sizeof buf, "%-12s %-12s %-12s %8s  %s",
                          f.reportOnly ? "-" : humanBytes(f.held).c_str(),
                          humanBytes(f.total).c_str(), peak ? humanBytes(f.peak).c_str() : "-",
                          peak ? std::to_string(f.step).c_str() : "-",
                          safetext::forTerminal(e.module).c_str());
            out += buf;
            if (!e.capture.empty())
                out += " (in " + safetext::forTerminal(e.capture) + ")";
            if (e.files.size() > 1)
                out += " (" + std::to_string(e.files.size()) + " files)";
            out += "\n";
        }
        out += std::to_string(entries.size()) + " modules in " +
               safetext::forTerminal(pathBytes(dir)) +
               "; held: what the device holds while it runs (argument + output - alias + temp); "
               "live peak: the most live on the device at one step (every memory space but the "
               "host's)\n";
    }
    for (const OpenProblem &p : found.problems)
        cli::fail(p.text(), 0);
    if (entries.empty())
        return 2; // the problems said why; no empty table after them
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    std::vector<std::string> unread;
    for (const Entry &e : entries)
        if (e.figures.status != ModuleFigures::Status::Read)
            unread.push_back(e.figures.error.toStdString());
    cli::sayNotRead(unread);
    return status;
}

} // namespace bufferscope
