// The out-of-memory log reader: a message's figures checked against each other, and the log
// finished (detail/OomReader.h).

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

void Reader::addDoubt(OomMessage &m, std::string text)
{
    if (m.doubts.size() < 8 && std::find(m.doubts.begin(), m.doubts.end(), text) == m.doubts.end())
        m.doubts.push_back(std::move(text));
}

void Reader::crossCheck(OomMessage &m)
{
    // Sizes and their rounding as a log prints them, up to 2^63 - 1 each: compared in 128
    // bits, where a sum or a difference of two cannot wrap.
    using Wide = __int128;
    constexpr std::size_t kFiguresCompared = 16;
    const auto found = m_requests.find(&m);
    if (found == m_requests.end())
        return;
    // Each figure once (its first line): a message printed thousands of times is compared
    // figure against figure, not line against line.
    std::vector<Request> seen;
    for (const Request &r : found->second) {
        if (std::none_of(seen.begin(), seen.end(),
                         [&r](const Request &s) { return s.bytes == r.bytes && s.ulp == r.ulp; }))
            seen.push_back(r);
        if (seen.size() > kFiguresCompared)
            break;
    }
    if (seen.size() > kFiguresCompared) {
        addDoubt(m, "the size asked for is printed in more than " +
                        std::to_string(kFiguresCompared) + " different ways: not read");
        m.requested = -1;
        m.requestedUlp = 0;
        m.roundedTo = -1;
        return;
    }
    const Request *human = nullptr;
    for (const Request &r : seen)
        if (r.ulp > 0 && (!human || r.ulp < human->ulp))
            human = &r;
    auto agree = [](const Request &a, const Request &b) {
        const Wide d = Wide(a.bytes) - b.bytes;
        return (d < 0 ? -d : d) <= Wide(a.ulp) + b.ulp;
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
            if (Wide(m.roundedTo) + r.ulp < r.bytes || m.roundedTo > Wide(r.bytes) + r.ulp + 255) {
                addDoubt(m, "the allocator rounded the request to " + std::to_string(m.roundedTo) +
                                " B, which " + text(r) +
                                " cannot round to: a line break cut one of them");
                doubt = true;
            }
    }
    if (!doubt)
        return;
    if (human) {
        m.requested = human->bytes;
        m.requestedUlp = human->ulp;
        if (m.roundedTo >= 0 && !(Wide(m.roundedTo) + human->ulp >= human->bytes &&
                                  m.roundedTo <= Wide(human->bytes) + human->ulp + 255))
            m.roundedTo = -1;
    } else {
        m.requested = -1;
        m.requestedUlp = 0;
        m.roundedTo = -1;
    }
}

void Reader::finish()
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
    // A message printed again is merged into the first kept one it repeats, by three rules.
    // Each rule's candidates are found by a key (the fields it compares), so a log of many
    // messages is read in linear time; the rule itself then decides, on the earliest
    // candidate. A merge may change a kept message's keys: it is indexed again under them.
    const auto sameAllocation = [](const OomMessage &kept, const OomMessage &m) {
        return m.buffers.empty() && m.stats.empty() && kept.requested == m.requested &&
               m.requested >= 0 && m.requestedUlp == 0 && kept.requestedUlp == 0 &&
               m.form == OomMessage::Form::GpuAllocation && m.notAFailure == kept.notAFailure;
    };
    const auto sameTpu = [](const OomMessage &kept, const OomMessage &m) {
        return m.form == OomMessage::Form::Tpu && kept.form == m.form && m.buffers.empty() &&
               kept.buffers.empty() && m.stats.empty() && m.usage.empty() && kept.usage.empty() &&
               m.failure == kept.failure && m.notAFailure == kept.notAFailure &&
               m.requested == kept.requested && m.capacity == kept.capacity &&
               m.used == kept.used && m.tempRequired == kept.tempRequired &&
               m.executable == kept.executable && m.stackInstruction == kept.stackInstruction &&
               (m.requested >= 0 || m.capacity >= 0 || m.used >= 0 || m.tempRequired >= 0);
    };
    const auto buffersKey = [](const OomMessage &m) {
        std::string k = std::to_string(static_cast<int>(m.form));
        for (const OomBuffer &b : m.buffers)
            k += '\x1f' + std::to_string(b.size) + '\x1e' + b.shape + '\x1e' + b.label + '\x1e' +
                 b.operatorText + '\x1e' + b.labelText;
        k += '\x1d';
        for (const auto &st : m.stats)
            k += '\x1f' + st.name + '\x1e' + std::to_string(st.bytes);
        return k;
    };
    const auto requestKey = [](const OomMessage &m) {
        return std::to_string(m.requested) + (m.notAFailure ? "n" : "f");
    };
    const auto tpuKey = [](const OomMessage &m) {
        return std::to_string(static_cast<int>(m.failure)) + (m.notAFailure ? "n" : "f") + '\x1f' +
               std::to_string(m.requested) + '\x1f' + std::to_string(m.capacity) + '\x1f' +
               std::to_string(m.used) + '\x1f' + std::to_string(m.tempRequired) + '\x1f' +
               m.executable + '\x1f' + m.stackInstruction;
    };
    using Index = std::unordered_map<std::string, std::vector<std::size_t>>;
    Index byBuffers, byRequest, byTpu;
    const auto add = [](Index &index, const std::string &key, std::size_t at) {
        std::vector<std::size_t> &list = index[key];
        // In order, each once: a re-indexed message may come before those already listed.
        const auto place = std::lower_bound(list.begin(), list.end(), at);
        if (place == list.end() || *place != at)
            list.insert(place, at);
    };
    const auto indexKept = [&](std::size_t at) {
        const OomMessage &k = m_log.messages[at];
        add(byBuffers, buffersKey(k), at);
        if (k.requested >= 0 && k.requestedUlp == 0)
            add(byRequest, requestKey(k), at);
        if (k.form == OomMessage::Form::Tpu && k.buffers.empty() && k.usage.empty())
            add(byTpu, tpuKey(k), at);
    };
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    for (OomMessage &m : m_messages) {
        // The earliest kept message any rule matches, as a scan of them in order would find.
        std::size_t match = kNone;
        const auto consider = [&](const Index &index, const std::string &key, auto &&rule) {
            const auto at = index.find(key);
            if (at == index.end())
                return;
            for (const std::size_t k : at->second) {
                if (k >= match)
                    break;
                if (rule(m_log.messages[k], m)) {
                    match = k;
                    break;
                }
            }
        };
        if (!m.buffers.empty() || !m.stats.empty())
            consider(byBuffers, buffersKey(m), [](const OomMessage &kept, const OomMessage &x) {
                return sameBuffers(kept, x);
            });
        // Each rule's conditions on the message itself first: a candidate then fails only when
        // a merge changed it since it was indexed.
        if (m.buffers.empty() && m.stats.empty() && m.requested >= 0 && m.requestedUlp == 0 &&
            m.form == OomMessage::Form::GpuAllocation)
            consider(byRequest, requestKey(m), sameAllocation);
        if (m.form == OomMessage::Form::Tpu && m.buffers.empty() && m.stats.empty() &&
            m.usage.empty() &&
            (m.requested >= 0 || m.capacity >= 0 || m.used >= 0 || m.tempRequired >= 0))
            consider(byTpu, tpuKey(m), sameTpu);
        if (match != kNone) {
            merge(m_log.messages[match], m);
            indexKept(match); // its figures may have changed: listed under its new keys too
        } else {
            m_log.messages.push_back(std::move(m));
            indexKept(m_log.messages.size() - 1);
        }
    }
}

} // namespace bufferscope::oom_detail
