#include "ModuleBrowser.h"

#include "TableCsv.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "parse/ModuleFiles.h"

#include <QFileInfo>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bufferscope {

namespace {

// Item data roles of this widget's own tree (not models: Roles.h is for those).
constexpr int kFileRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kKnownRole = Qt::UserRole + 2; ///< the row has its figures

/// Sorts numeric columns by their exact value, not their text.
class Item : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant a = data(column, kSortRole);
        const QVariant b = other.data(column, kSortRole);
        if (a.isValid() && b.isValid())
            return a.toLongLong() < b.toLongLong();
        return QTreeWidgetItem::operator<(other);
    }
};

} // namespace

ModuleBrowser::ModuleBrowser(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_status(new QLabel(this)),
      m_tree(new QTreeWidget(this)), m_resort(new QTimer(this))
{
    m_tree->setColumnCount(ColumnCount);
    TableCsv::addActions(m_tree, QStringLiteral("modules"));
    m_tree->setHeaderLabels(
        {tr("Module"), tr("Holds"), tr("Total"), tr("Live peak"), tr("At step"), tr("Files")});
    m_tree->headerItem()->setToolTip(
        HeldColumn, tr("What the device holds while the module runs: argument + output - "
                       "alias + temp, as JAX's memory_analysis() (more than the live peak)"));
    m_tree->headerItem()->setToolTip(
        FilesColumn, tr("The module's dump files: one, or three where XLA splits the dump (since "
                        "April 2026). Its memory-usage report and optimized HLO text are read "
                        "when it is opened"));
    m_tree->setRootIsDecorated(false);
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
    m_status->setTextFormat(Qt::PlainText);
    // The status names modules (long names): it wraps in the width the dock has, and never
    // widens the dock (one line of it had made a 1366-pixel window 2234 pixels wide).
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_status);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        Q_EMIT moduleActivated(item->data(ModuleColumn, kFileRole).toString());
    });
    connect(workspace, &Workspace::moduleScanned, this, &ModuleBrowser::applyResult);
    m_resort->setSingleShot(true);
    m_resort->setInterval(250);
    connect(m_resort, &QTimer::timeout, this, &ModuleBrowser::resort);
}

int ModuleBrowser::count() const
{
    return m_tree->topLevelItemCount();
}

QString ModuleBrowser::fileAt(int row) const
{
    const QTreeWidgetItem *item = m_tree->topLevelItem(row);
    return item ? item->data(ModuleColumn, kFileRole).toString() : QString();
}

void ModuleBrowser::setFiles(const QStringList &files, const QString &loadedElsewhere)
{
    m_loadedElsewhere = files.contains(loadedElsewhere) ? loadedElsewhere : QString();
    m_tree->clear();
    m_itemOf.clear();
    // Thousands of rows: inserted unsorted, sorted once (a sorted insert each was quadratic).
    m_tree->setSortingEnabled(false);
    for (int i = 0; i < files.size(); ++i) {
        const QFileInfo info(files[i]);
        auto *item = new Item(m_tree);
        m_itemOf.insert(files[i], item);
        item->setText(ModuleColumn,
                      toQString(ModuleFiles::moduleName(info.fileName().toStdString())));
        item->setData(ModuleColumn, kFileRole, files[i]);
        item->setToolTip(ModuleColumn, plainToolTip(files[i]));
        item->setText(TotalColumn, tr("reading…"));
        // Until its total is known a module keeps the order it came in (largest file first).
        item->setData(TotalColumn, kSortRole, qint64(-2) - i);
        item->setData(HeldColumn, kSortRole, qint64(-2) - i);
        for (int c = TotalColumn; c <= FilesColumn; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_tree->setSortingEnabled(true);
    m_remaining = static_cast<int>(files.size());
    m_status->setText(files.isEmpty() ? QString() : tr("Reading %1 module(s)…").arg(files.size()));
    // A newer scan replaces the one running (the workspace's newest request wins).
    m_workspace->scanModules(files, m_loadedElsewhere);
}

void ModuleBrowser::setKnownResult(const QString &file, const ModuleFigures &figures)
{
    if (file.isEmpty() || file != m_loadedElsewhere)
        return;
    m_loadedElsewhere.clear();
    applyResult(file, figures);
}

void ModuleBrowser::applyResult(const QString &file, const ModuleFigures &figures)
{
    QTreeWidgetItem *item = m_itemOf.value(file);
    if (!item || item->data(ModuleColumn, kKnownRole).toBool())
        return; // not listed (an older scan's), or already has its figures
    // Sorting thousands of rows after every result stalled the window for seconds: results
    // go in unsorted, and the list is sorted a few times a second while they come (and at
    // once when the last arrives).
    if (m_tree->isSortingEnabled()) {
        m_tree->setSortingEnabled(false);
        m_resort->start();
    }
    item->setData(ModuleColumn, kKnownRole, true);
    switch (figures.status) {
    case ModuleFigures::Status::NotRead: // cancelled by the user is not the file's fault
    case ModuleFigures::Status::Unreadable:
        item->setText(TotalColumn, figures.status == ModuleFigures::Status::NotRead
                                       ? tr("not read")
                                       : tr("unreadable"));
        item->setToolTip(TotalColumn, plainToolTip(figures.error));
        item->setData(TotalColumn, kSortRole, qint64(-1) - count());
        item->setData(HeldColumn, kSortRole, qint64(-1) - count());
        break;
    case ModuleFigures::Status::Read:
        item->setText(HeldColumn, humanBytesText(figures.held));
        item->setToolTip(HeldColumn, tr("%1 bytes").arg(figures.held));
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
    --m_remaining;
    if (m_remaining <= 0)
        resort();
}

void ModuleBrowser::resort()
{
    m_resort->stop();
    if (!m_tree->isSortingEnabled())
        m_tree->setSortingEnabled(true); // sorts by the column and order the header shows
    updateStatus();
}

void ModuleBrowser::setOpenFile(const QString &file)
{
    m_openFile = file;
    for (int r = 0; r < m_tree->topLevelItemCount(); ++r) {
        QTreeWidgetItem *item = m_tree->topLevelItem(r);
        const bool open = item->data(ModuleColumn, kFileRole).toString() == file;
        for (int c = 0; c < ColumnCount; ++c) {
            QFont font = item->font(c);
            font.setBold(open);
            item->setFont(c, font);
        }
    }
    updateStatus();
}

void ModuleBrowser::updateStatus()
{
    if (m_remaining > 0) {
        m_status->setText(
            tr("Reading modules: %1 of %2 done…").arg(count() - m_remaining).arg(count()));
        return;
    }
    QString text = tr("%1 module(s), the one the device holds most for first; "
                      "double-click one (or Enter) to open it.")
                       .arg(count());
    // Which one is open, and whether the top one is another: a folder opens its largest file
    // at once, before any module is read.
    const QTreeWidgetItem *open = m_itemOf.value(m_openFile);
    const QString openName = open ? open->text(ModuleColumn) : QString();
    if (!openName.isEmpty()) {
        text += QLatin1Char(' ') + tr("Open: %1 (bold).").arg(openName);
        const QTreeWidgetItem *top = m_tree->topLevelItem(0);
        if (top && m_tree->sortColumn() == HeldColumn &&
            top->data(ModuleColumn, kFileRole).toString() != m_openFile &&
            top->data(ModuleColumn, kKnownRole).toBool())
            text +=
                QLatin1Char(' ') + tr("The device holds most for %1.").arg(top->text(ModuleColumn));
    }
    m_status->setText(text);
}

} // namespace bufferscope
