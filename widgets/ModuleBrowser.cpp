#include "ModuleBrowser.h"

#include "analysis/MemoryTimeline.h"
#include "models/QtText.h"
#include "parse/DumpParser.h"
#include "util/BackgroundThread.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QThread>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bufferscope {

namespace {

constexpr int kFileRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;

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

ModuleBrowser::ModuleBrowser(QWidget *parent)
    : QWidget(parent), m_status(new QLabel(this)), m_tree(new QTreeWidget(this))
{
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Module"), tr("Total"), tr("Peak"), tr("At step"), tr("Files")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(TotalColumn, Qt::DescendingOrder);
    m_tree->header()->setSectionResizeMode(ModuleColumn, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setToolTip(tr("Modules found in what you opened; double-click to open one"));
    m_status->setTextFormat(Qt::PlainText);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_status);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        Q_EMIT moduleActivated(item->data(ModuleColumn, kFileRole).toString());
    });
}

ModuleBrowser::~ModuleBrowser()
{
    stopScan();
}

void ModuleBrowser::stopScan()
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    m_remaining = 0;
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
    stopScan();
    ++m_generation;
    m_loadedElsewhere = files.contains(loadedElsewhere) ? loadedElsewhere : QString();
    m_tree->clear();
    for (int i = 0; i < files.size(); ++i) {
        const QFileInfo info(files[i]);
        auto *item = new Item(m_tree);
        item->setText(ModuleColumn,
                      toQString(DumpParser::moduleName(info.fileName().toStdString())));
        item->setData(ModuleColumn, kFileRole, files[i]);
        item->setData(ModuleColumn, Qt::UserRole + 2, i);
        item->setToolTip(ModuleColumn, files[i]);
        item->setText(TotalColumn, tr("reading…"));
        // Until its total is known a module keeps the order it came in (largest file first).
        item->setData(TotalColumn, kSortRole, qint64(-2) - i);
        for (int c = TotalColumn; c <= FilesColumn; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_remaining = static_cast<int>(files.size());
    m_status->setText(files.isEmpty() ? QString() : tr("Reading %1 module(s)…").arg(files.size()));
    if (files.isEmpty())
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const auto cancel = m_cancel;
    const quint64 generation = m_generation;
    QPointer<ModuleBrowser> self(this);
    const QString skip = m_loadedElsewhere;
    m_thread = QThread::create([files, cancel, generation, self, skip] {
        markBackgroundThread();
        for (int i = 0; i < files.size() && !cancel->load(); ++i) {
            if (files[i] == skip)
                continue;
            ParseOptions options;
            options.cancel = cancel.get();
            options.maxWarnings = 0;
            LoadResult r = DumpParser::loadFile(files[i].toStdString(), options);
            if (cancel->load())
                return;
            qint64 total = 0;
            qint64 peak = 0;
            qint64 step = -1;
            int fileCount = 1;
            QString error;
            if (r.ok()) {
                total = r.dump->totalBytes();
                fileCount = static_cast<int>(r.dump->files.size());
                if (const auto tl = MemoryTimeline::compute(*r.dump, cancel.get());
                    tl && tl->primary()) {
                    peak = tl->primary()->peak.bytes;
                    step = tl->primary()->peak.step;
                }
            } else {
                error = QString::fromStdString(r.error);
            }
            // Delivered on the GUI thread; dropped if the browser is gone.
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, i, total, peak, step, fileCount, error] {
                    if (self)
                        self->applyResult(generation, i, total, peak, step, fileCount, error);
                },
                Qt::QueuedConnection);
        }
    });
    m_thread->start(QThread::LowPriority);
}

QString ModuleBrowser::cancelledText()
{
    return tr("loading was cancelled");
}

void ModuleBrowser::setKnownResult(const QString &file, qint64 total, qint64 peak, qint64 step,
                                   int files, const QString &error)
{
    if (file.isEmpty() || file != m_loadedElsewhere)
        return;
    m_loadedElsewhere.clear();
    for (int r = 0; r < m_tree->topLevelItemCount(); ++r) {
        const QTreeWidgetItem *item = m_tree->topLevelItem(r);
        if (item->data(ModuleColumn, kFileRole).toString() == file)
            applyResult(m_generation, item->data(ModuleColumn, Qt::UserRole + 2).toInt(), total,
                        peak, step, files, error);
    }
}

void ModuleBrowser::applyResult(quint64 generation, int index, qint64 total, qint64 peak,
                                qint64 step, int files, const QString &error)
{
    if (generation != m_generation)
        return;
    for (int r = 0; r < m_tree->topLevelItemCount(); ++r) {
        QTreeWidgetItem *item = m_tree->topLevelItem(r);
        if (item->data(ModuleColumn, Qt::UserRole + 2).toInt() != index)
            continue;
        if (!error.isEmpty()) {
            // Cancelled by the user is not the file's fault.
            item->setText(TotalColumn,
                          error == cancelledText() ? tr("not read") : tr("unreadable"));
            item->setToolTip(TotalColumn, error);
            item->setData(TotalColumn, kSortRole, qint64(-1) - count());
        } else {
            item->setText(TotalColumn, humanBytesText(total));
            item->setToolTip(TotalColumn, tr("%1 bytes").arg(total));
            item->setData(TotalColumn, kSortRole, total);
            item->setText(PeakColumn, step >= 0 ? humanBytesText(peak) : QStringLiteral("—"));
            item->setToolTip(PeakColumn, tr("%1 bytes").arg(peak));
            item->setData(PeakColumn, kSortRole, peak);
            item->setText(StepColumn, step >= 0 ? QString::number(step) : QStringLiteral("—"));
            item->setData(StepColumn, kSortRole, step);
            item->setText(FilesColumn, QString::number(files));
            item->setData(FilesColumn, kSortRole, files);
        }
        break;
    }
    m_tree->sortItems(m_tree->sortColumn(), m_tree->header()->sortIndicatorOrder());
    --m_remaining;
    if (m_remaining > 0) {
        m_status->setText(
            tr("Reading modules: %1 of %2 done…").arg(count() - m_remaining).arg(count()));
    } else {
        m_status->setText(tr("%1 module(s), largest total first").arg(count()));
        if (m_thread) {
            m_thread->wait();
            delete m_thread;
            m_thread = nullptr;
        }
        Q_EMIT scanFinished();
    }
}

} // namespace bufferscope
