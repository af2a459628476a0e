#include "Dump.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <limits>

namespace bufferscope {

std::string_view allocationKindName(AllocationKind kind)
{
    switch (kind) {
    case AllocationKind::Parameter:
        return "parameter";
    case AllocationKind::Output:
        return "output";
    case AllocationKind::Constant:
        return "constant";
    case AllocationKind::ThreadLocal:
        return "thread_local";
    case AllocationKind::Temp:
        return "temp";
    }
    return "temp";
}

std::string signedHumanBytes(std::int64_t delta)
{
    return delta > 0 ? "+" + humanBytes(delta) : delta < 0 ? humanBytes(delta) : "±0B";
}

std::string humanBytes(std::int64_t bytes)
{
    // tsl::strings::HumanReadableNumBytes, so our numbers read like XLA's own.
    if (bytes == std::numeric_limits<std::int64_t>::min())
        return "-8E";
    if (bytes < 0)
        return "-" + humanBytes(-bytes);
    char buf[64];
    if (bytes < 1024) {
        std::snprintf(buf, sizeof buf, "%" PRId64 "B", bytes);
        return buf;
    }
    static constexpr char kUnits[] = "KMGTPE";
    const char *unit = kUnits;
    while (bytes >= std::int64_t{1024} * 1024) {
        bytes /= 1024;
        ++unit;
    }
    std::snprintf(buf, sizeof buf, unit == kUnits ? "%.1f%ciB" : "%.2f%ciB",
                  static_cast<double>(bytes) / 1024.0, *unit);
    return buf;
}

std::string_view Dump::opcode(const Instruction &in) const
{
    if (in.opcode != kNoString)
        return str(in.opcode);
    const std::string_view name = str(in.name);
    const std::size_t dot = name.find('.');
    return dot == std::string_view::npos ? name : name.substr(0, dot);
}

std::string_view Dump::valueName(const Value &value) const
{
    return value.instruction == kNone ? std::string_view("?")
                                      : str(instructions[value.instruction].name);
}

std::string Dump::noLiveRangesText() const
{
    if (hasLiveRanges())
        return {};
    return traits.printedWithoutLiveRanges
               ? "No live ranges in this dump: it is complete but was printed by "
                 "BufferAssignment::ToString, which has no HloLiveRange section, so memory over "
                 "time is unknown."
               : "No live ranges in this dump (no HloLiveRange section): memory over time is "
                 "unknown.";
}

std::string Dump::valueKey(const Value &value) const
{
    std::string key(valueName(value));
    key += value.index == kNoString ? std::string_view("{}") : str(value.index);
    return key;
}

std::string Dump::valueDisplayName(const Value &value) const
{
    std::string name(valueName(value));
    if (value.printedIndex)
        name += str(value.index);
    return name;
}

std::uint32_t Dump::findValueById(std::int64_t id) const
{
    auto it = std::lower_bound(values.begin(), values.end(), id,
                               [](const Value &v, std::int64_t key) { return v.id < key; });
    if (it == values.end() || it->id != id)
        return kNone;
    return static_cast<std::uint32_t>(it - values.begin());
}

std::uint32_t Dump::findInstruction(std::string_view name) const
{
    const StringId id = strings.find(name);
    if (id == kNoString || id >= instructionByName.size())
        return kNone;
    return instructionByName[id];
}

std::uint32_t Dump::findValue(std::string_view nameOrId) const
{
    std::int64_t id = 0;
    auto [ptr, ec] = std::from_chars(nameOrId.data(), nameOrId.data() + nameOrId.size(), id);
    if (ec == std::errc() && ptr == nameOrId.data() + nameOrId.size())
        return findValueById(id);
    std::string_view name = nameOrId;
    std::string_view index = "{}";
    if (!name.empty() && name.back() == '}') {
        const auto open = name.rfind('{');
        if (open != std::string_view::npos) {
            index = name.substr(open);
            name = name.substr(0, open);
        }
    }
    const std::uint32_t instruction = findInstruction(name);
    if (instruction == kNone)
        return kNone;
    const StringId indexId = strings.find(index);
    for (auto [it, end] = valuesOf(instruction); it != end; ++it) {
        if (values[*it].index == indexId)
            return *it;
    }
    return kNone;
}

void Dump::buildIndexes()
{
    // Counting sort of values by defining instruction: ascending id within each instruction.
    instructionValueStart.assign(instructions.size() + 1, 0);
    for (const Value &v : values) {
        if (v.instruction != kNone)
            ++instructionValueStart[v.instruction + 1];
    }
    for (std::size_t i = 1; i < instructionValueStart.size(); ++i)
        instructionValueStart[i] += instructionValueStart[i - 1];
    instructionValues.assign(instructionValueStart.back(), kNone);
    std::vector<std::uint32_t> fill(instructionValueStart.begin(), instructionValueStart.end() - 1);
    for (std::uint32_t i = 0; i < values.size(); ++i) {
        if (values[i].instruction != kNone)
            instructionValues[fill[values[i].instruction]++] = i;
    }
    // The same for the instructions each value's uses name (the producers of a value).
    instructionUserStart.assign(instructions.size() + 1, 0);
    for (const Use &u : uses) {
        if (u.instruction != kNone)
            ++instructionUserStart[u.instruction + 1];
    }
    for (std::size_t i = 1; i < instructionUserStart.size(); ++i)
        instructionUserStart[i] += instructionUserStart[i - 1];
    instructionUsers.assign(instructionUserStart.back(), kNone);
    fill.assign(instructionUserStart.begin(), instructionUserStart.end() - 1);
    for (std::uint32_t i = 0; i < values.size(); ++i) {
        const Value &v = values[i];
        for (std::uint32_t k = 0; k < v.useCount; ++k) {
            const std::uint32_t ins = uses[v.firstUse + k].instruction;
            if (ins != kNone)
                instructionUsers[fill[ins]++] = i;
        }
    }
}

std::vector<const StackFrame *> Dump::stackOf(const Instruction &instruction) const
{
    std::vector<const StackFrame *> out;
    // Bounded by the frame count even though the reader removed cycles.
    for (std::uint32_t id = instruction.stackFrame;
         id != 0 && id <= stackFrames.size() && out.size() <= stackFrames.size();
         id = stackFrames[id - 1].parent)
        out.push_back(&stackFrames[id - 1]);
    return out;
}

std::int32_t Dump::printedColorOf(std::uint32_t value) const
{
    if (value >= values.size() || values[value].allocation == kNone)
        return -1;
    const Allocation &a = allocations[values[value].allocation];
    for (std::uint32_t i = 0; i < a.crossColorCount; ++i)
        if (crossColorValues[a.firstCrossColor + i] == value)
            return crossColorPrinted[a.firstCrossColor + i];
    return -1;
}

std::int64_t Dump::allocationSizeSum() const
{
    std::int64_t sum = 0;
    for (const auto &a : allocations)
        sum += a.size;
    return sum;
}

std::int64_t Dump::totalBytes() const
{
    return printedTotalBytes ? *printedTotalBytes : allocationSizeSum();
}

std::string Dump::instructionText(std::uint32_t instruction) const
{
    if (instruction >= instructions.size() || !instructions[instruction].hasText || !textSource)
        return {};
    return textSource->read(instructions[instruction].text);
}

std::string Dump::sourceLocation(const Instruction &instruction) const
{
    if (instruction.sourceFile == kNoString)
        return {};
    std::string out(str(instruction.sourceFile));
    if (instruction.sourceLine >= 0)
        out += ":" + std::to_string(instruction.sourceLine);
    return out;
}

std::string Dump::diagnosticText(const Diagnostic &d) const
{
    std::string out = d.file < files.size() ? files[d.file].path : std::string("<input>");
    if (d.line > 0)
        out += ":" + std::to_string(d.line);
    out += ": ";
    out += d.message;
    return out;
}

} // namespace bufferscope
