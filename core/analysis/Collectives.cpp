#include "analysis/Collectives.h"

#include <array>

namespace bufferscope::collectives {

namespace {

constexpr std::array<std::string_view, 7> kBases = {
    "all-gather",         "all-reduce",           "reduce-scatter",   "all-to-all",
    "collective-permute", "collective-broadcast", "ragged-all-to-all"};

/// `all-gather-start.3.1` → `all-gather-start`: XLA's uniquifying `.N` suffixes dropped.
std::string_view stem(std::string_view name)
{
    while (true) {
        const std::size_t dot = name.rfind('.');
        if (dot == std::string_view::npos || dot + 1 == name.size())
            return name;
        for (std::size_t k = dot + 1; k < name.size(); ++k)
            if (name[k] < '0' || name[k] > '9')
                return name;
        name = name.substr(0, dot);
    }
}

} // namespace

bool isOpcode(std::string_view opcode)
{
    for (const std::string_view base : kBases)
        if (opcode == base || (opcode.starts_with(base) && opcode.substr(base.size()) == "-start"))
            return true;
    return false;
}

bool isInstruction(std::string_view opcode, std::string_view name)
{
    if (isOpcode(opcode))
        return true;
    return (opcode == "async-start" || opcode == "async-update") && isOpcode(stem(name));
}

bool isValue(const Dump &dump, const Value &value)
{
    const Instruction *in = dump.instructionOf(value);
    return in && isInstruction(dump.opcode(*in), dump.str(in->name));
}

} // namespace bufferscope::collectives
