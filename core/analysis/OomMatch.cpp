#include "OomMatch.h"

#include "model/MemorySpaces.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <cstdlib>

namespace bufferscope {

namespace {

std::string bytesText(std::int64_t bytes)
{
    return std::to_string(bytes) + " B (" + humanBytes(bytes) + ")";
}

/// `printed` (± ulp) agrees with `actual`.
bool agrees(std::int64_t printed, std::int64_t ulp, std::int64_t actual)
{
    return printed >= 0 && std::llabs(printed - actual) <= ulp;
}

/// The allocations a failing request may be: the temp allocation and every live-out one
/// that is not a parameter, the ones the GPU runtime allocates when a module starts
/// (docs/FORMAT.md Part A, "What the device holds").
bool allocatedAtStart(const Allocation &a)
{
    return a.isPreallocatedTemp || (a.isMaybeLiveOut && !a.isParameter);
}

} // namespace

std::string_view OomMatch::executableOf(std::string_view moduleName)
{
    if (moduleName.starts_with("module_")) {
        const std::size_t dot = moduleName.find('.');
        if (dot != std::string_view::npos)
            return moduleName.substr(dot + 1);
    }
    return moduleName;
}

bool OomMatch::isExecutable(std::string_view moduleName, std::string_view executable)
{
    // "module_0003.jit_step.sm_8.0_gpu_after_optimizations": the name, then the file's suffix.
    const std::string_view name = executableOf(moduleName);
    return !executable.empty() && name.starts_with(executable) &&
           (name.size() == executable.size() || name[executable.size()] == '.');
}

bool OomMatch::nameMayMatch(const OomMessage &message, std::string_view moduleName)
{
    return message.executable.empty() || isExecutable(moduleName, message.executable);
}

OomMatch::ModuleEvidence OomMatch::moduleEvidence(const OomMessage &message, const Dump &dump,
                                                  std::string_view moduleName)
{
    ModuleEvidence e;
    if (!message.executable.empty()) {
        if (isExecutable(moduleName, message.executable)) {
            e.score += 4;
            e.reasons.push_back("its name is the " +
                                (message.executableFrom.empty() ? std::string("executable_name")
                                                                : message.executableFrom) +
                                ", " + message.executable);
        } else {
            e.contradiction = "the message names executable " + message.executable;
            return e;
        }
    }
    // A module_NNNN the message's own lines name.
    if (!message.modules.empty()) {
        bool named = false;
        for (const std::string &m : message.modules)
            named = named || (moduleName.starts_with(m) &&
                              (moduleName.size() == m.size() || moduleName[m.size()] == '.'));
        if (named) {
            e.score += 4;
            e.reasons.push_back("the message names it (" +
                                std::string(moduleName.substr(0, moduleName.find('.'))) + ")");
        } else {
            e.contradiction = "the message names " + message.modules.front();
            return e;
        }
    }
    // The request, against what the runtime allocates when the module starts (a program load
    // asks for the program's own reserve, no allocation of the dump).
    if (message.requested >= 0 && message.failure == OomMessage::Failure::Allocation) {
        std::int64_t exact = 0;
        std::string which;
        for (const Allocation &a : dump.allocations) {
            if (!allocatedAtStart(a))
                continue;
            if (message.requestedUlp == 0
                    ? a.size == message.requested
                    : agrees(message.requested, message.requestedUlp, a.size)) {
                ++exact;
                which = "allocation " + std::to_string(a.index) + " (" +
                        std::string(allocationKindName(a.kind)) + ")";
            }
        }
        if (exact > 0) {
            e.score += message.requestedUlp == 0 ? 4 : 1;
            e.reasons.push_back(
                (exact == 1 ? which + (message.requestedUlp == 0 ? " is exactly " : " is about ")
                            : std::to_string(exact) + " allocations are " +
                                  (message.requestedUlp == 0 ? "exactly " : "about ")) +
                bytesText(message.requested) + ", what the failing allocation asked for");
        }
    }
    // GPU `BufferAssignment stats:`: the module's own allocation totals.
    if (!message.stats.empty()) {
        const MemoryAnalysis m = MemoryAnalysis::of(dump);
        const MemoryAnalysis::Side both{m.device.argument + m.host.argument,
                                        m.device.output + m.host.output,
                                        m.device.alias + m.host.alias, m.device.temp + m.host.temp,
                                        m.device.constant + m.host.constant};
        const struct
        {
            std::string_view name;
            std::int64_t actual;
        } figures[] = {{"parameter allocation", both.argument},
                       {"constant allocation", both.constant},
                       {"maybe_live_out allocation", both.output},
                       {"preallocated temp allocation", both.temp},
                       {"total allocation", dump.allocationSizeSum()}};
        int compared = 0;
        for (const auto &f : figures) {
            const OomFigure *printed = message.stat(f.name);
            if (!printed || printed->bytes < 0)
                continue;
            ++compared;
            if (!agrees(printed->bytes, printed->ulp, f.actual)) {
                e.contradiction = std::string(f.name) + ": the message says " +
                                  humanBytes(printed->bytes) + ", the module has " +
                                  humanBytes(f.actual);
                e.score = 0;
                return e;
            }
        }
        if (compared >= 3) {
            e.score += 3;
            e.reasons.push_back("its allocation totals agree with the message's "
                                "BufferAssignment stats (" +
                                std::to_string(compared) + " figures)");
        }
    }
    // TPU compile-time figures, printed rounded: the early abort's HLO temporaries against the
    // module's temp allocations, E1000's `Used X` against what the device holds. Agreement
    // within the rounding supports the module; a difference does not rule it out (the compiler
    // aborted, so the dump may come from another attempt of the same program).
    if (message.tempRequired >= 0 || message.used >= 0) {
        const MemoryAnalysis m = MemoryAnalysis::of(dump);
        if (message.tempRequired >= 0 &&
            agrees(message.tempRequired, message.tempUlp, m.device.temp)) {
            e.score += 3;
            e.reasons.push_back("its temp allocation, " + bytesText(m.device.temp) +
                                ", is the HLO temporaries the message says (" +
                                humanBytes(message.tempRequired) + ")");
        }
        if (message.used >= 0 && message.failure == OomMessage::Failure::CompileTime &&
            agrees(message.used, message.usedUlp, m.device.held())) {
            e.score += 2;
            e.reasons.push_back("what the device holds for it, " + bytesText(m.device.held()) +
                                ", is the " + humanBytes(message.used) + " the message says");
        }
    }
    // TPU labels are instruction names.
    std::int64_t labels = 0, found = 0;
    for (const OomBuffer &b : message.buffers) {
        if (!b.labelIsName || b.label.empty())
            continue;
        ++labels;
        if (dump.findInstruction(b.label) != kNone)
            ++found;
    }
    if (labels > 0 && found == labels) {
        e.score += 3;
        e.reasons.push_back("all " + std::to_string(labels) +
                            " labels the message lists are its instructions");
    } else if (found > 0) {
        e.score += 1;
        e.reasons.push_back(std::to_string(found) + " of the " + std::to_string(labels) +
                            " labels the message lists are its instructions");
    }
    return e;
}

int OomMatch::choose(const std::vector<ModuleEvidence> &evidence)
{
    int best = -1;
    int bestScore = 0;
    bool tie = false;
    for (std::size_t i = 0; i < evidence.size(); ++i) {
        const ModuleEvidence &e = evidence[i];
        if (!e.contradiction.empty() || e.score <= 0)
            continue;
        if (e.score > bestScore) {
            best = static_cast<int>(i);
            bestScore = e.score;
            tie = false;
        } else if (e.score == bestScore) {
            tie = true;
        }
    }
    return tie ? -1 : best;
}

OomMatch::Join OomMatch::join(const OomMessage &message, const Dump &dump)
{
    Join j;
    // The failing allocation: a request printed in full bytes, one allocation of that size.
    // Only an allocation failure asks for one of the module's allocations (the compiler's
    // check, a program load and a stack ask for none).
    const bool asksForAllocation =
        message.failure == OomMessage::Failure::Allocation && message.requested >= 0;
    if (asksForAllocation && message.requestedUlp == 0) {
        std::vector<std::uint32_t> hits;
        for (std::uint32_t ai = 0; ai < dump.allocations.size(); ++ai)
            if (allocatedAtStart(dump.allocations[ai]) &&
                dump.allocations[ai].size == message.requested)
                hits.push_back(ai);
        if (hits.size() == 1) {
            j.failingAllocation = hits.front();
            j.failingHow =
                "its size is exactly the " + std::to_string(message.requested) + " bytes asked for";
        } else {
            j.failingHow = hits.empty()
                               ? "no temp or output allocation is exactly " +
                                     std::to_string(message.requested) + " bytes"
                               : std::to_string(hits.size()) + " allocations have that size";
        }
    } else if (asksForAllocation) {
        j.failingHow = "the message prints the size rounded (" + humanBytes(message.requested) +
                       "), so no allocation is chosen by it";
    }

    for (const OomBuffer &b : message.buffers) {
        BufferMatch m;
        const std::string shape = ShapeParser::withoutLayout(b.shape);
        auto shapeOk = [&](const Value &v) {
            return shape.empty() || ShapeParser::withoutLayout(dump.shapeText(v)) == shape;
        };
        if (b.labelIsName && !b.label.empty()) {
            const std::uint32_t in = dump.findInstruction(b.label);
            if (in == kNone) {
                m.how = "no instruction " + b.label + " in this module";
            } else {
                const auto [first, last] = dump.valuesOf(in);
                std::vector<std::uint32_t> hits;
                for (auto it = first; it != last; ++it)
                    if (shapeOk(dump.values[*it]))
                        hits.push_back(*it);
                if (hits.size() == 1) {
                    m.values = hits;
                    m.how = "by its label, " + b.label;
                } else {
                    // A tuple instruction: the label does not say which element.
                    m.how = b.label +
                            (hits.empty() ? " defines no value of shape "
                                          : " defines " + std::to_string(hits.size()) +
                                                " values of shape ") +
                            shape;
                }
            }
        } else if (!shape.empty()) {
            std::vector<std::uint32_t> hits;
            for (std::uint32_t vi = 0; vi < dump.values.size(); ++vi) {
                const Value &v = dump.values[vi];
                const Instruction *in = dump.instructionOf(v);
                if (!in || !shapeOk(v))
                    continue;
                if (b.entryParameter) {
                    if (v.allocation == kNone || !dump.allocations[v.allocation].isParameter ||
                        dump.opcode(*in) != "parameter")
                        continue;
                } else {
                    if (!b.label.empty() && dump.opcode(*in) != b.label)
                        continue;
                    if (!b.opName.empty() && in->opName != kNoString &&
                        dump.str(in->opName) != b.opName)
                        continue;
                }
                hits.push_back(vi);
            }
            const std::string what =
                b.entryParameter ? "entry parameter of shape " + shape
                                 : (b.label.empty() ? "value" : b.label) + " of shape " + shape +
                                       (b.opName.empty() ? "" : " with that op_name");
            if (hits.size() == 1) {
                m.values = hits;
                m.how = "the only " + what;
            } else {
                m.how = hits.empty() ? "no " + what
                                     : std::to_string(hits.size()) + " values fit (" + what + ")";
            }
        } else {
            m.how = "the message prints neither a label nor a shape";
        }
        if (!m.values.empty())
            ++j.matched;
        j.buffers.push_back(std::move(m));
    }
    return j;
}

std::vector<OomMatch::Check> OomMatch::checks(const OomMessage &message, const Dump &dump)
{
    const MemoryAnalysis a = MemoryAnalysis::of(dump);
    const bool tpu = message.form == OomMessage::Form::Tpu || platformOf(dump) == Platform::Tpu;
    std::vector<Check> out;
    const auto limited = [&](Check c) {
        c.limit = message.capacity;
        c.limitUlp = message.capacityUlp;
        if (c.limit >= 0)
            c.headroom = c.limit - c.bytes;
        out.push_back(std::move(c));
    };
    if (tpu) {
        Check c;
        c.name = "compile_time";
        c.figure = "temp_size_in_bytes";
        c.rule = "XLA:TPU aborts the compile when the temporaries alone exceed the HBM "
                 "available";
        c.bytes = a.device.temp;
        c.said = message.tempRequired;
        c.saidUlp = message.tempUlp;
        limited(std::move(c));
    }
    Check c;
    c.name = "run_time";
    c.figure = "held_bytes";
    c.rule = tpu ? "what the device holds while it runs (argument + output - alias + temp) "
                   "against the HBM the runtime gives"
                 : "what the device holds while it runs (argument + output - alias + temp) "
                   "against the allocator's limit";
    c.bytes = a.device.held();
    if (message.failure == OomMessage::Failure::CompileTime ||
        message.failure == OomMessage::Failure::Usage) {
        c.said = message.used;
        c.saidUlp = message.usedUlp;
    }
    limited(std::move(c));
    return out;
}

} // namespace bufferscope
