#include "parse/detail/Builder.h"

namespace bufferscope::parse_detail {

bool Builder::handleFirstLine(sv line)
{
    if (line.starts_with("BufferAssignment:") || line.starts_with("Total bytes used:") ||
        line.starts_with("Used values:") || line.starts_with("HloLiveRange") ||
        line.starts_with("*** Begin ") || line.starts_with("allocation ")) {
        if (line.starts_with("allocation ")) {
            warn("the file starts with an allocation, not 'BufferAssignment:'; is its head "
                 "missing?");
            m_section = Section::Allocations;
        }
        return true;
    }
    fail(m_line, "not an XLA buffer-assignment dump: line " + std::to_string(m_line) + " reads '" +
                     excerpt(line) +
                     "', expected 'BufferAssignment:' (or 'Total bytes used:' / "
                     "'HloLiveRange' for a split module's other files)");
    return false;
}

void Builder::handleLine(sv line, std::uint64_t offset, sv next)
{
    if (line.empty()) {
        if (m_section == Section::Allocations) {
            m_inCrossColor = false;
            m_allocation = kNone;
            flushColorChecks();
        }
        return;
    }
    const char c0 = line[0];
    if (c0 == ' ') {
        // Indented lines: their meaning depends on the section.
        if (m_section == Section::Allocations) {
            if (line.starts_with(" value: <"))
                return allocationValue(line);
            if (line.starts_with("  value: <") && m_inCrossColor)
                return crossColorValue(line);
            if (line == " reused by buffers of a different color:") {
                if (m_allocation == kNone)
                    warn("a cross-color block outside an allocation");
                m_inCrossColor = true;
                return;
            }
            if (line.find("](#") != sv::npos)
                return logicalBufferLine(line);
            return unrecognized(line, "' value: <ID NAME @C> (size=S,offset=O): SHAPE'");
        }
        if (m_section == Section::UsedValues)
            return usedValueLine(line, offset, next);
        if (m_section == Section::LiveRangeHeader || m_section == Section::Sequence ||
            m_section == Section::BufferLiveRange || m_section == Section::Peak ||
            m_section == Section::StackTrace) {
            if (line == "  InstructionSequence:") {
                m_section = Section::Sequence;
                return;
            }
            if (line == "  BufferLiveRange:") {
                m_section = Section::BufferLiveRange;
                return;
            }
            if (line.starts_with("  Live ranges at "))
                return peakHeader(line);
            if (line.starts_with("  Stack trace breakdown for peak usage: "))
                return stackTraceHeader(line);
            if (line.starts_with("  Peak memory could not be determined")) {
                d.printedPeak.undetermined = true;
                m_section = Section::Done;
                return;
            }
            if (line.starts_with("    ")) {
                switch (m_section) {
                case Section::Sequence:
                    return sequenceLine(line.substr(4));
                case Section::BufferLiveRange:
                    return bufferLiveRange(line.substr(4));
                case Section::Peak:
                    return peakEntry(line.substr(4));
                case Section::StackTrace:
                    return stackTraceLine(line);
                default:
                    break;
                }
            }
            return unrecognized(line, "a line of the HloLiveRange section");
        }
        return unrecognized(line, "a section header");
    }
    if (c0 == '<') {
        if (m_section != Section::UsedValues)
            return warn("value block '" + excerpt(line) + "' outside the 'Used values:' section");
        return valueHeader(line);
    }
    if (line.starts_with("allocation ")) {
        if (m_section != Section::Allocations && m_section != Section::Start)
            warn("allocation header after the allocation list");
        m_section = Section::Allocations;
        return allocationHeader(line);
    }
    if (line == "BufferAssignment:") {
        if (m_sawHeader || m_sawAllocations) {
            warn("a second 'BufferAssignment:' block; this file holds more than one module and "
                 "only the first is read");
            m_stopFile = true;
            return;
        }
        m_sawHeader = true;
        m_section = Section::Allocations;
        return;
    }
    if (line.starts_with("Total bytes used: ")) {
        sv rest = line.substr(18);
        std::int64_t total = 0;
        if (!readInt(rest, total) || total < 0)
            return warn("malformed 'Total bytes used:' line; expected a byte count");
        d.printedTotalBytes = total;
        if (consume(rest, " (")) {
            if (!rest.ends_with(")") || rest.substr(0, rest.size() - 1) != humanBytes(total))
                warn("'Total bytes used' prints " + std::string(rest.substr(0, rest.size() - 1)) +
                     " but " + std::to_string(total) + " bytes are " + humanBytes(total));
        }
        m_section = Section::Total;
        return;
    }
    if (line == "Used values:") {
        m_section = Section::UsedValues;
        d.traits.hasUsedValues = true;
        m_block = Block::None;
        m_blockValue = kNone;
        // The blocks come in ascending id (docs/FORMAT.md): walk the values in that order instead
        // of hashing every id, and fetch the next ones' records ahead of time.
        buildIdOrder();
        m_headerCursor = 0;
        m_enterUsedValues = true;
        return;
    }
    if (line.starts_with("HloLiveRange (max "))
        return liveRangeHeader(line);
    if (line.starts_with("HloLiveRange not available")) {
        d.traits.liveRangeUnavailable = true;
        warn("XLA wrote no live ranges for this module ('" + excerpt(line) +
             "'); memory over time cannot be shown");
        return;
    }
    if (line.starts_with("*** Begin ") || line.starts_with("*** End ")) {
        // --xla_dump_to=- wraps each file in these markers; a second module's markers end it.
        if (line.starts_with("*** End ") && (m_sawAllocations || d.traits.hasUsedValues))
            m_stopFile = true;
        return;
    }
    unrecognized(line, "a section header ('BufferAssignment:', 'allocation N: ...', "
                       "'Total bytes used:', 'Used values:' or 'HloLiveRange')");
}

void Builder::allocationHeader(sv line)
{
    m_inCrossColor = false;
    m_allocation = kNone;
    flushColorChecks();
    sv rest = line.substr(11);
    std::int64_t index = 0;
    if (!readInt(rest, index) || index < 0 || !consume(rest, ": "))
        return warn("malformed allocation header; expected 'allocation N: size S...:'");
    if (rest.ends_with(":"))
        rest.remove_suffix(1);
    else
        warn("allocation header does not end with ':'; the line may be cut off");
    Allocation a;
    a.index = index;
    a.file = m_file;
    a.line = m_line;
    if (rest.starts_with("0x")) {
        const auto comma = rest.find(", ");
        sv hex = rest.substr(2, comma == sv::npos ? sv::npos : comma - 2);
        std::uint64_t pointer = 0;
        auto [p, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), pointer, 16);
        if (ec != std::errc() || p != hex.data() + hex.size())
            warn("malformed allocation address '" + excerpt(hex) + "'");
        a.pointer = pointer;
        d.traits.allocationPointers = true;
        rest = comma == sv::npos ? sv() : rest.substr(comma + 2);
    }
    if (!consume(rest, "size ") || !readInt(rest, a.size))
        return warn("allocation header without 'size N'" + overflowNote(line));
    if (a.size < 0) {
        warn("allocation " + std::to_string(index) + " has a negative size " +
             std::to_string(a.size) + "; counted as 0");
        a.size = 0;
    } else if (a.size > kMaxBytes || m_allocationBytes + a.size > kMaxSum) {
        warn("allocation " + std::to_string(index) + " has size " + std::to_string(a.size) +
             (a.size > kMaxBytes ? ", beyond 256 TiB" : ", which takes the total beyond 4 EiB") +
             "; counted as 0");
        a.size = 0;
    }
    m_allocationBytes += a.size;
    while (!rest.empty()) {
        if (!consume(rest, ", ")) {
            warn("unexpected text '" + excerpt(rest) + "' in allocation header");
            break;
        }
        std::int64_t n = 0;
        if (consume(rest, "color ")) {
            if (!readInt(rest, n) || n < 0 || n > 0x7fffffff)
                warn("bad 'color N' in allocation header");
            a.color = static_cast<std::int32_t>(std::clamp<std::int64_t>(n, 0, 0x7fffffff));
        } else if (consume(rest, "page ")) {
            if (!readInt(rest, a.page))
                warn("bad 'page N' in allocation header");
        } else if (consume(rest, "parameter ")) {
            if (!readInt(rest, a.parameterNumber) || a.parameterNumber < 0)
                warn("bad 'parameter N' in allocation header");
            a.isParameter = true;
            if (consume(rest, ", shape |")) {
                const auto bar = rest.find('|');
                if (bar == sv::npos) {
                    warn("parameter shape without closing '|'");
                    break;
                }
                a.parameterShape = d.strings.intern(rest.substr(0, bar));
                rest.remove_prefix(bar + 1);
            }
            if (consume(rest, " at ShapeIndex ")) {
                const auto close = rest.find('}');
                if (close == sv::npos || !validIndex(rest.substr(0, close + 1))) {
                    warn("bad ShapeIndex in allocation header");
                    break;
                }
                a.parameterIndex = d.strings.intern(rest.substr(0, close + 1));
                rest.remove_prefix(close + 1);
            }
        } else if (consume(rest, "output shape is |")) {
            const auto bar = rest.find('|');
            if (bar == sv::npos) {
                warn("output shape without closing '|'");
                break;
            }
            a.outputShape = d.strings.intern(rest.substr(0, bar));
            rest.remove_prefix(bar + 1);
        } else if (consume(rest, "constant")) {
            a.isConstant = true;
        } else if (consume(rest, "thread-local")) {
            a.isThreadLocal = true;
        } else if (consume(rest, "maybe-live-out")) {
            a.isMaybeLiveOut = true;
        } else if (consume(rest, "preallocated-temp")) {
            a.isPreallocatedTemp = true;
        } else {
            const auto comma = rest.find(", ");
            warn("unknown allocation attribute '" +
                 excerpt(rest.substr(0, comma == sv::npos ? rest.size() : comma)) + "'");
            if (comma == sv::npos)
                break;
            rest.remove_prefix(comma);
        }
    }
    if (index != static_cast<std::int64_t>(d.allocations.size()))
        warn("allocation " + std::to_string(index) + " is listed at position " +
             std::to_string(d.allocations.size()) + "; XLA numbers allocations 0..n-1 in order");
    // Indices seen so far, by hash: a linear scan here was quadratic in the allocation count.
    if (const std::uint32_t first = m_allocationByIndex.insert(
            static_cast<std::uint64_t>(index), static_cast<std::uint32_t>(d.allocations.size()));
        first != d.allocations.size())
        warn("allocation index " + std::to_string(index) + " appears twice (first at line " +
             std::to_string(d.allocations[first].line) + ")");
    a.firstValue = static_cast<std::uint32_t>(d.allocationValues.size());
    a.firstCrossColor = static_cast<std::uint32_t>(d.crossColorValues.size());
    m_allocation = static_cast<std::uint32_t>(d.allocations.size());
    d.allocations.push_back(a);
    m_sawAllocations = true;
}

std::uint32_t Builder::addValue(const ShortValue &s, std::uint32_t allocation, std::int64_t offset,
                                std::int64_t size, sv shape, const LineHashes *hashes)
{
    const auto index = static_cast<std::uint32_t>(d.values.size());
    const std::uint32_t existing = m_valueById.insert(static_cast<std::uint64_t>(s.id), index);
    if (existing != index) {
        const Value &first = d.values[existing];
        warn("value " + std::to_string(s.id) + " is listed again (first in allocation " +
                 (first.allocation == kNone
                      ? std::string("none")
                      : std::to_string(d.allocations[first.allocation].index)) +
                 " at line " + std::to_string(first.line) + "); this listing is ignored",
             existing);
        return kNone;
    }
    Value v;
    v.id = s.id;
    v.instruction = instructionFor(hashes ? intern(s.name, hashes->name) : internHinted(s.name));
    v.index = indexOrEmpty(s.index);
    v.printedIndex = !s.index.empty();
    v.phi = s.phi;
    v.color = s.color;
    v.allocation = allocation;
    v.file = m_file;
    v.line = m_line;
    if (offset < 0 || size < 0) {
        warn("value " + std::to_string(s.id) + " has a negative " +
                 (offset < 0 ? "offset" : "size") + "; counted as 0",
             index);
        offset = std::max<std::int64_t>(offset, 0);
        size = std::max<std::int64_t>(size, 0);
    }
    if (offset > kMaxBytes || size > kMaxBytes || m_valueBytes + size > kMaxSum) {
        warn("value " + std::to_string(s.id) + " has " +
                 (offset > kMaxBytes || size > kMaxBytes
                      ? std::string(offset > kMaxBytes ? "an offset" : "a size") + " beyond 256 TiB"
                      : std::string("a size that takes the total beyond 4 EiB")) +
                 "; its offset and size count as 0",
             index);
        offset = 0;
        size = 0;
    }
    m_valueBytes += size;
    v.offset = offset;
    v.size = size;
    v.shape = shape.empty() ? 0 : hashes ? shapeFor(shape, hashes->shape) : shapeHinted(shape);
    if (allocation != kNone) {
        const Allocation &a = d.allocations[allocation];
        std::int64_t endByte = 0;
        if (__builtin_add_overflow(offset, size, &endByte) || endByte > a.size)
            warn("value " + std::to_string(s.id) + " [" + std::to_string(offset) + ", +" +
                     std::to_string(size) + ") reaches past the end of allocation " +
                     std::to_string(a.index) + " (size " + std::to_string(a.size) + ")",
                 index);
        if (v.color != a.color)
            m_colorChecks.push_back({index, allocation, m_file, m_line});
        d.allocationValues.push_back(index);
        ++d.allocations[allocation].valueCount;
    }
    d.values.push_back(v);
    return index;
}

bool Builder::valueLineHasAllocation()
{
    if (m_allocation == kNone) {
        warn("a value line outside any allocation");
        return false;
    }
    if (d.allocations[m_allocation].firstValue + d.allocations[m_allocation].valueCount !=
        d.allocationValues.size()) {
        warn("a value line separated from its allocation header");
        return false;
    }
    return true;
}

void Builder::allocationValue(const Token &token)
{
    if (valueLineHasAllocation())
        addValue(token.value, m_allocation, token.a, token.b, token.shape, &token.hashes);
}

void Builder::allocationValue(sv line)
{
    if (!valueLineHasAllocation())
        return;
    ShortValue s;
    std::int64_t size = 0;
    std::int64_t offset = 0;
    sv shape;
    if (!parseValueLine(line, s, offset, size, shape, m_error))
        return warn(m_error);
    addValue(s, m_allocation, offset, size, shape);
}

void Builder::crossColorValue(sv line)
{
    ShortValue s;
    sv rest;
    if (!parseShort(line.substr(9), s, rest, m_error))
        return warn("malformed cross-color value line: " + m_error);
    const std::uint32_t index = m_valueById.find(static_cast<std::uint64_t>(s.id));
    if (index == FlatMap64::kMissing)
        return warn("cross-color block names value " + std::to_string(s.id) +
                    " which is not listed in any allocation");
    if (m_allocation == kNone)
        return;
    d.crossColorValues.push_back(index);
    d.crossColorPrinted.push_back(s.color);
    ++d.allocations[m_allocation].crossColorCount;
}

void Builder::flushColorChecks()
{
    for (const ColorCheck &c : m_colorChecks) {
        const Allocation &a = d.allocations[c.allocation];
        Value &v = d.values[c.value];
        bool listed = false;
        for (std::uint32_t i = 0; i < a.crossColorCount && !listed; ++i)
            listed = d.crossColorValues[a.firstCrossColor + i] == c.value;
        if (listed) {
            // Placed in an allocation of another colour on purpose (XLA PR #44279): it takes up
            // that memory space, so it counts there (docs/FORMAT.md Part B §3.2).
            v.color = a.color;
            continue;
        }
        if (d.warnings.size() >= m_options.maxWarnings) {
            ++d.suppressedWarnings;
            continue;
        }
        d.warnings.push_back({Severity::Warning, c.file, c.line,
                              "value " + std::to_string(v.id) + " has memory space @" +
                                  std::to_string(v.color) + " but allocation " +
                                  std::to_string(a.index) + " has color " + std::to_string(a.color),
                              c.value});
    }
    m_colorChecks.clear();
}

void Builder::logicalBufferLine(sv line)
{
    // 2019 LogicalBuffer era: `  name[i,j](#id @c) [offset,size]: shape`
    d.traits.logicalBufferEra = true;
    if (m_allocation == kNone)
        return warn("a buffer line outside any allocation");
    sv rest = line;
    while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
    const auto marker = rest.find("](#");
    const auto open = rest.substr(0, marker).rfind('[');
    if (open == sv::npos)
        return warn(
            "malformed LogicalBuffer line; expected 'name[i](#id @c) [offset,size]: shape'");
    ShortValue s;
    s.name = rest.substr(0, open);
    const sv idx = rest.substr(open + 1, marker - open - 1);
    std::string index = "{" + std::string(idx) + "}";
    rest.remove_prefix(marker + 3);
    const auto close = rest.find(')');
    if (close == sv::npos)
        return warn("malformed LogicalBuffer line; expected ')' after the id");
    sv inner = rest.substr(0, close);
    rest.remove_prefix(close + 1);
    std::int64_t color = 0;
    if (!readInt(inner, s.id) || s.id < 0 || s.id > kMaxValueId || !consume(inner, " @") ||
        !readInt(inner, color))
        return warn("malformed LogicalBuffer id; expected '(#ID @COLOR)'");
    s.color = color < 0 ? 0 : static_cast<std::int32_t>(std::min<std::int64_t>(color, 0x7fffffff));
    std::int64_t offset = 0;
    std::int64_t size = 0;
    if (!consume(rest, " [") || !readInt(rest, offset) || !consume(rest, ",") ||
        !readInt(rest, size) || !consume(rest, "]:"))
        return warn("malformed LogicalBuffer line; expected ' [offset,size]: shape'");
    consume(rest, " ");
    if (!validName(s.name) || !validIndex(index))
        return warn("malformed LogicalBuffer name '" + excerpt(s.name) + "'");
    const StringId indexId = d.strings.intern(index);
    s.index = d.strings.view(indexId);
    const std::uint32_t v = addValue(s, m_allocation, offset, size, rest);
    if (v != kNone)
        d.values[v].printedIndex = idx.size() > 0;
}

} // namespace bufferscope::parse_detail
