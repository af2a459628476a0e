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
        if (m.roundedTo >= 0 && !(m.roundedTo + human->ulp >= human->bytes &&
                                  m.roundedTo <= human->bytes + human->ulp + 255))
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
                m.form == OomMessage::Form::GpuAllocation && m.notAFailure == kept.notAFailure) {
                merge(kept, m);
                repeated = true;
                break;
            }
            // A TPU message printed again with the same figures (a log line, then the
            // exception that carries it).
            if (m.form == OomMessage::Form::Tpu && kept.form == m.form && m.buffers.empty() &&
                kept.buffers.empty() && m.stats.empty() && m.usage.empty() && kept.usage.empty() &&
                m.failure == kept.failure && m.notAFailure == kept.notAFailure &&
                m.requested == kept.requested && m.capacity == kept.capacity &&
                m.used == kept.used && m.tempRequired == kept.tempRequired &&
                m.executable == kept.executable && m.stackInstruction == kept.stackInstruction &&
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

} // namespace bufferscope::oom_detail
