#include "ValueFlow.h"

#include <algorithm>

namespace bufferscope {

namespace {

std::vector<std::int64_t> scheduledSteps(const std::vector<ValueMark> &marks)
{
    std::vector<std::int64_t> steps;
    for (const ValueMark &m : marks)
        if (m.step >= 0)
            steps.push_back(m.step);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return steps;
}

void sortUnique(std::vector<std::uint32_t> &v, std::uint32_t without)
{
    std::erase(v, without);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

/// Index just past the bracket that closes the one at `open` ((), [] and {} nest), or npos.
std::size_t closing(std::string_view text, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return i + 1;
    }
    return std::string_view::npos;
}

} // namespace

std::vector<std::int64_t> ValueFlow::useSteps() const
{
    return scheduledSteps(uses);
}

std::vector<std::int64_t> ValueFlow::positionSteps() const
{
    return scheduledSteps(positions);
}

ValueFlow ValueFlow::of(const Dump &d, std::uint32_t value)
{
    ValueFlow flow;
    if (value >= d.values.size())
        return flow;
    const Value &v = d.values[value];
    const auto stepOf = [&d](std::uint32_t instruction) {
        return instruction < d.instructions.size() ? d.instructions[instruction].step
                                                   : std::int64_t(-1);
    };
    for (std::uint32_t i = 0; i < v.positionCount; ++i) {
        const Position &p = d.positions[v.firstPosition + i];
        flow.positions.push_back({p.instruction, stepOf(p.instruction), -1, p.index});
    }
    flow.usesKnown = v.usesState == UsesState::Known;
    for (std::uint32_t i = 0; i < v.useCount; ++i) {
        const Use &u = d.uses[v.firstUse + i];
        flow.uses.push_back({u.instruction, stepOf(u.instruction), u.operand, u.index});
        // Consumers: what the reading instruction defines.
        if (u.instruction != kNone)
            for (auto [it, end] = d.valuesOf(u.instruction); it != end; ++it)
                flow.consumers.push_back(*it);
    }
    // Producers: the values whose uses name the defining instruction.
    if (v.instruction != kNone)
        for (auto [it, end] = d.usersOf(v.instruction); it != end; ++it)
            flow.producers.push_back(*it);
    sortUnique(flow.producers, value);
    sortUnique(flow.consumers, value);
    return flow;
}

std::vector<std::string_view> operandNames(std::string_view text)
{
    std::vector<std::string_view> names;
    // `%name = SHAPE opcode(OPERANDS)…`: skip to the shape, over it, over the opcode.
    std::size_t i = text.find(" = ");
    if (i == std::string_view::npos)
        return names;
    i += 3;
    if (i < text.size() && text[i] == '(') { // a tuple shape
        i = closing(text, i);
    } else {
        while (i < text.size() && text[i] != '[' && text[i] != ' ')
            ++i; // the element type
        if (i < text.size() && text[i] == '[')
            i = closing(text, i);
        if (i < text.size() && text[i] == '{')
            i = closing(text, i); // the layout, which may hold tiles `T(8,128)`
    }
    if (i == std::string_view::npos || i >= text.size() || text[i] != ' ')
        return names;
    const std::size_t open = text.find('(', i);
    if (open == std::string_view::npos || text.find_first_of(" ,", i + 1) < open)
        return names; // the opcode is one word right before its operands
    const std::size_t close = closing(text, open);
    if (close == std::string_view::npos)
        return names;
    const std::string_view operands = text.substr(open + 1, close - open - 2);
    for (std::size_t at = operands.find('%'); at != std::string_view::npos;
         at = operands.find('%', at)) {
        std::size_t end = at + 1;
        while (end < operands.size() && operands[end] != ',' && operands[end] != ')' &&
               operands[end] != ' ')
            ++end;
        if (end > at + 1)
            names.push_back(operands.substr(at + 1, end - at - 1));
        at = end;
    }
    return names;
}

} // namespace bufferscope
