// The out-of-memory log reader: lines as read, the blocks and lists of a message, its buffers
// and the BFC allocator's lines (detail/OomReader.h).

#include "model/Dump.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ShapeParser.h"
#include "parse/detail/OomLines.h"
#include "parse/detail/OomReader.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <deque>
#include <optional>
#include <unordered_map>

namespace bufferscope::oom_detail {

OomLog Reader::run(sv text)
{
    std::vector<sv> raw;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t nl = text.find('\n', pos);
        if (nl == sv::npos)
            nl = text.size();
        sv l = text.substr(pos, nl - pos);
        while (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        raw.push_back(l);
        pos = nl + 1;
    }
    // A log hard-wrapped at W columns (a terminal, an issue tracker, `fold`): every line
    // longer than W was cut into lines of exactly W columns, mid-word and mid-number
    // ("allocate 12874361776 bytes" read as 128). Such lines are joined with the next
    // before they are read, and the log says so.
    const std::size_t width = wrapWidth(raw);
    m_log.wrappedAt = static_cast<std::int64_t>(width);
    std::string joined;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const std::int64_t lineNo = static_cast<std::int64_t>(i) + 1;
        Cleaned c;
        if (width > 0 && i + 1 < raw.size() && continues(raw[i], raw[i + 1], width)) {
            joined.assign(raw[i]);
            while (i + 1 < raw.size() && continues(raw[i], raw[i + 1], width))
                joined.append(raw[++i]);
            c.text = OomLog::cleanLine(joined);
        } else {
            c.text = OomLog::cleanLine(raw[i]); // a line not wrapped: cleaned from the text
        }
        c.line = lineNo;
        m_lines.push_back(std::move(c));
    }
    rejoinCutPhrases();
    for (m_next = 0; m_next < m_lines.size();) {
        const Cleaned &c = m_lines[m_next++];
        line(c.text, c.line);
    }
    closeBuffer();
    finish();
    return std::move(m_log);
}

void Reader::rejoinCutPhrases()
{
    // Only the phrases that cross the break matter: the end of a line and the start of the
    // next, as long as the longest phrase, are all that is joined to look (a line may be a
    // gigabyte). The lines are compacted in place, not erased one by one (quadratic).
    std::size_t longest = 0;
    for (const sv phrase : kTpuPhrases)
        longest = std::max(longest, phrase.size());
    std::size_t kept = 0;
    bool joined = false; // the last kept line is itself two joined: not joined again
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        if (kept > 0 && !joined) {
            Cleaned &a = m_lines[kept - 1];
            const sv tail = trim(sv(m_lines[i].text));
            if (!a.text.empty() && !m_lines[i].text.empty()) {
                const sv end = sv(a.text).substr(a.text.size() - std::min(a.text.size(), longest));
                const sv begin = tail.substr(0, longest);
                const int apart = phrases(end) + phrases(begin);
                std::string glued = std::string(end) + std::string(begin);
                const bool byGlue = phrases(glued) > apart;
                glued.insert(end.size(), 1, ' ');
                // Joined, they hold a phrase neither holds alone: the break was inside it.
                if (byGlue || phrases(glued) > apart) {
                    if (!byGlue)
                        a.text += ' ';
                    a.text += tail;
                    joined = true;
                    continue;
                }
            }
        }
        if (kept != i)
            m_lines[kept] = std::move(m_lines[i]);
        ++kept;
        joined = false;
    }
    m_lines.resize(kept);
}

int Reader::phrases(sv text)
{
    int n = 0;
    for (const sv phrase : kTpuPhrases)
        for (std::size_t at = text.find(phrase); at != sv::npos;
             at = text.find(phrase, at + phrase.size()))
            ++n;
    return n;
}

bool Reader::continues(sv line, sv next, std::size_t width)
{
    const bool indented = next.size() > 1 && isSpace(next[0]) && isSpace(next[1]);
    // A line that starts with a colour code is a logger's record (Ray colours its tag).
    return columns(line) == width && !line.empty() && !next.empty() && !indented &&
           next.front() != '\x1b' && prefixLength(next) == 0;
}

std::size_t Reader::columns(sv l, std::size_t *widest)
{
    std::size_t c = 0;
    std::size_t most = 0;
    for (const char ch : l) {
        c = ch == '\t' ? (c / 8 + 1) * 8 : ch == '\r' ? 0 : c + 1;
        most = std::max(most, c);
    }
    if (widest)
        *widest = most;
    return c;
}

std::size_t Reader::wrapWidth(const std::vector<sv> &lines)
{
    std::size_t width = 0;
    for (const sv l : lines) {
        std::size_t widest = 0;
        columns(l, &widest);
        width = std::max(width, widest);
    }
    if (width < 40)
        return 0;
    // The pieces of a wrapped log differ from one another; a long line a log repeats
    // (the same Operator: line for three buffers) is one line, however often it comes.
    std::vector<sv> exact;
    std::size_t near = 0;
    for (const sv l : lines) {
        const std::size_t c = columns(l);
        if (c == width)
            exact.push_back(l);
        near += c + 5 >= width;
    }
    const std::size_t atWidth = exact.size();
    std::sort(exact.begin(), exact.end());
    const auto distinct =
        static_cast<std::size_t>(std::unique(exact.begin(), exact.end()) - exact.begin());
    return distinct >= 3 && 2 * atWidth >= near ? width : 0;
}

OomMessage &Reader::event(std::int64_t lineNo, bool conflict)
{
    if (!m_cur || !m_cur->buffers.empty() || m_buffer || conflict) {
        closeBuffer();
        m_messages.emplace_back();
        m_cur = &m_messages.back();
        m_cur->line = lineNo;
    }
    return *m_cur;
}

void Reader::closeBuffer()
{
    if (!m_buffer)
        return;
    readOperator(*m_buffer);
    // Every entry XLA lists prints its shape; one without it was cut short.
    if (m_buffer->shape.empty())
        m_buffer->cut = true;
    if (m_cur)
        m_cur->buffers.push_back(std::move(*m_buffer));
    m_buffer.reset();
}

void Reader::problem(std::int64_t lineNo, std::string message)
{
    if (m_log.problems.size() < 100)
        m_log.problems.push_back({lineNo, std::move(message)});
}

void Reader::line(const std::string &cleaned, std::int64_t lineNo)
{
    const sv body = trim(cleaned);
    if (m_block != Block::None && blockLine(body, lineNo))
        return;
    headline(body, lineNo);
}

bool Reader::blockLine(sv body, std::int64_t lineNo)
{
    if (body.empty()) {
        m_lastWasField = false;
        // Blank lines separate the TPU sections and the GPU buffers; they end nothing.
        return true;
    }
    if (body.starts_with("==========")) {
        closeBuffer();
        m_lastWasField = false;
        return true;
    }
    switch (m_block) {
    case Block::GpuStats:
        if (body == "BufferAssignment stats:")
            return true;
        if (body == "Peak buffers:") {
            m_block = Block::GpuBuffers;
            return true;
        }
        if (auto f = figureLine(body, true)) {
            m_cur->stats.push_back(std::move(*f));
            return true;
        }
        break;
    case Block::TpuUsage:
    case Block::TpuRequirement:
        if (body.starts_with("Largest program allocations")) {
            m_block = Block::TpuBuffers;
            return true;
        }
        if (body.starts_with("Output size")) {
            return true;
        }
        if (auto f = figureLine(body, false)) {
            (m_block == Block::TpuUsage ? m_cur->usage : m_cur->requirement)
                .push_back(std::move(*f));
            return true;
        }
        break;
    case Block::GpuBuffers:
    case Block::TpuBuffers:
        if (startsOver(body))
            break;
        if (bufferLine(body, lineNo))
            return true;
        if (m_lastWasField && m_field != Field::None && m_buffer) {
            // A hard-wrapped field: the terminal or the pasting cut it mid-word.
            OomBuffer &b = *m_buffer;
            if (m_field == Field::Operator)
                b.operatorText += body;
            else if (m_field == Field::Label) {
                b.labelText += body;
            } else if (m_field == Field::Shape)
                b.shape += body;
            return true;
        }
        break;
    case Block::None:
        break;
    }
    closeBuffer();
    m_block = Block::None;
    m_field = Field::None;
    m_lastWasField = false;
    return false;
}

void Reader::readBufferSize(OomBuffer &b, sv text, std::int64_t lineNo)
{
    text = trim(text);
    b.sizeText = std::string(text.substr(0, 64));
    std::size_t n = 0;
    if (auto v = leadingInteger(text, &n); v && n == text.size()) {
        b.size = -1;
        b.cut = true;
        problem(lineNo, "the size \"" + std::string(text.substr(0, 64)) +
                            "\" has no unit: the line was cut, the size is not read");
        return;
    }
    b.size = OomLog::parseSize(text, &b.sizeUlp);
    if (b.size < 0)
        problem(lineNo, "cannot read the size \"" + std::string(text.substr(0, 64)) + "\"");
}

bool Reader::startsOver(sv body) const
{
    bool tpu = false;
    const auto rank = entryRank(body, &tpu);
    if (!rank)
        return false;
    const std::int64_t last = m_buffer                           ? m_buffer->rank
                              : m_cur && !m_cur->buffers.empty() ? m_cur->buffers.back().rank
                                                                 : -1;
    return last >= 0 && *rank <= last;
}

bool Reader::bufferLine(sv body, std::int64_t lineNo)
{

    auto field = [&](Field f) {
        m_field = f;
        m_lastWasField = true;
        return true;
    };
    // GPU `Buffer 3:`; TPU `3. Size: 4.00G`.
    if (body.starts_with("Buffer ") && body.ends_with(':')) {
        if (auto n = leadingInteger(body.substr(7))) {
            closeBuffer();
            m_buffer.emplace();
            m_buffer->rank = *n;
            m_buffer->line = lineNo;
            return field(Field::None);
        }
    }
    std::size_t n = 0;
    if (auto rank = leadingInteger(body, &n); rank && body.substr(n).starts_with(". Size:")) {
        closeBuffer();
        m_buffer.emplace();
        m_buffer->rank = *rank;
        m_buffer->line = lineNo;
        readBufferSize(*m_buffer, body.substr(n + 7), lineNo);
        return field(Field::None);
    }
    if (!m_buffer)
        return false;
    OomBuffer &b = *m_buffer;
    if (startsWithKey(body, "Size:")) {
        readBufferSize(b, body.substr(5), lineNo);
        return field(Field::None);
    }
    if (startsWithKey(body, "Operator:")) {
        b.operatorText = std::string(trim(body.substr(9)));
        return field(Field::Operator);
    }
    if (startsWithKey(body, "XLA Label:")) {
        b.label = std::string(trim(body.substr(10)));
        return field(Field::None);
    }
    if (startsWithKey(body, "XLA label:")) {
        b.labelText = std::string(trim(body.substr(10)));
        b.label = labelName(b.labelText);
        b.labelIsName = true;
        return field(Field::Label);
    }
    if (startsWithKey(body, "Entry Parameter Subshape:")) {
        b.shape = std::string(trim(body.substr(25)));
        b.entryParameter = true;
        b.kind = "entry parameter";
        return field(Field::Shape);
    }
    if (startsWithKey(body, "Shape:")) {
        b.shape = std::string(trim(body.substr(6)));
        return field(Field::Shape);
    }
    if (startsWithKey(body, "Unpadded size:")) {
        b.unpadded = OomLog::parseSize(trim(body.substr(14)));
        return field(Field::None);
    }
    if (startsWithKey(body, "Extra memory due to padding:")) {
        const sv rest = trim(body.substr(28));
        b.padding = sizeAfter(rest, "");
        const std::size_t open = rest.find('(');
        const std::size_t close = rest.rfind(')');
        if (open != sv::npos && close != sv::npos && close > open)
            b.expansion = std::string(rest.substr(open + 1, close - open - 1));
        return field(Field::None);
    }
    if (startsWithKey(body, "Allocation type:")) {
        b.kind = std::string(trim(body.substr(16)));
        return field(Field::None);
    }
    return false;
}

void Reader::moduleNames(sv body, OomMessage &m)
{
    for (std::size_t at = body.find("module_"); at != sv::npos; at = body.find("module_", at + 7)) {
        if (at > 0 &&
            (std::isalnum(static_cast<unsigned char>(body[at - 1])) || body[at - 1] == '_'))
            continue;
        const std::size_t end = skipDigits(body, at + 7);
        if (end == at + 7 ||
            (end < body.size() &&
             (std::isalnum(static_cast<unsigned char>(body[end])) || body[end] == '_')))
            continue; // "module_00x" is a word of its own
        const std::string name(body.substr(at, end - at));
        if (std::find(m.modules.begin(), m.modules.end(), name) == m.modules.end() &&
            m.modules.size() < 16)
            m.modules.push_back(name);
    }
}

std::optional<std::int64_t> Reader::entryRank(sv body, bool *tpu)
{
    std::size_t n = 0;
    if (auto rank = leadingInteger(body, &n); rank && body.substr(n).starts_with(". Size:")) {
        *tpu = true;
        return rank;
    }
    if (body.starts_with("Buffer ") && body.ends_with(':')) {
        std::size_t k = 0;
        if (auto rank = leadingInteger(body.substr(7), &k); rank && 7 + k + 1 == body.size()) {
            *tpu = false;
            return rank;
        }
    }
    return std::nullopt;
}

bool Reader::listEntry(sv body, std::int64_t lineNo)
{
    bool tpu = false;
    const auto rank = entryRank(body, &tpu);
    if (!rank)
        return false;
    const OomMessage::Form form =
        tpu ? OomMessage::Form::Tpu : OomMessage::Form::GpuBufferAssignment;
    std::int64_t last = -1;
    if (m_buffer)
        last = m_buffer->rank;
    else if (m_cur && !m_cur->buffers.empty())
        last = m_cur->buffers.back().rank;
    if (!(m_cur && m_cur->form == form && last >= 0 && *rank == last + 1)) {
        OomMessage &m = event(lineNo, true);
        m.form = form;
        m.startsCut = true;
        if (tpu)
            m.memorySpace = "hbm";
    }
    m_block = tpu ? Block::TpuBuffers : Block::GpuBuffers;
    return bufferLine(body, lineNo);
}

void Reader::bfcLine(sv body)
{
    if (!m_cur)
        return;
    std::int64_t ulp = 0;
    if (body.starts_with("Limit:")) {
        if (const std::int64_t v = OomLog::parseSize(trim(body.substr(6)), &ulp);
            v >= 0 && m_cur->capacity < 0) {
            m_cur->capacity = v;
            m_cur->capacityUlp = ulp;
        }
    } else if (body.starts_with("InUse:")) {
        if (const std::int64_t v = OomLog::parseSize(trim(body.substr(6)), &ulp); v >= 0) {
            m_cur->inUse = v;
            m_cur->inUseUlp = ulp;
        }
    } else if (const std::size_t tag = body.find("xla.execute{"); tag != sv::npos) {
        const std::string e = quotedAfter(body.substr(tag), "executable=");
        std::vector<std::string> &list = m_cur->taggedExecutables;
        if (!e.empty() && list.size() < 16 && std::find(list.begin(), list.end(), e) == list.end())
            list.push_back(e);
    } else if (std::string e = quotedAfter(body, "executable_name="); !e.empty()) {
        if (m_cur->executable.empty()) {
            m_cur->executable = std::move(e);
            m_cur->executableFrom = "executable_name";
        }
    }
}

} // namespace bufferscope::oom_detail
