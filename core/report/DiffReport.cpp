#include "DiffReport.h"

#include "report/JsonWriter.h"
#include "report/Report.h"
#include "util/SafeText.h"

#include <cstdlib>

namespace bufferscope {

namespace {

std::string stepText(const Dump &d, std::int64_t step)
{
    return "step " + std::to_string(step) + " (" + Report::instructionAt(d, step) + ")";
}

std::string rangeText(const DiffSide &s)
{
    return s.start < 0 ? std::string("no live range")
                       : "steps " + std::to_string(s.start) + "-" + std::to_string(s.end);
}

void writeSide(JsonWriter &w, const DiffSide &side)
{
    if (side.value == kNone) {
        w.null();
        return;
    }
    w.beginObject();
    w.key("bytes").value(side.bytes);
    w.key("start").value(side.start);
    w.key("end").value(side.end);
    w.key("allocation").value(side.allocation);
    w.endObject();
}

void writeName(JsonWriter &w, const char *key, const DiffSide &side)
{
    w.key(key);
    if (side.value == kNone)
        w.null();
    else
        w.value(side.name);
}

void writeChanges(JsonWriter &w, const char *key, const std::vector<ValueChange> &changes)
{
    w.key(key).beginArray();
    for (const ValueChange &c : changes) {
        w.beginObject();
        w.key("name").value(c.name());
        writeName(w, "name_before", c.before);
        writeName(w, "name_after", c.after);
        w.key("before");
        writeSide(w, c.before);
        w.key("after");
        writeSide(w, c.after);
        w.key("bytes_delta").value(c.delta());
        w.key("changes").beginArray();
        for (const auto &[flag, text] : {std::pair{ValueChange::Resized, "resized"},
                                         std::pair{ValueChange::LiveRange, "live_range"},
                                         std::pair{ValueChange::Moved, "moved"}})
            if (c.flags & flag)
                w.value(text);
        w.endArray();
        w.endObject();
    }
    w.endArray();
}

void writeDeltas(JsonWriter &w, const char *key, const std::vector<KeyDelta> &deltas)
{
    w.key(key).beginArray();
    for (const KeyDelta &d : deltas) {
        w.beginObject();
        w.key("key").value(d.key);
        w.key("before").value(d.before);
        w.key("after").value(d.after);
        w.key("delta").value(d.delta());
        w.endObject();
    }
    w.endArray();
}

void writeTree(JsonWriter &w, const DeltaNode &node)
{
    w.beginObject();
    w.key("label").value(node.label);
    w.key("before").value(node.before);
    w.key("after").value(node.after);
    w.key("delta").value(node.delta());
    w.key("children").beginArray();
    for (const DeltaNode &c : node.children)
        writeTree(w, c);
    w.endArray();
    w.endObject();
}

} // namespace

std::string DiffReport::signedBytes(std::int64_t delta)
{
    return signedHumanBytes(delta) + " (" + (delta > 0 ? "+" : "") + std::to_string(delta) +
           " bytes)";
}

std::string DiffReport::flagsText(std::uint8_t flags)
{
    std::string out;
    const auto add = [&out](const char *text) {
        if (!out.empty())
            out += ", ";
        out += text;
    };
    if (flags & ValueChange::Resized)
        add("resized");
    if (flags & ValueChange::LiveRange)
        add("live range");
    if (flags & ValueChange::Moved)
        add("moved");
    return out;
}

const char *DiffReport::peakKindText(PeakChange::Kind kind)
{
    switch (kind) {
    case PeakChange::Kind::Added:
        return "new value";
    case PeakChange::Kind::Removed:
        return "value gone";
    case PeakChange::Kind::Joined:
        return "now live at the peak";
    case PeakChange::Kind::Left:
        return "no longer live at the peak";
    case PeakChange::Kind::Grown:
        return "grown";
    case PeakChange::Kind::Shrunk:
        return "shrunk";
    }
    return "";
}

const char *DiffReport::peakKindKey(PeakChange::Kind kind)
{
    switch (kind) {
    case PeakChange::Kind::Added:
        return "added";
    case PeakChange::Kind::Removed:
        return "removed";
    case PeakChange::Kind::Joined:
        return "joined";
    case PeakChange::Kind::Left:
        return "left";
    case PeakChange::Kind::Grown:
        return "grown";
    case PeakChange::Kind::Shrunk:
        return "shrunk";
    }
    return "";
}

std::string DiffReport::text(const DumpDiff &d, const Dump &a, const Dump &b,
                             const DiffReportOptions &options)
{
    std::string out;
    const auto line = [&out](const std::string &text = {}) {
        out += safetext::forTerminal(text); // names are the dump's: no control reaches a terminal
        out += '\n';
    };
    const auto top = static_cast<std::size_t>(std::max(0, options.top));
    const auto more = [&](std::size_t n) {
        if (n > top)
            line("    … " + std::to_string(n - top) + " more (--top)");
    };
    line("BufferScope diff");
    line("  before  " + options.before);
    line("  after   " + options.after);
    for (const auto &[dump, name] : {std::pair{&a, "before"}, std::pair{&b, "after"}})
        if (dump->traits.truncated)
            line(std::string("  WARNING the ") + name +
                 " dump looks truncated: what it lacks is compared as absent (see Warnings)");
    line("  total   " + humanBytes(d.totalBefore) + " -> " + humanBytes(d.totalAfter) + "  " +
         signedBytes(d.totalDelta()));
    line("  peak    " + humanBytes(d.peakBefore) + " at " + stepText(a, d.peakStepBefore) + " -> " +
         humanBytes(d.peakAfter) + " at " + stepText(b, d.peakStepAfter) + "  " +
         signedBytes(d.peakDelta()));
    const DiffCauses &why = d.why;
    line("  held    " + humanBytes(why.heldBefore) + " -> " + humanBytes(why.heldAfter) + "  " +
         signedBytes(why.heldAfter - why.heldBefore) +
         "  (argument + output - alias + temp: what the device holds while it runs)");
    if (d.partStepBefore >= 0)
        line("  curves  first part at step " + std::to_string(d.partStepBefore) + " of before, " +
             std::to_string(d.partStepAfter) + " of after (" + humanBytes(d.partBytesBefore) +
             " -> " + humanBytes(d.partBytesAfter) + " live)");
    else
        line("  curves  the same on every aligned step");
    line();
    line("Why memory changed" +
         std::string(why.causes.empty() ? ": nothing changed the peak or what is held" : ""));
    line("  " + why.headline);
    if (why.peakMoved)
        line("  " + why.peakMovedText);
    for (std::size_t k = 0; k < why.causes.size() && k < top; ++k) {
        const Cause &c = why.causes[k];
        line("  " + std::string(causeKindKey(c.kind)) + "  peak " + signedBytes(c.peakDelta) +
             ", held " + signedBytes(c.heldDelta));
        line("      " + c.text);
    }
    more(why.causes.size());
    // XLA's own printed peaks after the causes: a second opinion, and why it differs.
    if (why.printedPeaks) {
        line();
        line("XLA's printed peaks  " + humanBytes(why.printedBefore) + " -> " +
             humanBytes(why.printedAfter) + "  " +
             signedBytes(why.printedAfter - why.printedBefore));
        if (!why.printedDisagree.empty())
            line("  " + why.printedDisagree);
    }
    line();
    line(
        "Values matched by structure (opcode, shape, op_name, stack, operands, users, schedule): " +
        std::to_string(d.matched) + " in both (" + std::to_string(d.renamed) + " renamed), " +
        std::to_string(d.added.size()) + " added, " + std::to_string(d.removed.size()) +
        " removed, " + std::to_string(d.changed.size()) + " changed");
    if (d.differentPrograms())
        line("  warning: " + d.differentProgramsText());
    const auto list = [&](const char *title, const std::vector<ValueChange> &changes,
                          bool isAdded) {
        if (changes.empty())
            return;
        line(std::string("  ") + title);
        for (std::size_t k = 0; k < changes.size() && k < top; ++k) {
            const DiffSide &side = isAdded ? changes[k].after : changes[k].before;
            line("    " + std::string(isAdded ? "+ " : "- ") + humanBytes(side.bytes) + "  " +
                 side.name + "  " + rangeText(side));
        }
        more(changes.size());
    };
    list("added", d.added, true);
    list("removed", d.removed, false);
    if (!d.changed.empty()) {
        line("  changed");
        for (std::size_t k = 0; k < d.changed.size() && k < top; ++k) {
            const ValueChange &c = d.changed[k];
            line("    " + c.before.name + (c.renamed() ? " → " + c.after.name : std::string()) +
                 "  [" + flagsText(c.flags) + "]  " + humanBytes(c.before.bytes) + " " +
                 rangeText(c.before) + " alloc " + std::to_string(c.before.allocation) + " -> " +
                 humanBytes(c.after.bytes) + " " + rangeText(c.after) + " alloc " +
                 std::to_string(c.after.allocation));
        }
        more(d.changed.size());
    }

    line();
    line("What differs at the peaks (" + signedBytes(d.peakDelta()) + ")" +
         (d.atPeak.empty() ? ": nothing" : ""));
    for (std::size_t k = 0; k < d.atPeak.size() && k < top; ++k) {
        const PeakChange &c = d.atPeak[k];
        std::string names = c.before.value != kNone ? c.before.name : c.after.name;
        if (c.before.value != kNone && c.after.value != kNone && c.before.name != c.after.name)
            names += " → " + c.after.name;
        line("  " + signedBytes(c.contribution) + "  " + names + "  " + peakKindText(c.kind));
    }
    more(d.atPeak.size());

    const auto deltas = [&](const std::string &title, const std::vector<KeyDelta> &rows) {
        line();
        line(title + (rows.empty() ? ": no change" : ""));
        for (std::size_t k = 0; k < rows.size() && k < top; ++k)
            line("  " + signedBytes(rows[k].delta()) + "  " + rows[k].key + "  (" +
                 humanBytes(rows[k].before) + " -> " + humanBytes(rows[k].after) + ")");
        more(rows.size());
    };
    const auto tree = [&](const std::string &title, const DeltaNode &root) {
        line();
        line(title + (root.children.empty() ? ": no change" : ""));
        std::size_t shown = 0;
        // Depth first, each level largest change first, to the --top'th line.
        std::vector<std::pair<const DeltaNode *, int>> stack;
        for (auto it = root.children.rbegin(); it != root.children.rend(); ++it)
            stack.emplace_back(&*it, 0);
        while (!stack.empty() && shown < top) {
            const auto [node, depth] = stack.back();
            stack.pop_back();
            line("  " + std::string(static_cast<std::size_t>(depth) * 2, ' ') +
                 signedBytes(node->delta()) + "  " + node->label + "  (" +
                 humanBytes(node->before) + " -> " + humanBytes(node->after) + ")");
            ++shown;
            for (auto it = node->children.rbegin(); it != node->children.rend(); ++it)
                stack.emplace_back(&*it, depth + 1);
        }
        if (!stack.empty())
            line("    … more (--top)");
    };
    if (!d.opNameRootBefore.empty())
        line("  op_name roots differ (" + d.opNameRootBefore + " → " + d.opNameRootAfter +
             "): the op_name tree is compared below them");
    tree("Live at each peak, by op_name", d.opNameTree);
    if (d.hasStacks)
        tree("Live at each peak, by call stack (outermost caller first)", d.stackTree);
    deltas("Live at each peak, by source", d.bySource);
    deltas("Live at each peak, by allocation kind", d.byKind);

    line();
    {
        // What kind of memory changed (analysis/Categories), the largest change first.
        const DumpDiff::CategorySide &ca = d.categoriesBefore;
        const DumpDiff::CategorySide &cb = d.categoriesAfter;
        std::vector<std::size_t> order;
        for (std::size_t c = 0; c < kCategoryCount; ++c)
            if (ca.held[c] != cb.held[c] || ca.peak[c] != cb.peak[c])
                order.push_back(c);
        const auto change = [&](std::size_t c) {
            return std::max(std::abs(cb.held[c] - ca.held[c]),
                            ca.peak[c] >= 0 && cb.peak[c] >= 0 ? std::abs(cb.peak[c] - ca.peak[c])
                                                               : 0);
        };
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return change(x) > change(y); });
        line("By category (held while it runs; live at each peak)" +
             std::string(order.empty() ? ": no change" : "") +
             (ca.training != cb.training
                  ? std::string(cb.training ? " — after is a training step, before is not"
                                            : " — before is a training step, after is not")
                  : std::string()));
        for (const std::size_t c : order) {
            std::string name(categoryName(static_cast<Category>(c)));
            name.resize(std::max<std::size_t>(name.size(), 18), ' ');
            std::string row = "  " + name + "held " + humanBytes(ca.held[c]) + " -> " +
                              humanBytes(cb.held[c]) + " (" + signedBytes(cb.held[c] - ca.held[c]) +
                              ")";
            if (ca.peak[c] >= 0 && cb.peak[c] >= 0 && ca.peak[c] != cb.peak[c])
                row += "   peak " + humanBytes(ca.peak[c]) + " -> " + humanBytes(cb.peak[c]) +
                       " (" + signedBytes(cb.peak[c] - ca.peak[c]) + ")";
            line(row);
        }
    }

    line();
    line("Donations (parameters aliased with an output)" +
         std::string(d.donations.empty() ? ": no change" : ""));
    for (const DonationChange &c : d.donations)
        line(
            std::string(c.lost ? "  LOST    " : "  gained  ") + "parameter " +
            std::to_string(c.parameter) + " " + c.index + " (" + humanBytes(c.bytes) + "): " +
            (c.lost ? "aliased with an output before, not after" : "aliased with an output after"));

    const auto warnings = [&](const char *name, const Dump &dump,
                              const std::vector<Diagnostic> &found) {
        line();
        const auto count = found.size() + static_cast<std::size_t>(dump.suppressedWarnings);
        if (count == 0) {
            line(std::string("Warnings in ") + name + ": none");
            return;
        }
        line(std::string("Warnings in ") + name + " (" + std::to_string(count) + ")");
        for (const Diagnostic &w : found)
            line("  " + dump.diagnosticText(w));
        if (dump.suppressedWarnings > 0)
            line("  … " + std::to_string(dump.suppressedWarnings) + " more not shown");
    };
    warnings("before", a, options.beforeWarnings);
    warnings("after", b, options.afterWarnings);
    return out;
}

std::string DiffReport::json(const DumpDiff &d, const Dump &a, const Dump &b,
                             const DiffReportOptions &options)
{
    JsonWriter w;
    w.beginObject();
    w.key("before").value(options.before);
    w.key("after").value(options.after);
    w.key("total_bytes_delta").value(d.totalDelta());
    w.key("peak_bytes_delta").value(d.peakDelta());
    w.key("total_bytes").beginObject();
    w.key("before").value(d.totalBefore);
    w.key("after").value(d.totalAfter);
    w.endObject();
    w.key("peak").beginObject();
    for (const auto &[key, dump, step, bytes] :
         {std::tuple{"before", &a, d.peakStepBefore, d.peakBefore},
          std::tuple{"after", &b, d.peakStepAfter, d.peakAfter}}) {
        w.key(key).beginObject();
        w.key("step").value(step);
        w.key("instruction").value(Report::instructionAt(*dump, step));
        w.key("bytes").value(bytes);
        w.endObject();
    }
    w.key("before_step_in_after").value(d.peakStepBeforeInB);
    w.endObject();
    w.key("curves_part");
    if (d.partStepBefore < 0) {
        w.null();
    } else {
        w.beginObject();
        w.key("before_step").value(d.partStepBefore);
        w.key("after_step").value(d.partStepAfter);
        w.key("before_bytes").value(d.partBytesBefore);
        w.key("after_bytes").value(d.partBytesAfter);
        w.endObject();
    }
    w.key("held").beginObject();
    w.key("before").value(d.why.heldBefore);
    w.key("after").value(d.why.heldAfter);
    w.key("delta").value(d.why.heldAfter - d.why.heldBefore);
    w.endObject();
    w.key("headline").value(d.why.headline);
    w.key("peak_barely_moved").value(d.why.peakBarelyMoved);
    w.key("peak_moved").value(d.why.peakMoved);
    w.key("causes").beginArray();
    for (const Cause &c : d.why.causes) {
        w.beginObject();
        w.key("kind").value(std::string(causeKindKey(c.kind)));
        w.key("peak_delta").value(c.peakDelta);
        w.key("held_delta").value(c.heldDelta);
        if (c.parameter >= 0) {
            w.key("parameter").value(c.parameter);
            w.key("parameters").beginArray();
            for (const std::int64_t p : c.parameters)
                w.value(p);
            w.endArray();
        }
        w.key("values").beginObject();
        for (const auto &[key, dump, list] :
             {std::tuple{"before", &a, &c.valuesBefore}, std::tuple{"after", &b, &c.valuesAfter}}) {
            w.key(key).beginArray();
            for (const std::uint32_t v : *list)
                w.value(dump->valueKey(dump->values[v]));
            w.endArray();
        }
        w.endObject();
        w.key("text").value(c.text);
        w.key("netted").beginArray();
        for (const Cause::Netted &n : c.netted) {
            w.beginObject();
            w.key("kind").value(std::string(causeKindKey(n.kind)));
            w.key("peak_delta").value(n.peakDelta);
            w.key("held_delta").value(n.heldDelta);
            w.key("text").value(n.text);
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("printed_peaks");
    if (!d.why.printedPeaks) {
        w.null();
    } else {
        w.beginObject();
        w.key("before").value(d.why.printedBefore);
        w.key("after").value(d.why.printedAfter);
        w.key("delta").value(d.why.printedAfter - d.why.printedBefore);
        w.key("unseen_at_live_peak_before").value(d.why.printedUndercountBefore);
        w.key("unseen_at_live_peak_after").value(d.why.printedUndercountAfter);
        w.key("disagree");
        if (d.why.printedDisagree.empty())
            w.null();
        else
            w.value(d.why.printedDisagree);
        w.endObject();
    }
    w.key("matching").beginObject();
    w.key("matched").value(d.matched);
    w.key("renamed").value(d.renamed);
    w.key("added").value(static_cast<std::int64_t>(d.added.size()));
    w.key("removed").value(static_cast<std::int64_t>(d.removed.size()));
    w.key("changed").value(static_cast<std::int64_t>(d.changed.size()));
    w.key("different_programs").value(d.differentPrograms());
    w.endObject();
    writeChanges(w, "values_added", d.added);
    writeChanges(w, "values_removed", d.removed);
    writeChanges(w, "values_changed", d.changed);
    w.key("at_peak").beginArray();
    for (const PeakChange &c : d.atPeak) {
        w.beginObject();
        w.key("change").value(peakKindKey(c.kind));
        writeName(w, "name_before", c.before);
        writeName(w, "name_after", c.after);
        w.key("bytes_before").value(c.before.value == kNone ? 0 : c.before.bytes);
        w.key("bytes_after").value(c.after.value == kNone ? 0 : c.after.bytes);
        w.key("contribution").value(c.contribution);
        w.endObject();
    }
    w.endArray();
    writeDeltas(w, "by_op_name_delta", d.byOpName);
    writeDeltas(w, "by_source_delta", d.bySource);
    writeDeltas(w, "by_kind_delta", d.byKind);
    w.key("op_name_roots");
    if (d.opNameRootBefore.empty()) {
        w.null();
    } else {
        w.beginObject();
        w.key("before").value(d.opNameRootBefore);
        w.key("after").value(d.opNameRootAfter);
        w.endObject();
    }
    w.key("by_op_name_tree_delta");
    writeTree(w, d.opNameTree);
    w.key("by_call_stack_delta");
    if (d.hasStacks)
        writeTree(w, d.stackTree);
    else
        w.null();
    w.key("categories").beginArray();
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
        const DumpDiff::CategorySide &ca = d.categoriesBefore;
        const DumpDiff::CategorySide &cb = d.categoriesAfter;
        w.beginObject();
        w.key("name").value(categoryName(static_cast<Category>(c)));
        w.key("held_before").value(ca.held[c]);
        w.key("held_after").value(cb.held[c]);
        for (const auto &[key, bytes] :
             {std::pair{"peak_before", ca.peak[c]}, std::pair{"peak_after", cb.peak[c]}}) {
            w.key(key);
            if (bytes >= 0)
                w.value(bytes);
            else
                w.null();
        }
        w.endObject();
    }
    w.endArray();
    w.key("donations").beginArray();
    for (const DonationChange &c : d.donations) {
        w.beginObject();
        w.key("parameter").value(c.parameter);
        w.key("index").value(c.index);
        w.key("bytes").value(c.bytes);
        w.key("lost").value(c.lost);
        w.endObject();
    }
    w.endArray();
    w.key("lost_donations").value(d.lostDonations());
    // Each dump's warnings, as `report --json` gives them, and whether it looks truncated.
    for (const auto &[dump, name, list] : {std::tuple{&a, "before", &options.beforeWarnings},
                                           std::tuple{&b, "after", &options.afterWarnings}}) {
        w.key(std::string(name) + "_truncated").value(dump->traits.truncated);
        w.key(std::string(name) + "_warnings");
        Report::warningsJson(w, *dump, *list);
        w.key(std::string(name) + "_suppressed_warnings").value(dump->suppressedWarnings);
    }
    w.endObject();
    return w.str() + "\n";
}

} // namespace bufferscope
