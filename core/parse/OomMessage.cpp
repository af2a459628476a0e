#include "OomMessage.h"

#include "model/Dump.h"
#include "parse/MemoryUsageReport.h"
#include "parse/ShapeParser.h"
#include "parse/detail/OomLines.h"
#include "parse/detail/OomReader.h"
#include "util/SafeText.h"
#include "util/TextEncoding.h"

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

bool OomLog::looksLike(std::string_view bytes)
{
    std::string converted;
    const std::string_view text = asUtf8(bytes, converted); // UTF-16 as PowerShell saves it
    // A log may be long: look for the phrases, not at the structure.
    // The reader's own phrases (parse/detail/OomReader.h), and the allocator's cuMemAllocAsync
    // wording ("failed to allocate" is among them).
    const auto anyPhrase = [](const auto &holds) {
        for (const sv phrase : kAnnouncingPhrases)
            if (holds(phrase))
                return true;
        for (const sv phrase : kTpuPhrases)
            if (holds(phrase))
                return true;
        return false;
    };
    if (anyPhrase([text](sv phrase) { return text.find(phrase) != sv::npos; }))
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
        if (anyPhrase([&glued, &spaced](sv phrase) {
                return glued.find(phrase) != std::string::npos ||
                       spaced.find(phrase) != std::string::npos;
            }))
            return true;
    }
    return holdsListFragment(text);
}

OomLog OomLog::parse(std::string_view bytes)
{
    // A log as users save it: UTF-16 with its mark (PowerShell's `>`), or UTF-8 with one.
    std::string converted;
    return Reader().run(asUtf8(bytes, converted));
}

} // namespace bufferscope
