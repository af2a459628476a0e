#include "InstructionListModel.h"

#include "models/QtText.h"
#include "models/Roles.h"

#include <QStringList>

#include <algorithm>
#include <utility>

namespace bufferscope {

InstructionListModel::InstructionListModel(QObject *parent) : QAbstractTableModel(parent) {}

void InstructionListModel::setDump(std::shared_ptr<const Dump> dump,
                                   std::shared_ptr<const MemoryTimeline> timeline)
{
    beginResetModel();
    m_dump = std::move(dump);
    m_timeline = std::move(timeline);
    m_space = m_timeline ? m_timeline->primary() : nullptr;
    m_flow.reset();
    m_markedSteps.clear();
    endResetModel();
}

void InstructionListModel::setMarks(std::shared_ptr<const ValueFlow> flow)
{
    std::vector<qint64> steps;
    if (flow) {
        for (std::int64_t s : flow->useSteps())
            steps.push_back(s);
        for (std::int64_t s : flow->positionSteps())
            steps.push_back(s);
        std::sort(steps.begin(), steps.end());
        steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    }
    if (m_onlyMarked)
        beginResetModel();
    const std::vector<qint64> before = std::exchange(m_markedSteps, std::move(steps));
    m_flow = std::move(flow);
    if (m_onlyMarked) {
        endResetModel();
        return;
    }
    // Only the rows that change: the old marks and the new.
    for (const std::vector<qint64> *list :
         {&before, static_cast<const std::vector<qint64> *>(&m_markedSteps)})
        for (qint64 step : *list) {
            const int row = rowOfStep(step);
            if (row >= 0)
                Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
}

void InstructionListModel::setOnlyMarked(bool only)
{
    if (only == m_onlyMarked)
        return;
    beginResetModel();
    m_onlyMarked = only;
    endResetModel();
}

qint64 InstructionListModel::stepOfRow(int row) const
{
    if (row < 0)
        return -1;
    if (m_onlyMarked)
        return static_cast<std::size_t>(row) < m_markedSteps.size()
                   ? m_markedSteps[static_cast<std::size_t>(row)]
                   : -1;
    return row < rowCount() ? row : -1;
}

int InstructionListModel::rowOfStep(qint64 step) const
{
    if (!m_dump || step < 0 || step >= m_dump->stepCount())
        return -1;
    if (!m_onlyMarked)
        return static_cast<int>(step);
    const auto it = std::lower_bound(m_markedSteps.begin(), m_markedSteps.end(), step);
    return it != m_markedSteps.end() && *it == step ? static_cast<int>(it - m_markedSteps.begin())
                                                    : -1;
}

QString InstructionListModel::marksText(qint64 step) const
{
    if (!m_flow || !std::binary_search(m_markedSteps.begin(), m_markedSteps.end(), step))
        return {};
    QStringList parts;
    for (const ValueMark &m : m_flow->positions)
        if (m.step == step)
            parts << (m.index == kNoString
                          ? QStringLiteral("○")
                          : QStringLiteral("○ ") + toQString(m_dump->str(m.index)));
    for (const ValueMark &m : m_flow->uses)
        if (m.step == step)
            parts << tr("▼ operand %1").arg(m.operand);
    return parts.join(QStringLiteral(", "));
}

void InstructionListModel::setMemorySpace(int memorySpace)
{
    if (!m_timeline)
        return;
    const SpaceTimeline *space = m_timeline->space(memorySpace);
    if (space == m_space)
        return;
    m_space = space;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, LiveColumn), index(rowCount() - 1, LogicalColumn));
}

int InstructionListModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_dump)
        return 0;
    if (m_onlyMarked)
        return static_cast<int>(m_markedSteps.size());
    return static_cast<int>(m_dump->stepCount());
}

int InstructionListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InstructionListModel::data(const QModelIndex &index, int role) const
{
    if (!m_dump || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Dump &d = *m_dump;
    const qint64 step = stepOfRow(index.row());
    if (step < 0)
        return {};
    const auto s = static_cast<std::size_t>(step);
    const std::uint32_t ins = d.instructionAtStep(step);
    const qint64 live = m_space && s < m_space->liveBytes.size() ? m_space->liveBytes[s] : 0;
    const qint64 logical =
        m_space && s < m_space->logicalBytes.size() ? m_space->logicalBytes[s] : 0;
    switch (role) {
    case StepRole:
        return step;
    case ValueIndexRole:
        return -1;
    case MarkedRole:
        return std::binary_search(m_markedSteps.begin(), m_markedSteps.end(), step);
    case BytesRole:
        if (index.column() == LogicalColumn)
            return logical;
        return index.column() == LiveColumn ? QVariant(live) : QVariant();
    case SortRole:
        switch (index.column()) {
        case StepColumn:
            return step;
        case LiveColumn:
            return live;
        case LogicalColumn:
            return logical;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        if (index.column() == LiveColumn)
            return exactBytesText(live);
        if (index.column() == LogicalColumn)
            return exactBytesText(logical);
        if (index.column() == MarksColumn)
            return tr("How the selected value appears at this step: ▼ read as operand N, ○ a "
                      "position (the instruction holds it, at a shape index)");
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() != InstructionColumn && index.column() != MarksColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case StepColumn:
            return step;
        case MarksColumn:
            return marksText(step);
        case InstructionColumn:
            if (ins == kNone)
                return step == d.maxStep() ? tr("(end of program)") : tr("(unknown)");
            return toQString(d.str(d.instructions[ins].name));
        case LiveColumn:
            return humanBytesText(live);
        case LogicalColumn:
            return humanBytesText(logical);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant InstructionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == MarksColumn)
        return tr("The selected value at this step: ▼ read as operand N, ○ held (a position)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn:
        return tr("Step");
    case MarksColumn:
        return tr("Selected");
    case InstructionColumn:
        return tr("Instruction");
    case LiveColumn:
        return tr("Live bytes");
    case LogicalColumn:
        return tr("Logical bytes");
    default:
        return {};
    }
}

} // namespace bufferscope
