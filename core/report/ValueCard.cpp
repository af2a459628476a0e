#include "ValueCard.h"

#include "model/MemorySpaces.h"

namespace bufferscope {

ValueCard ValueCard::of(const Dump &dump, std::uint32_t value, const ValueFlow *flow,
                        const ValueCategories *categories)
{
    const Value &v = dump.values[value];
    ValueCard c;
    if (categories && value < categories->category.size()) {
        c.category = std::string(categoryName(categories->category[value]));
        c.categoryEvidence = categories->evidence(dump, value);
    }
    c.value = value;
    c.id = v.id;
    c.name = dump.valueDisplayName(v);
    c.key = dump.valueKey(v);
    c.shape = std::string(dump.shapeText(v));
    c.memorySpace = v.color;
    if (const std::int32_t printed = dump.printedColorOf(value); printed >= 0)
        c.memorySpaceText = "S(" + std::to_string(v.color) + "): an S(" + std::to_string(printed) +
                            ") value in an S(" + std::to_string(v.color) + ") allocation";
    else
        c.memorySpaceText = memorySpaceLabel(platformOf(dump), v.color);
    c.bytes = v.size;
    if (dump.shapes[v.shape].bytesKnown)
        c.logicalBytes = dump.logicalBytes(v);
    if (v.allocation != kNone) {
        const Allocation &a = dump.allocations[v.allocation];
        c.allocation = Placement{a.index, a.kind, a.size, v.offset, a.page};
    }
    if (v.hasLiveRange()) {
        c.start = v.start;
        c.end = v.end;
    }
    c.flow = flow ? *flow : ValueFlow::of(dump, value);
    c.usesNotInitialized = v.usesState == UsesState::NotInitialized;
    if (const Instruction *ins = dump.instructionOf(v)) {
        c.instruction = v.instruction;
        if (ins->opcode != kNoString)
            c.opcode = std::string(dump.str(ins->opcode));
        if (ins->opType != kNoString)
            c.opType = std::string(dump.str(ins->opType));
        if (ins->opName != kNoString)
            c.opName = std::string(dump.str(ins->opName));
        c.source = dump.sourceLocation(*ins);
        c.stack = placesOf(dump, *ins);
    }
    if (v.file < dump.files.size())
        c.listedFile = dump.files[v.file].path;
    c.listedLine = v.line;
    return c;
}

std::string pageNote(std::int64_t page)
{
    return std::to_string(page) +
           ", not the first: a multi-page assignment (the module's page_size_kib) splits the "
           "temporaries of a colour into pages, each its own allocation; the temp is their sum";
}

} // namespace bufferscope
