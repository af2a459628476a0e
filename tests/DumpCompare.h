#pragma once

// Whether two Dumps hold the same facts, field by field, and a loader that parses one input at
// every thread count the parser must agree on (issue 18: the output is the same for every N).

#include "FieldCount.h"
#include "model/Dump.h"
#include "parse/DumpParser.h"

#include <QTest>

#include <functional>
#include <string>
#include <tuple>

namespace testutil {

using namespace bufferscope;

inline auto fields(const ShapeInfo &s)
{
    return std::tie(s.text, s.logicalBytes, s.tupleArity, s.memorySpace, s.elementType, s.valid,
                    s.bytesKnown);
}
inline auto fields(const Instruction &i)
{
    return std::tie(i.step, i.sourceLine, i.text.offset, i.text.length, i.text.file, i.name,
                    i.shape, i.opcode, i.opType, i.opName, i.sourceFile, i.stackFrame, i.hasText);
}
inline auto fields(const Allocation &a)
{
    return std::tie(a.index, a.size, a.color, a.page, a.pointer, a.parameterNumber,
                    a.parameterShape, a.parameterIndex, a.outputShape, a.isParameter, a.isConstant,
                    a.isThreadLocal, a.isMaybeLiveOut, a.isPreallocatedTemp, a.kind, a.firstValue,
                    a.valueCount, a.firstCrossColor, a.crossColorCount, a.file, a.line);
}
inline auto fields(const Value &v)
{
    return std::tie(v.id, v.offset, v.size, v.start, v.end, v.line, v.instruction, v.index, v.color,
                    v.allocation, v.shape, v.firstPosition, v.positionCount, v.firstUse, v.useCount,
                    v.file, v.printedIndex, v.phi, v.usesState);
}
inline auto fields(const Position &p)
{
    return std::tie(p.instruction, p.index);
}
inline auto fields(const Use &u)
{
    return std::tie(u.instruction, u.index, u.operand);
}
inline auto fields(const Diagnostic &d)
{
    return std::tie(d.severity, d.file, d.line, d.message, d.value);
}
inline auto fields(const PeakEntry &e)
{
    return std::tie(e.name, e.index, e.bytes, e.cumulative, e.values);
}
inline auto fields(const StackTraceNode &n)
{
    return std::tie(n.depth, n.name, n.percent, n.total, n.current, n.remaining);
}
inline auto fields(const StackFrame &f)
{
    return std::tie(f.file, f.function, f.line, f.column, f.parent);
}
inline auto fields(const SourceFile &f)
{
    return std::tie(f.path, f.role, f.size);
}
inline auto fields(const FormatTraits &t)
{
    return std::tie(t.bom, t.crlf, t.allocationPointers, t.gluedFromInstruction,
                    t.fromInstructionNoSpace, t.logicalBufferEra, t.splitFiles, t.truncated,
                    t.hasUsedValues, t.hasLiveRange, t.liveRangeUnavailable,
                    t.printedWithoutLiveRanges);
}
inline auto fields(const PrintedPeak &p)
{
    return std::tie(p.present, p.undetermined, p.file, p.line, p.step, p.format, p.bytes, p.entries,
                    p.stackTrace, p.stackTraceBytes);
}

/// Every field of each record is in its list above: one added to the model and not here
/// stops the build.
template <class T> constexpr bool listsEveryField()
{
    return fieldCount<T>() == std::tuple_size_v<decltype(fields(std::declval<const T &>()))>;
}
static_assert(listsEveryField<ShapeInfo>());
// Instruction's text is listed as its three fields.
static_assert(fieldCount<TextRef>() == 3 &&
              fieldCount<Instruction>() + 2 ==
                  std::tuple_size_v<decltype(fields(std::declval<const Instruction &>()))>);
static_assert(listsEveryField<Allocation>());
static_assert(listsEveryField<Value>());
static_assert(listsEveryField<Position>());
static_assert(listsEveryField<Use>());
static_assert(listsEveryField<Diagnostic>());
static_assert(listsEveryField<PeakEntry>());
static_assert(listsEveryField<StackTraceNode>());
static_assert(listsEveryField<StackFrame>());
static_assert(listsEveryField<SourceFile>());
static_assert(listsEveryField<FormatTraits>());
static_assert(listsEveryField<PrintedPeak>());

template <class T>
std::string vectorDifference(const char *what, const std::vector<T> &a, const std::vector<T> &b)
{
    if (a.size() != b.size())
        return std::string(what) + ": " + std::to_string(a.size()) + " vs " +
               std::to_string(b.size()) + " entries";
    for (std::size_t i = 0; i < a.size(); ++i) {
        bool same = false;
        if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>)
            same = a[i] == b[i];
        else
            same = fields(a[i]) == fields(b[i]);
        if (!same)
            return std::string(what) + " [" + std::to_string(i) + "] differs";
    }
    return {};
}

/// Empty when `a` and `b` hold the same facts; otherwise the first difference found.
inline std::string dumpDifference(const Dump &a, const Dump &b)
{
    // The Dump's 27 fields, each compared below but textSource (where the long texts are read
    // from: the same file either way, not a fact of the dump). A field added to Dump and not
    // here stops the build.
    static_assert(fieldCount<Dump>() == 27, "compare the new Dump field in dumpDifference");
    if (a.module != b.module)
        return "module";
    if (a.strings.size() != b.strings.size())
        return "strings: " + std::to_string(a.strings.size()) + " vs " +
               std::to_string(b.strings.size());
    for (StringId i = 0; i < a.strings.size(); ++i) {
        if (a.str(i) != b.str(i))
            return "string " + std::to_string(i) + ": '" + std::string(a.str(i)) + "' vs '" +
                   std::string(b.str(i)) + "'";
    }
    const std::string differences[] = {
        vectorDifference("files", a.files, b.files),
        vectorDifference("shapes", a.shapes, b.shapes),
        vectorDifference("instructions", a.instructions, b.instructions),
        vectorDifference("allocations", a.allocations, b.allocations),
        vectorDifference("allocationValues", a.allocationValues, b.allocationValues),
        vectorDifference("crossColorValues", a.crossColorValues, b.crossColorValues),
        vectorDifference("crossColorPrinted", a.crossColorPrinted, b.crossColorPrinted),
        vectorDifference("values", a.values, b.values),
        vectorDifference("positions", a.positions, b.positions),
        vectorDifference("uses", a.uses, b.uses),
        vectorDifference("sequence", a.sequence, b.sequence),
        vectorDifference("warnings", a.warnings, b.warnings),
        vectorDifference("peak entries", a.printedPeak.entries, b.printedPeak.entries),
        vectorDifference("peak stack trace", a.printedPeak.stackTrace, b.printedPeak.stackTrace),
        vectorDifference("instructionByName", a.instructionByName, b.instructionByName),
        vectorDifference("instructionValueStart", a.instructionValueStart, b.instructionValueStart),
        vectorDifference("instructionValues", a.instructionValues, b.instructionValues),
        vectorDifference("instructionUserStart", a.instructionUserStart, b.instructionUserStart),
        vectorDifference("instructionUsers", a.instructionUsers, b.instructionUsers),
        vectorDifference("stackFrames", a.stackFrames, b.stackFrames),
        a.notes == b.notes ? std::string() : std::string("notes"),
    };
    for (const std::string &d : differences) {
        if (!d.empty())
            return d;
    }
    // Its lists are compared above ("peak entries", "peak stack trace").
    const PrintedPeak &p = a.printedPeak;
    const PrintedPeak &q = b.printedPeak;
    if (std::tie(p.present, p.undetermined, p.file, p.line, p.step, p.format, p.bytes,
                 p.stackTraceBytes) != std::tie(q.present, q.undetermined, q.file, q.line, q.step,
                                                q.format, q.bytes, q.stackTraceBytes))
        return "printed peak";
    if (a.printedMax != b.printedMax || a.printedTotalBytes != b.printedTotalBytes)
        return "printed max or total";
    if (a.suppressedWarnings != b.suppressedWarnings)
        return "suppressed warnings: " + std::to_string(a.suppressedWarnings) + " vs " +
               std::to_string(b.suppressedWarnings);
    if (fields(a.traits) != fields(b.traits))
        return "format traits";
    return {};
}

/// Loads one input with `load` at 1, 2, 3 and 7 threads; records a test failure for every
/// count whose result (the Dump, or the error) is not the serial one's. Returns the serial load.
inline LoadResult
loadAtEveryThreadCount(const std::function<LoadResult(const ParseOptions &)> &load,
                       const char *file, int line)
{
    ParseOptions serial;
    serial.threads = 1;
    LoadResult first = load(serial);
    for (const int threads : {2, 3, 7}) {
        ParseOptions options;
        options.threads = threads;
        const LoadResult other = load(options);
        std::string difference;
        if (first.ok() != other.ok() || first.error != other.error ||
            first.errorLine != other.errorLine)
            difference = "error '" + first.error + "' vs '" + other.error + "'";
        else if (first.ok())
            difference = dumpDifference(*first.dump, *other.dump);
        if (!difference.empty()) {
            const std::string message =
                "at " + std::to_string(threads) + " threads, not as at 1: " + difference;
            QTest::qFail(message.c_str(), file, line);
        }
    }
    return first;
}

#define LOAD_EVERY_WAY(...)                                                                        \
    ::testutil::loadAtEveryThreadCount(                                                            \
        [&](const ::bufferscope::ParseOptions &options_) { return __VA_ARGS__; }, __FILE__,        \
        __LINE__)

} // namespace testutil
