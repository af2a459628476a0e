#include "ModelCsv.h"

#include "models/Roles.h"
#include "report/Csv.h"

#include <QAbstractItemModel>

namespace bufferscope {

namespace {

struct Walk
{
    QAbstractItemModel &model;
    const QList<int> &columns;
    QList<bool> bytes; ///< per written column: write BytesRole
    bool tree = false;
    CsvWriter csv;

    void field(const QVariant &v)
    {
        const QByteArray text = v.toString().toUtf8();
        csv.field(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    }

    void rows(const QModelIndex &parent, int depth)
    {
        while (model.canFetchMore(parent))
            model.fetchMore(parent);
        const int count = model.rowCount(parent);
        for (int r = 0; r < count; ++r) {
            if (tree)
                csv.field(depth);
            for (qsizetype c = 0; c < columns.size(); ++c) {
                const QModelIndex cell = model.index(r, columns[c], parent);
                const QVariant exact = bytes[c] ? cell.data(BytesRole) : QVariant();
                if (exact.isValid())
                    csv.field(static_cast<std::int64_t>(exact.toLongLong()));
                else
                    field(cell.data(Qt::DisplayRole));
            }
            csv.endRow();
            const QModelIndex first = model.index(r, 0, parent);
            if (tree && model.hasChildren(first))
                rows(first, depth + 1);
        }
    }
};

/// Whether the header says `column` holds bytes, or any of the first rows carries them.
bool hasBytes(const QAbstractItemModel &model, int column)
{
    if (model.headerData(column, Qt::Horizontal, BytesRole).toBool())
        return true;
    const int count = std::min(model.rowCount(), 1000);
    for (int r = 0; r < count; ++r) {
        if (model.index(r, column).data(BytesRole).isValid())
            return true;
    }
    return false;
}

} // namespace

QByteArray ModelCsv::write(QAbstractItemModel &model, const QList<int> &wanted)
{
    QList<int> columns = wanted;
    if (columns.isEmpty()) {
        for (int c = 0; c < model.columnCount(); ++c)
            columns.append(c);
    }
    Walk walk{model, columns, {}, false, {}};
    for (int r = 0; r < model.rowCount() && !walk.tree; ++r)
        walk.tree = model.hasChildren(model.index(r, 0));
    if (walk.tree)
        walk.csv.field("depth");
    for (const int c : columns) {
        walk.bytes.append(hasBytes(model, c));
        QString header = model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        if (walk.bytes.back())
            header += QStringLiteral(" (bytes)");
        walk.field(header);
    }
    walk.csv.endRow();
    walk.rows(QModelIndex(), 0);
    const std::string &out = walk.csv.str();
    return QByteArray(out.data(), static_cast<qsizetype>(out.size()));
}

} // namespace bufferscope
