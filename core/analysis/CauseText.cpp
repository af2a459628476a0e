// The sentences of DiffCauses: what each cause says, the clause the headline takes from it,
// and the headline itself (docs/FORMAT.md Part A "Why memory changed").
#include "analysis/Collectives.h"
#include "analysis/DumpDiff.h"
#include "analysis/detail/CauseRules.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace bufferscope::causes {

namespace {

/// How many values a sentence names before "and N more".
constexpr std::size_t kNamed = 3;

std::string name(const Dump &d, std::uint32_t v)
{
    if (v >= d.values.size())
        return "?";
    return d.valueKey(d.values[v]);
}

std::string shapeBytes(const Dump &d, std::uint32_t v)
{
    if (v >= d.values.size())
        return "?";
    return std::string(d.shapeText(d.values[v])) + ", " + humanBytes(d.values[v].size);
}

std::string count(std::size_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "16×", "2.5×", "1.25×": a ratio of sizes, from the C locale whatever the process's.
std::string times(double ratio)
{
    char buf[32];
    const int precision = ratio >= 9.95 ? 0 : ratio >= 1.995 ? 1 : 2;
    const auto [end, ec] =
        std::to_chars(buf, buf + sizeof buf, ratio, std::chars_format::fixed, precision);
    std::string out = ec == std::errc() ? std::string(buf, end) : std::string("?");
    if (out.find('.') != std::string::npos) {
        while (out.back() == '0')
            out.pop_back();
        if (out.back() == '.')
            out.pop_back();
    }
    return out + "×";
}

/// "16× larger", "2× smaller", "as large" for a size before and after.
std::string factor(std::int64_t before, std::int64_t after)
{
    if (before <= 0 || after <= 0 || before == after)
        return before == after ? "as large" : "resized";
    return after > before
               ? times(static_cast<double>(after) / static_cast<double>(before)) + " larger"
               : times(static_cast<double>(before) / static_cast<double>(after)) + " smaller";
}

/// What a value's instruction is: "custom-call __cublas$gemm, jit(f)/dot_general".
std::string whatItIs(const Dump &d, std::uint32_t v)
{
    const Instruction *in = v < d.values.size() ? d.instructionOf(d.values[v]) : nullptr;
    if (!in)
        return {};
    std::string out(d.opcode(*in));
    if (out == "custom-call" && in->text.length > 0) {
        const std::string text = d.instructionText(d.values[v].instruction);
        const std::string key = "custom_call_target=\"";
        if (const std::size_t at = text.find(key); at != std::string::npos) {
            const std::size_t from = at + key.size();
            const std::size_t end = text.find('"', from);
            if (end != std::string::npos && end - from <= 80)
                out += " " + text.substr(from, end - from);
        }
    }
    if (in->opName != kNoString)
        out += ", " + std::string(d.str(in->opName));
    return out;
}

std::string parameterShape(const Dump &d, std::int64_t number)
{
    for (const Allocation &x : d.allocations) {
        if (!x.isParameter || x.parameterNumber != number)
            continue;
        for (std::uint32_t k = 0; k < x.valueCount; ++k) {
            const std::uint32_t v = d.allocationValues[x.firstValue + k];
            if (const Instruction *in = d.instructionOf(d.values[v]);
                in && d.opcode(*in) == "parameter")
                return shapeBytes(d, v);
        }
    }
    return {};
}

/// "parameter 1 (f32[64,32]{1,0}, 16.0KiB)" or "parameters 1 (…) and 3 (…)".
std::string parametersText(const Dump &d, const std::vector<std::int64_t> &numbers)
{
    std::string out = numbers.size() == 1 ? "parameter " : "parameters ";
    for (std::size_t k = 0; k < numbers.size() && k < kNamed; ++k) {
        out += (k == 0                    ? ""
                : k + 1 == numbers.size() ? " and "
                                          : ", ") +
               std::to_string(numbers[k]);
        if (const std::string shape = parameterShape(d, numbers[k]); !shape.empty())
            out += " (" + shape + ")";
    }
    if (numbers.size() > kNamed)
        out += " and " + std::to_string(numbers.size() - kNamed) + " more";
    return out;
}

std::string shortParameters(const std::vector<std::int64_t> &numbers)
{
    std::string out = numbers.size() == 1 ? "parameter " : "parameters ";
    for (std::size_t k = 0; k < numbers.size() && k < kNamed; ++k)
        out += (k == 0                    ? ""
                : k + 1 == numbers.size() ? " and "
                                          : ", ") +
               std::to_string(numbers[k]);
    if (numbers.size() > kNamed)
        out += " and " + std::to_string(numbers.size() - kNamed) + " more";
    return out;
}

/// Where a value's bytes are: "the output's buffer", "temp", …
std::string placeOf(const Dump &d, std::uint32_t v)
{
    const Value &x = d.values[v];
    if (x.allocation == kNone)
        return "no allocation";
    const Allocation &alloc = d.allocations[x.allocation];
    if (isOutput(d, x))
        return "the output's buffer (allocation " + std::to_string(alloc.index) + ")";
    if (alloc.isParameter)
        return "a parameter's buffer (allocation " + std::to_string(alloc.index) + ")";
    if (alloc.isPreallocatedTemp)
        return "temp (allocation " + std::to_string(alloc.index) + ")";
    return "allocation " + std::to_string(alloc.index);
}

/// The matched pairs among a cause's values (after side first), largest change first.
std::vector<std::pair<std::uint32_t, std::uint32_t>> pairsOf(const Cause &c, const TextFacts &f)
{
    const DumpMatch &m = f.diff.match;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const std::uint32_t vb : c.valuesAfter)
        if (const std::uint32_t va = m.valueInA[vb]; va != kNone)
            out.emplace_back(va, vb);
    for (const std::uint32_t va : c.valuesBefore)
        if (const std::uint32_t vb = m.valueInB[va];
            vb != kNone && std::find(out.begin(), out.end(), std::pair{va, vb}) == out.end())
            out.emplace_back(va, vb);
    std::stable_sort(out.begin(), out.end(), [&f](const auto &x, const auto &y) {
        return std::llabs(f.b.values[x.second].size - f.a.values[x.first].size) >
               std::llabs(f.b.values[y.second].size - f.a.values[y.first].size);
    });
    return out;
}

/// The pair an in-place cause is told by: one that moved between an output or operand's buffer
/// and temp first, then the largest.
std::pair<std::uint32_t, std::uint32_t> inPlaceExample(const Cause &c, const TextFacts &f)
{
    const auto pairs = pairsOf(c, f);
    std::pair<std::uint32_t, std::uint32_t> best{kNone, kNone};
    int bestScore = -1;
    for (const auto &q : pairs) {
        CauseKind k = CauseKind::Other;
        if (!f.rules.inPlaceChange(q.first, q.second, k))
            continue;
        const Value &x = f.a.values[q.first];
        const Value &y = f.b.values[q.second];
        const bool temp =
            (x.allocation != kNone && f.a.allocations[x.allocation].isPreallocatedTemp) !=
            (y.allocation != kNone && f.b.allocations[y.allocation].isPreallocatedTemp);
        const int score = temp ? 1 : 0;
        if (score > bestScore ||
            (score == bestScore &&
             std::max(x.size, y.size) >
                 std::max(f.a.values[best.first].size, f.b.values[best.second].size))) {
            best = q;
            bestScore = score;
        }
    }
    return bestScore >= 0 ? best : pairs.front();
}

/// The values of one side that have no counterpart.
std::vector<std::uint32_t> unmatched(const std::vector<std::uint32_t> &values,
                                     const std::vector<std::uint32_t> &other)
{
    std::vector<std::uint32_t> out;
    for (const std::uint32_t v : values)
        if (other[v] == kNone)
            out.push_back(v);
    return out;
}

/// Of `values`, the collectives' own (`collective` true) or the others (what a collective fed).
std::vector<std::uint32_t> collectivesOnly(const Dump &d, const std::vector<std::uint32_t> &values,
                                           bool collective)
{
    std::vector<std::uint32_t> out;
    for (const std::uint32_t v : values)
        if (collectives::isValue(d, d.values[v]) == collective)
            out.push_back(v);
    return out;
}

/// A cause's matched pairs whose values are collectives' (`collective` true) or not.
std::vector<std::pair<std::uint32_t, std::uint32_t>>
collectivePairs(const Cause &c, const TextFacts &f, bool collective)
{
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto &q : pairsOf(c, f))
        if ((collectives::isValue(f.a, f.a.values[q.first]) ||
             collectives::isValue(f.b, f.b.values[q.second])) == collective)
            out.push_back(q);
    return out;
}

std::string dimensionsChanged(const Dump &a, std::uint32_t va, const Dump &b, std::uint32_t vb)
{
    const ShapeParseResult sa = ShapeParser::parse(a.shapeText(a.values[va]));
    const ShapeParseResult sb = ShapeParser::parse(b.shapeText(b.values[vb]));
    if (!sa.ok || !sb.ok || !sa.shape.isArray() || !sb.shape.isArray() ||
        sa.shape.dims.size() != sb.shape.dims.size())
        return {};
    std::string out;
    for (std::size_t k = 0; k < sa.shape.dims.size(); ++k)
        if (sa.shape.dims[k].size != sb.shape.dims[k].size)
            out += std::string(out.empty() ? "" : ", ") + "dimension " + std::to_string(k) + " " +
                   std::to_string(sa.shape.dims[k].size) + " → " +
                   std::to_string(sb.shape.dims[k].size);
    return out;
}

std::string elementTypes(const Dump &a, std::uint32_t va, const Dump &b, std::uint32_t vb)
{
    const ShapeParseResult sa = ShapeParser::parse(a.shapeText(a.values[va]));
    const ShapeParseResult sb = ShapeParser::parse(b.shapeText(b.values[vb]));
    if (!sa.ok || !sb.ok)
        return {};
    const auto typeName = [](const Dump &d, std::uint32_t v) {
        const std::string_view s = d.shapeText(d.values[v]);
        const std::size_t bracket = s.find('[');
        return std::string(bracket == std::string_view::npos ? s : s.substr(0, bracket));
    };
    return typeName(a, va) + " → " + typeName(b, vb);
}

/// A value's size change in words: "c128[…], 171.00MiB → c128[…], 2.67GiB, 16× larger".
std::string sizeChange(const Dump &a, std::uint32_t va, const Dump &b, std::uint32_t vb)
{
    return shapeBytes(a, va) + " → " + shapeBytes(b, vb) + ", " +
           factor(a.values[va].size, b.values[vb].size);
}

std::string kindLabel(CauseKind kind)
{
    std::string out(causeKindKey(kind));
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

} // namespace

std::string names(const Dump &d, const std::vector<std::uint32_t> &values)
{
    std::string out;
    for (std::size_t k = 0; k < values.size() && k < kNamed; ++k)
        out += (k == 0 ? "" : k + 1 == values.size() ? " and " : ", ") + name(d, values[k]);
    if (values.size() > kNamed)
        out += " and " + std::to_string(values.size() - kNamed) + " more";
    return out;
}

std::string sentence(const Cause &c, const TextFacts &f)
{
    const Dump &a = f.a;
    const Dump &b = f.b;
    const DumpMatch &m = f.diff.match;
    const std::uint32_t firstA = c.valuesBefore.empty() ? kNone : c.valuesBefore.front();
    const std::uint32_t firstB = c.valuesAfter.empty() ? kNone : c.valuesAfter.front();
    switch (c.kind) {
    case CauseKind::DonationLost:
        return parametersText(a, c.parameters) + (c.parameters.size() == 1 ? " is" : " are") +
               " no longer donated: XLA copies the output into a buffer of its own instead "
               "of writing it in place — check donate_argnums (or the input_output_alias) of "
               "this function";
    case CauseKind::DonationGained:
        return parametersText(b, c.parameters) + (c.parameters.size() == 1 ? " is" : " are") +
               " now donated: XLA writes the output into its buffer";
    case CauseKind::InPlaceLost:
    case CauseKind::InPlaceGained: {
        const bool lost = c.kind == CauseKind::InPlaceLost;
        const auto pairs = pairsOf(c, f);
        std::string out;
        if (!pairs.empty()) {
            const std::pair<std::uint32_t, std::uint32_t> p = inPlaceExample(c, f);
            out = name(b, p.second) + " (" + shapeBytes(b, p.second) + ")" +
                  (lost ? " was written in place, in " + placeOf(a, p.first) +
                              ", and now has bytes of its own in " + placeOf(b, p.second)
                        : " now is written in place, in " + placeOf(b, p.second) +
                              ", where it had bytes of its own in " + placeOf(a, p.first));
            const std::size_t others = std::max(c.valuesBefore.size(), c.valuesAfter.size()) - 1;
            if (others > 0) {
                std::vector<std::uint32_t> rest;
                for (const std::uint32_t v : c.valuesAfter)
                    if (v != p.second)
                        rest.push_back(v);
                out += rest.empty() ? "; " + count(others, "more value", "more values") + " with it"
                                    : "; with it " + names(b, rest);
            }
        } else {
            out = count(std::max(c.valuesBefore.size(), c.valuesAfter.size()), "value", "values") +
                  (lost ? " no longer share" : " now share") + " a buffer in place (" +
                  (firstB != kNone ? names(b, c.valuesAfter) : names(a, c.valuesBefore)) + ")";
        }
        return out + (lost ? " — XLA copies where it wrote in place: a later read of the old "
                             "value, a slice or an update that is no longer the whole buffer, or "
                             "a buffer it may not overwrite (a parameter not donated) forces "
                             "the copy"
                           : " — XLA writes it in place now");
    }
    case CauseKind::Dtype: {
        std::vector<std::uint32_t> follow;
        for (const std::uint32_t v : c.valuesAfter) {
            const Value &y = b.values[v];
            if (y.allocation == kNone || !b.allocations[y.allocation].isParameter)
                follow.push_back(v);
        }
        const std::string check =
            " — check the dtypes of the inputs and the casts (x64, a mixed-precision policy)";
        if (!f.rules.dtypeInputs.empty()) {
            std::string out = "the inputs changed element type: ";
            for (std::size_t k = 0; k < f.rules.dtypeInputs.size() && k < kNamed; ++k) {
                const auto [va, vb] = f.rules.dtypeInputs[k];
                const Value &y = b.values[vb];
                out += (k ? "; " : "") +
                       (y.allocation != kNone
                            ? "parameter " +
                                  std::to_string(b.allocations[y.allocation].parameterNumber)
                            : name(b, vb)) +
                       " " + std::string(a.shapeText(a.values[va])) + " → " +
                       std::string(b.shapeText(y));
            }
            if (!follow.empty())
                out += "; " + count(follow.size(), "value follows", "values follow") + " (" +
                       names(b, follow) + ")";
            return out + check;
        }
        const std::uint32_t vb = firstB;
        const std::uint32_t va = vb == kNone ? kNone : m.valueInA[vb];
        if (va == kNone)
            return count(c.valuesAfter.size(), "value has", "values have") +
                   " another element type" + check;
        return count(c.valuesAfter.size(), "value has", "values have") +
               " another element type while the inputs did not change: " + name(a, va) + " " +
               std::string(a.shapeText(a.values[va])) + " → " +
               std::string(b.shapeText(b.values[vb])) +
               (c.valuesAfter.size() > 1
                    ? " (and " + std::to_string(c.valuesAfter.size() - 1) + " more)"
                    : std::string()) +
               " — check the casts (a mixed-precision policy, preferred_element_type)";
    }
    case CauseKind::InputShape: {
        std::string out = "the inputs changed shape";
        for (std::size_t k = 0; k < f.rules.shapeInputs.size() && k < kNamed; ++k) {
            const auto [va, vb] = f.rules.shapeInputs[k];
            const Value &y = b.values[vb];
            out += std::string(k == 0 ? ": " : "; ") +
                   (y.allocation != kNone
                        ? "parameter " + std::to_string(b.allocations[y.allocation].parameterNumber)
                        : name(b, vb)) +
                   " " + std::string(a.shapeText(a.values[va])) + " → " +
                   std::string(b.shapeText(y));
            if (const std::string dims = dimensionsChanged(a, va, b, vb); !dims.empty())
                out += " (" + dims + ")";
        }
        if (f.rules.shapeInputs.size() > kNamed)
            out += " and " + std::to_string(f.rules.shapeInputs.size() - kNamed) + " more";
        std::vector<std::uint32_t> scaled;
        for (const std::uint32_t v : c.valuesAfter) {
            const Value &y = b.values[v];
            if (y.allocation == kNone || !b.allocations[y.allocation].isParameter)
                scaled.push_back(v);
        }
        const std::string check = " — check the shapes the function is called with (batch, "
                                  "sequence length)";
        if (scaled.empty())
            return out + check;
        return out + "; " + count(scaled.size(), "value scales", "values scale") + " with them (" +
               names(b, scaled) + ")" + check;
    }
    case CauseKind::Resized: {
        const auto pairs = pairsOf(c, f);
        if (pairs.empty())
            return count(c.valuesAfter.size(), "value", "values") + " changed size";
        std::string out =
            count(pairs.size(), "value", "values") + " changed size while the inputs did not: ";
        for (std::size_t k = 0; k < pairs.size() && k < 2; ++k) {
            const auto [va, vb] = pairs[k];
            out += (k ? "; " : "") + name(b, vb) + " " + sizeChange(a, va, b, vb);
            if (const std::string what = whatItIs(b, vb); !what.empty())
                out += " (" + what + ")";
        }
        if (pairs.size() > 2)
            out += "; and " + std::to_string(pairs.size() - 2) + " more";
        return out + " — look at what changed in the code that makes it (an einsum's indices, a "
                     "reshape, a static argument, a flag)";
    }
    case CauseKind::Collective: {
        // The collectives' own buffers first, then what a collective that came or went fed
        // (Rules::fedByCollective): one mechanism.
        std::vector<std::string> parts;
        const auto gone = collectivesOnly(a, unmatched(c.valuesBefore, m.valueInB), true);
        const auto added = collectivesOnly(b, unmatched(c.valuesAfter, m.valueInA), true);
        const auto pairs = collectivePairs(c, f, true);
        if (!gone.empty())
            parts.push_back(names(a, gone) + " (largest " + shapeBytes(a, gone.front()) + ") " +
                            (gone.size() == 1 ? "is" : "are") + " gone");
        if (!added.empty())
            parts.push_back(names(b, added) + " (largest " + shapeBytes(b, added.front()) + ") " +
                            (added.size() == 1 ? "is" : "are") + " new");
        for (std::size_t k = 0; k < pairs.size() && k < 2; ++k)
            parts.push_back(name(b, pairs[k].second) + " is " +
                            factor(a.values[pairs[k].first].size, b.values[pairs[k].second].size) +
                            " (" + humanBytes(a.values[pairs[k].first].size) + " → " +
                            humanBytes(b.values[pairs[k].second].size) + ")");
        if (pairs.size() > 2)
            parts.push_back(count(pairs.size() - 2, "more resized", "more resized"));
        std::string out = "collective buffers changed: ";
        for (std::size_t k = 0; k < parts.size(); ++k)
            out += (k ? "; " : "") + parts[k];
        if (parts.empty())
            out += firstB != kNone ? names(b, c.valuesAfter) : names(a, c.valuesBefore);
        // What they fed: each value's change in a few words, the largest first.
        std::vector<std::string> fed;
        const auto fedGone = collectivesOnly(a, unmatched(c.valuesBefore, m.valueInB), false);
        const auto fedNew = collectivesOnly(b, unmatched(c.valuesAfter, m.valueInA), false);
        const auto fedPairs = collectivePairs(c, f, false);
        for (std::size_t k = 0; k < fedPairs.size() && fed.size() < 2; ++k) {
            const auto [va, vb] = fedPairs[k];
            CauseKind placed = CauseKind::Other;
            const std::int64_t sa = a.values[va].size;
            const std::int64_t sb = b.values[vb].size;
            std::string change;
            if (sa != sb)
                change = factor(sa, sb) + " (" + humanBytes(sa) + " → " + humanBytes(sb) + ")";
            if (f.rules.inPlaceChange(va, vb, placed))
                change += std::string(change.empty() ? "" : ", ") +
                          (placed == CauseKind::InPlaceGained ? "written in place now"
                                                              : "in a buffer of its own now");
            // Of one size and placement as the rules see it: its bytes overlap others' on
            // one side only (as counted at the peak).
            fed.push_back(name(b, vb) + " " + (change.empty() ? "placed differently" : change));
        }
        if (!fedGone.empty() && fed.size() < 3)
            fed.push_back(names(a, fedGone) + " gone");
        if (!fedNew.empty() && fed.size() < 3)
            fed.push_back(names(b, fedNew) + " new");
        if (fedPairs.size() > 2)
            fed.push_back(count(fedPairs.size() - 2, "more changed", "more changed"));
        if (!fed.empty()) {
            // A collective gone is what it fed; one that came is what it feeds.
            out +=
                std::string(gone.size() >= added.size() ? "; what it fed: " : "; what it feeds: ");
            for (std::size_t k = 0; k < fed.size(); ++k)
                out += (k ? "; " : "") + fed[k];
        }
        return out + " — check the sharding of their operands and the mesh";
    }
    case CauseKind::NewBuffer:
        return count(c.valuesAfter.size(), "buffer exists", "buffers exist") +
               " only after: " + names(b, c.valuesAfter) + " (largest " + shapeBytes(b, firstB) +
               ") — a copy or an intermediate XLA no longer fuses away";
    case CauseKind::BufferGone:
        return count(c.valuesBefore.size(), "buffer exists", "buffers exist") +
               " only before: " + names(a, c.valuesBefore) + " (largest " + shapeBytes(a, firstA) +
               ") — XLA now fuses it away or no longer needs it";
    case CauseKind::Restructured: {
        std::int64_t before = 0;
        std::int64_t after = 0;
        for (const std::uint32_t v : c.valuesBefore)
            before += a.values[v].size;
        for (const std::uint32_t v : c.valuesAfter)
            after += b.values[v].size;
        if (c.valuesBefore.empty())
            return names(b, c.valuesAfter) + " (" + humanBytes(after) +
                   ") stand where the before program had other instructions, with no buffers "
                   "of their own: the computation was fused or split differently";
        if (c.valuesAfter.empty())
            return names(a, c.valuesBefore) + " (" + humanBytes(before) +
                   ") gave way to other instructions, with no buffers of their own: the "
                   "computation was fused or split differently";
        return names(a, c.valuesBefore) + " (" + humanBytes(before) + ") became " +
               names(b, c.valuesAfter) + " (" + humanBytes(after) +
               "), instructions that match nothing on the other side: the computation was fused "
               "or split differently";
    }
    case CauseKind::Packing:
        return std::string("the temporary allocation ") + (c.heldDelta > 0 ? "grew" : "shrank") +
               " by " + humanBytes(std::llabs(c.heldDelta)) +
               " more than its most live bytes moved: the heap simulator packed the buffers "
               "with " +
               (c.heldDelta > 0 ? "more" : "less") + " left unused";
    case CauseKind::Schedule:
        return count(std::max(c.valuesBefore.size(), c.valuesAfter.size()), "value", "values") +
               " of one size on both sides " +
               (std::max(c.valuesBefore.size(), c.valuesAfter.size()) == 1 ? "is" : "are") +
               " live at one peak and not the other (" +
               names(firstB != kNone ? b : a, firstB != kNone ? c.valuesAfter : c.valuesBefore) +
               "): the schedule overlaps their lifetimes differently — look at the order of the "
               "instructions around the peak (async collectives, latency hiding, "
               "rematerialization)";
    case CauseKind::Other:
        break;
    }
    return "the rest, which no rule above explains: an allocation whose values are the same on "
           "both sides changed size, or the two dumps are not compiles of one program";
}

std::string clause(const Cause &c, const TextFacts &f)
{
    const Dump &a = f.a;
    const Dump &b = f.b;
    const DumpMatch &m = f.diff.match;
    switch (c.kind) {
    case CauseKind::DonationLost:
        return shortParameters(c.parameters) + (c.parameters.size() == 1 ? " is" : " are") +
               " no longer donated";
    case CauseKind::DonationGained:
        return shortParameters(c.parameters) + (c.parameters.size() == 1 ? " is" : " are") +
               " now donated";
    case CauseKind::InPlaceLost:
    case CauseKind::InPlaceGained: {
        const bool lost = c.kind == CauseKind::InPlaceLost;
        if (!pairsOf(c, f).empty())
            return name(b, inPlaceExample(c, f).second) +
                   (lost ? " is no longer written in place" : " is now written in place");
        const std::vector<std::uint32_t> &values =
            c.valuesAfter.empty() ? c.valuesBefore : c.valuesAfter;
        const Dump &d = c.valuesAfter.empty() ? a : b;
        return names(d, values) + (values.size() == 1 ? " is" : " are") +
               (lost ? " no longer written in place" : " now written in place");
    }
    case CauseKind::Dtype:
        if (!f.rules.dtypeInputs.empty()) {
            const auto [va, vb] = f.rules.dtypeInputs.front();
            return "the inputs changed element type (" + elementTypes(a, va, b, vb) + ")";
        }
        if (const auto pairs = pairsOf(c, f); !pairs.empty())
            return name(b, pairs.front().second) + " changed element type (" +
                   elementTypes(a, pairs.front().first, b, pairs.front().second) + ")";
        return "values changed element type";
    case CauseKind::InputShape:
        if (!f.rules.shapeInputs.empty()) {
            const auto [va, vb] = f.rules.shapeInputs.front();
            const Value &y = b.values[vb];
            return "the inputs changed shape (" +
                   (y.allocation != kNone
                        ? "parameter " + std::to_string(b.allocations[y.allocation].parameterNumber)
                        : name(b, vb)) +
                   " " + std::string(a.shapeText(a.values[va])) + " → " +
                   std::string(b.shapeText(y)) + ")";
        }
        return "the inputs changed shape";
    case CauseKind::Resized:
        if (const auto pairs = pairsOf(c, f); !pairs.empty())
            return name(b, pairs.front().second) +
                   (b.values[pairs.front().second].size > a.values[pairs.front().first].size
                        ? " grew "
                        : " shrank ") +
                   times(std::max(static_cast<double>(b.values[pairs.front().second].size) /
                                      static_cast<double>(std::max<std::int64_t>(
                                          1, a.values[pairs.front().first].size)),
                                  static_cast<double>(a.values[pairs.front().first].size) /
                                      static_cast<double>(std::max<std::int64_t>(
                                          1, b.values[pairs.front().second].size)))) +
                   " (" + humanBytes(a.values[pairs.front().first].size) + " → " +
                   humanBytes(b.values[pairs.front().second].size) + ")";
        return "values changed size";
    case CauseKind::Collective: {
        // The largest of what is gone, what is new and what changed size, of the collectives'
        // own buffers (not what they fed).
        const auto gone = collectivesOnly(a, unmatched(c.valuesBefore, m.valueInB), true);
        const auto added = collectivesOnly(b, unmatched(c.valuesAfter, m.valueInA), true);
        const auto pairs = collectivePairs(c, f, true);
        const std::int64_t goneBytes = gone.empty() ? 0 : a.values[gone.front()].size;
        const std::int64_t newBytes = added.empty() ? 0 : b.values[added.front()].size;
        const std::int64_t resizedBytes = pairs.empty()
                                              ? 0
                                              : std::llabs(b.values[pairs.front().second].size -
                                                           a.values[pairs.front().first].size);
        if (goneBytes > 0 && goneBytes >= newBytes && goneBytes >= resizedBytes)
            return "collective buffers changed (" + names(a, gone) +
                   (gone.size() == 1 ? " is" : " are") + " gone)";
        if (newBytes > 0 && newBytes >= resizedBytes)
            return "collective buffers changed (" + names(b, added) +
                   (added.size() == 1 ? " is" : " are") + " new)";
        if (!pairs.empty())
            return "collective buffers changed (" + name(b, pairs.front().second) + " is " +
                   factor(a.values[pairs.front().first].size, b.values[pairs.front().second].size) +
                   ")";
        return "collective buffers changed";
    }
    case CauseKind::NewBuffer:
        return "buffers exist only after (" + names(b, c.valuesAfter) + ")";
    case CauseKind::BufferGone:
        return "buffers exist only before (" + names(a, c.valuesBefore) + ")";
    case CauseKind::Restructured:
        return "part of the computation was fused or split differently";
    case CauseKind::Packing:
        return "the heap simulator packed the temporary allocation differently";
    case CauseKind::Schedule:
        return "the schedule overlaps lifetimes differently (" +
               names(c.valuesAfter.empty() ? a : b,
                     c.valuesAfter.empty() ? c.valuesBefore : c.valuesAfter) +
               ")";
    case CauseKind::Other:
        break;
    }
    return "a change no rule explains";
}

std::string nettedClause(const Cause &c, const TextFacts &f, bool peak)
{
    if (c.kind == CauseKind::Schedule && peak) {
        // The values that joined the peak (or left it), as the figure's sign says.
        const bool joined = c.peakDelta > 0;
        const Dump &d = joined ? f.b : f.a;
        const Dump &other = joined ? f.a : f.b;
        const std::int64_t step = joined ? f.diff.peakStepAfter : f.diff.peakStepBefore;
        const std::int64_t otherStep = joined ? f.diff.peakStepBefore : f.diff.peakStepAfter;
        const std::vector<std::uint32_t> &counterpart =
            joined ? f.diff.match.valueInA : f.diff.match.valueInB;
        std::vector<std::uint32_t> moved;
        for (const std::uint32_t v : joined ? c.valuesAfter : c.valuesBefore) {
            const std::uint32_t w = counterpart[v];
            if (d.values[v].liveAt(step) && (w == kNone || !other.values[w].liveAt(otherStep)))
                moved.push_back(v);
        }
        if (!moved.empty())
            return "of schedule (" + names(d, moved) + (moved.size() == 1 ? " is" : " are") +
                   " live at the " + (joined ? "after" : "before") + " peak and not at the " +
                   (joined ? "before" : "after") + " one)";
    }
    return "of " + kindLabel(c.kind) + " (" + clause(c, f) + ")";
}

std::string headline(const DiffCauses &why, const DumpDiff &diff)
{
    const std::int64_t peak = diff.peakDelta();
    const std::int64_t held = why.heldAfter - why.heldBefore;
    if (why.causes.empty() && peak == 0 && held == 0)
        return "Nothing changed the live peak or what the device holds.";
    // The largest cause that moved the figure the way it went (every cause does: DiffCauses
    // nets opposite terms), told as "mostly" only when it is more than half of the change;
    // else by its bytes ("1.00GiB of it because"): a third of a change is not "mostly".
    const auto top = [&why](bool forPeak, std::int64_t total) -> const Cause * {
        const Cause *best = nullptr;
        for (const Cause &c : why.causes) {
            const std::int64_t x = forPeak ? c.peakDelta : c.heldDelta;
            if (x != 0 && (total == 0 || (x > 0) == (total > 0)) &&
                (!best || std::llabs(x) > std::llabs(forPeak ? best->peakDelta : best->heldDelta)))
                best = &c;
        }
        return best;
    };
    const auto because = [](const Cause &c, std::int64_t part, std::int64_t total) {
        if (c.kind == CauseKind::Other)
            return ", by " + c.clause;
        if (std::llabs(part) > std::llabs(total) / 2)
            return ", mostly because " + c.clause;
        return ", " + humanBytes(std::llabs(part)) + " of it because " + c.clause;
    };
    const auto heldText = [&](const Cause *peakCause) {
        if (held == 0)
            return std::string("what the device holds is the same");
        std::string out = "what the device holds " + std::string(held > 0 ? "rose" : "fell") +
                          " by " + humanBytes(std::llabs(held)) + " (" +
                          humanBytes(why.heldBefore) + " → " + humanBytes(why.heldAfter) + ")";
        if (const Cause *h = top(false, held); h && h != peakCause)
            out += because(*h, h->heldDelta, held);
        return out;
    };
    if (why.peakBarelyMoved) {
        const std::string moved =
            peak == 0 ? "The live peak did not move (" + humanBytes(diff.peakBefore) + ")"
                      : "The live peak barely moved (" + signedHumanBytes(peak) + ", " +
                            humanBytes(diff.peakBefore) + " → " + humanBytes(diff.peakAfter) + ")";
        return moved + "; " + heldText(nullptr) + ".";
    }
    const Cause *p = top(true, peak);
    std::string out = "The live peak " + std::string(peak > 0 ? "rose" : "fell") + " by " +
                      humanBytes(std::llabs(peak)) + " (" + humanBytes(diff.peakBefore) + " → " +
                      humanBytes(diff.peakAfter) + ")";
    if (p)
        out += because(*p, p->peakDelta, peak);
    return out + "; " + heldText(p) + ".";
}

} // namespace bufferscope::causes
