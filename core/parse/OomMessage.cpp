#include "OomMessage.h"

#include "parse/MemoryUsageReport.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <deque>
#include <optional>

namespace bufferscope {

namespace {

using sv = std::string_view;

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

sv trim(sv s)
{
    while (!s.empty() && (isSpace(s.front()) || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (isSpace(s.back()) || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

/// Skips `n` digits at `i`; false when they are not there.
bool digits(sv s, std::size_t &i, std::size_t n)
{
    for (std::size_t k = 0; k < n; ++k, ++i)
        if (i >= s.size() || !isDigit(s[i]))
            return false;
    return true;
}

std::size_t skipDigits(sv s, std::size_t i)
{
    while (i < s.size() && isDigit(s[i]))
        ++i;
    return i;
}

std::size_t skipSpaces(sv s, std::size_t i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

/// `HH:MM:SS[.frac]` at i.
bool clock(sv s, std::size_t &i)
{
    if (!digits(s, i, 2) || i >= s.size() || s[i++] != ':' || !digits(s, i, 2) || i >= s.size() ||
        s[i++] != ':' || !digits(s, i, 2))
        return false;
    if (i < s.size() && (s[i] == '.' || s[i] == ','))
        i = skipDigits(s, i + 1);
    return true;
}

/// The length of one logger prefix at the start of `s`, or 0.
std::size_t prefixLength(sv s)
{
    std::size_t i = 0;
    // ISO date: 2024-05-28 07:02:44.349554: W file.cc:482]  or  2024-05-28T07:02:44Z
    if (s.size() > 10 && digits(s, i, 4) && s[i] == '-' && digits(s, ++i, 2) && s[i] == '-' &&
        digits(s, ++i, 2) && i < s.size() && (s[i] == ' ' || s[i] == 'T')) {
        ++i;
        if (!clock(s, i))
            return 0;
        if (i < s.size() && s[i] == 'Z')
            ++i;
        else if (i + 1 < s.size() && (s[i] == '+' || s[i] == '-') && isDigit(s[i + 1])) {
            i = skipDigits(s, i + 1);
            if (i < s.size() && s[i] == ':')
                i = skipDigits(s, i + 1);
        }
        if (i < s.size() && s[i] == ':')
            ++i;
        i = skipSpaces(s, i);
        // A TensorFlow/absl level and place: `W external/…/bfc_allocator.cc:482] `.
        if (i + 1 < s.size() && std::string_view("IWEF").find(s[i]) != sv::npos &&
            s[i + 1] == ' ') {
            const std::size_t close = s.find("] ", i);
            if (close != sv::npos && close < i + 200 &&
                s.substr(i, close - i).find(':') != sv::npos)
                i = close + 2;
        }
        return i;
    }
    i = 0;
    // glog/absl: E0528 07:02:44.350251   27487 pjrt_stream_executor_client.cc:2826]
    if (s.size() > 6 && std::string_view("IWEF").find(s[0]) != sv::npos) {
        i = 1;
        if (digits(s, i, 4) && i < s.size() && s[i] == ' ') {
            i = skipSpaces(s, i);
            if (clock(s, i)) {
                const std::size_t close = s.find("] ", i);
                if (close != sv::npos && close < i + 200)
                    return close + 2;
            }
        }
    }
    // Ray: (RayTrainWorker pid=1234, ip=10.0.0.1)
    if (s.front() == '(') {
        const std::size_t close = s.find(") ");
        if (close != sv::npos && close < 200 && s.substr(0, close).find("pid=") != sv::npos)
            return close + 2;
    }
    // MPI / torchrun: [1,0]<stderr>:  [rank0]:  [default0]:
    if (s.front() == '[') {
        const std::size_t close = s.find(']');
        if (close != sv::npos && close < 40) {
            std::size_t j = close + 1;
            for (sv tag : {sv("<stderr>:"), sv("<stdout>:"), sv(":")}) {
                if (s.substr(j).starts_with(tag)) {
                    j += tag.size();
                    return skipSpaces(s, j);
                }
            }
        }
    }
    return 0;
}

/// The unsigned integer at the start of `s` (after spaces), or nullopt.
std::optional<std::int64_t> leadingInteger(sv s, std::size_t *length = nullptr)
{
    const std::size_t begin = skipSpaces(s, 0);
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data() + begin, s.data() + s.size(), v);
    if (ec != std::errc() || v < 0)
        return std::nullopt;
    if (length)
        *length = static_cast<std::size_t>(ptr - s.data());
    return v;
}

/// The first size token after `key` in `s` (a size ends at a space, ')', ',' or '.' + end).
std::int64_t sizeAfter(sv s, sv key, std::int64_t *ulp = nullptr)
{
    const std::size_t at = s.find(key);
    if (at == sv::npos)
        return -1;
    sv rest = s.substr(at + key.size());
    rest = rest.substr(skipSpaces(rest, 0));
    // "N bytes" first, then one token.
    std::size_t n = 0;
    if (auto v = leadingInteger(rest, &n); v && rest.substr(n).starts_with(" bytes")) {
        if (ulp)
            *ulp = 0;
        return *v;
    }
    std::size_t end = 0;
    while (end < rest.size() && !isSpace(rest[end]) && rest[end] != ')' && rest[end] != ',' &&
           rest[end] != ';' && rest[end] != '(' && rest[end] != '[')
        ++end;
    sv token = rest.substr(0, end);
    while (token.ends_with('.') || token.ends_with(':'))
        token.remove_suffix(1);
    return OomLog::parseSize(token, ulp);
}

/// `key='value'` or `key=value` inside `[…]` or `{…}`.
std::string quotedAfter(sv s, sv key)
{
    const std::size_t at = s.find(key);
    if (at == sv::npos)
        return {};
    sv rest = s.substr(at + key.size());
    if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
        const char q = rest.front();
        const std::size_t close = rest.find(q, 1);
        return close == sv::npos ? std::string() : std::string(rest.substr(1, close - 1));
    }
    std::size_t end = 0;
    while (end < rest.size() && !isSpace(rest[end]) && rest[end] != ']' && rest[end] != '}' &&
           rest[end] != ',' && rest[end] != ')')
        ++end;
    return std::string(rest.substr(0, end));
}

bool startsWithKey(sv body, sv key)
{
    return body.starts_with(key);
}

/// `NAME   SIZE [NOTE]` (a stats or usage line): the name is the words before the size.
std::optional<OomFigure> figureLine(sv body, bool colon)
{
    OomFigure f;
    sv rest;
    if (colon) {
        const std::size_t c = body.find(':');
        if (c == sv::npos)
            return std::nullopt;
        f.name = std::string(trim(body.substr(0, c)));
        rest = trim(body.substr(c + 1));
    } else {
        // The name is the leading words without digits; "HLO temp", "reserved", "arguments".
        std::size_t i = 0, nameEnd = 0;
        while (i < body.size()) {
            std::size_t w = i;
            while (w < body.size() && !isSpace(body[w]))
                ++w;
            const sv word = body.substr(i, w - i);
            if (word.empty() || isDigit(word.front()) || word == "unknown")
                break;
            nameEnd = w;
            i = skipSpaces(body, w);
        }
        if (nameEnd == 0)
            return std::nullopt;
        f.name = std::string(body.substr(0, nameEnd));
        rest = trim(body.substr(nameEnd));
    }
    if (rest.starts_with("unknown")) {
        f.note = std::string(rest);
        return f;
    }
    std::size_t end = 0;
    while (end < rest.size() && !isSpace(rest[end]) && rest[end] != '(')
        ++end;
    f.bytes = OomLog::parseSize(rest.substr(0, end), &f.ulp);
    if (f.bytes < 0)
        return std::nullopt;
    f.note = std::string(trim(rest.substr(end)));
    return f;
}

/// `op_type="…" op_name="…" source_file="…" source_line=N …` (OpMetadataToString).
void readOperator(OomBuffer &b)
{
    const sv text = b.operatorText;
    std::size_t i = 0;
    while (i < text.size()) {
        i = skipSpaces(text, i);
        const std::size_t eq = text.find('=', i);
        if (eq == sv::npos)
            break;
        const sv key = trim(text.substr(i, eq - i));
        std::string value;
        std::size_t j = eq + 1;
        if (j < text.size() && text[j] == '"') {
            std::size_t k = j + 1;
            while (k < text.size() && text[k] != '"')
                k += text[k] == '\\' ? 2 : 1;
            value = safetext::unescapeC(text.substr(j + 1, std::min(k, text.size()) - j - 1));
            i = k + 1;
        } else {
            std::size_t k = j;
            while (k < text.size() && !isSpace(text[k]))
                ++k;
            value = std::string(text.substr(j, k - j));
            i = k;
        }
        if (key == "op_type")
            b.opType = std::move(value);
        else if (key == "op_name")
            b.opName = std::move(value);
        else if (key == "source_file")
            b.sourceFile = std::move(value);
        else if (key == "source_line") {
            if (auto v = leadingInteger(value))
                b.sourceLine = *v;
        }
    }
}

/// TPU `XLA label: %copy.40488 = s32[…] copy(…)` → "copy.40488".
std::string labelName(sv text)
{
    text = trim(text);
    std::size_t end = 0;
    while (end < text.size() && !isSpace(text[end]) && text[end] != '=')
        ++end;
    sv name = text.substr(0, end);
    if (name.starts_with('%'))
        name.remove_prefix(1);
    return std::string(name);
}

bool sameBuffers(const OomMessage &a, const OomMessage &b)
{
    if (a.buffers.size() != b.buffers.size() || a.stats.size() != b.stats.size() ||
        a.form != b.form)
        return false;
    for (std::size_t i = 0; i < a.buffers.size(); ++i) {
        const OomBuffer &x = a.buffers[i];
        const OomBuffer &y = b.buffers[i];
        if (x.size != y.size || x.shape != y.shape || x.label != y.label ||
            x.operatorText != y.operatorText || x.labelText != y.labelText)
            return false;
    }
    for (std::size_t i = 0; i < a.stats.size(); ++i)
        if (a.stats[i].name != b.stats[i].name || a.stats[i].bytes != b.stats[i].bytes)
            return false;
    return true;
}

/// Fills what `into` lacks from `from` (the same event printed again).
void merge(OomMessage &into, const OomMessage &from)
{
    if (into.requested < 0 ||
        (into.requestedUlp > 0 && from.requested >= 0 && from.requestedUlp == 0)) {
        into.requested = from.requested;
        into.requestedUlp = from.requestedUlp;
    }
    if (into.roundedTo < 0)
        into.roundedTo = from.roundedTo;
    if (into.executable.empty())
        into.executable = from.executable;
    if (into.device.empty())
        into.device = from.device;
    if (into.capacity < 0) {
        into.capacity = from.capacity;
        into.capacityUlp = from.capacityUlp;
    }
    if (into.inUse < 0)
        into.inUse = from.inUse;
    for (const std::string &name : from.modules)
        if (std::find(into.modules.begin(), into.modules.end(), name) == into.modules.end())
            into.modules.push_back(name);
    into.printed += from.printed;
}

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
        std::int64_t lineNo = 0;
        std::size_t pos = 0;
        while (pos < text.size()) {
            std::size_t nl = text.find('\n', pos);
            if (nl == sv::npos)
                nl = text.size();
            ++lineNo;
            line(OomLog::cleanLine(text.substr(pos, nl - pos)), lineNo);
            pos = nl + 1;
        }
        closeBuffer();
        finish();
        return std::move(m_log);
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
            m_buffer->size = OomLog::parseSize(trim(body.substr(n + 7)), &m_buffer->sizeUlp);
            if (m_buffer->size < 0)
                problem(lineNo, "cannot read the size in \"" + std::string(body) + "\"");
            return field(Field::None);
        }
        if (!m_buffer)
            return false;
        OomBuffer &b = *m_buffer;
        if (startsWithKey(body, "Size:")) {
            b.size = OomLog::parseSize(trim(body.substr(5)), &b.sizeUlp);
            if (b.size < 0)
                problem(lineNo, "cannot read the size in \"" + std::string(body) + "\"");
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
        if (body.find("cuMemAllocAsync failed to allocate") != sv::npos)
            requested = sizeAfter(body, "failed to allocate", &ulp);
        else if (body.find("emory while trying to allocate") != sv::npos)
            requested = sizeAfter(body, "trying to allocate", &ulp);
        else if (body.find("ran out of memory trying to allocate") != sv::npos) {
            requested = sizeAfter(body, "trying to allocate", &ulp);
            roundedTo = sizeAfter(body, "(rounded to");
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
        if (requested < 0)
            return;
        const bool conflict = m_cur && m_cur->requested >= 0 && m_cur->requestedUlp == 0 &&
                              ulp == 0 && m_cur->requested != requested;
        OomMessage &m = event(lineNo, conflict);
        if (m.requested < 0 || (m.requestedUlp > 0 && ulp == 0)) {
            m.requested = requested;
            m.requestedUlp = ulp;
        }
        if (roundedTo >= 0)
            m.roundedTo = roundedTo;
        if (body.find("Out of host memory") != sv::npos)
            m.hostMemory = true;
        m.headlines.emplace_back(body);
        moduleNames(body, m);
        if (std::string e = quotedAfter(body, "executable_name="); !e.empty())
            m.executable = std::move(e);
        if (const std::size_t at = body.find("device ordinal "); at != sv::npos)
            m.device = "device ordinal " + quotedAfter(body.substr(at), "device ordinal ");
        else if (const std::size_t on = body.find(" on device "); on != sv::npos)
            m.device = "device " + quotedAfter(body.substr(on), " on device ");
        while (!m.device.empty() && (m.device.back() == '.' || m.device.back() == ':'))
            m.device.pop_back();
    }

    /// The BFC allocator's summary and chunk lines: `Limit:`, `InUse:`, `xla.execute{…}`.
    void bfcLine(sv body)
    {
        if (!m_cur)
            return;
        if (body.starts_with("Limit:")) {
            if (auto v = leadingInteger(body.substr(6)); v && m_cur->capacity < 0) {
                m_cur->capacity = *v;
                m_cur->capacityUlp = 0;
            }
        } else if (body.starts_with("InUse:")) {
            if (auto v = leadingInteger(body.substr(6)))
                m_cur->inUse = *v;
        } else if (body.find("xla.execute{") != sv::npos && m_cur->executable.empty()) {
            m_cur->executable = quotedAfter(body, "executable=");
        } else if (std::string e = quotedAfter(body, "executable_name="); !e.empty()) {
            if (m_cur->executable.empty())
                m_cur->executable = std::move(e);
        }
    }

    void finish()
    {
        for (OomMessage &m : m_messages) {
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

std::string OomLog::cleanLine(std::string_view raw)
{
    // A progress line rewritten with carriage returns shows its last state.
    while (!raw.empty() && raw.back() == '\r')
        raw.remove_suffix(1);
    if (const std::size_t cr = raw.rfind('\r'); cr != sv::npos)
        raw = raw.substr(cr + 1);
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '\x1b' && i + 1 < raw.size()) {
            if (raw[i + 1] == '[') { // CSI: ESC [ params intermediates final
                std::size_t j = i + 2;
                while (j < raw.size() && static_cast<unsigned char>(raw[j]) >= 0x20 &&
                       static_cast<unsigned char>(raw[j]) <= 0x3f)
                    ++j;
                while (j < raw.size() && static_cast<unsigned char>(raw[j]) >= 0x20 &&
                       static_cast<unsigned char>(raw[j]) <= 0x2f)
                    ++j;
                i = j; // the final byte
                continue;
            }
            if (raw[i + 1] == ']') { // OSC … BEL or ST
                std::size_t j = i + 2;
                while (j < raw.size() && raw[j] != '\a' &&
                       !(raw[j] == '\x1b' && j + 1 < raw.size() && raw[j + 1] == '\\'))
                    ++j;
                i = j < raw.size() && raw[j] == '\x1b' ? j + 1 : j;
                continue;
            }
            ++i;
            continue;
        }
        out += c;
    }
    // Logger prefixes, possibly stacked (a Ray prefix before a glog header).
    for (int round = 0; round < 4; ++round) {
        const std::size_t lead = skipSpaces(out, 0);
        const std::size_t n = prefixLength(sv(out).substr(lead));
        if (n == 0)
            break;
        out.erase(0, lead + n);
    }
    return out;
}

std::int64_t OomLog::parseSize(std::string_view text, std::int64_t *ulp)
{
    text = trim(text);
    if (ulp)
        *ulp = 0;
    std::size_t n = 0;
    if (auto v = leadingInteger(text, &n)) {
        const sv rest = trim(text.substr(n));
        if (rest == "bytes" || rest == "B" || rest.empty())
            return *v;
    }
    if (const std::int64_t v = MemoryUsageReport::parseHumanBytes(text, ulp); v >= 0)
        return v;
    // libtpu prints binary units without the "iB": 32.00G, 4.0K, 528.00M.
    if (!text.empty() && std::string_view("KMGTP").find(text.back()) != sv::npos) {
        const std::string withUnit = std::string(text) + "iB";
        return MemoryUsageReport::parseHumanBytes(withUnit, ulp);
    }
    return -1;
}

std::string OomLog::layoutFree(std::string_view shape)
{
    std::string out;
    out.reserve(shape.size());
    int braces = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const char c = shape[i];
        if (c == '/' && i + 1 < shape.size() && shape[i + 1] == '*') {
            const std::size_t close = shape.find("*/", i + 2);
            i = close == sv::npos ? shape.size() : close + 1;
            continue;
        }
        if (c == '{') {
            ++braces;
            continue;
        }
        if (c == '}') {
            braces = std::max(0, braces - 1);
            continue;
        }
        if (braces > 0 || isSpace(c))
            continue;
        out += c;
    }
    return out;
}

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
    return false;
}

OomLog OomLog::parse(std::string_view text)
{
    return Reader().run(text);
}

} // namespace bufferscope
