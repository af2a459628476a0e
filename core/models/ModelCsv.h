#pragma once

#include <QByteArray>
#include <QList>
#include <QModelIndex>

class QAbstractItemModel;

namespace bufferscope {

/// A table or tree of the app as CSV (RFC 4180, UTF-8, report/Csv.h): the header texts, then
/// one record per row as the model shows it (its sort and filter). A column with exact bytes
/// (BytesRole in its header, or in its first rows' cells) is written as the integers, headed
/// "<header> (bytes)", not as "1.5GiB"; a cell without them (a "—") as its text. A tree
/// gets a leading `depth` column (0 for top-level rows) and is walked depth-first, children
/// under their parent, every branch expanded whether or not the view shows it expanded (lazy models
/// are asked to fetch their rows, hence the non-const model).
struct ModelCsv
{
    /// `columns`: the model columns to write, in order (empty: all).
    static QByteArray write(QAbstractItemModel &model, const QList<int> &columns = {});
};

} // namespace bufferscope
