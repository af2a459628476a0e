#include "ExportCommand.h"

#include "Commands.h"
#include "Output.h"
#include "Workspace.h"
#include "analysis/DeviceFit.h"
#include "analysis/DumpDiff.h"
#include "charts/BreakdownChart.h"
#include "charts/LiveRangeGantt.h"
#include "charts/MemoryMap.h"
#include "charts/UsageChart.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "util/Stopwatch.h"
#include "windows/CompareView.h"

#include <QFileInfo>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <tuple>

namespace bufferscope {

using cli::fail;

namespace {

// In the order of GanttOrder and of Breakdown::Grouping's flat groupings.
const QStringList kOrders = {QStringLiteral("start"), QStringLiteral("size"),
                             QStringLiteral("allocation")};
const QStringList kGroupings = {QStringLiteral("op_name"), QStringLiteral("source"),
                                QStringLiteral("op_type"), QStringLiteral("kind"),
                                QStringLiteral("shape")};

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

int ExportCommand::run(const Args &args, int threads)
{
    const QString view = args.value("view");
    const QString out = args.value("out");
    const QString select = args.value("select");
    const QString compare = args.value("compare");
    ExportOptions options;
    // Null: the view's own title; empty (given as ""): no title at all.
    options.title = args.isSet("title") ? args.value("title") : QString();
    if (args.isSet("title") && options.title.isNull())
        options.title = QStringLiteral("");
    const bool footer = args.isSet("footer");
    const auto width =
        args.integer("width", ExportOptions::kMinSide, ExportOptions::kMaxSide, options.width);
    if (!width)
        return 1;
    const auto height =
        args.integer("height", ExportOptions::kMinSide, ExportOptions::kMaxSide, options.height);
    if (!height)
        return 1;
    options.width = static_cast<int>(*width);
    options.height = static_cast<int>(*height);
    if (args.isSet("scale")) {
        bool ok = false;
        options.scale = args.value("scale").toDouble(&ok);
        if (!ok || options.scale < 0.25 || options.scale > 8)
            return Args::needs("scale");
    }
    const auto stepArg = args.integer("step", 0, std::numeric_limits<qint64>::max(), -1);
    const auto allocationArg =
        args.integer("allocation", 0, std::numeric_limits<qint64>::max(), -1);
    // The budget: a size, or a device at what the runtime gets of it (as the Budget box).
    const auto budgetDevice = DeviceFit::preset(args.value("budget").toLower().toStdString());
    const auto budgetArg =
        budgetDevice ? std::optional<qint64>(budgetDevice->bytes) : args.size("budget", 1, 0);
    const auto orderArg = args.oneOf("order", kOrders);
    const auto groupByArg = args.oneOf("group-by", kGroupings);
    if (!stepArg || !allocationArg || !budgetArg || !orderArg || !groupByArg)
        return 1;
    qint64 step = *stepArg;
    const qint64 allocation = *allocationArg;
    const qint64 budget = *budgetArg;
    const QString &order = *orderArg;
    const QString &groupBy = *groupByArg;
    if (args.positional().size() > 1)
        return fail(QStringLiteral("export takes one FILE"), 1);
    const QString file = args.positional().value(0);
    if (file.isEmpty() || view.isEmpty() || out.isEmpty())
        return fail(
            QStringLiteral("export needs FILE, --view and --out\n") + cli::usageOf(u"export"), 1);
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
        workspace.setBudget(budget);
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
            return fail(
                QStringLiteral("%1: no allocation %2").arg(file, QString::number(allocation)), 1);
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
