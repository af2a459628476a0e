#include "parse/detail/Builder.h"

#include <limits>
#include <new>

namespace bufferscope::parse_detail {

void Builder::tokenize(sv line, Token &t, std::string &scratch)
{
    t.kind = TokenKind::Other;
    if (line.starts_with(" value: <")) {
        if (parseValueLine(line, t.value, t.a, t.b, t.shape, scratch)) {
            t.kind = TokenKind::AllocationValue;
            t.hashes.name = StringPool::hash(t.value.name);
            t.hashes.shape = t.shape.empty() ? 0 : StringPool::hash(t.shape);
        }
    }
}

void Builder::prefetchToken(const Token &t, bool entries) const
{
    switch (t.kind) {
    case TokenKind::AllocationValue:
        if (entries) {
            d.strings.prefetchEntry(t.hashes.name);
            if (!t.shape.empty())
                m_shapes.prefetchText(t.hashes.shape);
        } else {
            d.strings.prefetchSlot(t.hashes.name);
            m_valueById.prefetch(static_cast<std::uint64_t>(t.value.id));
            if (!t.shape.empty())
                m_shapes.prefetchSlot(t.hashes.shape);
        }
        break;
    case TokenKind::Other:
        break;
    }
}

std::size_t Builder::readAhead(sv text, std::size_t begin, MappedFile *mapping, int threads,
                               std::int64_t &bytesDone, std::int64_t bytesTotal)
{
    const Stopwatch clock;
    const std::size_t size = text.size();
    // Stretches of up to 128 KiB, small enough on a small file that every thread gets some.
    const ChunkPlan plan = ChunkPlan::of(begin, size, threads, 64, std::size_t{128} << 10);
    const std::size_t stretchBytes = plan.bytes;
    const std::size_t count = plan.count;
    if (count < 2)
        return begin;
    const auto inSection = [](sv line) {
        return line.empty() || line[0] == ' ' || line.starts_with("allocation ");
    };
    // A ring of stretches: the one in slot k % window is refilled once this thread is done
    // with stretch k, so at most `window` stretches of tokens exist at once.
    struct Stretch
    {
        std::vector<Token> tokens;
        std::size_t stopAt = sv::npos;     ///< the line that ends the section, if in this stretch
        std::size_t end = 0;               ///< where its last line ends
        std::atomic<std::size_t> ready{0}; ///< k + 1 once stretch k's tokens are in
    };
    // Helpers with stretches enough in hand fault in the big arrays' pages meanwhile (parseText).
    const std::size_t window = static_cast<std::size_t>(threads) * 16;
    std::vector<Stretch> ring(window);
    std::atomic<std::size_t> next{0};      // the next stretch to claim
    std::atomic<std::size_t> limit{count}; // no stretch from here on is needed
    std::atomic<std::size_t> consumed{0};  // stretches this thread is done with
    std::atomic<bool> stop{false};
    std::atomic<bool> helperFailed{false}; // a helper threw (std::bad_alloc) while filling
    const char *const base = text.data();
    const auto raw = [&plan](std::size_t k) { return plan.raw(k); };
    // Stretch k holds the lines that start in [raw(k), raw(k + 1)).
    const auto fill = [&](std::size_t k) {
        Stretch &s = ring[k % window];
        s.tokens.clear();
        s.stopAt = sv::npos;
        std::string scratch;
        const std::size_t until = raw(k + 1);
        if (mapping)
            mapping->populate(raw(k), until + 4096); // the last line runs on past `until`
        std::size_t p = lineStartFrom(text, raw(k));
        s.end = p;
        while (p < until && p < size) {
            const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
            const std::size_t end = nl ? static_cast<std::size_t>(nl - base) : size;
            sv line = text.substr(p, end - p);
            if (line.ends_with('\r'))
                line.remove_suffix(1);
            if (!inSection(line)) {
                s.stopAt = p;
                lowerTo(limit, k + 1);
                break;
            }
            Token &t = s.tokens.emplace_back();
            t.line = {p, end, nl != nullptr};
            tokenize(line, t, scratch);
            s.end = end;
            p = nl ? end + 1 : size;
        }
        s.ready.store(k + 1, std::memory_order_release);
        s.ready.notify_all();
    };
    const auto produce = [&] {
        for (;;) {
            std::size_t k = next.load();
            if (stop.load(std::memory_order_relaxed) || k >= limit.load())
                return;
            const std::size_t done = consumed.load(std::memory_order_acquire);
            if (k >= done + window / 2 && m_prefault.step())
                continue;
            if (k >= done + window) {
                consumed.wait(done);
                continue;
            }
            if (next.compare_exchange_weak(k, k + 1)) {
                try {
                    fill(k);
                } catch (...) {
                    // The builder waits for this stretch: wake it to find the failure, and let
                    // withHelpers hand the exception on once every thread is done.
                    helperFailed.store(true);
                    ring[k % window].ready.store(k + 1, std::memory_order_release);
                    ring[k % window].ready.notify_all();
                    throw;
                }
            }
        }
    };
    std::size_t resume = size;
    bool ok = true;
    const std::int64_t doneBefore = bytesDone;
    // This thread builds the tables from the stretches in order, splitting those no helper
    // has taken yet itself.
    const auto build = [&] {
        // However it ends (a throw included), the helpers that wait for room are woken and let
        // go: withHelpers joins them before anything is thrown on.
        struct LetGo
        {
            std::atomic<bool> &stop;
            std::atomic<std::size_t> &consumed;
            ~LetGo()
            {
                stop.store(true);
                consumed.store(std::numeric_limits<std::size_t>::max() / 2,
                               std::memory_order_release);
                consumed.notify_all();
            }
        } letGo{stop, consumed};
        std::size_t lastProgress = begin;
        std::size_t lastRelease = begin;
        std::uint64_t linesSinceCheck = 0;
        for (std::size_t k = 0; k < count && ok; ++k) {
            Stretch &s = ring[k % window];
            if (std::size_t claim = k;
                next.load() == k && next.compare_exchange_strong(claim, k + 1)) {
                fill(k);
            } else {
                for (std::size_t r = s.ready.load(std::memory_order_acquire); r != k + 1;
                     r = s.ready.load(std::memory_order_acquire))
                    s.ready.wait(r);
                if (helperFailed.load())
                    throw std::bad_alloc(); // the helper's own exception is the one handed on
            }
            const std::vector<Token> &tokens = s.tokens;
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                if (i + kAhead < tokens.size())
                    prefetchToken(tokens[i + kAhead], false);
                if (i + kAhead / 2 < tokens.size())
                    prefetchToken(tokens[i + kAhead / 2], true);
                const Token &t = tokens[i];
                ++m_line;
                const sv line = lineText(text, t.line);
                if (t.kind == TokenKind::AllocationValue && m_section == Section::Allocations) {
                    allocationValue(t);
                } else {
                    const sv ahead = t.line.newline
                                         ? sv(base + t.line.end + 1,
                                              std::min<std::size_t>(size - t.line.end - 1, 16))
                                         : sv();
                    handleLine(line, t.line.begin, ahead);
                }
                // Only lines outside the section (which end it) can stop the file or fail it.
                if (m_section != m_timedSection)
                    enterSection();
                if (++linesSinceCheck >= 4096) {
                    linesSinceCheck = 0;
                    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                        cancelled = true;
                        ok = false;
                        break;
                    }
                }
            }
            // The slot is refilled once it is handed back: read what is needed first.
            const std::size_t stretchEnd = s.end;
            const std::size_t stopAt = s.stopAt;
            consumed.store(k + 1, std::memory_order_release);
            consumed.notify_all();
            if (stretchEnd - lastProgress >= kProgressChunk) {
                bytesDone = doneBefore + static_cast<std::int64_t>(stretchEnd - begin);
                lastProgress = stretchEnd;
                if (m_options.progress)
                    m_options.progress(bytesDone, bytesTotal);
            }
            if (mapping && stretchEnd - lastRelease >= kReleaseChunk) {
                mapping->releaseBefore(lastProgress);
                lastRelease = stretchEnd;
            }
            if (stopAt != sv::npos) {
                resume = stopAt;
                break;
            }
        }
    };
    const std::size_t helpers =
        withHelpers(std::min(static_cast<std::size_t>(threads), count) - 1, produce, build);
    if (!ok)
        return sv::npos;
    bytesDone = doneBefore + static_cast<std::int64_t>(resume - begin);
    spdlog::debug("allocations: {} stretches of ~{} KiB, {} threads splitting lines, in {:.3f} s; "
                  "{} of {} slices of the big arrays faulted in meanwhile",
                  count, stretchBytes >> 10, helpers, clock.seconds(), m_prefault.taken(),
                  m_prefault.slices());
    return resume;
}

} // namespace bufferscope::parse_detail
