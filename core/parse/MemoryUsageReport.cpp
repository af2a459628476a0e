#include "MemoryUsageReport.h"

#include "parse/MappedFile.h"
#include "parse/detail/ParsedSize.h"
#include "proto/hlo_min.pb.h"
#include "util/Decompress.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace bufferscope {

namespace {

using sv = std::string_view;

sv trim(sv s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool readInt(sv s, std::int64_t &out)
{
    s = trim(s);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
}

/// The lines of `text`, each without its line end.
std::vector<sv> linesOf(sv text)
{
    std::vector<sv> lines;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        if (nl == sv::npos)
            break;
        text.remove_prefix(nl + 1);
    }
    return lines;
}

/// `allocation 78: size 2.70GiB, preallocated-temp:` (BufferAllocation::ToShortString(true)).
bool readAllocation(sv text, MemoryUsageReport::Allocation &a, std::string &error)
{
    text = trim(text);
    if (!text.starts_with("allocation ")) {
        error = "expected 'allocation N: size S, …'";
        return false;
    }
    text.remove_prefix(11);
    const auto colon = text.find(':');
    if (colon == sv::npos || !readInt(text.substr(0, colon), a.index) || a.index < 0) {
        error = "expected an allocation number";
        return false;
    }
    text = trim(text.substr(colon + 1));
    if (!text.starts_with("size ")) {
        error = "expected 'size S' after the allocation number";
        return false;
    }
    text.remove_prefix(5);
    const auto comma = text.find(',');
    const sv size = text.substr(0, comma == sv::npos ? text.find(':') : comma);
    a.size = MemoryUsageReports::parseHumanBytes(size, &a.sizeUlp);
    if (a.size < 0) {
        error = "unreadable size '" + std::string(size) + "'";
        return false;
    }
    sv rest = comma == sv::npos ? sv() : trim(text.substr(comma + 1));
    if (rest.ends_with(':'))
        rest.remove_suffix(1);
    a.description = std::string(rest);
    // The attributes BufferAllocation::ToShortString writes, comma-separated; a parameter's
    // shape `|…|` may hold commas, so look for the words only where they stand as attributes.
    std::size_t at = 0;
    while (at < rest.size()) {
        std::size_t end = rest.find(", ", at);
        // Skip over a `|…|` shape.
        const std::size_t bar = rest.find('|', at);
        if (bar != sv::npos && (end == sv::npos || bar < end)) {
            const std::size_t close = rest.find('|', bar + 1);
            end = close == sv::npos ? sv::npos : rest.find(", ", close);
        }
        const sv item = rest.substr(at, end == sv::npos ? sv::npos : end - at);
        if (item.starts_with("parameter ")) {
            std::int64_t n = -1;
            if (readInt(item.substr(10), n))
                a.parameter = n;
        } else if (item == "maybe-live-out") {
            a.maybeLiveOut = true;
        } else if (item == "preallocated-temp") {
            a.preallocatedTemp = true;
        } else if (item == "constant") {
            a.constant = true;
        } else if (item == "thread-local") {
            a.threadLocal = true;
        }
        if (end == sv::npos)
            break;
        at = end + 2;
    }
    return true;
}

/// `   2.70GiB( 98%);   64.95MiB; allocation 78: …` → the allocation part.
bool splitCumulative(sv line, std::size_t fields, sv &rest)
{
    for (std::size_t i = 0; i < fields; ++i) {
        const auto semi = line.find(';');
        if (semi == sv::npos)
            return false;
        line.remove_prefix(semi + 1);
    }
    rest = trim(line);
    return true;
}

} // namespace

std::int64_t MemoryUsageReports::parseHumanBytes(std::string_view text, std::int64_t *ulp)
{
    text = trim(text);
    static constexpr std::pair<sv, int> kUnits[] = {
        {"EiB", 60}, {"PiB", 50}, {"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}};
    for (const auto &[unit, shift] : kUnits) {
        if (!text.ends_with(unit))
            continue;
        const sv number = trim(text.substr(0, text.size() - unit.size()));
        if (number.empty())
            return -1;
        double value = 0;
        const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (ec != std::errc() || ptr != number.data() + number.size() || value < 0 ||
            value > 8.0 * 1024)
            return -1;
        const auto dot = number.find('.');
        const std::size_t decimals = dot == sv::npos ? 0 : number.size() - dot - 1;
        const double scale = std::ldexp(1.0, shift);
        // HumanReadableNumBytes divides by 1024 in integers down to KiB before it prints, so
        // a size can be off by the digits' half unit plus what those divisions dropped.
        if (ulp)
            *ulp = static_cast<std::int64_t>(
                       std::ceil(scale * 0.5 * std::pow(10.0, -double(decimals)))) +
                   (shift >= 20 ? (std::int64_t{1} << (shift - 10)) : 0);
        return static_cast<std::int64_t>(std::llround(value * scale));
    }
    return -1;
}

bool MemoryUsageReports::looksLike(std::string_view text)
{
    const std::vector<sv> lines = linesOf(text.substr(0, 4096));
    std::size_t i = 0;
    while (i < lines.size() && trim(lines[i]).empty())
        ++i;
    if (i < lines.size() && trim(lines[i]).starts_with("Memory Space: ")) {
        // The 2026 layout: `Memory Space: NAME (color=C)` then `Total bytes: N (H)`.
        for (++i; i < lines.size(); ++i)
            if (!trim(lines[i]).empty())
                return trim(lines[i]).starts_with("Total bytes: ");
        return false;
    }
    if (i >= lines.size() || !trim(lines[i]).starts_with("Total bytes used:"))
        return false;
    for (++i; i < lines.size(); ++i) {
        const sv l = trim(lines[i]);
        if (l.empty())
            continue;
        return l == "Allocations sorted by size:";
    }
    return false;
}

MemoryUsageReport MemoryUsageReports::parse(std::string_view text)
{
    MemoryUsageReport r;
    const std::vector<sv> lines = linesOf(text);
    const auto problem = [&r](std::size_t index, std::string message) {
        if (r.problems.size() < 100)
            r.problems.push_back({static_cast<std::int64_t>(index + 1), std::move(message)});
    };
    enum class Part
    {
        Header,
        Sorted,
        Detailed
    } part = Part::Header;
    Allocation *current = nullptr; // in the detailed list
    // Where each allocation number stands in r.allocations, so that the detailed list finds an
    // allocation of the first list in one step: a report lists hundreds of thousands.
    std::unordered_map<std::int64_t, std::size_t> byIndex;
    // A value line: `   900.00MiB( 32%);  900.00MiB;         4992;               22; shapes`
    // (BufferAllocation::MemoryUsageReport), in both layouts.
    // The cumulative column of a value line: the running sum of the groups' sizes, and the
    // share of their whole sum (`  13.50MiB(100%)`); -1 when unreadable.
    const auto readCumulative = [](sv fields, std::int64_t &cumulative, std::int64_t &ulp,
                                   int &percent) {
        const auto semi = fields.find(';');
        const sv field = trim(fields.substr(0, semi == sv::npos ? fields.size() : semi));
        const auto open = field.find('(');
        cumulative = -1;
        percent = -1;
        if (open == sv::npos || !field.ends_with("%)"))
            return;
        cumulative = parseHumanBytes(trim(field.substr(0, open)), &ulp);
        std::int64_t p = -1;
        if (readInt(trim(field.substr(open + 1, field.size() - open - 3)), p) && p >= 0 && p <= 100)
            percent = static_cast<int>(p);
    };
    const auto readGroup = [](sv fields, Group &g, std::int64_t &ulp) {
        const auto skip = [&fields]() {
            const auto semi = fields.find(';');
            if (semi == sv::npos)
                return sv();
            const sv field = fields.substr(0, semi);
            fields.remove_prefix(semi + 1);
            return field;
        };
        skip(); // cumulative size and share
        const sv size = skip();
        const sv offset = skip();
        const sv count = skip();
        g.size = parseHumanBytes(size, &ulp);
        if (g.size < 0 || !readInt(offset, g.offset) || !readInt(count, g.values))
            return false;
        g.shapes = std::string(trim(fields));
        return true;
    };
    std::size_t spaceAllocation = 0; // the 2026 layout: the allocation being read, + 1
    std::vector<std::int64_t> ulps;  // per allocation of the 2026 layout: its sizes' rounding
    // Per allocation of the 2026 layout: the most its cumulative column says (the 100 % row's
    // when printed), that figure's rounding, and the line that says it.
    struct Cumulative
    {
        std::int64_t bytes = -1;
        std::int64_t ulp = 0;
        bool whole = false; ///< a row says 100 %
        std::size_t line = 0;
    };
    std::vector<Cumulative> cumulatives;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const sv raw = lines[i];
        const sv line = trim(raw);
        if (line.starts_with("Memory Space: ") && part == Part::Header) {
            // The 2026 layout (343fc3437b): `Memory Space: hbm (color=3)`.
            r.layout = 2;
            MemoryUsageReport::MemorySpace space;
            const sv rest = line.substr(14);
            const auto open = rest.rfind(" (color=");
            std::int64_t color = 0;
            if (open == sv::npos || !rest.ends_with(")") ||
                !readInt(rest.substr(open + 8, rest.size() - open - 9), color) || color < 0 ||
                color > 1'000'000) {
                problem(i, "unreadable memory space line '" + std::string(line) + "'");
                continue;
            }
            space.name = std::string(rest.substr(0, open));
            space.color = static_cast<std::int32_t>(color);
            space.firstAllocation = r.allocations.size();
            r.memorySpaces.push_back(std::move(space));
            spaceAllocation = 0;
            continue;
        }
        if (r.layout == 2) {
            if (line.empty() || line.starts_with("----"))
                continue;
            if (r.memorySpaces.empty()) {
                problem(i, "unexpected line before 'Memory Space:'");
                continue;
            }
            MemoryUsageReport::MemorySpace &space = r.memorySpaces.back();
            if (line.starts_with("Total bytes: ")) {
                sv n = trim(line.substr(13));
                n = n.substr(0, n.find(' '));
                if (!readInt(n, space.totalBytes) || space.totalBytes < 0)
                    problem(i, "unreadable total '" + std::string(line) + "'");
                continue;
            }
            if (line.starts_with("cumulative_size;")) {
                // Each allocation's table starts with its header; no allocation line in 2026.
                Allocation a;
                a.color = space.color;
                a.attributesKnown = false;
                r.allocations.push_back(std::move(a));
                ulps.push_back(0);
                cumulatives.emplace_back();
                ++space.allocationCount;
                spaceAllocation = r.allocations.size();
                continue;
            }
            if (spaceAllocation == 0) {
                problem(i, "unexpected line before an allocation's 'cumulative_size;' header");
                continue;
            }
            Allocation &a = r.allocations[spaceAllocation - 1];
            if (line.starts_with("The rest ")) {
                std::int64_t n = 0;
                if (readInt(line.substr(9, line.find(' ', 9) - 9), n))
                    a.hiddenGroups = n;
                continue;
            }
            Group g;
            std::int64_t ulp = 0;
            if (!readGroup(line, g, ulp)) {
                problem(i, "unreadable value line of an allocation");
                continue;
            }
            a.size += g.size;
            ulps[spaceAllocation - 1] += ulp;
            a.groups.push_back(std::move(g));
            std::int64_t cumulative = -1, cumulativeUlp = 0;
            int percent = -1;
            readCumulative(line, cumulative, cumulativeUlp, percent);
            if (Cumulative &c = cumulatives[spaceAllocation - 1]; cumulative > c.bytes) {
                c = {cumulative, cumulativeUlp, percent == 100, i};
            }
            continue;
        }
        if (line.empty() || line.starts_with("----") || line.starts_with("cumulative_size;"))
            continue;
        if (line.starts_with("Total bytes used:")) {
            sv n = trim(line.substr(17));
            n = n.substr(0, n.find(' '));
            if (!readInt(n, r.totalBytes))
                problem(i, "unreadable total '" + std::string(line) + "'");
            continue;
        }
        if (line == "Allocations sorted by size:") {
            part = Part::Sorted;
            continue;
        }
        if (line == "Allocations sorted by size with their values:") {
            part = Part::Detailed;
            continue;
        }
        if (line.starts_with("The rest ")) {
            std::int64_t n = 0;
            const sv count = line.substr(9, line.find(' ', 9) - 9);
            if (readInt(count, n)) {
                if (part == Part::Sorted)
                    r.hiddenAllocations = n;
                else if (current)
                    current->hiddenGroups = n;
            }
            continue;
        }
        std::string error;
        if (part == Part::Sorted) {
            sv rest;
            Allocation a;
            if (!splitCumulative(line, 2, rest) || !readAllocation(rest, a, error)) {
                problem(i, "unreadable allocation line: " +
                               (error.empty() ? std::string("expected 'C(P%); R; allocation …'")
                                              : error));
                continue;
            }
            byIndex.insert_or_assign(a.index, r.allocations.size());
            r.allocations.push_back(std::move(a));
            ++r.sortedListed;
            continue;
        }
        if (part == Part::Detailed) {
            if (line.starts_with("allocation ")) {
                Allocation a;
                if (!readAllocation(line, a, error)) {
                    problem(i, "unreadable allocation line: " + error);
                    current = nullptr;
                    continue;
                }
                // The last allocation listed with that number, when the first list has it.
                if (const auto known = byIndex.find(a.index); known != byIndex.end()) {
                    current = &r.allocations[known->second];
                } else { // not in the first list (it was cut): keep it
                    byIndex.emplace(a.index, r.allocations.size());
                    r.allocations.push_back(std::move(a));
                    current = &r.allocations.back();
                }
                continue;
            }
            Group g;
            std::int64_t ulp = 0;
            if (!current || !readGroup(line, g, ulp)) {
                problem(i, "unreadable value line of an allocation");
                continue;
            }
            current->groups.push_back(std::move(g));
            continue;
        }
        problem(i, "unexpected line before 'Allocations sorted by size:'");
    }
    if (r.layout == 2) {
        // The total is every space's, exact; an allocation's size is what its values' groups
        // add up to, as printed (the allocation's own size is not in the text).
        std::int64_t total = 0;
        bool overflow = false;
        for (const MemoryUsageReport::MemorySpace &space : r.memorySpaces) {
            if (space.totalBytes < 0)
                problem(0, "memory space " + space.name + " has no 'Total bytes:' line");
            overflow = overflow || __builtin_add_overflow(
                                       total, std::max<std::int64_t>(space.totalBytes, 0), &total);
        }
        if (overflow)
            problem(0, "the memory spaces' totals are too large to add up (more than 2^63 "
                       "bytes); no total is given");
        r.totalBytes = overflow ? -1 : total;
        for (std::size_t k = 0; k < r.allocations.size(); ++k) {
            MemoryUsageReport::Allocation &a = r.allocations[k];
            a.sizeUlp = ulps[k];
            // Rows left out (by whoever pasted or edited the report; XLA's own cut says "The
            // rest N values"): the cumulative column runs past what the rows that remain add up
            // to. The allocation is the groups' whole sum, which the 100 % row's cumulative
            // says; without that row the most it says is a floor.
            const Cumulative &c = cumulatives[k];
            // Saturated: a hostile report's sizes may add up near 2^63.
            const std::int64_t listedHigh =
                a.size > std::numeric_limits<std::int64_t>::max() - a.sizeUlp
                    ? std::numeric_limits<std::int64_t>::max()
                    : a.size + a.sizeUlp;
            if (c.bytes >= 0 && c.bytes - c.ulp > listedHigh) {
                const std::int64_t listed = a.size;
                a.size = c.bytes;
                a.sizeUlp = c.ulp;
                a.rowsLeftOut = true;
                problem(c.line,
                        "rows are missing from " + r.allocationLabel(k) +
                            ": the rows listed add "
                            "up to " +
                            humanBytes(listed) + " but its cumulative column reaches " +
                            humanBytes(c.bytes) +
                            (c.whole ? " at 100 %; sized by the cumulative column"
                                     : " before its 100 % row, also missing; sized at least "
                                       "by the cumulative column"));
            }
        }
        r.sortedListed = static_cast<std::int64_t>(r.allocations.size());
        return r;
    }
    if (r.totalBytes < 0)
        problem(0, "no 'Total bytes used:' line");
    return r;
}

MemoryUsageReport MemoryUsageReports::parseProto(std::string_view bytes)
{
    MemoryUsageReport r;
    xlapb::MemoryUsageReportProto proto;
    // What the parse would take, before it takes it (an empty entry is two bytes on the wire
    // and a whole object in memory).
    if (bytes.size() <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        // As for a module (parse/HloProtoDump.cpp): a quarter of what the file may become.
        const std::int64_t allowance =
            decompress::expandedLimit(static_cast<std::int64_t>(bytes.size())) / 4;
        if (wire::parsedSize(bytes, *xlapb::MemoryUsageReportProto::descriptor(), allowance) >
            allowance) {
            r.problems.push_back(
                {0, "its " + std::to_string(bytes.size()) + " bytes would take more than " +
                        std::to_string(allowance) +
                        " bytes of memory to read: entries packed far more densely than XLA "
                        "writes them; refused rather than filling memory"});
            return r;
        }
    }
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
        r.problems.push_back({0, "not a serialized xla.MemoryUsageReportProto (the protobuf data "
                                 "does not parse: damaged, cut short, or another kind of file)"});
        return r;
    }
    // Zero bytes parse as an empty message, and so does a proto of another kind whose fields
    // are all unknown here: a report names at least one memory space.
    if (proto.memory_space_allocation_entries_size() == 0) {
        r.problems.push_back({0, bytes.empty() ? "the file is empty (zero bytes)"
                                               : "it holds no memory space: not an "
                                                 "xla.MemoryUsageReportProto, or an empty one"});
        return r;
    }
    // Each allocation's hlo_text is its part of the 2026 text report: written as that report
    // and read by the text reader, then given the number and exact size the proto adds.
    std::string text;
    std::vector<const xlapb::MemoryUsageReportProto::AllocationEntry *> entries;
    for (const auto &space : proto.memory_space_allocation_entries()) {
        const std::int32_t color = space.memory_space_color();
        if (color < 0 || space.total_bytes() < 0) {
            r.problems.push_back({0, "a memory space has a negative colour or total"});
            return r;
        }
        text += "Memory Space: color_" + std::to_string(color) +
                " (color=" + std::to_string(color) +
                ")\nTotal bytes: " + std::to_string(space.total_bytes()) + " (" +
                humanBytes(space.total_bytes()) + ")\n";
        for (const auto &entry : space.allocation_entries()) {
            // The table's header opens an allocation; a text without it would merge two.
            std::string_view body = entry.hlo_text();
            if (body.find("cumulative_size;") == std::string_view::npos)
                text +=
                    "  cumulative_size;       size;       offset; used_by_n_values; shapes_list\n";
            for (const char c : body)
                text += c == '\r' ? ' ' : c;
            text += "\n\n";
            entries.push_back(&entry);
        }
        text += "\n";
    }
    r = parse(text);
    // Nothing of a text that does not match the proto is kept: only why.
    const auto notOneTableEach = [] {
        MemoryUsageReport bad;
        bad.problems.push_back({0, "the report's allocation texts do not read as one table each "
                                   "(an allocation's text holds lines of its own)"});
        return bad;
    };
    if (r.allocations.size() != entries.size() ||
        r.memorySpaces.size() !=
            static_cast<std::size_t>(proto.memory_space_allocation_entries_size())) {
        return notOneTableEach();
    }
    // The proto's figures are exact; a text that says otherwise (a line of an allocation's
    // text that reads as a space's header or total) never replaces them: said, and not kept.
    bool overflow = false;
    std::int64_t total = 0;
    for (std::size_t k = 0; k < r.memorySpaces.size(); ++k) {
        const auto &space = proto.memory_space_allocation_entries(static_cast<int>(k));
        MemoryUsageReport::MemorySpace &read = r.memorySpaces[k];
        if (read.allocationCount != static_cast<std::size_t>(space.allocation_entries_size())) {
            return notOneTableEach();
        }
        if (read.color != space.memory_space_color() || read.totalBytes != space.total_bytes())
            r.problems.push_back(
                {0, "memory space " + std::to_string(space.memory_space_color()) +
                        ": its allocations' text gives another colour or total (" +
                        std::to_string(read.totalBytes) + " bytes) than the proto's exact " +
                        std::to_string(space.total_bytes()) + " bytes, which are kept"});
        read.color = space.memory_space_color();
        read.totalBytes = space.total_bytes();
        overflow = overflow || __builtin_add_overflow(total, read.totalBytes, &total);
    }
    if (overflow)
        r.problems.push_back({0, "the memory spaces' totals are too large to add up (more than "
                                 "2^63 bytes); no total is given"});
    r.totalBytes = overflow ? -1 : total;
    r.layout = 3;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        Allocation &a = r.allocations[i];
        a.index = entries[i]->index();
        a.size = entries[i]->size();
        a.sizeUlp = 0;
    }
    // The proto gives the colour; the text names it by GetMemorySpaceName (docs/FORMAT.md §5.1).
    for (MemoryUsageReport::MemorySpace &space : r.memorySpaces) {
        static constexpr const char *kNames[] = {"default", "vmem", "smem", "hbm", "host", "cmem"};
        space.name = space.color >= 0 && space.color < 6 ? kNames[space.color]
                                                         : "color_" + std::to_string(space.color);
    }
    // Its problems name lines of the text made here, not of the file.
    for (Problem &p : r.problems)
        p.line = 0;
    return r;
}

MemoryUsageReport MemoryUsageReports::readFile(const std::string &path, std::string *error)
{
    MemoryUsageReport r;
    if (isBinaryName(path)) {
        const Decompressed read = decompress::file(path);
        if (!read.ok()) {
            *error = read.error;
            return {};
        }
        r = parseProto(read.bytes);
    } else {
        MappedFile file;
        if (!file.open(path, *error))
            return {};
        r = parse(file.data());
    }
    // Nothing read at all (a damaged proto, a text that is no report): an error, not an empty
    // report with a warning under it.
    if (r.totalBytes < 0 && r.allocations.empty() && r.memorySpaces.empty()) {
        *error = r.problems.empty() ? std::string("it holds no memory-usage report")
                                    : r.problems.front().message;
        return {};
    }
    return r;
}

} // namespace bufferscope
