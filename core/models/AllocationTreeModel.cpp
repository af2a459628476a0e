#include "AllocationTreeModel.h"

#include "analysis/MemoryTimeline.h"
#include "models/QtText.h"
#include "models/Roles.h"

namespace bufferscope {

AllocationTreeModel::AllocationTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void AllocationTreeModel::setDump(std::shared_ptr<const Dump> dump,
                                  std::vector<AllocationUsage> usage)
{
    beginResetModel();
    m_dump = std::move(dump);
    m_usage = std::move(usage);
    m_rowInAllocation.assign(m_dump ? m_dump->values.size() : 0, -1);
    if (m_dump) {
        for (const Allocation &a : m_dump->allocations) {
            for (std::uint32_t k = 0; k < a.valueCount; ++k)
                m_rowInAllocation[m_dump->allocationValues[a.firstValue + k]] = static_cast<int>(k);
        }
    }
    endResetModel();
}

QModelIndex AllocationTreeModel::indexOfValue(int value, int column) const
{
    if (!m_dump || value < 0 || static_cast<std::size_t>(value) >= m_dump->values.size())
        return {};
    const Value &v = m_dump->values[static_cast<std::size_t>(value)];
    const int row = m_rowInAllocation[static_cast<std::size_t>(value)];
    if (v.allocation == kNone || row < 0)
        return {};
    return createIndex(row, column, static_cast<quintptr>(v.allocation));
}

QModelIndex AllocationTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kTopLevel);
    return createIndex(row, column, static_cast<quintptr>(parent.row()));
}

QModelIndex AllocationTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId()), 0, kTopLevel);
}

int AllocationTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!m_dump)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_dump->allocations.size());
    if (parent.internalId() != kTopLevel || parent.column() != 0)
        return 0;
    return static_cast<int>(m_dump->allocations[static_cast<std::size_t>(parent.row())].valueCount);
}

int AllocationTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant AllocationTreeModel::data(const QModelIndex &index, int role) const
{
    if (!m_dump || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Dump &d = *m_dump;
    if (index.internalId() == kTopLevel) {
        const auto ai = static_cast<std::size_t>(index.row());
        const Allocation &a = d.allocations[ai];
        const AllocationUsage *usage = ai < m_usage.size() ? &m_usage[ai] : nullptr;
        switch (role) {
        case AllocationIndexRole:
            return index.row();
        case ValueIndexRole:
            return -1;
        case BytesRole:
            return index.column() == SizeColumn ? QVariant(static_cast<qint64>(a.size))
                                                : QVariant();
        case SortRole:
            if (index.column() == SizeColumn)
                return static_cast<qint64>(a.size);
            return data(index, Qt::DisplayRole);
        case Qt::ToolTipRole:
            if (index.column() == SizeColumn)
                return exactBytesText(a.size);
            if (index.column() == LiveColumn && usage)
                return tr("Largest live bytes %1 at step %2; %3 never used at once")
                    .arg(exactBytesText(usage->largestLiveBytes))
                    .arg(usage->largestLiveStep)
                    .arg(exactBytesText(usage->fragmentation));
            return {};
        case Qt::DisplayRole:
            switch (index.column()) {
            case NameColumn:
                return tr("allocation %1").arg(a.index);
            case SizeColumn:
                return humanBytesText(a.size);
            case KindColumn: {
                QString kind = toQString(allocationKindName(a.kind));
                if (a.color != 0)
                    kind += QStringLiteral(" @%1").arg(a.color);
                if (a.isParameter)
                    kind += QStringLiteral(" #%1").arg(a.parameterNumber);
                if (a.kind == AllocationKind::Parameter && a.isMaybeLiveOut)
                    kind += tr(" → output, donated");
                return kind;
            }
            case OffsetColumn:
                return a.valueCount == 1 ? tr("1 value") : tr("%1 values").arg(a.valueCount);
            case LiveColumn:
                return usage ? tr("max %1 live").arg(humanBytesText(usage->largestLiveBytes))
                             : QVariant();
            case CategoryColumn: {
                const ValueCategories *c = categories();
                return c ? toQString(categoryTitle(c->allocation[index.row()]))
                         : QStringLiteral("—");
            }
            default:
                return {};
            }
        default:
            return {};
        }
    }
    const Allocation &a = d.allocations[index.internalId()];
    const std::uint32_t vi =
        d.allocationValues[a.firstValue + static_cast<std::uint32_t>(index.row())];
    const Value &v = d.values[vi];
    switch (role) {
    case ValueIndexRole:
        return static_cast<int>(vi);
    case AllocationIndexRole:
        return static_cast<int>(index.internalId());
    case StepRole:
        return static_cast<qint64>(v.start);
    case BytesRole:
        return index.column() == SizeColumn ? QVariant(static_cast<qint64>(v.size)) : QVariant();
    case SortRole:
        if (index.column() == SizeColumn)
            return static_cast<qint64>(v.size);
        if (index.column() == OffsetColumn)
            return static_cast<qint64>(v.offset);
        return data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (index.column() == SizeColumn)
            return exactBytesText(v.size);
        if (index.column() == OffsetColumn)
            return QStringLiteral("0x%1").arg(v.offset, 0, 16);
        if (index.column() == CategoryColumn && categories())
            return plainToolTip(toQString(categories()->evidence(d, vi)));
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return toQString(d.valueDisplayName(v));
        case SizeColumn:
            return humanBytesText(v.size);
        case KindColumn:
            return toQString(d.shapeText(v));
        case OffsetColumn:
            return static_cast<qint64>(v.offset);
        case LiveColumn:
            return v.hasLiveRange() ? QStringLiteral("%1–%2").arg(v.start).arg(v.end)
                                    : tr("never live");
        case CategoryColumn: {
            const ValueCategories *c = categories();
            return c ? toQString(categoryTitle(c->category[vi])) : QStringLiteral("—");
        }
        default:
            return {};
        }
    default:
        return {};
    }
}

void AllocationTreeModel::setCategories(std::shared_ptr<const ValueCategories> categories)
{
    beginResetModel();
    m_categories = std::move(categories);
    endResetModel();
}

const ValueCategories *AllocationTreeModel::categories() const
{
    if (!m_categories || !m_dump || m_categories->category.size() != m_dump->values.size() ||
        m_categories->allocation.size() != m_dump->allocations.size())
        return nullptr;
    return m_categories.get();
}

QVariant AllocationTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Allocation / value");
    case SizeColumn:
        return tr("Size");
    case KindColumn:
        return tr("Kind / shape");
    case OffsetColumn:
        return tr("Offset / values"); // a value's offset; an allocation's count of values
    case LiveColumn:
        return tr("Live");
    case CategoryColumn:
        return tr("Category");
    default:
        return {};
    }
}

} // namespace bufferscope
