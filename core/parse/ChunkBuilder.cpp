#include "parse/detail/LineRulesImpl.h"

namespace bufferscope::parse_detail {

bool ChunkBuilder::parse(sv text, std::size_t begin, std::size_t end)
{
    const char *const base = text.data();
    const std::size_t size = text.size();
    LineQueue lines(text, begin, end, 0);
    m_hints.fill(Hint{});
    QueuedLine current;
    std::uint64_t linesSinceCheck = 0;
    while (lines.next(current, *this)) {
        // A line outside a value block ends the section: the serial loop goes on from there.
        const sv raw = text.substr(current.begin, current.end - current.begin);
        if (!raw.empty() && raw[0] != ' ' && raw[0] != '<' && raw != "\r") {
            m_sectionEnd = current.begin;
            break;
        }
        ++m_line;
        hintEntry(m_line + static_cast<std::int64_t>(kAhead / 2));
        const sv line = lineText(text, current);
        const sv next = current.newline ? sv(base + current.end + 1,
                                             std::min<std::size_t>(size - current.end - 1, 16))
                                        : sv();
        if (line.empty())
            continue;
        if (line[0] == '<')
            valueHeader(line);
        else
            usedValueLine(line, current.begin, next);
        if (++linesSinceCheck >= 4096) {
            linesSinceCheck = 0;
            if (m_run.stop.stopped())
                return false;
            if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                m_run.stop.stop.store(true, std::memory_order_relaxed);
                return false;
            }
        }
    }
    return !m_run.stop.stopped();
}

template class LineRules<ChunkBuilder>;

} // namespace bufferscope::parse_detail
