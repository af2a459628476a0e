#include "OomReport.h"

#include "report/JsonWriter.h"
#include "report/RunSummaryReport.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cstdlib>

namespace bufferscope {

namespace {

std::string formName(OomMessage::Form form)
{
    switch (form) {
    case OomMessage::Form::GpuAllocation:
        return "GPU allocation failure";
    case OomMessage::Form::GpuBufferAssignment:
        return "GPU, BufferAssignment OOM Debugging";
    case OomMessage::Form::Tpu:
        return "TPU";
    }
    return {};
}

std::string_view formKey(OomMessage::Form form)
{
    switch (form) {
    case OomMessage::Form::GpuAllocation:
        return "gpu_allocation";
    case OomMessage::Form::GpuBufferAssignment:
        return "gpu_buffer_assignment";
    case OomMessage::Form::Tpu:
        return "tpu";
    }
    return {};
}

std::string_view failureKey(OomMessage::Failure failure)
{
    switch (failure) {
    case OomMessage::Failure::Allocation:
        return "allocation";
    case OomMessage::Failure::CompileTime:
        return "compile_time";
    case OomMessage::Failure::ProgramLoad:
        return "program_load";
    case OomMessage::Failure::Stack:
        return "stack";
    case OomMessage::Failure::Usage:
        return "usage";
    }
    return {};
}

std::string failureName(const OomMessage &m)
{
    switch (m.failure) {
    case OomMessage::Failure::Allocation:
        return "an allocation at run time";
    case OomMessage::Failure::CompileTime:
        return "the compiler's check that the program fits";
    case OomMessage::Failure::ProgramLoad:
        return "loading the program";
    case OomMessage::Failure::Stack:
        return "an instruction's scoped stack in " +
               (m.memorySpace.empty() ? std::string("vmem") : m.memorySpace);
    case OomMessage::Failure::Usage:
        return "none: a program's usage line";
    }
    return {};
}

std::string cut(std::string_view text, std::size_t max)
{
    std::size_t length = 0;
    for (char c : text)
        length += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (length <= max)
        return std::string(text);
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size() && chars + 1 < max; ++i) {
        out += text[i];
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
            ++chars;
    }
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0)
        out.pop_back(); // never end inside a character
    return out + "…";
}

std::string where(const OomBuffer &b)
{
    if (b.sourceFile.empty())
        return {};
    std::string s = b.sourceFile;
    if (const std::size_t slash = s.rfind('/'); slash != std::string::npos)
        s = s.substr(slash + 1);
    if (b.sourceLine >= 0)
        s += ":" + std::to_string(b.sourceLine);
    return s;
}

void figuresJson(JsonWriter &w, const std::vector<OomFigure> &figures)
{
    w.beginArray();
    for (const OomFigure &f : figures) {
        w.beginObject();
        w.key("name").value(f.name);
        if (f.bytes >= 0)
            w.key("bytes").value(f.bytes);
        else
            w.key("bytes").null();
        w.key("rounding_bytes").value(f.ulp);
        if (!f.note.empty())
            w.key("note").value(f.note);
        w.endObject();
    }
    w.endArray();
}

void optionalBytes(JsonWriter &w, std::string_view key, std::int64_t bytes)
{
    w.key(key);
    if (bytes >= 0)
        w.value(bytes);
    else
        w.null();
}

} // namespace

std::string OomReport::sizeText(std::int64_t bytes, std::int64_t ulp)
{
    if (bytes < 0)
        return "unknown";
    if (ulp == 0)
        return humanBytes(bytes) + " (" + std::to_string(bytes) + " B)";
    return humanBytes(bytes) + " (as printed, ±" + humanBytes(ulp) + ")";
}

std::string OomReport::text(const OomFindings &f)
{
    std::string out;
    auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text); // the log's words, never a terminal's commands
        out += '\n';
    };
    const std::size_t n = f.log.messages.size();
    line("BufferScope out-of-memory report: " + f.file);
    line("  " + std::to_string(n) + (n == 1 ? " message" : " messages"));
    if (f.log.wrappedAt > 0)
        line("  note: the log was hard-wrapped at " + std::to_string(f.log.wrappedAt) +
             " columns; each line of that width was read joined with the next");
    for (std::size_t mi = 0; mi < n; ++mi) {
        const OomMessage &m = f.log.messages[mi];
        line();
        line("Message " + std::to_string(mi + 1) + " (line " + std::to_string(m.line) + ", " +
             formName(m.form) +
             (m.printed > 1 ? ", printed " + std::to_string(m.printed) + " times" : "") + ")");
        for (const std::string &h : m.headlines)
            line("  > " + cut(h, 160));
        if (m.moreHeadlines > 0)
            line("  > … and " + std::to_string(m.moreHeadlines) + " more such lines");
        line("  failed        " + failureName(m) +
             (m.errorCode.empty() ? "" : " (XLA " + m.errorCode + ": " + m.errorName + ")"));
        if (m.notAFailure && m.failure != OomMessage::Failure::Usage)
            line("  not a failure the allocator says the caller will try again elsewhere (a "
                 "retry, not the error that stopped the run)");
        if (m.failure == OomMessage::Failure::ProgramLoad && m.requested < 0 && m.freeBytes < 0)
            line("  figures       none: the message says only that the program could not be "
                 "loaded");
        if (m.startsCut)
            line("  cut           the text starts inside this message: no headline" +
                 (m.buffers.empty()
                      ? std::string()
                      : ", its list starts at entry " + std::to_string(m.buffers.front().rank)));
        for (const std::string &d : m.doubts)
            line("  uncertain     " + d);
        if (m.requested >= 0)
            line("  asked for     " + sizeText(m.requested, m.requestedUlp) +
                 (m.hostMemory ? " of host memory" : ""));
        if (m.roundedTo >= 0)
            line("  rounded to    " + std::to_string(m.roundedTo) + " B by the allocator");
        if (!m.executable.empty())
            line("  executable    " + m.executable +
                 (m.executableFrom.empty() ? "" : " (from the " + m.executableFrom + ")"));
        else if (m.taggedExecutables.size() > 1) {
            std::string names;
            for (const std::string &e : m.taggedExecutables)
                names += (names.empty() ? "" : ", ") + e;
            line("  tagged        " + names + " (the allocator's in-use chunks)");
        }
        if (m.freeBytes >= 0)
            line("  free          " + sizeText(m.freeBytes, m.freeUlp) +
                 (m.reservable >= 0 ? ", " + humanBytes(m.reservable) + " reservable" : "") +
                 (m.requested > m.freeBytes + m.requestedUlp + m.freeUlp && m.requested >= 0
                      ? "; " + humanBytes(m.requested - m.freeBytes) + " short of what it asked"
                      : ""));
        if (!m.stackInstruction.empty())
            line("  instruction   " + cut(m.stackInstruction, 120) +
                 (m.stackShape.empty() ? "" : " = " + cut(m.stackShape, 120)) +
                 (m.stackBytes >= 0
                      ? " (" + humanBytes(m.stackBytes) + " by its shape, before TPU tiling)"
                      : ""));
        for (const std::string &name : m.modules)
            line("  names         " + name);
        if (!m.device.empty())
            line("  device        " + m.device);
        if (m.used >= 0)
            line("  used          " + sizeText(m.used, m.usedUlp) + " of " + m.memorySpace);
        if (m.capacity >= 0)
            line("  limit         " + sizeText(m.capacity, m.capacityUlp));
        if (m.exceededBy >= 0)
            line("  over by       " + humanBytes(m.exceededBy));
        if (m.inUse >= 0)
            line("  in use        " + sizeText(m.inUse, m.inUseUlp) + " (the allocator's InUse)");
        if (m.tempRequired >= 0)
            line("  temporaries   " + humanBytes(m.tempRequired) + " required");
        auto figures = [&](const std::string &title, const std::vector<OomFigure> &list) {
            if (list.empty())
                return;
            line("  " + title);
            for (const OomFigure &g : list)
                line("    " + g.name +
                     std::string(g.name.size() < 32 ? 32 - g.name.size() : 1, ' ') +
                     (g.bytes >= 0 ? humanBytes(g.bytes) : std::string("unknown")) +
                     (g.note.empty() || g.bytes < 0 ? "" : " " + g.note));
        };
        figures("BufferAssignment stats", m.stats);
        figures("Total " + m.memorySpace + " usage", m.usage);
        if (m.programRequirement >= 0)
            figures("Program " + m.memorySpace + " requirement " + humanBytes(m.programRequirement),
                    m.requirement);
        else
            figures("Program requirement", m.requirement);

        const OomFindings::PerMessage *per =
            f.withDumps && mi < f.messages.size() ? &f.messages[mi] : nullptr;
        if (!m.buffers.empty()) {
            line("  Buffers listed (" + std::to_string(m.buffers.size()) + ", as printed):");
            for (std::size_t bi = 0; bi < m.buffers.size(); ++bi) {
                const OomBuffer &b = m.buffers[bi];
                std::string row =
                    "    " + std::to_string(b.rank) + ". " +
                    (b.size >= 0                    ? humanBytes(b.size)
                     : b.cut && !b.sizeText.empty() ? "? (cut: \"" + b.sizeText + "\")"
                                                    : std::string("?")) +
                    "  " + cut(b.shape, 60);
                if (b.cut)
                    row += "  [cut short]";
                if (!b.kind.empty())
                    row += "  [" + b.kind + "]";
                if (!b.label.empty())
                    row += "  " + (b.labelIsName ? b.label : "XLA label " + b.label);
                line(row);
                if (b.padding >= 0)
                    line("       padding " + humanBytes(b.padding) +
                         (b.unpadded >= 0 ? " over " + humanBytes(b.unpadded) + " unpadded" : "") +
                         (b.expansion.empty() ? "" : " (" + b.expansion + ")"));
                if (!b.opName.empty())
                    line("       op_name " + cut(b.opName, 140) +
                         (where(b).empty() ? "" : "  at " + where(b)));
                if (per && per->dump && bi < per->join.buffers.size()) {
                    const OomMatch::BufferMatch &bm = per->join.buffers[bi];
                    if (bm.values.empty()) {
                        line("       unmatched: " + bm.how);
                    } else {
                        std::string names;
                        for (std::size_t k = 0; k < bm.values.size() && k < 4; ++k) {
                            const Value &v = per->dump->values[bm.values[k]];
                            names += (k ? ", " : "") + per->dump->valueDisplayName(v) + " (value " +
                                     std::to_string(v.id) + ")";
                        }
                        if (bm.values.size() > 4)
                            names += ", …";
                        line("       is " + names + ": " + bm.how);
                    }
                }
            }
        }
        if (!f.withDumps)
            continue;
        line();
        if (!per || per->candidates.empty()) {
            line(f.dumpsGiven == 0
                     ? "  No module to weigh: no buffer-assignment dump was given or found."
                     : "  Module: none of the " + std::to_string(f.dumpsGiven) +
                           " given is named " + m.executable + " (the " +
                           (m.executableFrom.empty() ? std::string("executable_name")
                                                     : m.executableFrom) +
                           ")");
            continue;
        }
        if (per->chosen >= 0) {
            const OomFindings::Candidate &c = per->candidates[per->chosen];
            line("  Module: " + c.module + "  (" + c.file + ")");
            for (const std::string &r : c.evidence.reasons)
                line("    because " + r);
            if (per->dump) {
                const MemoryAnalysis a = MemoryAnalysis::of(*per->dump);
                line("    it holds " + humanBytes(a.device.held()) +
                     " on the device while it runs (arguments " + humanBytes(a.device.argument) +
                     " + outputs " + humanBytes(a.device.output) + " - aliased " +
                     humanBytes(a.device.alias) + " + temp " + humanBytes(a.device.temp) + ")");
                for (const OomMatch::Check &check : OomMatch::checks(m, *per->dump)) {
                    const bool compile = check.name == "compile_time";
                    std::string said = humanBytes(check.bytes);
                    if (check.said >= 0)
                        said += " (the message says " + humanBytes(check.said) + ")";
                    line(std::string(compile ? "    compile time (TPU): temporaries "
                                             : "    run time: held ") +
                         said +
                         (check.limit < 0
                              ? ", no limit in the message"
                              : " against the limit of " + humanBytes(check.limit) + ": " +
                                    (check.headroom < 0
                                         ? "over by " + humanBytes(-check.headroom) +
                                               (compile ? " (the compile aborts)" : "")
                                         : "headroom " + humanBytes(check.headroom) +
                                               (compile ? " (it compiles)"
                                                : m.failure == OomMessage::Failure::Allocation
                                                    ? " (the rest was in use by others)"
                                                    : ""))));
                }
                if (per->join.failingAllocation != kNone) {
                    const Allocation &al = per->dump->allocations[per->join.failingAllocation];
                    line("    failing allocation: allocation " + std::to_string(al.index) + " (" +
                         std::string(allocationKindName(al.kind)) + ", " + humanBytes(al.size) +
                         "): " + per->join.failingHow);
                } else if (!per->join.failingHow.empty()) {
                    line("    failing allocation not known: " + per->join.failingHow);
                }
                if (!m.buffers.empty())
                    line("    " + std::to_string(per->join.matched) + " of " +
                         std::to_string(m.buffers.size()) + " listed buffers matched exactly");
            }
        } else {
            bool any = false;
            for (const auto &c : per->candidates)
                any = any || (c.evidence.score > 0 && c.evidence.contradiction.empty());
            bool contradicted = false;
            for (const auto &c : per->candidates)
                contradicted = contradicted || !c.evidence.contradiction.empty();
            line(any ? "  Module: undecided, these fit equally well:"
                 : contradicted
                     ? "  Module: none of the " + std::to_string(per->candidates.size()) +
                           " modules fits the message"
                     : "  Module: not known; the message names nothing that ties it "
                       "to a module (no executable_name, exact size or labels)");
        }
        int shown = 0;
        for (std::size_t ci = 0; ci < per->candidates.size() && shown < 5; ++ci) {
            if (static_cast<int>(ci) == per->chosen)
                continue;
            const auto &c = per->candidates[ci];
            if (c.evidence.score <= 0 && c.evidence.contradiction.empty())
                continue;
            ++shown;
            // Beside the chosen one, a weaker candidate says what it lacks: its evidence is
            // what it shares with the chosen, fewer reasons.
            const std::size_t reasons = c.evidence.reasons.size();
            const std::size_t chosenReasons =
                per->chosen >= 0 ? per->candidates[per->chosen].evidence.reasons.size() : 0;
            line("    " + std::string(per->chosen >= 0 ? "not " : "") + c.module + ": " +
                 (!c.evidence.contradiction.empty() ? c.evidence.contradiction
                  : reasons == 0                    ? std::string("no evidence")
                  : per->chosen >= 0 && reasons < chosenReasons
                      ? "only " + c.evidence.reasons.front() + " (" + std::to_string(reasons) +
                            " of the chosen one's " + std::to_string(chosenReasons) + " reasons)"
                      : c.evidence.reasons.front()));
        }
    }
    if (!f.log.problems.empty()) {
        line();
        line("Lines not understood:");
        for (const auto &p : f.log.problems)
            line("  " + f.file + ":" + std::to_string(p.line) + ": " + p.message);
    }
    for (const OomFindings::Runtime &r : f.runtimes) {
        line();
        line("What the runtime held (" + r.capture +
             ", the allocators' own events; bufferscope memory for what was live then):");
        for (const std::string &l : RunSummaryReport::runtimeLines(r.memory))
            line("  " + l);
    }
    return out;
}

std::string OomReport::json(const OomFindings &f)
{
    JsonWriter w;
    w.beginObject();
    w.key("file").value(f.file);
    w.key("messages").beginArray();
    for (std::size_t mi = 0; mi < f.log.messages.size(); ++mi) {
        const OomMessage &m = f.log.messages[mi];
        w.beginObject();
        w.key("line").value(m.line);
        w.key("form").value(formKey(m.form));
        w.key("failure").value(failureKey(m.failure));
        w.key("not_a_failure").value(m.notAFailure);
        w.key("error_code").value(m.errorCode);
        w.key("error_name").value(m.errorName);
        w.key("platform").value(m.platform());
        w.key("printed").value(m.printed);
        optionalBytes(w, "requested_bytes", m.requested);
        w.key("requested_exact").value(m.requested >= 0 && m.requestedUlp == 0);
        w.key("requested_rounding_bytes").value(m.requestedUlp);
        optionalBytes(w, "rounded_to_bytes", m.roundedTo);
        w.key("host_memory").value(m.hostMemory);
        w.key("executable").value(m.executable);
        w.key("executable_from").value(m.executableFrom);
        w.key("tagged_executables").beginArray();
        for (const std::string &e : m.taggedExecutables)
            w.value(e);
        w.endArray();
        w.key("starts_cut").value(m.startsCut);
        w.key("doubts").beginArray();
        for (const std::string &d : m.doubts)
            w.value(d);
        w.endArray();
        w.key("modules_named").beginArray();
        for (const std::string &name : m.modules)
            w.value(name);
        w.endArray();
        w.key("device").value(m.device);
        w.key("memory_space").value(m.memorySpace);
        optionalBytes(w, "limit_bytes", m.capacity);
        w.key("limit_rounding_bytes").value(m.capacityUlp);
        optionalBytes(w, "used_bytes", m.used);
        w.key("used_rounding_bytes").value(m.usedUlp);
        optionalBytes(w, "exceeded_by_bytes", m.exceededBy);
        w.key("exceeded_by_rounding_bytes").value(m.exceededUlp);
        optionalBytes(w, "in_use_bytes", m.inUse);
        w.key("in_use_rounding_bytes").value(m.inUseUlp);
        optionalBytes(w, "program_requirement_bytes", m.programRequirement);
        w.key("program_requirement_rounding_bytes").value(m.programRequirementUlp);
        optionalBytes(w, "temp_required_bytes", m.tempRequired);
        w.key("temp_required_rounding_bytes").value(m.tempUlp);
        optionalBytes(w, "free_bytes", m.freeBytes);
        w.key("free_rounding_bytes").value(m.freeUlp);
        optionalBytes(w, "reservable_bytes", m.reservable);
        w.key("reservable_rounding_bytes").value(m.reservableUlp);
        w.key("program").value(m.program);
        w.key("hlo_module").value(m.hloModule);
        w.key("stack");
        if (m.stackInstruction.empty()) {
            w.null();
        } else {
            w.beginObject();
            w.key("instruction").value(m.stackInstruction);
            w.key("shape").value(m.stackShape);
            optionalBytes(w, "shape_bytes", m.stackBytes);
            w.endObject();
        }
        w.key("stats");
        figuresJson(w, m.stats);
        w.key("usage");
        figuresJson(w, m.usage);
        w.key("requirement");
        figuresJson(w, m.requirement);
        const OomFindings::PerMessage *per =
            f.withDumps && mi < f.messages.size() ? &f.messages[mi] : nullptr;
        w.key("buffers").beginArray();
        for (std::size_t bi = 0; bi < m.buffers.size(); ++bi) {
            const OomBuffer &b = m.buffers[bi];
            w.beginObject();
            w.key("rank").value(b.rank);
            w.key("line").value(b.line);
            optionalBytes(w, "size_bytes", b.size);
            w.key("size_rounding_bytes").value(b.sizeUlp);
            w.key("cut").value(b.cut);
            if (b.cut)
                w.key("size_text").value(b.sizeText);
            w.key("shape").value(b.shape);
            w.key("kind").value(b.kind);
            w.key("entry_parameter").value(b.entryParameter);
            w.key("label").value(b.label);
            w.key("label_is_name").value(b.labelIsName);
            if (!b.labelText.empty())
                w.key("label_text").value(b.labelText);
            w.key("op_type").value(b.opType);
            w.key("op_name").value(b.opName);
            w.key("source_file").value(b.sourceFile);
            w.key("source_line").value(b.sourceLine);
            optionalBytes(w, "unpadded_bytes", b.unpadded);
            optionalBytes(w, "padding_bytes", b.padding);
            if (!b.expansion.empty())
                w.key("expansion").value(b.expansion);
            if (per && per->dump && bi < per->join.buffers.size()) {
                const OomMatch::BufferMatch &bm = per->join.buffers[bi];
                w.key("matched").value(!bm.values.empty());
                w.key("match").value(bm.how);
                w.key("values").beginArray();
                for (std::uint32_t vi : bm.values) {
                    const Value &v = per->dump->values[vi];
                    w.beginObject();
                    w.key("id").value(v.id);
                    w.key("name").value(per->dump->valueDisplayName(v));
                    w.endObject();
                }
                w.endArray();
            }
            w.endObject();
        }
        w.endArray();
        if (per) {
            w.key("candidates").beginArray();
            for (const auto &c : per->candidates) {
                w.beginObject();
                w.key("module").value(c.module);
                w.key("file").value(c.file);
                w.key("score").value(c.evidence.score);
                w.key("reasons").beginArray();
                for (const std::string &r : c.evidence.reasons)
                    w.value(r);
                w.endArray();
                if (!c.evidence.contradiction.empty())
                    w.key("contradiction").value(c.evidence.contradiction);
                w.endObject();
            }
            w.endArray();
            w.key("module");
            if (per->chosen >= 0)
                w.value(per->candidates[per->chosen].module);
            else
                w.null();
            if (per->dump) {
                const MemoryAnalysis a = MemoryAnalysis::of(*per->dump);
                w.key("held_bytes").value(a.device.held());
                // The platform's rules: each figure against the message's limit.
                w.key("checks").beginArray();
                for (const OomMatch::Check &check : OomMatch::checks(m, *per->dump)) {
                    w.beginObject();
                    w.key("check").value(check.name);
                    w.key("rule").value(check.rule);
                    w.key("figure").value(check.figure);
                    w.key("bytes").value(check.bytes);
                    w.key("message_bytes");
                    if (check.said >= 0)
                        w.value(check.said);
                    else
                        w.null();
                    w.key("message_rounding_bytes").value(check.saidUlp);
                    w.key("limit_bytes");
                    if (check.limit >= 0)
                        w.value(check.limit);
                    else
                        w.null();
                    w.key("headroom_bytes");
                    if (check.limit >= 0)
                        w.value(check.headroom);
                    else
                        w.null();
                    w.key("fits");
                    // No limit, or within the limit's rounding: not known.
                    if (check.limit < 0 ||
                        (check.limitUlp > 0 && std::llabs(check.headroom) <= check.limitUlp))
                        w.null();
                    else
                        w.value(check.headroom >= 0);
                    w.endObject();
                }
                w.endArray();
                w.key("failing_allocation");
                if (per->join.failingAllocation != kNone)
                    w.value(per->dump->allocations[per->join.failingAllocation].index);
                else
                    w.null();
                w.key("failing_allocation_how").value(per->join.failingHow);
                w.key("matched_buffers").value(per->join.matched);
            }
        }
        w.endObject();
    }
    w.endArray();
    if (f.log.wrappedAt > 0)
        w.key("wrapped_at_columns").value(f.log.wrappedAt);
    w.key("problems").beginArray();
    for (const auto &p : f.log.problems) {
        w.beginObject();
        w.key("line").value(p.line);
        w.key("message").value(p.message);
        w.endObject();
    }
    w.endArray();
    w.key("runtime").beginArray();
    for (const OomFindings::Runtime &r : f.runtimes)
        for (const RuntimeAllocator &a : r.memory.allocators) {
            w.beginObject();
            w.key("capture").value(r.capture);
            w.key("name").value(a.name);
            w.key("peak_bytes").value(a.peakBytes);
            w.key("peak_time_ps").value(a.peakTimePs);
            w.key("capacity_bytes").value(a.capacityBytes);
            w.endObject();
        }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
