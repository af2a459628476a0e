#include "InstructionListModel.h"

#include "models/QtText.h"
#include "models/Roles.h"

namespace bufferscope {

InstructionListModel::InstructionListModel(QObject *parent) : QAbstractTableModel(parent) {}

void InstructionListModel::setDump(std::shared_ptr<const Dump> dump,
                                   std::shared_ptr<const MemoryTimeline> timeline)
{
    beginResetModel();
    m_dump = std::move(dump);
    m_timeline = std::move(timeline);
    m_space = m_timeline ? m_timeline->primary() : nullptr;
    endResetModel();
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
    const qint64 step = index.row();
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
    case BytesRole:
        return index.column() == LogicalColumn ? logical : live;
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
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() != InstructionColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case StepColumn:
            return step;
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
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn:
        return tr("Step");
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
