#include "report/RunSummaryReport.h"

#include "model/Dump.h"
#include "report/JsonWriter.h"
#include "report/detail/TextColumns.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace bufferscope {

namespace {

using Module = RunSummary::Module;
using report_detail::pad;
using report_detail::padLeft;

std::string sizeOrDash(std::int64_t bytes)
{
    return bytes >= 0 ? humanBytes(bytes) : std::string("-");
}

/// `/home/u/proj/model.py:412` → `model.py:412`.
std::string shortSource(const std::string &source)
{
    const std::size_t slash = source.rfind('/');
    return slash == std::string::npos ? source : source.substr(slash + 1);
}

std::vector<std::size_t> largestModules(const RunSummary &s, std::size_t top)
{
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < s.modules.size(); ++i)
        if (s.modules[i].read)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&s](std::size_t a, std::size_t b) {
        return s.modules[a].held > s.modules[b].held;
    });
    if (order.size() > top)
        order.resize(top);
    return order;
}

/// "held by category: weights 1.00GiB, optimizer_state 2.00GiB, …": the largest compile's
/// categories that hold something, the most first.
std::string categoriesText(const Module &m)
{
    if (!m.categorized)
        return {};
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < kCategoryCount; ++c)
        if (m.categoryHeld[c] > 0)
            order.push_back(c);
    std::stable_sort(order.begin(), order.end(), [&m](std::size_t a, std::size_t b) {
        return m.categoryHeld[a] > m.categoryHeld[b];
    });
    std::string out;
    for (std::size_t c : order)
        out += (out.empty() ? "" : ", ") + std::string(categoryName(static_cast<Category>(c))) +
               " " + humanBytes(m.categoryHeld[c]);
    return out.empty()
               ? out
               : (m.training ? "a training step; held by category: " : "held by category: ") + out;
}

std::size_t unreadable(const RunSummary &s)
{
    return static_cast<std::size_t>(
        std::count_if(s.modules.begin(), s.modules.end(), [](const Module &m) { return !m.read; }));
}

} // namespace

std::vector<std::string> RunSummaryReport::runtimeLines(const RuntimeMemory &runtime)
{
    std::vector<std::string> out;
    for (const RuntimeAllocator &a : runtime.allocators) {
        char at[64];
        std::snprintf(at, sizeof at, "%.6f ms", static_cast<double>(a.peakTimePs) / 1e9);
        out.push_back(a.name + ": peak " + humanBytes(a.peakBytes) + " at " + at + " of " +
                      humanBytes(a.capacityBytes) + " (" + std::to_string(a.allocations) +
                      " allocations, " + std::to_string(a.deallocations) + " deallocations)");
    }
    return out;
}

std::string RunSummaryReport::text(const RunSummary &s, const std::string &folder, std::size_t top,
                                   const RuntimeMemory *runtime)
{
    std::string out;
    const auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text);
        out += '\n';
    };
    line("BufferScope run summary: " + folder);
    line(
        "  " + std::to_string(s.modules.size()) + " modules, " + std::to_string(s.families.size()) +
        " functions" +
        (unreadable(s) ? ", " + std::to_string(unreadable(s)) + " unreadable" : std::string()) +
        (s.skipped.empty() ? std::string() : ", " + std::to_string(s.skipped.size()) + " skipped"));
    line("  held: argument + output - alias + temp, what the device holds while a module runs");
    line();
    line("Functions (the most held first)");
    line("  " + pad("function", 36) + padLeft("compiles", 9) + padLeft("held max", 12) +
         padLeft("held sum", 12) + padLeft("live peak", 12));
    for (std::size_t i = 0; i < s.families.size() && i < top; ++i) {
        const RunSummary::Family &f = s.families[i];
        std::string name = f.label.size() > 35 ? f.label.substr(0, 34) + "…" : f.label;
        line("  " + pad(name, 36) + padLeft(std::to_string(f.modules.size()), 9) +
             padLeft(humanBytes(f.heldMax), 12) + padLeft(humanBytes(f.heldSum), 12) +
             padLeft(sizeOrDash(f.peakMax), 12));
        if (!f.why.empty())
            line("      " + f.why);
        if (const std::string kinds = categoriesText(s.modules[f.largest]); !kinds.empty())
            line("      " + kinds);
    }
    if (s.families.size() > top)
        line("  … " + std::to_string(s.families.size() - top) + " more (--top N)");
    for (const std::string &shared : s.sharedNames)
        line("  note: " + shared + "; each is its own function above");
    line();
    line("Largest modules");
    for (const std::size_t i : largestModules(s, top)) {
        const Module &m = s.modules[i];
        line("  " + padLeft(humanBytes(m.held), 10) + "  " + padLeft(sizeOrDash(m.livePeak), 10) +
             "  " + m.name);
    }
    line();
    if (s.collectives.empty()) {
        line("Collectives: none in these modules");
    } else {
        line("Largest collective buffers");
        for (const RunSummary::CollectiveRow &c : s.collectives)
            line("  " + padLeft(humanBytes(c.collective.bytes), 10) + "  " +
                 pad(c.collective.opcode, 25) + " " + c.collective.instruction + "  in " +
                 s.modules[c.module].function +
                 (s.modules[c.module].number.empty() ? ""
                                                     : " (" + s.modules[c.module].number + ")") +
                 (c.collective.source.empty() ? "" : "  at " + shortSource(c.collective.source)));
    }
    for (const Module &m : s.modules)
        if (!m.read)
            line("  unreadable: " + m.name + ": " + m.error);
    for (const RunSummary::Skipped &k : s.skipped)
        line("  skipped: " + k.path + ": " + k.why);
    if (runtime && !runtime->allocators.empty()) {
        line();
        line("What the runtime held (the capture's allocator events; bufferscope memory for "
             "what was live then)");
        for (const std::string &l : runtimeLines(*runtime))
            line("  " + l);
    }
    return out;
}

std::string RunSummaryReport::markdown(const RunSummary &s, const std::string &folder,
                                       std::size_t top, const RuntimeMemory *runtime)
{
    using safetext::forMarkdown;
    std::string out;
    out += "### Run summary: " + forMarkdown(folder) + "\n\n";
    out +=
        std::to_string(s.modules.size()) + " modules, " + std::to_string(s.families.size()) +
        " functions" +
        (s.skipped.empty() ? std::string()
                           : ", " + std::to_string(s.skipped.size()) + " files skipped (below)") +
        ". *Held*: argument + output − alias + temp, what the device holds while a "
        "module runs. Made by BufferScope (`bufferscope summary --md`).\n\n";
    out += "| function | compiles | held max | held sum | live peak | why compiled again |\n";
    out += "|---|---:|---:|---:|---:|---|\n";
    for (std::size_t i = 0; i < s.families.size() && i < top; ++i) {
        const RunSummary::Family &f = s.families[i];
        out += "| " + forMarkdown(f.label) + " | " + std::to_string(f.modules.size()) + " | " +
               humanBytes(f.heldMax) + " | " + humanBytes(f.heldSum) + " | " +
               sizeOrDash(f.peakMax) + " | " + forMarkdown(f.why) + " |\n";
    }
    if (s.families.size() > top)
        out += "\n" + std::to_string(s.families.size() - top) + " more functions not shown.\n";
    for (const std::string &shared : s.sharedNames)
        out += "\n" + forMarkdown(shared) + ": each is its own row.\n";
    out += "\n**Largest modules**\n\n| module | held | live peak |\n|---|---:|---:|\n";
    for (const std::size_t i : largestModules(s, top))
        out += "| " + forMarkdown(s.modules[i].name) + " | " + humanBytes(s.modules[i].held) +
               " | " + sizeOrDash(s.modules[i].livePeak) + " |\n";
    out += "\n**Largest collective buffers**\n\n";
    if (s.collectives.empty()) {
        out += "None in these modules.\n";
    } else {
        out += "| bytes | opcode | instruction | function | source |\n|---:|---|---|---|---|\n";
        for (const RunSummary::CollectiveRow &c : s.collectives)
            out += "| " + humanBytes(c.collective.bytes) + " | " +
                   forMarkdown(c.collective.opcode) + " | " +
                   forMarkdown(c.collective.instruction) + " | " +
                   forMarkdown(s.modules[c.module].function) + " | " +
                   forMarkdown(shortSource(c.collective.source)) + " |\n";
    }
    if (!s.skipped.empty()) {
        out += "\n**Skipped**\n\n";
        for (const RunSummary::Skipped &k : s.skipped)
            out += "- " + forMarkdown(k.path) + ": " + forMarkdown(k.why) + "\n";
    }
    if (runtime && !runtime->allocators.empty()) {
        out += "\n**What the runtime held** (the capture's allocator events)\n\n";
        for (const std::string &l : runtimeLines(*runtime))
            out += "- " + forMarkdown(l) + "\n";
    }
    return out;
}

std::string RunSummaryReport::json(const RunSummary &s, const std::string &folder,
                                   const RuntimeMemory *runtime)
{
    JsonWriter w;
    w.beginObject();
    w.key("folder").value(folder);
    w.key("families").beginArray();
    for (const RunSummary::Family &f : s.families) {
        w.beginObject();
        w.key("name").value(f.name);
        w.key("arguments").value(static_cast<std::int64_t>(f.arguments));
        w.key("label").value(f.label);
        w.key("modules").value(static_cast<std::int64_t>(f.modules.size()));
        w.key("held_max").value(f.heldMax);
        w.key("held_sum").value(f.heldSum);
        w.key("peak_max");
        if (f.peakMax >= 0)
            w.value(f.peakMax);
        else
            w.null();
        w.key("largest_module").value(s.modules[f.largest].name);
        {
            // The largest compile's memory by category (analysis/Categories).
            const Module &m = s.modules[f.largest];
            w.key("categories");
            if (m.categorized) {
                w.beginArray();
                for (std::size_t c = 0; c < kCategoryCount; ++c) {
                    w.beginObject();
                    w.key("name").value(categoryName(static_cast<Category>(c)));
                    w.key("held_bytes").value(m.categoryHeld[c]);
                    w.key("peak_bytes");
                    if (m.categoryPeak[c] >= 0)
                        w.value(m.categoryPeak[c]);
                    else
                        w.null();
                    w.endObject();
                }
                w.endArray();
            } else {
                w.null();
            }
        }
        w.key("why").value(f.why);
        w.key("signatures").beginArray();
        for (const RunSummary::Signature &sig : f.signatures) {
            w.beginObject();
            w.key("compiles").value(static_cast<std::int64_t>(sig.modules.size()));
            w.key("parameters").beginArray();
            for (const RunSummary::Parameter &p : sig.parameters) {
                w.beginObject();
                w.key("name").value(p.name);
                w.key("shape").value(p.shape);
                w.endObject();
            }
            w.endArray();
            w.key("modules").beginArray();
            for (const std::size_t m : sig.modules)
                w.value(s.modules[m].name);
            w.endArray();
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("shared_names").beginArray();
    for (const std::string &shared : s.sharedNames)
        w.value(shared);
    w.endArray();
    w.key("collectives").beginArray();
    for (const RunSummary::CollectiveRow &c : s.collectives) {
        w.beginObject();
        w.key("module").value(s.modules[c.module].name);
        w.key("function").value(s.modules[c.module].function);
        w.key("instruction").value(c.collective.instruction);
        w.key("opcode").value(c.collective.opcode);
        w.key("bytes").value(c.collective.bytes);
        w.key("shape").value(c.collective.shape);
        w.key("source").value(c.collective.source);
        w.endObject();
    }
    w.endArray();
    w.key("modules").beginArray();
    for (const Module &m : s.modules) {
        w.beginObject();
        w.key("module").value(m.name);
        w.key("file").value(m.file);
        w.key("function").value(m.function);
        w.key("read").value(m.read);
        if (!m.read) {
            w.key("error").value(m.error);
        } else {
            w.key("held_bytes").value(m.held);
            w.key("total_bytes").value(m.total);
            w.key("peak_bytes");
            if (m.livePeak >= 0)
                w.value(m.livePeak);
            else
                w.null();
            w.key("signature_from").value(m.signatureFrom);
        }
        w.endObject();
    }
    w.endArray();
    w.key("skipped").beginArray();
    for (const RunSummary::Skipped &k : s.skipped) {
        w.beginObject();
        w.key("path").value(k.path);
        w.key("why").value(k.why);
        w.endObject();
    }
    w.endArray();
    if (runtime) {
        w.key("runtime").beginArray();
        for (const RuntimeAllocator &a : runtime->allocators) {
            w.beginObject();
            w.key("name").value(a.name);
            w.key("peak_bytes").value(a.peakBytes);
            w.key("peak_time_ps").value(a.peakTimePs);
            w.key("capacity_bytes").value(a.capacityBytes);
            w.key("allocations").value(static_cast<std::int64_t>(a.allocations));
            w.key("deallocations").value(static_cast<std::int64_t>(a.deallocations));
            w.endObject();
        }
        w.endArray();
    }
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
