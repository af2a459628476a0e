#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
//
// The definitions of LineRules' members (LineRules.h), included by the one file that compiles
// them for each builder: LineRules.cpp for Builder, ChunkBuilder.cpp for ChunkBuilder. Two files,
// not one: with both builders' copies in one file, GCC stayed within its growth limit for a
// file by inlining less, and the serial parse ran 5 % slower (callgrind, tests/bench/README.md).
#include "parse/detail/ChunkBuilder.h"

namespace bufferscope::parse_detail {

template <class Role> void LineRules<Role>::usedValueLine(sv line, std::uint64_t offset, sv next)
{
    if (m_block == Block::Skip) {
        if (line.starts_with(" from instruction:"))
            m_block = Block::Done;
        return;
    }
    if (line.starts_with(" from instruction:"))
        return fromInstruction(line, offset, next);
    if (line == " positions:") {
        if (m_block != Block::Header)
            return warn("' positions:' outside a value block");
        m_block = Block::Positions;
        if (m_blockValue != kNone)
            self().startPositions(static_cast<std::uint32_t>(d.positions.size()));
        return;
    }
    if (line == " uses:") {
        if (m_block != Block::Positions)
            return warn("' uses:' not after the positions of a value");
        m_block = Block::Uses;
        if (m_blockValue != kNone)
            self().startUses(static_cast<std::uint32_t>(d.uses.size()));
        return;
    }
    if (line == " uses are not initialized yet.") {
        m_block = Block::UsesUnknown;
        if (m_blockValue != kNone)
            self().figures().usesState = UsesState::NotInitialized;
        return;
    }
    if (line == "  (none)" && m_block == Block::Uses)
        return;
    if (line.starts_with("  ") && line.size() > 2 && line[2] != ' ') {
        if (m_block == Block::Positions)
            return position(line.substr(2));
        if (m_block == Block::Uses)
            return use(line.substr(2));
    }
    return unrecognized(line, "a position, use or ' from instruction:' line");
}

template <class Role> void LineRules<Role>::valueHeader(sv line)
{
    m_block = Block::None;
    m_blockValue = kNone;
    ShortValue s;
    sv rest;
    m_error.clear();
    if (!parseShort(line, s, rest, m_error) || !rest.empty()) {
        m_block = Block::Skip;
        return warn("malformed value header '" + excerpt(line) +
                    "': " + (m_error.empty() ? std::string("unexpected text after '>'") : m_error) +
                    "; its block is skipped");
    }
    const std::vector<std::uint32_t> &idOrder = self().idOrder();
    std::uint32_t index = FlatMap64::kMissing;
    if (m_headerCursor < idOrder.size() && gd.values[idOrder[m_headerCursor]].id == s.id) {
        index = idOrder[m_headerCursor++];
    } else {
        index = self().valueById().find(static_cast<std::uint64_t>(s.id));
        if (index != FlatMap64::kMissing)
            resyncHeaderCursor(index);
    }
    // Two blocks ahead: its value record; one block ahead: its instruction and name.
    if (m_headerCursor + 2 < idOrder.size()) {
        __builtin_prefetch(&gd.values[idOrder[m_headerCursor + 2]]);
        const Value &next = gd.values[idOrder[m_headerCursor + 1]];
        if (next.instruction != kNone) {
            __builtin_prefetch(&gd.instructions[next.instruction]);
        }
        const Value &now = gd.values[idOrder[m_headerCursor]];
        if (now.instruction != kNone)
            gd.strings.prefetch(gd.instructions[now.instruction].name);
    }
    if (index == FlatMap64::kMissing) {
        index = self().unlistedValue(s);
        if (index == kNone)
            return;
    } else {
        const Value &v = gd.values[index];
        if (gd.valueName(v) != s.name || (!s.index.empty() && gd.str(v.index) != s.index))
            warn("value " + std::to_string(s.id) + " is called '" + excerpt(line) + "' here but '" +
                     gd.valueDisplayName(v) + "' in its allocation",
                 index);
    }
    if (!self().claimBlock(index, s.id)) {
        m_block = Block::Done;
        return;
    }
    m_blockValue = index;
    m_block = Block::Header;
}

template <class Role> void LineRules<Role>::resyncHeaderCursor(std::uint32_t index)
{
    // Ids ascend along m_idOrder, the id-less values (-1) last.
    const std::vector<std::uint32_t> &idOrder = self().idOrder();
    const std::int64_t id = gd.values[index].id;
    const auto at = std::lower_bound(idOrder.begin(), idOrder.end(), id,
                                     [this](std::uint32_t i, std::int64_t wanted) {
                                         const std::int64_t have = gd.values[i].id;
                                         return have >= 0 && have < wanted;
                                     });
    if (at != idOrder.end() && *at == index)
        m_headerCursor = static_cast<std::size_t>(at - idOrder.begin()) + 1;
}

template <class Role> void LineRules<Role>::position(sv text)
{
    if (m_blockValue == kNone)
        return;
    sv name = text;
    sv index;
    const auto space = text.find(' ');
    if (space != sv::npos) {
        name = text.substr(0, space);
        index = text.substr(space + 1);
        if (!validIndex(index))
            return warn("malformed position '" + excerpt(text) + "'; expected 'NAME [{idx}]'");
    }
    if (!validName(name))
        return warn("malformed position '" + excerpt(text) + "'");
    Position p;
    // The first position is nearly always the defining instruction, whose name valueHeader has
    // just compared (so it is in cache): skip the pool lookup then.
    const std::uint32_t own = gd.values[m_blockValue].instruction;
    if (own != kNone && gd.str(gd.instructions[own].name) == name)
        p.instruction = own;
    else
        p.instruction = self().instructionFor(internHinted(name));
    p.index = index.empty() ? kNoString : internRecent(index);
    d.positions.push_back(p);
    ++self().figures().positionCount;
}

template <class Role> void LineRules<Role>::use(sv text)
{
    if (m_blockValue == kNone)
        return;
    const auto comma = text.find(", operand ");
    if (comma == sv::npos)
        return warn("malformed use '" + excerpt(text) + "'; expected 'NAME, operand N [{idx}]'");
    const sv name = text.substr(0, comma);
    sv rest = text.substr(comma + 10);
    Use u;
    if (!readInt(rest, u.operand) || u.operand < 0 || !validName(name))
        return warn("malformed use '" + excerpt(text) + "'; expected 'NAME, operand N [{idx}]'");
    if (!rest.empty()) {
        if (!consume(rest, " ") || !validIndex(rest))
            return warn("malformed use '" + excerpt(text) +
                        "'; expected 'NAME, operand N [{idx}]'");
        u.index = internRecent(rest);
    }
    u.instruction = self().instructionFor(internHinted(name));
    d.uses.push_back(u);
    ++self().figures().useCount;
}

namespace {
/// Whether `ahead` (the first bytes of a line) is exactly ` positions:`.
inline bool isPositionsLine(sv ahead)
{
    constexpr sv kPositions = " positions:";
    if (!ahead.starts_with(kPositions))
        return false;
    ahead.remove_prefix(kPositions.size());
    return ahead.empty() || ahead.front() == '\n' || ahead.starts_with("\r\n") || ahead == "\r";
}
} // namespace

template <class Role> void LineRules<Role>::fromInstruction(sv line, std::uint64_t offset, sv next)
{
    m_sawFromInstruction = true;
    sv text = line.substr(18);
    std::uint64_t textOffset = offset + 18;
    if (consume(text, " ")) {
        ++textOffset;
    } else {
        d.traits.fromInstructionNoSpace = true; // 2021-09 .. 2024-01
    }
    // 2024-01..2024-11: the next value's header is glued to the end of this line. Split it off
    // only when the following line confirms it (` positions:`), as docs/FORMAT.md 3.6 advises.
    sv glued;
    if (!text.empty() && text.back() == '>' && isPositionsLine(next)) {
        const auto open = text.rfind('<');
        ShortValue s;
        sv rest;
        std::string error;
        if (open != sv::npos && parseShort(text.substr(open), s, rest, error) && rest.empty()) {
            glued = text.substr(open);
            text = text.substr(0, open);
            d.traits.gluedFromInstruction = true;
        }
    }
    if (m_blockValue != kNone && m_block != Block::Done) {
        if (self().figures().usesState == UsesState::Missing && m_block != Block::Uses)
            warn("value block without a ' uses:' line", m_blockValue);
        instructionText(text, textOffset, gd.values[m_blockValue].instruction);
    }
    m_block = Block::Done;
    if (!glued.empty())
        valueHeader(glued);
}

template <class Role>
void LineRules<Role>::instructionText(sv text, std::uint64_t offset, std::uint32_t instruction)
{
    Instruction *record = self().textFor(instruction);
    if (!record)
        return;
    Instruction &ins = *record;
    ins.hasText = true;
    ins.text =
        TextRef{offset, static_cast<std::uint32_t>(std::min<std::size_t>(text.size(), 0xffffffffu)),
                m_file};
    sv t = text;
    consume(t, "%");
    const auto eq = t.find(" = ");
    if (eq == sv::npos) {
        warn("instruction text does not start with '%NAME = SHAPE opcode('");
        return;
    }
    const sv name = t.substr(0, eq);
    if (name != gd.str(ins.name))
        warn("value of '" + std::string(gd.str(ins.name)) + "' comes from instruction '" +
             excerpt(name) + "'");
    t.remove_prefix(eq + 3);
    const std::size_t shapeLen = ShapeParser::shapeTokenLength(t);
    if (shapeLen == 0) {
        warn("cannot find the shape in the instruction text");
        return;
    }
    ins.shape = shapeHinted(t.substr(0, shapeLen));
    t.remove_prefix(shapeLen);
    consume(t, " ");
    const auto paren = t.find('(');
    if (paren != sv::npos && paren > 0 && paren < 64)
        ins.opcode = internRecent(t.substr(0, paren));
    // metadata normally precedes the long backend_config, so the search usually stops early.
    const auto meta = t.find(", metadata={");
    if (meta == sv::npos)
        return;
    sv m = t.substr(meta + 12);
    while (!m.empty() && m.front() != '}') {
        while (consume(m, " ")) {
        }
        const auto eqPos = m.find('=');
        if (eqPos > 64) // also sv::npos
            break;
        const sv key = m.substr(0, eqPos);
        m.remove_prefix(eqPos + 1);
        sv value;
        bool escaped = false;
        if (consume(m, "\"")) {
            std::size_t i = 0;
            while (i < m.size() && m[i] != '"') {
                if (m[i] == '\\') {
                    escaped = true;
                    ++i;
                }
                ++i;
            }
            if (i >= m.size())
                break;
            value = m.substr(0, i);
            m.remove_prefix(i + 1);
        } else {
            std::size_t i = 0;
            while (i < m.size() && m[i] != ' ' && m[i] != '}')
                ++i;
            value = m.substr(0, i);
            m.remove_prefix(i);
        }
        StringId *target = nullptr;
        if (key == "op_type")
            target = &ins.opType;
        else if (key == "op_name")
            target = &ins.opName;
        else if (key == "source_file")
            target = &ins.sourceFile;
        else if (key == "source_line") {
            std::int64_t lineNo = 0;
            if (parseInt(value, lineNo))
                ins.sourceLine = lineNo;
        } else if (key == "stack_frame_id") {
            std::int64_t id = 0;
            if (parseInt(value, id) && id > 0 && id <= std::numeric_limits<std::uint32_t>::max())
                ins.stackFrame = static_cast<std::uint32_t>(id);
        }
        if (target)
            *target = escaped ? self().intern(safetext::unescapeC(value),
                                              StringPool::hash(safetext::unescapeC(value)))
                              : internRecent(value);
    }
}

template <class Role> void LineRules<Role>::hintAhead(sv line, std::int64_t lineNo)
{
    Hint &hint = m_hints[static_cast<std::size_t>(lineNo) % kAhead];
    hint = Hint{};
    if (line.size() < 3 || line[0] != ' ')
        return;
    sv name;
    sv shape;
    if (line.starts_with(" value: <")) {
        // ` value: <ID NAME[{IDX}][ (phi)] @C> ...`: the id for the id map, the name for the pool.
        sv rest = line.substr(9);
        std::int64_t id = 0;
        if (!readInt(rest, id) || id < 0 || !consume(rest, " "))
            return;
        self().valueById().prefetch(static_cast<std::uint64_t>(id));
        consume(rest, "PHI ");
        name = rest.substr(0, rest.find_first_of(" {>"));
        // `... (size=S,offset=O): SHAPE`
        if (const auto colon = rest.find("): "); colon != sv::npos)
            shape = rest.substr(colon + 3);
    } else if (line.starts_with(" from instruction:")) {
        // ` from instruction:[ ]%NAME = SHAPE opcode(...`: the instruction's shape.
        sv rest = line.substr(18);
        consume(rest, " ");
        if (const auto eq = rest.find(" = "); eq < 1024) { // not sv::npos
            rest.remove_prefix(eq + 3);
            shape = rest.substr(0, ShapeParser::shapeTokenLength(rest));
        }
    } else if (line[1] == ' ' && line[2] != ' ') {
        // Used values: `  NAME[ {IDX}]` (a position) or `  NAME, operand N` (a use).
        name = line.substr(2);
        name = name.substr(0, name.find_first_of(" ,\r"));
    } else if (line.starts_with("    ") && line.size() > 4 && line[4] >= '0' && line[4] <= '9') {
        // InstructionSequence: `    STEP:NAME`.
        const auto colon = line.find(':');
        if (colon == sv::npos)
            return;
        name = line.substr(colon + 1);
        if (name.ends_with('\r'))
            name.remove_suffix(1);
    }
    if (shape.ends_with('\r'))
        shape.remove_suffix(1);
    if (!shape.empty()) {
        hint.shape = shape.data();
        hint.shapeLength = shape.size();
        hint.shapeHash = StringPool::hash(shape);
        self().mainShapes().prefetchSlot(hint.shapeHash);
    }
    if (name.empty())
        return;
    hint.name = name.data();
    hint.length = name.size();
    hint.hash = StringPool::hash(name);
    gd.strings.prefetchSlot(hint.hash);
}

template <class Role> ShapeInfo LineRules<Role>::makeShapeInfo(sv text, std::uint64_t h)
{
    ShapeInfo info;
    info.text = self().intern(text, h);
    const ShapeParseResult parsed = ShapeParser::parse(text);
    if (parsed.ok) {
        info.valid = true;
        const Shape &shape = parsed.shape;
        info.elementType = shape.type;
        info.tupleArity = shape.isTuple() ? static_cast<std::int32_t>(shape.elements.size()) : -1;
        info.memorySpace = static_cast<std::int32_t>(shape.layout.memorySpace);
        std::int64_t bytes = shape.byteSize(8);
        if (bytes > kMaxBytes)
            bytes = -1; // beyond any device: treated like an overflow
        info.bytesKnown = bytes >= 0;
        info.logicalBytes = bytes >= 0 ? bytes : 0;
        if (bytes < 0)
            warn("shape '" + excerpt(text) +
                 "' has an unbounded or overflowing size; its logical bytes count as 0");
    } else {
        warn("cannot read shape '" + excerpt(text) + "': " + parsed.error);
    }
    return info;
}

} // namespace bufferscope::parse_detail
