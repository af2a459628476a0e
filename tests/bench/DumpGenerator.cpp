#include "DumpGenerator.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <random>
#include <string_view>
#include <vector>

namespace bufferscope::bench {

namespace {

enum class Kind
{
    Parameter,
    Constant,
    Temp,
    Output,
    RootTable
};

struct Gen
{
    std::int64_t id = 0;
    int instruction = 0; ///< index in the schedule
    int element = -2;    ///< tuple element index, -1 for the tuple table `{}`, -2 for an array
    int arity = 0;       ///< for the tuple table
    std::string shape;   ///< with layout
    std::string shapeNoLayout;
    std::int64_t bytes = 0;
    std::int64_t start = 0;
    std::int64_t end = 0;
    Kind kind = Kind::Temp;
    int chainedFrom = -1; ///< in-place: takes over this value's bytes at `start`
    std::int64_t offset = 0;
    int allocation = -1;
};

struct Instr
{
    std::string name;
    std::string opcode;
    std::string shape; ///< instruction shape with layout
    int arity = 0;     ///< tuple arity (0 for arrays)
    std::int64_t bytes = 0;
    int layer = 0;
    int line = 0;
    bool opType = false;
    std::vector<int> operands;
};

class Writer
{
public:
    explicit Writer(std::FILE *out) : m_out(out) { m_buf.reserve(1 << 20); }
    ~Writer() { flush(); }
    Writer &operator<<(std::string_view s)
    {
        m_buf.append(s);
        if (m_buf.size() >= (1 << 20))
            flush();
        return *this;
    }
    Writer &operator<<(std::int64_t v)
    {
        char tmp[24];
        const int n = std::snprintf(tmp, sizeof tmp, "%lld", static_cast<long long>(v));
        return *this << std::string_view(tmp, static_cast<std::size_t>(n));
    }
    void flush()
    {
        m_written += static_cast<std::int64_t>(std::fwrite(m_buf.data(), 1, m_buf.size(), m_out));
        m_buf.clear();
    }
    std::int64_t written() const { return m_written + static_cast<std::int64_t>(m_buf.size()); }

private:
    std::FILE *m_out;
    std::string m_buf;
    std::int64_t m_written = 0;
};

std::string human(std::int64_t bytes)
{
    char buf[32];
    if (bytes < 1024) {
        std::snprintf(buf, sizeof buf, "%lldB", static_cast<long long>(bytes));
        return buf;
    }
    const char *units = "KMGTPE";
    int u = 0;
    while (bytes >= 1024 * 1024) {
        bytes /= 1024;
        ++u;
    }
    std::snprintf(buf, sizeof buf, u == 0 ? "%.1f%ciB" : "%.2f%ciB",
                  static_cast<double>(bytes) / 1024.0, units[u]);
    return buf;
}

struct ArrayShape
{
    std::string withLayout;
    std::string noLayout;
    std::int64_t bytes;
};

ArrayShape randomArray(std::mt19937_64 &rng)
{
    static constexpr std::array<std::pair<const char *, int>, 4> kTypes = {
        std::pair{"bf16", 2}, std::pair{"f32", 4}, std::pair{"s32", 4}, std::pair{"pred", 1}};
    const unsigned pick = static_cast<unsigned>(rng() % 20);
    const auto &type = kTypes[pick < 10 ? 0 : pick < 17 ? 1 : pick < 19 ? 2 : 3];
    const int rank = 1 + static_cast<int>(rng() % 4);
    int log2 = static_cast<int>(rng() % 23); // up to 8M elements
    std::vector<std::int64_t> dims(static_cast<std::size_t>(rank), 1);
    for (int i = 0; i < log2; ++i)
        dims[rng() % dims.size()] *= 2;
    if (rng() % 4 == 0)
        dims[0] *= 3; // not only powers of two
    std::string dimText;
    std::string layout;
    std::int64_t elements = 1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        dimText += (i ? "," : "") + std::to_string(dims[i]);
        layout += (i ? "," : "") + std::to_string(dims.size() - 1 - i);
        elements *= dims[i];
    }
    const std::string base = std::string(type.first) + "[" + dimText + "]";
    return {base + "{" + layout + "}", base, elements * type.second};
}

constexpr std::array<const char *, 10> kOpcodes = {
    "fusion", "fusion",    "fusion",    "dot",         "add",
    "copy",   "broadcast", "transpose", "custom-call", "all-reduce"};
constexpr std::array<const char *, 6> kOps = {"dot_general", "add",       "mul",
                                              "reduce_sum",  "transpose", "convert_element_type"};

} // namespace

std::string GeneratedTruths::toJson() const
{
    char buf[1024];
    std::snprintf(
        buf, sizeof buf,
        "{\n  \"total_bytes\": %lld,\n  \"value_count\": %lld,\n  \"allocation_count\": %lld,\n"
        "  \"instruction_count\": %lld,\n  \"peak\": {\"step\": %lld, \"bytes\": %lld},\n"
        "  \"logical_peak\": {\"step\": %lld, \"bytes\": %lld},\n"
        "  \"printed_peak\": {\"step\": %lld, \"bytes\": %lld, \"values\": %lld},\n"
        "  \"xla_peak_step\": %lld,\n  \"in_place_links\": %lld,\n  \"file_bytes\": %lld\n}\n",
        static_cast<long long>(totalBytes), static_cast<long long>(valueCount),
        static_cast<long long>(allocationCount), static_cast<long long>(instructionCount),
        static_cast<long long>(peakStep), static_cast<long long>(peakBytes),
        static_cast<long long>(logicalPeakStep), static_cast<long long>(logicalPeakBytes),
        static_cast<long long>(printedPeakStep), static_cast<long long>(printedPeakBytes),
        static_cast<long long>(printedPeakEntries), static_cast<long long>(printedPeakStep),
        static_cast<long long>(inPlaceLinks), static_cast<long long>(fileBytes));
    return buf;
}

GeneratedTruths generateDump(const GeneratorOptions &options, std::FILE *out)
{
    std::mt19937_64 rng(options.seed);
    const std::int64_t target = std::max<std::int64_t>(options.values, 16);
    const std::int64_t params = std::max<std::int64_t>(2, target / 200);
    const std::int64_t constants = std::max<std::int64_t>(1, target / 1000);
    const std::int64_t outputs = std::max<std::int64_t>(1, target / 500);

    std::vector<Instr> instrs;
    std::vector<Gen> values;
    std::map<std::string, int> counters;
    auto newName = [&](const std::string &op) {
        const int n = counters[op]++;
        return n == 0 ? op : op + "." + std::to_string(n);
    };
    auto addInstr = [&](const std::string &opcode) {
        Instr ins;
        ins.opcode = opcode;
        ins.name = newName(opcode == "parameter"     ? "Arg"
                           : opcode == "custom-call" ? "custom-call"
                                                     : opcode);
        ins.layer = static_cast<int>(rng() % 48);
        ins.line = 100 + static_cast<int>(rng() % 800);
        ins.opType = rng() % 2 == 0;
        for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n && !instrs.empty(); ++k)
            ins.operands.push_back(static_cast<int>(rng() % instrs.size()));
        instrs.push_back(ins);
        return static_cast<int>(instrs.size() - 1);
    };
    auto addArrayValue = [&](int instr, Kind kind) {
        const ArrayShape s = randomArray(rng);
        Gen g;
        g.instruction = instr;
        g.shape = s.withLayout;
        g.shapeNoLayout = s.noLayout;
        g.bytes = s.bytes;
        g.kind = kind;
        instrs[static_cast<std::size_t>(instr)].shape = s.withLayout;
        instrs[static_cast<std::size_t>(instr)].bytes = s.bytes;
        values.push_back(g);
    };

    for (std::int64_t p = 0; p < params; ++p)
        addArrayValue(addInstr("parameter"), Kind::Parameter);
    for (std::int64_t c = 0; c < constants; ++c)
        addArrayValue(addInstr("constant"), Kind::Constant);
    // Temps: mostly arrays, some tuple-shaped instructions ({} table + elements).
    while (static_cast<std::int64_t>(values.size()) < target - 1) {
        const int instr = addInstr(kOpcodes[rng() % kOpcodes.size()]);
        // A tuple now and then; one in four of them long (6 to 40 elements), which XLA prints
        // with a `/*index=N*/` comment before every fifth element (ShapeUtil's printer).
        const bool tupleShaped = rng() % 20 == 0;
        const int arity = !tupleShaped     ? 0
                          : rng() % 4 == 0 ? 6 + static_cast<int>(rng() % 35)
                                           : 2 + static_cast<int>(rng() % 2);
        if (tupleShaped && static_cast<std::int64_t>(values.size()) + arity + 1 < target) {
            Instr &ins = instrs[static_cast<std::size_t>(instr)];
            ins.arity = arity;
            std::vector<ArrayShape> elems;
            for (int e = 0; e < arity; ++e)
                elems.push_back(randomArray(rng));
            const auto separator = [](int e) {
                return e == 0       ? std::string()
                       : e % 5 == 0 ? ", /*index=" + std::to_string(e) + "*/"
                                    : std::string(", ");
            };
            std::string tuple = "(";
            for (int e = 0; e < arity; ++e)
                tuple += separator(e) + elems[static_cast<std::size_t>(e)].withLayout;
            tuple += ")";
            std::string tupleNoLayout = "(";
            for (int e = 0; e < arity; ++e)
                tupleNoLayout += separator(e) + elems[static_cast<std::size_t>(e)].noLayout;
            tupleNoLayout += ")";
            ins.shape = tuple;
            ins.bytes = 8 * arity;
            Gen table;
            table.instruction = instr;
            table.element = -1;
            table.arity = arity;
            table.shape = tuple;
            table.shapeNoLayout = tupleNoLayout;
            table.bytes = 8 * arity;
            values.push_back(table);
            for (int e = 0; e < arity; ++e) {
                Gen g;
                g.instruction = instr;
                g.element = e;
                g.shape = elems[static_cast<std::size_t>(e)].withLayout;
                g.shapeNoLayout = elems[static_cast<std::size_t>(e)].noLayout;
                g.bytes = elems[static_cast<std::size_t>(e)].bytes;
                values.push_back(g);
            }
        } else {
            addArrayValue(instr, Kind::Temp);
        }
    }
    // The root: a tuple of the outputs, its table the last value.
    const int root = addInstr("tuple");
    const auto max = static_cast<std::int64_t>(instrs.size());

    // Live ranges. Parameters and constants live from their step to the end (read-only).
    std::vector<int> recentTemps;
    std::vector<std::uint8_t> taken(values.size(), 0); // a block is handed over at most once
    for (std::size_t i = 0; i < values.size(); ++i) {
        Gen &g = values[i];
        g.start = g.instruction;
        if (g.kind == Kind::Parameter || g.kind == Kind::Constant) {
            g.end = max;
            continue;
        }
        if (g.element >= 0) { // tuple elements share the table's definition step
            const std::uint64_t r = rng() % 100;
            g.end = std::min<std::int64_t>(
                max - 1, g.start + (r < 80 ? 1 + static_cast<std::int64_t>(rng() % 6)
                                           : 5 + static_cast<std::int64_t>(rng() % 300)));
            continue;
        }
        const std::uint64_t r = rng() % 100;
        std::int64_t len = r < 70   ? 1 + static_cast<std::int64_t>(rng() % 5)
                           : r < 96 ? 5 + static_cast<std::int64_t>(rng() % 200)
                                    : 100 + static_cast<std::int64_t>(rng() % 5000);
        g.end = std::min<std::int64_t>(max - 1, g.start + len);
        // In-place chain (dynamic-update-slice style): take over a live temp's bytes.
        if (g.element == -2 || g.arity == 0) {
            if (rng() % 33 == 0 && !recentTemps.empty()) {
                const int a = recentTemps[rng() % recentTemps.size()];
                Gen &prev = values[static_cast<std::size_t>(a)];
                if (prev.start < g.start && prev.end >= g.start &&
                    !taken[static_cast<std::size_t>(a)]) {
                    prev.end = g.start;
                    taken[static_cast<std::size_t>(a)] = 1;
                    g.chainedFrom = a;
                    g.shape = prev.shape;
                    g.shapeNoLayout = prev.shapeNoLayout;
                    g.bytes = prev.bytes;
                    instrs[static_cast<std::size_t>(g.instruction)].shape = g.shape;
                    instrs[static_cast<std::size_t>(g.instruction)].bytes = g.bytes;
                }
            }
            recentTemps.push_back(static_cast<int>(i));
            if (recentTemps.size() > 64)
                recentTemps.erase(recentTemps.begin());
        }
    }
    // Outputs: the latest-defined array temps that are not chained; they live to the end.
    std::vector<int> outputValues;
    for (std::int64_t i = static_cast<std::int64_t>(values.size()) - 1;
         i >= 0 && static_cast<std::int64_t>(outputValues.size()) < outputs; --i) {
        Gen &g = values[static_cast<std::size_t>(i)];
        if (g.kind == Kind::Temp && g.element == -2 && g.arity == 0 && g.chainedFrom == -1 &&
            !taken[static_cast<std::size_t>(i)]) {
            g.kind = Kind::Output;
            g.end = max;
            outputValues.push_back(static_cast<int>(i));
        }
    }
    std::reverse(outputValues.begin(), outputValues.end());
    {
        Instr &r = instrs[static_cast<std::size_t>(root)];
        r.arity = static_cast<int>(outputValues.size());
        r.bytes = 8 * r.arity;
        std::string t = "(";
        std::string tn = "(";
        for (std::size_t k = 0; k < outputValues.size(); ++k) {
            t += (k ? ", " : "") + values[static_cast<std::size_t>(outputValues[k])].shape;
            tn += (k ? ", " : "") + values[static_cast<std::size_t>(outputValues[k])].shapeNoLayout;
        }
        r.shape = t + ")";
        r.operands.clear();
        for (int o : outputValues)
            r.operands.push_back(values[static_cast<std::size_t>(o)].instruction);
        Gen table;
        table.instruction = root;
        table.element = -1;
        table.arity = r.arity;
        table.shape = r.shape;
        table.shapeNoLayout = tn + ")";
        table.bytes = r.bytes;
        table.kind = Kind::RootTable;
        table.start = root;
        table.end = max;
        values.push_back(table);
    }
    // Ids with gaps (fusion-internal values consume ids).
    std::int64_t nextId = 0;
    for (Gen &g : values) {
        g.id = nextId;
        nextId += 1 + static_cast<std::int64_t>(rng() % 3);
    }

    // -- allocations: one per parameter, constant and output; the root table; the temp heap.
    struct Alloc
    {
        std::int64_t size = 0;
        std::string header;
        std::vector<int> members;
    };
    std::vector<Alloc> allocs;
    for (std::size_t i = 0; i < values.size(); ++i) {
        Gen &g = values[i];
        if (g.kind == Kind::Temp)
            continue;
        Alloc a;
        a.size = g.bytes;
        if (g.kind == Kind::Parameter)
            a.header = ", parameter " + std::to_string(allocs.size()) + ", shape |" +
                       g.shapeNoLayout + "| at ShapeIndex {}";
        else if (g.kind == Kind::Constant)
            a.header = ", constant";
        else if (g.kind == Kind::RootTable)
            a.header = ", output shape is |" + g.shapeNoLayout + "|, maybe-live-out";
        else
            a.header = ", maybe-live-out";
        g.allocation = static_cast<int>(allocs.size());
        g.offset = 0;
        a.members.push_back(static_cast<int>(i));
        allocs.push_back(a);
    }
    // Temp heap: first fit over time; a value frees its bytes after its end step; a chained
    // value takes over its predecessor's block at its start step.
    {
        Alloc heap;
        heap.header = ", preallocated-temp";
        const int heapIndex = static_cast<int>(allocs.size());
        std::vector<std::vector<int>> startsAt(static_cast<std::size_t>(max + 2));
        std::vector<std::vector<int>> freeAt(static_cast<std::size_t>(max + 2));
        for (std::size_t i = 0; i < values.size(); ++i) {
            const Gen &g = values[i];
            if (g.kind != Kind::Temp)
                continue;
            startsAt[static_cast<std::size_t>(g.start)].push_back(static_cast<int>(i));
        }
        std::map<std::int64_t, std::int64_t> freeBlocks; // offset -> size
        std::int64_t top = 0;
        std::vector<std::uint8_t> handedOver(values.size(), 0);
        auto release = [&](std::int64_t offset, std::int64_t size) {
            auto it = freeBlocks.emplace(offset, size).first;
            if (auto next = std::next(it);
                next != freeBlocks.end() && it->first + it->second == next->first) {
                it->second += next->second;
                freeBlocks.erase(next);
            }
            if (it != freeBlocks.begin()) {
                auto prev = std::prev(it);
                if (prev->first + prev->second == it->first) {
                    prev->second += it->second;
                    freeBlocks.erase(it);
                }
            }
        };
        for (std::int64_t t = 0; t <= max; ++t) {
            for (int vi : freeAt[static_cast<std::size_t>(t)]) {
                if (!handedOver[static_cast<std::size_t>(vi)])
                    release(values[static_cast<std::size_t>(vi)].offset,
                            values[static_cast<std::size_t>(vi)].bytes);
            }
            for (int vi : startsAt[static_cast<std::size_t>(t)]) {
                Gen &g = values[static_cast<std::size_t>(vi)];
                if (g.chainedFrom >= 0) {
                    g.offset = values[static_cast<std::size_t>(g.chainedFrom)].offset;
                    handedOver[static_cast<std::size_t>(g.chainedFrom)] = 1;
                } else {
                    auto it = std::find_if(freeBlocks.begin(), freeBlocks.end(),
                                           [&](const auto &b) { return b.second >= g.bytes; });
                    if (it != freeBlocks.end() && g.bytes > 0) {
                        g.offset = it->first;
                        const std::int64_t rest = it->second - g.bytes;
                        const std::int64_t restOffset = it->first + g.bytes;
                        freeBlocks.erase(it);
                        if (rest > 0)
                            freeBlocks.emplace(restOffset, rest);
                    } else {
                        g.offset = top;
                        top += g.bytes;
                    }
                }
                g.allocation = heapIndex;
                freeAt[static_cast<std::size_t>(g.end + 1)].push_back(vi);
                heap.members.push_back(vi);
            }
            // Coalescing keeps the free list short; a linear first-fit scan is fine for benches.
        }
        heap.size = top;
        std::sort(heap.members.begin(), heap.members.end());
        allocs.push_back(heap);
    }

    // -- truths, computed here independently of BufferScope
    GeneratedTruths truths;
    truths.valueCount = static_cast<std::int64_t>(values.size());
    truths.allocationCount = static_cast<std::int64_t>(allocs.size());
    truths.instructionCount = max;
    for (const Alloc &a : allocs) {
        truths.totalBytes += a.size;
        if (a.header == ", preallocated-temp")
            truths.tempBytes += a.size;
    }
    {
        std::vector<std::int64_t> sum(static_cast<std::size_t>(max + 2), 0);
        for (const Gen &g : values) {
            sum[static_cast<std::size_t>(g.start)] += g.bytes;
            sum[static_cast<std::size_t>(g.end + 1)] -= g.bytes;
        }
        std::vector<std::int64_t> overlap(static_cast<std::size_t>(max + 2), 0);
        for (const Gen &g : values) {
            if (g.chainedFrom >= 0) {
                overlap[static_cast<std::size_t>(g.start)] +=
                    g.bytes; // both live at start, one block
                ++truths.inPlaceLinks;
            }
        }
        std::int64_t running = 0;
        for (std::int64_t t = 0; t <= max; ++t) {
            running += sum[static_cast<std::size_t>(t)];
            const std::int64_t live = running - overlap[static_cast<std::size_t>(t)];
            if (live > truths.peakBytes) {
                truths.peakBytes = live;
                truths.peakStep = t;
            }
            if (running > truths.logicalPeakBytes) {
                truths.logicalPeakBytes = running;
                truths.logicalPeakStep = t;
            }
        }
    }
    {
        // HloLiveRange::ComputePeakMemoryMoment: events sorted by (time, is_end).
        struct Ev
        {
            std::int64_t time;
            bool end;
            std::int64_t bytes;
        };
        std::vector<Ev> events;
        events.reserve(values.size() * 2);
        for (const Gen &g : values) {
            const std::int64_t b = instrs[static_cast<std::size_t>(g.instruction)].bytes;
            events.push_back({g.start, false, b});
            events.push_back({g.end + 1, true, b});
        }
        std::sort(events.begin(), events.end(), [](const Ev &a, const Ev &b) {
            return a.time != b.time ? a.time < b.time : (!a.end && b.end);
        });
        std::int64_t usage = 0;
        std::int64_t peak = 0;
        std::int64_t peakTime = 0;
        for (const Ev &e : events) {
            usage += e.end ? -e.bytes : e.bytes;
            if (usage > peak) {
                peak = usage;
                peakTime = e.time;
            }
        }
        truths.printedPeakStep = peakTime;
    }

    // -- write
    Writer w(out);
    auto name = [&](const Gen &g) -> const std::string & {
        return instrs[static_cast<std::size_t>(g.instruction)].name;
    };
    auto shortName = [&](const Gen &g) {
        std::string s = "<" + std::to_string(g.id) + " " + name(g);
        if (g.element >= 0)
            s += "{" + std::to_string(g.element) + "}";
        else if (g.element == -1)
            s += "{}";
        return s + " @0>";
    };
    auto indexOf = [](const Gen &g) {
        return g.element >= 0 ? "{" + std::to_string(g.element) + "}" : std::string("{}");
    };
    w << "BufferAssignment:\n";
    for (std::size_t a = 0; a < allocs.size(); ++a) {
        w << "allocation " << static_cast<std::int64_t>(a) << ": size " << allocs[a].size
          << allocs[a].header << ":\n";
        for (int vi : allocs[a].members) {
            const Gen &g = values[static_cast<std::size_t>(vi)];
            w << " value: " << shortName(g) << " (size=" << g.bytes << ",offset=" << g.offset
              << "): " << g.shape << "\n";
        }
    }
    w << "\nTotal bytes used: " << truths.totalBytes << " (" << human(truths.totalBytes)
      << ")\n\nUsed values:\n";
    const std::string backendConfig =
        R"({"operation_queue_id":"0","wait_on_operation_queues":[],"fusion_backend_config":{"kind":"__triton_gemm","triton_gemm_config":{"block_m":"64","block_n":"128","block_k":"32","split_k":"1","num_stages":"3","num_warps":"4","num_ctas":"1"}},"force_earliest_schedule":false})";
    for (const Gen &g : values) {
        const Instr &ins = instrs[static_cast<std::size_t>(g.instruction)];
        w << shortName(g) << "\n positions:\n  " << ins.name;
        if (g.element >= 0)
            w << " {" << static_cast<std::int64_t>(g.element) << "}";
        else if (g.element == -1)
            w << " {}";
        w << "\n";
        if (g.kind == Kind::Output || g.kind == Kind::RootTable) {
            if (g.kind == Kind::Output)
                w << "  " << instrs[static_cast<std::size_t>(root)].name << " {"
                  << static_cast<std::int64_t>(
                         std::find(outputValues.begin(), outputValues.end(), &g - values.data()) -
                         outputValues.begin())
                  << "}\n";
        }
        w << " uses:\n";
        if (g.end > g.start && g.end < max) {
            const Instr &user = instrs[static_cast<std::size_t>(g.end)];
            w << "  " << user.name << ", operand " << static_cast<std::int64_t>(rng() % 2) << "\n";
        }
        w << " from instruction: %" << ins.name << " = " << ins.shape << " " << ins.opcode << "(";
        for (std::size_t k = 0; k < ins.operands.size(); ++k) {
            if (k == 5)
                w << "/*index=5*/";
            w << (k ? ", %" : "%") << instrs[static_cast<std::size_t>(ins.operands[k])].name;
        }
        w << ")";
        if (ins.opcode == "fusion")
            w << ", kind=kLoop, calls=%fused_computation."
              << static_cast<std::int64_t>(g.instruction);
        w << ", metadata={";
        if (ins.opType)
            w << "op_type=\"" << kOps[static_cast<std::size_t>(ins.line) % kOps.size()] << "\" ";
        w << "op_name=\"jit(train_step)/jit(main)/transformer/layer_"
          << static_cast<std::int64_t>(ins.layer) << (ins.line % 2 ? "/attention/" : "/mlp/")
          << kOps[static_cast<std::size_t>(ins.line) % kOps.size()] << "\"";
        if (options.stacks)
            w << " stack_frame_id=" << static_cast<std::int64_t>(ins.line - 96) << "}";
        else
            w << " source_file=\"/workspace/model/transformer.py\" source_line="
              << static_cast<std::int64_t>(ins.line) << "}";
        if (ins.opcode == "fusion" || ins.opcode == "custom-call")
            w << ", backend_config=" << backendConfig;
        w << "\n";
    }
    w << "\n\nHloLiveRange (max " << max << "):\n  InstructionSequence:\n";
    for (std::int64_t t = 0; t < max; ++t)
        w << "    " << t << ":" << instrs[static_cast<std::size_t>(t)].name << "\n";
    w << "  BufferLiveRange:\n";
    for (const Gen &g : values)
        w << "    " << name(g) << indexOf(g) << ":" << g.start << "-" << g.end << "\n";
    // V3 peak list: every value live at T, by value-shape bytes desc, name, index.
    std::vector<const Gen *> atPeak;
    for (const Gen &g : values) {
        if (g.start <= truths.printedPeakStep && truths.printedPeakStep <= g.end)
            atPeak.push_back(&g);
    }
    std::sort(atPeak.begin(), atPeak.end(), [&](const Gen *a, const Gen *b) {
        if (a->bytes != b->bytes)
            return a->bytes > b->bytes;
        if (name(*a) != name(*b))
            return name(*a) < name(*b);
        return a->element < b->element;
    });
    w << "  Live ranges at " << truths.printedPeakStep << " (peak):\n";
    std::int64_t cumulative = 0;
    for (const Gen *g : atPeak) {
        cumulative += g->bytes;
        w << "    " << name(*g) << indexOf(*g) << ": " << g->bytes
          << " bytes (cumulative: " << cumulative << " bytes)\n";
    }
    truths.printedPeakEntries = static_cast<std::int64_t>(atPeak.size());
    truths.printedPeakBytes = cumulative;
    w.flush();
    truths.fileBytes = w.written();

    // -- the memory-usage report, as BufferAssignment::MemoryUsageReport prints it
    if (std::FILE *report = options.memoryUsageReport) {
        constexpr double kPercentile = 0.05;
        constexpr std::size_t kMoreThan = 50;
        std::vector<std::size_t> bySize(allocs.size());
        for (std::size_t a = 0; a < allocs.size(); ++a)
            bySize[a] = a;
        std::stable_sort(bySize.begin(), bySize.end(), [&](std::size_t x, std::size_t y) {
            return allocs[x].size > allocs[y].size;
        });
        const auto shortString = [&](std::size_t a) {
            return "allocation " + std::to_string(a) + ": size " + human(allocs[a].size) +
                   allocs[a].header + ":";
        };
        const std::int64_t total = truths.totalBytes;
        if (!options.reportLayout2026) {
            std::fprintf(report, "Total bytes used: %lld (%s)\n\nAllocations sorted by size:\n\n",
                         static_cast<long long>(total), human(total).c_str());
            std::fprintf(report, "cumulative_size; total_size - cumulative_size; allocation\n%s\n",
                         std::string(78, '-').c_str());
        }
        std::int64_t listed = 0;
        for (std::size_t i = 0; i < bySize.size() && !options.reportLayout2026; ++i) {
            listed += allocs[bySize[i]].size;
            std::fprintf(report, "%10s(%3.0f%%); %10s; %s\n", human(listed).c_str(),
                         100.0 * double(listed) / double(total), human(total - listed).c_str(),
                         shortString(bySize[i]).c_str());
            if (i + 1 > kMoreThan && double(total - listed) < double(total) * kPercentile) {
                std::fprintf(report,
                             "The rest %zu allocations are less than %d%% of the total size and "
                             "not shown.\n",
                             bySize.size() - i - 1, static_cast<int>(kPercentile * 100));
                break;
            }
        }
        if (!options.reportLayout2026)
            std::fprintf(report, "\n\nAllocations sorted by size with their values:\n");
        // One allocation's values grouped by offset (BufferAllocation::MemoryUsageReport): the
        // group's size is its largest value's; `prefix` before each line ("\t" in 2024, two
        // spaces in 2026).
        const auto groupTable = [&](std::size_t a, const char *prefix) {
            std::map<std::int64_t, std::pair<std::int64_t, std::vector<const Gen *>>> byOffset;
            for (int vi : allocs[a].members) {
                const Gen &g = values[static_cast<std::size_t>(vi)];
                auto &group = byOffset[g.offset];
                group.first = std::max(group.first, g.bytes);
                group.second.push_back(&g);
            }
            std::vector<std::pair<std::int64_t, std::pair<std::int64_t, std::vector<const Gen *>>>>
                groups(byOffset.begin(), byOffset.end());
            std::int64_t groupTotal = 0;
            for (const auto &g : groups)
                groupTotal += g.second.first;
            std::stable_sort(groups.begin(), groups.end(), [](const auto &x, const auto &y) {
                return x.second.first > y.second.first;
            });
            std::fprintf(report,
                         "%scumulative_size;       size;       offset; used_by_n_values; "
                         "shapes_list\n%s%s\n",
                         prefix, prefix, std::string(60, '-').c_str());
            std::int64_t groupCumulative = 0;
            for (std::size_t i = 0; i < groups.size(); ++i) {
                const auto &[offset, group] = groups[i];
                groupCumulative += group.first;
                std::map<std::string, int> shapes;
                for (const Gen *g : group.second)
                    ++shapes[g->shapeNoLayout];
                std::string list;
                for (const auto &[shape, n] : shapes)
                    list += (list.empty() ? "" : ", ") +
                            (n == 1 ? shape : std::to_string(n) + "×" + shape);
                std::fprintf(report, "%s%9s(%3.0f%%); %10s; %12lld; %16zu; %s\n", prefix,
                             human(groupCumulative).c_str(),
                             groupTotal > 0 ? 100.0 * double(groupCumulative) / double(groupTotal)
                                            : 100.0,
                             human(group.first).c_str(), static_cast<long long>(offset),
                             group.second.size(), list.c_str());
                if (i + 1 > kMoreThan &&
                    double(groupTotal - groupCumulative) < double(groupTotal) * kPercentile) {
                    std::fprintf(report,
                                 "%sThe rest %zu values are less than %d%% of the total size "
                                 "and not shown.\n",
                                 prefix, groups.size() - i - 1,
                                 static_cast<int>(kPercentile * 100));
                    break;
                }
            }
        };
        if (options.reportLayout2026) {
            // 343fc3437b on (docs/FORMAT.md §5.1): one memory space (every generated allocation
            // is colour 0), its exact total, each allocation's table largest first with no
            // allocation line, an empty line after each; the smallest past 50 left out without
            // a word; an empty line closing the space.
            std::fprintf(report, "Memory Space: default (color=0)\nTotal bytes: %lld (%s)\n",
                         static_cast<long long>(total), human(total).c_str());
            std::int64_t cumulative2026 = 0;
            for (std::size_t i = 0; i < bySize.size(); ++i) {
                cumulative2026 += allocs[bySize[i]].size;
                groupTable(bySize[i], "  ");
                std::fprintf(report, "\n");
                if (i + 1 > kMoreThan &&
                    double(total - cumulative2026) < double(total) * kPercentile)
                    break;
            }
            std::fprintf(report, "\n");
        } else {
            for (std::size_t a : bySize) {
                if (allocs[a].members.size() == 1) {
                    std::fprintf(report, "%s\n", shortString(a).c_str());
                    continue;
                }
                std::fprintf(report, "%s\n", shortString(a).c_str());
                groupTable(a, "\t");
                std::fprintf(report, "\n");
            }
        }
    }
    return truths;
}

void writeStackTables(const std::string &module, std::FILE *out)
{
    std::string t = "HloModule " + module + ", is_scheduled=true\n\nFileNames\n";
    t += "1 \"/workspace/train.py\"\n2 \"/workspace/model/transformer.py\"\n";
    t += "\nFunctionNames\n1 \"main\"\n2 \"train_step\"\n3 \"forward\"\n4 \"layer_fn\"\n";
    t += "\nFileLocations\n";
    t += "1 {file_name_id=1 function_name_id=1 line=12 end_line=12 column=3 end_column=20}\n";
    t += "2 {file_name_id=1 function_name_id=2 line=57 end_line=57 column=9 end_column=40}\n";
    t += "3 {file_name_id=2 function_name_id=3 line=30 end_line=30 column=13 end_column=35}\n";
    // Source lines 100..899 are locations and frames 4..803.
    for (int line = 100; line < 900; ++line)
        t += std::to_string(line - 96) +
             " {file_name_id=2 function_name_id=4 line=" + std::to_string(line) +
             " end_line=" + std::to_string(line) + " column=11 end_column=60}\n";
    // The printed parent is the caller's id plus one (1: no caller).
    t += "\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n"
         "2 {file_location_id=2 parent_frame_id=2}\n3 {file_location_id=3 parent_frame_id=3}\n";
    for (int line = 100; line < 900; ++line)
        t += std::to_string(line - 96) + " {file_location_id=" + std::to_string(line - 96) +
             " parent_frame_id=4}\n";
    t += "\n\nENTRY %main.1 (p: f32[4]) -> f32[4] {\n  ROOT %p = f32[4]{0} parameter(0)\n}\n\n";
    std::fwrite(t.data(), 1, t.size(), out);
}

} // namespace bufferscope::bench

namespace bufferscope::bench {

namespace {

bool nameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/// `digits` plus one, in decimal ("9" → "10").
std::string plusOne(std::string_view digits)
{
    std::string s(digits);
    for (std::size_t k = s.size(); k-- > 0;) {
        if (s[k] != '9') {
            ++s[k];
            return s;
        }
        s[k] = '0';
    }
    return "1" + s;
}

} // namespace

std::string renumberDump(std::string_view text, std::int64_t idShift)
{
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    bool quoted = false;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (quoted) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"' || c == '\n')
                quoted = false;
            ++i;
            continue;
        }
        if (c == '"') {
            quoted = true;
            out += c;
            ++i;
            continue;
        }
        // A value id: `<ID ` or `#ID `.
        if ((c == '<' || c == '#') && i + 1 < text.size() && digit(text[i + 1])) {
            std::size_t e = i + 1;
            while (e < text.size() && digit(text[e]))
                ++e;
            if (e < text.size() && text[e] == ' ' && e - i - 1 < 18) {
                out += c;
                out += std::to_string(std::stoll(std::string(text.substr(i + 1, e - i - 1))) +
                                      idShift);
                i = e;
                continue;
            }
        }
        // A name: starts with a letter or '_' not inside another token.
        if ((std::isalpha(static_cast<unsigned char>(c)) || c == '_') &&
            (i == 0 || !nameChar(text[i - 1]))) {
            std::size_t e = i;
            while (e < text.size() && nameChar(text[e]))
                ++e;
            std::string_view token = text.substr(i, e - i);
            // A trailing '.' or '-' is punctuation, not part of the name.
            while (!token.empty() && (token.back() == '.' || token.back() == '-'))
                token.remove_suffix(1);
            std::size_t d = token.size();
            while (d > 0 && digit(token[d - 1]))
                --d;
            if (d > 0 && d < token.size() && token[d - 1] == '.') {
                out += token.substr(0, d);
                out += plusOne(token.substr(d));
            } else {
                out += token;
            }
            i += token.size();
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

} // namespace bufferscope::bench
