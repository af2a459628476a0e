#include "ValueChangeModel.h"

#include "models/QtText.h"
#include "models/Roles.h"
#include "report/DiffReport.h"

#include <algorithm>

namespace bufferscope {

namespace {

QString sideText(const DiffSide &s)
{
    return s.value == kNone ? QStringLiteral("—")
                            : QStringLiteral("%1, steps %2–%3")
                                  .arg(humanBytesText(s.bytes))
                                  .arg(s.start)
                                  .arg(s.end);
}

} // namespace

ValueChangeModel::ValueChangeModel(QObject *parent) : QAbstractTableModel(parent) {}

void ValueChangeModel::setDiff(std::shared_ptr<const DumpDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    fill();
    endResetModel();
}

void ValueChangeModel::setFilter(Filter filter)
{
    if (filter == m_filter)
        return;
    beginResetModel();
    m_filter = filter;
    fill();
    endResetModel();
}

template <class Fn> void ValueChangeModel::forEachRow(Filter filter, Fn fn) const
{
    if (!m_diff)
        return;
    const auto each = [&fn](Change kind, const std::vector<ValueChange> &list, auto take) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (take(list[i]))
                fn(Row{kind, static_cast<std::uint32_t>(i)});
    };
    const auto any = [](const ValueChange &) { return true; };
    const auto flag = [](std::uint8_t f) {
        return [f](const ValueChange &c) { return (c.flags & f) != 0; };
    };
    switch (filter) {
    case Filter::All:
        each(Change::Added, m_diff->added, any);
        each(Change::Removed, m_diff->removed, any);
        each(Change::Changed, m_diff->changed, any);
        break;
    case Filter::Added:
        each(Change::Added, m_diff->added, any);
        break;
    case Filter::Removed:
        each(Change::Removed, m_diff->removed, any);
        break;
    case Filter::Changed:
        each(Change::Changed, m_diff->changed, any);
        break;
    case Filter::Grown:
        each(Change::Changed, m_diff->changed, [](const ValueChange &c) { return c.delta() > 0; });
        break;
    case Filter::Shrunk:
        each(Change::Changed, m_diff->changed, [](const ValueChange &c) { return c.delta() < 0; });
        break;
    case Filter::LiveRange:
        each(Change::Changed, m_diff->changed, flag(ValueChange::LiveRange));
        break;
    case Filter::Moved:
        each(Change::Changed, m_diff->changed, flag(ValueChange::Moved));
        break;
    case Filter::LostDonation:
        each(Change::LostDonation, m_diff->lostDonationValues, any);
        break;
    }
}

void ValueChangeModel::fill()
{
    m_rows.clear();
    forEachRow(m_filter, [this](Row r) { m_rows.push_back(r); });
}

int ValueChangeModel::countOf(Filter filter) const
{
    int n = 0;
    forEachRow(filter, [&n](Row) { ++n; });
    return n;
}

const ValueChange &ValueChangeModel::changeAt(int row) const
{
    const Row &r = m_rows[static_cast<std::size_t>(row)];
    const std::vector<ValueChange> &list = r.kind == Change::Added     ? m_diff->added
                                           : r.kind == Change::Removed ? m_diff->removed
                                           : r.kind == Change::Changed ? m_diff->changed
                                                                       : m_diff->lostDonationValues;
    return list[r.index];
}

ValueChangeModel::Change ValueChangeModel::kindAt(int row) const
{
    return m_rows[static_cast<std::size_t>(row)].kind;
}

int ValueChangeModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ValueChangeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ValueChangeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ValueChange &c = changeAt(index.row());
    const qint64 delta = c.after.bytes - c.before.bytes;
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case ChangeColumn:
            switch (kindAt(index.row())) {
            case Change::Added:
                return tr("added");
            case Change::Removed:
                return tr("removed");
            case Change::Changed:
                return toQString(DiffReport::flagsText(c.flags));
            case Change::LostDonation:
                return tr("lost donation");
            }
            return {};
        case DeltaColumn:
            return signedBytesText(delta);
        case BeforeColumn:
            return sideText(c.before);
        case AfterColumn:
            return sideText(c.after);
        case KeyColumn:
            return c.renamed() ? toQString(c.before.name + " → " + c.after.name)
                               : toQString(c.name());
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (column == DeltaColumn)
            return tr("%1 bytes").arg(delta);
        if (column == BeforeColumn || column == AfterColumn)
            return tr("%1 bytes").arg(column == BeforeColumn ? c.before.bytes : c.after.bytes);
        return plainToolTip(data(index, Qt::DisplayRole).toString());
    case Qt::TextAlignmentRole:
        return column == DeltaColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case BytesRole:
        if (column == DeltaColumn)
            return delta;
        // A side the value does not exist on has no bytes (it shows "—").
        if (column == BeforeColumn && c.before.value != kNone)
            return static_cast<qint64>(c.before.bytes);
        if (column == AfterColumn && c.after.value != kNone)
            return static_cast<qint64>(c.after.bytes);
        return {};
    default:
        return {};
    }
}

QVariant ValueChangeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == BytesRole)
        return section == DeltaColumn || section == BeforeColumn || section == AfterColumn;
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ChangeColumn:
        return tr("change");
    case DeltaColumn:
        return tr("Δ bytes");
    case BeforeColumn:
        return tr("before");
    case AfterColumn:
        return tr("after");
    case KeyColumn:
        return tr("value (name{index})");
    default:
        return {};
    }
}

void ValueChangeModel::sort(int column, Qt::SortOrder order)
{
    if (!m_diff || column < 0 || column >= ColumnCount)
        return;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::uint32_t> permutation(m_rows.size());
    for (std::size_t i = 0; i < permutation.size(); ++i)
        permutation[i] = static_cast<std::uint32_t>(i);
    const auto key = [this, column](std::uint32_t row) -> std::int64_t {
        const ValueChange &c = changeAt(static_cast<int>(row));
        switch (column) {
        case ChangeColumn:
            return static_cast<std::int64_t>(m_rows[row].kind);
        case DeltaColumn:
            return c.after.bytes - c.before.bytes;
        case BeforeColumn:
            return c.before.bytes;
        case AfterColumn:
            return c.after.bytes;
        default:
            return 0;
        }
    };
    const bool descending = order == Qt::DescendingOrder;
    if (column == KeyColumn) {
        std::stable_sort(permutation.begin(), permutation.end(),
                         [&](std::uint32_t a, std::uint32_t b) {
                             const std::string &ka = changeAt(static_cast<int>(a)).name();
                             const std::string &kb = changeAt(static_cast<int>(b)).name();
                             return descending ? kb < ka : ka < kb;
                         });
    } else {
        std::vector<std::int64_t> keys(m_rows.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            keys[i] = key(static_cast<std::uint32_t>(i));
        std::stable_sort(permutation.begin(), permutation.end(),
                         [&](std::uint32_t a, std::uint32_t b) {
                             return descending ? keys[b] < keys[a] : keys[a] < keys[b];
                         });
    }
    std::vector<Row> rows(m_rows.size());
    std::vector<std::uint32_t> newRowOf(m_rows.size());
    for (std::size_t i = 0; i < permutation.size(); ++i) {
        rows[i] = m_rows[permutation[i]];
        newRowOf[permutation[i]] = static_cast<std::uint32_t>(i);
    }
    m_rows = std::move(rows);
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex &i : before)
        after << index(static_cast<int>(newRowOf[static_cast<std::size_t>(i.row())]), i.column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace bufferscope
