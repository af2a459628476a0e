#include "DumpMatch.h"

#include "analysis/PeakBreakdown.h"
#include "util/Parallel.h"
#include "util/Stopwatch.h"

#include <queue>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace bufferscope {

namespace {

using Hash = std::uint64_t;

/// Rounds of refinement: how far (in operand and user edges) an instruction's key looks. Two
/// were too few: a value taken out of a chain of sixteen alike layers (gpu_vllm_update_slice)
/// made the layers next to the gap look like the chain's first ones.
constexpr int kRounds = 6;

/// Users spread a match only from an instruction with at most this many.
constexpr std::uint32_t kFewUsers = 4;

Hash fmix(Hash h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

Hash mix(Hash seed, Hash v)
{
    return fmix(seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2)));
}

/// (key, item) pairs sorted by key.
using Keyed = std::vector<std::pair<Hash, std::uint32_t>>;

/// Sorts (key, item) pairs by key, stably (pairs of one key keep their order): a least
/// significant digit radix sort, four passes of 16 bits. A match sorts every instruction of
/// both sides a few times; std::sort of 100,000 pairs took 6-8 ms, this about 1 ms.
void radixSortByKey(Keyed &v)
{
    if (v.size() < 256) {
        std::stable_sort(v.begin(), v.end(),
                         [](const auto &x, const auto &y) { return x.first < y.first; });
        return;
    }
    Keyed tmp(v.size());
    std::vector<std::uint32_t> count(1u << 16);
    for (int shift = 0; shift < 64; shift += 16) {
        std::fill(count.begin(), count.end(), 0u);
        for (const auto &e : v)
            ++count[(e.first >> shift) & 0xffff];
        if (count[(v.front().first >> shift) & 0xffff] == v.size())
            continue; // every key has this digit: nothing moves
        std::uint32_t sum = 0;
        for (std::uint32_t &c : count)
            sum += std::exchange(c, sum);
        for (const auto &e : v)
            tmp[count[(e.first >> shift) & 0xffff]++] = e;
        v.swap(tmp);
    }
}

/// Calls fn(a, aEnd, b, bEnd) with the runs of `a` and `b` (both sorted) that hold the same key,
/// for each key both hold.
template <class Fn> void forEachCommonKey(const Keyed &a, const Keyed &b, Fn fn)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].first < b[j].first) {
            ++i;
        } else if (b[j].first < a[i].first) {
            ++j;
        } else {
            const Hash key = a[i].first;
            std::size_t ie = i;
            std::size_t je = j;
            while (ie < a.size() && a[ie].first == key)
                ++ie;
            while (je < b.size() && b[je].first == key)
                ++je;
            fn(i, ie, j, je);
            i = ie;
            j = je;
        }
    }
}

/// One operand an instruction reads, as the `uses:` lists say.
struct Operand
{
    std::int64_t number = 0; ///< operand number
    Hash index = 0;          ///< the value's shape index and the use's
    std::uint32_t definer = kNone;
    Hash key = 0; ///< number and index together, for the refinement rounds
};

/// One dump's instructions as a graph with hashed attributes; built for A and B in parallel.
struct Side
{
    const Dump *dump = nullptr;
    /// StringId -> content hash, 0 until asked for: most strings of a dump are names, which
    /// only the last levels read.
    mutable std::vector<Hash> strings;
    std::vector<Hash> own;     ///< what the instruction is, by itself
    std::vector<Hash> loose;   ///< opcode, op_name, op_type, source and stack only
    std::vector<Hash> refined; ///< own, refined by its operands and users
    /// The same three with what a rename changes left out: the names inside op_name's scopes
    /// (`jit(f)/jit(main)/dot_general` is `jit()/jit()/dot_general`), the source line and the
    /// call stack. An author who renames a jitted function, or edits the file above it,
    /// changes all three of the keys above for every instruction.
    std::vector<Hash> ownRenamed;
    std::vector<Hash> looseRenamed;
    std::vector<Hash> refinedRenamed;
    /// The same three with the `jit(…)` and `pjit(…)` scopes left out altogether: a JAX or XLA
    /// upgrade adds or drops them (`jit(f)/jit(main)/dot_general` → `jit(f)/dot_general`);
    /// other transformations (`transpose(jvp(…))`, `vmap(…)`) still count, without their names.
    std::vector<Hash> ownJitFree;
    std::vector<Hash> looseJitFree;
    std::vector<Hash> refinedJitFree;
    /// Opcode, shape and the values defined, without any metadata: an instruction whose op_name
    /// says something else (another einsum spelling, a moved scope) found by where it sits.
    std::vector<Hash> bare;
    std::vector<Hash> refinedBare;
    /// Name, opcode and shape: the last resort, for instructions no structural key paired.
    /// Two instructions of one name, opcode and shape, left over on both sides, are the same
    /// unless something proves otherwise.
    std::vector<Hash> named;
    /// Name and opcode alone, after everything else: a value is never listed as gone and new
    /// under one name; one of another shape is shown resized.
    std::vector<Hash> nameOnly;
    /// Opcode and the element types of the values it defines, not their dimensions: what a
    /// split or merged computation keeps (a GEMM of half the rows). Only spreads a match
    /// along an operand or a single user, never groups on its own.
    std::vector<Hash> kind;
    std::vector<Hash> parameter;  ///< an entry parameter's number + 1, else 0
    std::vector<Hash> valuesHash; ///< the values an instruction defines, hashed
    std::vector<std::uint32_t> operandStart;
    std::vector<Operand> operands; ///< per instruction, by operand number
    std::vector<std::uint32_t> userStart;
    std::vector<std::uint32_t> users; ///< distinct instructions that read its values
    std::vector<std::uint32_t> rank;  ///< order in the schedule (unscheduled last, by index)
    std::vector<std::uint32_t> order; ///< rank -> instruction

    Hash str(StringId id) const
    {
        if (id >= strings.size())
            return 0;
        Hash &h = strings[id];
        if (h == 0)
            h = StringPool::hash(dump->strings.view(id)) | 1;
        return h;
    }

    /// An op_name's hash without what stands inside the parentheses of its scopes:
    /// `jit(_tau_kernel)/jit(main)/jit(_sigma_kij_kernel)/custom_partitioning` hashes as
    /// `jit()/jit()/jit()/custom_partitioning`.
    static Hash scopeFreeHash(std::string_view opName, bool dropJit = false)
    {
        Hash h = 0xcbf29ce484222325ull; // FNV-1a over the characters kept
        int depth = 0;
        for (std::size_t i = 0; i < opName.size(); ++i) {
            const char c = opName[i];
            if (dropJit && depth == 0 && (i == 0 || opName[i - 1] == '/')) {
                // A whole `jit(…)/` or `pjit(…)/` segment, its parentheses balanced.
                const std::string_view rest = opName.substr(i);
                const std::size_t open = rest.starts_with("jit(")    ? 3
                                         : rest.starts_with("pjit(") ? 4
                                                                     : std::string_view::npos;
                if (open != std::string_view::npos) {
                    int inner = 0;
                    std::size_t k = i + open;
                    for (; k < opName.size(); ++k) {
                        inner += opName[k] == '(' ? 1 : opName[k] == ')' ? -1 : 0;
                        if (inner == 0)
                            break;
                    }
                    if (k + 1 < opName.size() && opName[k + 1] == '/') {
                        i = k + 1; // past the slash
                        continue;
                    }
                }
            }
            if (c == ')' && depth > 0)
                --depth;
            if (depth == 0)
                h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
            if (c == '(')
                ++depth;
        }
        return fmix(h) | 1;
    }

    /// The opcode with op_type; without its text an instruction is known by its name's stem
    /// (`get-tuple-element` of `get-tuple-element.5`), which a renumbering keeps.
    Hash opcodeHash(std::uint32_t i) const
    {
        const Instruction &in = dump->instructions[i];
        return in.opcode != kNoString
                   ? mix(str(in.opcode), str(in.opType))
                   : StringPool::hash(Breakdown::nameStem(dump->str(in.name))) | 2;
    }

    /// The keys of the later levels (renamed scopes, structure alone, names), refined, made
    /// when a match gets that far: most comparisons pair everything on the first three.
    void buildLooser()
    {
        const Dump &d = *dump;
        const std::size_t n = d.instructions.size();
        ownRenamed.assign(n, 0);
        looseRenamed.assign(n, 0);
        named.assign(n, 0);
        bare.assign(n, 0);
        kind.assign(n, 0);
        nameOnly.assign(n, 0);
        ownJitFree.assign(n, 0);
        looseJitFree.assign(n, 0);
        std::vector<Hash> scopeFree(d.strings.size(), 0); // op_name StringId -> scope-free hash
        std::vector<Hash> jitFree(d.strings.size(), 0);   // and without its jit scopes
        for (std::uint32_t i = 0; i < n; ++i) {
            const Instruction &in = d.instructions[i];
            const Hash opcode = mix(opcodeHash(i), parameter[i]);
            Hash r = opcode;
            Hash j = opcode;
            if (in.opName < scopeFree.size()) {
                // One op_name is shared by many instructions: hashed once.
                Hash &f = scopeFree[in.opName];
                if (f == 0)
                    f = scopeFreeHash(d.str(in.opName));
                r = mix(r, f);
                Hash &g = jitFree[in.opName];
                if (g == 0)
                    g = scopeFreeHash(d.str(in.opName), true);
                j = mix(j, g);
            } else {
                r = mix(r, 0);
                j = mix(j, 0);
            }
            looseRenamed[i] = r;
            looseJitFree[i] = j;
            const Hash shape = str(d.shapes[in.shape].text);
            ownRenamed[i] = mix(mix(r, shape), valuesHash[i]);
            ownJitFree[i] = mix(mix(j, shape), valuesHash[i]);
            bare[i] = mix(mix(opcode, shape), valuesHash[i]);
            Hash types = 0;
            const auto [first, last] = d.valuesOf(i);
            for (const std::uint32_t *v = first; v != last; ++v) {
                const Value &val = d.values[*v];
                const ShapeInfo &si = d.shapes[val.shape];
                types += fmix(mix(mix(str(val.index), static_cast<Hash>(si.elementType)),
                                  static_cast<Hash>(si.tupleArity + 2)));
            }
            kind[i] = mix(opcode, types);
            nameOnly[i] = mix(str(in.name), opcode);
            named[i] = mix(nameOnly[i], shape);
        }
        refinedRenamed = refine(ownRenamed);
    }

    /// The structural key refined, when a match gets that far.
    void refineBare() { refinedBare = refine(bare); }
    /// The jit-free key refined, when a match gets that far (an upgrade dropped a scope).
    void refineJitFree() { refinedJitFree = refine(ownJitFree); }

    /// Rounds of refinement of `base` by the neighbours' signatures (Weisfeiler–Lehman).
    std::vector<Hash> refine(const std::vector<Hash> &base) const
    {
        const std::size_t n = base.size();
        std::vector<Hash> cur = base;
        std::vector<Hash> next(n);
        for (int round = 0; round < kRounds; ++round) {
            for (std::uint32_t i = 0; i < n; ++i) {
                Hash h = cur[i];
                for (std::uint32_t k = operandStart[i]; k < operandStart[i + 1]; ++k) {
                    const Operand &o = operands[k];
                    h = mix(h, cur[o.definer] ^ o.key);
                }
                Hash readers = 0;
                for (std::uint32_t k = userStart[i]; k < userStart[i + 1]; ++k)
                    readers += fmix(cur[users[k]]);
                next[i] = mix(h, readers);
            }
            cur.swap(next);
        }
        return cur;
    }

    void build(const Dump &d)
    {
        dump = &d;
        const std::size_t n = d.instructions.size();
        strings.assign(d.strings.size(), 0);

        std::vector<Hash> frameHash(d.stackFrames.size() + 1, 0);
        const auto stackHash = [&](std::uint32_t id) {
            // Iterative: walk up to a frame already hashed, then hash back down.
            std::vector<std::uint32_t> chain;
            std::uint32_t f = id;
            while (f != 0 && f <= d.stackFrames.size() && frameHash[f] == 0) {
                chain.push_back(f);
                f = d.stackFrames[f - 1].parent;
            }
            Hash h = f != 0 && f <= d.stackFrames.size() ? frameHash[f] : 0x5eed;
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                const StackFrame &sf = d.stackFrames[*it - 1];
                h = mix(
                    mix(mix(mix(h, str(sf.file)), str(sf.function)), static_cast<Hash>(sf.line)),
                    static_cast<Hash>(sf.column));
                frameHash[*it] = h | 1;
            }
            return id == 0 || id > d.stackFrames.size() ? Hash(0) : frameHash[id];
        };

        // An entry parameter is known by its number: a recompile may give parameters other
        // names (`param.13` is parameter 3 on one side and `param.12.0` on the other).
        parameter.assign(n, 0);
        for (const Allocation &alloc : d.allocations) {
            if (!alloc.isParameter)
                continue;
            for (std::uint32_t k = 0; k < alloc.valueCount; ++k) {
                const Value &v = d.values[d.allocationValues[alloc.firstValue + k]];
                if (v.instruction < n)
                    parameter[v.instruction] = static_cast<Hash>(alloc.parameterNumber) + 1;
            }
        }

        own.assign(n, 0);
        loose.assign(n, 0);
        valuesHash.assign(n, 0);
        for (std::uint32_t i = 0; i < n; ++i) {
            const Instruction &in = d.instructions[i];
            Hash h = mix(opcodeHash(i), parameter[i]);
            h = mix(h, str(in.opName));
            h = mix(mix(h, str(in.sourceFile)), static_cast<Hash>(in.sourceLine));
            h = mix(h, stackHash(in.stackFrame));
            loose[i] = h;
            h = mix(h, str(d.shapes[in.shape].text));
            // The values it defines, in any order.
            Hash values = 0;
            const auto [first, last] = d.valuesOf(i);
            for (const std::uint32_t *v = first; v != last; ++v) {
                const Value &val = d.values[*v];
                values += fmix(mix(mix(str(val.index), str(d.shapes[val.shape].text)),
                                   static_cast<Hash>(val.color)));
            }
            valuesHash[i] = values;
            own[i] = mix(h, values);
        }

        // Operands, from the values' uses; and, as operand -1, the values an instruction holds
        // without defining them (its positions: a get-tuple-element or bitcast that aliases).
        // One walk serves both passes: count per reader, then fill.
        const auto forEachOperand = [&](const auto &fn) {
            for (const Value &v : d.values) {
                if (v.instruction == kNone)
                    continue;
                for (std::uint32_t k = 0; k < v.useCount; ++k) {
                    const Use &u = d.uses[v.firstUse + k];
                    if (u.instruction < n)
                        fn(u.instruction,
                           Operand{u.operand, mix(str(v.index), str(u.index)), v.instruction, 0});
                }
                for (std::uint32_t k = 0; k < v.positionCount; ++k) {
                    const Position &p = d.positions[v.firstPosition + k];
                    if (p.instruction < n && p.instruction != v.instruction)
                        fn(p.instruction,
                           Operand{-1, mix(str(v.index), str(p.index)), v.instruction, 0});
                }
            }
        };
        operandStart.assign(n + 1, 0);
        forEachOperand([&](std::uint32_t reader, const Operand &) { ++operandStart[reader + 1]; });
        for (std::size_t i = 0; i < n; ++i)
            operandStart[i + 1] += operandStart[i];
        operands.assign(operandStart[n], {});
        std::vector<std::uint32_t> fill(operandStart.begin(), operandStart.end() - 1);
        forEachOperand(
            [&](std::uint32_t reader, const Operand &o) { operands[fill[reader]++] = o; });
        for (std::size_t i = 0; i < n; ++i)
            std::sort(operands.begin() + operandStart[i], operands.begin() + operandStart[i + 1],
                      [](const Operand &x, const Operand &y) {
                          return x.number != y.number ? x.number < y.number : x.index < y.index;
                      });
        for (Operand &o : operands)
            o.key = mix(static_cast<Hash>(o.number), o.index);

        // Users: the distinct readers of each instruction's values, by a counting pass over
        // the operands (readers come in increasing order, so a repeat is the last one written).
        userStart.assign(n + 1, 0);
        std::vector<std::uint32_t> last(n, kNone); // the reader counted last per definer
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t k = operandStart[i]; k < operandStart[i + 1]; ++k) {
                const std::uint32_t def = operands[k].definer;
                if (last[def] != i) {
                    last[def] = i;
                    ++userStart[def + 1];
                }
            }
        for (std::size_t i = 0; i < n; ++i)
            userStart[i + 1] += userStart[i];
        users.resize(userStart[n]);
        std::vector<std::uint32_t> next(userStart.begin(), userStart.end() - 1);
        std::fill(last.begin(), last.end(), kNone);
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t k = operandStart[i]; k < operandStart[i + 1]; ++k) {
                const std::uint32_t def = operands[k].definer;
                if (last[def] != i) {
                    last[def] = i;
                    users[next[def]++] = i;
                }
            }

        refined = refine(own);
        // refinedRenamed and refinedBare are refined when a level needs them (ensureRefined).

        // Schedule order: scheduled instructions by step, then the rest by first appearance.
        order.resize(n);
        for (std::uint32_t i = 0; i < n; ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&d](std::uint32_t x, std::uint32_t y) {
            const std::int64_t sx = d.instructions[x].step;
            const std::int64_t sy = d.instructions[y].step;
            if ((sx < 0) != (sy < 0))
                return sx >= 0;
            return sx < sy;
        });
        rank.assign(n, 0);
        for (std::uint32_t r = 0; r < n; ++r)
            rank[order[r]] = r;
    }
};

/// Monotone anchors (step in A, step in B) from the matched scheduled instructions.
std::vector<std::pair<std::int64_t, std::int64_t>>
monotoneAnchors(const Dump &a, const std::vector<std::uint32_t> &inB, const Dump &b)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    for (std::int64_t s = 0; s < a.maxStep(); ++s) {
        // An instruction listed at two steps (a damaged sequence) anchors at its own step only.
        const std::uint32_t ia = a.sequence[static_cast<std::size_t>(s)];
        if (ia >= inB.size() || a.instructions[ia].step != s)
            continue;
        const std::uint32_t ib = inB[ia];
        if (ib != kNone && b.instructions[ib].step >= 0 && b.instructions[ib].step < b.maxStep() &&
            b.sequence[static_cast<std::size_t>(b.instructions[ib].step)] == ib)
            pairs.emplace_back(s, b.instructions[ib].step);
    }
    // Longest strictly increasing run of B steps (patience sorting, with back links).
    std::vector<std::size_t> tails;
    std::vector<std::size_t> back(pairs.size(), static_cast<std::size_t>(-1));
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const auto it = std::lower_bound(
            tails.begin(), tails.end(), pairs[k].second,
            [&pairs](std::size_t t, std::int64_t v) { return pairs[t].second < v; });
        if (it != tails.begin())
            back[k] = *(it - 1);
        if (it == tails.end())
            tails.push_back(k);
        else
            *it = k;
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> out(tails.size());
    std::size_t k = tails.empty() ? static_cast<std::size_t>(-1) : tails.back();
    for (std::size_t r = tails.size(); r-- > 0;) {
        out[r] = pairs[k];
        k = back[k];
    }
    return out;
}

class Matcher
{
public:
    Matcher(Side &a, Side &b, DumpMatch &m, int threads) : A(a), B(b), M(m), m_threads(threads) {}

    void run(const std::atomic<bool> *cancel)
    {
        const auto stop = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
        // Sure pairs: a key one instruction has on each side; or, off the schedule (where
        // there is no step to go by), groups as large on both sides, in order of appearance.
        const auto sure = [this](const Span &la, const Span &lb) {
            if (la.size() != lb.size())
                return;
            if (la.size() > 1) {
                for (std::uint32_t x : la)
                    if (A.dump->instructions[x].step >= 0)
                        return;
                for (std::uint32_t x : lb)
                    if (B.dump->instructions[x].step >= 0)
                        return;
            }
            for (std::size_t k = 0; k < la.size(); ++k)
                link(la[k], lb[k]);
        };
        const auto nearest = [this](const Span &la, const Span &lb) { pairNearest(la, lb); };
        // For each key, strictest first: the sure pairs, spread to their neighbours; then the
        // rest nearest first on the steps aligned by what is matched so far, spread again. The
        // refined keys only give sure pairs (they differ where the neighbourhood does: the
        // instruction's own key decides). The next three levels are the first three without
        // what a rename changes (scope names, source lines, stacks); then the structure alone
        // (opcode, shapes and neighbours), then the name as the last resort.
        struct Level
        {
            const std::vector<Hash> *keyA, *keyB;     // the key that groups
            const std::vector<Hash> *alikeA, *alikeB; // what spreading a match requires
            bool nearestToo;
        };
        const Level levels[] = {
            {&A.refined, &B.refined, &A.own, &B.own, false},
            {&A.own, &B.own, &A.own, &B.own, true},
            {&A.loose, &B.loose, &A.loose, &B.loose, true},
            {&A.refinedRenamed, &B.refinedRenamed, &A.ownRenamed, &B.ownRenamed, false},
            {&A.ownRenamed, &B.ownRenamed, &A.ownRenamed, &B.ownRenamed, true},
            {&A.looseRenamed, &B.looseRenamed, &A.looseRenamed, &B.looseRenamed, true},
            {&A.refinedJitFree, &B.refinedJitFree, &A.ownJitFree, &B.ownJitFree, false},
            {&A.ownJitFree, &B.ownJitFree, &A.ownJitFree, &B.ownJitFree, true},
            {&A.looseJitFree, &B.looseJitFree, &A.looseJitFree, &B.looseJitFree, true},
            {&A.refinedBare, &B.refinedBare, &A.bare, &B.bare, false},
            {&A.bare, &B.bare, &A.bare, &B.bare, true},
            {&A.named, &B.named, &A.bare, &B.bare, false},
        };
        for (const Level &level : levels) {
            if (stop() || allPaired())
                return;
            // The refinements of the looser keys, only when a level gets that far.
            if (level.keyA == &A.refinedRenamed && A.refinedRenamed.empty())
                runBoth([&] { A.buildLooser(); }, [&] { B.buildLooser(); }, m_threads);
            // Structure alone says which is which only between compiles of one program: when
            // the metadata paired fewer than half of the smaller side's instructions, these are
            // other programs and the rest stays unpaired.
            if (level.keyA == &A.refinedBare && !sameProgram())
                return;
            if (level.keyA == &A.refinedJitFree && A.refinedJitFree.empty())
                runBoth([&] { A.refineJitFree(); }, [&] { B.refineJitFree(); }, m_threads);
            if (level.keyA == &A.refinedBare && A.refinedBare.empty())
                runBoth([&] { A.refineBare(); }, [&] { B.refineBare(); }, m_threads);
            forEachGroup(*level.keyA, *level.keyB, sure);
            propagate(*level.alikeA, *level.alikeB);
            if (!level.nearestToo)
                continue;
            if (stop())
                return;
            anchors = monotoneAnchors(*A.dump, M.instructionInB, *B.dump);
            forEachGroup(*level.keyA, *level.keyB, nearest);
            propagate(*level.alikeA, *level.alikeB);
        }
        // Last, from every pair: an operand or a single user of the same kind on each side.
        if (stop())
            return;
        for (std::uint32_t a = 0; a < M.instructionInB.size(); ++a)
            if (M.instructionInB[a] != kNone)
                queue.push_back({a, M.instructionInB[a]});
        propagate(A.kind, B.kind);
        forEachGroup(A.nameOnly, B.nameOnly, sure);
        queue.clear();
    }

private:
    using Span = std::vector<std::uint32_t>;

    /// Every instruction of one side has its pair: nothing is left to pair.
    bool allPaired() const
    {
        const auto all = [](const std::vector<std::uint32_t> &v) {
            return std::none_of(v.begin(), v.end(), [](std::uint32_t x) { return x == kNone; });
        };
        return all(M.instructionInB) || all(M.instructionInA);
    }

    bool sameProgram() const
    {
        const std::size_t matched =
            static_cast<std::size_t>(std::count_if(M.instructionInB.begin(), M.instructionInB.end(),
                                                   [](std::uint32_t b) { return b != kNone; }));
        return 2 * matched >= std::min(M.instructionInB.size(), M.instructionInA.size());
    }

    void link(std::uint32_t a, std::uint32_t b)
    {
        M.instructionInB[a] = b;
        M.instructionInA[b] = a;
        queue.push_back({a, b});
    }

    /// Calls fn(A's unmatched instructions, B's) for each key both sides have, each list in
    /// schedule order.
    template <class Fn>
    void forEachGroup(const std::vector<Hash> &keyA, const std::vector<Hash> &keyB, Fn fn)
    {
        const auto collect = [](const std::vector<Hash> &key,
                                const std::vector<std::uint32_t> &order,
                                const std::vector<std::uint32_t> &matched) {
            Keyed out; // (key, rank), in rank order, then sorted by key keeping it
            for (std::uint32_t r = 0; r < order.size(); ++r)
                if (matched[order[r]] == kNone)
                    out.emplace_back(key[order[r]], r);
            radixSortByKey(out);
            return out;
        };
        // A level groups twice on one key (sure pairs, then nearest): the second time the
        // sorted lists are the first's without what was paired in between.
        Keyed &ka = m_keyedA;
        Keyed &kb = m_keyedB;
        if (m_keyed == &keyA) {
            const auto unpaired = [](Keyed &k, const std::vector<std::uint32_t> &order,
                                     const std::vector<std::uint32_t> &matched) {
                k.erase(std::remove_if(k.begin(), k.end(),
                                       [&](const std::pair<Hash, std::uint32_t> &e) {
                                           return matched[order[e.second]] != kNone;
                                       }),
                        k.end());
            };
            unpaired(ka, A.order, M.instructionInB);
            unpaired(kb, B.order, M.instructionInA);
        } else {
            runBoth([&] { ka = collect(keyA, A.order, M.instructionInB); },
                    [&] { kb = collect(keyB, B.order, M.instructionInA); }, m_threads);
            m_keyed = &keyA;
        }
        Span la;
        Span lb;
        forEachCommonKey(ka, kb, [&](std::size_t i, std::size_t ie, std::size_t j, std::size_t je) {
            la.clear();
            lb.clear();
            for (; i < ie; ++i)
                la.push_back(A.order[ka[i].second]);
            for (; j < je; ++j)
                lb.push_back(B.order[kb[j].second]);
            fn(la, lb);
        });
    }

    /// A's step `s` on B's program, interpolated between the anchors.
    double predictB(std::int64_t s) const
    {
        const double maxA = static_cast<double>(std::max<std::int64_t>(1, A.dump->maxStep()));
        const double maxB = static_cast<double>(B.dump->maxStep());
        if (anchors.empty())
            return static_cast<double>(s) * maxB / maxA;
        const auto it = std::lower_bound(anchors.begin(), anchors.end(), s,
                                         [](const std::pair<std::int64_t, std::int64_t> &p,
                                            std::int64_t v) { return p.first < v; });
        std::pair<double, double> lo{-1.0, -1.0};
        std::pair<double, double> hi{static_cast<double>(A.dump->maxStep()), maxB};
        if (it != anchors.end())
            hi = {static_cast<double>(it->first), static_cast<double>(it->second)};
        if (it != anchors.begin())
            lo = {static_cast<double>((it - 1)->first), static_cast<double>((it - 1)->second)};
        if (hi.first <= lo.first)
            return hi.second;
        return lo.second + (static_cast<double>(s) - lo.first) * (hi.second - lo.second) /
                               (hi.first - lo.first);
    }

    /// Pairs two groups of alike instructions, the closest on the aligned program first; equal
    /// names break ties. Scheduled and unscheduled instructions pair among themselves.
    void pairNearest(const Span &la, const Span &lb)
    {
        struct Item
        {
            double position;
            std::uint32_t instruction;
            bool fromA;
        };
        std::vector<Item> scheduled;
        std::vector<std::uint32_t> restA;
        std::vector<std::uint32_t> restB;
        for (std::uint32_t x : la) {
            const std::int64_t s = A.dump->instructions[x].step;
            if (s >= 0)
                scheduled.push_back({predictB(s), x, true});
            else
                restA.push_back(x);
        }
        for (std::uint32_t x : lb) {
            const std::int64_t s = B.dump->instructions[x].step;
            if (s >= 0)
                scheduled.push_back({static_cast<double>(s), x, false});
            else
                restB.push_back(x);
        }
        // Unscheduled ones by their order of appearance, stretched to the same length.
        for (std::size_t k = 0; k < restA.size(); ++k)
            scheduled.push_back(
                {-1.0e12 + static_cast<double>(k) * static_cast<double>(restB.size()) /
                               static_cast<double>(restA.size()),
                 restA[k], true});
        for (std::size_t k = 0; k < restB.size(); ++k)
            scheduled.push_back({-1.0e12 + static_cast<double>(k), restB[k], false});
        std::stable_sort(scheduled.begin(), scheduled.end(),
                         [](const Item &x, const Item &y) { return x.position < y.position; });
        const std::size_t n = scheduled.size();
        std::vector<std::size_t> prev(n);
        std::vector<std::size_t> next(n);
        std::vector<bool> alive(n, true);
        for (std::size_t k = 0; k < n; ++k) {
            prev[k] = k - 1; // wraps for the first: never read as alive
            next[k] = k + 1;
        }
        using Candidate = std::tuple<double, std::size_t, std::size_t>;
        std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
        const auto consider = [&](std::size_t x, std::size_t y) {
            if (x >= n || y >= n || scheduled[x].fromA == scheduled[y].fromA)
                return;
            const Item &ia = scheduled[x].fromA ? scheduled[x] : scheduled[y];
            const Item &ib = scheduled[x].fromA ? scheduled[y] : scheduled[x];
            const bool sameName = A.dump->str(A.dump->instructions[ia.instruction].name) ==
                                  B.dump->str(B.dump->instructions[ib.instruction].name);
            heap.emplace(std::abs(ia.position - ib.position) + (sameName ? 0.0 : 0.25), x, y);
        };
        for (std::size_t k = 0; k + 1 < n; ++k)
            consider(k, k + 1);
        while (!heap.empty()) {
            const auto [gap, x, y] = heap.top();
            heap.pop();
            if (!alive[x] || !alive[y] || next[x] != y)
                continue;
            const Item &ix = scheduled[x];
            const Item &iy = scheduled[y];
            link(ix.fromA ? ix.instruction : iy.instruction,
                 ix.fromA ? iy.instruction : ix.instruction);
            alive[x] = alive[y] = false;
            const std::size_t before = prev[x];
            const std::size_t after = next[y];
            if (before < n)
                next[before] = after;
            if (after < n)
                prev[after] = before;
            if (before < n && after < n)
                consider(before, after);
        }
    }

    /// From each matched pair outwards: definers of the same operands, and users alike on
    /// both sides.
    void propagate(const std::vector<Hash> &keyA, const std::vector<Hash> &keyB)
    {
        const auto alike = [&keyA, &keyB](std::uint32_t a, std::uint32_t b) {
            return keyA[a] == keyB[b];
        };
        Keyed ua;
        Keyed ub;
        const auto unmatchedUsers = [](const Side &s, const std::vector<Hash> &key, std::uint32_t x,
                                       const std::vector<std::uint32_t> &matched, Keyed &out) {
            out.clear();
            for (std::uint32_t k = s.userStart[x]; k < s.userStart[x + 1]; ++k) {
                const std::uint32_t u = s.users[k];
                if (matched[u] == kNone)
                    out.emplace_back(key[u], u);
            }
            std::sort(out.begin(), out.end());
        };
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const auto [a, b] = queue[head];
            std::uint32_t i = A.operandStart[a];
            std::uint32_t j = B.operandStart[b];
            while (i < A.operandStart[a + 1] && j < B.operandStart[b + 1]) {
                const Operand &oa = A.operands[i];
                const Operand &ob = B.operands[j];
                if (oa.number < ob.number || (oa.number == ob.number && oa.index < ob.index)) {
                    ++i;
                } else if (ob.number < oa.number || ob.index < oa.index) {
                    ++j;
                } else {
                    if (M.instructionInB[oa.definer] == kNone &&
                        M.instructionInA[ob.definer] == kNone && alike(oa.definer, ob.definer))
                        link(oa.definer, ob.definer);
                    ++i;
                    ++j;
                }
            }
            // Users spread a match only from an instruction read by a few: the last unmatched
            // reader of a parameter read by hundreds says nothing of where it is.
            if (A.userStart[a + 1] - A.userStart[a] > kFewUsers ||
                B.userStart[b + 1] - B.userStart[b] > kFewUsers)
                continue;
            unmatchedUsers(A, keyA, a, M.instructionInB, ua);
            if (ua.empty())
                continue;
            unmatchedUsers(B, keyB, b, M.instructionInA, ub);
            // A key held by exactly one user on each side pairs them.
            forEachCommonKey(ua, ub,
                             [&](std::size_t p, std::size_t pe, std::size_t q, std::size_t qe) {
                                 if (pe - p == 1 && qe - q == 1)
                                     link(ua[p].second, ub[q].second);
                             });
        }
        queue.clear();
    }

    Side &A;
    Side &B;
    const std::vector<Hash> *m_keyed = nullptr; ///< the key m_keyedA and m_keyedB are sorted by
    Keyed m_keyedA;
    Keyed m_keyedB;
    DumpMatch &M;
    int m_threads;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> queue;
    std::vector<std::pair<std::int64_t, std::int64_t>> anchors;
};

StepAlignment align(const Dump &a, const Dump &b,
                    const std::vector<std::pair<std::int64_t, std::int64_t>> &anchors)
{
    StepAlignment s;
    const std::int64_t endA = a.maxStep();
    const std::int64_t endB = b.maxStep();
    s.rowOfA.assign(static_cast<std::size_t>(endA + 1), 0);
    s.rowOfB.assign(static_cast<std::size_t>(endB + 1), 0);
    s.rows.reserve(static_cast<std::size_t>(endA + endB + 2));
    std::int64_t ia = 0;
    std::int64_t ib = 0;
    const auto emit = [&s](std::int64_t x, std::int64_t y) {
        const auto row = static_cast<std::uint32_t>(s.rows.size());
        if (x >= 0)
            s.rowOfA[static_cast<std::size_t>(x)] = row;
        if (y >= 0)
            s.rowOfB[static_cast<std::size_t>(y)] = row;
        s.rows.push_back({x, y});
    };
    const auto upTo = [&](std::int64_t pa, std::int64_t pb) {
        // Between two anchors, as many steps on each side: the same stretch of the program
        // with other instructions (or ones only the values tell apart), step for step.
        if (pa - ia == pb - ib)
            for (; ia < pa; ++ia, ++ib)
                emit(ia, ib);
        for (; ia < pa; ++ia)
            emit(ia, -1);
        for (; ib < pb; ++ib)
            emit(-1, ib);
        emit(pa, pb);
        ia = pa + 1;
        ib = pb + 1;
    };
    for (const auto &[pa, pb] : anchors)
        upTo(pa, pb);
    upTo(endA, endB); // the programs' ends
    return s;
}

} // namespace

namespace {

/// The other side's step in the row of step `step`, or the nearest one before it (0 when none).
std::int64_t stepAt(const StepAlignment &s, const std::vector<std::uint32_t> &rowOf,
                    std::int64_t step, bool wantB)
{
    if (step < 0 || static_cast<std::size_t>(step) >= rowOf.size())
        return -1;
    for (std::size_t r = rowOf[static_cast<std::size_t>(step)] + 1; r-- > 0;) {
        const std::int64_t other = wantB ? s.rows[r].b : s.rows[r].a;
        if (other >= 0)
            return other;
    }
    return 0;
}

} // namespace

std::int64_t StepAlignment::bAt(std::int64_t a) const
{
    return stepAt(*this, rowOfA, a, true);
}

std::int64_t StepAlignment::aAt(std::int64_t b) const
{
    return stepAt(*this, rowOfB, b, false);
}

bool DumpMatch::sameStep(const Dump &a, std::int64_t sa, const Dump &b, std::int64_t sb) const
{
    if (sa < 0 || sb < 0)
        return sa < 0 && sb < 0;
    if (sa > a.maxStep() || sb > b.maxStep() || steps.rowOfA.empty() || steps.rowOfB.empty())
        return false;
    return steps.rowOfA[static_cast<std::size_t>(sa)] == steps.rowOfB[static_cast<std::size_t>(sb)];
}

DumpMatch DumpMatch::compute(const Dump &a, const Dump &b, const std::atomic<bool> *cancel,
                             int threads)
{
    DumpMatch m;
    m.instructionInB.assign(a.instructions.size(), kNone);
    m.instructionInA.assign(b.instructions.size(), kNone);
    m.valueInB.assign(a.values.size(), kNone);
    m.valueInA.assign(b.values.size(), kNone);
    m.allocationInB.assign(a.allocations.size(), kNone);
    m.allocationInA.assign(b.allocations.size(), kNone);

    Side sa;
    Side sb;
    const Stopwatch clock;
    runBoth([&] { sa.build(a); }, [&] { sb.build(b); }, threads);
    const double built = clock.seconds();
    if (cancel && cancel->load()) {
        m.cancelled = true;
        return m;
    }
    Matcher(sa, sb, m, threads).run(cancel);
    {
        // As the matcher's gate for structure alone: pairs for at least half of the smaller
        // side's instructions (structure alone runs only past that gate, so the count after
        // it says the same).
        const auto matched =
            static_cast<std::size_t>(std::count_if(m.instructionInB.begin(), m.instructionInB.end(),
                                                   [](std::uint32_t x) { return x != kNone; }));
        m.sameProgram = 2 * matched >= std::min(a.instructions.size(), b.instructions.size());
    }
    if (cancel && cancel->load()) {
        m.cancelled = true;
        return m;
    }

    const double paired = clock.seconds();
    // Values: within matched instructions, by shape index.
    for (std::uint32_t ia = 0; ia < a.instructions.size(); ++ia) {
        const std::uint32_t ib = m.instructionInB[ia];
        if (ib == kNone)
            continue;
        const auto [fa, la] = a.valuesOf(ia);
        const auto [fb, lb] = b.valuesOf(ib);
        for (const std::uint32_t *va = fa; va != la; ++va) {
            const std::string_view index = a.str(a.values[*va].index);
            for (const std::uint32_t *vb = fb; vb != lb; ++vb) {
                if (m.valueInA[*vb] == kNone && b.str(b.values[*vb].index) == index) {
                    m.valueInB[*va] = *vb;
                    m.valueInA[*vb] = *va;
                    break;
                }
            }
        }
    }
    // Values left over on both sides with one name and size: the same value (their
    // instructions were not paired, or are the same instruction with another tuple layout),
    // and every value without a defining instruction (damaged dumps), by name.
    {
        // Per key, B's values and how many of them are taken (in order).
        std::unordered_map<std::string, std::pair<std::vector<std::uint32_t>, std::size_t>> orphans;
        for (std::uint32_t vb = 0; vb < b.values.size(); ++vb)
            if (m.valueInA[vb] == kNone)
                orphans[b.valueKey(b.values[vb]) + '#' + std::to_string(b.values[vb].size)]
                    .first.push_back(vb);
        if (!orphans.empty()) {
            for (std::uint32_t va = 0; va < a.values.size(); ++va) {
                if (m.valueInB[va] != kNone)
                    continue;
                const auto it = orphans.find(a.valueKey(a.values[va]) + '#' +
                                             std::to_string(a.values[va].size));
                if (it == orphans.end() || it->second.second == it->second.first.size())
                    continue;
                const std::uint32_t vb = it->second.first[it->second.second++];
                m.valueInB[va] = vb;
                m.valueInA[vb] = va;
            }
        }
    }

    m.steps = align(a, b, monotoneAnchors(a, m.instructionInB, b));
    // Values still left over on both sides of one size, defined by one opcode, live over the
    // same stretch of the aligned program: the same value under a name an upgrade renumbered
    // (`cudnn-conv.1.0{1}` → `cudnn-conv.1{1}`), whose instruction no key paired because
    // something beside it changed. Never a value listed as both gone and new.
    {
        std::unordered_map<std::string, std::vector<std::uint32_t>> byKind; // size#opcode -> B
        const auto kindOf = [](const Dump &d, const Value &v) {
            const Instruction *in = d.instructionOf(v);
            return std::to_string(v.size) + '#' + std::string(in ? d.opcode(*in) : "") + '#' +
                   std::string(d.str(v.index));
        };
        for (std::uint32_t vb = 0; vb < b.values.size(); ++vb)
            if (m.valueInA[vb] == kNone && b.values[vb].hasLiveRange())
                byKind[kindOf(b, b.values[vb])].push_back(vb);
        if (!byKind.empty()) {
            for (std::uint32_t va = 0; va < a.values.size(); ++va) {
                const Value &x = a.values[va];
                if (m.valueInB[va] != kNone || !x.hasLiveRange())
                    continue;
                const auto it = byKind.find(kindOf(a, x));
                if (it == byKind.end())
                    continue;
                for (std::uint32_t &vb : it->second) {
                    if (vb == kNone)
                        continue;
                    const Value &y = b.values[vb];
                    if (m.sameStep(a, x.start, b, y.start) && m.sameStep(a, x.end, b, y.end)) {
                        m.valueInB[va] = vb;
                        m.valueInA[vb] = va;
                        vb = kNone; // taken
                        break;
                    }
                }
            }
        }
    }

    // Allocations: each with the one that holds most of its matched bytes, one to one.
    {
        // Bytes per (A allocation, B allocation), summed in a map: few distinct pairs.
        std::unordered_map<std::uint64_t, std::int64_t> votes;
        for (std::uint32_t va = 0; va < a.values.size(); ++va) {
            const std::uint32_t vb = m.valueInB[va];
            if (vb != kNone && a.values[va].allocation != kNone && b.values[vb].allocation != kNone)
                votes[(std::uint64_t(a.values[va].allocation) << 32) | b.values[vb].allocation] +=
                    std::max<std::int64_t>(1, a.values[va].size);
        }
        std::vector<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>> sums;
        sums.reserve(votes.size());
        for (const auto &[key, bytes] : votes)
            sums.emplace_back(-bytes, static_cast<std::uint32_t>(key >> 32),
                              static_cast<std::uint32_t>(key & 0xffffffffu));
        std::sort(sums.begin(), sums.end());
        for (const auto &[bytes, x, y] : sums) {
            if (m.allocationInB[x] == kNone && m.allocationInA[y] == kNone) {
                m.allocationInB[x] = y;
                m.allocationInA[y] = x;
            }
        }
    }

    spdlog::debug("match: graphs and keys {:.3f} s, instructions paired {:.3f} s, values, "
                  "allocations and steps {:.3f} s",
                  built, paired - built, clock.seconds() - paired);
    return m;
}

} // namespace bufferscope
