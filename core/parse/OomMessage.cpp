#include "OomMessage.h"

#include "model/Dump.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ShapeParser.h"
#include "parse/detail/OomLines.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <deque>
#include <optional>
#include <unordered_map>

namespace bufferscope {

double OomBuffer::expansionFactor() const
{
    if (!expansion.empty()) {
        // "128.0x expansion": the number before the x.
        double printed = 0;
        const char *first = expansion.data();
        const char *last = first + expansion.size();
        const auto [end, ec] = std::from_chars(first, last, printed); // no locale
        if (ec == std::errc() && end != last && *end == 'x' && printed > 0)
            return printed;
    }
    if (size > 0 && unpadded > 0)
        return double(size) / double(unpadded);
    if (size > 0 && padding >= 0 && size > padding)
        return double(size) / double(size - padding);
    return 0;
}

using namespace oom_detail;

namespace {

enum class Block : std::uint8_t
{
    None,
    GpuStats,
    GpuBuffers,
    TpuUsage,
    TpuRequirement,
    TpuBuffers,
};

/// The phrases that announce a TPU compiler's or runtime's message (docs/FORMAT.md §4.1).
constexpr sv kTpuPhrases[] = {sv("Ran out of memory"),
                              sv("Error loading program"),
                              sv("Error allocating device buffer"),
                              sv("RuntimeProgramAllocationFailure"),
                              sv("RuntimeBufferAllocationFailure"),
                              sv("CompileTimeHbmOom"),
                              sv("CompileTimeScopedVmemOom"),
                              sv("CompileTimeSparseCoreAllocationFailure"),
                              sv("TensorCore Hbm usage"),
                              sv("program HBM usage:"),
                              sv("program VMEM usage:")};

class Reader
{
public:
    OomLog run(sv text)
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
            joined.assign(raw[i]);
            while (width > 0 && i + 1 < raw.size() && continues(raw[i], raw[i + 1], width))
                joined.append(raw[++i]);
            Cleaned c;
            c.text = OomLog::cleanLine(joined);
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

    /// A line break inside a TPU message's announcing phrase ("Ran out of m" / "emory on HBM"),
    /// where a terminal or `fold` cut a log too short to tell its width: the two lines are
    /// read as one, glued, or with a space where the break was at one.
    void rejoinCutPhrases()
    {
        for (std::size_t i = 0; i + 1 < m_lines.size(); ++i) {
            Cleaned &a = m_lines[i];
            const Cleaned &b = m_lines[i + 1];
            if (a.text.empty() || b.text.empty())
                continue;
            const sv tail = trim(sv(b.text));
            const int apart = phrases(a.text) + phrases(tail);
            std::string glued = a.text + std::string(tail);
            std::string spaced = a.text + " " + std::string(tail);
            // Joined, they hold a phrase neither holds alone: the break was inside it.
            const bool byGlue = phrases(glued) > apart;
            if (!byGlue && phrases(spaced) <= apart)
                continue;
            a.text = byGlue ? std::move(glued) : std::move(spaced);
            m_lines.erase(m_lines.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        }
    }

    /// How many of the TPU messages' phrases a line holds.
    static int phrases(sv text)
    {
        int n = 0;
        for (const sv phrase : kTpuPhrases)
            for (std::size_t at = text.find(phrase); at != sv::npos;
                 at = text.find(phrase, at + phrase.size()))
                ++n;
        return n;
    }

    /// Whether `next` is the rest of `line`, cut at `width`: `next` is not indented (an
    /// indented line of a list is a line of its own; a cut before a space leaves one) and does
    /// not start with a logger's prefix (a record of its own), as the next line after one that
    /// was exactly `width` wide usually does.
    static bool continues(sv line, sv next, std::size_t width)
    {
        const bool indented = next.size() > 1 && isSpace(next[0]) && isSpace(next[1]);
        // A line that starts with a colour code is a logger's record (Ray colours its tag).
        return columns(line) == width && !line.empty() && !next.empty() && !indented &&
               next.front() != '\x1b' && prefixLength(next) == 0;
    }

    /// The column a line ends at, as a terminal or `fold` counts: a tab to the next multiple of
    /// 8, a carriage return back to 0 (a progress line rewritten in place). `widest` gets the
    /// farthest column the line reached.
    static std::size_t columns(sv l, std::size_t *widest = nullptr)
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

    /// The width a log was hard-wrapped at, or 0: the widest lines (40 columns or more) are
    /// all of one width, at least three different ones, and they are most of the lines within
    /// five columns of it — a log written as it ran has lines of every length.
    static std::size_t wrapWidth(const std::vector<sv> &lines)
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

private:
    /// A line as read, without what loggers put around it.
    struct Cleaned
    {
        std::string text;
        std::int64_t line = 0;
    };
    std::vector<Cleaned> m_lines;
    std::size_t m_next = 0; ///< the next line to read
    OomLog m_log;
    std::deque<OomMessage> m_messages; ///< stable addresses for m_cur
    OomMessage *m_cur = nullptr;
    Block m_block = Block::None;
    bool m_lastWasField = false;
    enum class Field : std::uint8_t
    {
        None,
        Operator,
        Label,
        Shape
    } m_field = Field::None;
    std::optional<OomBuffer> m_buffer;
    /// Every figure a message printed for its request, to check them against each other.
    struct Request
    {
        std::int64_t bytes = 0;
        std::int64_t ulp = 0;
        std::int64_t line = 0;
    };
    std::unordered_map<const OomMessage *, std::vector<Request>> m_requests;

    /// The event a new headline belongs to: the current one unless its list is done or it
    /// already holds a different value for the same fact.
    OomMessage &event(std::int64_t lineNo, bool conflict = false)
    {
        if (!m_cur || !m_cur->buffers.empty() || m_buffer || conflict) {
            closeBuffer();
            m_messages.emplace_back();
            m_cur = &m_messages.back();
            m_cur->line = lineNo;
        }
        return *m_cur;
    }

    void closeBuffer()
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

    void problem(std::int64_t lineNo, std::string message)
    {
        if (m_log.problems.size() < 100)
            m_log.problems.push_back({lineNo, std::move(message)});
    }

    void line(const std::string &cleaned, std::int64_t lineNo)
    {
        const sv body = trim(cleaned);
        if (m_block != Block::None && blockLine(body, lineNo))
            return;
        headline(body, lineNo);
    }

    /// A line inside a block; false when the block has ended (the line is then read afresh).
    bool blockLine(sv body, std::int64_t lineNo)
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
            if (m_lastWasField && m_field != Field::None) {
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

    /// A listed size; a bare number is a cut one (XLA prints every size with its unit).
    void readBufferSize(OomBuffer &b, sv text, std::int64_t lineNo)
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

    /// An entry whose rank is not past the last one: a list that starts over (entry 1 after
    /// entry 4) is the next message's.
    bool startsOver(sv body) const
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

    bool bufferLine(sv body, std::int64_t lineNo)
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

    /// Every `module_NNNN` in an announcing line, for the event it belongs to.
    static void moduleNames(sv body, OomMessage &m)
    {
        for (std::size_t at = body.find("module_"); at != sv::npos;
             at = body.find("module_", at + 7)) {
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

    /// The rank of a list entry's first line: TPU `10. Size: 384.00M`, GPU `Buffer 13:`.
    static std::optional<std::int64_t> entryRank(sv body, bool *tpu)
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

    /// A list entry outside a list: the next entry of the list a stray line interrupted (a
    /// logger's line between two entries), or the start of a fragment, a list whose headline
    /// is not in the text (pasted from the middle of a log).
    bool listEntry(sv body, std::int64_t lineNo)
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

    void headline(sv body, std::int64_t lineNo)
    {
        if (body.empty())
            return;
        if (tpuWording(body)) {
            tpuHeadline(body, lineNo);
            return;
        }
        const bool announces = body.find("BufferAssignment OOM Debugging") != sv::npos ||
                               body.find("emory while trying to allocate") != sv::npos ||
                               body.find("ran out of memory trying to allocate") != sv::npos ||
                               body.find("failed to allocate") != sv::npos ||
                               body.find("Failed to allocate request for") != sv::npos ||
                               body.find("Ran out of memory") != sv::npos ||
                               body.find("Program hbm requirement") != sv::npos ||
                               body.find("Total hbm usage") != sv::npos ||
                               body.find("Largest program allocations") != sv::npos;
        if (!announces) {
            if (!listEntry(body, lineNo))
                bfcLine(body);
            return;
        }
        std::int64_t ulp = 0;
        if (body.find("BufferAssignment OOM Debugging") != sv::npos) {
            OomMessage &m = event(lineNo, m_cur && m_cur->form == OomMessage::Form::Tpu);
            m.form = OomMessage::Form::GpuBufferAssignment;
            m.headlines.emplace_back(body);
            moduleNames(body, m);
            m_block = Block::GpuStats;
            return;
        }
        if (body.find("Largest program allocations") != sv::npos) {
            OomMessage &m = event(lineNo);
            m.form = OomMessage::Form::Tpu;
            m_block = Block::TpuBuffers;
            return;
        }
        if (body.find("Program hbm requirement") != sv::npos ||
            body.find("Total hbm usage") != sv::npos) {
            OomMessage &m = event(lineNo);
            m.form = OomMessage::Form::Tpu;
            m.memorySpace = "hbm";
            const bool requirement = body.find("Program hbm requirement") != sv::npos;
            std::int64_t requirementUlp = 0;
            const std::int64_t bytes =
                sizeAfter(body, requirement ? "requirement" : ">=", &requirementUlp);
            if (requirement) {
                m.programRequirement = bytes;
                m.programRequirementUlp = requirementUlp;
            }
            m_block = requirement ? Block::TpuRequirement : Block::TpuUsage;
            return;
        }
        // GPU allocation failures.
        std::int64_t requested = -1;
        std::int64_t roundedTo = -1;
        bool cut = false;
        bool roundedCut = false;
        if (body.find("cuMemAllocAsync failed to allocate") != sv::npos)
            requested = sizeAfter(body, "failed to allocate", &ulp, &cut);
        else if (body.find("emory while trying to allocate") != sv::npos)
            requested = sizeAfter(body, "trying to allocate", &ulp, &cut);
        else if (body.find("ran out of memory trying to allocate") != sv::npos) {
            requested = sizeAfter(body, "trying to allocate", &ulp, &cut);
            roundedTo = sizeAfter(body, "(rounded to", nullptr, &roundedCut);
        } else {
            // "failed to allocate 154.06GiB (165425291480 bytes) from device",
            // "Failed to allocate request for 154.06GiB (165425291480B) on device ordinal 0".
            const sv key = body.find("Failed to allocate request for") != sv::npos
                               ? sv("request for")
                               : sv("failed to allocate");
            requested = sizeAfter(body, key, &ulp);
            if (const std::size_t open = body.find('(', body.find(key)); open != sv::npos) {
                std::int64_t exactUlp = 1;
                const std::int64_t exact = sizeAfter(body.substr(open), "(", &exactUlp);
                if (exact >= 0 && exactUlp == 0) {
                    requested = exact;
                    ulp = 0;
                }
            }
        }
        if (requested < 0 && !cut)
            return;
        // A BFC allocator note that is not a failure (TensorFlow retries the request elsewhere):
        // kept, an event of its own, and marked.
        const bool notAFailure =
            body.find("caller indicates that this is not a failure") != sv::npos;
        const bool conflict = (m_cur && m_cur->requested >= 0 && m_cur->requestedUlp == 0 &&
                               ulp == 0 && m_cur->requested != requested) ||
                              (m_cur && (m_cur->notAFailure || notAFailure));
        OomMessage &m = event(lineNo, conflict);
        m.notAFailure = notAFailure;
        if (cut)
            addDoubt(m, "line " + std::to_string(lineNo) +
                            " ends in the middle of the size asked for (a bare number): a line "
                            "break cut it, so it is not read");
        if (roundedCut)
            addDoubt(m, "line " + std::to_string(lineNo) +
                            " ends in the middle of the allocator's \"(rounded to …)\": not read");
        if (requested >= 0) {
            m_requests[&m].push_back({requested, ulp, lineNo});
            if (m.requested < 0 || (m.requestedUlp > 0 && ulp == 0)) {
                m.requested = requested;
                m.requestedUlp = ulp;
            }
        }
        if (roundedTo >= 0)
            m.roundedTo = roundedTo;
        if (body.find("Out of host memory") != sv::npos)
            m.hostMemory = true;
        m.headlines.emplace_back(body);
        moduleNames(body, m);
        if (std::string e = quotedAfter(body, "executable_name="); !e.empty()) {
            m.executable = std::move(e);
            m.executableFrom = "executable_name";
        }
        if (const std::size_t at = body.find("device ordinal "); at != sv::npos)
            m.device = "device ordinal " + quotedAfter(body.substr(at), "device ordinal ");
        else if (const std::size_t on = body.find(" on device "); on != sv::npos)
            m.device = "device " + quotedAfter(body.substr(on), " on device ");
        while (!m.device.empty() && (m.device.back() == '.' || m.device.back() == ':'))
            m.device.pop_back();
    }

    /// Whether a line announces one of the TPU compiler's or runtime's messages (docs/FORMAT.md
    /// §4.1): out of memory in a memory space, the early abort, a program or buffer that could
    /// not be allocated, an XLA error code of those, the TensorCore/SparseCore check, or a
    /// program's usage line.
    static bool tpuWording(sv body)
    {
        for (const sv phrase : kTpuPhrases)
            if (body.find(phrase) != sv::npos)
                return true;
        return false;
    }

    /// Whether the line at `m_next` goes on the paragraph `text`: the same message, broken by
    /// its author, a terminal or a tracker at another place than a fixed width (a logger such
    /// as `kubectl logs --timestamps` may put its prefix on every piece). Never a line that is
    /// blank, a list entry or a block's heading; a line
    /// that announces a message of its own only after a heading that ends with a colon
    /// (`E0101: RuntimeProgramAllocationFailure:` then `Error loading program …`).
    bool continuesParagraph(const std::string &text) const
    {
        if (m_next >= m_lines.size())
            return false;
        const Cleaned &c = m_lines[m_next];
        const sv next = trim(c.text);
        if (next.empty() || text.empty())
            return false;
        bool tpu = false;
        if (entryRank(next, &tpu))
            return false;
        for (const sv heading :
             {sv("Total hbm usage"), sv("Program hbm requirement"),
              sv("Largest program allocations"), sv("Peak buffers"), sv("BufferAssignment"),
              sv("Output size"), sv("Traceback"), sv("The above exception"), sv("---")})
            if (next.starts_with(heading))
                return false;
        const sv sofar = trim(sv(text));
        const bool open = sofar.ends_with(':');
        if (tpuWording(next) || next.find("RESOURCE_EXHAUSTED") != sv::npos ||
            next.find("emory while trying to allocate") != sv::npos)
            return open;
        if (!sofar.ends_with('.'))
            return true;
        for (const sv opener : {sv("HLO module:"), sv("Scoped allocation"), sv("Attempting to"),
                                sv("There are "), sv("That was not possible")})
            if (next.starts_with(opener))
                return true;
        return false;
    }

    /// A size after `key` in a TPU message, which prints every size with its unit ("18.54G",
    /// "528.72M", "0B"): a bare number is a size a line break cut ("(15" of "(15.75G)"), and
    /// so is a number a break left without its unit ("15.75" then "G)"): not read, and kept to
    /// be said when no reading of the paragraph has that figure whole (`field`).
    std::int64_t unitSize(std::int64_t &field, sv body, sv key, std::int64_t *ulp)
    {
        const std::size_t at = body.find(key);
        if (at == sv::npos)
            return -1;
        sv rest = body.substr(at + key.size());
        rest = rest.substr(skipSpaces(rest, 0));
        std::size_t end = 0;
        while (end < rest.size() && !isSpace(rest[end]) && rest[end] != ')' && rest[end] != ',' &&
               rest[end] != ';' && rest[end] != '(' && rest[end] != '/')
            ++end;
        sv token = rest.substr(0, end);
        while (token.ends_with('.'))
            token.remove_suffix(1);
        if (token.empty())
            return -1;
        const bool unit = std::isalpha(static_cast<unsigned char>(token.back())) != 0;
        const std::int64_t v = unit ? OomLog::parseSize(token, ulp) : -1;
        // A number with no unit was cut by a line break; one with a unit that still does not
        // read is no size a device has (too large, or not a number XLA prints).
        if (v < 0 && isDigit(token.front()) && m_cutSizes.size() < 16)
            m_cutSizes.push_back({&field, "the size after \"" + std::string(trim(key)) +
                                              "\" is \"" + std::string(token.substr(0, 32)) +
                                              (unit ? "\": not a size a device has, so it is "
                                                      "not read"
                                                    : "\": a line break cut it, so it is not "
                                                      "read")});
        return v;
    }
    /// Sizes a line break cut in one reading of a paragraph, with the figure each was for.
    std::vector<std::pair<const std::int64_t *, std::string>> m_cutSizes;

    /// A TPU message: its paragraph read whole, wherever its lines were broken.
    void tpuHeadline(sv first, std::int64_t lineNo)
    {
        // The paragraph twice where a break may have cut a word or may have been at a space
        // (`fold` cuts "progra|m", an author breaks "memory space|hbm."): once with a space at
        // each such break, once glued. Each figure is read from the first that has it whole;
        // a number cut from its digits or unit is glued in both, a whole size ("94.75G") ends
        // a word in both.
        std::string spaced(first);
        std::string glued(first);
        for (int joined = 0; joined < 6 && continuesParagraph(spaced); ++joined) {
            const Cleaned &next = m_lines[m_next++];
            const sv piece = trim(next.text);
            const Join join =
                joinAt(spaced, piece, !next.text.empty() && isSpace(next.text.front()));
            spaced += join == Join::Glue ? "" : " ";
            glued += join == Join::Space ? " " : "";
            spaced += piece;
            glued += piece;
        }
        const sv body(spaced);
        // A usage line is no failure: a message of its own, marked so.
        const bool usage = body.find("program HBM usage:") != sv::npos ||
                           body.find("program VMEM usage:") != sv::npos;
        const bool conflict =
            usage || (m_cur && (m_cur->capacity >= 0 || m_cur->used >= 0 || m_cur->requested >= 0 ||
                                m_cur->notAFailure || !m_cur->buffers.empty() ||
                                !m_cur->program.empty() || !m_cur->hloModule.empty() ||
                                !m_cur->stackInstruction.empty() || m_cur->tempRequired >= 0));
        OomMessage &m = event(lineNo, conflict);
        m.form = OomMessage::Form::Tpu;
        m.headlines.emplace_back(body.substr(0, 4096));
        moduleNames(body, m);
        errorCode(body, m);
        if (glued != spaced && m.errorCode.empty())
            errorCode(glued, m);
        m_cutSizes.clear();
        readTpu(m, body);
        if (glued != spaced)
            readTpu(m, glued);
        // A size cut in both readings is said, once.
        for (const auto &[field, text] : m_cutSizes)
            if (*field < 0)
                addDoubt(m, text);
        if (usage) {
            m.failure = OomMessage::Failure::Usage;
            m.notAFailure = true;
            return;
        }
        // What failed: the error code says it when there is one; else the wording.
        using F = OomMessage::Failure;
        if (m.errorCode == "E0101" || !m.program.empty())
            m.failure = F::ProgramLoad;
        else if (m.errorCode == "E1001" || !m.stackInstruction.empty() ||
                 body.find("Scoped allocation") != sv::npos)
            m.failure = F::Stack;
        else if (m.errorCode == "E0100" || body.find("Error allocating device buffer") != sv::npos)
            m.failure = F::Allocation;
        else if (!m.errorCode.empty() || body.find("Ran out of memory") != sv::npos ||
                 body.find("TensorCore Hbm usage") != sv::npos)
            m.failure = F::CompileTime;
    }

    /// How two pieces of a paragraph join: at a space, glued (a number cut from its digits or
    /// its unit), or either (a word may have been cut or the break may have been at a space).
    enum class Join : std::uint8_t
    {
        Space,
        Glue,
        Either
    };
    static Join joinAt(const std::string &text, sv next, bool nextAtSpace)
    {
        if (text.empty() || next.empty() || isSpace(text.back()) || nextAtSpace)
            return Join::Space;
        const char last = text.back();
        const char first = next.front();
        // A size whole with its unit ("94.75G") ends a word: the break was at a space.
        if (text.size() >= 2 && isDigit(text[text.size() - 2]) &&
            std::string_view("KMGTPB").find(last) != sv::npos &&
            std::isalpha(static_cast<unsigned char>(first)) != 0)
            return Join::Space;
        if ((isDigit(last) || last == '.') && (isDigit(first) || first == '.'))
            return Join::Glue;
        if (isDigit(last) && std::string_view("KMGTPB").find(first) != sv::npos &&
            (next.size() == 1 || !std::isalpha(static_cast<unsigned char>(next[1])) ||
             next.substr(1).starts_with("iB")))
            return Join::Glue;
        const auto word = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' ||
                   c == '-' || c == '\'' || c == '%';
        };
        return word(last) && word(first) ? Join::Either : Join::Space;
    }

    /// The figures of a TPU message's paragraph, each set only where a reading before did not.
    void readTpu(OomMessage &m, sv body)
    {
        std::int64_t ulp = 0;
        // Sets a figure not read yet from the size after `key` in `text`.
        const auto read = [&](std::int64_t &field, std::int64_t *fieldUlp, sv text, sv key) {
            if (field >= 0)
                return;
            const std::int64_t v = unitSize(field, text, key, &ulp);
            if (v >= 0) {
                field = v;
                if (fieldUlp)
                    *fieldUlp = ulp;
            }
        };
        if (body.find("program HBM usage:") != sv::npos ||
            body.find("program VMEM usage:") != sv::npos) {
            const bool vmem = body.find("program VMEM usage:") != sv::npos;
            m.memorySpace = vmem ? "vmem" : "hbm";
            const sv key = vmem ? sv("program VMEM usage:") : sv("program HBM usage:");
            read(m.used, &m.usedUlp, body, key);
            if (const std::size_t slash = body.find('/', body.find(key)); slash != sv::npos)
                read(m.capacity, &m.capacityUlp, body.substr(slash), "/");
            return;
        }
        if (const std::size_t at = body.find("memory space ");
            at != sv::npos && m.memorySpace.empty()) {
            m.memorySpace = quotedAfter(body.substr(at), "memory space ");
            while (m.memorySpace.ends_with('.') || m.memorySpace.ends_with(','))
                m.memorySpace.pop_back();
        }
        if (body.find("on HBM") != sv::npos && m.memorySpace.empty())
            m.memorySpace = "hbm";
        // Compile time: `Ran out of memory in memory space hbm. Used X of Y hbm. Exceeded hbm
        // capacity by Z.` (E1000), and since libtpu 2026-05 the early abort, `the total memory
        // required for HLO temporaries (X) exceeds available HBM (Y). HLO module: NAME.`
        if (const std::size_t u = body.find("Used "); u != sv::npos) {
            read(m.used, &m.usedUlp, body.substr(u), "Used ");
            read(m.capacity, &m.capacityUlp, body.substr(u), " of ");
        }
        read(m.exceededBy, &m.exceededUlp, body, "capacity by ");
        read(m.tempRequired, &m.tempUlp, body, "temporaries (");
        read(m.capacity, &m.capacityUlp, body, "available HBM (");
        // E1000's other wording: `TPU TensorCore Hbm usage: X, SparseCore Hbm usage Y,
        // exceeding available bytes: Z`.
        // A reading that finds both counts wins over one that found the TensorCore's alone.
        if (const std::size_t tc = body.find("TensorCore Hbm usage");
            tc != sv::npos && m.usage.size() < 2) {
            std::int64_t core = -1;
            std::int64_t coreUlp = 0;
            std::int64_t sparse = -1;
            std::int64_t sparseUlp = 0;
            read(core, &coreUlp, body.substr(tc), "usage:");
            if (const std::size_t sc = body.find("SparseCore Hbm usage"); sc != sv::npos)
                read(sparse, &sparseUlp, body.substr(sc), "usage");
            if (core >= 0 && (m.usage.empty() || sparse >= 0)) {
                m.usage.clear();
                m.usage.push_back({"TensorCore", core, coreUlp, {}});
                if (sparse >= 0)
                    m.usage.push_back({"SparseCore", sparse, sparseUlp, {}});
                m.used = core + std::max<std::int64_t>(sparse, 0);
                m.usedUlp = coreUlp + (sparse >= 0 ? sparseUlp : 0);
            }
            read(m.capacity, &m.capacityUlp, body, "available bytes:");
        }
        // `HLO module: NAME.`: the sentence's full stop says the name is whole; without it a
        // line break may have cut the name, which then names no module.
        if (std::string name = quotedAfter(body, "HLO module: ");
            !name.empty() && m.executableFrom != "HLO module") {
            const bool whole = name.ends_with('.');
            while (name.ends_with('.'))
                name.pop_back();
            if (whole) {
                m.hloModule = name;
                m.executable = name;
                m.executableFrom = "HLO module";
            } else if (m.hloModule.empty()) {
                m.hloModule = name;
            }
        }
        // The runtime: `Error loading program 'NAME': Attempting to reserve X at the bottom of
        // memory. That was not possible. There are Y free, …, and W reservable.` (E0101), and
        // `Error allocating device buffer: Attempting to allocate X. …` (E0100). A program's
        // name has no space: one with a space was read across a cut.
        if (std::string name = quotedAfter(body, "Error loading program ");
            !name.empty() && m.program.empty() && name.find(' ') == std::string::npos) {
            m.program = name;
            m.executable = std::move(name);
            m.executableFrom = "program name";
        }
        read(m.requested, &m.requestedUlp, body, "Attempting to reserve ");
        read(m.requested, &m.requestedUlp, body, "Attempting to allocate ");
        if (const std::size_t there = body.find("There are "); there != sv::npos)
            read(m.freeBytes, &m.freeUlp, body.substr(there), "There are ");
        if (const std::size_t r = body.find(" reservable"); r != sv::npos) {
            const std::size_t comma = body.rfind(", and ", r);
            if (comma != sv::npos)
                read(m.reservable, &m.reservableUlp, body.substr(comma, r - comma), ", and ");
        }
        // An instruction's stack: `Ran out of memory in memory space vmem while allocating on
        // stack for %NAME = SHAPE opcode(…)` and `Scoped allocation with size X and limit Y
        // exceeded scoped vmem limit by Z.` (E1001).
        if (const std::size_t at = body.find("allocating on stack for ");
            at != sv::npos && (m.stackInstruction.empty() || m.stackBytes < 0)) {
            OomMessage probe;
            stackInstruction(body.substr(at + 24), probe);
            if (m.stackInstruction.empty() || probe.stackBytes >= 0) {
                m.stackInstruction = std::move(probe.stackInstruction);
                m.stackShape = std::move(probe.stackShape);
                m.stackBytes = probe.stackBytes;
            }
        }
        if (body.find("Scoped allocation with size ") != sv::npos) {
            read(m.requested, &m.requestedUlp, body, "Scoped allocation with size ");
            read(m.capacity, &m.capacityUlp, body, " and limit ");
            read(m.exceededBy, &m.exceededUlp, body, "limit by ");
        }
    }

    /// `%NAME = SHAPE opcode(…)`: the instruction, its shape as printed (a tuple's parentheses
    /// and a layout's braces balanced) and the shape's logical bytes.
    static void stackInstruction(sv text, OomMessage &m)
    {
        text = trim(text);
        if (text.starts_with('%'))
            text.remove_prefix(1);
        std::size_t end = 0;
        while (end < text.size() && !isSpace(text[end]) && text[end] != '=' && text[end] != ',')
            ++end;
        m.stackInstruction = std::string(text.substr(0, std::min<std::size_t>(end, 256)));
        const std::size_t eq = text.find(" = ", end);
        if (eq == sv::npos || eq > end + 2)
            return;
        const sv rest = text.substr(eq + 3);
        // The shape ends at the first space outside brackets.
        int depth = 0;
        std::size_t k = 0;
        for (; k < rest.size(); ++k) {
            const char c = rest[k];
            if (c == '(' || c == '[' || c == '{')
                ++depth;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                --depth;
            else if (isSpace(c) && depth == 0)
                break;
        }
        m.stackShape = std::string(rest.substr(0, std::min<std::size_t>(k, 1024)));
        // Its layout may be cut or elided (`{…}`): the dimensions are what count.
        const ShapeParseResult r = ShapeParser::parse(ShapeParser::withoutLayout(m.stackShape));
        if (r.ok && r.shape.isArray())
            m.stackBytes = r.shape.byteSize();
    }

    /// XLA's error code and name (`E0101: RuntimeProgramAllocationFailure:`,
    /// xla/error/error_codes.h GetErrorCodeAndName).
    static void errorCode(sv body, OomMessage &m)
    {
        for (std::size_t at = body.find('E'); at != sv::npos; at = body.find('E', at + 1)) {
            if (at + 7 > body.size() || (at > 0 && !isSpace(body[at - 1]) && body[at - 1] != ':'))
                continue;
            std::size_t k = at + 1;
            while (k < body.size() && isDigit(body[k]))
                ++k;
            if (k != at + 5 || k + 2 >= body.size() || body[k] != ':' || body[k + 1] != ' ')
                continue;
            std::size_t n = k + 2;
            while (n < body.size() && (std::isalnum(static_cast<unsigned char>(body[n])) != 0))
                ++n;
            if (n == k + 2 || n >= body.size() || body[n] != ':')
                continue;
            m.errorCode = std::string(body.substr(at, 5));
            m.errorName = std::string(body.substr(k + 2, n - k - 2));
            return;
        }
    }

    /// The BFC allocator's summary and chunk lines: `Limit:`, `InUse:` (counts before XLA
    /// d51ac97e8d, human-readable sizes since) and the in-use chunks' `allocation_annotation
    /// xla.execute{executable=NAME} / …` tags (since 928f51ed8e).
    void bfcLine(sv body)
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
            if (!e.empty() && list.size() < 16 &&
                std::find(list.begin(), list.end(), e) == list.end())
                list.push_back(e);
        } else if (std::string e = quotedAfter(body, "executable_name="); !e.empty()) {
            if (m_cur->executable.empty()) {
                m_cur->executable = std::move(e);
                m_cur->executableFrom = "executable_name";
            }
        }
    }

    static void addDoubt(OomMessage &m, std::string text)
    {
        if (m.doubts.size() < 8 &&
            std::find(m.doubts.begin(), m.doubts.end(), text) == m.doubts.end())
            m.doubts.push_back(std::move(text));
    }

    /// The figures a message prints for one request check each other: a byte count, the same
    /// size human-readable (±its rounding) and the BFC allocator's "(rounded to N)" (the
    /// request rounded up to a multiple of 256, bfc_allocator.cc RoundedBytes). A figure that
    /// disagrees was cut by a line break: the message keeps the human-readable one, with its
    /// rounding, or none, and says why.
    void crossCheck(OomMessage &m)
    {
        const auto found = m_requests.find(&m);
        if (found == m_requests.end())
            return;
        const std::vector<Request> &seen = found->second;
        const Request *human = nullptr;
        for (const Request &r : seen)
            if (r.ulp > 0 && (!human || r.ulp < human->ulp))
                human = &r;
        auto agree = [](const Request &a, const Request &b) {
            return std::abs(a.bytes - b.bytes) <= a.ulp + b.ulp;
        };
        auto text = [](const Request &r) {
            return (r.ulp == 0 ? std::to_string(r.bytes) + " B" : "about " + humanBytes(r.bytes)) +
                   " (line " + std::to_string(r.line) + ")";
        };
        bool doubt = false;
        for (std::size_t i = 0; i < seen.size(); ++i)
            for (std::size_t j = i + 1; j < seen.size(); ++j)
                if (!agree(seen[i], seen[j])) {
                    addDoubt(m, "the size asked for is printed as " + text(seen[i]) + " and as " +
                                    text(seen[j]) + ": a line break cut one of them");
                    doubt = true;
                }
        if (m.roundedTo >= 0) {
            for (const Request &r : seen)
                if (m.roundedTo + r.ulp < r.bytes || m.roundedTo > r.bytes + r.ulp + 255) {
                    addDoubt(m, "the allocator rounded the request to " +
                                    std::to_string(m.roundedTo) + " B, which " + text(r) +
                                    " cannot round to: a line break cut one of them");
                    doubt = true;
                }
        }
        if (!doubt)
            return;
        if (human) {
            m.requested = human->bytes;
            m.requestedUlp = human->ulp;
            if (m.roundedTo >= 0 && !(m.roundedTo + human->ulp >= human->bytes &&
                                      m.roundedTo <= human->bytes + human->ulp + 255))
                m.roundedTo = -1;
        } else {
            m.requested = -1;
            m.requestedUlp = 0;
            m.roundedTo = -1;
        }
    }

    void finish()
    {
        for (OomMessage &m : m_messages) {
            crossCheck(m);
            // A message no tag names in its headline: the in-use chunks say which executable
            // allocated them; one name for all of them is the one that ran.
            if (m.executable.empty() && m.taggedExecutables.size() == 1) {
                m.executable = m.taggedExecutables.front();
                m.executableFrom = "xla.execute tag";
            }
            if (m.form == OomMessage::Form::GpuAllocation && !m.buffers.empty())
                m.form = OomMessage::Form::GpuBufferAssignment;
            if (m.form == OomMessage::Form::Tpu && m.memorySpace.empty())
                m.memorySpace = "hbm";
            // A TPU program's requirement, usage or largest allocations with no headline that
            // says otherwise (a fragment): the compiler prints them when the program does not
            // fit, never the runtime's buffer allocation (E0100 prints none of them).
            if (m.form == OomMessage::Form::Tpu && m.failure == OomMessage::Failure::Allocation &&
                m.errorCode.empty() && m.requested < 0 &&
                (!m.requirement.empty() || !m.usage.empty() || !m.buffers.empty()))
                m.failure = OomMessage::Failure::CompileTime;
        }
        for (OomMessage &m : m_messages) {
            bool repeated = false;
            for (OomMessage &kept : m_log.messages) {
                if ((!m.buffers.empty() || !m.stats.empty()) && sameBuffers(kept, m)) {
                    merge(kept, m);
                    repeated = true;
                    break;
                }
                // The same allocator failure printed again (a log line, then the exception).
                if (m.buffers.empty() && m.stats.empty() && kept.requested == m.requested &&
                    m.requested >= 0 && m.requestedUlp == 0 && kept.requestedUlp == 0 &&
                    m.form == OomMessage::Form::GpuAllocation &&
                    m.notAFailure == kept.notAFailure) {
                    merge(kept, m);
                    repeated = true;
                    break;
                }
                // A TPU message printed again with the same figures (a log line, then the
                // exception that carries it).
                if (m.form == OomMessage::Form::Tpu && kept.form == m.form && m.buffers.empty() &&
                    kept.buffers.empty() && m.stats.empty() && m.usage.empty() &&
                    kept.usage.empty() && m.failure == kept.failure &&
                    m.notAFailure == kept.notAFailure && m.requested == kept.requested &&
                    m.capacity == kept.capacity && m.used == kept.used &&
                    m.tempRequired == kept.tempRequired && m.executable == kept.executable &&
                    m.stackInstruction == kept.stackInstruction &&
                    (m.requested >= 0 || m.capacity >= 0 || m.used >= 0 || m.tempRequired >= 0)) {
                    merge(kept, m);
                    repeated = true;
                    break;
                }
            }
            if (!repeated)
                m_log.messages.push_back(std::move(m));
        }
    }
};

} // namespace

const OomFigure *OomMessage::stat(std::string_view name) const
{
    for (const OomFigure &f : stats)
        if (f.name == name)
            return &f;
    return nullptr;
}

namespace {

/// A list entry (`10. Size: 384.00M`, `Buffer 13:`) in the first lines of a text that also
/// prints a shape (`Shape:`, or a GPU entry parameter's `Entry Parameter Subshape:`): a
/// fragment of an out-of-memory message without its headline.
bool holdsListFragment(sv text)
{
    if (text.find("Shape:") == sv::npos && text.find("Subshape:") == sv::npos)
        return false;
    std::size_t lines = 0;
    for (std::size_t pos = 0; pos < text.size() && lines < 4000; ++lines) {
        std::size_t nl = text.find('\n', pos);
        if (nl == sv::npos)
            nl = text.size();
        const std::string cleaned =
            OomLog::cleanLine(text.substr(pos, std::min<std::size_t>(nl - pos, 400)));
        const sv body = trim(cleaned);
        std::size_t n = 0;
        if (auto rank = leadingInteger(body, &n); rank && body.substr(n).starts_with(". Size:"))
            return true;
        if (body.starts_with("Buffer ") && body.ends_with(':'))
            if (auto rank = leadingInteger(body.substr(7), &n); rank && 7 + n + 1 == body.size())
                return true;
        pos = nl + 1;
    }
    return false;
}

} // namespace

bool OomLog::looksLike(std::string_view text)
{
    // A log may be long: look for the phrases, not at the structure.
    static constexpr sv kPhrases[] = {sv("BufferAssignment OOM Debugging"),
                                      sv("emory while trying to allocate"),
                                      sv("Ran out of memory in memory space"),
                                      sv("Ran out of memory on HBM"),
                                      sv("Program hbm requirement"),
                                      sv("Largest program allocations in hbm"),
                                      sv("cuMemAllocAsync failed to allocate"),
                                      sv("ran out of memory trying to allocate"),
                                      sv("Failed to allocate request for"),
                                      sv("Error loading program"),
                                      sv("Error allocating device buffer"),
                                      sv("RuntimeProgramAllocationFailure"),
                                      sv("RuntimeBufferAllocationFailure"),
                                      sv("CompileTimeHbmOom"),
                                      sv("CompileTimeScopedVmemOom"),
                                      sv("TensorCore Hbm usage"),
                                      sv("program HBM usage:")};
    for (const sv phrase : kPhrases)
        if (text.find(phrase) != sv::npos)
            return true;
    // A short text cut by a terminal inside the phrase ("Ran out of m" / "emory on HBM"): the
    // phrases looked for again with the line breaks taken out, and with spaces for them.
    if (text.size() <= (sv::size_type{1} << 16)) {
        std::string glued;
        std::string spaced;
        for (const char c : text) {
            if (c == '\n' || c == '\r') {
                spaced += ' ';
                continue;
            }
            glued += c;
            spaced += c;
        }
        for (const sv phrase : kPhrases)
            if (glued.find(phrase) != std::string::npos || spaced.find(phrase) != std::string::npos)
                return true;
    }
    return holdsListFragment(text);
}

OomLog OomLog::parse(std::string_view text)
{
    return Reader().run(text);
}

} // namespace bufferscope
