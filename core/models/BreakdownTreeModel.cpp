#include "BreakdownTreeModel.h"

#include "models/QtText.h"
#include "models/Roles.h"

#include <algorithm>

namespace bufferscope {

BreakdownTreeModel::BreakdownTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void BreakdownTreeModel::link(const BreakdownNode &node, const BreakdownNode *parent, int row)
{
    m_links.push_back({&node, parent, row});
    for (std::size_t i = 0; i < node.children.size(); ++i)
        link(node.children[i], &node, static_cast<int>(i));
}

void BreakdownTreeModel::setTree(BreakdownNode root, std::int64_t total)
{
    beginResetModel();
    m_root = std::move(root);
    m_total = total;
    m_links.clear();
    link(m_root, nullptr, 0);
    std::sort(m_links.begin(), m_links.end(),
              [](const Link &a, const Link &b) { return a.node < b.node; });
    endResetModel();
}

void BreakdownTreeModel::setRows(const std::vector<BreakdownRow> &rows, std::int64_t total)
{
    BreakdownNode root;
    for (const BreakdownRow &r : rows) {
        BreakdownNode n;
        n.label = r.key;
        n.path = r.key;
        n.bytes = r.bytes;
        n.values = r.values;
        n.members = r.members;
        root.bytes += r.bytes;
        root.values += r.values;
        root.members.insert(root.members.end(), r.members.begin(), r.members.end());
        root.children.push_back(std::move(n));
    }
    setTree(std::move(root), total);
}

const BreakdownTreeModel::Link *BreakdownTreeModel::linkOf(const BreakdownNode *node) const
{
    const auto it =
        std::lower_bound(m_links.begin(), m_links.end(), node,
                         [](const Link &l, const BreakdownNode *n) { return l.node < n; });
    return it != m_links.end() && it->node == node ? &*it : nullptr;
}

const BreakdownNode *BreakdownTreeModel::node(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<const BreakdownNode *>(index.internalPointer()) : &m_root;
}

QModelIndex BreakdownTreeModel::indexOfNode(const BreakdownNode *n) const
{
    const Link *l = n ? linkOf(n) : nullptr;
    if (!l || !l->parent)
        return {};
    return createIndex(l->row, 0, const_cast<BreakdownNode *>(n));
}

QModelIndex BreakdownTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    const BreakdownNode *p = node(parent);
    if (!p || row < 0 || column < 0 || column >= ColumnCount ||
        row >= static_cast<int>(p->children.size()))
        return {};
    return createIndex(row, column,
                       const_cast<BreakdownNode *>(&p->children[static_cast<std::size_t>(row)]));
}

QModelIndex BreakdownTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const Link *l = linkOf(node(child));
    if (!l || !l->parent || l->parent == &m_root)
        return {};
    const Link *pl = linkOf(l->parent);
    return pl ? createIndex(pl->row, 0, const_cast<BreakdownNode *>(l->parent)) : QModelIndex();
}

int BreakdownTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    const BreakdownNode *p = node(parent);
    return p ? static_cast<int>(p->children.size()) : 0;
}

int BreakdownTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant BreakdownTreeModel::data(const QModelIndex &index, int role) const
{
    const BreakdownNode *n = index.isValid() ? node(index) : nullptr;
    if (!n)
        return {};
    const double share = m_total > 0 ? static_cast<double>(n->bytes) / m_total : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case GroupColumn:
            return toQString(n->label);
        case BytesColumn:
            return humanBytesText(n->bytes);
        case ShareColumn:
            return QStringLiteral("%1%").arg(share * 100.0, 0, 'f', 1);
        case ValuesColumn:
            return static_cast<qlonglong>(n->values);
        default:
            break;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == BytesColumn)
            return tr("%1 bytes").arg(n->bytes);
        if (index.column() == GroupColumn)
            return plainToolTip(
                n->instructions
                    ? tr("%1: %2 value(s) named %1").arg(toQString(n->label)).arg(n->values)
                    : toQString(n->path));
        break;
    case Qt::TextAlignmentRole:
        if (index.column() != GroupColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case SortRole:
        switch (index.column()) {
        case GroupColumn:
            return toQString(n->label);
        case BytesColumn:
        case ShareColumn:
            return static_cast<qlonglong>(n->bytes);
        case ValuesColumn:
            return static_cast<qlonglong>(n->values);
        default:
            break;
        }
        break;
    case BytesRole:
        return index.column() == BytesColumn ? QVariant(static_cast<qlonglong>(n->bytes))
                                             : QVariant();
    case MembersRole: {
        QVector<int> members;
        members.reserve(static_cast<qsizetype>(n->members.size()));
        for (std::uint32_t v : n->members)
            members.push_back(static_cast<int>(v));
        return QVariant::fromValue(members);
    }
    case PathRole:
        return toQString(n->path);
    default:
        break;
    }
    return {};
}

QVariant BreakdownTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case GroupColumn:
        return tr("Group");
    case BytesColumn:
        return tr("Bytes");
    case ShareColumn:
        return tr("Share");
    case ValuesColumn:
        return tr("Values");
    default:
        return {};
    }
}

} // namespace bufferscope
