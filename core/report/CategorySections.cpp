#include "report/detail/CategorySections.h"

#include "report/JsonWriter.h"
#include "report/detail/TextColumns.h"

#include <algorithm>

namespace bufferscope::report_detail {

namespace {

/// The first values of a list, by name and id.
std::string someValues(const Dump &dump, const std::vector<std::uint32_t> &values, std::size_t most,
                       std::size_t total)
{
    std::vector<std::uint32_t> first(
        values.begin(),
        values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size(), most)));
    std::string out = valueList(dump, first);
    if (total > most)
        out += ", … " + std::to_string(total - most) + " more";
    return out;
}

std::string count(std::size_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// Splits text into lines of at most `width` bytes at spaces (a longer word stands alone).
std::vector<std::string> wrap(const std::string &text, std::size_t width)
{
    std::vector<std::string> out;
    std::string current;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string_view word(text.data() + at, end - at);
        if (!current.empty() && current.size() + 1 + word.size() > width) {
            out.push_back(std::move(current));
            current.clear();
        }
        if (!current.empty())
            current += ' ';
        current += word;
        at = end + 1;
    }
    if (!current.empty())
        out.push_back(std::move(current));
    return out;
}

} // namespace

void categoriesText(const Dump &dump, const ReportFacts &facts,
                    const std::function<void(const std::string &)> &line)
{
    const CategoryReport &r = facts.byCategory;
    const bool peak = r.peakStep >= 0;
    std::string how = !r.training ? "no backward pass in the op_names: arguments, outputs and "
                                    "temporaries only"
                      : r.update  ? "a training step: forward (jvp), backward (transpose) and "
                                    "update found in the op_names"
                                  : "forward (jvp) and backward (transpose) found in the "
                                    "op_names, no update after them";
    if (r.recomputed > 0)
        how +=
            "; " + std::to_string(r.recomputed) +
            " values of forward ops after the backward pass began (recomputed, or scheduled late)";
    line("Memory by category (" + how + ")");
    line("  " + pad("category", 18) + padLeft("held while it runs", 30) +
         (peak ? padLeft("at the peak, step " + std::to_string(r.peakStep), 30) : std::string()) +
         padLeft("values", 9));
    for (const CategoryTotals &t : r.totals) {
        if (t.values == 0 && t.heldBytes == 0)
            continue;
        line("  " + pad(categoryName(t.category), 18) + padLeft(humanBytes(t.heldBytes), 10) +
             padLeft(std::to_string(t.heldBytes), 14) + " " + percent(t.heldBytes, r.heldBytes) +
             (peak ? padLeft(humanBytes(t.peakBytes), 10) +
                         padLeft(std::to_string(t.peakBytes), 14) + " " +
                         percent(t.peakBytes, r.peakBytes)
                   : std::string()) +
             padLeft(std::to_string(t.values), 9));
    }
    line("  " + pad("total", 18) + padLeft(humanBytes(r.heldBytes), 10) +
         padLeft(std::to_string(r.heldBytes), 14) + " " + percent(r.heldBytes, r.heldBytes) +
         (peak ? padLeft(humanBytes(r.peakBytes), 10) + padLeft(std::to_string(r.peakBytes), 14) +
                     " " + percent(r.peakBytes, r.peakBytes)
               : std::string()));
    line("  Evidence (the rule that decided, and how many values it decided):");
    for (const CategoryTotals &t : r.totals) {
        if (t.values == 0)
            continue;
        for (std::size_t k = 0; k < t.reasons.size() && k < 3; ++k)
            line("    " + pad(categoryName(t.category), 18) +
                 padLeft(std::to_string(t.reasons[k].second), 7) + "  " +
                 std::string(ValueCategories::reasonText(t.reasons[k].first)));
        if (t.category != Category::Temporaries && t.category != Category::Other)
            line("    " + pad("", 18) + "         largest: " +
                 clip(someValues(dump, t.largest, 3, static_cast<std::size_t>(t.values)), 110));
    }
    if (r.packingBytes > 0)
        line("    " + pad(categoryName(Category::Other), 18) +
             padLeft(humanBytes(r.packingBytes), 7) +
             "  of the temp allocation live at no one time with its busiest step's values "
             "(packing)");
    line({});
    if (!peak) {
        line("Levers: none without live ranges (the savings are found on the live-bytes curve)");
        line({});
        return;
    }
    if (r.levers.empty()) {
        line("Levers at the peak: none (no weights, optimizer state, activations or donatable "
             "parameters found)");
        line({});
        return;
    }
    line("Levers at the peak (step " + std::to_string(r.peakStep) + ", " + bytesText(r.peakBytes) +
         " live)");
    for (const Lever &l : r.levers) {
        line("  " + pad(Lever::kindName(l.kind), 9) + "saves " +
             padLeft(humanBytes(l.savingBytes), 10) + padLeft(std::to_string(l.savingBytes), 14) +
             " bytes" + (l.exact ? "  exact" : "  estimate") +
             (l.whole() == Lever::Whole::Held ? " (of what the device holds)" : std::string()) +
             (l.newPeakBytes >= 0 ? ", new peak " + humanBytes(l.newPeakBytes) : std::string()) +
             (l.flops >= 0 ? ", recompute " + std::to_string(l.flops) + " FLOPs" : std::string()));
        if (!l.values.empty())
            line("           " + count(l.values.size(), "value", "values") + ": " +
                 clip(someValues(dump, l.values, 4, l.values.size()), 110));
        for (const std::string &part : wrap(l.text, 92))
            line("           " + part);
    }
    line({});
}

void categoriesJson(JsonWriter &w, const Dump &dump, const ReportFacts &facts)
{
    const CategoryReport &r = facts.byCategory;
    w.key("categories").beginArray();
    for (const CategoryTotals &t : r.totals) {
        w.beginObject();
        w.key("name").value(categoryName(t.category));
        w.key("held_bytes").value(t.heldBytes);
        w.key("peak_bytes");
        if (r.peakStep >= 0)
            w.value(t.peakBytes);
        else
            w.null();
        w.key("values").value(t.values);
        w.key("value_bytes").value(t.valueBytes);
        w.key("largest").beginArray();
        for (std::size_t k = 0; k < t.largest.size() && k < 20; ++k)
            w.value(dump.values[t.largest[k]].id);
        w.endArray();
        w.key("evidence").beginArray();
        for (const auto &[reason, count] : t.reasons) {
            w.beginObject();
            w.key("rule").value(ValueCategories::reasonText(reason));
            w.key("values").value(count);
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("category_peak_step").value(r.peakStep);
    w.key("levers").beginArray();
    for (const Lever &l : r.levers) {
        w.beginObject();
        w.key("kind").value(Lever::kindName(l.kind));
        w.key("saving_bytes").value(l.savingBytes);
        w.key("of").value(Lever::wholeKey(l.whole()));
        w.key("new_peak_bytes");
        if (l.newPeakBytes >= 0)
            w.value(l.newPeakBytes);
        else
            w.null();
        w.key("exact").value(l.exact);
        w.key("values").beginArray();
        for (std::uint32_t v : l.values)
            w.value(dump.values[v].id);
        w.endArray();
        w.key("flops");
        if (l.flops >= 0)
            w.value(l.flops);
        else
            w.null();
        w.key("text").value(l.text);
        w.endObject();
    }
    w.endArray();
}

} // namespace bufferscope::report_detail
