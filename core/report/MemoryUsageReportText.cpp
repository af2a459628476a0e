#include "Report.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/SourceFrames.h"
#include "analysis/ValueFlow.h"
#include "model/MemorySpaces.h"
#include "report/JsonWriter.h"
#include "report/ValueCard.h"
#include "report/detail/TextColumns.h"
#include "util/SafeText.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>

namespace bufferscope {

using namespace report_detail;

namespace {

/// The kind of a memory-usage report's allocation, by the attributes it prints, as the parser
/// decides it for a dump's allocation line.
std::string_view reportKind(const MemoryUsageReport::Allocation &a)
{
    return a.donated() ? "parameter → output, donated" : allocationKindName(a.kind());
}

} // namespace

std::string Report::memoryUsageText(const MemoryUsageReport &r, const std::string &file, int top)
{
    std::string out;
    const auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text);
        out += '\n';
    };
    line("BufferScope report: " + ModuleFiles::moduleName(file) +
         " (XLA's memory-usage report, read without its dump)");
    line("  file          " + file);
    line("  total         " + (r.totalBytes >= 0 ? bytesText(r.totalBytes) : std::string("?")) +
         " in " + std::to_string(r.allocationCount()) + " allocations");
    if (r.layout == 3)
        line("  note          XLA's binary report: every allocation's number and size are exact, "
             "its kind is not given; open the module's dump for the rest");
    else
        line("  note          only the total is exact: the report prints every other size rounded "
             "(e.g. 2.70GiB); open the module's buffer-assignment dump for the rest");
    if (r.layout >= 2) {
        // The 2026 layout: by memory space, each with its exact total; no allocation's number,
        // kind or size is printed (docs/FORMAT.md §5). The binary report adds number and size.
        if (r.layout == 2)
            line("  note          the 2026 layout: allocations by memory space without their "
                 "numbers or kinds; each allocation's size is what its values' groups add up to");
        line();
        line("Memory spaces (totals exact)");
        for (const MemoryUsageReport::MemorySpace &space : r.memorySpaces)
            line("  " +
                 pad((space.name.empty() ? std::string() : space.name + " ") + "(S(" +
                         std::to_string(space.color) + "))",
                     29) +
                 padLeft(humanBytes(space.totalBytes), 10) + "  " +
                 padLeft(std::to_string(space.totalBytes), 14) + " bytes  " +
                 std::to_string(space.allocationCount) + " allocations listed");
    } else {
        line();
        line("Allocations by kind (of those the report lists, sizes as rounded)");
        std::vector<std::pair<std::string_view, std::pair<std::int64_t, std::int64_t>>> kinds;
        for (const MemoryUsageReport::Allocation &a : r.allocations) {
            const std::string_view k = reportKind(a);
            auto it = std::find_if(kinds.begin(), kinds.end(),
                                   [k](const auto &e) { return e.first == k; });
            if (it == kinds.end())
                it = kinds.insert(kinds.end(), {k, {0, 0}});
            it->second.first += a.size;
            ++it->second.second;
        }
        for (const auto &[kind, figures] : kinds)
            line("  " + pad(kind, 29) + padLeft(humanBytes(figures.first), 10) + "  " +
                 std::to_string(figures.second) + " allocations");
        if (static_cast<std::int64_t>(r.allocations.size()) < r.allocationCount())
            line("  (and " +
                 std::to_string(r.allocationCount() -
                                static_cast<std::int64_t>(r.allocations.size())) +
                 " smaller allocations the report leaves out)");
    }
    line();
    line("Largest allocations, each with its values by offset");
    const std::size_t shown = std::min<std::size_t>(r.allocations.size(), std::max(0, top));
    for (std::size_t i = 0; i < shown; ++i) {
        const MemoryUsageReport::Allocation &a = r.allocations[i];
        line("  " + padLeft(humanBytes(a.size), 10) + "  " + r.allocationLabel(i) +
             (a.description.empty() ? std::string() : "  " + clip(a.description, 100)));
        for (const MemoryUsageReport::Group &g : a.groups)
            line("      offset " + padLeft(std::to_string(g.offset), 12) + "  " +
                 padLeft(humanBytes(g.size), 10) + "  " + padLeft(std::to_string(g.values), 5) +
                 " values  " + clip(g.shapes, 80));
        if (a.hiddenGroups > 0)
            line("      … " + std::to_string(a.hiddenGroups) + " smaller offsets not shown");
    }
    if (r.allocations.size() > shown)
        line("  … " + std::to_string(r.allocations.size() - shown) + " more (--top)");
    line();
    if (r.problems.empty()) {
        line("Warnings: none");
    } else {
        line("Warnings (" + std::to_string(r.problems.size()) + ")");
        for (const MemoryUsageReport::Problem &p : r.problems)
            line("  " + file + ":" + std::to_string(p.line) + ": " + p.message);
    }
    return out;
}

std::string Report::memoryUsageJson(const MemoryUsageReport &r, const std::string &file)
{
    JsonWriter w;
    w.beginObject();
    w.key("file").value(file);
    w.key("module").value(ModuleFiles::moduleName(file));
    w.key("kind").value("memory_usage_report");
    if (r.layout >= 2) {
        // The 2026 layout: memory spaces with exact totals; allocations without numbers. The
        // binary report (layout 3) has their numbers and exact sizes, and names no space.
        w.key("layout").value(std::int64_t{r.layout});
        w.key("memory_spaces").beginArray();
        for (const MemoryUsageReport::MemorySpace &space : r.memorySpaces) {
            w.beginObject();
            w.key("name");
            if (space.name.empty())
                w.null();
            else
                w.value(space.name);
            w.key("color").value(std::int64_t{space.color});
            w.key("total_bytes").value(space.totalBytes);
            w.key("allocations_listed").value(static_cast<std::int64_t>(space.allocationCount));
            w.endObject();
        }
        w.endArray();
    }
    w.key("total_bytes").value(r.totalBytes);
    w.key("allocation_count").value(r.allocationCount());
    w.key("hidden_allocations").value(r.hiddenAllocations);
    w.key("allocations").beginArray();
    for (const MemoryUsageReport::Allocation &a : r.allocations) {
        w.beginObject();
        w.key("index");
        if (a.index >= 0)
            w.value(a.index);
        else
            w.null();
        if (r.layout >= 2)
            w.key("memory_space").value(std::int64_t{a.color});
        w.key("kind");
        if (a.attributesKnown)
            w.value(reportKind(a));
        else
            w.null();
        w.key("size_rounded").value(a.size);
        w.key("size_rounding").value(a.sizeUlp);
        w.key("description").value(a.description);
        w.key("values_by_offset").beginArray();
        for (const MemoryUsageReport::Group &g : a.groups) {
            w.beginObject();
            w.key("offset").value(g.offset);
            w.key("size_rounded").value(g.size);
            w.key("values").value(g.values);
            w.key("shapes").value(g.shapes);
            w.endObject();
        }
        w.endArray();
        w.key("hidden_offsets").value(a.hiddenGroups);
        w.endObject();
    }
    w.endArray();
    w.key("warnings").beginArray();
    for (const MemoryUsageReport::Problem &p : r.problems) {
        w.beginObject();
        w.key("file").value(file);
        w.key("line").value(p.line);
        w.key("message").value(p.message);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
