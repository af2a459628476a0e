#pragma once

#include <QByteArray>
#include <QString>

class QAbstractItemView;

namespace bufferscope {

/// Copy as CSV / Save as CSV… for the app's tables and trees.
namespace TableCsv {

/// Adds *Copy as CSV* (Ctrl+Shift+C while the view has focus) and *Save as CSV…* to the
/// context menu of `view`. Both write what the view shows: its rows in its sort and filter, its
/// visible columns in their on-screen order, exact bytes as integers (models/ModelCsv.h).
/// `fileStem` names the suggested file ("values" → values.csv).
void addActions(QAbstractItemView *view, const QString &fileStem);

/// The CSV those actions write for `view`.
QByteArray of(QAbstractItemView *view);

} // namespace TableCsv

} // namespace bufferscope
