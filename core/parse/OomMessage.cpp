#include "OomMessage.h"

#include "model/Dump.h"
#include "parse/MemoryUsageReport.h"
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
            line(OomLog::cleanLine(joined), lineNo);
        }
        closeBuffer();
        finish();
        return std::move(m_log);
    }

    /// Whether `next` is the rest of `line`, cut at `width`: `next` is not indented (an
    /// indented line of a list is a line of its own; a cut before a space leaves one) and does
    /// not start with a logger's prefix (a record of its own), as the next line after one that
    /// was exactly `width` wide usually does.
    static bool continues(sv line, sv next, std::size_t width)
    {
        const bool indented = next.size() > 1 && isSpace(next[0]) && isSpace(next[1]);
        return columns(line) == width && !line.empty() && !next.empty() && !indented &&
               prefixLength(next) == 0;
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
        // A BFC allocator note that is not a failure (TensorFlow retries elsewhere).
        if (body.find("caller indicates that this is not a failure") != sv::npos)
            return;
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
            const std::int64_t bytes = sizeAfter(body, requirement ? "requirement" : ">=");
            if (requirement)
                m.programRequirement = bytes;
            m_block = requirement ? Block::TpuRequirement : Block::TpuUsage;
            return;
        }
        if (body.find("Ran out of memory") != sv::npos) {
            OomMessage &m = event(lineNo, m_cur && (m_cur->capacity >= 0 || m_cur->used >= 0));
            m.form = OomMessage::Form::Tpu;
            m.headlines.emplace_back(body);
            moduleNames(body, m);
            if (const std::size_t at = body.find("memory space "); at != sv::npos)
                m.memorySpace = quotedAfter(body.substr(at), "memory space ");
            if (m.memorySpace.ends_with('.'))
                m.memorySpace.pop_back();
            if (body.find("on HBM") != sv::npos && m.memorySpace.empty())
                m.memorySpace = "hbm";
            if (const std::size_t u = body.find("Used "); u != sv::npos) {
                m.used = sizeAfter(body.substr(u), "Used ", &m.usedUlp);
                m.capacity = sizeAfter(body.substr(u), " of ", &m.capacityUlp);
            }
            m.exceededBy = sizeAfter(body, "capacity by ");
            // libtpu 2026-05: "… HLO temporaries (X) exceeds available HBM (Y)".
            if (const std::int64_t t = sizeAfter(body, "temporaries ("); t >= 0)
                m.tempRequired = t;
            if (const std::int64_t c = sizeAfter(body, "available HBM (", &ulp); c >= 0) {
                m.capacity = c;
                m.capacityUlp = ulp;
            }
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
        const bool conflict = m_cur && m_cur->requested >= 0 && m_cur->requestedUlp == 0 &&
                              ulp == 0 && m_cur->requested != requested;
        OomMessage &m = event(lineNo, conflict);
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
                    m.form == OomMessage::Form::GpuAllocation) {
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
    for (sv phrase :
         {sv("BufferAssignment OOM Debugging"), sv("emory while trying to allocate"),
          sv("Ran out of memory in memory space"), sv("Ran out of memory on HBM"),
          sv("Program hbm requirement"), sv("Largest program allocations in hbm"),
          sv("cuMemAllocAsync failed to allocate"), sv("ran out of memory trying to allocate"),
          sv("Failed to allocate request for")})
        if (text.find(phrase) != sv::npos)
            return true;
    return holdsListFragment(text);
}

OomLog OomLog::parse(std::string_view text)
{
    return Reader().run(text);
}

} // namespace bufferscope
