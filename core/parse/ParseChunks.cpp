#include "parse/detail/ChunkBuilder.h"

namespace bufferscope::parse_detail {

std::size_t Builder::chunkBoundary(sv text, std::size_t from, std::size_t limit)
{
    const char *const base = text.data();
    const std::size_t size = text.size();
    std::size_t p = lineStartFrom(text, from);
    // The block before: chunks are cut between instructions, not inside a tuple's values.
    sv previous;
    for (std::size_t q = p, budget = std::size_t{1} << 20, window = 256; q > 1 && budget > 0;) {
        // Back to the previous newline, reading a window that grows from a line's length up to
        // the budget: a search bounded by what it may need, not by the file before it (a
        // sanitizer's memrchr marks the whole range it is given as read).
        window = std::min(window, budget);
        const std::size_t low = q - 1 > window ? q - 1 - window : 0;
        const auto *nl = static_cast<const char *>(::memrchr(base + low, '\n', q - 1 - low));
        if (!nl && low > 0) {
            if (window == budget)
                break; // a line longer than the budget: no block before within reach
            window *= 16;
            continue;
        }
        const std::size_t start = nl ? static_cast<std::size_t>(nl - base) + 1 : 0;
        if (base[start] == '<') {
            previous = blockName(text.substr(start, q - start));
            break;
        }
        budget -= std::min(budget, q - start);
        q = start;
    }
    while (p < limit && p < size) {
        const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
        const std::size_t end = nl ? static_cast<std::size_t>(nl - base) : size;
        const char c = base[p];
        if (c == '<') {
            const sv name = blockName(text.substr(p, end - p));
            if (name != previous || name.empty())
                return p;
            previous = name;
        } else if (c != ' ' && c != '\n' && c != '\r') {
            return p; // the end of the section (or a line only the serial loop knows)
        }
        if (nl == nullptr)
            break;
        p = end + 1;
    }
    return sv::npos;
}

std::size_t Builder::parseUsedValues(sv text, std::size_t begin, MappedFile *mapping, int threads,
                                     std::int64_t &bytesDone, std::int64_t bytesTotal)
{
    const Stopwatch clock;
    const std::size_t size = text.size();
    const ChunkPlan plan = ChunkPlan::of(begin, size, threads, 4, std::size_t{16} << 20);
    const std::size_t count = plan.count;
    // Local ids carry the top bit: a dump with 2^31 of anything is read serially.
    if (count < 2 || d.values.size() >= kLocal || d.instructions.size() >= kLocal ||
        d.strings.size() >= kLocal || d.shapes.size() >= kLocal)
        return begin;
    m_prefault.finish(threads); // where no read-ahead ran before
    ChunkRun run(d);
    // Blocks read by an earlier Used values section (a damaged file may have two) count as
    // read: a chunk that meets one again hands the load to the serial path, which warns.
    for (std::uint32_t i = 0; i < m_blockSeen.size() && i < d.values.size(); ++i) {
        if (m_blockSeen[i])
            run.markRead(i);
    }
    struct Chunk
    {
        std::size_t start = sv::npos;
        std::size_t end = sv::npos;
        std::unique_ptr<Dump> dump;
        std::unique_ptr<ChunkBuilder> builder;
    };
    std::vector<Chunk> chunks(count);
    const auto raw = [&plan](std::size_t k) { return plan.raw(k); };
    std::atomic<std::size_t> sectionEnd{size};
    std::atomic<std::int64_t> parsed{0};
    const std::int64_t doneBefore = bytesDone;
    const auto caller = std::this_thread::get_id();
    parallelFor(count, threads, [&](std::size_t k) {
        Chunk &c = chunks[k];
        if (run.stop.stopped() || (k > 0 && raw(k) >= sectionEnd.load()))
            return;
        c.start = k == 0 ? begin : chunkBoundary(text, raw(k), raw(k + 1));
        if (c.start == sv::npos)
            return; // the chunk before runs on over this stretch
        c.end = size;
        for (std::size_t j = k + 1; j < count; ++j) {
            if (const std::size_t b = chunkBoundary(text, raw(j), raw(j + 1)); b != sv::npos) {
                c.end = b;
                break;
            }
        }
        if (mapping)
            mapping->populate(c.start, c.end); // one call, not a fault every 64 KiB
        c.dump = std::make_unique<Dump>();
        c.builder =
            std::make_unique<ChunkBuilder>(*c.dump, *this, run, static_cast<std::uint32_t>(k));
        if (!c.builder->parse(text, c.start, c.end))
            return;
        const std::size_t stop = std::min(c.end, c.builder->m_sectionEnd);
        lowerTo(sectionEnd, c.builder->m_sectionEnd);
        if (mapping)
            mapping->releaseRange(c.start, stop);
        parsed += static_cast<std::int64_t>(stop - c.start);
        if (m_options.progress && std::this_thread::get_id() == caller)
            m_options.progress(doneBefore + parsed.load(), bytesTotal);
    });
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
        cancelled = true;
        return sv::npos;
    }
    const std::size_t end = sectionEnd.load();
    bool serial = run.stop.serialNeeded.load();
    // A chunk that began after the section's end read value blocks the serial loop would not
    // have taken for this section.
    for (const Chunk &c : chunks) {
        if (c.start != sv::npos && c.start >= end && c.builder && c.builder->m_line > 0) {
            spdlog::debug("chunked Used values: a chunk at byte {} read {} lines after the "
                          "section's end at byte {}; the serial parse takes over",
                          c.start, c.builder->m_line, end);
            serial = true;
        }
    }
    if (serial) {
        restartSerial = true;
        return sv::npos;
    }
    if (m_blockSeen.size() < d.values.size())
        m_blockSeen.resize(d.values.size(), 0);
    const double parallelSeconds = clock.seconds();
    std::size_t merged = 0;
    for (Chunk &c : chunks) {
        if (c.start == sv::npos || c.start >= end || !c.builder)
            continue;
        mergeChunk(*c.builder);
        ++merged;
    }
    bytesDone = doneBefore + static_cast<std::int64_t>(end - begin);
    if (m_options.progress)
        m_options.progress(bytesDone, bytesTotal);
    spdlog::debug("used values: {} chunks of ~{} KiB on {} threads in {:.3f} s ({:.3f} s to merge)",
                  merged, plan.bytes >> 10, threads, clock.seconds(),
                  clock.seconds() - parallelSeconds);
    return end;
}

void Builder::mergeChunk(ChunkBuilder &c)
{
    Dump &l = c.d;
    // Names first, in the order the chunk met them: ids come out as a serial parse gives them.
    std::vector<StringId> strings(l.strings.size(), kNoString);
    for (StringId i = 1; i < l.strings.size(); ++i)
        strings[i] = d.strings.intern(l.strings.view(i));
    const auto mapString = [&](StringId id) { return isLocal(id) ? strings[id & ~kLocal] : id; };
    std::vector<ShapeId> shapes(l.shapes.size(), 0);
    std::vector<std::uint8_t> newShape(l.shapes.size(), 0);
    for (ShapeId i = 1; i < l.shapes.size(); ++i) {
        const sv text = c.str(l.shapes[i].text);
        const std::uint64_t h = StringPool::hash(text);
        shapes[i] = m_shapes.find(text, h);
        if (shapes[i] == 0) {
            ShapeInfo info = l.shapes[i];
            info.text = mapString(info.text);
            shapes[i] = addShape(text, h, info);
            newShape[i] = 1;
        }
    }
    std::vector<std::uint32_t> instructions(l.instructions.size(), kNone);
    for (std::size_t i = 0; i < l.instructions.size(); ++i)
        instructions[i] = instructionFor(mapString(l.instructions[i].name));
    const auto mapInstruction = [&](std::uint32_t i) {
        return isLocal(i) ? instructions[i & ~kLocal] : i;
    };
    // Warnings in file order, lines counted from the file's start; a chunk's warning about a
    // shape an earlier chunk made first is one the serial parse never gave.
    const std::int64_t lineBase = m_line;
    for (std::size_t w = 0; w < l.warnings.size(); ++w) {
        const std::uint32_t shape = c.m_warningShape[w];
        if (shape != kNone && !newShape[shape])
            continue;
        Diagnostic &diag = l.warnings[w];
        warnAt(lineBase + diag.line, std::move(diag.message), diag.value);
    }
    d.suppressedWarnings += l.suppressedWarnings;
    d.traits.crlf = d.traits.crlf || l.traits.crlf;
    d.traits.truncated = d.traits.truncated || l.traits.truncated;
    d.traits.fromInstructionNoSpace =
        d.traits.fromInstructionNoSpace || l.traits.fromInstructionNoSpace;
    d.traits.gluedFromInstruction = d.traits.gluedFromInstruction || l.traits.gluedFromInstruction;
    m_sawFromInstruction = m_sawFromInstruction || c.m_sawFromInstruction;

    const auto positionBase = static_cast<std::uint32_t>(d.positions.size());
    const auto useBase = static_cast<std::uint32_t>(d.uses.size());
    for (Position p : l.positions) {
        p.instruction = mapInstruction(p.instruction);
        p.index = mapString(p.index);
        d.positions.push_back(p);
    }
    for (Use u : l.uses) {
        u.instruction = mapInstruction(u.instruction);
        u.index = mapString(u.index);
        d.uses.push_back(u);
    }
    for (std::size_t b = 0; b < c.m_blocks.size(); ++b) {
        Value &v = d.values[c.m_blocks[b]];
        if (c.m_blockFlags[b] & ChunkBuilder::kPositionsHere)
            v.firstPosition += positionBase;
        if (c.m_blockFlags[b] & ChunkBuilder::kUsesHere)
            v.firstUse += useBase;
        m_blockSeen[c.m_blocks[b]] = 1;
    }
    for (const std::uint32_t i : c.m_claimed) {
        Instruction &ins = d.instructions[i];
        if (isLocal(ins.shape))
            ins.shape = shapes[ins.shape & ~kLocal];
        ins.opcode = mapString(ins.opcode);
        ins.opType = mapString(ins.opType);
        ins.opName = mapString(ins.opName);
        ins.sourceFile = mapString(ins.sourceFile);
    }
    // The serial loop goes on in the state the last chunk left.
    m_line += c.m_line;
    m_block = c.m_block;
    m_blockValue = c.m_blockValue;
}

std::size_t Builder::parseLiveRangeLines(sv text, std::size_t begin, MappedFile *mapping,
                                         int threads, std::int64_t &bytesDone,
                                         std::int64_t bytesTotal, bool sequence)
{
    const Stopwatch clock;
    const char *const base = text.data();
    const std::size_t size = text.size();
    const ChunkPlan plan = ChunkPlan::of(begin, size, threads, 4, std::size_t{4} << 20);
    const std::size_t count = plan.count;
    // A second InstructionSequence, or values added since the order was built, are the serial
    // loop's to sort out.
    if (count < 2 || (sequence && !d.sequence.empty()))
        return begin;
    if (!sequence && m_idOrder.size() != d.values.size())
        buildIdOrder();
    struct Piece
    {
        std::size_t start = 0;
        std::size_t end = 0;
        std::size_t lines = 0;       ///< newlines in [start, end)
        std::size_t parsed = 0;      ///< lines taken
        std::size_t stop = sv::npos; ///< the first line not indented as the subsection's
        std::size_t bad = sv::npos;  ///< the first indented line that does not parse
        bool crlf = false;
        bool complete = false;  ///< it read on to its end
        std::size_t cursor = 0; ///< BufferLiveRange: where in id order it stopped
        std::int64_t firstStep = -1;
        std::int64_t maxEnd = -1;
        std::vector<std::uint32_t> steps; ///< per line its instruction; kNone for a new name
        std::vector<sv> newNames;         ///< the names of the kNone lines, in order
    };
    std::vector<Piece> pieces(count);
    const auto raw = [&plan](std::size_t k) { return plan.raw(k); };
    const auto bound = [&](Piece &piece, std::size_t k) {
        piece.start = k == 0 ? begin : lineStartFrom(text, raw(k));
        piece.end = k + 1 == count ? size : lineStartFrom(text, raw(k + 1));
    };
    // A BufferLiveRange piece's first line is the value as many places after the last one in
    // id order as there are lines before it: count them first.
    std::vector<std::size_t> linesBefore(count, 0);
    if (!sequence) {
        parallelFor(count, threads, [&](std::size_t k) {
            Piece &piece = pieces[k];
            bound(piece, k);
            if (piece.start >= piece.end)
                return;
            if (mapping)
                mapping->populate(piece.start, piece.end);
            piece.lines =
                static_cast<std::size_t>(std::count(base + piece.start, base + piece.end, '\n'));
        });
        for (std::size_t k = 1; k < count; ++k)
            linesBefore[k] = linesBefore[k - 1] + pieces[k - 1].lines;
    }

    ChunkStop stop;
    std::atomic<std::size_t> runEnd{size}; // the first line not indented, or a bad one
    std::atomic<std::int64_t> parsedBytes{0};
    const std::int64_t doneBefore = bytesDone;
    const auto caller = std::this_thread::get_id();
    const std::vector<std::uint32_t> &byName = m_instructionByName;
    // Found by name when a live range is not the next value in id order (a value without one,
    // say): built by the first thread that needs it.
    std::once_flag indexed;
    bool keysUnique = true;
    std::vector<std::uint32_t> placeInOrder; // a value's place in m_idOrder
    const auto indexValues = [&] {
        keysUnique = buildValueByKey();
        placeInOrder.resize(m_idOrder.size());
        for (std::uint32_t i = 0; i < m_idOrder.size(); ++i)
            placeInOrder[m_idOrder[i]] = i;
    };
    parallelFor(count, threads, [&](std::size_t k) {
        Piece &piece = pieces[k];
        if (sequence) {
            bound(piece, k);
            if (mapping && (k == 0 || piece.start < runEnd.load()))
                mapping->populate(piece.start, piece.end);
        }
        if (stop.stopped() || (k > 0 && piece.start >= runEnd.load()) || piece.start >= piece.end)
            return;
        std::size_t cursor = m_liveCursor + linesBefore[k];
        std::string scratch;
        struct Name
        {
            sv text;
            std::uint64_t hash;
        };
        std::vector<Name> names; // sequence: each line's name, looked up after the loop
        std::uint64_t sinceCheck = 0;
        std::size_t p = piece.start;
        while (p < piece.end) {
            const auto *nl = static_cast<const char *>(std::memchr(base + p, '\n', size - p));
            if (nl == nullptr) {
                piece.bad = p; // the last line, without its newline: the serial loop warns
                break;
            }
            const auto lineEnd = static_cast<std::size_t>(nl - base);
            sv line(base + p, lineEnd - p);
            if (line.ends_with('\r')) {
                line.remove_suffix(1);
                piece.crlf = true;
            }
            if (!line.starts_with("    ")) {
                piece.stop = p;
                lowerTo(runEnd, p);
                break;
            }
            const sv rest = line.substr(4);
            if (sequence) {
                std::int64_t step = 0;
                sv name;
                // Steps count up by one from the piece's first; compared by difference, so a
                // first step near INT64_MAX (a hostile file) cannot overflow the sum.
                if (!parseSequenceLine(rest, step, name, scratch) ||
                    (piece.parsed > 0 && (step < piece.firstStep ||
                                          static_cast<std::uint64_t>(step) -
                                                  static_cast<std::uint64_t>(piece.firstStep) !=
                                              piece.parsed))) {
                    piece.bad = p;
                    break;
                }
                if (piece.parsed == 0)
                    piece.firstStep = step;
                names.push_back({name, StringPool::hash(name)});
            } else {
                std::int64_t start = 0;
                std::int64_t end = 0;
                sv name;
                sv index;
                if (!parseLiveRangeLine(rest, name, index, start, end, scratch) || start > end ||
                    (d.printedMax >= 0 && end > d.printedMax)) {
                    piece.bad = p; // the serial parse warns
                    break;
                }
                // Nearly always the value after the last one in id order; else it is found by
                // its name, and the order goes on from there.
                std::uint32_t value = cursor < m_idOrder.size() ? m_idOrder[cursor] : kNone;
                if (value == kNone || !isValueCalled(value, name, index)) {
                    std::call_once(indexed, indexValues);
                    if (!keysUnique) {
                        stop.needSerial("two values with one name and index", -1);
                        break;
                    }
                    value = lookupValueByKey(name, index);
                    if (value == FlatMap64::kMissing) {
                        piece.bad = p; // in no allocation: the serial parse adds it, and warns
                        break;
                    }
                    cursor = placeInOrder[value];
                }
                Value &v = d.values[value];
                if (std::int64_t unset = -1;
                    !std::atomic_ref<std::int64_t>(v.start).compare_exchange_strong(unset, start)) {
                    piece.bad = p; // a second range for the value: the serial parse warns
                    break;
                }
                v.end = end;
                piece.maxEnd = std::max(piece.maxEnd, end);
                ++cursor;
            }
            ++piece.parsed;
            p = lineEnd + 1;
            if (++sinceCheck >= 4096) {
                sinceCheck = 0;
                if (stop.stopped())
                    break;
                if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                    stop.stop.store(true, std::memory_order_relaxed);
                    break;
                }
            }
        }
        piece.complete = p >= piece.end;
        piece.cursor = cursor;
        // The names in the pool and their instructions: random reads, so each is fetched a
        // few lines ahead.
        piece.steps.reserve(names.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (i + kAhead < names.size())
                d.strings.prefetchSlot(names[i + kAhead].hash);
            if (i + kAhead / 2 < names.size())
                d.strings.prefetchEntry(names[i + kAhead / 2].hash);
            const StringId id = d.strings.find(names[i].text, names[i].hash);
            const std::uint32_t ins = id != kNoString && id < byName.size() ? byName[id] : kNone;
            if (ins == kNone) {
                piece.newNames.push_back(names[i].text);
            } else if (std::int64_t unscheduled = -1;
                       !std::atomic_ref<std::int64_t>(d.instructions[ins].step)
                            .compare_exchange_strong(
                                unscheduled, piece.firstStep + static_cast<std::int64_t>(i))) {
                stop.needSerial("an instruction scheduled twice",
                                piece.firstStep + static_cast<std::int64_t>(i));
                break;
            }
            piece.steps.push_back(ins);
        }
        if (piece.bad != sv::npos)
            lowerTo(runEnd, piece.bad);
        if (mapping)
            mapping->releaseRange(piece.start, p);
        parsedBytes += static_cast<std::int64_t>(p - piece.start);
        if (m_options.progress && std::this_thread::get_id() == caller)
            m_options.progress(doneBefore + parsedBytes.load(), bytesTotal);
    });
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
        cancelled = true;
        return sv::npos;
    }
    // The lines before the run's end must all have been taken, in one run of steps; a bad
    // line before it, or lines taken after it, are the serial parse's to report.
    const std::size_t end = runEnd.load();
    bool serial = stop.serialNeeded.load();
    std::size_t taken = 0;
    std::int64_t nextStep = static_cast<std::int64_t>(d.sequence.size());
    for (const Piece &piece : pieces) {
        if (piece.bad == end)
            serial = true; // a line of the run the serial parse warns about
        if (piece.start >= end) {
            serial = serial || piece.parsed > 0; // lines taken after the run's end
            continue;
        }
        if (piece.stop != end && !piece.complete)
            serial = true; // stopped short of its end
        if (sequence && piece.parsed > 0) {
            serial = serial || piece.firstStep != nextStep;
            nextStep += static_cast<std::int64_t>(piece.parsed);
        }
        taken += piece.parsed;
    }
    if (serial) {
        spdlog::debug("chunked {}: met what only the serial parse decides; it takes over",
                      sequence ? "InstructionSequence" : "BufferLiveRange");
        restartSerial = true;
        return sv::npos;
    }
    if (sequence) {
        // Names no value or use made come in file order, as the serial parse makes them.
        for (const Piece &piece : pieces) {
            if (piece.start >= end)
                break;
            std::size_t named = 0;
            for (std::uint32_t ins : piece.steps) {
                if (ins == kNone) {
                    ins = instructionFor(intern(piece.newNames[named++]));
                    if (d.instructions[ins].step >= 0) {
                        restartSerial = true; // scheduled twice: the serial parse warns
                        return sv::npos;
                    }
                    d.instructions[ins].step = static_cast<std::int64_t>(d.sequence.size());
                }
                d.sequence.push_back(ins);
            }
        }
    } else {
        for (const Piece &piece : pieces) {
            if (piece.start < end && piece.parsed > 0)
                m_liveCursor = piece.cursor;
        }
    }
    for (const Piece &piece : pieces) {
        if (piece.start >= end)
            break;
        m_maxEnd = std::max(m_maxEnd, piece.maxEnd);
        d.traits.crlf = d.traits.crlf || piece.crlf;
    }
    m_line += static_cast<std::int64_t>(taken);
    bytesDone = doneBefore + static_cast<std::int64_t>(end - begin);
    if (m_options.progress)
        m_options.progress(bytesDone, bytesTotal);
    spdlog::debug("{}: {} lines in {} chunks of ~{} KiB on {} threads in {:.3f} s",
                  sequence ? "instruction sequence" : "buffer live ranges", taken, count,
                  plan.bytes >> 10, threads, clock.seconds());
    return end;
}

} // namespace bufferscope::parse_detail
