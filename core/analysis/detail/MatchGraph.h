#pragma once

// One dump's instructions as a graph with hashed attributes (Side), and the hashing and sorting
// the matcher refines keys with: the first part of DumpMatch (analysis/DumpMatch.cpp matches
// two such graphs; DumpMatchSteps.cpp aligns their steps). Nothing outside core/analysis
// includes it.

#include "analysis/DumpMatch.h"
#include "analysis/PeakBreakdown.h"
#include "model/Dump.h"
#include "util/Parallel.h"

#include <queue>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bufferscope::match_detail {

using Hash = std::uint64_t;

/// Rounds of refinement: how far (in operand and user edges) an instruction's key looks. Two
/// were too few: a value taken out of a chain of sixteen alike layers (gpu_vllm_update_slice)
/// made the layers next to the gap look like the chain's first ones.
constexpr int kRounds = 6;

/// Users spread a match only from an instruction with at most this many.
constexpr std::uint32_t kFewUsers = 4;

inline Hash fmix(Hash h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

inline Hash mix(Hash seed, Hash v)
{
    return fmix(seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2)));
}

/// (key, item) pairs sorted by key.
using Keyed = std::vector<std::pair<Hash, std::uint32_t>>;

/// Sorts (key, item) pairs by key, stably (pairs of one key keep their order): a least
/// significant digit radix sort, four passes of 16 bits. A match sorts every instruction of
/// both sides a few times; std::sort of 100,000 pairs took 6-8 ms, this about 1 ms.
inline void radixSortByKey(Keyed &v)
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
                                  static_cast<Hash>(si.tupleArity) + 2));
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

/// Monotone anchors (step in A, step in B) from the matched scheduled instructions
/// (DumpMatchSteps.cpp).
std::vector<std::pair<std::int64_t, std::int64_t>>
monotoneAnchors(const Dump &a, const std::vector<std::uint32_t> &inB, const Dump &b);
/// The rows of the two programs' steps, aligned between the anchors (DumpMatchSteps.cpp).
StepAlignment align(const Dump &a, const Dump &b,
                    const std::vector<std::pair<std::int64_t, std::int64_t>> &anchors);

} // namespace bufferscope::match_detail
