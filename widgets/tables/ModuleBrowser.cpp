#include "tables/ModuleBrowser.h"

#include "DumpFiles.h"
#include "Workspace.h"
#include "analysis/RunSummary.h"
#include "model/ModuleNames.h"
#include "models/QtText.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"

#include <QAction>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace bufferscope {

namespace {

// Item data roles of this widget's own tree (not models: Roles.h is for those).
constexpr int kFileRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kFunctionRole = Qt::UserRole + 2; ///< a family row's function name

/// Sorts numeric columns by their exact value, not their text; ties of what a module holds as
/// `list` breaks them.
class Item : public SortedRow<kSortRole>
{
public:
    using SortedRow::SortedRow;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        if (column == ModuleBrowser::HeldColumn) {
            const QVariant a = data(column, kSortRole);
            const QVariant b = other.data(column, kSortRole);
            if (a.isValid() && b.isValid() && a.toLongLong() != b.toLongLong())
                return a.toLongLong() < b.toLongLong();
            // Ties as `list` breaks them (ModuleFigures::ranksAbove): the total, then the
            // file; sorted descending, "less" is the one ranked lower.
            const qint64 ta = data(ModuleBrowser::TotalColumn, kSortRole).toLongLong();
            const qint64 tb = other.data(ModuleBrowser::TotalColumn, kSortRole).toLongLong();
            if (ta != tb)
                return ta < tb;
            return data(0, kFileRole).toString() > other.data(0, kFileRole).toString();
        }
        return SortedRow::operator<(other);
    }
};

} // namespace

ModuleBrowser::ModuleBrowser(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_status(new QLabel(this)),
      m_tree(new QTreeWidget(this)), m_filter(new QLineEdit(this)), m_resort(new QTimer(this)),
      m_drain(new QTimer(this))
{
    m_tree->setColumnCount(ColumnCount);
    TableCsv::addActions(m_tree, QStringLiteral("modules"));
    m_tree->setHeaderLabels(
        {tr("Module"), tr("Holds"), tr("Total"), tr("Live peak"), tr("At step"), tr("Files")});
    m_tree->headerItem()->setToolTip(ModuleColumn,
                                     tr("The module's name and id, from its file name (the "
                                        "whole file name in each row's tooltip)"));
    m_tree->headerItem()->setToolTip(
        HeldColumn, tr("What the device holds while the module runs: argument + output - "
                       "alias + temp, as JAX's memory_analysis() (more than the live peak)"));
    m_tree->headerItem()->setToolTip(
        PeakColumn, tr("The most bytes live on the device at one step: every memory space but "
                       "the host's, as Run Summary counts it"));
    m_tree->headerItem()->setToolTip(StepColumn,
                                     tr("The first step at which the device has its live peak"));
    m_tree->headerItem()->setToolTip(
        FilesColumn, tr("The module's dump files: one, or three where XLA splits the dump (since "
                        "April 2026). Its memory-usage report and optimized HLO text are read "
                        "when it is opened"));
    m_tree->setRootIsDecorated(true); // a function's compiles open under its row
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(HeldColumn, Qt::DescendingOrder);
    m_tree->header()->setSectionResizeMode(ModuleColumn, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    // The figures as wide as they get ("1023.99MiB", a step of six digits), no wider, so the
    // module names keep the rest of the dock (at the default 100 px each they took it all and
    // a name showed as "m…"). Set once: sizing to the contents would walk every row.
    const QFontMetrics metrics(m_tree->font());
    const int pad = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this) + 8;
    for (const int c : {HeldColumn, TotalColumn, PeakColumn})
        m_tree->header()->resizeSection(c, metrics.horizontalAdvance(QStringLiteral("1023.99MiB")) +
                                               pad);
    m_tree->header()->resizeSection(StepColumn,
                                    metrics.horizontalAdvance(QStringLiteral("At step")) + pad);
    m_tree->header()->resizeSection(FilesColumn,
                                    metrics.horizontalAdvance(QStringLiteral("Files")) + pad);
    m_tree->setToolTip(tr("Modules found in what you opened; double-click to open one"));
    // Which figures to show: right-click the header. Total, At step and Files are hidden at
    // first, so the module names keep what room there is (a third of a laptop screen showed
    // "jit_ste…" with them); a name too long is cut in its middle, where its function's
    // number and its compile count stay in sight.
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->header()->setContextMenuPolicy(Qt::ActionsContextMenu);
    const QStringList names = {tr("Holds"), tr("Total"), tr("Live peak"), tr("At step"),
                               tr("Files")};
    for (int c = HeldColumn; c <= FilesColumn; ++c) {
        auto *show = new QAction(tr("Show %1").arg(names[c - HeldColumn]), m_tree->header());
        show->setCheckable(true);
        const bool shown = c == HeldColumn || c == PeakColumn;
        show->setChecked(shown);
        m_tree->setColumnHidden(c, !shown);
        connect(show, &QAction::toggled, this,
                [this, c](bool on) { m_tree->setColumnHidden(c, !on); });
        m_tree->header()->addAction(show);
    }
    m_status->setTextFormat(Qt::PlainText);
    // The status names modules (long names): it wraps in the width the dock has, and never
    // widens the dock (one line of it had made a 1366-pixel window 2234 pixels wide).
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_filter->setPlaceholderText(tr("Filter by name or file"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Keeps the modules whose name, function or file holds this text "
                            "(any case); a function's row stays while one of its compiles does"));
    connect(m_filter, &QLineEdit::textChanged, this, &ModuleBrowser::setFilter);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_status);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        Q_EMIT moduleActivated(item->data(ModuleColumn, kFileRole).toString());
    });
    connect(workspace, &Workspace::modulesScanned, this, &ModuleBrowser::applyResults);
    m_drain->setSingleShot(true);
    m_drain->setInterval(0);
    connect(m_drain, &QTimer::timeout, this, &ModuleBrowser::addPending);
    m_resort->setSingleShot(true);
    m_resort->setInterval(250);
    connect(m_resort, &QTimer::timeout, this, &ModuleBrowser::resort);
}

int ModuleBrowser::count() const
{
    int rows = 0;
    for (auto it = m_itemOf.cbegin(); it != m_itemOf.cend(); ++it)
        rows += it.value() != nullptr;
    return rows;
}

QString ModuleBrowser::fileAt(int row) const
{
    const QTreeWidgetItem *item = m_tree->topLevelItem(row);
    return item ? item->data(ModuleColumn, kFileRole).toString() : QString();
}

void ModuleBrowser::showRun()
{
    const DumpFiles &found = m_workspace->run().modules;
    m_tree->clear();
    m_itemOf.clear();
    m_pending.clear();
    m_familyFiles.clear();
    m_familyItem.clear();
    // A row appears when its module's figures do: thousands of placeholder rows cost the GUI
    // thread more than the scan takes to fill them.
    for (const QString &file : found.files)
        m_itemOf.insert(file, nullptr);
    m_remaining = static_cast<int>(found.files.size());
    updateStatus();
    // What was read before the rows were asked for (none, when the run was just set).
    for (auto it = m_workspace->run().figures.cbegin(); it != m_workspace->run().figures.cend();
         ++it)
        m_pending.push_back({it.key(), it.value()});
    if (!m_pending.isEmpty())
        addPending();
}

void ModuleBrowser::applyResults(const QList<ScannedModule> &modules)
{
    m_pending += modules;
    addPending();
}

void ModuleBrowser::addPending()
{
    // A few hundred rows an event-loop turn (a thousand at once held the window 30 ms), in one
    // insertion each; the list is sorted a few times a second while they come (sorting
    // thousands of rows after every result stalled the window for seconds), and at once when
    // the last arrives.
    constexpr qsizetype kRowsPerTurn = 250;
    QElapsedTimer clock;
    clock.start();
    QList<QTreeWidgetItem *> rows;
    qsizetype taken = 0;
    int added = 0; // modules given their row this turn
    for (; taken < m_pending.size() && added < kRowsPerTurn; ++taken) {
        const ScannedModule &m = m_pending[taken];
        const auto at = m_itemOf.find(m.file);
        if (at == m_itemOf.end() || at.value())
            continue; // not listed (an older scan's), or already has its figures
        auto *item = new Item;
        at.value() = item;
        fill(item, m.file, m.figures);
        --m_remaining;
        ++added;
        // Its function's row: alone it is a row of its own; a second compile makes the
        // function a row with both under it.
        const QString function =
            toQString(RunSummary::functionOf(ModuleNames::moduleName(m.file.toStdString())));
        QStringList &files = m_familyFiles[function];
        files << m.file;
        if (files.size() == 1) {
            rows << item;
        } else {
            QTreeWidgetItem *family = m_familyItem.value(function, nullptr);
            if (!family) {
                family = new Item;
                family->setData(ModuleColumn, kFunctionRole, function);
                m_familyItem.insert(function, family);
                QTreeWidgetItem *first = m_itemOf.value(files.front(), nullptr);
                if (const int place = m_tree->indexOfTopLevelItem(first); place >= 0)
                    m_tree->takeTopLevelItem(place);
                else
                    rows.removeOne(first);
                family->addChild(first);
                rows << family;
            }
            family->addChild(item);
            fillFamily(family, function);
            family->setHidden(!matches(family));
        }
        item->setHidden(!matches(item));
    }
    m_pending.remove(0, taken);
    if (!m_pending.isEmpty())
        m_drain->start();
    if (added == 0)
        return; // (rows may be empty: every module of the turn went under its function)
    if (m_tree->isSortingEnabled()) {
        m_tree->setSortingEnabled(false);
        m_resort->start();
    }
    m_tree->addTopLevelItems(rows);
    if (m_remaining <= 0) {
        resort();
        Q_EMIT allRead();
    } else {
        updateStatus();
    }
    spdlog::debug("modules: {} added in {} ms", added, clock.elapsed());
}

void ModuleBrowser::fill(QTreeWidgetItem *item, const QString &file, const ModuleFigures &figures)
{
    // The module name and id from XLA's file name ("jit_train_step (0294)"): in a dock a
    // third of a laptop screen wide, the whole stem showed as "mo…". All of it is in the tooltip.
    item->setText(ModuleColumn, toQString(ModuleNames::shortName(file.toStdString())));
    item->setData(ModuleColumn, kFileRole, file);
    item->setToolTip(ModuleColumn, plainToolTip(file));
    for (int c = HeldColumn; c <= FilesColumn; ++c)
        item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    if (file == m_openFile) {
        QFont font = item->font(ModuleColumn);
        font.setBold(true);
        for (int c = 0; c < ColumnCount; ++c)
            item->setFont(c, font);
    }
    switch (figures.status) {
    case ModuleFigures::Status::NotRead: // cancelled by the user is not the file's fault
    case ModuleFigures::Status::Unreadable:
        item->setText(TotalColumn, figures.status == ModuleFigures::Status::NotRead
                                       ? tr("not read")
                                       : tr("unreadable"));
        item->setToolTip(TotalColumn, plainToolTip(figures.error));
        item->setData(TotalColumn, kSortRole, qint64(-1));
        item->setData(HeldColumn, kSortRole, qint64(-1));
        break;
    case ModuleFigures::Status::Read:
        // Only the memory-usage report: no held figure (ranked after those with one).
        item->setText(HeldColumn,
                      figures.reportOnly ? QStringLiteral("—") : humanBytesText(figures.held));
        item->setToolTip(HeldColumn, figures.reportOnly ? tr("only the memory-usage report is here")
                                                        : tr("%1 bytes").arg(figures.held));
        item->setData(HeldColumn, kSortRole, figures.held);
        item->setText(TotalColumn, humanBytesText(figures.total));
        item->setToolTip(TotalColumn, tr("%1 bytes").arg(figures.total));
        item->setData(TotalColumn, kSortRole, figures.total);
        item->setText(PeakColumn,
                      figures.step >= 0 ? humanBytesText(figures.peak) : QStringLiteral("—"));
        item->setToolTip(PeakColumn, tr("%1 bytes").arg(figures.peak));
        item->setData(PeakColumn, kSortRole, figures.peak);
        item->setText(StepColumn,
                      figures.step >= 0 ? QString::number(figures.step) : QStringLiteral("—"));
        item->setData(StepColumn, kSortRole, figures.step);
        item->setText(FilesColumn, QString::number(figures.files));
        item->setData(FilesColumn, kSortRole, figures.files);
        break;
    }
}

void ModuleBrowser::fillFamily(QTreeWidgetItem *family, const QString &name)
{
    const QStringList &files = m_familyFiles.value(name);
    qint64 heldMax = -1, heldSum = 0, totalSum = 0, peakMax = -1;
    const QHash<QString, ModuleFigures> &figures = m_workspace->run().figures;
    QString largest;
    const ModuleFigures *largestFigures = nullptr;
    for (const QString &file : files) {
        const auto at = figures.constFind(file);
        if (at == figures.cend() || at->status != ModuleFigures::Status::Read)
            continue;
        const ModuleFigures &f = *at;
        heldMax = std::max<qint64>(heldMax, f.held);
        heldSum += std::max<qint64>(f.held, 0);
        totalSum += f.total;
        if (f.step >= 0)
            peakMax = std::max(peakMax, f.peak);
        if (!largestFigures || ModuleFigures::ranksAbove(f, file, *largestFigures, largest)) {
            largest = file;
            largestFigures = &f;
        }
    }
    family->setText(ModuleColumn, tr("%1 · %2 compiles").arg(name, QString::number(files.size())));
    family->setData(ModuleColumn, kFileRole, largest.isEmpty() ? files.front() : largest);
    family->setToolTip(
        ModuleColumn,
        plainToolTip(tr("%1: compiled %2 times; the most one holds is %3 (%4), "
                        "%5 in all. Opens the one that holds the most.")
                         .arg(name, QString::number(files.size()),
                              humanBytesText(std::max<qint64>(heldMax, 0)),
                              toQString(ModuleNames::shortName(largest.toStdString())),
                              humanBytesText(heldSum))));
    for (int c = HeldColumn; c <= FilesColumn; ++c)
        family->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    family->setText(HeldColumn, heldMax >= 0 ? humanBytesText(heldMax) : QStringLiteral("—"));
    family->setToolTip(HeldColumn, tr("the most one compile holds: %1 bytes; all %2 compiles: %3 "
                                      "bytes")
                                       .arg(heldMax)
                                       .arg(files.size())
                                       .arg(heldSum));
    family->setData(HeldColumn, kSortRole, heldMax);
    family->setText(TotalColumn, humanBytesText(totalSum));
    family->setToolTip(TotalColumn, tr("%1 bytes in all its compiles").arg(totalSum));
    family->setData(TotalColumn, kSortRole, totalSum);
    family->setText(PeakColumn, peakMax >= 0 ? humanBytesText(peakMax) : QStringLiteral("—"));
    family->setToolTip(PeakColumn,
                       tr("the largest live peak of its compiles: %1 bytes").arg(peakMax));
    family->setData(PeakColumn, kSortRole, peakMax);
    family->setData(StepColumn, kSortRole, qint64(-1));
    family->setText(FilesColumn, QString::number(files.size()));
    family->setData(FilesColumn, kSortRole, qint64(files.size()));
}

bool ModuleBrowser::matches(const QTreeWidgetItem *item) const
{
    const QString text = m_filter->text().trimmed();
    if (text.isEmpty())
        return true;
    const auto holds = [&text](const QString &s) { return s.contains(text, Qt::CaseInsensitive); };
    if (holds(item->text(ModuleColumn)) || holds(item->data(ModuleColumn, kFileRole).toString()))
        return true;
    for (int i = 0; i < item->childCount(); ++i)
        if (matches(item->child(i)))
            return true;
    // A compile of a function whose name matches.
    const QTreeWidgetItem *parent = item->parent();
    return parent &&
           parent->data(ModuleColumn, kFunctionRole).toString().contains(text, Qt::CaseInsensitive);
}

void ModuleBrowser::setFilter(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text); // comes back here through textChanged
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *row = m_tree->topLevelItem(i);
        for (int k = 0; k < row->childCount(); ++k)
            row->child(k)->setHidden(!matches(row->child(k)));
        row->setHidden(!matches(row));
    }
    updateStatus();
}

void ModuleBrowser::resort()
{
    QElapsedTimer clock;
    clock.start();
    m_resort->stop();
    if (!m_tree->isSortingEnabled())
        m_tree->setSortingEnabled(true); // sorts by the column and order the header shows
    updateStatus();
    spdlog::debug("modules: {} rows sorted in {} ms", count(), clock.elapsed());
}

void ModuleBrowser::setOpenFile(const QString &file)
{
    // Only the rows that change: a font set on each of thousands of rows is a model change each.
    const auto bold = [](QTreeWidgetItem *item, bool on) {
        if (!item)
            return;
        QFont font = item->font(ModuleColumn);
        font.setBold(on);
        for (int c = 0; c < ColumnCount; ++c)
            item->setFont(c, font);
    };
    if (file != m_openFile)
        bold(m_itemOf.value(m_openFile, nullptr), false);
    m_openFile = file;
    QTreeWidgetItem *open = m_itemOf.value(file, nullptr);
    bold(open, true);
    if (open && open->parent())
        open->parent()->setExpanded(true); // the open compile shows under its function
    updateStatus();
}

void ModuleBrowser::updateStatus()
{
    if (m_remaining > 0) {
        m_status->setText(tr("Reading modules: %1 of %2 done…")
                              .arg(m_itemOf.size() - m_remaining)
                              .arg(m_itemOf.size()));
        return;
    }
    QString text = m_familyItem.isEmpty()
                       ? tr("%1 module(s), the one the device holds most for first; "
                            "double-click one (or Enter) to open it.")
                             .arg(count())
                       : tr("%1 module(s) of %2 function(s), the one the device holds most for "
                            "first; double-click one (or Enter) to open it.")
                             .arg(count())
                             .arg(m_familyFiles.size());
    // Which one is open, and whether the top one is another (the user opened another, or
    // sorted by another column).
    const QTreeWidgetItem *open = m_itemOf.value(m_openFile, nullptr);
    const QString openName = open ? open->text(ModuleColumn) : QString();
    if (!openName.isEmpty()) {
        text += QLatin1Char(' ') + tr("Open (bold): %1.").arg(openName);
        const QTreeWidgetItem *top = m_tree->topLevelItem(0);
        if (top && m_tree->sortColumn() == HeldColumn &&
            top->data(ModuleColumn, kFileRole).toString() != m_openFile &&
            !top->text(HeldColumn).isEmpty())
            text +=
                QLatin1Char(' ') + tr("The device holds most for %1.").arg(top->text(ModuleColumn));
    }
    m_status->setText(text);
}

} // namespace bufferscope
