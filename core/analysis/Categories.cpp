#include "Categories.h"

#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace bufferscope {

namespace {

/// Where an instruction runs in a training step, from the JAX transforms in its op_name (a
/// `jvp(…)` scope is the forward pass, a `transpose(…)` scope the backward) and its step.
enum Phase : std::uint8_t
{
    kNoPass = 0,
    kForward = ValueCategories::kForward,
    kBackward = ValueCategories::kBackward,
    kRecompute = ValueCategories::kRecompute, ///< a forward op scheduled inside the backward
    kUpdate = ValueCategories::kUpdate, ///< outside both scopes, after the backward pass began
};

Phase opNamePhase(std::string_view opName)
{
    bool forward = false;
    bool backward = false;
    for (std::string_view segment : Breakdown::opNamePath(opName)) {
        if (segment == "rematted_computation")
            return kRecompute; // JAX's scope for a checkpointed function run again
        backward = backward || segment.substr(0, 10) == "transpose(";
        forward = forward || segment.substr(0, 4) == "jvp(";
    }
    return backward ? kBackward : forward ? kForward : kNoPass;
}

bool isIntegral(ElementType t)
{
    return t >= ElementType::S2 && t <= ElementType::U64;
}

/// Opcodes that move or reshape a value without computing from it: a reader behind one of
/// them is a reader of the value itself, and an output of one made only from weights is
/// gathered weights.
bool movesData(std::string_view op)
{
    static constexpr std::string_view kMoves[] = {"copy",
                                                  "copy-start",
                                                  "copy-done",
                                                  "bitcast",
                                                  "bitcast-convert",
                                                  "get-tuple-element",
                                                  "reshape",
                                                  "transpose",
                                                  "convert",
                                                  "all-gather",
                                                  "all-gather-start",
                                                  "all-gather-done",
                                                  "collective-permute",
                                                  "collective-permute-start",
                                                  "collective-permute-done",
                                                  "dynamic-slice",
                                                  "slice",
                                                  "optimization-barrier",
                                                  "tuple",
                                                  "all-to-all"};
    return std::find(std::begin(kMoves), std::end(kMoves), op) != std::end(kMoves);
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// Whether `word` is one of the name's tokens (split on everything but letters and digits:
/// `weights_o[0]` has `weights` and `o`), or, for a word with an underscore, in it anywhere.
bool hasWord(const std::string &text, std::string_view word)
{
    if (word.find('_') != std::string_view::npos)
        return text.find(word) != std::string::npos;
    const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const std::size_t end = at + word.size();
        if ((at == 0 || !alnum(text[at - 1])) && (end >= text.size() || !alnum(text[end])))
            return true;
    }
    return false;
}

/// What a parameter's name or op_name path says it is (JAX puts the argument's pytree path in
/// the parameter's op_name: `state.opt_states[0][2]['m'][…]`, `params['dense']['kernel']`).
bool categoryByName(std::string_view name, Category &category, CategoryReason &reason)
{
    const std::string n = lower(name);
    // Words a pytree path is made of, never single letters: `psi_v_X` is a wave function and
    // `W_q` an interaction in real dumps, not Adam's v and a weight.
    static constexpr std::string_view kOptimizer[] = {"opt_state", "opt_states", "optimizer",
                                                      "momentum",  "adam",       "exp_avg"};
    static constexpr std::string_view kWeights[] = {"params", "mdl_vars",  "weights", "weight",
                                                    "kernel", "embedding", "bias"};
    static constexpr std::string_view kInputs[] = {"batch",  "inputs",  "input_ids", "tokens",
                                                   "labels", "targets", "images"};
    // Optimizer first: its paths hold the parameter names too (`opt_state['mu']['kernel']`).
    for (std::string_view w : kOptimizer)
        if (hasWord(n, w)) {
            category = Category::OptimizerState;
            reason = CategoryReason::NamedOptimizer;
            return true;
        }
    for (std::string_view w : kWeights)
        if (hasWord(n, w)) {
            category = Category::Weights;
            reason = CategoryReason::NamedWeights;
            return true;
        }
    for (std::string_view w : kInputs)
        if (hasWord(n, w)) {
            category = Category::Inputs;
            reason = CategoryReason::NamedInputs;
            return true;
        }
    return false;
}

class Classifier
{
public:
    explicit Classifier(const Dump &dump) : m_dump(dump) {}

    ValueCategories run()
    {
        const std::size_t n = m_dump.values.size();
        m_out.category.assign(n, Category::Other);
        m_out.reason.assign(n, CategoryReason::NoInstruction);
        m_out.related.assign(n, kNone);
        m_done.assign(n, false);
        phases();
        parameters();
        // Values in the order they are defined, so an instruction's operands are decided before
        // its outputs (gathered weights are made of weights): the schedule first, then the
        // instructions outside it.
        for (std::uint32_t ins : m_dump.sequence) {
            if (ins >= m_dump.instructions.size())
                continue;
            const auto [b, e] = m_dump.valuesOf(ins);
            for (const std::uint32_t *v = b; v != e; ++v)
                decide(*v);
        }
        for (std::uint32_t v = 0; v < n; ++v)
            decide(v);
        allocations();
        m_out.pass = std::move(m_phase);
        return std::move(m_out);
    }

private:
    const Dump &m_dump;
    ValueCategories m_out;
    std::vector<std::uint8_t> m_phase; ///< per instruction
    std::vector<bool> m_moves;         ///< per instruction: movesData(its opcode)
    std::vector<bool> m_done;
    std::unordered_map<ShapeId, std::string> m_bareShape;

    void phases()
    {
        std::unordered_map<StringId, Phase> byOpName;
        std::unordered_map<std::string_view, bool> moves;
        m_phase.assign(m_dump.instructions.size(), kNoPass);
        m_moves.assign(m_dump.instructions.size(), false);
        for (std::size_t i = 0; i < m_dump.instructions.size(); ++i) {
            const Instruction &ins = m_dump.instructions[i];
            const std::string_view op = m_dump.opcode(ins);
            auto [known, added] = moves.try_emplace(op, false);
            if (added)
                known->second = movesData(op);
            m_moves[i] = known->second;
            if (ins.opName == kNoString)
                continue;
            auto [it, fresh] = byOpName.try_emplace(ins.opName, kNoPass);
            if (fresh)
                it->second = opNamePhase(m_dump.str(ins.opName));
            m_phase[i] = it->second;
            if (it->second == kBackward && ins.step >= 0 &&
                (m_out.firstBackwardStep < 0 || ins.step < m_out.firstBackwardStep))
                m_out.firstBackwardStep = ins.step;
            if (it->second == kBackward)
                m_out.training = true;
        }
        if (!m_out.training)
            return;
        // An instruction XLA made without an op_name (a fusion of its own, a copy) is in the
        // pass of what it reads, in schedule order so that chains of them follow. After the
        // backward pass begins, a forward op is a recomputation and an op of neither scope the
        // update.
        for (const std::uint32_t i : m_dump.sequence) {
            if (i >= m_dump.instructions.size())
                continue;
            const Instruction &ins = m_dump.instructions[i];
            if (ins.opName == kNoString && m_dump.opcode(ins) != "tuple" &&
                m_dump.opcode(ins) != "parameter") {
                std::uint8_t read = 0;
                const auto [b, e] = m_dump.usersOf(i);
                for (const std::uint32_t *r = b; r != e; ++r)
                    read |= phaseOf(m_dump.values[*r].instruction);
                m_phase[i] = (read & kBackward)  ? std::uint8_t{kBackward}
                             : (read & kUpdate)  ? std::uint8_t{kUpdate}
                             : (read & kForward) ? std::uint8_t{kForward}
                                                 : m_phase[i];
            }
            if (ins.step <= m_out.firstBackwardStep)
                continue;
            if (m_phase[i] == kForward)
                m_phase[i] = kRecompute;
            else if (m_phase[i] == kNoPass)
                m_phase[i] = kUpdate;
            // An update reads the state: a parameter.
            if (m_phase[i] == kUpdate && !m_out.update) {
                const auto [b, e] = m_dump.usersOf(i);
                for (const std::uint32_t *r = b; r != e && !m_out.update; ++r)
                    m_out.update = isParameterValue(m_dump.values[*r]);
            }
        }
    }

    const Allocation *allocationOf(const Value &v) const
    {
        return v.allocation == kNone ? nullptr : &m_dump.allocations[v.allocation];
    }

    bool liveOut(const Value &v) const
    {
        const Allocation *a = allocationOf(v);
        if (!a || !a->isMaybeLiveOut)
            return false;
        return !m_dump.hasLiveRanges() || v.end >= m_dump.maxStep();
    }

    std::uint8_t phaseOf(std::uint32_t instruction) const
    {
        return instruction == kNone ? std::uint8_t{kNoPass} : m_phase[instruction];
    }

    /// The phases of the instructions that read `value`, through data moves (copies, gathers,
    /// get-tuple-element…), at most three moves deep and 256 readers.
    std::uint8_t readers(std::uint32_t value) const
    {
        std::uint8_t mask = 0;
        std::vector<std::pair<std::uint32_t, int>> todo{{value, 0}};
        std::size_t seen = 0;
        while (!todo.empty() && seen < 256) {
            const auto [vi, depth] = todo.back();
            todo.pop_back();
            const Value &v = m_dump.values[vi];
            for (std::uint32_t u = v.firstUse; u < v.firstUse + v.useCount; ++u) {
                const std::uint32_t ins = m_dump.uses[u].instruction;
                if (ins == kNone || ++seen > 256)
                    continue;
                if (depth < 3 && m_moves[ins] && phaseOf(ins) == kNoPass) {
                    const auto [b, e] = m_dump.valuesOf(ins);
                    for (const std::uint32_t *w = b; w != e; ++w)
                        todo.emplace_back(*w, depth + 1);
                    continue;
                }
                mask |= phaseOf(ins);
            }
        }
        return mask;
    }

    const std::string &bareShape(const Value &v)
    {
        auto [it, fresh] = m_bareShape.try_emplace(v.shape);
        if (fresh)
            it->second = ShapeParser::withoutLayout(m_dump.shapeText(v));
        return it->second;
    }

    bool isParameterValue(const Value &v) const
    {
        const Instruction *ins = m_dump.instructionOf(v);
        const Allocation *a = allocationOf(v);
        return ins && a && a->isParameter && m_dump.opcode(*ins) == "parameter";
    }

    void set(std::uint32_t v, Category c, CategoryReason r, std::uint32_t related = kNone)
    {
        m_out.category[v] = c;
        m_out.reason[v] = r;
        m_out.related[v] = related;
        m_done[v] = true;
    }

    /// The entry parameters: weights, optimizer state or inputs, by what reads them and what
    /// the module returns of them, then by their names.
    void parameters()
    {
        // What the module returns: which parameters a returned value of their shape is
        // computed from (updated without donation), and which parameters have a gradient of
        // their shape returned.
        // The parameters' shapes, each with whether a gradient of it is returned.
        std::unordered_map<std::string, bool> paramShapes;
        std::vector<std::uint32_t> params;
        for (std::uint32_t v = 0; v < m_dump.values.size(); ++v)
            if (isParameterValue(m_dump.values[v])) {
                params.push_back(v);
                paramShapes.try_emplace(bareShape(m_dump.values[v]), false);
            }
        std::vector<bool> updated(m_dump.values.size(), false);
        for (std::uint32_t v = 0; v < m_dump.values.size(); ++v) {
            const Value &value = m_dump.values[v];
            const Allocation *a = allocationOf(value);
            if (!liveOut(value) || a->isParameter || value.instruction == kNone)
                continue;
            const auto found = paramShapes.find(bareShape(value));
            if (found == paramShapes.end())
                continue;
            if (m_phase[value.instruction] == kBackward) {
                found->second = true;
                continue;
            }
            const auto [b, e] = m_dump.usersOf(value.instruction);
            for (const std::uint32_t *r = b; r != e; ++r)
                if (isParameterValue(m_dump.values[*r]) &&
                    bareShape(m_dump.values[*r]) == found->first)
                    updated[*r] = true;
        }
        for (std::uint32_t p : params) {
            const Value &v = m_dump.values[p];
            const Allocation &a = m_dump.allocations[v.allocation];
            const Instruction &ins = m_dump.instructions[v.instruction];
            const std::uint8_t read = readers(p);
            const ShapeInfo &shape = m_dump.shapes[v.shape];
            const bool counter = m_out.training && isIntegral(shape.elementType) &&
                                 shape.bytesKnown &&
                                 shape.logicalBytes <= elementByteSize(shape.elementType);
            Category named = Category::Other;
            CategoryReason namedWhy = CategoryReason::NoInstruction;
            const bool hasName = categoryByName(ins.opName != kNoString ? m_dump.str(ins.opName)
                                                                        : m_dump.str(ins.name),
                                                named, namedWhy);
            if (a.isMaybeLiveOut) {
                if (counter)
                    set(p, Category::OptimizerState, CategoryReason::StepCounter);
                else if (read & kForward)
                    set(p, Category::Weights, CategoryReason::DonatedReadForward);
                else if (m_out.training && (read & kUpdate))
                    set(p, Category::OptimizerState, CategoryReason::DonatedReadByUpdate);
                else if (hasName)
                    set(p, named, namedWhy);
                else
                    set(p, Category::Other, CategoryReason::DonatedUnclear);
                continue;
            }
            if (updated[p] && (read & kForward))
                set(p, Category::Weights, CategoryReason::UpdatedReadForward);
            else if (updated[p] && m_out.training && (read & kUpdate))
                set(p, Category::OptimizerState, CategoryReason::UpdatedReadByUpdate);
            else if (paramShapes[bareShape(v)] && (read & kForward))
                set(p, Category::Weights, CategoryReason::WeightWithGradient);
            else if (hasName)
                set(p, named, namedWhy);
            else
                set(p, Category::Inputs, CategoryReason::ReadOnlyArgument);
        }
    }

    /// The parameter value of a parameter allocation, kNone when there is none: looked up once
    /// per allocation (an allocation may hold many values, each asking).
    std::uint32_t parameterOf(const Allocation &a)
    {
        const auto at = static_cast<std::size_t>(&a - m_dump.allocations.data());
        if (m_parameterOf.empty())
            m_parameterOf.assign(m_dump.allocations.size(), kUnknown);
        if (m_parameterOf[at] != kUnknown)
            return m_parameterOf[at];
        std::uint32_t found = kNone;
        for (std::uint32_t k = 0; k < a.valueCount && found == kNone; ++k) {
            const std::uint32_t v = m_dump.allocationValues[a.firstValue + k];
            if (isParameterValue(m_dump.values[v]))
                found = v;
        }
        m_parameterOf[at] = found;
        return found;
    }
    static constexpr std::uint32_t kUnknown = kNone - 1;
    std::vector<std::uint32_t> m_parameterOf; ///< per allocation, kUnknown until looked up

    void decide(std::uint32_t vi)
    {
        if (m_done[vi])
            return;
        const Value &v = m_dump.values[vi];
        const Allocation *a = allocationOf(v);
        if (a && a->isConstant) {
            set(vi, Category::Other, CategoryReason::Constant);
            return;
        }
        if (v.instruction == kNone) {
            set(vi, Category::Other, CategoryReason::NoInstruction);
            return;
        }
        if (a && a->isParameter) {
            const std::uint32_t p = parameterOf(*a);
            if (p != kNone) {
                set(vi, m_out.category[p], CategoryReason::WrittenOverDonated, v.allocation);
                return;
            }
        }
        const std::uint8_t phase = m_phase[v.instruction];
        const auto [rb, re] = m_dump.usersOf(v.instruction);
        if (liveOut(v)) {
            if (phase == kBackward) {
                set(vi, Category::Gradients, CategoryReason::BackwardReturned);
                return;
            }
            for (const std::uint32_t *r = rb; r != re; ++r) {
                const Category c = m_out.category[*r];
                if (isParameterValue(m_dump.values[*r]) &&
                    (c == Category::Weights || c == Category::OptimizerState) &&
                    bareShape(m_dump.values[*r]) == bareShape(v)) {
                    set(vi, c, CategoryReason::NewValueOfParameter, m_dump.values[*r].allocation);
                    return;
                }
            }
            set(vi, Category::Outputs, CategoryReason::Returned);
            return;
        }
        // Made from weights alone: a gather, copy, cast or slice of them.
        // A fusion of the backward pass or the update computes from weights (a gradient of a
        // constant, the new weights), where a data move of any pass only moves them.
        bool moves = false;
        if (rb != re && (m_moves[v.instruction] || phase == kForward || phase == kNoPass)) {
            const std::string_view op = m_dump.opcode(m_dump.instructions[v.instruction]);
            moves = op != "tuple" && (m_moves[v.instruction] || op == "fusion");
        }
        if (moves) {
            bool weightsOnly = true;
            bool any = false;
            for (const std::uint32_t *r = rb; r != re && weightsOnly; ++r) {
                const Value &operand = m_dump.values[*r];
                if (operand.size <= 8 && m_out.category[*r] != Category::Weights)
                    continue; // a scalar: a constant, an index, a step
                const Category c = m_out.category[*r];
                any = true;
                weightsOnly =
                    m_done[*r] && (c == Category::Weights || c == Category::GatheredWeights);
            }
            if (any && weightsOnly) {
                set(vi, Category::GatheredWeights, CategoryReason::GatheredFromWeights);
                return;
            }
        }
        if (!m_out.training) {
            set(vi, Category::Temporaries, CategoryReason::TemporaryValue);
            return;
        }
        const std::uint8_t read = readers(vi);
        switch (phase) {
        case kBackward:
            if (read & kUpdate)
                set(vi, Category::Gradients, CategoryReason::BackwardToUpdate);
            else
                set(vi, Category::Temporaries, CategoryReason::BackwardOnly);
            return;
        case kRecompute:
            set(vi, Category::Temporaries, CategoryReason::Recomputed);
            ++m_out.recomputed;
            return;
        case kForward:
            if (read & (kBackward | kRecompute))
                set(vi, Category::Activations, CategoryReason::SavedForBackward);
            else
                set(vi, Category::Temporaries, CategoryReason::ForwardOnly);
            return;
        case kUpdate:
            set(vi, Category::Temporaries, CategoryReason::UpdateOnly);
            return;
        default:
            set(vi, Category::Temporaries, CategoryReason::TemporaryValue);
            return;
        }
    }

    void allocations()
    {
        m_out.allocation.assign(m_dump.allocations.size(), Category::Other);
        for (std::size_t ai = 0; ai < m_dump.allocations.size(); ++ai) {
            const Allocation &a = m_dump.allocations[ai];
            const std::uint32_t p = a.isParameter ? parameterOf(a) : kNone;
            if (p != kNone) {
                m_out.allocation[ai] = m_out.category[p];
                continue;
            }
            std::array<std::int64_t, kCategoryCount> bytes{};
            for (std::uint32_t k = 0; k < a.valueCount; ++k) {
                const std::uint32_t v = m_dump.allocationValues[a.firstValue + k];
                bytes[static_cast<std::size_t>(m_out.category[v])] += m_dump.values[v].size;
            }
            const auto most = std::max_element(bytes.begin(), bytes.end());
            if (*most > 0)
                m_out.allocation[ai] = static_cast<Category>(most - bytes.begin());
        }
    }
};

} // namespace

std::string_view categoryName(Category category)
{
    static constexpr std::string_view kNames[kCategoryCount] = {
        "weights", "gathered_weights", "optimizer_state", "gradients", "activations",
        "inputs",  "outputs",          "temporaries",     "other"};
    return kNames[static_cast<std::size_t>(category)];
}

std::string_view categoryTitle(Category category)
{
    static constexpr std::string_view kTitles[kCategoryCount] = {
        "Weights", "Gathered weights", "Optimizer state", "Gradients", "Activations",
        "Inputs",  "Outputs",          "Temporaries",     "Other"};
    return kTitles[static_cast<std::size_t>(category)];
}

ValueCategories ValueCategories::of(const Dump &dump)
{
    return Classifier(dump).run();
}

std::string_view ValueCategories::reasonText(CategoryReason reason)
{
    switch (reason) {
    case CategoryReason::DonatedReadForward:
        return "a donated parameter the forward pass (jvp) reads: the model's weights, updated "
               "in place";
    case CategoryReason::DonatedReadByUpdate:
        return "a donated parameter only the update after the backward pass reads: optimizer "
               "state, updated in place";
    case CategoryReason::StepCounter:
        return "a donated integer scalar of a training step: a step counter";
    case CategoryReason::UpdatedReadForward:
        return "a parameter the forward pass reads, of which a new value is returned: weights "
               "(not donated)";
    case CategoryReason::UpdatedReadByUpdate:
        return "a parameter only the update reads, of which a new value is returned: optimizer "
               "state (not donated)";
    case CategoryReason::WeightWithGradient:
        return "a parameter the forward pass reads whose gradient (its shape, from the backward "
               "pass) is returned";
    case CategoryReason::NamedWeights:
        return "its name says parameters or weights; the data flow does not decide";
    case CategoryReason::NamedOptimizer:
        return "its name says optimizer state; the data flow does not decide";
    case CategoryReason::NamedInputs:
        return "its name says a batch of inputs; the data flow does not decide";
    case CategoryReason::ReadOnlyArgument:
        return "a parameter neither donated nor updated: read only";
    case CategoryReason::DonatedUnclear:
        return "a donated parameter read neither by a forward pass nor by an update, and not "
               "named: undecided";
    case CategoryReason::WrittenOverDonated:
        return "the new value written in place over a donated parameter";
    case CategoryReason::NewValueOfParameter:
        return "returned with the shape of a parameter it is computed from: its new value";
    case CategoryReason::GatheredFromWeights:
        return "made from weights alone (a gather, copy, cast or slice of them)";
    case CategoryReason::BackwardToUpdate:
        return "defined in the backward pass (transpose) and read by the update";
    case CategoryReason::BackwardReturned:
        return "defined in the backward pass (transpose) and returned";
    case CategoryReason::SavedForBackward:
        return "defined in the forward pass (jvp) and read in the backward pass: saved for it";
    case CategoryReason::Recomputed:
        return "a forward op run again in the backward pass: rematerialized";
    case CategoryReason::ForwardOnly:
        return "defined and read in the forward pass only";
    case CategoryReason::BackwardOnly:
        return "defined and read in the backward pass only";
    case CategoryReason::UpdateOnly:
        return "inside the update after the backward pass";
    case CategoryReason::TemporaryValue:
        return "defined and read inside the module";
    case CategoryReason::Returned:
        return "returned by the module";
    case CategoryReason::Constant:
        return "a constant";
    case CategoryReason::NoInstruction:
        break;
    }
    return "the dump names no defining instruction";
}

std::string ValueCategories::evidence(const Dump &dump, std::uint32_t value) const
{
    const std::uint32_t at = related[value];
    if (at == bufferscope::kNone || at >= dump.allocations.size())
        return std::string(reasonText(reason[value]));
    const Allocation &a = dump.allocations[at];
    const std::string parameter = "parameter " + std::to_string(a.parameterNumber) +
                                  " (allocation " + std::to_string(a.index) + ")";
    if (reason[value] == CategoryReason::WrittenOverDonated)
        return "the new value written in place over donated " + parameter;
    return "returned with the shape of " + parameter + ", which it is computed from: its new value";
}

} // namespace bufferscope
