#include "Categories.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace bufferscope {

namespace {

constexpr std::int64_t kNoStep = std::numeric_limits<std::int64_t>::max();

/// Largest assigned size first, then by id: the order every value list here is in.
auto largestFirst(const Dump &dump)
{
    return [&dump](std::uint32_t a, std::uint32_t b) {
        const Value &x = dump.values[a];
        const Value &y = dump.values[b];
        return x.size != y.size ? x.size > y.size : x.id < y.id;
    };
}

/// The live-bytes curve with parts of some values taken out, by the curve's own steps: each
/// removal takes `bytes` off every step of [from, to]. Values written in place share bytes at
/// the step one hands over to the next, where the curve counts them once and two removals
/// take them twice: the new peak is then an estimate low by at most those bytes.
class Sweep
{
public:
    explicit Sweep(const std::vector<std::int64_t> &curve)
        : m_curve(curve), m_diff(curve.size() + 1, 0)
    {}
    void remove(std::int64_t from, std::int64_t to, std::int64_t bytes)
    {
        const auto n = static_cast<std::int64_t>(m_curve.size());
        from = std::max<std::int64_t>(from, 0);
        to = std::min(to, n - 1);
        if (from > to || bytes <= 0)
            return;
        m_diff[static_cast<std::size_t>(from)] += bytes;
        m_diff[static_cast<std::size_t>(to + 1)] -= bytes;
    }
    /// The curve with the removals taken out (never below 0).
    std::vector<std::int64_t> curve() const
    {
        std::vector<std::int64_t> out(m_curve.size());
        std::int64_t removed = 0;
        for (std::size_t t = 0; t < m_curve.size(); ++t) {
            removed += m_diff[t];
            out[t] = std::max<std::int64_t>(0, m_curve[t] - removed);
        }
        return out;
    }
    std::int64_t peak() const
    {
        std::int64_t removed = 0;
        std::int64_t best = 0;
        for (std::size_t t = 0; t < m_curve.size(); ++t) {
            removed += m_diff[t];
            best = std::max(best, m_curve[t] - removed);
        }
        return best;
    }

private:
    const std::vector<std::int64_t> &m_curve;
    std::vector<std::int64_t> m_diff;
};

/// Bytes to take off a curve, value by value, where values may share bytes: the values at one
/// place of one allocation (a buffer updated in place, a loop's carried buffer) count once at a
/// step on the curve, so their steps are merged before their bytes come off, never taken twice.
/// O(k log k) for k removals.
class Removals
{
public:
    void add(const Value &v, std::uint32_t value, std::int64_t from, std::int64_t to,
             std::int64_t bytes)
    {
        if (from > to || bytes <= 0)
            return;
        Item item;
        item.allocation = v.allocation == kNone ? std::uint64_t{1} << 40 | value : v.allocation;
        item.offset = v.offset;
        item.size = v.size;
        item.from = from;
        item.to = to;
        item.bytes = bytes;
        m_items.push_back(item);
    }
    void applyTo(Sweep &sweep)
    {
        std::sort(m_items.begin(), m_items.end(), [](const Item &a, const Item &b) {
            return std::tie(a.allocation, a.offset, a.size, a.from) <
                   std::tie(b.allocation, b.offset, b.size, b.from);
        });
        for (std::size_t k = 0; k < m_items.size();) {
            Item run = m_items[k];
            std::size_t next = k + 1;
            for (; next < m_items.size(); ++next) {
                const Item &i = m_items[next];
                if (i.allocation != run.allocation || i.offset != run.offset ||
                    i.size != run.size || i.from > run.to + 1)
                    break;
                run.to = std::max(run.to, i.to);
                run.bytes = std::max(run.bytes, i.bytes);
            }
            sweep.remove(run.from, run.to, run.bytes);
            k = next;
        }
        m_items.clear();
    }

private:
    struct Item
    {
        std::uint64_t allocation = 0;
        std::int64_t offset = 0;
        std::int64_t size = 0;
        std::int64_t from = 0;
        std::int64_t to = 0;
        std::int64_t bytes = 0;
    };
    std::vector<Item> m_items;
};

/// 2 × output elements × contracted elements of a `dot` (its `lhs_contracting_dims={…}` and
/// its first operand's shape, found by the uses that read it as operand 0, or printed inline
/// in its text); -1 when it is no dot or its shapes do not say.
std::int64_t dotFlops(const Dump &dump, std::uint32_t instruction)
{
    const Instruction &ins = dump.instructions[instruction];
    if (dump.opcode(ins) != "dot")
        return -1;
    const std::string text = dump.instructionText(instruction);
    const std::size_t dims = text.find("lhs_contracting_dims={");
    if (dims == std::string::npos)
        return -1;
    ShapeParseResult out = ShapeParser::parse(dump.str(dump.shapes[ins.shape].text));
    ShapeParseResult lhs;
    const auto [b, e] = dump.usersOf(instruction);
    for (const std::uint32_t *r = b; r != e && !lhs.ok; ++r) {
        const Value &v = dump.values[*r];
        for (std::uint32_t u = v.firstUse; u < v.firstUse + v.useCount; ++u)
            if (dump.uses[u].instruction == instruction && dump.uses[u].operand == 0) {
                lhs = ShapeParser::parse(dump.shapeText(v));
                break;
            }
    }
    if (!lhs.ok) {
        const std::size_t call = text.find(" dot(");
        if (call != std::string::npos)
            lhs = ShapeParser::parsePrefix(std::string_view(text).substr(call + 5));
    }
    if (!out.ok) {
        const std::size_t eq = text.find(" = ");
        if (eq != std::string::npos)
            out = ShapeParser::parsePrefix(std::string_view(text).substr(eq + 3));
    }
    if (!out.ok || !lhs.ok || !out.shape.isArray() || !lhs.shape.isArray())
        return -1;
    double contracted = 1;
    std::string_view list = std::string_view(text).substr(dims + 22);
    list = list.substr(0, list.find('}'));
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        std::size_t d = 0;
        for (char c : item) {
            if (c < '0' || c > '9' || d > 64)
                return -1;
            d = d * 10 + static_cast<std::size_t>(c - '0');
        }
        if (item.empty() || d >= lhs.shape.dims.size())
            return -1;
        contracted *= static_cast<double>(lhs.shape.dims[d].size);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    const double flops = 2.0 * static_cast<double>(out.shape.elementCount()) * contracted;
    return flops > 9e18 ? -1 : static_cast<std::int64_t>(flops);
}

/// The dot FLOPs of recomputing a value: its instruction and, back through what it reads, the
/// forward temporaries that are not kept either (at most 64 instructions). `known` counts the
/// dots found; the other instructions' cost the dump does not show.
std::int64_t recomputeFlops(const Dump &dump, const ValueCategories &cats, std::uint32_t value,
                            std::size_t &known, std::size_t &unknown)
{
    std::vector<std::uint32_t> todo{dump.values[value].instruction};
    std::vector<std::uint32_t> seen;
    std::int64_t flops = 0;
    while (!todo.empty() && seen.size() < 64) {
        const std::uint32_t ins = todo.back();
        todo.pop_back();
        if (ins == kNone || std::find(seen.begin(), seen.end(), ins) != seen.end())
            continue;
        seen.push_back(ins);
        const std::int64_t f = dotFlops(dump, ins);
        if (f >= 0) {
            flops += f;
            ++known;
        } else {
            ++unknown;
        }
        const auto [b, e] = dump.usersOf(ins);
        for (const std::uint32_t *r = b; r != e; ++r)
            if (cats.reason[*r] == CategoryReason::ForwardOnly)
                todo.push_back(dump.values[*r].instruction);
    }
    return flops;
}

std::string count(std::size_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

class LeverFinder
{
public:
    LeverFinder(const Dump &dump, const ValueCategories &cats, const SpaceTimeline &space,
                CategoryReport &report)
        : m_dump(dump), m_cats(cats), m_space(space), m_report(report)
    {}

    void run()
    {
        if (m_report.peakStep < 0)
            return;
        between();
        dtypeAndShard();
        donate();
        std::stable_sort(
            m_report.levers.begin(), m_report.levers.end(),
            [](const Lever &a, const Lever &b) { return a.savingBytes > b.savingBytes; });
    }

private:
    const Dump &m_dump;
    const ValueCategories &m_cats;
    const SpaceTimeline &m_space;
    CategoryReport &m_report;

public:
    /// Asked for one lever's curve (leverCurve): kept here as its sweep is done.
    std::optional<Lever::Kind> want;
    std::vector<std::int64_t> curve;

private:
    /// A lever from the sweep that applies it: its new peak and saving, its values at the peak
    /// (largest first) and its text; and its curve when leverCurve asked for it.
    void add(Lever::Kind kind, const Sweep &sweep, std::vector<std::uint32_t> values,
             std::string text, std::int64_t flops = -1)
    {
        if (want && *want == kind)
            curve = sweep.curve();
        Lever l;
        l.kind = kind;
        l.newPeakBytes = sweep.peak();
        l.savingBytes = m_report.peakBytes - l.newPeakBytes;
        if (l.savingBytes <= 0)
            return; // a lever that saves nothing is not one
        sortLargest(values);
        l.values = std::move(values);
        l.flops = flops;
        l.text = std::move(text) + where(l.values);
        m_report.levers.push_back(std::move(l));
    }

    /// Where to apply a lever: the op_name scopes (the layers; a parameter's pytree path) of
    /// its values at the peak that hold the most bytes, at most three.
    std::string where(const std::vector<std::uint32_t> &values) const
    {
        std::map<std::string, std::int64_t> bytes;
        for (std::size_t k = 0; k < values.size() && k < 4096; ++k) {
            const Value &v = m_dump.values[values[k]];
            const Instruction *ins = m_dump.instructionOf(v);
            if (!ins)
                continue;
            if (ins->opName == kNoString) {
                const Allocation *a =
                    v.allocation == kNone ? nullptr : &m_dump.allocations[v.allocation];
                if (a && a->isParameter && m_dump.opcode(*ins) == "parameter")
                    bytes["parameter " + std::to_string(a->parameterNumber)] += v.size;
                continue;
            }
            const std::string_view opName = m_dump.str(ins->opName);
            std::vector<std::string_view> path = Breakdown::opNamePath(opName);
            // A parameter's op_name is its argument's path; an instruction's, its scope and
            // then the op: the scope is where to apply it.
            if (path.size() > 1 && m_dump.opcode(*ins) != "parameter")
                path.pop_back();
            if (path.empty())
                continue;
            const std::size_t end =
                static_cast<std::size_t>(path.back().data() + path.back().size() - opName.data());
            bytes[std::string(opName.substr(0, end))] += v.size;
        }
        if (bytes.empty())
            return {};
        std::vector<std::pair<std::int64_t, std::string>> most;
        most.reserve(bytes.size());
        for (auto &[scope, b] : bytes)
            most.emplace_back(-b, scope);
        std::sort(most.begin(), most.end());
        std::string out = " Where: ";
        for (std::size_t k = 0; k < most.size() && k < 3; ++k)
            out += (k ? "; " : "") + most[k].second + " (" + humanBytes(-most[k].first) + ")";
        if (most.size() > 3)
            out += "; … " + count(most.size() - 3, "more scope", "more scopes");
        return out + ".";
    }

    bool inSpace(const Value &v) const
    {
        return v.color == m_space.memorySpace && v.hasLiveRange();
    }
    Category categoryOf(std::uint32_t v) const { return m_cats.category[v]; }
    void sortLargest(std::vector<std::uint32_t> &values) const
    {
        std::sort(values.begin(), values.end(), largestFirst(m_dump));
    }

    /// The steps of a value's reads: the last in the forward pass and the first after it.
    std::pair<std::int64_t, std::int64_t> forwardAndBackwardReads(const Value &v) const
    {
        std::int64_t lastForward = v.start;
        std::int64_t firstBackward = kNoStep;
        for (std::uint32_t u = v.firstUse; u < v.firstUse + v.useCount; ++u) {
            const std::uint32_t ins = m_dump.uses[u].instruction;
            if (ins == kNone || m_dump.instructions[ins].step < 0)
                continue;
            const std::int64_t step = m_dump.instructions[ins].step;
            if (m_cats.pass[ins] & ValueCategories::kForward)
                lastForward = std::max(lastForward, step);
            else if (step > m_cats.firstBackwardStep)
                firstBackward = std::min(firstBackward, step);
        }
        return {lastForward, firstBackward};
    }

    /// Remat and offload: activations leave the device between their last forward read and
    /// their first backward read; offload also keeps optimizer state on the host until the
    /// update first reads it.
    void between()
    {
        Sweep remat(m_space.liveBytes);
        Sweep offload(m_space.liveBytes);
        Sweep optimizerOnly(m_space.liveBytes); // the optimizer state's part of offload
        Removals rematOff;
        Removals offloadOff;
        Removals optimizerOff;
        std::vector<std::uint32_t> rematValues;
        std::vector<std::uint32_t> offloadValues;
        std::size_t activations = 0;
        for (std::uint32_t vi = 0; vi < m_dump.values.size(); ++vi) {
            const Value &v = m_dump.values[vi];
            if (!inSpace(v))
                continue;
            const Category c = categoryOf(vi);
            if (c == Category::Activations) {
                ++activations;
                const auto [lastForward, firstBackward] = forwardAndBackwardReads(v);
                if (firstBackward == kNoStep || firstBackward <= lastForward + 1)
                    continue;
                rematOff.add(v, vi, lastForward + 1, firstBackward - 1, v.size);
                offloadOff.add(v, vi, lastForward + 1, firstBackward - 1, v.size);
                if (m_report.peakStep > lastForward && m_report.peakStep < firstBackward) {
                    rematValues.push_back(vi);
                    offloadValues.push_back(vi);
                }
            } else if (c == Category::OptimizerState &&
                       m_cats.reason[vi] != CategoryReason::WrittenOverDonated &&
                       m_cats.reason[vi] != CategoryReason::NewValueOfParameter) {
                std::int64_t firstRead = kNoStep;
                for (std::uint32_t u = v.firstUse; u < v.firstUse + v.useCount; ++u) {
                    const std::uint32_t ins = m_dump.uses[u].instruction;
                    if (ins != kNone && m_dump.instructions[ins].step >= 0)
                        firstRead = std::min(firstRead, m_dump.instructions[ins].step);
                }
                if (firstRead == kNoStep || firstRead <= v.start)
                    continue;
                offloadOff.add(v, vi, v.start, firstRead - 1, v.size);
                optimizerOff.add(v, vi, v.start, firstRead - 1, v.size);
                if (m_report.peakStep >= v.start && m_report.peakStep < firstRead)
                    offloadValues.push_back(vi);
            }
        }
        if (activations == 0 && offloadValues.empty())
            return;
        rematOff.applyTo(remat);
        offloadOff.applyTo(offload);
        optimizerOff.applyTo(optimizerOnly);
        if (activations > 0) {
            sortLargest(rematValues);
            std::int64_t flops = 0;
            std::size_t known = 0;
            std::size_t unknown = 0;
            for (std::size_t k = 0; k < rematValues.size() && k < 256; ++k)
                flops += recomputeFlops(m_dump, m_cats, rematValues[k], known, unknown);
            std::string text =
                "Recompute in the backward pass the " +
                count(rematValues.size(), "activation", "activations") +
                " saved across the peak: jax.checkpoint (jax.remat) around the layers below, "
                "with a policy from jax.checkpoint_policies (nothing_saveable recomputes "
                "everything, dots_with_no_batch_dims_saveable keeps the matmuls' outputs, "
                "save_only_these_names keeps what checkpoint_name marks). Method: each "
                "activation the forward pass defines and the backward pass reads leaves the "
                "live-bytes curve from its last forward read to its first backward read, and the "
                "same sweep finds the new peak. An estimate: the recomputed value is counted from "
                "its first backward read, and what recomputing it reads is assumed live anyway.";
            if (known > 0)
                text += " Recomputing them runs again their instructions and the forward "
                        "temporaries they read: " +
                        count(known, "dot", "dots") + " of " + std::to_string(flops) +
                        " FLOPs (2 × output × contracted elements), and " +
                        count(unknown, "other instruction", "other instructions") +
                        " whose cost the dump does not show.";
            add(Lever::Kind::Remat, remat, std::move(rematValues), std::move(text),
                known > 0 ? flops : -1);
        }
        const std::int64_t optimizerSaving = m_report.peakBytes - optimizerOnly.peak();
        const std::int64_t offloadSaving = m_report.peakBytes - offload.peak();
        std::string parts;
        if (optimizerSaving <= 0)
            parts = "All of it is the activations', which remat frees as well.";
        else if (optimizerSaving >= offloadSaving)
            parts = "All of it is the optimizer state's.";
        else
            parts = "The optimizer state alone would save " + humanBytes(optimizerSaving) +
                    "; the rest is the activations, which remat frees as well.";
        add(Lever::Kind::Offload, offload, std::move(offloadValues),
            "Keep in host memory (memory space S(5)) the activations between their forward and "
            "backward reads (jax.checkpoint with the policy "
            "save_and_offload_only_these_names, offload_dst=\"pinned_host\") and the "
            "optimizer state until the update reads it (its arrays placed with "
            "memory_kind=\"pinned_host\"). Method: the same intervals leave the curve as for "
            "remat, and the optimizer state's from the start to its first read. " +
                parts +
                " An estimate: the copies to and from the host and their buffers are not "
                "counted; the cost is moving the bytes twice, not FLOPs.");
    }

    /// Dtype: f32 weights, gathered weights, activations and gradients held in bf16. Shard:
    /// weights and optimizer state over twice the devices. Both halve values over their whole
    /// live ranges.
    void dtypeAndShard()
    {
        Sweep dtype(m_space.liveBytes);
        Sweep shard(m_space.liveBytes);
        Removals dtypeOff;
        Removals shardOff;
        std::vector<std::uint32_t> dtypeValues;
        std::vector<std::uint32_t> shardValues;
        bool anyDtype = false;
        bool anyShard = false;
        for (std::uint32_t vi = 0; vi < m_dump.values.size(); ++vi) {
            const Value &v = m_dump.values[vi];
            if (!inSpace(v))
                continue;
            const Category c = categoryOf(vi);
            const bool atPeak = v.liveAt(m_report.peakStep);
            if ((c == Category::Weights || c == Category::GatheredWeights ||
                 c == Category::Activations || c == Category::Gradients) &&
                m_dump.shapes[v.shape].elementType == ElementType::F32) {
                anyDtype = true;
                dtypeOff.add(v, vi, v.start, v.end, v.size / 2);
                if (atPeak)
                    dtypeValues.push_back(vi);
            }
            if (c == Category::Weights || c == Category::OptimizerState) {
                anyShard = true;
                shardOff.add(v, vi, v.start, v.end, v.size / 2);
                if (atPeak)
                    shardValues.push_back(vi);
            }
        }
        dtypeOff.applyTo(dtype);
        shardOff.applyTo(shard);
        if (anyDtype)
            add(Lever::Kind::Dtype, dtype, std::move(dtypeValues),
                "Hold the f32 weights, gathered weights, activations and gradients in bf16 (a "
                "mixed-precision policy: the model's dtype and param_dtype jnp.bfloat16, or the "
                "params cast before the step; the optimizer state stays f32). Method: each such "
                "value's bytes are halved over its whole live range and the same sweep finds the "
                "new peak. An estimate: XLA may keep f32 copies for accumulation, and the "
                "converts add values of their own.");
        if (anyShard)
            add(Lever::Kind::Shard, shard, std::move(shardValues),
                "Shard the weights and the optimizer state over twice the devices (a larger "
                "fsdp or data axis of the mesh). Method: each such value's bytes are halved over "
                "its whole live range and the same sweep finds the new peak. An estimate: it "
                "assumes they split evenly and that the gathered weights and collectives' "
                "buffers do not grow.");
    }

    /// Donate: a parameter neither donated nor read after a returned value of its shape and
    /// size is written; donating it lets XLA write that output over it, and the output's
    /// allocation is no longer held (exact, by the allocations the dump prints).
    void donate()
    {
        if (!m_dump.hasLiveRanges())
            return;
        // Live-out values of non-parameter allocations, one per allocation: the values an
        // output allocation holds in turn (or at once, in place) are one output, held once.
        std::vector<std::uint32_t> outputs;
        std::vector<bool> taken(m_dump.allocations.size(), false);
        for (std::uint32_t vi = 0; vi < m_dump.values.size(); ++vi) {
            const Value &v = m_dump.values[vi];
            if (v.allocation == kNone || !v.hasLiveRange() || v.end < m_dump.maxStep() ||
                taken[v.allocation])
                continue;
            const Allocation &a = m_dump.allocations[v.allocation];
            if (a.isMaybeLiveOut && !a.isParameter && a.size == v.size && a.valueCount > 0 &&
                a.color != MemoryAnalysis::kHostMemorySpace) {
                outputs.push_back(vi);
                taken[v.allocation] = true;
            }
        }
        sortLargest(outputs);
        // Each output once, by its size and layout-free shape.
        std::map<std::pair<std::int64_t, std::string>, std::vector<std::uint32_t>> bySize;
        for (std::uint32_t o : outputs)
            bySize[{m_dump.values[o].size,
                    ShapeParser::withoutLayout(m_dump.shapeText(m_dump.values[o]))}]
                .push_back(o);
        std::vector<std::uint32_t> params;
        std::vector<std::uint32_t> overwritten; // the outputs they would be written over
        std::int64_t saving = 0;
        for (std::uint32_t vi = 0; vi < m_dump.values.size(); ++vi) {
            const Value &p = m_dump.values[vi];
            if (p.allocation == kNone || p.instruction == kNone)
                continue;
            const Allocation &a = m_dump.allocations[p.allocation];
            if (!a.isParameter || a.isMaybeLiveOut || a.valueCount != 1 ||
                m_dump.opcode(m_dump.instructions[p.instruction]) != "parameter" ||
                a.color == MemoryAnalysis::kHostMemorySpace)
                continue;
            const auto found =
                bySize.find({a.size, ShapeParser::withoutLayout(m_dump.shapeText(p))});
            if (found == bySize.end())
                continue;
            std::int64_t lastRead = -1;
            for (std::uint32_t u = p.firstUse; u < p.firstUse + p.useCount; ++u) {
                const std::uint32_t ins = m_dump.uses[u].instruction;
                if (ins != kNone)
                    lastRead = std::max(lastRead, m_dump.instructions[ins].step);
            }
            // The first outputs of its shape only: a hostile dump of many equal shapes none of
            // which fits must not make this quadratic.
            std::vector<std::uint32_t> &free = found->second;
            const auto last =
                free.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(free.size(), 64));
            const auto o = std::find_if(free.begin(), last, [&](std::uint32_t k) {
                return m_dump.values[k].start >= lastRead;
            });
            if (o == last)
                continue;
            params.push_back(vi);
            saving += m_dump.allocations[m_dump.values[*o].allocation].size;
            overwritten.push_back(*o);
            free.erase(o);
        }
        if (params.empty())
            return;
        // The live bytes: the output, written over the parameter (whose bytes are live to the
        // end anyway, a read-only argument), no longer takes bytes of its own while it lives.
        Sweep live(m_space.liveBytes);
        Removals written;
        for (const std::uint32_t o : overwritten)
            if (inSpace(m_dump.values[o]))
                written.add(m_dump.values[o], o, m_dump.values[o].start, m_dump.values[o].end,
                            m_dump.values[o].size);
        written.applyTo(live);
        if (want && *want == Lever::Kind::Donate)
            curve = live.curve();
        Lever d;
        d.kind = Lever::Kind::Donate;
        d.savingBytes = saving;
        d.newPeakBytes = live.peak();
        d.exact = true;
        sortLargest(params);
        d.values = std::move(params);
        std::vector<std::int64_t> numbers;
        numbers.reserve(d.values.size());
        for (std::uint32_t p : d.values)
            numbers.push_back(m_dump.allocations[m_dump.values[p].allocation].parameterNumber);
        std::sort(numbers.begin(), numbers.end());
        std::string which;
        for (std::size_t k = 0; k < numbers.size() && k < 16; ++k)
            which += (k ? ", " : "") + std::to_string(numbers[k]);
        if (numbers.size() > 16)
            which += ", … " + std::to_string(numbers.size() - 16) + " more";
        d.text = "Donate " + count(d.values.size(), "parameter", "parameters") + " (" + which +
                 ": the module's parameter numbers; jax.jit's donate_argnums, or "
                 "donate_argnames, names the function's arguments they come from): each has "
                 "the shape and size of a returned value written "
                 "after its last read, so XLA can write that output over it. Exact, of what the "
                 "device holds: the output allocations no longer held beside the arguments "
                 "(argument + output − alias + temp). The live bytes lose each such output's "
                 "bytes while it lives (it sits in the parameter's): the new peak.";
        m_report.levers.push_back(std::move(d));
    }
};

} // namespace

std::string_view Lever::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Remat:
        return "remat";
    case Kind::Offload:
        return "offload";
    case Kind::Donate:
        return "donate";
    case Kind::Dtype:
        return "dtype";
    case Kind::Shard:
        return "shard";
    }
    return "remat";
}

std::string_view Lever::wholeKey(Whole whole)
{
    return whole == Whole::Held ? "held_bytes" : "peak_bytes";
}

CategoryReport CategoryReport::of(const Dump &dump, const MemoryTimeline &timeline,
                                  const ValueCategories &cats)
{
    return of(dump, timeline, cats, Options{});
}

CategoryReport CategoryReport::of(const Dump &dump, const MemoryTimeline &timeline,
                                  const ValueCategories &cats, const Options &options)
{
    CategoryReport r;
    r.training = cats.training;
    r.update = cats.update;
    r.recomputed = cats.recomputed;
    for (std::size_t c = 0; c < kCategoryCount; ++c)
        r.totals[c].category = static_cast<Category>(c);
    // Every value, by category, largest first, with the reasons behind each category.
    std::array<std::array<std::int64_t, 32>, kCategoryCount> reasons{};
    static_assert(static_cast<std::size_t>(CategoryReason::NoInstruction) < 32,
                  "a reason per slot: the array holds 32");
    for (std::uint32_t vi = 0; vi < dump.values.size(); ++vi) {
        const auto c = static_cast<std::size_t>(cats.category[vi]);
        CategoryTotals &t = r.totals[c];
        ++t.values;
        t.valueBytes += dump.values[vi].size;
        t.members.push_back(vi);
        ++reasons[c][static_cast<std::size_t>(cats.reason[vi])];
    }
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
        CategoryTotals &t = r.totals[c];
        t.largest.resize(std::min(t.members.size(), CategoryTotals::kLargest));
        std::partial_sort_copy(t.members.begin(), t.members.end(), t.largest.begin(),
                               t.largest.end(), largestFirst(dump));
        for (std::size_t k = 0; k < reasons[c].size(); ++k)
            if (reasons[c][k] > 0)
                t.reasons.emplace_back(static_cast<CategoryReason>(k), reasons[c][k]);
        // The rules that decided on their own first: a new value takes its parameter's.
        const auto derived = [](CategoryReason why) {
            return why == CategoryReason::WrittenOverDonated ||
                   why == CategoryReason::NewValueOfParameter;
        };
        std::stable_sort(t.reasons.begin(), t.reasons.end(), [&](const auto &a, const auto &b) {
            if (derived(a.first) != derived(b.first))
                return !derived(a.first);
            return a.second > b.second;
        });
    }

    // What the device holds: parameter and output allocations whole, by their category; the
    // temp allocation by what it has live at its busiest step, the rest of it as other.
    const MemoryAnalysis analysis = MemoryAnalysis::of(dump);
    r.heldBytes = analysis.device.held();
    for (std::uint32_t ai = 0; ai < dump.allocations.size(); ++ai) {
        const Allocation &a = dump.allocations[ai];
        const std::int64_t held = MemoryAnalysis::heldBy(a);
        if (held <= 0)
            continue;
        if (a.isPreallocatedTemp && dump.hasLiveRanges() && ai < timeline.allocations().size()) {
            const std::int64_t step = timeline.allocations()[ai].largestLiveStep;
            std::vector<std::uint32_t> live;
            for (std::uint32_t k = 0; k < a.valueCount; ++k) {
                const std::uint32_t v = dump.allocationValues[a.firstValue + k];
                if (dump.values[v].liveAt(step))
                    live.push_back(v);
            }
            std::sort(live.begin(), live.end(), largestFirst(dump));
            const std::vector<std::int64_t> counted = Breakdown::countedBytes(dump, live);
            std::int64_t used = 0;
            for (std::size_t k = 0; k < live.size(); ++k) {
                r.totals[static_cast<std::size_t>(cats.category[live[k]])].heldBytes += counted[k];
                used += counted[k];
            }
            const std::int64_t packing = std::max<std::int64_t>(0, held - used);
            r.totals[static_cast<std::size_t>(Category::Other)].heldBytes += packing;
            r.packingBytes += packing;
            continue;
        }
        Category c = cats.allocation[ai];
        if (a.isMaybeLiveOut && !a.isParameter) {
            // The value it returns decides, not what it held earlier in the step.
            std::int64_t biggest = -1;
            for (std::uint32_t k = 0; k < a.valueCount; ++k) {
                const std::uint32_t v = dump.allocationValues[a.firstValue + k];
                const Value &value = dump.values[v];
                if ((!dump.hasLiveRanges() || value.end >= dump.maxStep()) &&
                    value.size > biggest) {
                    biggest = value.size;
                    c = cats.category[v];
                }
            }
        }
        r.totals[static_cast<std::size_t>(c)].heldBytes += held;
    }

    const SpaceTimeline *space = timeline.primary();
    if (!space || !dump.hasLiveRanges() || space->peak.step < 0)
        return r;
    r.peakStep = space->peak.step;
    r.peakBytes = space->peak.bytes;
    std::vector<std::uint32_t> ownLive;
    std::vector<std::int64_t> ownCounted;
    if (!options.live || !options.counted || options.live->size() != options.counted->size()) {
        ownLive = MemoryTimeline::valuesLiveAt(dump, r.peakStep, space->memorySpace);
        ownCounted = Breakdown::countedBytes(dump, ownLive);
    }
    const std::vector<std::uint32_t> &live =
        ownLive.empty() && options.live ? *options.live : ownLive;
    const std::vector<std::int64_t> &counted =
        ownLive.empty() && options.counted ? *options.counted : ownCounted;
    for (std::size_t k = 0; k < live.size(); ++k)
        r.totals[static_cast<std::size_t>(cats.category[live[k]])].peakBytes += counted[k];
    if (options.trees) {
        r.categoryTree = Breakdown::pathTree(dump, live, counted, [&cats](std::uint32_t v) {
            return std::string(categoryTitle(cats.category[v]));
        });
        r.pathTree = Breakdown::pathTree(dump, live, counted, {});
    }
    LeverFinder(dump, cats, *space, r).run();
    return r;
}

} // namespace bufferscope

namespace bufferscope {

std::vector<std::int64_t> CategoryReport::leverCurve(const Dump &dump,
                                                     const MemoryTimeline &timeline,
                                                     const ValueCategories &categories,
                                                     Lever::Kind kind)
{
    const SpaceTimeline *space = timeline.primary();
    if (!space || !dump.hasLiveRanges() || space->peak.step < 0)
        return {};
    CategoryReport r;
    r.peakStep = space->peak.step;
    r.peakBytes = space->peak.bytes;
    LeverFinder finder(dump, categories, *space, r);
    finder.want = kind;
    finder.run();
    return std::move(finder.curve);
}

} // namespace bufferscope
