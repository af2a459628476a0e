#include "tables/TableCsv.h"

#include "drawing/ChartExport.h"
#include "models/ModelCsv.h"
#include "windows/DialogFolders.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

namespace bufferscope {

QByteArray TableCsv::of(QAbstractItemView *view)
{
    QAbstractItemModel *model = view->model();
    if (!model)
        return {};
    QHeaderView *header = nullptr;
    if (auto *table = qobject_cast<QTableView *>(view))
        header = table->horizontalHeader();
    else if (auto *tree = qobject_cast<QTreeView *>(view))
        header = tree->header();
    QList<int> columns;
    if (header) {
        for (int visual = 0; visual < header->count(); ++visual) {
            const int logical = header->logicalIndex(visual);
            if (!header->isSectionHidden(logical))
                columns.append(logical);
        }
    }
    return ModelCsv::write(*model, columns);
}

void TableCsv::addActions(QAbstractItemView *view, const QString &fileStem)
{
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *copy = new QAction(QObject::tr("Copy as CSV"), view);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(copy, &QAction::triggered, view, [view] {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        QApplication::clipboard()->setText(QString::fromUtf8(of(view)));
        QApplication::restoreOverrideCursor();
    });
    auto *save = new QAction(QObject::tr("Save as CSV…"), view);
    QObject::connect(save, &QAction::triggered, view, [view, fileStem] {
        const QString path = QFileDialog::getSaveFileName(
            view, QObject::tr("Save as CSV"),
            DialogFolders::savePath(fileStem + QStringLiteral(".csv")), QObject::tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        DialogFolders::rememberSaved(path);
        QApplication::setOverrideCursor(Qt::WaitCursor);
        QString why;
        const bool ok = ChartExport::writeFile(path, of(view), &why);
        QApplication::restoreOverrideCursor();
        if (!ok)
            ChartExport::warnNotWritten(view, QObject::tr("Save Failed"), path, why);
    });
    view->addAction(copy);
    view->addAction(save);
}

} // namespace bufferscope
