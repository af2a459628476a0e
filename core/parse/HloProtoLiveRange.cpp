// The proto reader: the schedule flattened and the live ranges bounded by HloLiveRange's
// rules, module-scoped (detail/HloProtoReader.h).

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

void Reader::schedule()
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

void Reader::flatten(int c, int depth)
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
        if (at == m_insById.end() || m_ins[static_cast<std::size_t>(at->second)].computation != c)
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

std::int64_t Reader::asyncDoneTime(int computation) const
{
    std::int64_t last = -1;
    for (const int n : m_comps[static_cast<std::size_t>(computation)].callers) {
        const std::string op = m_ins[static_cast<std::size_t>(n)].opcode();
        if (op != "async-start" && op != "async-update" && op != "async-done")
            continue;
        // start and update lead to the done of their chain.
        int done = n;
        for (int hops = 0;
             hops < 64 && m_ins[static_cast<std::size_t>(done)].opcode() != "async-done"; ++hops) {
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
        last = std::max(last, t >= 0 ? t : m_span[static_cast<std::size_t>(computation)].second);
    }
    return last;
}

bool Reader::parameterAliased(const Ins &param, const Index &index)
{
    if (!m_aliasedRead) {
        m_aliasedRead = true;
        for (const auto &e : m_module.input_output_alias().entries())
            m_aliased.emplace_back(e.parameter_number(), Index(e.parameter_shape_index().begin(),
                                                               e.parameter_shape_index().end()));
        std::sort(m_aliased.begin(), m_aliased.end());
        for (const pb::BufferAllocationProto &a : m_proto.buffer_assignment().buffer_allocations())
            if (a.maybe_live_out())
                for (const auto &assigned : a.assigned())
                    m_liveOutBuffers.push_back(assigned.logical_buffer_id());
        std::sort(m_liveOutBuffers.begin(), m_liveOutBuffers.end());
    }
    return std::binary_search(m_aliased.begin(), m_aliased.end(),
                              std::pair<std::int64_t, Index>(param.p->parameter_number(), index));
}

void Reader::liveRanges()
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
        // An entry parameter lives to the end unless it is donated (XLA's HloLiveRange): an
        // input_output_alias entry the buffer assignment honours, its buffer in the output's
        // (maybe-live-out) allocation. One it does not honour is a lie of the file: said, and
        // the parameter kept to the end, as the runtime keeps the caller's buffer.
        bool donated = parameter && ins.computation == m_entry && parameterAliased(ins, v.index);
        if (donated &&
            !std::binary_search(m_liveOutBuffers.begin(), m_liveOutBuffers.end(), v.id)) {
            donated = false;
            if (m_unhonouredAliases++ == 0)
                m_firstUnhonoured = "parameter " + std::to_string(ins.p->parameter_number()) + " " +
                                    indexText(v.index);
        }
        if (parameter && ins.computation == m_entry && !donated) {
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
    if (m_unhonouredAliases > 0)
        m_notes.push_back(
            std::to_string(m_unhonouredAliases) + " input_output_alias entr" +
            (m_unhonouredAliases == 1 ? "y" : "ies") +
            " the buffer assignment does not honour (the first: " + m_firstUnhonoured +
            ", whose buffer is in no maybe-live-out allocation): not donated, "
            "live to the end");
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

} // namespace bufferscope::hloproto
