#include "parse/detail/Builder.h"

namespace bufferscope::parse_detail {

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
    // NAME{IDX}, as the line prints it: the two are next to each other in the text, so the
    // key runs from the name's first byte to the index's last, a size given, never a C string.
    const sv key(name.data(), // NOLINT(bugprone-suspicious-stringview-data-usage)
                 static_cast<std::size_t>(index.data() + index.size() - name.data()));
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
