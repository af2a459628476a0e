#include "report/RunDiffReport.h"

#include "model/Dump.h"
#include "report/JsonWriter.h"
#include "util/SafeText.h"

namespace bufferscope {

namespace {

const char *changeKey(RunDiff::Change change)
{
    switch (change) {
    case RunDiff::Change::New:
        return "new";
    case RunDiff::Change::Gone:
        return "gone";
    case RunDiff::Change::Changed:
        break;
    }
    return "changed";
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
         std::to_string(d.unchangedCompiles) + " of them unchanged, " +
         std::to_string(d.count(RunDiff::Change::Changed)) + " changed; " +
         std::to_string(d.count(RunDiff::Change::New)) + " new, " +
         std::to_string(d.count(RunDiff::Change::Gone)) + " gone");
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
    for (const RunDiff::Unreadable &u : d.unreadable)
        line(std::string("Unreadable (") + (u.after ? "after" : "before") +
             " run, not compared): " + u.said());
    if (!d.unreadable.empty())
        line();
    list("Appeared:  ", d.appeared);
    list("Vanished:  ", d.vanished);
    for (const RunDiff::Recompiled &r : d.recompiled)
        line("Compiled " + std::to_string(r.before) + "× before, " + std::to_string(r.after) +
             "× after: " + r.name);
    for (const std::string &shared : d.sharedNames)
        line("Note: " + shared + "; each is compared on its own");
    if (!d.appeared.empty() || !d.vanished.empty() || !d.recompiled.empty() ||
        !d.sharedNames.empty())
        line();
    if (d.rows.empty()) {
        line("No compile holds another amount or peaks differently, and none is new or gone.");
        return out;
    }
    line("Compiles that changed, are new or are gone (the largest change of what is held first)");
    for (std::size_t i = 0; i < d.rows.size() && i < top; ++i) {
        const RunDiff::Row &c = d.rows[i];
        line("  " + std::string(changeKey(c.change)) + "  " + c.name +
             (c.renamedFrom.empty() ? "" : " (was " + c.renamedFrom + ")") + " " + c.signature);
        if (c.change == RunDiff::Change::Changed)
            line("      held " + humanBytes(c.heldBefore) + " -> " + humanBytes(c.heldAfter) +
                 " (" + signedHumanBytes(c.heldDelta()) + "), live peak " +
                 signedHumanBytes(c.peakDelta()));
        else
            line("      held " + signedHumanBytes(c.heldDelta()) + ", live peak " +
                 signedHumanBytes(c.peakDelta()));
        line("      what changed: " + c.whatChanged);
        if (c.change == RunDiff::Change::Changed && !c.comparison.ok)
            line("      why: " + c.comparison.notCompared());
        else if (!c.comparison.cause.empty())
            line("      why: " + c.comparison.cause);
        line("      " + (c.before.empty() ? std::string("(none)") : c.before) + " -> " +
             (c.after.empty() ? std::string("(none)") : c.after));
    }
    if (d.rows.size() > top)
        line("  … " + std::to_string(d.rows.size() - top) + " more (--top N)");
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
    w.key("shared_names").beginArray();
    for (const std::string &shared : d.sharedNames)
        w.value(shared);
    w.endArray();
    w.key("unreadable").beginArray();
    for (const RunDiff::Unreadable &u : d.unreadable) {
        w.beginObject();
        w.key("run").value(u.after ? "after" : "before");
        w.key("module").value(u.name);
        w.key("file").value(u.file);
        w.key("error").value(u.error);
        w.endObject();
    }
    w.endArray();
    // Every compile that changed, is new or is gone, the largest |held delta| first; `changed`
    // holds the paired ones alone, as before.
    const auto row = [&w](const RunDiff::Row &c) {
        w.beginObject();
        w.key("change").value(std::string(changeKey(c.change)));
        w.key("name").value(c.name);
        w.key("renamed_from");
        if (c.renamedFrom.empty())
            w.null();
        else
            w.value(c.renamedFrom);
        w.key("arguments").value(static_cast<std::int64_t>(c.arguments));
        w.key("signature").value(c.signature);
        w.key("what_changed").value(c.whatChanged);
        w.key("before_module");
        if (c.before.empty())
            w.null();
        else
            w.value(c.before);
        w.key("after_module");
        if (c.after.empty())
            w.null();
        else
            w.value(c.after);
        w.key("held_before").value(c.heldBefore);
        w.key("held_after").value(c.heldAfter);
        w.key("held_delta").value(c.heldDelta());
        w.key("peak_delta").value(c.peakDelta());
        w.key("cause");
        if (c.comparison.cause.empty())
            w.null();
        else
            w.value(c.comparison.cause);
        w.key("cause_kind");
        if (c.comparison.hasCause)
            w.value(causeKindKey(c.comparison.causeKind));
        else
            w.null();
        w.key("cause_text");
        if (c.comparison.hasCause)
            w.value(c.comparison.causeText);
        else
            w.null();
        w.key("lost_donation").value(c.comparison.lostDonation);
        if (c.change == RunDiff::Change::Changed) {
            w.key("compared").value(c.comparison.ok);
            if (!c.comparison.ok)
                w.key("compare_error").value(c.comparison.notCompared());
        }
        w.endObject();
    };
    w.key("compiles").beginArray();
    for (const RunDiff::Row &c : d.rows)
        row(c);
    w.endArray();
    w.key("changed").beginArray();
    for (const RunDiff::Row &c : d.rows)
        if (c.change == RunDiff::Change::Changed)
            row(c);
    w.endArray();
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
