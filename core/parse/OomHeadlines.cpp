// The out-of-memory log reader: a message's headline in every wording, GPU and TPU, 2019 to
// 2026 (detail/OomReader.h).

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

void Reader::headline(sv body, std::int64_t lineNo)
{
    if (body.empty())
        return;
    if (tpuWording(body)) {
        tpuHeadline(body, lineNo);
        return;
    }
    const bool announces = std::any_of(std::begin(kAnnouncingPhrases), std::end(kAnnouncingPhrases),
                                       [body](sv phrase) { return body.find(phrase) != sv::npos; });
    if (!announces) {
        if (!listEntry(body, lineNo))
            bfcLine(body);
        return;
    }
    std::int64_t ulp = 0;
    if (body.find("BufferAssignment OOM Debugging") != sv::npos) {
        OomMessage &m = event(lineNo, m_cur && m_cur->form == OomMessage::Form::Tpu);
        m.form = OomMessage::Form::GpuBufferAssignment;
        m.addHeadline(body);
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
    bool tooLarge = false;
    bool roundedCut = false;
    if (body.find("cuMemAllocAsync failed to allocate") != sv::npos)
        requested = sizeAfter(body, "failed to allocate", &ulp, &cut, &tooLarge);
    else if (body.find("emory while trying to allocate") != sv::npos)
        requested = sizeAfter(body, "trying to allocate", &ulp, &cut, &tooLarge);
    else if (body.find("ran out of memory trying to allocate") != sv::npos) {
        requested = sizeAfter(body, "trying to allocate", &ulp, &cut, &tooLarge);
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
    if (requested < 0 && !cut && !tooLarge)
        return;
    // A BFC allocator note that is not a failure (TensorFlow retries the request elsewhere):
    // kept, an event of its own, and marked.
    const bool notAFailure = body.find("caller indicates that this is not a failure") != sv::npos;
    const bool conflict = (m_cur && m_cur->requested >= 0 && m_cur->requestedUlp == 0 && ulp == 0 &&
                           m_cur->requested != requested) ||
                          (m_cur && (m_cur->notAFailure || notAFailure)) ||
                          // A GPU allocator's failure after a TPU's message: two messages.
                          (m_cur && m_cur->form == OomMessage::Form::Tpu) ||
                          (m_cur && m_cur == m_tooLarge) || (m_cur && tooLarge);
    OomMessage &m = event(lineNo, conflict);
    m.notAFailure = notAFailure;
    if (cut)
        addDoubt(m, "line " + std::to_string(lineNo) +
                        " ends in the middle of the size asked for (a bare number): a line "
                        "break cut it, so it is not read");
    if (tooLarge) {
        m_tooLarge = &m;
        addDoubt(m, "line " + std::to_string(lineNo) +
                        " asks for more bytes than 2^63 - 1: too large to be a size, so the size "
                        "asked for is not known");
    }
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
    m.addHeadline(body);
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

bool Reader::tpuWording(sv body)
{
    for (const sv phrase : kTpuPhrases)
        if (body.find(phrase) != sv::npos)
            return true;
    return false;
}

bool Reader::continuesParagraph(const std::string &text) const
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
         {sv("Total hbm usage"), sv("Program hbm requirement"), sv("Largest program allocations"),
          sv("Peak buffers"), sv("BufferAssignment"), sv("Output size"), sv("Traceback"),
          sv("The above exception"), sv("---")})
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

std::int64_t Reader::unitSize(std::int64_t &field, sv body, sv key, std::int64_t *ulp)
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
        m_cutSizes.push_back({&field, "the size after \"" + std::string(trim(key)) + "\" is \"" +
                                          std::string(token.substr(0, 32)) +
                                          (unit ? "\": not a size a device has, so it is "
                                                  "not read"
                                                : "\": a line break cut it, so it is not "
                                                  "read")});
    return v;
}

void Reader::tpuHeadline(sv first, std::int64_t lineNo)
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
        const Join join = joinAt(spaced, piece, !next.text.empty() && isSpace(next.text.front()));
        spaced += join == Join::Glue ? "" : " ";
        glued += join == Join::Space ? " " : "";
        spaced += piece;
        glued += piece;
    }
    const sv body(spaced);
    // A usage line is no failure: a message of its own, marked so.
    const bool usage =
        body.find("program HBM usage:") != sv::npos || body.find("program VMEM usage:") != sv::npos;
    const bool conflict =
        usage || (m_cur && (m_cur->capacity >= 0 || m_cur->used >= 0 || m_cur->requested >= 0 ||
                            m_cur->notAFailure || !m_cur->buffers.empty() ||
                            !m_cur->program.empty() || !m_cur->hloModule.empty() ||
                            !m_cur->stackInstruction.empty() || m_cur->tempRequired >= 0));
    OomMessage &m = event(lineNo, conflict);
    m.form = OomMessage::Form::Tpu;
    m.addHeadline(body);
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

Reader::Join Reader::joinAt(const std::string &text, sv next, bool nextAtSpace)
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

void Reader::readTpu(OomMessage &m, sv body)
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

void Reader::stackInstruction(sv text, OomMessage &m)
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

void Reader::errorCode(sv body, OomMessage &m)
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

} // namespace bufferscope::oom_detail
