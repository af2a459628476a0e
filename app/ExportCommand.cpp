#include "ExportCommand.h"

#include "BreakdownChart.h"
#include "CommandLine.h"
#include "CompareView.h"
#include "LiveRangeGantt.h"
#include "MemoryMap.h"
#include "UsageChart.h"
#include "Workspace.h"
#include "analysis/DumpDiff.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "util/Stopwatch.h"

#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <tuple>

namespace bufferscope {

namespace {

// In the order of GanttOrder and of Breakdown::Grouping's flat groupings.
const QStringList kOrders = {QStringLiteral("start"), QStringLiteral("size"),
                             QStringLiteral("allocation")};
const QStringList kGroupings = {QStringLiteral("op_name"), QStringLiteral("source"),
                                QStringLiteral("op_type"), QStringLiteral("kind"),
                                QStringLiteral("shape")};

int fail(const QString &message, int code)
{
    return CommandLine::fail(message, code);
}

/// `--view compare --compare OTHER`: the compare window's curves of FILE (before) and OTHER
/// (after), or their CSV.
int exportComparison(Workspace &workspace, const QString &file, const QString &other,
                     const QString &out, ExportOptions options, bool footer, const QString &select)
{
    LoadedDump before;
    LoadedDump after;
    QString error;
    for (const auto &[path, loaded] : {std::pair<const QString &, LoadedDump &>{file, before},
                                       std::pair<const QString &, LoadedDump &>{other, after}}) {
        if (QFileInfo(path).isDir())
            return fail(path + QStringLiteral(": is a directory; give one dump file"), 2);
        if (!loadDump(path, loaded, error, nullptr, {}, workspace.threads()))
            return fail(error, 2);
    }
    auto diff = std::make_shared<const DumpDiff>(DumpDiff::compute(*before.dump, *before.timeline,
                                                                   *after.dump, *after.timeline,
                                                                   nullptr, workspace.threads()));
    CompareView view(workspace.jobs());
    view.resize(options.width, options.height);
    view.setDumps(before.dump, before.timeline, toQString(before.dump->module), after.dump,
                  after.timeline, toQString(after.dump->module), std::move(diff));
    if (!select.isEmpty() && !view.showValue(select))
        return fail(QStringLiteral("no value '%1' in either dump").arg(select), 1);
    if (footer)
        options.footer = ChartExport::footerFor(QFileInfo(file).fileName() + QStringLiteral(" → ") +
                                                QFileInfo(other).fileName());
    QString why;
    if (!view.exportChart(out, options, &why))
        return fail(
            QStringLiteral("%1: cannot write the %2: %3")
                .arg(out, ChartExport::extension(*ChartExport::formatOf(out)).toUpper(), why),
            2);
    return 0;
}

} // namespace

int ExportCommand::run(const QStringList &args, int threads)
{
    QString file;
    QString view;
    QString out;
    QString select;
    QString compare;
    QString order;
    QString groupBy;
    qint64 allocation = -1;
    ExportOptions options;
    options.title = QString(); // null: the view's own title
    bool footer = false;
    qint64 step = -1;
    qint64 budget = 0;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        const auto next = [&](QString &value) {
            if (i + 1 >= args.size())
                return false;
            value = args[++i];
            return true;
        };
        QString v;
        bool ok = false;
        if (a == QLatin1String("--view")) {
            if (!next(view))
                return fail(QStringLiteral("--view needs usage, gantt, memory-map or breakdown"),
                            1);
        } else if (a == QLatin1String("--out")) {
            if (!next(out))
                return fail(QStringLiteral("--out needs a path ending in %1")
                                .arg(ChartExport::formatsText()),
                            1);
        } else if (a == QLatin1String("--width") || a == QLatin1String("--height")) {
            int &side = a == QLatin1String("--width") ? options.width : options.height;
            if (!next(v) || (side = v.toInt(&ok), !ok) || side < ExportOptions::kMinSide ||
                side > ExportOptions::kMaxSide)
                return fail(QStringLiteral("%1 needs a number of pixels from %2 to %3 (got '%4')")
                                .arg(a)
                                .arg(ExportOptions::kMinSide)
                                .arg(ExportOptions::kMaxSide)
                                .arg(v),
                            1);
        } else if (a == QLatin1String("--scale")) {
            if (!next(v) || (options.scale = v.toDouble(&ok), !ok) || options.scale < 0.25 ||
                options.scale > 8)
                return fail(QStringLiteral("--scale needs a factor between 0.25 and 8"), 1);
        } else if (a == QLatin1String("--title")) {
            if (!next(options.title))
                return fail(QStringLiteral("--title needs a text (\"\" for none)"), 1);
            if (options.title.isNull())
                options.title = QStringLiteral(""); // empty, not null: no title at all
        } else if (a == QLatin1String("--footer")) {
            footer = true;
        } else if (a == QLatin1String("--compare")) {
            if (!next(compare))
                return fail(QStringLiteral("--compare needs the dump to compare with"), 1);
        } else if (a == QLatin1String("--select")) {
            if (!next(select))
                return fail(QStringLiteral("--select needs a value id or name"), 1);
        } else if (a == QLatin1String("--step")) {
            if (!next(v) || (step = v.toLongLong(&ok), !ok) || step < 0)
                return fail(QStringLiteral("--step needs a step number ≥ 0"), 1);
        } else if (a == QLatin1String("--order")) {
            if (!next(order) || !kOrders.contains(order))
                return fail(QStringLiteral("--order needs start, size or allocation"), 1);
        } else if (a == QLatin1String("--group-by")) {
            if (!next(groupBy) || !kGroupings.contains(groupBy))
                return fail(
                    QStringLiteral("--group-by needs op_name, source, op_type, kind or shape"), 1);
        } else if (a == QLatin1String("--allocation")) {
            if (!next(v) || (allocation = v.toLongLong(&ok), !ok) || allocation < 0)
                return fail(QStringLiteral("--allocation needs an allocation number ≥ 0"), 1);
        } else if (a == QLatin1String("--budget")) {
            if (!next(v) || (budget = parseByteSize(v)) <= 0)
                return fail(QStringLiteral("--budget needs a size such as 16GiB"), 1);
        } else if (a.startsWith(QLatin1String("--"))) {
            return fail(QStringLiteral("unknown option '%1' for export").arg(a), 1);
        } else if (file.isEmpty()) {
            file = a;
        } else {
            return fail(QStringLiteral("export takes one FILE"), 1);
        }
    }
    if (file.isEmpty() || view.isEmpty() || out.isEmpty())
        return fail(QStringLiteral("export needs FILE, --view and --out\n") +
                        CommandLine::usageOf(u"export"),
                    1);
    if (!ChartExport::formatOf(out))
        return fail(QStringLiteral("%1: unknown file type; --out must end in %2")
                        .arg(out, ChartExport::formatsText()),
                    1);
    if (const QString badSize = ChartExport::checkSize(options); !badSize.isEmpty())
        return fail(QStringLiteral("cannot export: %1").arg(badSize), 1);
    if ((view == QLatin1String("compare")) != !compare.isEmpty())
        return fail(QStringLiteral("--view compare and --compare OTHER go together"), 1);
    // The same workspace and views as the app, with everything built at once (nothing here
    // can wait for a job).
    Workspace workspace;
    workspace.setThreads(threads);
    workspace.setBackgroundFrom(std::numeric_limits<std::size_t>::max());
    if (!compare.isEmpty() && (budget > 0 || step >= 0))
        return fail(QStringLiteral("--budget and --step are for the single-dump views"), 1);
    // Each view's own choice, as its control row offers it in the window.
    for (const auto &[given, owner, option] :
         {std::tuple{!order.isEmpty(), "gantt", "--order"},
          std::tuple{!groupBy.isEmpty(), "breakdown", "--group-by"},
          std::tuple{allocation >= 0, "memory-map", "--allocation"}}) {
        if (given && view != QLatin1String(owner))
            return fail(QStringLiteral("%1 is for the %2 view")
                            .arg(QLatin1String(option), QLatin1String(owner)),
                        1);
    }
    if (!compare.isEmpty())
        return exportComparison(workspace, file, compare, out, options, footer, select);
    std::unique_ptr<ChartView> chart;
    if (view == QLatin1String("usage"))
        chart = std::make_unique<UsageChart>(&workspace);
    else if (budget > 0)
        return fail(QStringLiteral("--budget is drawn on the usage view only"), 1);
    else if (view == QLatin1String("gantt"))
        chart = std::make_unique<LiveRangeGantt>(&workspace);
    else if (view == QLatin1String("memory-map"))
        chart = std::make_unique<MemoryMap>(&workspace);
    else if (view == QLatin1String("breakdown"))
        chart = std::make_unique<BreakdownChart>(&workspace);
    else
        return fail(QStringLiteral("unknown view '%1'; expected usage, gantt, memory-map or "
                                   "breakdown")
                        .arg(view),
                    1);

    LoadedDump loaded;
    QString error;
    if (QFileInfo(file).isDir())
        return fail(file + QStringLiteral(": is a directory; give one dump file"), 2);
    // What a picture draws: the Breakdown groups values by what their instructions' text says
    // (op_name, source), and a selected value is drawn with its positions and uses; the other
    // charts draw the allocations and the live ranges alone, so the Used values section (most
    // of a dump) and the files beside it are passed over. A CSV holds more (op_name).
    ParseOptions how;
    how.threads = threads;
    how.usedValues = view == QLatin1String("breakdown") || !select.isEmpty() ||
                     ChartExport::formatOf(out) == ExportFormat::Csv;
    how.companions = how.usedValues;
    if (!loadDump(file, loaded, error, how))
        return fail(error, 2);
    const Dump &dump = *loaded.dump;
    if (step >= 0 && step >= dump.stepCount())
        return fail(QStringLiteral("--step %1 is outside the program's steps 0..%2")
                        .arg(step)
                        .arg(std::max<qint64>(0, dump.stepCount() - 1)),
                    1);
    int value = -1;
    if (!select.isEmpty()) {
        const std::uint32_t found = dump.findValue(select.toStdString());
        if (found == kNone)
            return fail(QStringLiteral("%1: no value '%2' (give an id, a name or name{index})")
                            .arg(file, select),
                        1);
        value = static_cast<int>(found);
    }
    chart->resize(options.width, options.height);
    workspace.show(loaded, Workspace::Fill::AtOnce); // the chart takes it, at the peak
    if (budget > 0)
        static_cast<UsageChart *>(chart.get())->setBudget(budget);
    if (!order.isEmpty())
        static_cast<LiveRangeGantt *>(chart.get())
            ->setOrder(static_cast<GanttOrder>(kOrders.indexOf(order)));
    if (!groupBy.isEmpty()) {
        Breakdown::Grouping grouping = Breakdown::Grouping::OpName;
        Breakdown::groupingByName(groupBy.toStdString(), grouping);
        static_cast<BreakdownChart *>(chart.get())->setGrouping(grouping);
    }
    if (allocation >= 0) {
        const auto it = std::find_if(dump.allocations.begin(), dump.allocations.end(),
                                     [&](const Allocation &a) { return a.index == allocation; });
        if (it == dump.allocations.end())
            return fail(QStringLiteral("%1: no allocation %2").arg(file).arg(allocation), 1);
        static_cast<MemoryMap *>(chart.get())
            ->setAllocation(static_cast<int>(it - dump.allocations.begin()));
    }
    // The step: --step, else the selected value's first step (its whole range in view), else
    // the peak.
    if (value >= 0 && step < 0 && dump.values[static_cast<std::size_t>(value)].hasLiveRange())
        step = dump.values[static_cast<std::size_t>(value)].start;
    if (step >= 0)
        workspace.setStep(step);
    workspace.selection()->setCurrentValue(value);
    if (footer)
        options.footer = chart->footerText();
    QString why;
    const Stopwatch drawing;
    const bool written = chart->exportTo(out, options, &why);
    spdlog::debug("{} drawn and written in {:.3f} s", out.toStdString(), drawing.seconds());
    if (!written)
        return fail(
            QStringLiteral("%1: cannot write the %2: %3")
                .arg(out, ChartExport::extension(*ChartExport::formatOf(out)).toUpper(), why),
            2);
    return 0;
}

} // namespace bufferscope
