// libFuzzer entry point: the parser (on one thread and on three, which must agree), the
// analyses (timeline, breakdown, explainer, diff) and both report forms on arbitrary bytes.
// Built in the asan tree (clang, -fsanitize=fuzzer,address,undefined); tests/fuzz/run_fuzz.sh runs
// it.
#include "analysis/RuntimeMemory.h"
#include "analysis/DumpDiff.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/PeakExplainer.h"
#include "analysis/SourceFrames.h"
#include "parse/DumpParser.h"
#include "parse/HloProtoDump.h"
#include "parse/MemoryUsageReport.h"
#include "parse/OomMessage.h"
#include "parse/StackFrames.h"
#include "parse/XPlaneMemory.h"
#include "parse/XPlaneModules.h"
#include "report/OomReport.h"
#include "report/Report.h"
#include "report/ViewCsv.h"
#include "util/Decompress.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

using namespace bufferscope;

namespace {

/// Iterative, so a tree that broke the bound cannot overflow the fuzzer's own stack.
std::size_t depthOf(const BreakdownNode &root)
{
    std::size_t deepest = 0;
    std::vector<std::pair<const BreakdownNode *, std::size_t>> todo{{&root, 1}};
    while (!todo.empty()) {
        const auto [node, depth] = todo.back();
        todo.pop_back();
        deepest = std::max(deepest, depth);
        for (const BreakdownNode &c : node->children)
            todo.emplace_back(&c, depth + 1);
    }
    return deepest;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    // The same bytes as a module's optimized HLO text: its call-stack tables. Every stack walk
    // must end, whatever the links.
    {
        Dump tables;
        for (std::uint32_t frame : {1u, 2u, 3u, 1000000u}) {
            Instruction ins;
            ins.stackFrame = frame;
            tables.instructions.push_back(ins);
        }
        (void)readStackFrames(text, 0, tables, 100);
        for (const Instruction &ins : tables.instructions)
            if (tables.stackOf(ins).size() > tables.stackFrames.size() ||
                tables.stackOf(ins).size() > kMaxStackDepth)
                __builtin_trap();
        for (const StackFrame &f : tables.stackFrames)
            if (f.parent > tables.stackFrames.size())
                __builtin_trap();
    }
    // The same bytes as a log with out-of-memory messages: every buffer and message it reads
    // stands on a line of its own, and the report of it has no control byte.
    {
        const OomLog log = OomLog::parse(text);
        const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
        std::size_t buffers = 0;
        for (const OomMessage &m : log.messages)
            buffers += m.buffers.size();
        if (log.messages.size() > lines || buffers > lines || log.problems.size() > 100)
            __builtin_trap();
        OomFindings findings;
        findings.file = "fuzz.log";
        findings.log = log;
        for (char c : OomReport::text(findings))
            if (c != '\n' && static_cast<unsigned char>(c) < 0x20)
                __builtin_trap();
        (void)OomLog::looksLike(text);
    }
    // The same bytes as a binary module (xla.HloProto, .hlo.pb): worked out or refused with a
    // sentence, and what it makes is a dump the text parser reads without a fatal error.
    {
        std::string error;
        const std::string made = HloProtoDumps::dumpText(text, &error);
        if (made.empty() == error.empty())
            __builtin_trap();
        // What a proto becomes is bounded by its size (decompress::expandedLimit), never the
        // product of two of its repeated fields.
        if (static_cast<std::int64_t>(made.size()) >
            decompress::expandedLimit(static_cast<std::int64_t>(text.size())))
            __builtin_trap();
        if (!made.empty()) {
            ParseOptions once;
            once.threads = 1;
            const LoadResult fromProto = HloProtoDumps::loadBytes(text, "fuzz.hlo.pb", once);
            if (!fromProto.ok() && fromProto.error.find("fuzz.hlo.pb: ") != 0)
                __builtin_trap();
        }
    }
    // The same bytes as a profiler capture: its modules found, or a sentence why not.
    {
        std::string error;
        const auto modules = XPlaneModules::read(text, &error);
        if (modules.empty() == error.empty())
            __builtin_trap();
    }
    // And as its allocators' events: read or refused with a sentence, and every event read
    // counted once, in one allocator.
    {
        std::string error;
        XPlaneMemory events = XPlaneMemory::read(text, &error);
        std::size_t counted = 0;
        for (const XPlaneMemory::Allocator &a : events.allocators)
            counted += a.events.size();
        if (counted != events.events || (error.empty() && events.events == 0))
            __builtin_trap();
        const RuntimeMemory memory = RuntimeMemory::of(std::move(events));
        for (const RuntimeAllocator &a : memory.allocators)
            if (a.allocations + a.deallocations != a.curve.size())
                __builtin_trap();
    }
    // The same bytes as XLA's memory-usage report: read or refused line by line, never a
    // count it did not see.
    {
        const MemoryUsageReport report = MemoryUsageReports::parse(text);
        if (report.problems.size() > 100 ||
            report.allocations.size() >
                static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1)
            __builtin_trap();
        (void)MemoryUsageReports::looksLike(text);
    }
    // Parsed on three threads (chunks and read-ahead) and on one: the two must agree to the
    // byte (ARCHITECTURE.md, "The parse in chunks").
    ParseOptions threaded;
    threaded.threads = 3;
    ParseOptions serial;
    serial.threads = 1;
    const LoadResult result = DumpParser::loadBuffer(text, "fuzz-buffer-assignment.txt", threaded);
    const LoadResult alone = DumpParser::loadBuffer(text, "fuzz-buffer-assignment.txt", serial);
    if (result.ok() != alone.ok() || result.error != alone.error)
        __builtin_trap();
    if (!result.ok()) {
        // An error must say where: the file and a line.
        if (result.error.empty() || result.errorFile.empty())
            __builtin_trap();
        return 0;
    }
    const Dump &dump = *result.dump;
    const auto timeline = MemoryTimeline::compute(dump);
    const auto timelineAlone = MemoryTimeline::compute(*alone.dump);
    if (!timeline || !timelineAlone)
        __builtin_trap(); // never cancelled here
    ReportOptions options;
    options.top = 5;
    // Text for a terminal: no control byte but the line ends, whatever the names hold.
    for (const char c : Report::text(dump, *timeline, options))
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7F)
            __builtin_trap();
    if (Report::json(dump, *timeline, options) !=
        Report::json(*alone.dump, *timelineAlone, options))
        __builtin_trap();
    // The breakdown must add up to the live bytes it was computed from (PeakBreakdown.h).
    const std::int64_t step = Report::reportStep(*timeline, options);
    BreakdownOptions grouping;
    grouping.callStacks = true;
    grouping.libraryPatterns = defaultLibraryPatterns();
    const Breakdown breakdown = Breakdown::compute(dump, step, 0, grouping);
    if (breakdown.callersTree.bytes != breakdown.bytes ||
        breakdown.calleesTree.bytes != breakdown.bytes)
        __builtin_trap();
    std::int64_t sum = 0;
    for (const BreakdownRow &row : breakdown.byKind)
        sum += row.bytes;
    if (sum != breakdown.bytes || breakdown.opNameTree.bytes != breakdown.bytes)
        __builtin_trap();
    // No tree built from the dump's text is deeper than the bound (PeakBreakdown.h).
    for (const BreakdownNode *root :
         {&breakdown.opNameTree, &breakdown.callersTree, &breakdown.calleesTree})
        if (depthOf(*root) > Breakdown::kMaxDepth + 3)
            __builtin_trap();
    // CSV cells: well-formed UTF-8, no NUL, nothing a spreadsheet runs.
    const std::string csv = ViewCsv::breakdown(breakdown, Breakdown::Grouping::OpName);
    if (csv.find('\0') != std::string::npos || safetext::validUtf8(csv) != csv)
        __builtin_trap();
    (void)PeakExplainer::explain(dump, *timeline, step, 0);
    // A dump compared with itself has no difference.
    const DumpDiff self = DumpDiff::compute(dump, *timeline, dump, *timeline);
    if (self.totalDelta() != 0 || self.peakDelta() != 0 || !self.changed.empty() ||
        !self.added.empty() || !self.removed.empty())
        __builtin_trap();
    for (std::uint32_t i = 0; i < dump.values.size(); i += 97) {
        (void)dump.valueDisplayName(dump.values[i]);
        (void)dump.instructionText(dump.values[i].instruction);
    }
    return 0;
}
