#include "tables/WarningsView.h"

#include "Workspace.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "tables/TableCsv.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QPainter>

namespace bufferscope {

WarningsView::WarningsView(Workspace *workspace, QWidget *parent)
    : QTreeWidget(parent), m_selection(workspace->selection())
{
    setColumnCount(2);
    setHeaderLabels({tr("Where"), tr("Message")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setWordWrap(false);
    header()->setStretchLastSection(true);
    TableCsv::addActions(this, QStringLiteral("warnings"));
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const int value = item->data(0, Qt::UserRole).toInt();
        if (value >= 0)
            m_selection->setCurrentValue(value);
    });
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        const int value = item->data(0, Qt::UserRole).toInt();
        if (value >= 0)
            m_selection->setCurrentValue(value);
    });
}

void WarningsView::setDiagnostics(std::shared_ptr<const Dump> dump,
                                  const std::vector<Diagnostic> &extra)
{
    m_dump = std::move(dump);
    clear();
    if (!m_dump)
        return;
    QList<QTreeWidgetItem *> items;
    const auto add = [&](const Diagnostic &d) {
        const QString file = d.file < m_dump->files.size()
                                 ? QFileInfo(toQString(m_dump->files[d.file].path)).fileName()
                                 : QString();
        auto *item = new QTreeWidgetItem;
        item->setText(0, d.line > 0 ? QStringLiteral("%1:%2").arg(file, QString::number(d.line))
                                    : file);
        item->setText(1, toQString(d.message));
        item->setToolTip(1, plainToolTip(toQString(d.message)));
        item->setData(0, Qt::UserRole, d.value == kNone ? -1 : static_cast<int>(d.value));
        items << item;
    };
    for (const Diagnostic &d : m_dump->warnings)
        add(d);
    for (const Diagnostic &d : extra)
        add(d);
    if (m_dump->suppressedWarnings > 0) {
        auto *item = new QTreeWidgetItem;
        item->setText(1, tr("… and %1 more warnings not stored").arg(m_dump->suppressedWarnings));
        item->setData(0, Qt::UserRole, -1);
        items << item;
    }
    addTopLevelItems(items);
    resizeColumnToContents(0);
}

QString WarningsView::emptyText() const
{
    if (topLevelItemCount() > 0)
        return {};
    if (!m_dump)
        return tr("No dump shown yet.");
    return tr("No warnings: every line of %1 was read as XLA writes it.")
        .arg(m_dump->files.empty() ? tr("the dump")
                                   : QFileInfo(toQString(m_dump->files.front().path)).fileName());
}

void WarningsView::paintEvent(QPaintEvent *event)
{
    QTreeWidget::paintEvent(event);
    // An empty list says why it is empty.
    if (const QString text = emptyText(); !text.isEmpty()) {
        QPainter painter(viewport());
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect().adjusted(12, 12, -12, -12),
                         Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, text);
    }
}

} // namespace bufferscope
