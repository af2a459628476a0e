#include "parse/HloProtoDump.h"

#include "model/Dump.h"
#include "model/ModuleNames.h"
#include "parse/ShapeParser.h"
#include "parse/StackFrames.h"
#include "proto/hlo_min.pb.h"
#include "util/Decompress.h"
#include "util/Stopwatch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace bufferscope {

namespace {

namespace pb = bufferscope::xlapb;
using Index = std::vector<std::int64_t>;

/// A file that breaks the rules is refused with this, caught at the top.
struct Refused
{
    std::string message;
};

[[noreturn]] void refuse(std::string message)
{
    throw Refused{std::move(message)};
}

std::string indexText(const Index &index)
{
    std::string out = "{";
    for (std::size_t i = 0; i < index.size(); ++i)
        out += (i ? "," : "") + std::to_string(index[i]);
    return out + "}";
}

// -- shapes, printed as ShapeUtil::HumanString(WithLayout) prints them

std::string_view elementTypeName(std::int32_t type)
{
    switch (type) {
    case 1:
        return "pred";
    case 2:
        return "s8";
    case 3:
        return "s16";
    case 4:
        return "s32";
    case 5:
        return "s64";
    case 6:
        return "u8";
    case 7:
        return "u16";
    case 8:
        return "u32";
    case 9:
        return "u64";
    case 10:
        return "f16";
    case 11:
        return "f32";
    case 12:
        return "f64";
    case 14:
        return "opaque";
    case 15:
        return "c64";
    case 16:
        return "bf16";
    case 17:
        return "token";
    case 18:
        return "c128";
    case 19:
        return "f8e5m2";
    case 20:
        return "f8e4m3fn";
    case 21:
        return "s4";
    case 22:
        return "u4";
    case 23:
        return "f8e4m3b11fnuz";
    case 24:
        return "f8e5m2fnuz";
    case 25:
        return "f8e4m3fnuz";
    case 26:
        return "s2";
    case 27:
        return "u2";
    case 28:
        return "f8e4m3";
    case 29:
        return "f8e3m4";
    case 30:
        return "s1";
    case 31:
        return "u1";
    case 32:
        return "f4e2m1fn";
    case 33:
        return "f8e8m0fnu";
    case 34:
        return "buffer";
    case 35:
        return "f6e3m2fn";
    case 36:
        return "f6e2m3fn";
    default:
        return {};
    }
}

constexpr std::int32_t kTuple = 13;

void appendShape(std::string &out, const pb::ShapeProto &s, bool layout, int depth)
{
    if (depth > 64)
        refuse("a shape nests tuples more than 64 deep");
    if (s.element_type() == kTuple) {
        out += '(';
        for (int i = 0; i < s.tuple_shapes_size(); ++i) {
            if (i)
                out += ", ";
            appendShape(out, s.tuple_shapes(i), layout, depth + 1);
        }
        out += ')';
        return;
    }
    const std::string_view name = elementTypeName(s.element_type());
    if (name.empty())
        refuse("a shape has element type " + std::to_string(s.element_type()) +
               ", which XLA does not define");
    out += name;
    out += '[';
    for (int i = 0; i < s.dimensions_size(); ++i) {
        if (i)
            out += ',';
        const std::int64_t d = s.dimensions(i);
        const bool dynamic = i < s.is_dynamic_dimension_size() && s.is_dynamic_dimension(i);
        if (d == std::numeric_limits<std::int64_t>::min())
            out += '?';
        else
            out += (dynamic ? "<=" : "") + std::to_string(d);
    }
    out += ']';
    if (!layout || !s.has_layout())
        return;
    const pb::LayoutProto &l = s.layout();
    // A scalar prints its layout only for what it adds: `s32[]{:T(128)}`.
    if (s.dimensions_size() == 0 && l.tiles_size() == 0 && l.memory_space() == 0 &&
        l.element_size_in_bits() == 0)
        return;
    out += '{';
    for (int i = 0; i < l.minor_to_major_size(); ++i)
        out += (i ? "," : "") + std::to_string(l.minor_to_major(i));
    std::string extra;
    for (const pb::TileProto &t : l.tiles()) {
        extra += "T(";
        for (int i = 0; i < t.dimensions_size(); ++i)
            extra += (i ? "," : "") + std::to_string(t.dimensions(i));
        extra += ')';
    }
    if (l.element_size_in_bits() != 0)
        extra += "E(" + std::to_string(l.element_size_in_bits()) + ")";
    if (l.memory_space() != 0)
        extra += "S(" + std::to_string(l.memory_space()) + ")";
    if (!extra.empty())
        out += ':' + extra;
    out += '}';
}

std::string shapeText(const pb::ShapeProto &s, bool layout)
{
    std::string out;
    appendShape(out, s, layout, 0);
    return out;
}

/// Every subshape of a shape, in pre-order: {} first, then {0}, {0,0}, … {1}, …
void subshapes(const pb::ShapeProto &s, Index &at,
               std::vector<std::pair<Index, const pb::ShapeProto *>> &out)
{
    if (out.size() > (std::size_t{1} << 24))
        refuse("a shape has more than 16 million parts");
    out.push_back({at, &s});
    if (s.element_type() != kTuple)
        return;
    for (int i = 0; i < s.tuple_shapes_size(); ++i) {
        at.push_back(i);
        subshapes(s.tuple_shapes(i), at, out);
        at.pop_back();
    }
}

/// XLA names: what HloInstruction names are made of. Anything else would be read as syntax in
/// the text this builds; such a file is refused.
bool isHloName(std::string_view name)
{
    if (name.empty() || name.size() > 4096)
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '-';
    });
}

/// CEscape, as XLA prints metadata strings.
std::string cEscape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\'':
            out += "\\'";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            if (u < 0x20 || u == 0x7f) {
                const char oct[] = {'\\', static_cast<char>('0' + (u >> 6)),
                                    static_cast<char>('0' + ((u >> 3) & 7)),
                                    static_cast<char>('0' + (u & 7)), 0};
                out += oct;
            } else {
                out += c;
            }
        }
    }
    return out;
}

// -- the module as a graph

struct Ins
{
    const pb::HloInstructionProto *p = nullptr;
    int computation = -1;
    bool root = false;
    bool tupleShaped = false;
    std::vector<int> operands; ///< instruction numbers
    std::vector<int> users;    ///< each user once, in instruction order
    std::vector<int> called;   ///< computation numbers
    std::vector<std::pair<Index, const pb::ShapeProto *>> parts;
    /// Part numbers by ShapeIndex, for tuple-shaped instructions (an array has one part, {}).
    std::map<Index, int> tupleParts;
    /// The value each part defines (its number in the values), -1 where it passes one on.
    std::vector<int> defines;
    /// The part at `index`, or -1.
    int partAt(const Index &index) const
    {
        if (!tupleShaped)
            return index.empty() ? 0 : -1;
        const auto found = tupleParts.find(index);
        return found == tupleParts.end() ? -1 : found->second;
    }
    /// The values at each part (HloDataflowAnalysis's InstructionValueSet), by value number.
    std::vector<std::vector<int>> sets;
    bool flowed = false;
    std::string opcode() const { return p->opcode(); }
};

struct Comp
{
    const pb::HloComputationProto *p = nullptr;
    std::vector<int> instructions; ///< as listed
    std::vector<int> parameters;   ///< by parameter number
    std::vector<int> callers;      ///< the instructions that call it
    int root = -1;
    enum class Flow : std::uint8_t
    {
        No,
        Running,
        Done
    } flow = Flow::No;
};

struct Val
{
    std::int64_t id = 0;
    int instruction = -1;
    Index index;
    std::int64_t color = 0;
    std::int64_t size = 0;
    std::vector<std::pair<int, Index>> positions; ///< the defining one first
    struct UseOf
    {
        int instruction;
        int operand;
        Index index;
    };
    std::vector<UseOf> uses;
    std::int64_t start = -1, end = -1;
    int buffer = -1; ///< HloBuffer (alias set) number
};

class Reader
{
public:
    explicit Reader(const pb::HloProto &proto) : m_proto(proto), m_module(proto.hlo_module()) {}

    /// The module's stack-frame index as the optimized HLO text prints it
    /// (HloModule::PrintStackFrameIndex, docs/FORMAT.md §13): four tables, ids 1-based, the
    /// parent printed one above the stored one. Empty when the module has none.
    std::string stackTables() const
    {
        const pb::StackFrameIndexProto &index = m_module.stack_frame_index();
        if (index.stack_frames_size() == 0)
            return {};
        std::string out = "HloModule " +
                          std::string(isHloName(m_module.name()) ? m_module.name() : "m") +
                          "\n\nFileNames\n";
        for (int i = 0; i < index.file_names_size(); ++i)
            out += std::to_string(i + 1) + " \"" + cEscape(index.file_names(i)) + "\"\n";
        out += "\nFunctionNames\n";
        for (int i = 0; i < index.function_names_size(); ++i)
            out += std::to_string(i + 1) + " \"" + cEscape(index.function_names(i)) + "\"\n";
        out += "\nFileLocations\n";
        for (int i = 0; i < index.file_locations_size(); ++i) {
            const auto &l = index.file_locations(i);
            out += std::to_string(i + 1) + " {file_name_id=" + std::to_string(l.file_name_id()) +
                   " function_name_id=" + std::to_string(l.function_name_id()) +
                   " line=" + std::to_string(l.line()) + " end_line=" + std::to_string(l.line()) +
                   " column=" + std::to_string(l.column()) +
                   " end_column=" + std::to_string(l.column()) + "}\n";
        }
        out += "\nStackFrames\n";
        for (int i = 0; i < index.stack_frames_size(); ++i) {
            const auto &f = index.stack_frames(i);
            out += std::to_string(i + 1) +
                   " {file_location_id=" + std::to_string(f.file_location_id()) +
                   " parent_frame_id=" + std::to_string(std::int64_t{f.parent_frame_id()} + 1) +
                   "}\n";
        }
        return out + "\n";
    }

    std::string run(std::vector<std::string> &notes)
    {
        if (!m_proto.has_hlo_module() || m_module.computations_size() == 0)
            refuse("it holds no HLO module (not an xla.HloProto, or an empty one)");
        if (!m_proto.has_buffer_assignment())
            refuse("it holds the module but no buffer assignment: XLA writes one only for the "
                   "module after optimizations (`*after_optimizations.hlo.pb`)");
        graph();
        values();
        for (std::size_t c = 0; c < m_comps.size(); ++c)
            if (m_entry == static_cast<int>(c))
                flow(static_cast<int>(c), nullptr, 0);
        for (std::size_t c = 0; c < m_comps.size(); ++c)
            if (!m_comps[c].p->is_fusion_computation())
                flow(static_cast<int>(c), nullptr, 0);
        positionsAndUses();
        schedule();
        liveRanges();
        notes = std::move(m_notes);
        return text();
    }

private:
    const pb::HloProto &m_proto;
    const pb::HloModuleProto &m_module;
    std::vector<Ins> m_ins;
    std::vector<Comp> m_comps;
    std::unordered_map<std::int64_t, int> m_insById;
    std::unordered_map<std::int64_t, int> m_compById;
    int m_entry = -1;
    std::vector<Val> m_vals;
    std::unordered_map<std::int64_t, int> m_valById;
    std::vector<int> m_sequence; ///< flattened, instruction numbers
    std::vector<std::int64_t> m_time;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_span; ///< per computation, -1 unscheduled
    std::vector<std::string> m_notes;
    std::set<std::string> m_unfollowed;
    std::vector<bool> m_asyncContext; ///< per computation: wrapped by an async instruction
    std::vector<int> m_pending;       ///< topologicalOrder's operand counts
    mutable std::unordered_map<const pb::ShapeProto *, std::int64_t> m_byteSizes;

    // -- reading the module

    void graph()
    {
        for (const pb::HloComputationProto &c : m_module.computations()) {
            if (!isHloName(c.name()))
                refuse("computation " + std::to_string(c.id()) + " has no valid name");
            const int number = static_cast<int>(m_comps.size());
            if (!m_compById.emplace(c.id(), number).second)
                refuse("two computations have id " + std::to_string(c.id()));
            Comp comp;
            comp.p = &c;
            for (const pb::HloInstructionProto &i : c.instructions()) {
                if (!isHloName(i.name()))
                    refuse("instruction " + std::to_string(i.id()) + " of computation " + c.name() +
                           " has no valid name");
                if (!isHloName(i.opcode()))
                    refuse("instruction " + i.name() + " has no valid opcode");
                const int n = static_cast<int>(m_ins.size());
                if (!m_insById.emplace(i.id(), n).second)
                    refuse("two instructions have id " + std::to_string(i.id()) +
                           " (the second is " + i.name() + ")");
                Ins ins;
                ins.p = &i;
                ins.computation = number;
                ins.tupleShaped = i.shape().element_type() == kTuple;
                Index at;
                subshapes(i.shape(), at, ins.parts);
                if (ins.tupleShaped)
                    for (std::size_t k = 0; k < ins.parts.size(); ++k)
                        ins.tupleParts.emplace(ins.parts[k].first, static_cast<int>(k));
                ins.sets.resize(ins.parts.size());
                ins.defines.assign(ins.parts.size(), -1);
                comp.instructions.push_back(n);
                m_ins.push_back(std::move(ins));
            }
            m_comps.push_back(std::move(comp));
        }
        for (Comp &c : m_comps) {
            const std::int64_t rootId = c.p->root_id();
            for (const int n : c.instructions) {
                Ins &ins = m_ins[static_cast<std::size_t>(n)];
                for (const std::int64_t id : ins.p->operand_ids()) {
                    const auto found = m_insById.find(id);
                    if (found == m_insById.end() ||
                        m_ins[static_cast<std::size_t>(found->second)].computation !=
                            ins.computation)
                        refuse("instruction " + ins.p->name() + " has operand id " +
                               std::to_string(id) + ", which is no instruction of its computation");
                    ins.operands.push_back(found->second);
                }
                for (const std::int64_t id : ins.p->called_computation_ids()) {
                    const auto found = m_compById.find(id);
                    if (found == m_compById.end())
                        refuse("instruction " + ins.p->name() + " calls computation id " +
                               std::to_string(id) + ", which is not in the module");
                    ins.called.push_back(found->second);
                    m_comps[static_cast<std::size_t>(found->second)].callers.push_back(n);
                }
                if (ins.p->id() == rootId)
                    c.root = n;
                if (ins.opcode() == "parameter") {
                    const std::int64_t k = ins.p->parameter_number();
                    if (k < 0 || k >= static_cast<std::int64_t>(c.instructions.size()))
                        refuse("parameter " + ins.p->name() + " has number " + std::to_string(k));
                    if (c.parameters.size() <= static_cast<std::size_t>(k))
                        c.parameters.resize(static_cast<std::size_t>(k) + 1, -1);
                    c.parameters[static_cast<std::size_t>(k)] = n;
                }
            }
            if (c.root < 0 && !c.instructions.empty())
                c.root = c.instructions.back(); // XLA lists the root last
            if (c.root >= 0)
                m_ins[static_cast<std::size_t>(c.root)].root = true;
            for (const int n : c.instructions)
                for (const int o : m_ins[static_cast<std::size_t>(n)].operands) {
                    std::vector<int> &users = m_ins[static_cast<std::size_t>(o)].users;
                    if (users.empty() || users.back() != n)
                        users.push_back(n);
                }
        }
        for (Ins &ins : m_ins) { // an instruction using one operand twice is one user
            std::sort(ins.users.begin(), ins.users.end());
            ins.users.erase(std::unique(ins.users.begin(), ins.users.end()), ins.users.end());
        }
        if (const auto found = m_compById.find(m_module.entry_computation_id());
            found != m_compById.end() && m_module.entry_computation_id() != 0)
            m_entry = found->second;
        for (std::size_t c = 0; m_entry < 0 && c < m_comps.size(); ++c)
            if (m_comps[c].p->name() == m_module.entry_computation_name())
                m_entry = static_cast<int>(c);
        if (m_entry < 0)
            refuse("the module names no entry computation that it holds");
    }

    void values()
    {
        const pb::BufferAssignmentProto &ba = m_proto.buffer_assignment();
        for (const pb::LogicalBufferProto &b : ba.logical_buffers()) {
            const auto found = m_insById.find(b.defined_at().instruction_id());
            if (found == m_insById.end())
                refuse("value " + std::to_string(b.id()) + " is defined at instruction id " +
                       std::to_string(b.defined_at().instruction_id()) +
                       ", which is not in the module");
            Val v;
            v.id = b.id();
            v.instruction = found->second;
            v.index.assign(b.defined_at().shape_index().begin(),
                           b.defined_at().shape_index().end());
            v.color = b.color();
            v.size = b.size();
            Ins &ins = m_ins[static_cast<std::size_t>(v.instruction)];
            const int part = ins.partAt(v.index);
            if (part < 0)
                refuse("value " + std::to_string(v.id) + " is defined at " + ins.p->name() +
                       indexText(v.index) + ", which its shape does not have");
            const int n = static_cast<int>(m_vals.size());
            if (!m_valById.emplace(v.id, n).second)
                refuse("two values have id " + std::to_string(v.id));
            if (ins.defines[static_cast<std::size_t>(part)] >= 0)
                refuse("two values are defined at " + ins.p->name() + indexText(v.index));
            ins.defines[static_cast<std::size_t>(part)] = n;
            m_vals.push_back(std::move(v));
        }
        // HloBuffers: each value with the values it shares its buffer with.
        std::vector<int> parent(m_vals.size());
        std::iota(parent.begin(), parent.end(), 0);
        const auto find = [&parent](int x) {
            while (parent[static_cast<std::size_t>(x)] != x)
                x = parent[static_cast<std::size_t>(x)] =
                    parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
            return x;
        };
        for (const auto &alias : ba.buffer_aliases()) {
            const auto source = m_valById.find(alias.source_buffer_id());
            const auto at = m_insById.find(alias.location().instruction_id());
            if (source == m_valById.end() || at == m_insById.end())
                refuse("a buffer alias names value " + std::to_string(alias.source_buffer_id()) +
                       " or instruction " + std::to_string(alias.location().instruction_id()) +
                       ", which are not in the module");
            const Index index(alias.location().shape_index().begin(),
                              alias.location().shape_index().end());
            const Ins &holder = m_ins[static_cast<std::size_t>(at->second)];
            const int part = holder.partAt(index);
            const int other = part < 0 ? -1 : holder.defines[static_cast<std::size_t>(part)];
            if (other < 0)
                continue; // an alias to a value without allocation
            parent[static_cast<std::size_t>(find(source->second))] = find(other);
        }
        for (std::size_t v = 0; v < m_vals.size(); ++v)
            m_vals[v].buffer = find(static_cast<int>(v));
    }

    // -- HloDataflowAnalysis: the values at each part of each instruction

    const std::vector<int> *setAt(int instruction, const Index &index) const
    {
        const Ins &ins = m_ins[static_cast<std::size_t>(instruction)];
        const int part = ins.partAt(index);
        return part < 0 ? nullptr : &ins.sets[static_cast<std::size_t>(part)];
    }

    static Index join(const Index &head, const Index &tail, std::size_t from = 0)
    {
        Index out = head;
        out.insert(out.end(),
                   tail.begin() + static_cast<std::ptrdiff_t>(std::min(from, tail.size())),
                   tail.end());
        return out;
    }

    /// Parameters of a called computation are bound to the caller's operands (call: operand k;
    /// conditional branch b: operand b + 1; while: the while itself).
    struct Binding
    {
        std::vector<int> operands; ///< per parameter number, the instruction it stands for
    };

    void flow(int c, const Binding *binding, int depth)
    {
        Comp &comp = m_comps[static_cast<std::size_t>(c)];
        if (comp.flow == Comp::Flow::Done)
            return;
        if (comp.flow == Comp::Flow::Running)
            refuse("computation " + comp.p->name() + " calls itself");
        if (depth > 256)
            refuse("computations call one another more than 256 deep");
        comp.flow = Comp::Flow::Running;
        for (const int n : topologicalOrder(comp))
            flowInstruction(n, binding, depth);
        comp.flow = Comp::Flow::Done;
    }

    std::vector<int> topologicalOrder(const Comp &comp)
    {
        // Users are listed once per user (graph()), so count each operand once too.
        m_pending.resize(m_ins.size());
        std::vector<int> ready, order, distinct;
        for (const int n : comp.instructions) {
            const auto &ops = m_ins[static_cast<std::size_t>(n)].operands;
            distinct.assign(ops.begin(), ops.end());
            std::sort(distinct.begin(), distinct.end());
            const auto count = std::unique(distinct.begin(), distinct.end()) - distinct.begin();
            m_pending[static_cast<std::size_t>(n)] = static_cast<int>(count);
            if (count == 0)
                ready.push_back(n);
        }
        std::reverse(ready.begin(), ready.end());
        while (!ready.empty()) {
            const int n = ready.back();
            ready.pop_back();
            order.push_back(n);
            for (const int u : m_ins[static_cast<std::size_t>(n)].users)
                if (--m_pending[static_cast<std::size_t>(u)] == 0)
                    ready.push_back(u);
        }
        if (order.size() != comp.instructions.size())
            refuse("the instructions of computation " + comp.p->name() +
                   " use one another in a circle");
        return order;
    }

    void addTo(std::vector<int> &set, const std::vector<int> *from)
    {
        if (!from)
            return;
        for (const int v : *from)
            if (std::find(set.begin(), set.end(), v) == set.end())
                set.push_back(v);
    }

    void flowInstruction(int n, const Binding *binding, int depth)
    {
        Ins &ins = m_ins[static_cast<std::size_t>(n)];
        const std::string op = ins.opcode();
        const auto operand = [&](std::size_t k) {
            return k < ins.operands.size() ? ins.operands[k] : -1;
        };
        // Parts the instruction defines, and parts that pass a value through (worked out below).
        std::vector<bool> defined(ins.parts.size(), false);
        for (std::size_t k = 0; k < ins.parts.size(); ++k) {
            if (ins.defines[k] >= 0) {
                ins.sets[k] = {ins.defines[k]};
                defined[k] = true;
            }
        }
        const auto passThrough = [&](std::size_t k, int from, const Index &index) {
            if (from >= 0)
                addTo(ins.sets[k], setAt(from, index));
        };
        // Called computations first: the caller's own values come from them.
        if (op == "while" && ins.called.size() >= 2) {
            for (std::size_t k = 0; k < ins.parts.size(); ++k)
                if (!defined[k])
                    passThrough(k, operand(0), ins.parts[k].first);
            const Binding loop{{n}};
            flow(ins.called[1], &loop, depth + 1); // condition
            flow(ins.called[0], &loop, depth + 1); // body
            ins.flowed = true;
            return;
        }
        if (op == "call" || op == "conditional" || op == "async-start") {
            for (std::size_t b = 0; b < ins.called.size(); ++b) {
                Binding args;
                if (op == "conditional")
                    args.operands.push_back(operand(b + 1));
                else
                    args.operands = ins.operands;
                flow(ins.called[b], &args, depth + 1);
            }
        }
        for (std::size_t k = 0; k < ins.parts.size(); ++k) {
            if (defined[k])
                continue;
            const Index &index = ins.parts[k].first;
            if (op == "parameter") {
                const std::int64_t number = ins.p->parameter_number();
                if (binding && number >= 0 &&
                    static_cast<std::size_t>(number) < binding->operands.size())
                    passThrough(k, binding->operands[static_cast<std::size_t>(number)], index);
            } else if (op == "get-tuple-element") {
                passThrough(k, operand(0), join({ins.p->tuple_index()}, index));
            } else if (op == "tuple") {
                if (!index.empty())
                    passThrough(k, operand(static_cast<std::size_t>(index[0])), join({}, index, 1));
            } else if (op == "call") {
                if (!ins.called.empty())
                    passThrough(k, m_comps[static_cast<std::size_t>(ins.called[0])].root, index);
            } else if (op == "conditional") {
                for (const int b : ins.called)
                    passThrough(k, m_comps[static_cast<std::size_t>(b)].root, index);
            } else if (op == "bitcast" || op == "domain" || op == "optimization-barrier" ||
                       op == "add-dependency") {
                passThrough(k, operand(0), index);
            } else if (op == "async-start") {
                // {0, k, …} the operands; {1, …} the wrapped computation's root.
                if (index.size() >= 2 && index[0] == 0)
                    passThrough(k, operand(static_cast<std::size_t>(index[1])), join({}, index, 2));
                else if (!index.empty() && index[0] == 1 && !ins.called.empty())
                    passThrough(k, m_comps[static_cast<std::size_t>(ins.called[0])].root,
                                join({}, index, 1));
            } else if (op == "copy-start") {
                if (!index.empty() && index[0] == 1) // {1} the operand
                    passThrough(k, operand(0), join({}, index, 1));
            } else if (op == "all-gather-start" || op == "collective-permute-start") {
                // {0} the operand (or {0, k} operand k of several).
                if (!index.empty() && index[0] == 0) {
                    if (ins.operands.size() == 1)
                        passThrough(k, operand(0), join({}, index, 1));
                    else if (index.size() >= 2)
                        passThrough(k, operand(static_cast<std::size_t>(index[1])),
                                    join({}, index, 2));
                }
            } else if (op == "async-update" || op == "all-reduce-done") {
                passThrough(k, operand(0), index);
            } else if (op == "async-done" || op == "all-gather-done" ||
                       op == "collective-permute-done") {
                passThrough(k, operand(0), join({1}, index));
            } else if (op == "copy-done") {
                passThrough(k, operand(0), join({0}, index));
            } else if (op == "recv-done") {
                if (!index.empty() && index[0] == 0)
                    passThrough(k, operand(0), index);
            } else if (m_unfollowed.size() < 16 && m_unfollowed.insert(op).second) {
                m_notes.push_back("a part of a " + op +
                                  " instruction holds no value of its own and is not followed "
                                  "to its operand's (positions and uses through it are left out)");
            }
        }
        ins.flowed = true;
    }

    // -- HloValue::positions and ComputeUses

    /// HloValue.cc MayUseOperandValue.
    static bool mayUse(const Index &index, const std::string &user)
    {
        if (user == "get-tuple-element" || user == "copy")
            return index.empty();
        return user != "domain" && user != "tuple";
    }

    void positionsAndUses()
    {
        for (std::size_t v = 0; v < m_vals.size(); ++v)
            m_vals[v].positions.push_back({m_vals[v].instruction, m_vals[v].index});
        for (std::size_t n = 0; n < m_ins.size(); ++n) {
            const Ins &ins = m_ins[n];
            for (std::size_t k = 0; k < ins.parts.size(); ++k)
                for (const int v : ins.sets[k]) {
                    Val &val = m_vals[static_cast<std::size_t>(v)];
                    if (val.instruction == static_cast<int>(n) && val.index == ins.parts[k].first)
                        continue;
                    val.positions.push_back({static_cast<int>(n), ins.parts[k].first});
                }
        }
        std::vector<int> roots;
        for (Val &val : m_vals) {
            roots.clear();
            for (const auto &[at, index] : val.positions)
                if (m_ins[static_cast<std::size_t>(at)].root)
                    roots.push_back(at);
            for (const auto &[at, index] : val.positions) {
                for (const int user : m_ins[static_cast<std::size_t>(at)].users) {
                    const Ins &u = m_ins[static_cast<std::size_t>(user)];
                    if (!mayUse(index, u.opcode()) &&
                        !(u.root && std::find(roots.begin(), roots.end(), user) != roots.end()))
                        continue;
                    for (std::size_t i = 0; i < u.operands.size(); ++i)
                        if (u.operands[i] == at)
                            val.uses.push_back({user, static_cast<int>(i), index});
                }
            }
        }
    }

    // -- HloLiveRange, module-scoped

    void schedule()
    {
        m_time.assign(m_ins.size(), -1);
        m_span.assign(m_comps.size(), {-1, -1});
        m_asyncContext.assign(m_comps.size(), false);
        if (!m_module.has_schedule() || m_module.schedule().sequences().empty()) {
            m_notes.push_back("the module carries no schedule: no live ranges");
            return;
        }
        flatten(m_entry, 0);
    }

    void flatten(int c, int depth)
    {
        if (depth > 256)
            refuse("computations call one another more than 256 deep");
        const Comp &comp = m_comps[static_cast<std::size_t>(c)];
        const auto &sequences = m_module.schedule().sequences();
        const auto found = sequences.find(comp.p->id());
        if (found == sequences.end() || m_span[static_cast<std::size_t>(c)].first >= 0)
            return;
        const std::int64_t start = static_cast<std::int64_t>(m_sequence.size());
        m_span[static_cast<std::size_t>(c)].first = start; // marks it as being flattened
        for (const std::int64_t id : found->second.instruction_ids()) {
            const auto at = m_insById.find(id);
            if (at == m_insById.end() ||
                m_ins[static_cast<std::size_t>(at->second)].computation != c)
                refuse("the schedule of " + comp.p->name() + " lists instruction id " +
                       std::to_string(id) + ", which is not in that computation");
            const int n = at->second;
            const Ins &ins = m_ins[static_cast<std::size_t>(n)];
            const std::string op = ins.opcode();
            if (op == "call" || op == "conditional") {
                for (const int callee : ins.called)
                    flatten(callee, depth + 1);
            } else if (op == "async-start" || op == "async-update" || op == "async-done") {
                // The wrapped computation, before the first async instruction of its chain.
                for (const int callee : ins.called) {
                    flatten(callee, depth + 1);
                    m_asyncContext[static_cast<std::size_t>(callee)] = true;
                }
            } else if (op == "while" && ins.called.size() >= 2) {
                flatten(ins.called[1], depth + 1);
                flatten(ins.called[0], depth + 1);
            }
            if (m_time[static_cast<std::size_t>(n)] >= 0)
                refuse("the schedule lists " + ins.p->name() + " twice");
            m_time[static_cast<std::size_t>(n)] = static_cast<std::int64_t>(m_sequence.size());
            m_sequence.push_back(n);
        }
        m_span[static_cast<std::size_t>(c)] = {start, static_cast<std::int64_t>(m_sequence.size())};
    }

    /// In a computation an async instruction wraps, a value lives until its async-done: the
    /// latest time of the async-done instructions that call it (the computation's end when one
    /// is not scheduled).
    std::int64_t asyncDoneTime(int computation) const
    {
        std::int64_t last = -1;
        for (const int n : m_comps[static_cast<std::size_t>(computation)].callers) {
            const std::string op = m_ins[static_cast<std::size_t>(n)].opcode();
            if (op != "async-start" && op != "async-update" && op != "async-done")
                continue;
            // start and update lead to the done of their chain.
            int done = n;
            for (int hops = 0;
                 hops < 64 && m_ins[static_cast<std::size_t>(done)].opcode() != "async-done";
                 ++hops) {
                const auto &users = m_ins[static_cast<std::size_t>(done)].users;
                const auto next = std::find_if(users.begin(), users.end(), [this](int u) {
                    const std::string o = m_ins[static_cast<std::size_t>(u)].opcode();
                    return o == "async-update" || o == "async-done";
                });
                if (next == users.end())
                    break;
                done = *next;
            }
            const std::int64_t t = m_ins[static_cast<std::size_t>(done)].opcode() == "async-done"
                                       ? m_time[static_cast<std::size_t>(done)]
                                       : -1;
            last =
                std::max(last, t >= 0 ? t : m_span[static_cast<std::size_t>(computation)].second);
        }
        return last;
    }

    bool parameterAliased(const Ins &param, const Index &index) const
    {
        for (const auto &e : m_module.input_output_alias().entries())
            if (e.parameter_number() == param.p->parameter_number() &&
                Index(e.parameter_shape_index().begin(), e.parameter_shape_index().end()) == index)
                return true;
        return false;
    }

    void liveRanges()
    {
        if (m_sequence.empty())
            return;
        const std::int64_t end = static_cast<std::int64_t>(m_sequence.size());
        // Each async computation's done time, once (its values all end no earlier).
        std::vector<std::int64_t> asyncDone(m_comps.size(), -1);
        for (std::size_t c = 0; c < m_comps.size(); ++c)
            if (m_asyncContext[c])
                asyncDone[c] = asyncDoneTime(static_cast<int>(c));
        for (Val &v : m_vals) {
            const Ins &ins = m_ins[static_cast<std::size_t>(v.instruction)];
            const std::int64_t t = m_time[static_cast<std::size_t>(v.instruction)];
            if (t < 0)
                continue;
            const auto span = m_span[static_cast<std::size_t>(ins.computation)];
            const bool parameter = ins.opcode() == "parameter";
            v.start = parameter ? span.first : t;
            std::int64_t last = ins.root ? span.second : t; // definition_end_time
            if (m_asyncContext[static_cast<std::size_t>(ins.computation)])
                last = std::max(last, asyncDone[static_cast<std::size_t>(ins.computation)]);
            for (std::size_t k = 1; k < v.positions.size(); ++k) {
                const Ins &at = m_ins[static_cast<std::size_t>(v.positions[k].first)];
                std::int64_t when = -1;
                if (at.root)
                    when = m_span[static_cast<std::size_t>(at.computation)].second;
                else
                    when = m_time[static_cast<std::size_t>(v.positions[k].first)];
                if (when >= 0)
                    last = std::max(last, when);
            }
            if (parameter && ins.computation == m_entry && !parameterAliased(ins, v.index)) {
                last = end;
            } else {
                std::int64_t used = -1;
                for (const Val::UseOf &u : v.uses) {
                    const Ins &user = m_ins[static_cast<std::size_t>(u.instruction)];
                    int at = u.instruction;
                    if (user.opcode() == "call")
                        continue;
                    if (user.opcode() == "while" && !user.called.empty()) {
                        const Comp &body = m_comps[static_cast<std::size_t>(user.called[0])];
                        if (body.parameters.empty() || body.parameters[0] < 0)
                            continue;
                        at = body.parameters[0];
                    }
                    used = std::max(used, m_time[static_cast<std::size_t>(at)]);
                }
                last = std::max(last, used);
            }
            v.end = last;
        }
        // NormalizeAliasedBuffers: the values of one buffer, by start, never overlap.
        std::map<int, std::vector<int>> byBuffer;
        for (std::size_t i = 0; i < m_vals.size(); ++i)
            if (m_vals[i].start >= 0)
                byBuffer[m_vals[i].buffer].push_back(static_cast<int>(i));
        for (auto &[buffer, list] : byBuffer) {
            std::sort(list.begin(), list.end(), [this](int a, int b) {
                const Val &x = m_vals[static_cast<std::size_t>(a)];
                const Val &y = m_vals[static_cast<std::size_t>(b)];
                return std::tie(x.start, x.end, x.id) < std::tie(y.start, y.end, y.id);
            });
            for (std::size_t i = 0; i + 1 < list.size(); ++i) {
                Val &a = m_vals[static_cast<std::size_t>(list[i])];
                Val &b = m_vals[static_cast<std::size_t>(list[i + 1])];
                b.end = std::max(a.end, b.end);
                a.end = std::min(a.end, b.start);
            }
        }
    }

    // -- the text XLA prints for it (BufferAssignment::ToString, HloLiveRange::ToString)

    /// A value XLA's dataflow makes where control flow merges: at a while or conditional, or
    /// at the parameter of a computation a while calls (HloValue::is_phi).
    bool isPhi(const Val &v) const
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

    std::string valueName(const Val &v) const
    {
        const Ins &ins = m_ins[static_cast<std::size_t>(v.instruction)];
        return "<" + std::to_string(v.id) + " " + ins.p->name() +
               (ins.tupleShaped ? indexText(v.index) : "") + (isPhi(v) ? " (phi)" : "") + " @" +
               std::to_string(v.color) + ">";
    }

    std::string instructionText(const Ins &ins) const
    {
        std::string out = "%" + ins.p->name() + " = " + shapeText(ins.p->shape(), true) + " " +
                          ins.opcode() + "(";
        for (std::size_t i = 0; i < ins.operands.size(); ++i)
            out += (i ? ", %" : "%") + m_ins[static_cast<std::size_t>(ins.operands[i])].p->name();
        out += ")";
        if (!ins.p->fusion_kind().empty() && isHloName(ins.p->fusion_kind()))
            out += ", kind=" + ins.p->fusion_kind();
        if (!ins.called.empty()) {
            out += ins.opcode() == "fusion" ? ", calls=" : ", called_computations={";
            for (std::size_t i = 0; i < ins.called.size(); ++i)
                out +=
                    (i ? ", %" : "%") + m_comps[static_cast<std::size_t>(ins.called[i])].p->name();
            if (ins.opcode() != "fusion")
                out += "}";
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

    std::string text() const
    {
        const pb::BufferAssignmentProto &ba = m_proto.buffer_assignment();
        std::string out = "BufferAssignment:\n";
        // About 3 bytes of text for each byte of proto: grown once, not by doubling.
        out.reserve(static_cast<std::size_t>(m_proto.ByteSizeLong()) * 3 + 4096);
        std::int64_t total = 0;
        const Comp &entry = m_comps[static_cast<std::size_t>(m_entry)];
        for (const pb::BufferAllocationProto &a : ba.buffer_allocations()) {
            if (a.size() < 0)
                refuse("allocation " + std::to_string(a.index()) + " has a negative size");
            total += a.size();
            out += "allocation " + std::to_string(a.index()) + ": size " + std::to_string(a.size());
            if (a.color() != 0)
                out += ", color " + std::to_string(a.color());
            if (a.is_entry_computation_parameter()) {
                const Index index(a.parameter_shape_index().begin(),
                                  a.parameter_shape_index().end());
                std::string shape = "<unknown shape>";
                const std::int64_t k = a.parameter_number();
                if (k >= 0 && static_cast<std::size_t>(k) < entry.parameters.size() &&
                    entry.parameters[static_cast<std::size_t>(k)] >= 0) {
                    const Ins &param = m_ins[static_cast<std::size_t>(
                        entry.parameters[static_cast<std::size_t>(k)])];
                    if (const int part = param.partAt(index); part >= 0)
                        shape =
                            shapeText(*param.parts[static_cast<std::size_t>(part)].second, false);
                }
                out += ", parameter " + std::to_string(k) + ", shape |" + shape +
                       "| at ShapeIndex " + indexText(index);
            }
            std::vector<std::pair<std::int64_t, const pb::BufferAllocationProto::Assigned *>>
                assigned;
            for (const auto &as : a.assigned())
                assigned.push_back({as.logical_buffer_id(), &as});
            std::sort(assigned.begin(), assigned.end(),
                      [](const auto &x, const auto &y) { return x.first < y.first; });
            for (const auto &[id, as] : assigned) { // GetOutputInstruction
                const auto v = m_valById.find(id);
                if (v == m_valById.end())
                    continue;
                bool output = false;
                for (const auto &[at, index] :
                     m_vals[static_cast<std::size_t>(v->second)].positions)
                    if (index.empty() && static_cast<int>(at) == entry.root) {
                        out += ", output shape is |" +
                               shapeText(m_ins[static_cast<std::size_t>(at)].p->shape(), false) +
                               "|";
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
            if (!a.is_entry_computation_parameter() && !a.maybe_live_out() &&
                !a.is_thread_local() && !a.is_constant())
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
            }
        }
        out += "\nTotal bytes used: " + std::to_string(total) + " (" + humanBytes(total) + ")\n\n";
        out += "Used values:\n";
        std::vector<int> order(m_vals.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [this](int a, int b) {
            return m_vals[static_cast<std::size_t>(a)].id < m_vals[static_cast<std::size_t>(b)].id;
        });
        for (const int n : order) {
            const Val &v = m_vals[static_cast<std::size_t>(n)];
            out += valueName(v) + "\n positions:\n";
            for (const auto &[at, index] : v.positions) {
                const Ins &ins = m_ins[static_cast<std::size_t>(at)];
                out +=
                    "  " + ins.p->name() + (ins.tupleShaped ? " " + indexText(index) : "") + "\n";
            }
            out += " uses:\n";
            for (const Val::UseOf &u : v.uses) {
                const Ins &user = m_ins[static_cast<std::size_t>(u.instruction)];
                const Ins &operand = m_ins[static_cast<std::size_t>(
                    user.operands[static_cast<std::size_t>(u.operand)])];
                out += "  " + user.p->name() + ", operand " + std::to_string(u.operand) +
                       (operand.tupleShaped ? " " + indexText(u.index) : "") + "\n";
            }
            out += " from instruction: " +
                   instructionText(m_ins[static_cast<std::size_t>(v.instruction)]) + "\n";
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
            }
            peakText(out, order);
        }
        return out;
    }

    /// ShapeUtil::ByteSizeOf(shape, 8); -1 for a shape with an unbounded dimension. Worked
    /// out once per shape.
    std::int64_t byteSize(const pb::ShapeProto &shape) const
    {
        if (const auto known = m_byteSizes.find(&shape); known != m_byteSizes.end())
            return known->second;
        const std::int64_t bytes = byteSizeOnce(shape);
        m_byteSizes.emplace(&shape, bytes);
        return bytes;
    }

    static std::int64_t byteSizeOnce(const pb::ShapeProto &shape)
    {
        const std::string text = shapeText(shape, true);
        if (text.find('?') != std::string::npos)
            return -1;
        const ShapeParseResult parsed = ShapeParser::parse(text);
        return parsed.ok ? parsed.shape.byteSize(8) : 0;
    }

    /// HloLiveRange::ComputePeakMemoryMoment and the list ToString prints at it: the values
    /// live at the first time the sum of their instructions' whole shapes is largest.
    void peakText(std::string &out, const std::vector<int> &order) const
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
                    {byteSize(*ins.parts[static_cast<std::size_t>(ins.partAt(v.index))].second),
                     n});
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
            total += bytes;
            out += "    " + m_ins[static_cast<std::size_t>(v.instruction)].p->name() +
                   indexText(v.index) + ": " + std::to_string(bytes) +
                   " bytes (cumulative: " + std::to_string(total) + " bytes)\n";
        }
    }
};

} // namespace

bool HloProtoDumps::isName(std::string_view path)
{
    // Every HloProto kind of the one table, whatever the stem (a module before optimization
    // is read, to say it has no buffer assignment).
    for (const ModuleFileKind &kind : ModuleNames::fileKinds())
        if (kind.format == ModuleFileFormat::HloProto && path.size() > kind.suffix.size() &&
            path.ends_with(kind.suffix) && path[path.size() - kind.suffix.size() - 1] == '.')
            return true;
    return false;
}

std::string HloProtoDumps::dumpText(std::string_view bytes, std::string *error,
                                    std::vector<std::string> *notes, std::string *stackTables)
{
    const Stopwatch clock;
    // On an arena: a module is hundreds of thousands of small messages, made and dropped at once.
    google::protobuf::Arena arena;
    pb::HloProto &proto = *google::protobuf::Arena::CreateMessage<pb::HloProto>(&arena);
    google::protobuf::io::CodedInputStream in(
        reinterpret_cast<const std::uint8_t *>(bytes.data()),
        static_cast<int>(std::min<std::size_t>(bytes.size(), std::numeric_limits<int>::max())));
    in.SetRecursionLimit(100);
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        !proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
        *error = "not a serialized xla.HloProto (the protobuf data does not parse: damaged, cut "
                 "short, or another kind of file)";
        return {};
    }
    spdlog::debug("hlo proto: {} bytes parsed in {:.3f} s", bytes.size(), clock.seconds());
    try {
        std::vector<std::string> said;
        Reader reader(proto);
        std::string text = reader.run(said);
        spdlog::debug("hlo proto: module worked out and written as {} bytes of text at {:.3f} s",
                      text.size(), clock.seconds());
        if (notes)
            *notes = std::move(said);
        if (stackTables)
            *stackTables = reader.stackTables();
        return text;
    } catch (const Refused &r) {
        *error = r.message;
    } catch (const std::bad_alloc &) {
        *error = "the module is too large to read in this machine's memory";
    }
    return {};
}

LoadResult HloProtoDumps::loadBytes(std::string_view bytes, const std::string &name,
                                    const ParseOptions &options)
{
    LoadResult result;
    std::string error;
    std::vector<std::string> notes;
    std::string tables;
    const std::string text = dumpText(bytes, &error, &notes, &tables);
    if (!error.empty()) {
        result.error = name + ": " + error;
        result.errorFile = name;
        return result;
    }
    ParseOptions how = options;
    how.companions = false;
    LoadResult parsed = DumpParser::loadBuffer(text, name, how);
    if (!parsed.ok()) {
        // The text was made here from a proto whose parts disagree; say so of the proto.
        result.error = name + ": the module's buffer assignment does not hold together (" +
                       parsed.error.substr(std::min(parsed.error.size(), name.size() + 1)) + ")";
        result.errorFile = name;
        return result;
    }
    // The dump was made just now and is held nowhere else: it may still be added to.
    auto dump = std::const_pointer_cast<Dump>(parsed.dump);
    dump->notes.insert(dump->notes.begin(),
                       "read from XLA's binary HloProto: positions, uses and live ranges worked "
                       "out by XLA's dataflow and live-range rules from the module's schedule");
    for (std::string &n : notes)
        dump->notes.push_back(std::move(n));
    // The call stacks, from the module's own stack-frame index (what a text dump takes from the
    // optimized HLO beside it).
    if (!tables.empty())
        readStackFrames(tables, 0, *dump, options.maxWarnings);
    result.dump = std::move(dump);
    return result;
}

LoadResult HloProtoDumps::load(const std::string &path, const ParseOptions &options)
{
    const Decompressed read = decompress::file(path);
    if (!read.ok()) {
        LoadResult result;
        result.error = path + ": " + read.error;
        result.errorFile = path;
        return result;
    }
    return loadBytes(read.bytes, path, options);
}

} // namespace bufferscope
