#include "parse/detail/Builder.h"

namespace bufferscope::parse_detail {

void Builder::valueHeader(sv line)
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
    const std::vector<std::uint32_t> &idOrder = G().m_idOrder;
    std::uint32_t index = FlatMap64::kMissing;
    if (m_headerCursor < idOrder.size() && gd.values[idOrder[m_headerCursor]].id == s.id) {
        index = idOrder[m_headerCursor++];
    } else {
        index = G().m_valueById.find(static_cast<std::uint64_t>(s.id));
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
    if (index == FlatMap64::kMissing && m_main) {
        // A value in no allocation gets a record of its own: the serial path numbers those.
        m_main->needSerial("a value block of a value in no allocation", s.id);
        return;
    }
    if (index == FlatMap64::kMissing) {
        warn("value " + std::to_string(s.id) +
             " is listed under 'Used values' but in no allocation; shown as unallocated");
        index = addValue(s, kNone, 0, 0, {});
        if (index == kNone)
            return;
    } else {
        const Value &v = gd.values[index];
        if (gd.valueName(v) != s.name || (!s.index.empty() && gd.str(v.index) != s.index))
            warn("value " + std::to_string(s.id) + " is called '" + excerpt(line) + "' here but '" +
                     gd.valueDisplayName(v) + "' in its allocation",
                 index);
    }
    if (m_main) {
        // Each value's block is read once; a second one, in this chunk or another, is for the
        // serial path to report in file order.
        if (m_main->m_sharedSeen[index].exchange(1, std::memory_order_relaxed) != 0) {
            m_main->needSerial("a second block for a value", s.id);
            return;
        }
        m_blocks.push_back(index);
        m_blockFlags.push_back(0);
        m_blockValue = index;
        m_block = Block::Header;
        return;
    }
    if (index >= m_blockSeen.size())
        m_blockSeen.resize(std::max<std::size_t>(d.values.size(), index + 1) * 2, 0);
    if (m_blockSeen[index]) {
        warn("value " + std::to_string(s.id) + " has a second 'Used values' block; ignored", index);
        m_block = Block::Done;
        return;
    }
    m_blockSeen[index] = 1;
    m_blockValue = index;
    m_block = Block::Header;
}

void Builder::resyncHeaderCursor(std::uint32_t index)
{
    // Ids ascend along m_idOrder, the id-less values (-1) last.
    const std::vector<std::uint32_t> &idOrder = G().m_idOrder;
    const std::int64_t id = gd.values[index].id;
    const auto at = std::lower_bound(idOrder.begin(), idOrder.end(), id,
                                     [this](std::uint32_t i, std::int64_t wanted) {
                                         const std::int64_t have = gd.values[i].id;
                                         return have >= 0 && have < wanted;
                                     });
    if (at != idOrder.end() && *at == index)
        m_headerCursor = static_cast<std::size_t>(at - idOrder.begin()) + 1;
}

void Builder::position(sv text)
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
        p.instruction = instructionFor(internHinted(name));
    p.index = index.empty() ? kNoString : internRecent(index);
    d.positions.push_back(p);
    ++gd.values[m_blockValue].positionCount;
}

void Builder::use(sv text)
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
    u.instruction = instructionFor(internHinted(name));
    d.uses.push_back(u);
    ++gd.values[m_blockValue].useCount;
}

namespace {
/// Whether `ahead` (the first bytes of a line) is exactly ` positions:`.
bool isPositionsLine(sv ahead)
{
    constexpr sv kPositions = " positions:";
    if (!ahead.starts_with(kPositions))
        return false;
    ahead.remove_prefix(kPositions.size());
    return ahead.empty() || ahead.front() == '\n' || ahead.starts_with("\r\n") || ahead == "\r";
}
} // namespace

void Builder::fromInstruction(sv line, std::uint64_t offset, sv next)
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
        Value &v = gd.values[m_blockValue];
        if (v.usesState == UsesState::Missing && m_block != Block::Uses)
            warn("value block without a ' uses:' line", m_blockValue);
        instructionText(text, textOffset, v.instruction);
    }
    m_block = Block::Done;
    if (!glued.empty())
        valueHeader(glued);
}

void Builder::instructionText(sv text, std::uint64_t offset, std::uint32_t instruction)
{
    if (m_main) {
        // Chunks are cut between instructions, so each reads the text of its own; one that
        // comes back in a later chunk is for the serial path.
        std::uint32_t owner = 0;
        if (!m_main->m_textOwner[instruction].compare_exchange_strong(owner, m_chunk + 1) &&
            owner != m_chunk + 1) {
            m_main->needSerial("an instruction's text in two chunks", instruction);
            return;
        }
    }
    Instruction &ins = gd.instructions[instruction];
    if (ins.hasText)
        return; // the other elements of a tuple instruction repeat the same text
    if (m_main)
        m_claimed.push_back(instruction);
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
        if (eqPos == sv::npos || eqPos > 64)
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
            *target = escaped ? intern(safetext::unescapeC(value)) : internRecent(value);
    }
}

void Builder::liveRangeHeader(sv line)
{
    sv rest = line.substr(18);
    std::int64_t max = 0;
    if (!readInt(rest, max) || max < 0 || rest != "):")
        return warn("malformed 'HloLiveRange (max N):' line");
    if (d.traits.hasLiveRange)
        return warn("a second HloLiveRange section; ignored");
    d.traits.hasLiveRange = true;
    d.printedMax = max;
    m_liveRangeLine = m_line;
    m_liveRangeFile = m_file;
    m_section = Section::LiveRangeHeader;
}

void Builder::sequenceLine(sv text)
{
    std::int64_t step = 0;
    sv name;
    if (!parseSequenceLine(text, step, name, m_error))
        return warn(m_error);
    sequenceStep(step, name, internHinted(name));
}

void Builder::sequenceStep(std::int64_t step, sv name, StringId nameId)
{
    if (step != static_cast<std::int64_t>(d.sequence.size()))
        warn("InstructionSequence step " + std::to_string(step) + " where " +
             std::to_string(d.sequence.size()) + " was expected; steps are taken in file order");
    const std::uint32_t ins = instructionFor(nameId);
    if (d.instructions[ins].step >= 0)
        warn("instruction '" + std::string(name) + "' is scheduled twice (steps " +
             std::to_string(d.instructions[ins].step) + " and " +
             std::to_string(d.sequence.size()) + ")");
    else
        d.instructions[ins].step = static_cast<std::int64_t>(d.sequence.size());
    d.sequence.push_back(ins);
}

std::uint32_t Builder::findValueByKey(sv name, sv index)
{
    buildValueByKey(); // on the first live range out of id order: by then every value is known
    return lookupValueByKey(name, index);
}

bool Builder::buildValueByKey()
{
    if (m_keyMapBuilt)
        return m_keysUnique;
    m_keyMapBuilt = true;
    m_valueByKey = FlatMap64(d.values.size() + 16);
    for (std::uint32_t i = 0; i < d.values.size(); ++i) {
        const Value &v = d.values[i];
        const std::uint64_t key = (static_cast<std::uint64_t>(v.instruction) << 32) | v.index;
        m_keysUnique = m_valueByKey.insert(key, i) == i && m_keysUnique;
    }
    return m_keysUnique;
}

std::uint32_t Builder::lookupValueByKey(sv name, sv index) const
{
    const StringId nameId = d.strings.find(name);
    const StringId indexId = d.strings.find(index);
    if (nameId == kNoString || indexId == kNoString || nameId >= m_instructionByName.size() ||
        m_instructionByName[nameId] == kNone)
        return FlatMap64::kMissing;
    return m_valueByKey.find((static_cast<std::uint64_t>(m_instructionByName[nameId]) << 32) |
                             indexId);
}

void Builder::buildIdOrder()
{
    // Ids are unique (addValue drops a repeat); only live-range-only values have none (-1), and
    // they go last in the order they were added.
    const std::size_t n = d.values.size();
    m_idOrder.resize(n);
    std::int64_t maxId = -1;
    for (const Value &v : d.values)
        maxId = std::max(maxId, v.id);
    if (maxId >= 0 && static_cast<std::uint64_t>(maxId) < 4 * static_cast<std::uint64_t>(n)) {
        // XLA numbers values densely from 0: place each value at its id, in O(n).
        std::vector<std::uint32_t> at(static_cast<std::size_t>(maxId) + 1, kNone);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (d.values[i].id >= 0)
                at[static_cast<std::size_t>(d.values[i].id)] = i;
        }
        std::size_t k = 0;
        for (const std::uint32_t i : at) {
            if (i != kNone)
                m_idOrder[k++] = i;
        }
        for (std::uint32_t i = 0; i < n; ++i) {
            if (d.values[i].id < 0)
                m_idOrder[k++] = i;
        }
        return;
    }
    std::iota(m_idOrder.begin(), m_idOrder.end(), 0u);
    std::stable_sort(m_idOrder.begin(), m_idOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
        const std::int64_t ia = d.values[a].id;
        const std::int64_t ib = d.values[b].id;
        if ((ia < 0) != (ib < 0))
            return ib < 0;
        return ia < ib;
    });
}

void Builder::bufferLiveRange(sv text)
{
    // BufferLiveRange lists the values in ascending id (docs/FORMAT.md 7.2), so the next line is
    // nearly always the value after the previous one in id order: check that guess first. The
    // order built for Used values serves unless values were added since.
    std::int64_t start = 0;
    std::int64_t end = 0;
    sv name;
    sv index;
    if (!parseLiveRangeLine(text, name, index, start, end, m_error))
        return warn(m_error);
    liveRange(name, index, start, end);
}

void Builder::liveRange(sv name, sv index, std::int64_t start, std::int64_t end)
{
    if (m_idOrder.size() != d.values.size())
        buildIdOrder();
    // NAME{IDX}, as the line prints it: the two are next to each other in the text.
    const sv key(name.data(), static_cast<std::size_t>(index.data() + index.size() - name.data()));
    std::uint32_t value = FlatMap64::kMissing;
    if (m_liveCursor < m_idOrder.size()) {
        const std::uint32_t guess = m_idOrder[m_liveCursor];
        if (isValueCalled(guess, name, index)) {
            value = guess;
            ++m_liveCursor;
        }
    }
    if (value == FlatMap64::kMissing)
        value = findValueByKey(name, index);
    if (value == FlatMap64::kMissing) {
        warn("live range for '" + excerpt(key) +
             "', which is in no allocation; shown as an unallocated value");
        // Unallocated values get ids after every real one (in finish()), so ascending-id order
        // still holds.
        Value v;
        v.id = -1;
        v.instruction = instructionFor(d.strings.intern(name));
        v.index = d.strings.intern(index);
        v.printedIndex = index != "{}";
        v.file = m_file;
        v.line = m_line;
        value = static_cast<std::uint32_t>(d.values.size());
        d.values.push_back(v);
        // Id-less values go last in id order, in the order they come: keep the order in step
        // rather than rebuild it for the next line.
        m_idOrder.push_back(value);
    }
    Value &v = d.values[value];
    if (v.start >= 0)
        return warn("second live range for '" + excerpt(key) + "'; ignored", value);
    if (start > end)
        return warn("live range of '" + excerpt(key) + "' runs backwards (" +
                        std::to_string(start) + " > " + std::to_string(end) + "); ignored",
                    value);
    if (d.printedMax >= 0 && end > d.printedMax) {
        warn("live range of '" + excerpt(key) + "' ends at " + std::to_string(end) +
                 ", after max " + std::to_string(d.printedMax) + "; cut at max",
             value);
        end = d.printedMax;
        start = std::min(start, end);
    }
    v.start = start;
    v.end = end;
    m_maxEnd = std::max(m_maxEnd, end);
}

void Builder::peakHeader(sv line)
{
    sv rest = line.substr(17);
    std::int64_t step = 0;
    if (!readInt(rest, step) || step < 0 || rest != " (peak):")
        return warn("malformed 'Live ranges at T (peak):' line");
    d.printedPeak.present = true;
    d.printedPeak.step = step;
    d.printedPeak.file = m_file;
    d.printedPeak.line = m_line;
    m_section = Section::Peak;
}

void Builder::peakEntry(sv text)
{
    const auto colon = text.find(": ");
    if (colon == sv::npos)
        return warn("malformed peak entry; expected 'NAME: N bytes'");
    PeakEntry e;
    sv name;
    sv index;
    splitIndex(text.substr(0, colon), name, index);
    sv rest = text.substr(colon + 2);
    if (!readInt(rest, e.bytes) || e.bytes < 0 || !consume(rest, " bytes"))
        return warn("malformed peak entry; expected 'NAME: N bytes'" + overflowNote(text));
    if (e.bytes > kMaxBytes || d.printedPeak.bytes + e.bytes > kMaxSum)
        return warn("peak entry of " + std::to_string(e.bytes) +
                    " bytes is beyond any device; ignored");
    PeakFormat format = index.empty() ? PeakFormat::V1 : PeakFormat::V2;
    if (consume(rest, " (cumulative: ")) {
        if (!readInt(rest, e.cumulative) || rest != " bytes)")
            return warn("malformed cumulative count in peak entry");
        format = PeakFormat::V3;
    } else if (!rest.empty()) {
        return warn("unexpected text after peak entry bytes");
    }
    if (!validName(name) || (!index.empty() && !validIndex(index)))
        return warn("malformed peak entry name '" + excerpt(text.substr(0, colon)) + "'");
    auto &peak = d.printedPeak;
    if (peak.format == PeakFormat::None)
        peak.format = format;
    else if (peak.format != format)
        warn("peak entries mix formats");
    e.name = d.strings.intern(name);
    e.index = index.empty() ? kNoString : d.strings.intern(index);
    peak.bytes += e.bytes;
    if (e.cumulative >= 0 && e.cumulative != peak.bytes)
        warn("cumulative " + std::to_string(e.cumulative) + " bytes is not the running sum " +
             std::to_string(peak.bytes));
    peak.entries.push_back(e);
    m_peakLines.push_back(m_line);
}

namespace {
bool parseSpaced(sv text, std::int64_t &out)
{
    out = 0;
    bool any = false;
    for (char c : text) {
        if (c == ' ')
            continue;
        if (c < '0' || c > '9' || __builtin_mul_overflow(out, 10, &out) ||
            __builtin_add_overflow(out, c - '0', &out))
            return false;
        any = true;
    }
    return any;
}
} // namespace

void Builder::stackTraceHeader(sv line)
{
    sv rest = line.substr(40);
    if (!rest.ends_with(" bytes") ||
        !parseSpaced(rest.substr(0, rest.size() - 6), d.printedPeak.stackTraceBytes))
        warn("malformed stack-trace header");
    if (d.printedPeak.format == PeakFormat::V3)
        d.printedPeak.format = PeakFormat::V4;
    m_section = Section::StackTrace;
}

void Builder::stackTraceLine(sv line)
{
    // Node names are free text, so the numbers are read from the end of the line.
    const auto open = line.rfind(" (");
    if (open == sv::npos || !line.ends_with(" bytes)"))
        return warn("malformed stack-trace line");
    sv stats = line.substr(open + 2, line.size() - open - 3);
    StackTraceNode node;
    const auto pct = stats.find("%, total: ");
    const auto cur = stats.find(" bytes, current: ");
    const auto rem = stats.find(" bytes, remaining: ");
    if (pct == sv::npos || cur == sv::npos || rem == sv::npos || !stats.ends_with(" bytes"))
        return warn("malformed stack-trace line");
    // from_chars, not strtod: the process locale may want a decimal comma.
    const sv percent = stats.substr(0, pct);
    if (std::from_chars(percent.data(), percent.data() + percent.size(), node.percent).ec !=
            std::errc() ||
        !parseSpaced(stats.substr(pct + 10, cur - pct - 10), node.total) ||
        !parseSpaced(stats.substr(cur + 17, rem - cur - 17), node.current) ||
        !parseSpaced(stats.substr(rem + 19, stats.size() - rem - 19 - 6), node.remaining))
        return warn("malformed numbers in stack-trace line");
    // Columns, not bytes: the tree prefix uses 3-byte UTF-8 box-drawing characters.
    sv head = line.substr(0, open);
    std::size_t columns = 0;
    bool connector = false;
    std::size_t i = 0;
    while (i < head.size()) {
        if (head[i] == ' ') {
            ++columns;
            ++i;
        } else if (head.substr(i).starts_with("\u2502")) { // │
            ++columns;
            i += 3;
        } else if (head.substr(i).starts_with("\u251c\u2500\u2500 ") ||
                   head.substr(i).starts_with("\u2514\u2500\u2500 ")) { // ├── └──
            connector = true;
            columns += 4;
            i += 10;
            break;
        } else {
            break;
        }
    }
    node.name.assign(head.substr(i));
    node.depth = connector ? 1 + static_cast<int>(columns > 10 ? (columns - 10) / 4 : 0) : 0;
    d.printedPeak.stackTrace.push_back(std::move(node));
}

} // namespace bufferscope::parse_detail
