#pragma once

#include "analysis/PeakBreakdown.h"

#include <QAbstractItemModel>

namespace bufferscope {

/// A breakdown as a tree: the op_name hierarchy, or one level of rows for the other groupings.
/// Columns: group, bytes, share of the step's live bytes, values. Typed roles: BytesRole and
/// SortRole on every column; MembersRole gives the group's value indices, PathRole its op_name
/// prefix (Roles.h).
class BreakdownTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        GroupColumn,
        BytesColumn,
        ShareColumn,
        ValuesColumn,
        ColumnCount
    };

    explicit BreakdownTreeModel(QObject *parent = nullptr);

    /// Shows `root`'s children as the top level; `total` is the step's live bytes (for shares).
    void setTree(BreakdownNode root, std::int64_t total);
    /// One level of rows (source, op_type or kind grouping).
    void setRows(const std::vector<BreakdownRow> &rows, std::int64_t total);
    const BreakdownNode &root() const { return m_root; }
    const BreakdownNode *node(const QModelIndex &index) const;
    /// The index of the node whose children are `path` (a list of child positions from the root).
    QModelIndex indexOfNode(const BreakdownNode *node) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Link
    {
        const BreakdownNode *node;
        const BreakdownNode *parent;
        int row;
    };
    void link(const BreakdownNode &node, const BreakdownNode *parent, int row);
    const Link *linkOf(const BreakdownNode *node) const;

    BreakdownNode m_root;
    std::int64_t m_total = 0;
    std::vector<Link> m_links; ///< one per node, for parent(); sorted by node address
};

} // namespace bufferscope
