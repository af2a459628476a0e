#include "Categories.h"

#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

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

/// The components of a pytree path as JAX writes it into a parameter's op_name
/// (`state.mdl_vars['params']['lm']`, `opt_state[0].mu['dense']`, `weights_o[0]`): the parts
/// between `.`, `[`, `]`, quotes and slashes, lower-cased. At most 64 of them.
std::vector<std::string> pathComponents(std::string_view path)
{
    std::vector<std::string> out;
    std::string part;
    const auto flush = [&] {
        if (!part.empty() && out.size() < 64)
            out.push_back(lower(part));
        part.clear();
    };
    for (const char c : path) {
        if (c == '.' || c == '[' || c == ']' || c == '\'' || c == '"' || c == '/' || c == ' ' ||
            c == '(' || c == ')' || c == ',')
            flush();
        else
            part += c;
    }
    flush();
    return out;
}

template <std::size_t N> bool oneOf(const std::string &word, const std::string_view (&words)[N])
{
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

/// Whether `word` is one of the `_`-separated tokens of a component (`weights_o` has
/// `weights`; `eval_sample_weights` has it too, and means it less: only as a weak name).
bool hasToken(const std::string &component, std::string_view word)
{
    for (std::size_t at = component.find(word); at != std::string::npos;
         at = component.find(word, at + 1)) {
        const std::size_t end = at + word.size();
        if ((at == 0 || component[at - 1] == '_') &&
            (end == component.size() || component[end] == '_' ||
             std::isdigit(static_cast<unsigned char>(component[end])) != 0))
            return true;
    }
    return false;
}

/// How much a parameter's name says (docs/FORMAT.md Part A, "What kind of memory it is").
enum class NameSays : std::uint8_t
{
    Nothing,
    Weakly,  ///< a word of a weight (`kernel`, `bias`, `weights_o`): the data flow goes first
    Plainly, ///< a pytree root or an optimizer's key: the name goes first
};

/// What a parameter's name or op_name path says it is (JAX puts the argument's pytree path in
/// the parameter's op_name: `state.opt_states[0][2]['m'][…]`, `params['dense']['kernel']`).
/// By path component, root first: the first component that is a root or an optimizer's key
/// decides (`inputs['weights']` is a batch, `opt_state['mu']['params']` optimizer state).
NameSays categoryByName(std::string_view name, Category &category, CategoryReason &reason)
{
    const std::vector<std::string> parts = pathComponents(name);
    static constexpr std::string_view kOptimizerRoots[] = {"opt_state", "opt_states", "optimizer",
                                                           "optimizer_state", "opt_state_0"};
    static constexpr std::string_view kOptimizerKeys[] = {
        "mu", "nu", "exp_avg", "exp_avg_sq", "momentum", "momentum_buffer", "count"};
    static constexpr std::string_view kWeightRoots[] = {"params", "mdl_vars", "model_params",
                                                        "trainable_params", "param"};
    static constexpr std::string_view kInputRoots[] = {
        "inputs", "batch", "input_ids", "input_batch", "tokens", "labels", "targets", "images"};
    static constexpr std::string_view kGradientRoots[] = {"grads", "gradients", "grad"};
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::string &c = parts[k];
        if (oneOf(c, kOptimizerRoots) || oneOf(c, kOptimizerKeys) ||
            (k > 0 && (c == "m" || c == "v"))) {
            // Adam's moments are m and v under a root (`state[0].m`), never a bare argument:
            // `v` alone is a velocity as often as a moment.
            category = Category::OptimizerState;
            reason = CategoryReason::NamedOptimizer;
            return NameSays::Plainly;
        }
        if (c == "step" && k <= 1) {
            category = Category::OptimizerState;
            reason = CategoryReason::NamedStep;
            return NameSays::Plainly;
        }
        if (oneOf(c, kWeightRoots)) {
            category = Category::Weights;
            reason = CategoryReason::NamedWeights;
            return NameSays::Plainly;
        }
        if (oneOf(c, kInputRoots)) {
            category = Category::Inputs;
            reason = CategoryReason::NamedInputs;
            return NameSays::Plainly;
        }
        if (oneOf(c, kGradientRoots)) {
            category = Category::Gradients;
            reason = CategoryReason::NamedGradients;
            return NameSays::Plainly;
        }
    }
    // Words of a weight anywhere, as whole tokens: weak, the data flow goes first (an argument
    // called `weights` may be a batch's sample weights).
    static constexpr std::string_view kWeightWords[] = {"weights", "weight", "kernel", "embedding",
                                                        "bias"};
    for (const std::string &c : parts)
        for (std::string_view w : kWeightWords)
            if (hasToken(c, w)) {
                category = Category::Weights;
                reason = CategoryReason::NamedWeights;
                return NameSays::Weakly;
            }
    return NameSays::Nothing;
}

/// Opcodes whose value comes from no operand: they never decide where a pass begins (XLA
/// schedules them anywhere; a `transpose(…)`-scoped constant may sit at step 20).
bool operandFree(std::string_view op)
{
    static constexpr std::string_view kFree[] = {"constant",     "iota",
                                                 "partition-id", "replica-id",
                                                 "after-all",    "rng-get-and-update-state",
                                                 "create-token"};
    return std::find(std::begin(kFree), std::end(kFree), op) != std::end(kFree);
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
        readMasks();
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
        if (m_out.training)
            loopCarries();
        allocations();
        m_out.pass = std::move(m_phase);
        return std::move(m_out);
    }

private:
    const Dump &m_dump;
    ValueCategories m_out;
    std::vector<std::uint8_t> m_phase; ///< per instruction, by op_name and schedule
    std::vector<std::uint8_t> m_scope; ///< per instruction, by op_name alone
    std::vector<bool> m_moves;         ///< per instruction: movesData(its opcode)
    std::vector<bool> m_fusion;        ///< per instruction: a fusion
    std::vector<std::uint8_t> m_read;  ///< per value: the passes that read it (readMasks)
    std::vector<bool> m_done;
    std::unordered_map<ShapeId, std::string> m_bareShape;

    void phases()
    {
        std::unordered_map<StringId, Phase> byOpName;
        std::unordered_map<std::string_view, bool> moves;
        const std::size_t n = m_dump.instructions.size();
        m_phase.assign(n, kNoPass);
        m_moves.assign(n, false);
        m_fusion.assign(n, false);
        bool anyBackward = false;
        for (std::size_t i = 0; i < n; ++i) {
            const Instruction &ins = m_dump.instructions[i];
            const std::string_view op = m_dump.opcode(ins);
            auto [known, added] = moves.try_emplace(op, false);
            if (added)
                known->second = movesData(op);
            m_moves[i] = known->second;
            m_fusion[i] = op == "fusion";
            if (ins.opName == kNoString)
                continue;
            auto [it, fresh] = byOpName.try_emplace(ins.opName, kNoPass);
            if (fresh)
                it->second = opNamePhase(m_dump.str(ins.opName));
            m_phase[i] = it->second;
            anyBackward = anyBackward || it->second == kBackward;
        }
        m_scope = m_phase; // the passes the op_names name, before the schedule says more
        if (!anyBackward)
            return;
        // An instruction XLA made without an op_name (a fusion of its own, a copy) is in the
        // pass of what it reads, in schedule order so that chains of them follow.
        for (const std::uint32_t i : m_dump.sequence) {
            if (i >= n)
                continue;
            const Instruction &ins = m_dump.instructions[i];
            if (ins.opName != kNoString || m_dump.opcode(ins) == "tuple")
                continue;
            if (m_dump.opcode(ins) == "parameter") {
                // A while body's or condition's parameter (the loop's carry; an entry
                // parameter is in a parameter allocation) is in the pass of its readers.
                m_phase[i] = loopParameterPass(i);
                continue;
            }
            std::uint8_t read = 0;
            const auto [b, e] = m_dump.usersOf(i);
            for (const std::uint32_t *r = b; r != e; ++r)
                read |= phaseOf(m_dump.values[*r].instruction);
            m_phase[i] = (read & kBackward)  ? std::uint8_t{kBackward}
                         : (read & kForward) ? std::uint8_t{kForward}
                                             : m_phase[i];
        }
        if (m_dump.sequence.empty()) {
            // No schedule (a dump printed without live ranges): the passes are the op_names'.
            m_out.training = true;
            return;
        }
        m_out.firstBackwardStep = backwardBegins();
        if (m_out.firstBackwardStep < 0)
            return;
        m_out.training = true;
        // After the backward pass begins, a forward op is a recomputation (or a forward op XLA
        // scheduled late) and an op of neither scope the update.
        for (const std::uint32_t i : m_dump.sequence) {
            if (i >= n || m_dump.instructions[i].step <= m_out.firstBackwardStep)
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

    /// The pass of a parameter of a computation a loop (or call) runs, by the op_names of
    /// its readers: backward where any is, else forward; kNoPass for an entry parameter.
    std::uint8_t loopParameterPass(std::uint32_t i) const
    {
        std::uint8_t read = 0;
        const auto [b, e] = m_dump.valuesOf(i);
        for (const std::uint32_t *v = b; v != e; ++v) {
            const Value &value = m_dump.values[*v];
            const Allocation *a = allocationOf(value);
            if (a && a->isParameter)
                return kNoPass;
            for (std::uint32_t u = value.firstUse; u < value.firstUse + value.useCount; ++u) {
                const std::uint32_t reader = m_dump.uses[u].instruction;
                if (reader < m_scope.size())
                    read |= m_scope[reader];
            }
        }
        return (read & kBackward)  ? std::uint8_t{kBackward}
               : (read & kForward) ? std::uint8_t{kForward}
                                   : std::uint8_t{kNoPass};
    }

    /// The step where the backward pass begins, -1 when there is none: where the schedule
    /// changes from forward to backward work. Only instructions that compute from data count:
    /// a forward op that computes from a parameter (through its operands), a backward op that
    /// computes from what the forward pass computed. XLA schedules a `transpose(…)`-scoped
    /// constant, iota or partition-id wherever it likes, and a backward op that reads only the
    /// arguments (a zero cotangent, the negated labels of a cross-entropy) as early as it
    /// likes. The step chosen is the one that puts the most of those forward ops before it and
    /// backward ops from it on (a forward op scheduled late, or a backward one hoisted early,
    /// costs one each), the first backward op there. O(instructions + operands).
    std::int64_t backwardBegins() const
    {
        const std::size_t n = m_dump.instructions.size();
        // Per instruction: its value comes from data (a parameter), and from the forward
        // pass's work, through its operands. Unscheduled instructions are taken to come from
        // data (nothing says otherwise).
        constexpr std::uint8_t kData = 1;
        constexpr std::uint8_t kFromForward = 2;
        std::vector<std::uint8_t> from(n, kData);
        bool anyUses = false;
        for (const std::uint32_t i : m_dump.sequence) {
            if (i >= n)
                continue;
            const std::string_view op = m_dump.opcode(m_dump.instructions[i]);
            if (op == "parameter")
                continue;
            if (operandFree(op)) {
                from[i] = 0;
                continue;
            }
            const auto [b, e] = m_dump.usersOf(i);
            anyUses = anyUses || b != e;
            std::uint8_t bits = 0;
            for (const std::uint32_t *r = b; r != e; ++r) {
                const std::uint32_t def = m_dump.values[*r].instruction;
                bits |= def == kNone || def >= n ? kData : from[def];
            }
            if ((bits & kData) && m_scope[i] == kForward)
                bits |= kFromForward;
            from[i] = bits;
        }
        // Backward ops that read the forward pass's work; where none does (no forward scope),
        // those that compute from data; without any recorded uses, every op but the
        // operand-free ones.
        bool anyFromForward = false;
        for (const std::uint32_t i : m_dump.sequence)
            anyFromForward = anyFromForward ||
                             (i < n && m_scope[i] == kBackward && (from[i] & kFromForward) != 0);
        const auto counts = [&](std::uint32_t i) {
            if (!anyUses)
                return !operandFree(m_dump.opcode(m_dump.instructions[i]));
            if (m_scope[i] == kBackward && anyFromForward)
                return (from[i] & kFromForward) != 0;
            return (from[i] & kData) != 0;
        };
        std::vector<std::pair<std::int64_t, bool>> work; // (step, backward), schedule order
        for (const std::uint32_t i : m_dump.sequence) {
            if (i >= n || m_dump.instructions[i].step < 0)
                continue;
            const std::uint8_t scope = m_scope[i];
            if ((scope == kForward || scope == kBackward) && counts(i))
                work.emplace_back(m_dump.instructions[i].step, scope == kBackward);
        }
        std::int64_t backwardAfter = 0;
        for (const auto &[step, backward] : work)
            backwardAfter += backward ? 1 : 0;
        if (backwardAfter == 0)
            return -1;
        std::int64_t forwardBefore = 0;
        std::int64_t best = -1;
        std::int64_t bestStep = -1;
        for (const auto &[step, backward] : work) {
            if (backward && forwardBefore + backwardAfter > best) {
                best = forwardBefore + backwardAfter;
                bestStep = step;
            }
            forwardBefore += backward ? 0 : 1;
            backwardAfter -= backward ? 1 : 0;
        }
        return bestStep;
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

    /// Per value, the passes of the instructions that read it, through what XLA puts between
    /// a value and its use (copies, converts, gathers, slices, get-tuple-element… of no pass
    /// of their own): a weight read by a convert that a forward dot reads is read forward.
    /// Found once for every value, the schedule backwards, so that a move's readers are known
    /// before the values it moves: O(values + uses).
    void readMasks()
    {
        const std::size_t n = m_dump.instructions.size();
        m_read.assign(m_dump.values.size(), 0);
        // Without a pass in any op_name (an inference module) nothing is read by one.
        if (std::all_of(m_phase.begin(), m_phase.end(), [](std::uint8_t p) { return p == 0; }))
            return;
        std::vector<std::uint8_t> moved(n, 0); // per move: what reads its values
        std::vector<bool> done(n, false);
        const auto visit = [&](std::uint32_t ins) {
            std::uint8_t all = 0;
            const auto [b, e] = m_dump.valuesOf(ins);
            for (const std::uint32_t *v = b; v != e; ++v) {
                const Value &value = m_dump.values[*v];
                std::uint8_t mask = 0;
                for (std::uint32_t u = value.firstUse; u < value.firstUse + value.useCount; ++u) {
                    const std::uint32_t reader = m_dump.uses[u].instruction;
                    if (reader == kNone || reader >= n)
                        continue;
                    if (transparent(reader) && done[reader])
                        mask |= moved[reader];
                    else
                        mask |= m_phase[reader];
                }
                m_read[*v] = mask;
                all |= mask;
            }
            moved[ins] = all;
            done[ins] = true;
        };
        for (auto it = m_dump.sequence.rbegin(); it != m_dump.sequence.rend(); ++it)
            if (*it < n && !done[*it])
                visit(*it);
        for (std::uint32_t i = 0; i < n; ++i)
            if (!done[i])
                visit(i);
    }

    /// A data move of no pass of its own, or a fusion of no pass before the backward pass
    /// began (XLA's `loop_convert_fusion` of a master weight, a convert fused with a reduce):
    /// what reads its values reads what it moves. After the backward pass began such a
    /// fusion is the update, which reads for itself.
    bool transparent(std::uint32_t instruction) const
    {
        if (m_scope[instruction] != kNoPass)
            return false;
        return m_moves[instruction] || (m_phase[instruction] == kNoPass && m_fusion[instruction]);
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
        // Per instruction, its parameter operands by bare shape, and the shapes already
        // marked: a fusion of 100,000 returned parts walks its operands once, not per part.
        struct Reads
        {
            std::unordered_multimap<std::string_view, std::uint32_t> parameters;
            std::unordered_set<std::string_view> marked;
        };
        std::unordered_map<std::uint32_t, Reads> reads;
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
            auto [it, fresh] = reads.try_emplace(value.instruction);
            Reads &r = it->second;
            if (fresh) {
                const auto [b, e] = m_dump.usersOf(value.instruction);
                m_out.operandsWalked += static_cast<std::uint64_t>(e - b);
                for (const std::uint32_t *o = b; o != e; ++o)
                    if (isParameterValue(m_dump.values[*o]))
                        r.parameters.emplace(bareShape(m_dump.values[*o]), *o);
            }
            if (!r.marked.insert(found->first).second)
                continue;
            const auto [pb, pe] = r.parameters.equal_range(found->first);
            for (auto p = pb; p != pe; ++p)
                updated[p->second] = true;
        }
        // By the data flow first, each parameter with the rule that decided (kept aside, so
        // that a plain name can go first and the evidence say where they disagree).
        struct Verdict
        {
            Category category = Category::Other;
            CategoryReason reason = CategoryReason::NoInstruction;
            bool decided = false; ///< by the flow, not its last resort
        };
        std::vector<Verdict> flow(params.size());
        std::vector<NameSays> says(params.size(), NameSays::Nothing);
        std::vector<Category> named(params.size(), Category::Other);
        std::vector<CategoryReason> namedWhy(params.size(), CategoryReason::NoInstruction);
        bool someGradientNamedWeight = false;
        for (std::size_t k = 0; k < params.size(); ++k) {
            const std::uint32_t p = params[k];
            const Value &v = m_dump.values[p];
            const Allocation &a = m_dump.allocations[v.allocation];
            const Instruction &ins = m_dump.instructions[v.instruction];
            const std::uint8_t read = m_read[p];
            const bool forward = (read & (kForward | kRecompute)) != 0;
            const ShapeInfo &shape = m_dump.shapes[v.shape];
            const bool counter = m_out.training && isIntegral(shape.elementType) &&
                                 shape.bytesKnown &&
                                 shape.logicalBytes <= elementByteSize(shape.elementType);
            // The op_name is the argument's pytree path; the instruction's name (`qkv.1`,
            // `weights_o_0_.1`, `count`) is only a mangled one: it never says plainly.
            if (ins.opName != kNoString)
                says[k] = categoryByName(m_dump.str(ins.opName), named[k], namedWhy[k]);
            else if (categoryByName(m_dump.str(ins.name), named[k], namedWhy[k]) !=
                     NameSays::Nothing)
                says[k] = NameSays::Weakly;
            Verdict &f = flow[k];
            const auto decide = [&f](Category c, CategoryReason r) { f = {c, r, true}; };
            if (a.isMaybeLiveOut) {
                if (counter)
                    decide(Category::OptimizerState, CategoryReason::StepCounter);
                else if (forward)
                    decide(Category::Weights, CategoryReason::DonatedReadForward);
                else if (m_out.training && (read & kUpdate))
                    decide(Category::OptimizerState, CategoryReason::DonatedReadByUpdate);
                else
                    f = {Category::Other, CategoryReason::DonatedUnclear, false};
                continue;
            }
            if (updated[p] && forward)
                decide(Category::Weights, CategoryReason::UpdatedReadForward);
            else if (updated[p] && m_out.training && (read & kUpdate))
                decide(Category::OptimizerState, CategoryReason::UpdatedReadByUpdate);
            else if (paramShapes[bareShape(v)] && forward) {
                decide(Category::Weights, CategoryReason::WeightWithGradient);
                someGradientNamedWeight =
                    someGradientNamedWeight ||
                    (says[k] != NameSays::Nothing && named[k] == Category::Weights);
            } else
                f = {Category::Inputs, CategoryReason::ReadOnlyArgument, false};
        }
        for (std::size_t k = 0; k < params.size(); ++k) {
            const std::uint32_t p = params[k];
            Verdict f = flow[k];
            // A loss's gradient is taken with respect to weights and inputs alike. Where the
            // step updates its weights, one it does not update is a differentiated input;
            // where some are named weights, one that is not (`qkv` beside `weights_o[0]`).
            if (f.reason == CategoryReason::WeightWithGradient &&
                (m_out.update || (someGradientNamedWeight && says[k] == NameSays::Nothing)))
                f = {Category::Inputs, CategoryReason::DifferentiatedInput, true};
            if (says[k] == NameSays::Plainly) {
                set(p, named[k], namedWhy[k]);
                if (f.decided && f.category != named[k])
                    m_out.disagreements.push_back({p, f.category, f.reason});
            } else if (f.decided || says[k] == NameSays::Nothing)
                set(p, f.category, f.reason);
            else
                set(p, named[k], namedWhy[k]);
        }
    }

    /// What an instruction's operands say of each of its values, found once per instruction
    /// when its first value is decided (its operands are decided before it, and stay so): an
    /// all-gather of 20,000 outputs reading 2,000 weights 256 times each asked every operand
    /// for every output. O(operands) per instruction.
    struct OperandFacts
    {
        /// Per bare shape, the first operand (in operand order) that is a parameter of the
        /// weights or the optimizer state of that shape: a returned value of its shape is its
        /// new value.
        std::unordered_map<std::string_view, std::uint32_t> stateOfShape;
        /// Every operand but scalars is decided weights or gathered weights, and one is.
        bool fromWeightsOnly = false;
    };
    std::unordered_map<std::uint32_t, OperandFacts> m_operandFacts;

    const OperandFacts &operandFacts(std::uint32_t instruction)
    {
        auto [at, fresh] = m_operandFacts.try_emplace(instruction);
        if (!fresh)
            return at->second;
        OperandFacts &facts = at->second;
        const auto [b, e] = m_dump.usersOf(instruction);
        bool weightsOnly = true;
        bool any = false;
        m_out.operandsWalked += static_cast<std::uint64_t>(e - b);
        for (const std::uint32_t *r = b; r != e; ++r) {
            const Value &operand = m_dump.values[*r];
            const Category c = m_out.category[*r];
            if (isParameterValue(operand) &&
                (c == Category::Weights || c == Category::OptimizerState))
                facts.stateOfShape.try_emplace(bareShape(operand), *r);
            if (operand.size <= 8 && c != Category::Weights)
                continue; // a scalar: a constant, an index, a step
            any = true;
            weightsOnly = weightsOnly && m_done[*r] &&
                          (c == Category::Weights || c == Category::GatheredWeights);
        }
        facts.fromWeightsOnly = any && weightsOnly;
        return facts;
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
        const OperandFacts &facts = operandFacts(v.instruction);
        if (liveOut(v)) {
            if (phase == kBackward) {
                set(vi, Category::Gradients, CategoryReason::BackwardReturned);
                return;
            }
            if (const auto state = facts.stateOfShape.find(bareShape(v));
                state != facts.stateOfShape.end()) {
                const std::uint32_t r = state->second;
                set(vi, m_out.category[r], CategoryReason::NewValueOfParameter,
                    m_dump.values[r].allocation);
                return;
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
        if (moves && facts.fromWeightsOnly) {
            set(vi, Category::GatheredWeights, CategoryReason::GatheredFromWeights);
            return;
        }
        if (!m_out.training) {
            set(vi, Category::Temporaries, CategoryReason::TemporaryValue);
            return;
        }
        const std::uint8_t read = m_read[vi];
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

    /// A while loop's carry that changes (a scan's stacked residuals, its gradient
    /// accumulator) is one buffer through the loop: the value coming in, the body's and the
    /// condition's parameter, the body's new value and the loop's result, placed at one
    /// offset with touching live ranges (XLA's alias analysis makes them one HloBuffer). Only
    /// the loop's result is read after the loop, so only it says what the carry is (read by
    /// the backward pass: activations; by the update: gradients); the values before it in
    /// its buffer are that too, where they were temporaries. A loop's result of no such
    /// category that carries on from an earlier loop's (the backward loop carrying the
    /// residuals it reads) is what that one was. O(V log V).
    void loopCarries()
    {
        struct Member
        {
            std::uint32_t allocation;
            std::int64_t offset;
            std::int64_t size;
            std::int64_t start;
            std::int64_t end;
            std::uint32_t value;
            bool loopResult;
            auto key() const { return std::tie(allocation, offset, size, start, value); }
        };
        const auto isLoopResult = [this](const Value &v) {
            return v.phi && v.instruction != kNone &&
                   m_dump.opcode(m_dump.instructions[v.instruction]) == "while";
        };
        std::vector<std::tuple<std::uint32_t, std::int64_t, std::int64_t>> places;
        for (const Value &v : m_dump.values)
            if (isLoopResult(v) && v.allocation != kNone && v.hasLiveRange())
                places.emplace_back(v.allocation, v.offset, v.size);
        if (places.empty())
            return;
        std::sort(places.begin(), places.end());
        std::vector<Member> members;
        for (std::uint32_t vi = 0; vi < m_dump.values.size(); ++vi) {
            const Value &v = m_dump.values[vi];
            if (v.allocation == kNone || !v.hasLiveRange() ||
                !std::binary_search(places.begin(), places.end(),
                                    std::make_tuple(v.allocation, v.offset, v.size)))
                continue;
            members.push_back(
                {v.allocation, v.offset, v.size, v.start, v.end, vi, isLoopResult(v)});
        }
        std::sort(members.begin(), members.end(),
                  [](const Member &a, const Member &b) { return a.key() < b.key(); });
        const auto carries = [](Category c) {
            return c == Category::Activations || c == Category::Gradients ||
                   c == Category::Weights || c == Category::GatheredWeights ||
                   c == Category::OptimizerState;
        };
        std::size_t segment = 0;       // the first member since the last loop result
        std::uint32_t decider = kNone; // the loop result the chain carries on from
        std::int64_t reach = -1;       // the last step of the chain so far
        for (std::size_t k = 0; k < members.size(); ++k) {
            const Member &m = members[k];
            if (k > 0) {
                const Member &p = members[k - 1];
                const bool samePlace = std::tie(p.allocation, p.offset, p.size) ==
                                       std::tie(m.allocation, m.offset, m.size);
                // Touching: one HloBuffer (NormalizeAliasedBuffers); a loop's result starts
                // the step after its body's last.
                if (!samePlace || m.start > reach + (m.loopResult ? 1 : 0)) {
                    segment = k;
                    decider = kNone;
                    reach = -1;
                }
            }
            reach = std::max(reach, m.end);
            if (!m.loopResult)
                continue;
            std::uint32_t by = m.value;
            if (!carries(m_out.category[by]) && decider != kNone)
                by = decider;
            if (carries(m_out.category[by])) {
                for (std::size_t s = segment; s <= k; ++s) {
                    const std::uint32_t v = members[s].value;
                    if (v != by && m_out.category[v] == Category::Temporaries)
                        set(v, m_out.category[by], CategoryReason::LoopCarried, by);
                }
                decider = by;
            }
            segment = k + 1;
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
        return "its pytree path says parameters or weights";
    case CategoryReason::NamedOptimizer:
        return "its pytree path says optimizer state";
    case CategoryReason::NamedStep:
        return "its pytree path says the training step: a step counter";
    case CategoryReason::NamedInputs:
        return "its pytree path says a batch of inputs";
    case CategoryReason::NamedGradients:
        return "its pytree path says gradients";
    case CategoryReason::DifferentiatedInput:
        return "a parameter whose gradient is returned, not named a weight where the others "
               "are: a differentiated input";
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
    case CategoryReason::LoopCarried:
        return "carried by a while loop (a scan): in one buffer with the loop's result";
    case CategoryReason::BackwardToUpdate:
        return "defined in the backward pass (transpose) and read by the update";
    case CategoryReason::BackwardReturned:
        return "defined in the backward pass (transpose) and returned";
    case CategoryReason::SavedForBackward:
        return "defined in the forward pass (jvp) and read in the backward pass: saved for it";
    case CategoryReason::Recomputed:
        return "a forward op scheduled after the backward pass began: recomputed for it, or "
               "computed late";
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
    if (reason[value] == CategoryReason::LoopCarried && at < dump.values.size()) {
        const Value &result = dump.values[at];
        const Instruction *loop = dump.instructionOf(result);
        std::string text = "carried by the while loop " +
                           (loop ? std::string(dump.str(loop->name)) : std::string("?")) +
                           " (a scan), in one buffer with its result " + dump.valueKey(result) +
                           ", which is " + std::string(categoryName(category[at])) + ": ";
        text += reasonText(reason[at]);
        return text;
    }
    if (at == bufferscope::kNone || at >= dump.allocations.size()) {
        std::string text(reasonText(reason[value]));
        const auto d =
            std::lower_bound(disagreements.begin(), disagreements.end(), value,
                             [](const Disagreement &x, std::uint32_t v) { return x.value < v; });
        if (d != disagreements.end() && d->value == value)
            text += "; the data flow says " + std::string(categoryName(d->flow)) + " (" +
                    std::string(reasonText(d->reason)) + "), and the name goes first";
        return text;
    }
    const Allocation &a = dump.allocations[at];
    const std::string parameter = "parameter " + std::to_string(a.parameterNumber) +
                                  " (allocation " + std::to_string(a.index) + ")";
    if (reason[value] == CategoryReason::WrittenOverDonated)
        return "the new value written in place over donated " + parameter;
    return "returned with the shape of " + parameter + ", which it is computed from: its new value";
}

} // namespace bufferscope
