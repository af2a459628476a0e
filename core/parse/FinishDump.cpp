#include "parse/detail/Builder.h"

#include <unordered_map>

namespace bufferscope::parse_detail {

void Builder::finish()
{
    flushColorChecks();
    enterSection();
    const auto &t = m_sectionSeconds;
    spdlog::debug("parse time by section: allocations {:.3f} s, used values {:.3f} s, live "
                  "ranges {:.3f} s (sequence {:.3f}, buffer live ranges {:.3f}, peak {:.3f})",
                  t[static_cast<std::size_t>(Section::Allocations)] +
                      t[static_cast<std::size_t>(Section::Total)],
                  t[static_cast<std::size_t>(Section::UsedValues)],
                  t[static_cast<std::size_t>(Section::LiveRangeHeader)] +
                      t[static_cast<std::size_t>(Section::Sequence)] +
                      t[static_cast<std::size_t>(Section::BufferLiveRange)] +
                      t[static_cast<std::size_t>(Section::Peak)] +
                      t[static_cast<std::size_t>(Section::StackTrace)],
                  t[static_cast<std::size_t>(Section::Sequence)],
                  t[static_cast<std::size_t>(Section::BufferLiveRange)],
                  t[static_cast<std::size_t>(Section::Peak)]);
    struct LogFinish // on every way out of finish()
    {
        Stopwatch timing;
        ~LogFinish()
        {
            spdlog::debug("parse finish (id order, indexes, printed peak) {:.3f} s",
                          timing.seconds());
        }
    } logFinish;
    // -- order values by XLA id: the order of Used values and BufferLiveRange.
    // Unallocated live-range-only values (id -1) go last. The order Used values and
    // BufferLiveRange used serves unless values were added since.
    const std::size_t n = d.values.size();
    if (m_idOrder.size() != n)
        buildIdOrder();
    std::vector<std::uint32_t> order = std::move(m_idOrder);
    m_idOrder.clear();
    std::vector<std::uint32_t> newIndex(n);
    for (std::uint32_t i = 0; i < n; ++i)
        newIndex[order[i]] = i;
    // Permuted in place, cycle by cycle (place i takes the value at order[i]; a place done is
    // marked order[i] = i): a sorted copy would need the values' memory twice, and fresh memory
    // is among the dearest things the parse touches.
    for (std::uint32_t first = 0; first < n; ++first) {
        if (order[first] == first)
            continue;
        const Value held = d.values[first];
        std::uint32_t at = first;
        for (;;) {
            const std::uint32_t from = order[at];
            order[at] = at;
            if (from == first) {
                d.values[at] = held;
                break;
            }
            d.values[at] = d.values[from];
            at = from;
        }
    }
    for (auto &v : d.allocationValues)
        v = newIndex[v];
    for (auto &v : d.crossColorValues)
        v = newIndex[v];
    for (auto &w : d.warnings) {
        if (w.value != kNone && w.value < n)
            w.value = newIndex[w.value];
    }
    // Ids for live-range-only values: after the largest real id.
    std::int64_t nextId = 0;
    for (const Value &v : d.values)
        nextId = std::max(nextId, v.id + 1);
    for (Value &v : d.values) {
        if (v.id < 0)
            v.id = nextId++;
    }

    // -- steps: 0..max, where max is the length of the instruction sequence.
    const std::uint32_t saveFile = m_file;
    m_file = m_liveRangeFile;
    if (d.traits.hasLiveRange) {
        const auto seqLen = static_cast<std::int64_t>(d.sequence.size());
        if (d.sequence.empty() && m_maxEnd > 0) {
            // XLA prints one sequence line per step, so a real program has no more steps than
            // the file has lines; a bigger number is damage, and must not size an allocation.
            std::int64_t steps = m_maxEnd;
            if (steps > m_totalLines) {
                warnAt(m_liveRangeLine, "live ranges reach step " + std::to_string(m_maxEnd) +
                                            " but the file has " + std::to_string(m_totalLines) +
                                            " lines and no InstructionSequence; steps stop at " +
                                            std::to_string(m_totalLines));
                steps = m_totalLines;
            }
            warnAt(m_liveRangeLine, "no InstructionSequence: steps have no instruction names");
            d.sequence.assign(static_cast<std::size_t>(steps), kNone);
        } else if (d.printedMax != seqLen) {
            warnAt(m_liveRangeLine, "HloLiveRange says max " + std::to_string(d.printedMax) +
                                        " but the InstructionSequence has " +
                                        std::to_string(seqLen) + " steps; using " +
                                        std::to_string(seqLen));
        }
        const auto max = static_cast<std::int64_t>(d.sequence.size());
        std::int64_t clipped = 0;
        for (Value &v : d.values) {
            if (v.start > max) {
                v.start = v.end = -1;
                ++clipped;
            } else if (v.end > max) {
                v.end = max;
                ++clipped;
            }
        }
        if (clipped > 0)
            warnAt(m_liveRangeLine, std::to_string(clipped) +
                                        " live ranges reach past the last step " +
                                        std::to_string(max) + " and were cut");
    }

    m_instructionByName.resize(d.strings.size(), kNone);
    d.instructionByName = std::move(m_instructionByName);
    d.buildIndexes();

    // -- the printed peak: map its names to values (V1 names are instruction names only).
    auto &peak = d.printedPeak;
    if (peak.present) {
        std::size_t unknown = 0;
        // The values of each instruction the peak names, by their shape index: a tuple of N
        // parts lists N lines, and looking each up among the N values would take N^2 steps.
        std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byPart;
        std::vector<std::uint8_t> partsKnown(d.instructions.size(), 0);
        const auto partKey = [](std::uint32_t instruction, StringId index) {
            return (std::uint64_t{instruction} << 32) | index;
        };
        for (std::size_t k = 0; k < peak.entries.size(); ++k) {
            PeakEntry &e = peak.entries[k];
            const std::uint32_t ins =
                e.name < d.instructionByName.size() ? d.instructionByName[e.name] : kNone;
            if (ins != kNone && e.index != kNoString) {
                if (!partsKnown[ins]) {
                    partsKnown[ins] = 1;
                    for (auto [it, end] = d.valuesOf(ins); it != end; ++it)
                        byPart[partKey(ins, d.values[*it].index)].push_back(*it);
                }
                if (const auto found = byPart.find(partKey(ins, e.index)); found != byPart.end())
                    e.values = found->second;
            } else if (ins != kNone) {
                for (auto [it, end] = d.valuesOf(ins); it != end; ++it) {
                    const Value &v = d.values[*it];
                    if (v.liveAt(peak.step))
                        e.values.push_back(*it);
                }
            }
            if (e.values.empty() && unknown++ < 20)
                warnAt(m_peakLines[k], "the printed peak names '" + std::string(d.str(e.name)) +
                                           std::string(d.str(e.index)) +
                                           "', which is no value live at step " +
                                           std::to_string(peak.step));
        }
    }
    if (peak.present) {
        // XLA prints every value with start <= T <= end; fewer lines means a cut-off list.
        std::vector<std::uint8_t> listed(n, 0);
        for (const PeakEntry &e : peak.entries)
            for (std::uint32_t v : e.values)
                listed[v] = 1;
        std::size_t live = 0;
        std::size_t unlisted = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (d.values[i].liveAt(peak.step)) {
                ++live;
                unlisted += !listed[i];
            }
        }
        if (unlisted > 0) {
            if (m_peakLines.empty() || m_peakLines.back() == m_line)
                d.traits.truncated = true; // the list is where the file ends
            warnAt(peak.line, "the printed peak lists " + std::to_string(live - unlisted) +
                                  " of the " + std::to_string(live) + " values live at step " +
                                  std::to_string(peak.step) + " (a cut-off or edited list)");
        }
    }
    m_file = saveFile;

    // -- allocation kinds (a parameter that is also an output counts as a parameter)
    for (Allocation &a : d.allocations) {
        if (a.isParameter)
            a.kind = AllocationKind::Parameter;
        else if (a.isMaybeLiveOut)
            a.kind = AllocationKind::Output;
        else if (a.isConstant)
            a.kind = AllocationKind::Constant;
        else if (a.isThreadLocal)
            a.kind = AllocationKind::ThreadLocal;
        else
            a.kind = AllocationKind::Temp;
    }

    // -- what is missing
    m_file = 0;
    if (d.printedTotalBytes && *d.printedTotalBytes != d.allocationSizeSum())
        warnAt(0, "'Total bytes used' says " + std::to_string(*d.printedTotalBytes) +
                      " but the allocations add up to " + std::to_string(d.allocationSizeSum()));
    if (m_sawAllocations && !d.traits.hasUsedValues && !d.traits.logicalBufferEra) {
        d.traits.truncated = true;
        warnAt(0, "no 'Used values:' section: the dump looks truncated after the allocations, "
                  "so values have no positions, uses or instruction text");
    }
    if (d.traits.hasUsedValues) {
        std::size_t missing = 0;
        for (std::uint32_t i = 0; i < n; ++i)
            missing += (order[i] >= m_blockSeen.size() || !m_blockSeen[order[i]]) &&
                       d.values[i].allocation != kNone;
        if (missing > 0) {
            d.traits.truncated = true;
            warnAt(0, std::to_string(missing) +
                          " allocated values have no 'Used values' block (the dump looks "
                          "truncated): they have no positions, uses or instruction text");
        }
    }
    if (d.traits.hasUsedValues && !d.traits.hasLiveRange && !d.traits.liveRangeUnavailable &&
        m_sawFromInstruction) {
        // BufferAssignment::ToString ends after the value blocks; only the dump writer adds the
        // HloLiveRange section. A print whose value blocks are all there is complete
        // (Reactant.jl and others print it so); one that lacks some was cut.
        if (!d.traits.truncated) {
            d.traits.printedWithoutLiveRanges = true;
        } else {
            warnAt(0, "no HloLiveRange section although this XLA version writes one: the "
                      "dump looks truncated, so memory over time cannot be shown");
        }
    }
    if (d.traits.hasLiveRange && !peak.present && !peak.undetermined) {
        d.traits.truncated = true;
        warnAt(0, "the HloLiveRange section has no 'Live ranges at T (peak)' list: the dump "
                  "looks truncated");
    }
    if (d.allocations.empty() && d.values.empty() && d.sequence.empty())
        fail(m_line, "no allocations, values or live ranges were found");
}

} // namespace bufferscope::parse_detail
