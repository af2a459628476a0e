#include "ValueTableModel.h"

#include "models/QtText.h"
#include "models/Roles.h"

namespace bufferscope {

ValueTableModel::ValueTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void ValueTableModel::setDump(std::shared_ptr<const Dump> dump)
{
    beginResetModel();
    m_dump = std::move(dump);
    // Rows start in value order, which is ascending XLA id.
    const std::size_t n = m_dump ? m_dump->values.size() : 0;
    m_order.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_order[i] = static_cast<std::uint32_t>(i);
    m_keep.clear();
    m_marked.clear();
    updateRows();
    endResetModel();
}

void ValueTableModel::updateRows()
{
    m_rowOf.assign(m_order.size(), kNoRow);
    if (m_keep.empty()) {
        m_rows = m_order;
    } else {
        m_rows.clear();
        for (std::uint32_t v : m_order)
            if (m_keep[v])
                m_rows.push_back(v);
    }
    for (std::size_t row = 0; row < m_rows.size(); ++row)
        m_rowOf[m_rows[row]] = static_cast<std::uint32_t>(row);
}

void ValueTableModel::setFilter(std::vector<std::uint8_t> keep)
{
    if (!m_dump || (!keep.empty() && keep.size() != m_dump->values.size()))
        keep.clear();
    beginResetModel();
    m_keep = std::move(keep);
    updateRows();
    endResetModel();
}

std::vector<std::uint8_t> ValueTableModel::matching(const Dump &dump, std::string_view needle,
                                                    const std::atomic<bool> *cancel)
{
    std::vector<std::uint8_t> keep(dump.values.size(), 0);
    for (std::uint32_t v = 0; v < keep.size(); ++v) {
        if (cancel && (v & 0xfff) == 0 && cancel->load(std::memory_order_relaxed))
            return {};
        keep[v] = matches(dump, v, needle) ? 1 : 0;
    }
    return keep;
}

int ValueTableModel::valueAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size()
               ? static_cast<int>(m_rows[static_cast<std::size_t>(row)])
               : -1;
}

int ValueTableModel::rowOfValue(int value) const
{
    if (value < 0 || static_cast<std::size_t>(value) >= m_rowOf.size())
        return -1;
    const std::uint32_t row = m_rowOf[static_cast<std::size_t>(value)];
    return row == kNoRow ? -1 : static_cast<int>(row);
}

void ValueTableModel::sort(int column, Qt::SortOrder order)
{
    if (!m_dump || column < 0 || column >= ColumnCount)
        return;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    const std::vector<std::uint32_t> previous = m_rows;
    std::vector<std::uint32_t> next(m_order.size());
    for (std::size_t i = 0; i < next.size(); ++i)
        next[i] = static_cast<std::uint32_t>(i); // value order, so ties stay in id order
    const bool descending = order == Qt::DescendingOrder;
    const Dump &d = *m_dump;
    // Numeric columns sort on a key array read once in value order (the comparisons then touch
    // 8 bytes per value instead of a whole Value); text columns compare the dump's strings.
    std::vector<std::int64_t> keys;
    const bool numeric = isNumeric(column);
    if (column == IdColumn && !descending) {
        // Already in id order.
    } else if (numeric) {
        keys.resize(d.values.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            keys[i] = numericKey(d.values[i], column);
        std::stable_sort(next.begin(), next.end(), [&](std::uint32_t a, std::uint32_t b) {
            return descending ? keys[b] < keys[a] : keys[a] < keys[b];
        });
    } else {
        std::stable_sort(next.begin(), next.end(), [&](std::uint32_t a, std::uint32_t b) {
            return descending ? lessThan(static_cast<int>(b), static_cast<int>(a), column)
                              : lessThan(static_cast<int>(a), static_cast<int>(b), column);
        });
    }
    m_order = std::move(next);
    updateRows();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex &i : before)
        after << index(static_cast<int>(m_rowOf[previous[static_cast<std::size_t>(i.row())]]),
                       i.column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int ValueTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_dump)
        return 0;
    return static_cast<int>(m_rows.size());
}

int ValueTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
/// `needle` (lower case) occurs in `text`, ASCII case ignored.
bool containsFolded(std::string_view text, std::string_view needle)
{
    if (needle.empty())
        return true;
    if (text.size() < needle.size())
        return false;
    const auto lower = [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    const char first = needle.front();
    for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
        if (lower(text[i]) != first)
            continue;
        std::size_t k = 1;
        while (k < needle.size() && lower(text[i + k]) == needle[k])
            ++k;
        if (k == needle.size())
            return true;
    }
    return false;
}
} // namespace

bool ValueTableModel::matches(const Dump &d, std::uint32_t value, std::string_view needle)
{
    const Value &v = d.values[value];
    if (containsFolded(d.valueName(v), needle) || containsFolded(d.str(v.index), needle) ||
        containsFolded(d.shapeText(v), needle))
        return true;
    const Instruction *ins = d.instructionOf(v);
    if (!ins)
        return false;
    if (containsFolded(d.str(ins->opName), needle))
        return true;
    if (ins->sourceFile == kNoString)
        return false;
    // "file.py:12": the file alone, or with the line when the needle has a colon.
    if (needle.find(':') == std::string_view::npos)
        return containsFolded(d.str(ins->sourceFile), needle);
    thread_local std::string location;
    location.assign(d.str(ins->sourceFile));
    location += ':';
    location += std::to_string(ins->sourceLine);
    return containsFolded(location, needle);
}

bool ValueTableModel::isNumeric(int column)
{
    return column == IdColumn || column == SizeColumn || column == LogicalColumn ||
           column == AllocationColumn || column == OffsetColumn || column == StartColumn ||
           column == EndColumn || column == CategoryColumn;
}

void ValueTableModel::setCategories(std::shared_ptr<const ValueCategories> categories)
{
    m_categories = std::move(categories);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, CategoryColumn), index(rowCount() - 1, CategoryColumn));
}

int ValueTableModel::categoryOf(std::size_t v) const
{
    if (!m_categories || !m_dump || m_categories->category.size() != m_dump->values.size() ||
        v >= m_categories->category.size())
        return kNoCategory;
    return static_cast<int>(m_categories->category[v]);
}

std::int64_t ValueTableModel::numericKey(const Value &v, int column) const
{
    // The one place a numeric column says what it sorts on (sort(), lessThan, SortRole).
    const Dump &d = *m_dump;
    switch (column) {
    case IdColumn:
        return v.id;
    case SizeColumn:
        return v.size;
    case LogicalColumn:
        return d.logicalBytes(v);
    case AllocationColumn:
        return v.allocation == kNone ? -1 : d.allocations[v.allocation].index;
    case OffsetColumn:
        return v.offset;
    case StartColumn:
        return v.start;
    case EndColumn:
        return v.end;
    case CategoryColumn: // the report's order: weights first
        return categoryOf(static_cast<std::size_t>(&v - d.values.data()));
    default:
        return 0;
    }
}

bool ValueTableModel::lessThan(int a, int b, int column) const
{
    const Dump &d = *m_dump;
    const Value &x = d.values[static_cast<std::size_t>(a)];
    const Value &y = d.values[static_cast<std::size_t>(b)];
    if (isNumeric(column))
        return numericKey(x, column) < numericKey(y, column);
    const auto kind = [&](const Value &v) -> std::string_view {
        return v.allocation == kNone ? std::string_view("unallocated")
                                     : allocationKindName(d.allocations[v.allocation].kind);
    };
    const auto text = [&](const Value &v, bool opName) -> std::string_view {
        const Instruction *ins = d.instructionOf(v);
        if (!ins)
            return {};
        return d.str(opName ? ins->opName : ins->sourceFile);
    };
    switch (column) {
    case NameColumn: {
        const auto nx = d.valueName(x);
        const auto ny = d.valueName(y);
        return nx != ny ? nx < ny : d.str(x.index) < d.str(y.index);
    }
    case ShapeColumn:
        return d.shapeText(x) < d.shapeText(y);
    case KindColumn:
        return kind(x) < kind(y);
    case OpNameColumn:
        return text(x, true) < text(y, true);
    case SourceColumn: {
        const auto fx = text(x, false);
        const auto fy = text(y, false);
        if (fx != fy)
            return fx < fy;
        const Instruction *ix = d.instructionOf(x);
        const Instruction *iy = d.instructionOf(y);
        return (ix ? ix->sourceLine : -1) < (iy ? iy->sourceLine : -1);
    }
    default:
        return a < b;
    }
}

void ValueTableModel::setMarked(const QVector<int> &values)
{
    m_marked.clear();
    if (m_dump && !values.isEmpty()) {
        m_marked.assign(m_dump->values.size(), 0);
        for (int v : values)
            if (v >= 0 && static_cast<std::size_t>(v) < m_marked.size())
                m_marked[static_cast<std::size_t>(v)] = 1;
    }
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {MarkedRole});
}

QVariant ValueTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_dump || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Dump &d = *m_dump;
    const std::uint32_t value = m_rows[static_cast<std::size_t>(index.row())];
    const Value &v = d.values[value];
    const Instruction *ins = d.instructionOf(v);
    const Allocation *alloc = v.allocation == kNone ? nullptr : &d.allocations[v.allocation];
    switch (role) {
    case ValueIndexRole:
        return static_cast<int>(value);
    case MarkedRole:
        return value < m_marked.size() && m_marked[value] != 0;
    case ValueIdRole:
        return static_cast<qint64>(v.id);
    case AllocationIndexRole:
        return alloc ? static_cast<int>(v.allocation) : -1;
    case StepRole:
        return static_cast<qint64>(v.start);
    case BytesRole:
        if (index.column() == LogicalColumn)
            return static_cast<qint64>(d.logicalBytes(v));
        return index.column() == SizeColumn ? QVariant(static_cast<qint64>(v.size)) : QVariant();
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case IdColumn:
        case SizeColumn:
        case LogicalColumn:
        case AllocationColumn:
        case OffsetColumn:
        case StartColumn:
        case EndColumn:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case SizeColumn:
            return exactBytesText(v.size);
        case LogicalColumn:
            return exactBytesText(d.logicalBytes(v));
        case OffsetColumn:
            return QStringLiteral("%1 (0x%2)").arg(v.offset).arg(v.offset, 0, 16);
        case StartColumn:
        case EndColumn: {
            const std::int64_t step = index.column() == StartColumn ? v.start : v.end;
            const std::uint32_t at = d.instructionAtStep(step);
            return at == kNone ? QVariant()
                               : QVariant(plainToolTip(toQString(d.str(d.instructions[at].name))));
        }
        case CategoryColumn:
            if (categoryOf(value) == kNoCategory)
                return {};
            return plainToolTip(
                toQString(m_categories->evidence(d, static_cast<std::uint32_t>(value))));
        default:
            return {};
        }
    case SortRole:
        if (isNumeric(index.column()))
            return static_cast<qint64>(numericKey(v, index.column()));
        return data(index, Qt::DisplayRole);
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return static_cast<qint64>(v.id);
        case NameColumn:
            return toQString(d.valueDisplayName(v));
        case SizeColumn:
            return humanBytesText(v.size);
        case LogicalColumn:
            return humanBytesText(d.logicalBytes(v));
        case ShapeColumn:
            return toQString(d.shapeText(v));
        case AllocationColumn:
            return alloc ? QVariant(static_cast<qint64>(alloc->index))
                         : QVariant(QStringLiteral("—"));
        case KindColumn:
            return alloc ? toQString(allocationKindName(alloc->kind))
                         : QStringLiteral("unallocated");
        case CategoryColumn: {
            const int c = categoryOf(static_cast<std::size_t>(value));
            return c == kNoCategory ? QStringLiteral("—")
                                    : toQString(categoryTitle(static_cast<Category>(c)));
        }
        case OffsetColumn:
            return static_cast<qint64>(v.offset);
        case StartColumn:
            return v.hasLiveRange() ? QVariant(static_cast<qint64>(v.start))
                                    : QVariant(QStringLiteral("—"));
        case EndColumn:
            return v.hasLiveRange() ? QVariant(static_cast<qint64>(v.end))
                                    : QVariant(QStringLiteral("—"));
        case OpNameColumn:
            return ins ? toQString(d.str(ins->opName)) : QString();
        case SourceColumn:
            return ins ? toQString(d.sourceLocation(*ins)) : QString();
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant ValueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IdColumn:
            return tr("Id");
        case NameColumn:
            return tr("Value");
        case SizeColumn:
            return tr("Size");
        case LogicalColumn:
            return tr("Logical");
        case ShapeColumn:
            return tr("Shape");
        case AllocationColumn:
            return tr("Alloc");
        case KindColumn:
            return tr("Kind");
        case CategoryColumn:
            return tr("Category");
        case OffsetColumn:
            return tr("Offset");
        case StartColumn:
            return tr("Start");
        case EndColumn:
            return tr("End");
        case OpNameColumn:
            return tr("op_name");
        case SourceColumn:
            return tr("Source");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SizeColumn:
            return tr("Assigned bytes (size= in the dump; padded on TPU)");
        case LogicalColumn:
            return tr("Logical bytes of the shape (element count × element size)");
        case StartColumn:
        case EndColumn:
            return tr("Live range in program steps, both ends inclusive");
        case CategoryColumn:
            return tr("What kind of memory it is (weights, activations, …), from the data flow "
                      "and the parameters' names; the cell's tooltip says why");
        default:
            return {};
        }
    }
    return {};
}

} // namespace bufferscope
