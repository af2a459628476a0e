// The proto reader: the buffer-assignment text XLA prints for the module
// (BufferAssignment::ToString, HloLiveRange::ToString; detail/HloProtoReader.h).

#include "model/Dump.h"
#include "model/ModuleNames.h"
#include "parse/ShapeParser.h"
#include "parse/StackFrames.h"
#include "parse/detail/HloProtoReader.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace bufferscope::hloproto {

bool Reader::isPhi(const Val &v) const
{
    const Ins &ins = m_ins[static_cast<std::size_t>(v.instruction)];
    const std::string op = ins.opcode();
    if (op == "while" || op == "conditional")
        return true;
    if (op != "parameter" || ins.computation == m_entry)
        return false;
    const auto &callers = m_comps[static_cast<std::size_t>(ins.computation)].callers;
    return std::any_of(callers.begin(), callers.end(), [this](int n) {
        return m_ins[static_cast<std::size_t>(n)].opcode() == "while";
    });
}

std::string Reader::valueName(const Val &v) const
{
    const Ins &ins = m_ins[static_cast<std::size_t>(v.instruction)];
    return "<" + std::to_string(v.id) + " " + ins.p->name() +
           (ins.tupleShaped ? indexText(v.index) : "") + (isPhi(v) ? " (phi)" : "") + " @" +
           std::to_string(v.color) + ">";
}

std::string Reader::instructionText(const Ins &ins) const
{
    std::string out =
        "%" + ins.p->name() + " = " + shapeText(ins.p->shape(), true) + " " + ins.opcode() + "(";
    for (std::size_t i = 0; i < ins.operands.size(); ++i)
        out += (i ? ", %" : "%") + m_ins[static_cast<std::size_t>(ins.operands[i])].p->name();
    out += ")";
    if (!ins.p->fusion_kind().empty() && isHloName(ins.p->fusion_kind()))
        out += ", kind=" + ins.p->fusion_kind();
    if (!ins.called.empty()) {
        out += ins.opcode() == "fusion" ? ", calls=" : ", called_computations={";
        for (std::size_t i = 0; i < ins.called.size(); ++i)
            out += (i ? ", %" : "%") + m_comps[static_cast<std::size_t>(ins.called[i])].p->name();
        if (ins.opcode() != "fusion")
            out += "}";
    }
    if (ins.p->has_dot_dimension_numbers()) {
        // As XLA prints them (DotDimensionNumbersToString): batch lists only when not empty.
        const pb::DotDimensionNumbers &d = ins.p->dot_dimension_numbers();
        const auto list = [&out](const char *name, const auto &dims, bool always) {
            if (dims.empty() && !always)
                return;
            out += std::string(", ") + name + "={";
            for (int k = 0; k < dims.size(); ++k)
                out += (k ? "," : "") + std::to_string(dims[k]);
            out += "}";
        };
        list("lhs_batch_dims", d.lhs_batch_dimensions(), false);
        list("lhs_contracting_dims", d.lhs_contracting_dimensions(), true);
        list("rhs_batch_dims", d.rhs_batch_dimensions(), false);
        list("rhs_contracting_dims", d.rhs_contracting_dimensions(), true);
    }
    if (!ins.p->custom_call_target().empty())
        out += ", custom_call_target=\"" + cEscape(ins.p->custom_call_target()) + "\"";
    if (ins.p->has_metadata()) {
        const pb::OpMetadata &m = ins.p->metadata();
        std::string meta;
        const auto add = [&meta](const std::string &field) {
            meta += (meta.empty() ? "" : " ") + field;
        };
        if (!m.op_type().empty())
            add("op_type=\"" + cEscape(m.op_type()) + "\"");
        if (!m.op_name().empty())
            add("op_name=\"" + cEscape(m.op_name()) + "\"");
        if (!m.source_file().empty())
            add("source_file=\"" + cEscape(m.source_file()) + "\"");
        if (m.source_line() != 0)
            add("source_line=" + std::to_string(m.source_line()));
        if (m.stack_frame_id() != 0)
            add("stack_frame_id=" + std::to_string(m.stack_frame_id()));
        if (!meta.empty())
            out += ", metadata={" + meta + "}";
    }
    return out;
}

std::string Reader::text() const
{
    const pb::BufferAssignmentProto &ba = m_proto.buffer_assignment();
    std::string out = "BufferAssignment:\n";
    // About 3 bytes of text for each byte of proto: grown once, not by doubling.
    out.reserve(static_cast<std::size_t>(std::min<std::int64_t>(
        static_cast<std::int64_t>(m_proto.ByteSizeLong()) * 3 + 4096, m_allowance)));
    std::int64_t total = 0;
    const Comp &entry = m_comps[static_cast<std::size_t>(m_entry)];
    for (const pb::BufferAllocationProto &a : ba.buffer_allocations()) {
        if (a.size() < 0)
            refuse("allocation " + std::to_string(a.index()) + " has a negative size");
        if (__builtin_add_overflow(total, a.size(), &total))
            refuse("the allocations' sizes add up past 2^63 - 1 bytes (at allocation " +
                   std::to_string(a.index()) + "): not sizes a device can hold");
        out += "allocation " + std::to_string(a.index()) + ": size " + std::to_string(a.size());
        if (a.color() != 0)
            out += ", color " + std::to_string(a.color());
        if (a.is_entry_computation_parameter()) {
            const Index index(a.parameter_shape_index().begin(), a.parameter_shape_index().end());
            std::string shape = "<unknown shape>";
            const std::int64_t k = a.parameter_number();
            if (k >= 0 && static_cast<std::size_t>(k) < entry.parameters.size() &&
                entry.parameters[static_cast<std::size_t>(k)] >= 0) {
                const Ins &param =
                    m_ins[static_cast<std::size_t>(entry.parameters[static_cast<std::size_t>(k)])];
                if (const int part = param.partAt(index); part >= 0)
                    shape = shapeText(*param.parts[static_cast<std::size_t>(part)].second, false);
            }
            out += ", parameter " + std::to_string(k) + ", shape |" + shape + "| at ShapeIndex " +
                   indexText(index);
        }
        std::vector<std::pair<std::int64_t, const pb::BufferAllocationProto::Assigned *>> assigned;
        for (const auto &as : a.assigned())
            assigned.push_back({as.logical_buffer_id(), &as});
        std::sort(assigned.begin(), assigned.end(),
                  [](const auto &x, const auto &y) { return x.first < y.first; });
        for (const auto &[id, as] : assigned) { // GetOutputInstruction
            const auto v = m_valById.find(id);
            if (v == m_valById.end())
                continue;
            bool output = false;
            for (const auto &[at, index] : m_vals[static_cast<std::size_t>(v->second)].positions)
                if (index.empty() && static_cast<int>(at) == entry.root) {
                    out += ", output shape is |" +
                           shapeText(m_ins[static_cast<std::size_t>(at)].p->shape(), false) + "|";
                    output = true;
                    break;
                }
            if (output)
                break;
        }
        if (a.is_constant())
            out += ", constant";
        if (a.is_thread_local())
            out += ", thread-local";
        if (a.maybe_live_out())
            out += ", maybe-live-out";
        if (!a.is_entry_computation_parameter() && !a.maybe_live_out() && !a.is_thread_local() &&
            !a.is_constant())
            out += ", preallocated-temp";
        out += ":\n";
        for (const auto &[id, as] : assigned) {
            const auto v = m_valById.find(id);
            if (v == m_valById.end())
                refuse("allocation " + std::to_string(a.index()) + " holds value " +
                       std::to_string(id) + ", which the buffer assignment does not list");
            const Val &val = m_vals[static_cast<std::size_t>(v->second)];
            const Ins &ins = m_ins[static_cast<std::size_t>(val.instruction)];
            const int part = ins.partAt(val.index);
            out += " value: " + valueName(val) + " (size=" + std::to_string(as->size()) +
                   ",offset=" + std::to_string(as->offset()) +
                   "): " + shapeText(*ins.parts[static_cast<std::size_t>(part)].second, true) +
                   "\n";
            checkText(out);
        }
    }
    out += "\nTotal bytes used: " + std::to_string(total) + " (" + humanBytes(total) + ")\n\n";
    out += "Used values:\n";
    std::vector<int> order(m_vals.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [this](int a, int b) {
        return m_vals[static_cast<std::size_t>(a)].id < m_vals[static_cast<std::size_t>(b)].id;
    });
    // XLA prints an instruction's whole text for each value it defines, so a tuple of N parts
    // would print its N-part shape N times. The parser reads an instruction's text from its
    // first value only (the rest repeat it); the later ones here name the instruction and say
    // where its text is, which keeps the text linear in the proto.
    std::vector<bool> written(m_ins.size(), false);
    for (const int n : order) {
        const Val &v = m_vals[static_cast<std::size_t>(n)];
        out += valueName(v) + "\n positions:\n";
        for (const auto &[at, index] : v.positions) {
            const Ins &ins = m_ins[static_cast<std::size_t>(at)];
            out += "  " + ins.p->name() + (ins.tupleShaped ? " " + indexText(index) : "") + "\n";
            checkText(out);
        }
        out += " uses:\n";
        for (const Val::UseOf &u : v.uses) {
            const Ins &user = m_ins[static_cast<std::size_t>(u.instruction)];
            const Ins &operand =
                m_ins[static_cast<std::size_t>(user.operands[static_cast<std::size_t>(u.operand)])];
            out += "  " + user.p->name() + ", operand " + std::to_string(u.operand) +
                   (operand.tupleShaped ? " " + indexText(u.index) : "") + "\n";
            checkText(out);
        }
        const Ins &from = m_ins[static_cast<std::size_t>(v.instruction)];
        if (written[static_cast<std::size_t>(v.instruction)])
            out += " from instruction: %" + from.p->name() + " (written at its first value)\n";
        else
            out += " from instruction: " + instructionText(from) + "\n";
        written[static_cast<std::size_t>(v.instruction)] = true;
        checkText(out);
    }
    if (!m_sequence.empty()) {
        out += "\n\nHloLiveRange (max " + std::to_string(m_sequence.size()) + "):\n";
        out += "  InstructionSequence:\n";
        for (std::size_t t = 0; t < m_sequence.size(); ++t)
            out += "    " + std::to_string(t) + ":" +
                   m_ins[static_cast<std::size_t>(m_sequence[t])].p->name() + "\n";
        out += "  BufferLiveRange:\n";
        for (const int n : order) {
            const Val &v = m_vals[static_cast<std::size_t>(n)];
            if (v.start < 0)
                continue;
            out += "    " + m_ins[static_cast<std::size_t>(v.instruction)].p->name() +
                   indexText(v.index) + ":" + std::to_string(v.start) + "-" +
                   std::to_string(v.end) + "\n";
            checkText(out);
        }
        peakText(out, order);
        checkText(out);
    }
    return out;
}

std::int64_t Reader::byteSize(const pb::ShapeProto &shape) const
{
    if (const auto known = m_byteSizes.find(&shape); known != m_byteSizes.end())
        return known->second;
    const std::int64_t bytes = byteSizeOnce(shape);
    m_byteSizes.emplace(&shape, bytes);
    return bytes;
}

std::int64_t Reader::byteSizeOnce(const pb::ShapeProto &shape)
{
    const std::string text = shapeText(shape, true);
    if (text.find('?') != std::string::npos)
        return -1;
    const ShapeParseResult parsed = ShapeParser::parse(text);
    return parsed.ok ? parsed.shape.byteSize(8) : 0;
}

void Reader::peakText(std::string &out, const std::vector<int> &order) const
{
    struct Event
    {
        std::int64_t time;
        bool end;
        int value;
    };
    std::vector<Event> events;
    for (const int n : order) {
        const Val &v = m_vals[static_cast<std::size_t>(n)];
        if (v.start >= 0) {
            events.push_back({v.start, false, n});
            events.push_back({v.end + 1, true, n});
        }
    }
    std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
        return std::tie(a.time, a.end, a.value) < std::tie(b.time, b.end, b.value);
    });
    std::int64_t usage = 0, peak = 0, peakTime = 0;
    for (const Event &e : events) {
        const Val &v = m_vals[static_cast<std::size_t>(e.value)];
        const std::int64_t bytes =
            byteSize(m_ins[static_cast<std::size_t>(v.instruction)].p->shape());
        if (bytes < 0) {
            out += "  Peak memory could not be determined due to unbounded dynamic shape.\n";
            return;
        }
        usage += e.end ? -bytes : bytes;
        if (peak < usage) {
            peak = usage;
            peakTime = e.time;
        }
    }
    out += "  Live ranges at " + std::to_string(peakTime) + " (peak):\n";
    std::vector<std::pair<std::int64_t, int>> sized;
    for (const int n : order) {
        const Val &v = m_vals[static_cast<std::size_t>(n)];
        if (v.start >= 0 && v.start <= peakTime && peakTime <= v.end) {
            const Ins &ins = m_ins[static_cast<std::size_t>(v.instruction)];
            sized.push_back(
                {byteSize(*ins.parts[static_cast<std::size_t>(ins.partAt(v.index))].second), n});
        }
    }
    std::sort(sized.begin(), sized.end(), [this](const auto &a, const auto &b) {
        if (a.first != b.first)
            return a.first > b.first;
        const Val &x = m_vals[static_cast<std::size_t>(a.second)];
        const Val &y = m_vals[static_cast<std::size_t>(b.second)];
        return std::pair(m_ins[static_cast<std::size_t>(x.instruction)].p->name(), x.index) <
               std::pair(m_ins[static_cast<std::size_t>(y.instruction)].p->name(), y.index);
    });
    std::int64_t total = 0;
    for (const auto &[bytes, n] : sized) {
        const Val &v = m_vals[static_cast<std::size_t>(n)];
        if (__builtin_add_overflow(total, bytes, &total))
            refuse("the values live at the peak add up past 2^63 - 1 bytes: not sizes a device "
                   "can hold");
        out += "    " + m_ins[static_cast<std::size_t>(v.instruction)].p->name() +
               indexText(v.index) + ": " + std::to_string(bytes) +
               " bytes (cumulative: " + std::to_string(total) + " bytes)\n";
        checkText(out);
    }
}

} // namespace bufferscope::hloproto
