#include "analysis/RunSummary.h"

#include "analysis/Collectives.h"
#include "model/ModuleNames.h"
#include "parse/ShapeParser.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace bufferscope {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// `Arg_1.2` → `Arg_1`, `p5.18.0` → `p5`: XLA's uniquifying suffixes dropped.
std::string withoutNumbers(std::string_view name)
{
    if (!name.empty() && name.front() == '%')
        name.remove_prefix(1);
    while (true) {
        const std::size_t dot = name.rfind('.');
        if (dot == std::string_view::npos || dot + 1 == name.size())
            break;
        const std::string_view tail = name.substr(dot + 1);
        if (!std::all_of(tail.begin(), tail.end(), isDigit))
            break;
        name = name.substr(0, dot);
    }
    return std::string(name);
}

std::string shapesText(const std::vector<RunSummary::Parameter> &parameters)
{
    std::string out = "(";
    for (std::size_t i = 0; i < parameters.size(); ++i)
        out += (i ? ", " : "") + parameters[i].shape;
    return out + ")";
}

} // namespace

std::string RunSummary::functionOf(std::string_view moduleName)
{
    return ModuleNames::functionOf(moduleName);
}

std::string RunSummary::numberOf(std::string_view moduleName)
{
    return ModuleNames::numberOf(moduleName);
}

std::vector<RunSummary::Parameter> RunSummary::entrySignature(std::string_view text)
{
    std::size_t at = text.starts_with("ENTRY ") ? 0 : text.find("\nENTRY ");
    if (at == std::string_view::npos)
        return {};
    if (at > 0 || !text.starts_with("ENTRY "))
        ++at;
    const std::size_t lineEnd = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, lineEnd - at);
    const std::size_t open = line.find('(');
    if (open == std::string_view::npos)
        return {};
    std::vector<Parameter> out;
    int depth = 0;
    std::size_t start = open + 1;
    for (std::size_t i = open + 1; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            --depth;
        else if ((c == ',' || c == ')') && depth == 0) {
            std::string_view item = line.substr(start, i - start);
            while (!item.empty() && item.front() == ' ')
                item.remove_prefix(1);
            if (item.starts_with("/*")) // `/*index=5*/Arg_5.6: …`
                if (const std::size_t close = item.find("*/"); close != std::string_view::npos)
                    item.remove_prefix(close + 2);
            const std::size_t colon = item.find(':');
            if (colon != std::string_view::npos && out.size() < 100000)
                out.push_back({withoutNumbers(item.substr(0, colon)),
                               ShapeParser::withoutLayout(item.substr(colon + 1))});
            start = i + 1;
            if (c == ')')
                break;
        }
    }
    return out;
}

void RunSummary::Module::setCategories(const CategoryReport &report)
{
    categorized = true;
    training = report.training;
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
        categoryHeld[c] = report.totals[c].heldBytes;
        categoryPeak[c] = report.peakStep >= 0 ? report.totals[c].peakBytes : -1;
    }
}

RunSummary::Module RunSummary::of(const Dump &dump, const MemoryAnalysis &analysis,
                                  std::int64_t livePeak, std::string file, std::string name)
{
    Module m;
    m.file = std::move(file);
    m.name = std::move(name);
    m.function = functionOf(m.name);
    m.number = numberOf(m.name);
    m.read = true;
    m.held = analysis.device.held();
    m.total = dump.allocationSizeSum();
    m.livePeak = livePeak;
    // The dump's signature: each entry parameter's allocation (the one at ShapeIndex {}, or
    // its parts in order), named by the parameter instruction it holds.
    std::map<std::int64_t, std::pair<Parameter, std::vector<std::string>>> byNumber;
    for (const Allocation &a : dump.allocations) {
        if (!a.isParameter || a.parameterNumber < 0)
            continue;
        auto &[parameter, parts] = byNumber[a.parameterNumber];
        const std::string shape = ShapeParser::withoutLayout(dump.strings.view(a.parameterShape));
        const std::string_view index = a.parameterIndex == kNoString
                                           ? std::string_view("{}")
                                           : dump.strings.view(a.parameterIndex);
        if (index == "{}")
            parameter.shape = shape;
        else
            parts.push_back(shape);
        if (parameter.name.empty() && a.valueCount > 0) {
            const Value &v = dump.values[dump.allocationValues[a.firstValue]];
            if (v.instruction != kNone)
                parameter.name =
                    withoutNumbers(dump.strings.view(dump.instructions[v.instruction].name));
        }
    }
    for (auto &[number, entry] : byNumber) {
        auto &[parameter, parts] = entry;
        if (parameter.shape.empty()) {
            parameter.shape = "(";
            for (std::size_t i = 0; i < parts.size(); ++i)
                parameter.shape += (i ? ", " : "") + parts[i];
            parameter.shape += ")";
        }
        if (parameter.name.empty())
            parameter.name = "parameter " + std::to_string(number);
        m.signature.push_back(std::move(parameter));
    }
    m.signatureFrom = "dump";
    m.fingerprint = fingerprintOf(dump);
    m.valueCount = dump.values.size();
    m.sketch = sketchOf(dump);
    // Collectives: each instruction's largest value.
    std::map<std::uint32_t, Collective> byInstruction;
    for (const Value &v : dump.values) {
        if (v.instruction == kNone)
            continue;
        const Instruction &ins = dump.instructions[v.instruction];
        const std::string_view opcode = dump.opcode(ins);
        if (!collectives::isInstruction(opcode, dump.str(ins.name)))
            continue;
        Collective &c = byInstruction[v.instruction];
        if (v.size <= c.bytes && !c.instruction.empty())
            continue;
        c.instruction = std::string(dump.strings.view(ins.name));
        c.opcode = std::string(opcode);
        c.bytes = v.size;
        c.shape = ShapeParser::withoutLayout(dump.strings.view(dump.shapes[v.shape].text));
        c.source = ins.sourceFile == kNoString
                       ? std::string()
                       : std::string(dump.strings.view(ins.sourceFile)) +
                             (ins.sourceLine >= 0 ? ":" + std::to_string(ins.sourceLine) : "");
    }
    for (auto &[instruction, c] : byInstruction)
        m.collectives.push_back(std::move(c));
    std::sort(m.collectives.begin(), m.collectives.end(),
              [](const Collective &a, const Collective &b) {
                  return a.bytes != b.bytes ? a.bytes > b.bytes : a.instruction < b.instruction;
              });
    if (m.collectives.size() > kCollectivesPerModule)
        m.collectives.resize(kCollectivesPerModule);
    return m;
}

std::vector<std::uint64_t> RunSummary::sketchOf(const Dump &dump)
{
    // A value's kind: its opcode and its shape with every number (a dimension, a layout's
    // order) left out: `f32[8,128]{1,0}` and `f32[16,128]{1,0}` are one kind. Each shape's
    // is worked out once (values share a few shapes).
    const auto mix = [](std::uint64_t h, std::uint64_t v) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        return h * 0xff51afd7ed558ccdull;
    };
    std::vector<std::uint64_t> shapeKind(dump.shapes.size(), 0);
    std::vector<std::uint64_t> kinds;
    kinds.reserve(dump.values.size());
    std::string kind;
    for (const Value &v : dump.values) {
        std::uint64_t h = 0;
        if (v.shape < shapeKind.size() && shapeKind[v.shape] != 0) {
            h = shapeKind[v.shape];
        } else {
            kind.clear();
            bool number = false;
            for (const char c : dump.shapeText(v)) {
                const bool digit = c >= '0' && c <= '9';
                if (digit && !number)
                    kind += '#';
                else if (!digit)
                    kind += c;
                number = digit;
            }
            h = StringPool::hash(kind) | 1; // 0: not worked out yet
            if (v.shape < shapeKind.size())
                shapeKind[v.shape] = h;
        }
        if (v.instruction != kNone)
            h = mix(h, StringPool::hash(dump.opcode(dump.instructions[v.instruction])));
        kinds.push_back(h);
    }
    // The k-th copy of a kind is an element of its own: the sketch is of the multiset.
    std::sort(kinds.begin(), kinds.end());
    std::vector<std::uint64_t> hashes;
    hashes.reserve(kinds.size());
    for (std::size_t i = 0, copy = 0; i < kinds.size(); ++i) {
        copy = i > 0 && kinds[i] == kinds[i - 1] ? copy + 1 : 0;
        hashes.push_back(mix(mix(kinds[i], copy), 0x2545f4914f6cdd1dull));
    }
    if (hashes.size() > kSketchSize) {
        std::nth_element(hashes.begin(), hashes.begin() + kSketchSize, hashes.end());
        hashes.resize(kSketchSize);
    }
    std::sort(hashes.begin(), hashes.end());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    hashes.shrink_to_fit();
    return hashes;
}

double RunSummary::likeness(const Module &x, const Module &y)
{
    if (x.sketch.empty() || y.sketch.empty())
        return 0;
    // The union's smallest kSketchSize hashes are a uniform sample of the union; the share of
    // them in both sketches estimates the share of the union in both (Broder's bottom-k).
    std::size_t i = 0;
    std::size_t j = 0;
    std::size_t taken = 0;
    std::size_t both = 0;
    while (taken < kSketchSize && (i < x.sketch.size() || j < y.sketch.size())) {
        if (j == y.sketch.size() || (i < x.sketch.size() && x.sketch[i] < y.sketch[j])) {
            ++i;
        } else if (i == x.sketch.size() || y.sketch[j] < x.sketch[i]) {
            ++j;
        } else {
            ++both;
            ++i;
            ++j;
        }
        ++taken;
    }
    return static_cast<double>(both) / static_cast<double>(taken);
}

std::uint64_t RunSummary::fingerprintOf(const Dump &dump)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    const auto add = [&h](std::uint64_t v) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0x100000001b3ull;
    };
    const auto addText = [&add](std::string_view text) { add(StringPool::hash(text)); };
    for (const Allocation &a : dump.allocations) {
        add(static_cast<std::uint64_t>(a.size));
        add(static_cast<std::uint64_t>(a.parameterNumber + 2));
        add(static_cast<std::uint64_t>(a.color) << 8 | (a.isParameter ? 1u : 0u) |
            (a.isMaybeLiveOut ? 2u : 0u) | (a.isPreallocatedTemp ? 4u : 0u) |
            (a.isConstant ? 8u : 0u) | (a.isThreadLocal ? 16u : 0u));
        for (std::uint32_t k = 0; k < a.valueCount; ++k) {
            const Value &v = dump.values[dump.allocationValues[a.firstValue + k]];
            addText(dump.valueKey(v));
            addText(dump.shapeText(v));
            add(static_cast<std::uint64_t>(v.size));
            add(static_cast<std::uint64_t>(v.offset));
            add(static_cast<std::uint64_t>(v.start + 1));
            add(static_cast<std::uint64_t>(v.end + 1));
        }
    }
    return h;
}

const RunSummary::Family *RunSummary::family(const std::string &function,
                                             std::size_t arguments) const
{
    for (const Family &f : families)
        if (f.name == function && f.arguments == arguments)
            return &f;
    return nullptr;
}

std::string RunSummary::whyRecompiled(const Family &family)
{
    if (family.modules.size() < 2)
        return {};
    const std::size_t compiles = family.modules.size();
    const std::size_t distinct = family.signatures.size();
    const std::string times = "compiled " + std::to_string(compiles) + "×";
    if (distinct <= 1)
        return times + " with one signature " +
               (family.signatures.empty() ? std::string("(not known)")
                                          : shapesText(family.signatures.front().parameters)) +
               ": what changed is not in the arguments' shapes (a static argument, the device "
               "or the compile options)";
    // Which parameters differ between the signatures, each with its shapes in order of first
    // compile.
    std::size_t most = 0, fewest = SIZE_MAX;
    for (const Signature &s : family.signatures) {
        most = std::max(most, s.parameters.size());
        fewest = std::min(fewest, s.parameters.size());
    }
    std::vector<std::string> changes;
    if (most != fewest)
        changes.push_back("the number of arguments changed (" + std::to_string(fewest) + " to " +
                          std::to_string(most) + ")");
    for (std::size_t p = 0; p < fewest && changes.size() < 4; ++p) {
        std::vector<std::string> shapes;
        for (const Signature &s : family.signatures)
            if (std::find(shapes.begin(), shapes.end(), s.parameters[p].shape) == shapes.end())
                shapes.push_back(s.parameters[p].shape);
        if (shapes.size() < 2)
            continue;
        std::string list;
        for (std::size_t k = 0; k < shapes.size() && k < 3; ++k)
            list += (k ? " → " : "") + shapes[k];
        if (shapes.size() > 3)
            list += " → … (" + std::to_string(shapes.size()) + " shapes)";
        changes.push_back(family.signatures.front().parameters[p].name + " changed shape: " + list);
    }
    std::string out = times + " because ";
    for (std::size_t i = 0; i < changes.size(); ++i)
        out += (i ? "; " : "") + changes[i];
    if (changes.empty())
        out += "its signatures differ";
    out += "; " + std::to_string(distinct) + " distinct signatures";
    return out;
}

RunSummary RunSummary::of(std::vector<Module> modules, std::size_t top)
{
    RunSummary r;
    r.modules = std::move(modules);
    std::map<std::pair<std::string, std::size_t>, std::size_t> familyOf;
    // Modules in the order XLA numbered them, so a family's signatures are in compile order.
    std::vector<std::size_t> order(r.modules.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&r](std::size_t a, std::size_t b) {
        const std::string &x = r.modules[a].number;
        const std::string &y = r.modules[b].number;
        return x.size() != y.size() ? x.size() < y.size() : x < y;
    });
    // The compiles seen, per family and fingerprint, with the host (capture) of each: the same
    // compile on another host of the profile is that compile again, not a recompile.
    std::map<std::pair<std::size_t, std::uint64_t>, std::string> compiled;
    for (const std::size_t i : order) {
        const Module &m = r.modules[i];
        // An unreadable module has no signature: it joins the first family of its name.
        std::size_t arguments = m.signature.size();
        if (!m.read)
            if (const auto first = familyOf.lower_bound({m.function, 0});
                first != familyOf.end() && first->first.first == m.function)
                arguments = first->first.second;
        const auto [it, added] =
            familyOf.emplace(std::pair{m.function, arguments}, r.families.size());
        if (added) {
            r.families.emplace_back();
            r.families.back().name = m.function;
            r.families.back().arguments = arguments;
            r.families.back().heldMax = -1;
            r.families.back().largest = i;
        }
        Family &f = r.families[it->second];
        if (m.read && !m.host.empty()) {
            const auto [seen, fresh] = compiled.try_emplace({it->second, m.fingerprint}, m.host);
            if (!fresh && seen->second != m.host)
                continue; // this compile, on another host
        }
        f.modules.push_back(i);
        if (!m.read)
            continue;
        // The first module read (heldMax starts below any), then any that holds more.
        if (m.held > f.heldMax) {
            f.heldMax = m.held;
            f.largest = i;
        }
        f.heldSum += std::max<std::int64_t>(m.held, 0);
        f.peakMax = std::max(f.peakMax, m.livePeak);
        auto same = std::find_if(f.signatures.begin(), f.signatures.end(),
                                 [&m](const Signature &s) { return s.parameters == m.signature; });
        if (same == f.signatures.end()) {
            f.signatures.push_back({m.signature, {}});
            same = f.signatures.end() - 1;
        }
        same->modules.push_back(i);
    }
    // Names several families share: each labelled with its number of arguments.
    std::map<std::string, std::vector<std::size_t>> byName;
    for (std::size_t k = 0; k < r.families.size(); ++k)
        byName[r.families[k].name].push_back(k);
    for (const auto &[name, indices] : byName) {
        if (indices.size() < 2) {
            r.families[indices.front()].label = name;
            continue;
        }
        static const char *const kWords[] = {"two", "three", "four", "five", "six", "seven"};
        std::string counts;
        for (std::size_t k = 0; k < indices.size(); ++k) {
            Family &f = r.families[indices[k]];
            f.label = name + " (" + std::to_string(f.arguments) +
                      (f.arguments == 1 ? " argument)" : " arguments)");
            counts += (k == 0                    ? ""
                       : k + 1 == indices.size() ? " and "
                                                 : ", ") +
                      std::to_string(f.arguments);
        }
        const std::size_t n = indices.size();
        const std::string many = n - 2 < std::size(kWords) ? kWords[n - 2] : std::to_string(n);
        r.sharedNames.push_back(many + " functions share the name `" + name + "`: " + counts +
                                " arguments");
    }
    for (Family &f : r.families) {
        f.heldMax = std::max<std::int64_t>(f.heldMax, 0); // none of its modules read: 0
        f.why = whyRecompiled(f);
    }
    std::stable_sort(r.families.begin(), r.families.end(), [](const Family &a, const Family &b) {
        return a.heldMax != b.heldMax ? a.heldMax > b.heldMax : a.name < b.name;
    });
    for (std::size_t i = 0; i < r.modules.size(); ++i)
        for (const Collective &c : r.modules[i].collectives)
            r.collectives.push_back({i, c});
    std::stable_sort(r.collectives.begin(), r.collectives.end(),
                     [](const CollectiveRow &a, const CollectiveRow &b) {
                         return a.collective.bytes > b.collective.bytes;
                     });
    if (r.collectives.size() > top)
        r.collectives.resize(top);
    return r;
}

} // namespace bufferscope
