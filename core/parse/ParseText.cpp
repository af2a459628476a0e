#include "parse/detail/Builder.h"

namespace bufferscope::parse_detail {

std::size_t Builder::usedValuesEnd(sv text, std::size_t from, std::int64_t &line,
                                   MappedFile *mapping)
{
    const char *const base = text.data();
    const std::size_t size = text.size();
    std::size_t p = from;
    std::size_t released = from;
    while (p < size) {
        const char c = base[p];
        if (c != ' ' && c != '<' && c != '\n' &&
            !(c == '\r' && p + 1 < size && base[p + 1] == '\n'))
            return p;
        const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
        if (!nl)
            return size; // the section runs to the end of the file, without a last newline
        ++line;
        p = static_cast<std::size_t>(nl - base) + 1;
        if (mapping && p - released >= kReleaseChunk) {
            mapping->releaseBefore(p); // as the serial loop does: read pages are not kept
            released = p;
        }
    }
    return size;
}

bool Builder::parseText(sv text, std::uint32_t file, MappedFile *mapping, std::int64_t &bytesDone,
                        std::int64_t bytesTotal)
{
    m_file = file;
    m_line = 0;
    m_section = Section::Start;
    if (file == 0 && bytesTotal > 0) {
        // Generated and real dumps hold one distinct name per 600 bytes or more: sized for half
        // that, the tables rarely have to grow (and rehash everything) while parsing.
        const auto expected = static_cast<std::size_t>(bytesTotal) / 1024;
        d.strings.reserve(expected);
        m_valueById.reserve(expected);
        // The big arrays too, generously: capacity that is never written costs address space,
        // not memory, while growing by doubling copies everything and touches twice the pages.
        // Generated dumps have one value per 610 bytes, real ones mostly fewer; capped so a huge
        // file does not ask for more address space than a strict overcommit policy grants.
        const auto records =
            std::min<std::size_t>(static_cast<std::size_t>(bytesTotal) / 512, std::size_t{1} << 25);
        // Memory is faulted in ahead, by the read-ahead's helpers while this thread builds, for
        // fewer records: a page faulted in and never written is time lost (a fresh page costs
        // about as much as parsing 3 KiB of text on the virtual machines we measure on, and two
        // threads fault pages in only a third faster than one), and the few records past it
        // fault in as they come. The positions and uses too: the Used values merge copies every
        // chunk's into them, on this thread alone, and faulting them in there was most of its
        // time. In the order the parse fills them.
        const std::size_t faulted = records * 512 / 640;
        d.values.reserve(records);
        d.instructions.reserve(records);
        d.positions.reserve(records);
        d.uses.reserve(records);
        d.allocationValues.reserve(records);
        d.sequence.reserve(records);
        m_prefault.add(d.values.data(), faulted * sizeof(Value));
        m_prefault.add(d.instructions.data(), faulted * sizeof(Instruction));
        m_prefault.add(d.positions.data(), faulted * sizeof(Position));
        m_prefault.add(d.uses.data(), faulted * sizeof(Use));
    }
    m_stopFile = false;
    m_sawHeader = false;
    const char *const base = text.data();
    std::size_t pos = 0;
    if (text.starts_with(kBom)) {
        d.traits.bom = true;
        pos = kBom.size();
    }
    if (text.empty()) {
        fail(0, "the file is empty; expected an XLA buffer-assignment dump");
        return false;
    }
    // A NUL byte near the start means a binary file; say so instead of listing garbage lines.
    const std::size_t probe = std::min<std::size_t>(text.size(), std::size_t{64} * 1024);
    if (const void *nul = std::memchr(base, '\0', probe)) {
        const auto at = static_cast<std::size_t>(static_cast<const char *>(nul) - base);
        const auto line = 1 + std::count(base, base + at, '\n');
        fail(line, "binary data (a NUL byte) at line " + std::to_string(line) +
                       "; this is not a text buffer-assignment dump");
        return false;
    }
    bool first = true;
    const int threads = threadsFor(m_options.threads);
    bool readAheadAllocations = threads > 1;
    std::size_t lastProgress = 0;
    std::size_t lastRelease = 0;
    std::size_t populated = pos;
    std::uint64_t linesSinceCheck = 0;
    const std::size_t size = text.size();
    LineQueue lines(text, pos, size, m_line);
    m_hints.fill(Hint{});
    QueuedLine current;
    while (!m_stopFile && lines.next(current, *this)) {
        pos = current.begin;
        const bool hasNewline = current.newline;
        const std::size_t end = current.end;
        const std::uint64_t lineOffset = pos;
        ++m_line;
        hintEntry(m_line + static_cast<std::int64_t>(kAhead / 2));
        const sv line = lineText(text, current);
        // The first bytes of the next line, for the glued `from instruction:` check. Only a
        // few bytes are needed, so the (often very long) next line is not scanned twice.
        const sv next =
            hasNewline ? sv(base + end + 1, std::min<std::size_t>(size - end - 1, 16)) : sv();
        if (first && !line.empty()) {
            first = false;
            if (!handleFirstLine(line))
                return false;
        }
        const Section sectionBefore = m_section;
        handleLine(line, lineOffset, next);
        if (m_section != m_timedSection)
            enterSection();
        if (fatal)
            return false;
        pos = hasNewline ? end + 1 : size;
        // The long sections go on other threads: Used values, the InstructionSequence and the
        // BufferLiveRange lines in chunks (at each of their headers), the allocations through
        // the read-ahead (once a file).
        if (m_enterUsedValues && !m_options.usedValues) {
            // Passed over: on to the first line that is not indented, a value block or blank.
            m_enterUsedValues = false;
            const std::size_t resume = usedValuesEnd(text, pos, m_line, mapping);
            pos = lastRelease = resume;
            lines.jump(resume, m_line);
            if (mapping)
                mapping->releaseBefore(resume);
            continue;
        }
        const bool enterUsedValues = m_enterUsedValues && threads > 1;
        m_enterUsedValues = false;
        const bool enterAllocations = m_section == Section::Allocations && readAheadAllocations;
        const bool enterLiveRangeLines =
            threads > 1 && m_section != sectionBefore &&
            (m_section == Section::Sequence || m_section == Section::BufferLiveRange);
        if (enterUsedValues || enterAllocations || enterLiveRangeLines) {
            if (enterAllocations)
                readAheadAllocations = false;
            bytesDone += static_cast<std::int64_t>(pos - lastProgress);
            const std::size_t resume =
                enterUsedValues
                    ? parseUsedValues(text, pos, mapping, threads, bytesDone, bytesTotal)
                : enterAllocations
                    ? readAhead(text, pos, mapping, threads, bytesDone, bytesTotal)
                    : parseLiveRangeLines(text, pos, mapping, threads, bytesDone, bytesTotal,
                                          m_section == Section::Sequence);
            if (resume == sv::npos)
                return false;
            if (enterAllocations)
                m_prefault.finish(threads); // what the helpers had no time for
            pos = lastProgress = lastRelease = resume;
            lines.jump(resume, m_line);
            if (mapping)
                mapping->releaseBefore(resume);
            continue;
        }

        if (++linesSinceCheck >= 4096) {
            linesSinceCheck = 0;
            if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return false;
            }
        }
        if (pos - lastProgress >= kProgressChunk) {
            bytesDone += static_cast<std::int64_t>(pos - lastProgress);
            lastProgress = pos;
            if (m_options.progress)
                m_options.progress(bytesDone, bytesTotal);
        }
        if (mapping && pos - lastRelease >= kReleaseChunk) {
            mapping->releaseBefore(static_cast<std::size_t>(lineOffset));
            lastRelease = pos;
        }
        if (mapping && pos + kPopulateChunk / 2 >= populated) {
            populated = std::max(populated, pos);
            mapping->populate(populated, populated + kPopulateChunk);
            populated += kPopulateChunk;
        }
    }
    m_totalLines += m_line;
    bytesDone += static_cast<std::int64_t>(pos - lastProgress);
    if (m_options.progress)
        m_options.progress(bytesDone, bytesTotal);
    if (first) {
        fail(m_line, "the file holds only blank lines; expected an XLA buffer-assignment dump");
        return false;
    }
    return true;
}

} // namespace bufferscope::parse_detail
