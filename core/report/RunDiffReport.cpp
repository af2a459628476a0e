#include "report/RunDiffReport.h"

#include "model/Dump.h"
#include "report/JsonWriter.h"
#include "util/SafeText.h"

namespace bufferscope {

namespace {

std::string signedBytes(std::int64_t bytes)
{
    return bytes == 0 ? std::string("±0B")
                      : (bytes > 0 ? "+" : "-") + humanBytes(bytes > 0 ? bytes : -bytes);
}

} // namespace

std::string RunDiffReport::text(const RunDiff &d, const std::string &before,
                                const std::string &after, std::size_t top)
{
    std::string out;
    const auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text);
        out += '\n';
    };
    line("BufferScope run diff");
    line("  before  " + before);
    line("  after   " + after);
    line("  " + std::to_string(d.pairedCompiles) + " compiles paired, " +
         std::to_string(d.unchangedCompiles) + " of them unchanged; " +
         std::to_string(d.changed.size()) + " changed");
    line();
    const auto list = [&line](const char *title, const std::vector<std::string> &names) {
        if (names.empty())
            return;
        std::string all;
        for (std::size_t i = 0; i < names.size() && i < 20; ++i)
            all += (i ? ", " : "") + names[i];
        if (names.size() > 20)
            all += ", … (" + std::to_string(names.size()) + " in all)";
        line(std::string(title) + all);
    };
    list("Appeared:  ", d.appeared);
    list("Vanished:  ", d.vanished);
    for (const RunDiff::Recompiled &r : d.recompiled)
        line("Compiled " + std::to_string(r.before) + "× before, " + std::to_string(r.after) +
             "× after: " + r.name);
    if (!d.appeared.empty() || !d.vanished.empty() || !d.recompiled.empty())
        line();
    if (d.changed.empty()) {
        line("No compile holds another amount or peaks differently.");
        return out;
    }
    line("Changed compiles (the largest change of what is held first)");
    for (std::size_t i = 0; i < d.changed.size() && i < top; ++i) {
        const RunDiff::Changed &c = d.changed[i];
        line("  " + c.name + (c.renamedFrom.empty() ? "" : " (was " + c.renamedFrom + ")") + " " +
             c.signature);
        line("      held " + humanBytes(c.heldBefore) + " -> " + humanBytes(c.heldAfter) + " (" +
             signedBytes(c.heldDelta()) + "), live peak " + signedBytes(c.peakDelta()));
        if (c.comparison.hasCause)
            line("      why: " + c.comparison.cause);
        line("      " + c.before + " -> " + c.after);
    }
    if (d.changed.size() > top)
        line("  … " + std::to_string(d.changed.size() - top) + " more (--top N)");
    return out;
}

std::string RunDiffReport::json(const RunDiff &d, const std::string &before,
                                const std::string &after)
{
    JsonWriter w;
    w.beginObject();
    w.key("before").value(before);
    w.key("after").value(after);
    w.key("paired_compiles").value(static_cast<std::int64_t>(d.pairedCompiles));
    w.key("unchanged_compiles").value(static_cast<std::int64_t>(d.unchangedCompiles));
    w.key("appeared").beginArray();
    for (const std::string &n : d.appeared)
        w.value(n);
    w.endArray();
    w.key("vanished").beginArray();
    for (const std::string &n : d.vanished)
        w.value(n);
    w.endArray();
    w.key("recompiled").beginArray();
    for (const RunDiff::Recompiled &r : d.recompiled) {
        w.beginObject();
        w.key("name").value(r.name);
        w.key("before").value(static_cast<std::int64_t>(r.before));
        w.key("after").value(static_cast<std::int64_t>(r.after));
        w.endObject();
    }
    w.endArray();
    w.key("changed").beginArray();
    for (const RunDiff::Changed &c : d.changed) {
        w.beginObject();
        w.key("name").value(c.name);
        w.key("renamed_from");
        if (c.renamedFrom.empty())
            w.null();
        else
            w.value(c.renamedFrom);
        w.key("signature").value(c.signature);
        w.key("before_module").value(c.before);
        w.key("after_module").value(c.after);
        w.key("held_delta").value(c.heldDelta());
        w.key("peak_delta").value(c.peakDelta());
        w.key("cause");
        if (c.comparison.hasCause)
            w.value(c.comparison.cause);
        else
            w.null();
        w.key("cause_kind");
        if (c.comparison.hasCause)
            w.value(causeKindKey(c.comparison.causeKind));
        else
            w.null();
        w.key("lost_donation").value(c.comparison.lostDonation);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
