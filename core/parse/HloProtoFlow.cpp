// The proto reader: the module as a graph, its values, and HloDataflowAnalysis's rules for
// their positions and uses (detail/HloProtoReader.h).

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

std::string Reader::stackTables() const
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
               " parent_frame_id=" + std::to_string(std::int64_t{f.parent_frame_id()} + 1) + "}\n";
    }
    return out + "\n";
}

std::string Reader::run(std::vector<std::string> &notes)
{
    if (!m_proto.has_hlo_module() || m_module.computations_size() == 0)
        refuse("it holds no HLO module (not an xla.HloProto, or an empty one)");
    if (!m_proto.has_buffer_assignment())
        refuse("it holds the module but no buffer assignment: XLA writes one only for the "
               "module after optimizations (`*after_optimizations.hlo.pb`)");
    graph();
    values();
    m_mark.assign(m_vals.size(), 0);
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

void Reader::graph()
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
                refuse("two instructions have id " + std::to_string(i.id()) + " (the second is " +
                       i.name() + ")");
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
    // Each operand becomes a use, a line of the text and its parsed record: about 128 bytes
    // in all, from as little as one byte of packed proto. Counted before any is expanded
    // (10^7 operands in 10 MB took 1.1 GB).
    {
        constexpr std::int64_t kBytesPerOperand = 128;
        std::int64_t operands = 0;
        for (const Ins &ins : m_ins)
            operands += ins.p->operand_ids_size();
        if (operands > m_allowance / kBytesPerOperand)
            refuse("its instructions have " + std::to_string(operands) +
                   " operands, from a proto of " + std::to_string(m_proto.ByteSizeLong()) +
                   " bytes: more than the " + std::to_string(m_allowance / kBytesPerOperand) +
                   " its size allows (each is a use to work out and print); far beyond any "
                   "module XLA writes, refused rather than filling memory");
    }
    for (Comp &c : m_comps) {
        const std::int64_t rootId = c.p->root_id();
        for (const int n : c.instructions) {
            Ins &ins = m_ins[static_cast<std::size_t>(n)];
            for (const std::int64_t id : ins.p->operand_ids()) {
                const auto found = m_insById.find(id);
                if (found == m_insById.end() ||
                    m_ins[static_cast<std::size_t>(found->second)].computation != ins.computation)
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

void Reader::values()
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
        v.index.assign(b.defined_at().shape_index().begin(), b.defined_at().shape_index().end());
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

const std::vector<int> *Reader::setAt(int instruction, const Index &index) const
{
    const Ins &ins = m_ins[static_cast<std::size_t>(instruction)];
    const int part = ins.partAt(index);
    return part < 0 ? nullptr : &ins.sets[static_cast<std::size_t>(part)];
}

Index Reader::join(const Index &head, const Index &tail, std::size_t from)
{
    Index out = head;
    out.insert(out.end(), tail.begin() + static_cast<std::ptrdiff_t>(std::min(from, tail.size())),
               tail.end());
    return out;
}

void Reader::flow(int c, const Binding *binding, int depth)
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

std::vector<int> Reader::topologicalOrder(const Comp &comp)
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

void Reader::addTo(std::vector<int> &set, const std::vector<int> *from)
{
    if (!from || from->empty())
        return;
    // A set is grown in one burst (a conditional's part from each branch in turn): what it
    // holds is marked when the burst starts, so each value added is one look, not a search
    // of the set (a conditional of 100,000 branches made 5 * 10^9).
    if (&set != m_markedSet) {
        m_markedSet = &set;
        ++m_generation;
        for (const int v : set)
            m_mark[static_cast<std::size_t>(v)] = m_generation;
    }
    const std::size_t before = set.size();
    for (const int v : *from)
        if (m_mark[static_cast<std::size_t>(v)] != m_generation) {
            m_mark[static_cast<std::size_t>(v)] = m_generation;
            set.push_back(v);
        }
    countReferences(set.size() - before);
}

void Reader::flowInstruction(int n, const Binding *binding, int depth)
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
            countReferences(1);
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
                   op == "add-dependency" || op == "async-update" || op == "all-reduce-done") {
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
                    passThrough(k, operand(static_cast<std::size_t>(index[1])), join({}, index, 2));
            }
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

bool Reader::mayUse(const Index &index, const std::string &user)
{
    if (user == "get-tuple-element" || user == "copy")
        return index.empty();
    return user != "domain" && user != "tuple";
}

void Reader::countReferences(std::size_t more)
{
    m_references += static_cast<std::int64_t>(more);
    if (m_references > m_allowance / 32)
        refuse("its values have more than " + std::to_string(m_allowance / 32) +
               " positions and uses, from a proto of " + std::to_string(m_proto.ByteSizeLong()) +
               " bytes: they multiply repeated fields (a tuple's parts used many times over), "
               "far beyond any module XLA writes; refused rather than filling memory");
}

void Reader::checkText(const std::string &text) const
{
    if (static_cast<std::int64_t>(text.size()) > m_allowance)
        refuse("its buffer assignment would be more than " + std::to_string(m_allowance) +
               " bytes of text, from a proto of " + std::to_string(m_proto.ByteSizeLong()) +
               " bytes: its names and parts multiply (a long name on a tuple of many parts), "
               "far beyond any module XLA writes; refused rather than filling memory");
}

void Reader::positionsAndUses()
{
    countReferences(m_vals.size());
    for (std::size_t v = 0; v < m_vals.size(); ++v)
        m_vals[v].positions.push_back({m_vals[v].instruction, m_vals[v].index});
    for (std::size_t n = 0; n < m_ins.size(); ++n) {
        const Ins &ins = m_ins[n];
        for (std::size_t k = 0; k < ins.parts.size(); ++k) // counted as the sets grew
            for (const int v : ins.sets[k]) {
                Val &val = m_vals[static_cast<std::size_t>(v)];
                if (val.instruction == static_cast<int>(n) && val.index == ins.parts[k].first)
                    continue;
                val.positions.push_back({static_cast<int>(n), ins.parts[k].first});
            }
    }
    // Where each instruction is read: its users' operand numbers, user by user in the order of
    // its users, so that a position takes its uses from the users that may use it without
    // looking through each one's operands (a value forwarded by 100,000 bitcasts that one
    // custom-call reads looked through 10^10).
    std::vector<std::size_t> first(m_ins.size() + 1, 0);
    for (const Ins &u : m_ins)
        for (const int o : u.operands)
            ++first[static_cast<std::size_t>(o) + 1];
    for (std::size_t n = 0; n < m_ins.size(); ++n)
        first[n + 1] += first[n];
    struct Slot
    {
        int user;
        int operand;
    };
    std::vector<Slot> slots(first.back());
    {
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        for (std::size_t n = 0; n < m_ins.size(); ++n) { // users in order, operands in order
            const auto &ops = m_ins[n].operands;
            for (std::size_t i = 0; i < ops.size(); ++i)
                slots[next[static_cast<std::size_t>(ops[i])]++] = {static_cast<int>(n),
                                                                   static_cast<int>(i)};
        }
    }
    // Where the slots of each user of an instruction start (and, last, where they end).
    std::vector<std::size_t> userFirst(m_ins.size() + 1, 0);
    for (std::size_t n = 0; n < m_ins.size(); ++n)
        userFirst[n + 1] = userFirst[n] + m_ins[n].users.size() + 1;
    std::vector<std::size_t> blocks(userFirst.back());
    for (std::size_t n = 0; n < m_ins.size(); ++n) {
        std::size_t s = first[n];
        const auto &users = m_ins[n].users;
        for (std::size_t j = 0; j < users.size(); ++j) {
            blocks[userFirst[n] + j] = s;
            while (s < first[n + 1] && slots[s].user == users[j])
                ++s;
        }
        blocks[userFirst[n] + users.size()] = first[n + 1];
    }
    std::vector<int> roots;
    for (Val &val : m_vals) {
        roots.clear();
        for (const auto &[at, index] : val.positions)
            if (m_ins[static_cast<std::size_t>(at)].root)
                roots.push_back(at);
        std::sort(roots.begin(), roots.end());
        for (const auto &[at, index] : val.positions) {
            const auto &users = m_ins[static_cast<std::size_t>(at)].users;
            const std::size_t *block = &blocks[userFirst[static_cast<std::size_t>(at)]];
            for (std::size_t j = 0; j < users.size(); ++j) {
                const int user = users[j];
                const Ins &u = m_ins[static_cast<std::size_t>(user)];
                if (!mayUse(index, u.opcode()) &&
                    !(u.root && std::binary_search(roots.begin(), roots.end(), user)))
                    continue;
                countReferences(block[j + 1] - block[j]);
                for (std::size_t s = block[j]; s < block[j + 1]; ++s)
                    val.uses.push_back({user, slots[s].operand, index});
            }
        }
    }
}

} // namespace bufferscope::hloproto
