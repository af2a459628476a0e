#include "parse/detail/OomLines.h"

#include "parse/MemoryUsageReport.h"
#include "util/SafeText.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace bufferscope {

namespace oom_detail {

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

bool clock(sv s, std::size_t &i)
{
    if (!digits(s, i, 2) || i >= s.size() || s[i++] != ':' || !digits(s, i, 2) || i >= s.size() ||
        s[i++] != ':' || !digits(s, i, 2))
        return false;
    if (i < s.size() && (s[i] == '.' || s[i] == ','))
        i = skipDigits(s, i + 1);
    return true;
}

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
    // A colour code whose escape byte a paste dropped: `[36m(MeshHostWorker pid=489)[0m`.
    if (s.front() == '[' && s.size() > 2) {
        std::size_t j = 1;
        while (j < s.size() && (isDigit(s[j]) || s[j] == ';') && j < 16)
            ++j;
        if (j > 1 && j < s.size() && s[j] == 'm')
            return skipSpaces(s, j + 1); // with the space that parts it from the message
    }
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
        const std::size_t close = s.find(')');
        if (close < 200 && s.substr(0, close).find("pid=") != sv::npos)
            return skipSpaces(s, close + 1);
    }
    // The end of a glog header a paste cut inside its file name (`:2152] `).
    if (s.front() == ':' && s.size() > 3 && isDigit(s[1])) {
        i = skipDigits(s, 1);
        if (i < 10 && i + 1 < s.size() && s[i] == ']' && s[i + 1] == ' ')
            return i + 2;
    }
    // A quoted reply (mail, Markdown, issue trackers): `> `, `>> `.
    if (s.front() == '>') {
        i = 0;
        while (i < s.size() && s[i] == '>')
            ++i;
        return i < s.size() && s[i] == ' ' ? i + 1 : i;
    }
    // Launchers that tag each line with its rank: `rank0: `, `rank12:`.
    if (s.starts_with("rank") && s.size() > 5 && isDigit(s[4])) {
        i = skipDigits(s, 4);
        if (i < s.size() && s[i] == ':')
            return skipSpaces(s, i + 1);
    }
    // A line number a viewer put before each line: `12: `, `12 | `, `12\t`. Never `1. ` (the
    // TPU list numbers its entries so) and never a bare number (a wrapped size).
    if (isDigit(s.front())) {
        i = skipDigits(s, 0);
        // The end of a glog header a paste cut (`5] `, `2152] `).
        if (i < 8 && i + 1 < s.size() && s[i] == ']' && s[i + 1] == ' ')
            return i + 2;
        // A line number glued to what follows it when a viewer's copy lost the separator (a
        // log shown on GitHub): to a colour code whose escape byte was dropped (`71[2m…`) or
        // to a Ray prefix (`71(MeshHostWorker pid=489)`).
        if (i < 8 && i < s.size() && (s[i] == '[' || s[i] == '(') && prefixLength(s.substr(i)) > 0)
            return i;
        if (i < 8 && i < s.size()) {
            if (s[i] == '\t')
                return i + 1;
            if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ' ')
                return i + 2;
            const std::size_t bar = skipSpaces(s, i);
            if (bar < s.size() && s[bar] == '|' && bar > i)
                return skipSpaces(s, bar + 1);
        }
    }
    // MPI / torchrun: [1,0]<stderr>:  [rank0]:  [default0]:
    if (s.front() == '[') {
        const std::size_t close = s.find(']');
        if (close < 40) { // not sv::npos
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

std::optional<std::int64_t> leadingInteger(sv s, std::size_t *length)
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

std::int64_t sizeAfter(sv s, sv key, std::int64_t *ulp, bool *cut, bool *tooLarge)
{
    if (cut)
        *cut = false;
    if (tooLarge)
        *tooLarge = false;
    const std::size_t at = s.find(key);
    if (at == sv::npos)
        return -1;
    sv rest = s.substr(at + key.size());
    rest = rest.substr(skipSpaces(rest, 0));
    // "N bytes" first ("7,450,374,152 bytes" with its digit groups), then one token.
    std::string grouped;
    std::size_t n = 0;
    while (n < rest.size() &&
           (isDigit(rest[n]) ||
            (rest[n] == ',' && n > 0 && n + 3 < rest.size() && isDigit(rest[n + 1]) &&
             isDigit(rest[n + 2]) && isDigit(rest[n + 3])))) {
        if (rest[n] != ',')
            grouped += rest[n];
        ++n;
    }
    if (!grouped.empty() && rest.substr(n).starts_with(" bytes")) {
        if (auto v = leadingInteger(grouped)) {
            if (ulp)
                *ulp = 0;
            return *v;
        }
        if (tooLarge)
            *tooLarge = true; // more digits than an int64 holds
        return -1;
    }
    std::size_t end = 0;
    while (end < rest.size() && !isSpace(rest[end]) && rest[end] != ')' && rest[end] != ',' &&
           rest[end] != ';' && rest[end] != '(' && rest[end] != '[')
        ++end;
    sv token = rest.substr(0, end);
    if (!token.empty() && token.find_first_not_of("0123456789") == sv::npos &&
        trim(rest.substr(end)).empty()) {
        if (cut)
            *cut = true;
        return -1;
    }
    while (token.ends_with('.') || token.ends_with(':'))
        token.remove_suffix(1);
    return OomLog::parseSize(token, ulp);
}

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

void merge(OomMessage &into, const OomMessage &from)
{
    if (into.requested < 0 ||
        (into.requestedUlp > 0 && from.requested >= 0 && from.requestedUlp == 0)) {
        into.requested = from.requested;
        into.requestedUlp = from.requestedUlp;
    }
    if (into.roundedTo < 0)
        into.roundedTo = from.roundedTo;
    if (into.executable.empty()) {
        into.executable = from.executable;
        into.executableFrom = from.executableFrom;
    }
    for (const std::string &e : from.taggedExecutables)
        if (std::find(into.taggedExecutables.begin(), into.taggedExecutables.end(), e) ==
                into.taggedExecutables.end() &&
            into.taggedExecutables.size() < 16)
            into.taggedExecutables.push_back(e);
    for (const std::string &d : from.doubts)
        if (std::find(into.doubts.begin(), into.doubts.end(), d) == into.doubts.end())
            into.doubts.push_back(d);
    if (into.device.empty())
        into.device = from.device;
    if (into.capacity < 0) {
        into.capacity = from.capacity;
        into.capacityUlp = from.capacityUlp;
    }
    if (into.inUse < 0) {
        into.inUse = from.inUse;
        into.inUseUlp = from.inUseUlp;
    }
    for (const std::string &name : from.modules)
        if (std::find(into.modules.begin(), into.modules.end(), name) == into.modules.end())
            into.modules.push_back(name);
    into.printed += from.printed;
}

} // namespace oom_detail

using namespace oom_detail;

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
    // Logger prefixes, stacked any number deep (a Ray prefix before a glog header, a
    // launcher's before both): each consumes at least a byte, so the loop ends; erased once.
    std::size_t at = 0;
    for (;;) {
        const std::size_t lead = skipSpaces(out, at);
        const std::size_t n = prefixLength(sv(out).substr(lead));
        if (n == 0)
            break;
        at = lead + n;
    }
    out.erase(0, at);
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
    if (const std::int64_t v = MemoryUsageReports::parseHumanBytes(text, ulp); v >= 0)
        return v;
    // libtpu prints binary units without the "iB": 32.00G, 4.0K, 528.00M.
    if (!text.empty() && std::string_view("KMGTP").find(text.back()) != sv::npos) {
        const std::string withUnit = std::string(text) + "iB";
        return MemoryUsageReports::parseHumanBytes(withUnit, ulp);
    }
    return -1;
}

} // namespace bufferscope
