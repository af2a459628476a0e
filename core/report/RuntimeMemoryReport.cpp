#include "report/RuntimeMemoryReport.h"

#include "model/Dump.h"
#include "report/JsonWriter.h"
#include "report/detail/TextColumns.h"
#include "util/SafeText.h"

#include <cstdio>

namespace bufferscope::RuntimeMemoryReport {

namespace {

/// "7212859000 ps (7.212859 ms)": exact, and readable.
std::string seconds(std::int64_t ps)
{
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%lld ps (%.6f ms)", static_cast<long long>(ps),
                  static_cast<double>(ps) / 1e9);
    return buffer;
}

std::string madeName(MemoryEvent::Made made)
{
    switch (made) {
    case MemoryEvent::Made::InRun:
        return "run";
    case MemoryEvent::Made::Linked:
        return "link";
    case MemoryEvent::Made::BySize:
        return "size";
    case MemoryEvent::Made::Unknown:
        break;
    }
    return "none";
}

std::string orDash(const std::string &s)
{
    return s.empty() ? std::string("—") : safetext::forTerminal(s);
}

const char *partKindName(RuntimeAllocator::Part::Kind kind)
{
    using Kind = RuntimeAllocator::Part::Kind;
    switch (kind) {
    case Kind::Running:
        return "running";
    case Kind::Kept:
        return "kept";
    case Kind::BySize:
        return "by_size";
    case Kind::Outside:
        return "not_attributed";
    case Kind::NotInStep:
        return "not_in_step";
    case Kind::Stack:
        break;
    }
    return "stack";
}

} // namespace

std::string makerText(const RuntimeAllocator::Row::Maker &m)
{
    if (m.module.empty())
        return "not attributed";
    std::string out = m.module;
    if (m.made == MemoryEvent::Made::Linked)
        out += " (through a link to the thread that ran it)";
    else if (m.made == MemoryEvent::Made::BySize)
        out += " (by size: its only allocation of that size)";
    if (m.allocation >= 0)
        out += ", allocation " + std::to_string(m.allocation);
    if (m.count > 1)
        out += " ×" + std::to_string(m.count);
    return out;
}

std::string madeByText(const RuntimeAllocator::Row &r)
{
    std::string out;
    if (r.special)
        return out;
    for (const RuntimeAllocator::Row::Maker &m : r.madeBy) {
        if (!out.empty())
            out += "; ";
        out += makerText(m);
    }
    return out;
}

std::string peakSentence(const RuntimeAllocator &a, const std::vector<ModulePlan> &plans)
{
    std::string out = "The runtime peak of " + a.name + " is " + humanBytes(a.peakBytes);
    std::string sep = ": ";
    using Kind = RuntimeAllocator::Part::Kind;
    for (const RuntimeAllocator::Part &part : a.peakParts) {
        out += sep;
        sep = "; ";
        const std::string b = humanBytes(part.bytes);
        switch (part.kind) {
        case Kind::Running:
            out += "the run of " + part.module + " at the peak made " + b;
            if (part.planned >= 0)
                out += " of the " + humanBytes(part.planned) +
                       " its plan allocates when it starts (output − alias + temp; its " +
                       humanBytes(part.arguments) + " of arguments are held before it starts)";
            break;
        case Kind::Kept:
            out += b + " are arrays kept from an earlier run of " + part.module;
            if (part.planned >= 0)
                out += " (its plan's outputs: " + humanBytes(part.planned) + ")";
            break;
        case Kind::BySize:
            out += b + " were made outside any module's run, each the size of an allocation of " +
                   part.module;
            break;
        case Kind::Outside:
            out += b + " were made outside any module's run and are not attributed";
            break;
        case Kind::NotInStep:
            out += b + " were not allocated in the peak's step (the allocator's unused "
                       "preallocation, and arrays earlier steps left)";
            break;
        case Kind::Stack:
            out += b + " are the stack reservation";
            break;
        }
    }
    if (!a.peakModule.empty() && a.peakPlan < 0 && !plans.empty())
        out += "; no plan of " + a.peakModule + " in the capture matches its allocations";
    return out + ".";
}

std::string text(const std::string &capture, const RuntimeMemory &memory)
{
    std::string out = "BufferScope runtime memory: " + safetext::forTerminal(capture) + "\n";
    out += "  " + std::to_string(memory.events) + " memory events of " +
           std::to_string(memory.allocators.size()) +
           (memory.allocators.size() == 1 ? " allocator" : " allocators") +
           ", on the capture's clock (each thread's line start plus the event's offset)\n";
    for (const RuntimeAllocator &a : memory.allocators) {
        out += "\nAllocator " + safetext::forTerminal(a.name) + ": " +
               std::to_string(a.allocations) + " allocations, " + std::to_string(a.deallocations) +
               " deallocations\n";
        out += "  peak          " + report_detail::bytesText(a.peakBytes) + " at " +
               seconds(a.peakTimePs) + " (line " + orDash(a.peakLine) + ", step " +
               std::to_string(a.peakStep) +
               (a.peakModule.empty() ? std::string()
                                     : ", in a run of " + safetext::forTerminal(a.peakModule)) +
               ")\n";
        out += "  heap          " + report_detail::bytesText(a.heapBytes) + "\n";
        out += "  stack         " + report_detail::bytesText(a.stackBytes) + "\n";
        out += "  free          " + report_detail::bytesText(a.freeBytes) + "\n";
        char frag[32];
        std::snprintf(frag, sizeof frag, "%.6g", a.fragmentation);
        out += "  fragmentation " + std::string(frag) + "\n";
        out += "  capacity      " + report_detail::bytesText(a.capacityBytes) +
               " (heap + stack + free at the peak)\n";
        out += "  lifetime peak " + report_detail::bytesText(a.lifetimePeakBytes) +
               " (the most the allocator reported in use since it started";
        if (a.lastPeakStat != a.lifetimePeakBytes)
            out += "; its last event says " + report_detail::bytesText(a.lastPeakStat) +
                   ", XProf's figure";
        out += ")\n";
        out += "  live at the peak: " + std::to_string(a.liveAtPeak) + " allocations";
        out += a.atPeak.empty() ? std::string("\n") : std::string(", largest first:\n");
        for (std::size_t k = 0; k < a.atPeak.size() && k < kTopRows; ++k) {
            const RuntimeAllocator::Row &r = a.atPeak[k];
            std::string row = "    " + humanBytes(r.bytes);
            row.resize(std::max<std::size_t>(row.size() + 1, 16), ' ');
            row += (r.count > 1 ? std::to_string(r.count) + " × " : std::string()) + orDash(r.op) +
                   "  requested " + std::to_string(r.requested) + " B, " + orDash(r.region) + ", " +
                   orDash(r.dataType) + ", " + orDash(r.shape);
            const std::string by = madeByText(r);
            if (!by.empty())
                row += "; made by " + safetext::forTerminal(by);
            out += row + "\n";
        }
        if (a.atPeak.size() > kTopRows)
            out += "    … " + std::to_string(a.atPeak.size() - kTopRows) + " more rows\n";
        if (!a.peakParts.empty()) {
            out += "  the peak's " + humanBytes(a.peakBytes) + " is made of:\n";
            for (const RuntimeAllocator::Part &part : a.peakParts) {
                out += "    " + humanBytes(part.bytes) + "  " + safetext::forTerminal(part.what);
                if (part.planned >= 0)
                    out += "; planned " + humanBytes(part.planned) +
                           (part.arguments >= 0 ? " (output − alias + temp), arguments " +
                                                      humanBytes(part.arguments)
                                                : std::string(" (output − alias)"));
                else if (const PlanNote note = planNote(part); !note.sentence.empty())
                    out += "; " + safetext::forTerminal(note.sentence);
                out += "\n";
            }
            out += "  " + safetext::forTerminal(peakSentence(a, memory.plans)) + "\n";
        }
    }
    if (!memory.warnings.empty()) {
        out += "\nWarnings (" + std::to_string(memory.warnings.size()) + ")\n";
        for (const std::string &w : memory.warnings)
            out += "  " + safetext::forTerminal(w) + "\n";
    }
    return out;
}

std::string json(const std::string &capture, const RuntimeMemory &memory)
{
    JsonWriter w;
    w.beginObject();
    w.key("capture").value(capture);
    w.key("events").value(static_cast<std::int64_t>(memory.events));
    w.key("plans").beginArray();
    for (const ModulePlan &p : memory.plans) {
        w.beginObject();
        w.key("module").value(p.name);
        w.key("member").value(p.member);
        w.key("argument_bytes").value(p.device.argument);
        w.key("output_bytes").value(p.device.output);
        w.key("alias_bytes").value(p.device.alias);
        w.key("temp_bytes").value(p.device.temp);
        w.key("held_bytes").value(p.device.held());
        w.key("host_held_bytes").value(p.host.held());
        w.endObject();
    }
    w.endArray();
    w.key("allocators").beginArray();
    for (const RuntimeAllocator &a : memory.allocators) {
        w.beginObject();
        w.key("name").value(a.name);
        w.key("allocations").value(static_cast<std::int64_t>(a.allocations));
        w.key("deallocations").value(static_cast<std::int64_t>(a.deallocations));
        w.key("peak_bytes").value(a.peakBytes);
        w.key("peak_time_ps").value(a.peakTimePs);
        w.key("peak_offset_ps").value(a.peakOffsetPs);
        w.key("peak_line").value(a.peakLine);
        w.key("peak_step").value(a.peakStep);
        if (a.peakModule.empty())
            w.key("peak_module").null();
        else
            w.key("peak_module").value(a.peakModule);
        w.key("heap_bytes").value(a.heapBytes);
        w.key("stack_bytes").value(a.stackBytes);
        w.key("free_bytes").value(a.freeBytes);
        w.key("fragmentation").value(a.fragmentation);
        w.key("capacity_bytes").value(a.capacityBytes);
        w.key("lifetime_peak_bytes").value(a.lifetimePeakBytes);
        w.key("last_event_peak_bytes").value(a.lastPeakStat);
        w.key("live_at_peak").value(static_cast<std::int64_t>(a.liveAtPeak));
        w.key("top_allocations").beginArray();
        for (std::size_t k = 0; k < a.atPeak.size() && k < kTopRows; ++k) {
            const RuntimeAllocator::Row &r = a.atPeak[k];
            w.beginObject();
            w.key("bytes").value(r.bytes);
            w.key("requested_bytes").value(r.requested);
            w.key("count").value(r.count);
            w.key("op_name").value(r.op);
            w.key("region_type").value(r.region);
            w.key("data_type").value(r.dataType);
            w.key("shape").value(r.shape);
            w.key("special").value(r.special);
            w.key("made_by").beginArray();
            for (const RuntimeAllocator::Row::Maker &m : r.madeBy) {
                if (r.special)
                    break;
                w.beginObject();
                if (m.module.empty())
                    w.key("module").null();
                else
                    w.key("module").value(m.module);
                w.key("attributed_by").value(madeName(m.made));
                if (m.member.empty())
                    w.key("member").null();
                else
                    w.key("member").value(m.member);
                w.key("allocation").value(m.allocation);
                w.key("count").value(m.count);
                w.endObject();
            }
            w.endArray();
            w.endObject();
        }
        w.endArray();
        w.key("peak_parts").beginArray();
        for (const RuntimeAllocator::Part &part : a.peakParts) {
            w.beginObject();
            w.key("what").value(part.what);
            w.key("kind").value(partKindName(part.kind));
            if (part.module.empty())
                w.key("module").null();
            else
                w.key("module").value(part.module);
            w.key("bytes").value(part.bytes);
            w.key("planned_bytes").value(part.planned);
            w.key("planned_argument_bytes").value(part.arguments);
            w.key("compiles").value(std::int64_t{part.compiles});
            if (part.plan >= 0)
                w.key("plan_member")
                    .value(memory.plans[static_cast<std::size_t>(part.plan)].member);
            else
                w.key("plan_member").null();
            w.endObject();
        }
        w.endArray();
        w.key("peak_summary").value(peakSentence(a, memory.plans));
        w.endObject();
    }
    w.endArray();
    w.key("warnings").beginArray();
    for (const std::string &warning : memory.warnings)
        w.value(warning);
    w.endArray();
    w.endObject();
    std::string out = w.str();
    out += '\n';
    return out;
}

PlanNote planNote(const RuntimeAllocator::Part &part)
{
    if (part.planned >= 0 || part.module.empty())
        return {};
    if (part.kind == RuntimeAllocator::Part::Kind::BySize)
        return {"by size", "no run made them: each is the size of an allocation of " + part.module +
                               "'s plan, and of no other module's"};
    if (part.compiles == 0)
        return {"not in the capture", "the capture holds no buffer assignment of " + part.module};
    return {"none matches", "the capture holds " + std::to_string(part.compiles) + " compile" +
                                (part.compiles == 1 ? "" : "s") + " of " + part.module +
                                "; the sizes of these allocations match none of them"};
}

std::string curveCsv(const RuntimeAllocator &a)
{
    std::string out = "allocator,time_ps,bytes_in_use\n";
    const std::string name = safetext::csvCell(a.name);
    for (const RuntimeAllocator::Point &p : a.curve)
        out += name + "," + std::to_string(p.timePs) + "," + std::to_string(p.bytes) + "\n";
    return out;
}

} // namespace bufferscope::RuntimeMemoryReport
