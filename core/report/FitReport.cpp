#include "FitReport.h"

#include "model/Dump.h"
#include "report/JsonWriter.h"
#include "report/detail/TextColumns.h"
#include "util/SafeText.h"

#include <cstdio>
#include <utility>

namespace bufferscope {

namespace {

using report_detail::pad;
using report_detail::padLeft;

std::string verdict(std::int64_t headroom, bool truncated)
{
    if (headroom < 0)
        return "OVER by " + humanBytes(-headroom) + (truncated ? " or more (dump cut short)" : "");
    return truncated ? "unknown: its dump is cut short, it may need more"
                     : "headroom " + humanBytes(headroom);
}

} // namespace

std::vector<std::string> FitReport::apart(const std::vector<std::int64_t> &sizes)
{
    std::vector<std::string> out;
    out.reserve(sizes.size());
    for (const std::int64_t b : sizes)
        out.push_back(humanBytes(b));
    std::vector<bool> exact(sizes.size(), false);
    for (std::size_t i = 0; i < sizes.size(); ++i)
        for (std::size_t j = i + 1; j < sizes.size(); ++j)
            if (out[i] == out[j] && sizes[i] != sizes[j])
                exact[i] = exact[j] = true;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        if (exact[i])
            out[i] += " (" + std::to_string(sizes[i]) + " B)";
    return out;
}

namespace {} // namespace

std::string FitReport::text(const DeviceFit &fit, const std::vector<DeviceFit::Module> &modules,
                            const std::string &limitSource)
{
    std::string out;
    auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text);
        out += '\n';
    };
    line("BufferScope device fit: " + std::to_string(modules.size()) +
         (modules.size() == 1 ? " module" : " modules") + " on one device");
    line("  limit         " + humanBytes(fit.limit) + " (" + std::to_string(fit.limit) + " B" +
         (limitSource.empty() ? std::string() : ", " + limitSource) + ")");
    line("  resident      " + fit.resident.describe());
    if (fit.constantsLoaded > 0)
        line("  constants     " + humanBytes(fit.constantsLoaded) +
             " (every module's, held while the executables are loaded)");
    line();
    std::size_t nameWidth = 6;
    for (const auto &m : modules)
        nameWidth = std::max(nameWidth, std::min<std::size_t>(m.name.size(), 60));
    bool anyTpu = false;
    for (const DeviceFit::Row &r : fit.rows)
        anyTpu = anyTpu || r.compileCheck;
    // TPU: the compiler's check of the temporaries alone, before the run-time verdict.
    const auto tempCheck = [&](std::size_t i) -> std::string {
        if (!anyTpu)
            return {};
        const DeviceFit::Row &r = fit.rows[i];
        if (!r.compileCheck)
            return pad("-", 22) + "  ";
        return pad(r.tempHeadroom < 0 ? "OVER by " + humanBytes(-r.tempHeadroom)
                                      : "headroom " + humanBytes(r.tempHeadroom),
                   22) +
               "  ";
    };
    line(pad("module", nameWidth) + "  " + padLeft("resident", 10) + "  " +
         padLeft("allocates", 10) + "  " + padLeft("held", 10) + "  " + padLeft("on device", 10) +
         "  " + padLeft("live peak", 10) + "  " +
         (anyTpu ? pad("temp (compile, TPU)", 22) + "  " : std::string()) + "on device (run)");
    for (std::size_t i = 0; i < modules.size(); ++i) {
        const DeviceFit::Row &r = fit.rows[i];
        std::string name = modules[i].name;
        if (name.size() > 60)
            name = name.substr(0, 59) + "…";
        line(pad(name, nameWidth) + "  " + padLeft(humanBytes(r.resident), 10) + "  " +
             padLeft(humanBytes(r.allocated), 10) + "  " +
             padLeft(humanBytes(modules[i].analysis.device.held()), 10) + "  " +
             padLeft(humanBytes(r.device), 10) + "  " +
             padLeft(modules[i].livePeak >= 0 ? humanBytes(modules[i].livePeak) : "-", 10) + "  " +
             tempCheck(i) + verdict(r.headroom, modules[i].truncated) +
             (static_cast<int>(i) == fit.limiting && modules.size() > 1
                  ? "  (the most on the device)"
                  : ""));
    }
    line();
    line("  resident: what is on the device before it starts (its arguments among it);");
    line("  allocates: outputs - donated + temp, made at full size when it starts;");
    line("  held: XLA's argument + output - alias + temp, as list and report give it;");
    line("  on device: resident + allocates + every module's constants, while it runs");
    line("  (held, plus the constants and any resident beyond its arguments);");
    line("  live peak: the most live bytes at one step, inside what it holds;");
    if (anyTpu) {
        line("  temp (compile, TPU): the temporaries alone (temp) against the limit, the");
        line("  compiler's own check: past it XLA:TPU aborts the compile (libtpu since");
        line("  2026-05-22: 'the total memory required for HLO temporaries exceeds available");
        line("  HBM');");
    }
    line("  on device (run): what the device holds while it runs, against the limit: what");
    line("  the runtime allocates from (GPU: the allocator's limit; TPU: the HBM it gives).");
    for (std::size_t i = 0; i < modules.size(); ++i) {
        if (fit.rows[i].residentBelowArguments)
            line("  note: " + modules[i].name + "'s arguments (" +
                 humanBytes(modules[i].analysis.device.argument) +
                 ") are more than the resident given; counted as its arguments");
        if (fit.rows[i].host > 0)
            line("  note: " + modules[i].name + " also holds " + humanBytes(fit.rows[i].host) +
                 " of host memory (S(5)), not counted against the device");
    }
    line();
    if (fit.compileAborts >= 0) {
        const std::size_t i = static_cast<std::size_t>(fit.compileAborts);
        const std::int64_t temp = modules[i].analysis.device.temp;
        const std::vector<std::string> said = apart({temp, -fit.rows[i].tempHeadroom, fit.limit});
        std::size_t more = 0;
        for (std::size_t k = i + 1; k < modules.size(); ++k)
            more += fit.rows[k].compileCheck && fit.rows[k].tempHeadroom < 0;
        line("Does not compile: " + modules[i].name + "'s temporaries, " + said[0] + ", are " +
             said[1] + " over the limit of " + said[2] +
             ": XLA:TPU aborts its compile before anything runs" +
             (more == 0 ? std::string(".")
                        : "; so do " + std::to_string(more) + " more (see the table)."));
    }
    if (fit.limiting >= 0) {
        const std::string who = modules[static_cast<std::size_t>(fit.limiting)].name;
        const std::int64_t gap = fit.fits() ? fit.limit - fit.peak : fit.peak - fit.limit;
        const std::vector<std::string> said = apart({fit.peak, gap, fit.limit});
        const std::string figures = said[0] + " on the device while " + who + " runs, " + said[1] +
                                    (fit.fits() ? " under" : " over") + " the limit of " + said[2] +
                                    ".";
        const DeviceFit::Row &limitingRow = fit.rows[static_cast<std::size_t>(fit.limiting)];
        if (!fit.fits() && limitingRow.compileCheck && limitingRow.tempHeadroom >= 0)
            line("Does not fit at run time: " + figures + " (Its temporaries alone fit: it " +
                 "compiles, then fails to load or run.)");
        else if (!fit.fits())
            line("Does not fit: " + figures);
        else if (!fit.certain)
            line("Cannot tell: " + figures +
                 " A module's dump is cut short, so it may need more than it lists.");
        else
            line("Fits: " + figures);
    }
    return out;
}

std::string FitReport::json(const DeviceFit &fit, const std::vector<DeviceFit::Module> &modules,
                            const std::string &limitSource, const DeviceFit::Limit &named)
{
    JsonWriter w;
    w.beginObject();
    w.key("limit_bytes").value(fit.limit);
    w.key("limit_source").value(limitSource);
    // A named device: its memory as its maker states it, and the GPU allocator's share of it
    // that the limit is (null where the limit is the device's memory, or was not named).
    w.key("limit_device");
    if (named.device.empty())
        w.null();
    else
        w.value(named.device);
    w.key("device_memory_bytes");
    if (named.device.empty())
        w.null();
    else
        w.value(named.memory);
    w.key("gpu_mem_fraction");
    if (named.fraction > 0)
        w.value(named.fraction);
    else
        w.null();
    w.key("resident").beginObject();
    w.key("arguments").value(fit.resident.arguments);
    w.key("fixed_bytes").value(fit.resident.fixed);
    w.endObject();
    w.key("constants_loaded_bytes").value(fit.constantsLoaded);
    w.key("modules").beginArray();
    for (std::size_t i = 0; i < modules.size(); ++i) {
        const DeviceFit::Module &m = modules[i];
        const DeviceFit::Row &r = fit.rows[i];
        w.beginObject();
        w.key("module").value(m.name);
        w.key("file").value(m.file);
        w.key("argument_size_in_bytes").value(m.analysis.device.argument);
        w.key("output_size_in_bytes").value(m.analysis.device.output);
        w.key("alias_size_in_bytes").value(m.analysis.device.alias);
        w.key("temp_size_in_bytes").value(m.analysis.device.temp);
        w.key("constant_bytes").value(m.analysis.device.constant);
        w.key("resident_bytes").value(r.resident);
        w.key("allocated_bytes").value(r.allocated);
        // held: XLA's argument + output - alias + temp, as in `list` and `report`; on device:
        // what the device holds while it runs (resident + allocates + constants).
        w.key("held_bytes").value(m.analysis.device.held());
        w.key("on_device_bytes").value(r.device);
        w.key("headroom_bytes").value(r.headroom);
        w.key("truncated").value(m.truncated);
        w.key("fits");
        if (m.truncated && r.headroom >= 0)
            w.null();
        else
            w.value(r.headroom >= 0);
        w.key("live_peak_bytes").value(m.livePeak);
        w.key("host_held_bytes").value(r.host);
        w.key("platform").value(std::string(platformName(m.platform)));
        // Each rule the platform applies: the figure it compares, with the limit.
        w.key("checks").beginArray();
        if (r.compileCheck) {
            w.beginObject();
            w.key("check").value("compile_time");
            w.key("rule").value("XLA:TPU aborts the compile when the temporaries alone exceed "
                                "the HBM available");
            w.key("figure").value("temp_size_in_bytes");
            w.key("bytes").value(m.analysis.device.temp);
            w.key("limit_bytes").value(fit.limit);
            w.key("headroom_bytes").value(r.tempHeadroom);
            w.key("fits").value(r.tempHeadroom >= 0);
            w.endObject();
        }
        w.beginObject();
        w.key("check").value("run_time");
        w.key("rule").value(m.platform == Platform::Tpu
                                ? "what the device holds while it runs against the HBM the "
                                  "runtime gives"
                                : "what the device holds while it runs against the "
                                  "allocator's limit");
        w.key("figure").value("on_device_bytes");
        w.key("bytes").value(r.device);
        w.key("limit_bytes").value(fit.limit);
        w.key("headroom_bytes").value(r.headroom);
        w.key("fits");
        if (m.truncated && r.headroom >= 0)
            w.null();
        else
            w.value(r.headroom >= 0);
        w.endObject();
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("limiting_module");
    if (fit.limiting >= 0)
        w.value(modules[static_cast<std::size_t>(fit.limiting)].name);
    else
        w.null();
    w.key("device_peak_bytes").value(fit.peak);
    w.key("compile_aborts_module");
    if (fit.compileAborts >= 0)
        w.value(modules[static_cast<std::size_t>(fit.compileAborts)].name);
    else
        w.null();
    w.key("fits");
    if (fit.fits() && !fit.certain)
        w.null(); // a module's dump is cut short: not known
    else
        w.value(fit.fits());
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
