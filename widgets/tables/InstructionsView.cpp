#include "tables/InstructionsView.h"

#include "Workspace.h"
#include "drawing/ChartPalette.h"
#include "models/InstructionListModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "tables/MarkedRowDelegate.h"
#include "tables/TableCsv.h"

#include <QCheckBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QMenu>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace bufferscope {

InstructionsView::InstructionsView(InstructionListModel *model, Workspace *workspace,
                                   QWidget *parent)
    : QWidget(parent), m_model(model), m_workspace(workspace),
      m_onlyMarked(new QCheckBox(tr("Only the selected value's steps"), this)),
      m_table(new QTableView(this))
{
    m_onlyMarked->setToolTip(tr("Show only the steps where the selected value is used (▼) or "
                                "held (○)"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new MarkedRowDelegate(m_table));
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Column widths from the first rows only (a thousand cost tens of ms on big dumps).
    m_table->horizontalHeader()->setResizeContentsPrecision(100);
    m_table->setToolTip(tr("Click a row to select the value its instruction defines"));
    TableCsv::addActions(m_table, QStringLiteral("instructions"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_onlyMarked);
    layout->addWidget(m_table, 1);

    Selection *selection = workspace->selection();
    connect(m_onlyMarked, &QCheckBox::toggled, this, [this, selection](bool on) {
        m_model->setOnlyMarked(on);
        showStep(selection->currentStep());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, selection](const QModelIndex &index) {
                const qint64 step = index.isValid() ? m_model->stepOfRow(index.row()) : -1;
                if (step >= 0)
                    selection->setCurrentStep(step);
            });
    connect(m_table, &QAbstractItemView::clicked, this,
            [this](const QModelIndex &index) { activateRow(index.row(), QCursor::pos()); });
    connect(selection, &Selection::currentStepChanged, this, &InstructionsView::showStep);
    connect(selection, &Selection::currentValueChanged, this, [this, selection](int value) {
        m_model->setMarks(value >= 0 ? m_workspace->flow(m_dump, value) : nullptr);
        if (m_model->onlyMarked())
            showStep(selection->currentStep());
    });
    connect(workspace, &Workspace::memorySpaceChanged, m_model,
            &InstructionListModel::setMemorySpace);
}

void InstructionsView::setDump(std::shared_ptr<const Dump> dump,
                               std::shared_ptr<const MemoryTimeline> timeline)
{
    m_dump = dump;
    m_model->setDump(std::move(dump), std::move(timeline));
    m_model->setMemorySpace(m_workspace->memorySpace());
    m_table->resizeColumnsToContents();
    // Widths from the first rows would cut the later, longer step numbers and marks.
    const QFontMetrics metrics = m_table->fontMetrics();
    const int padding = 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 12;
    if (m_dump)
        m_table->setColumnWidth(
            InstructionListModel::StepColumn,
            std::max(m_table->columnWidth(InstructionListModel::StepColumn),
                     metrics.horizontalAdvance(QString::number(m_dump->maxStep())) + padding));
    m_table->setColumnWidth(InstructionListModel::MarksColumn,
                            metrics.horizontalAdvance(tr("▼ operand 10")) + padding);
    // Names between 20 and 32 characters wide: the first rows are often short parameters.
    const int letter = metrics.horizontalAdvance(QLatin1Char('x'));
    m_table->setColumnWidth(
        InstructionListModel::InstructionColumn,
        std::clamp(m_table->columnWidth(InstructionListModel::InstructionColumn), 20 * letter,
                   32 * letter));
}

void InstructionsView::showStep(qint64 step)
{
    const int row = m_model->rowOfStep(step);
    const QSignalBlocker blocker(m_table->selectionModel());
    if (row < 0) {
        m_table->selectionModel()->clearSelection();
        return;
    }
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void InstructionsView::activateRow(int row, const QPoint &globalPos)
{
    const qint64 step = m_model->stepOfRow(row);
    if (!m_dump || step < 0)
        return;
    const std::uint32_t instruction = m_dump->instructionAtStep(step);
    if (instruction == kNone)
        return;
    const auto [first, last] = m_dump->valuesOf(instruction);
    Selection *selection = m_workspace->selection();
    if (last - first == 1) {
        selection->setCurrentValue(static_cast<int>(*first));
        return;
    }
    if (first == last)
        return; // it defines no value (get-tuple-element, bitcast, …): the step is enough
    // A tuple instruction defines one value per element: which one?
    if (m_chooser)
        m_chooser->close();
    m_chooser = new QMenu(this);
    m_chooser->setAttribute(Qt::WA_DeleteOnClose);
    m_chooser->addSection(tr("Values %1 defines")
                              .arg(toQString(m_dump->str(m_dump->instructions[instruction].name))));
    for (auto it = first; it != last; ++it) {
        const Value &v = m_dump->values[*it];
        QAction *a = m_chooser->addAction(
            tr("%1 · %2").arg(toQString(m_dump->valueDisplayName(v)), humanBytesText(v.size)));
        const int value = static_cast<int>(*it);
        connect(a, &QAction::triggered, this,
                [selection, value] { selection->setCurrentValue(value); });
    }
    m_chooser->popup(globalPos);
}

} // namespace bufferscope
