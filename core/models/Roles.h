#pragma once

#include <Qt>

namespace bufferscope {

/// Typed data the views ask the models for; views never cast a model to its class. Every
/// model's roles are here, so no two can collide. (Widgets with item classes of their own, like
/// the Modules list, keep their item roles to themselves.)
enum Roles : int
{
    ValueIndexRole = Qt::UserRole + 1, ///< dense value index (int), -1 on non-value rows
    ValueIdRole,                       ///< XLA value id (qint64)
    AllocationIndexRole,               ///< dense allocation index (int)
    StepRole,                          ///< program step (qint64)
    SortRole,                          ///< a number or string that sorts the column right
    /// Exact byte count (qint64) of a size column; in headerData, true for a column of bytes
    /// (Copy as CSV writes such columns as integers).
    BytesRole,
    MembersRole, ///< value indices of a group (QVector<int>)
    PathRole,    ///< op_name prefix of a breakdown group (QString)
    MarkedRole,  ///< the row is a use or position of the selected value, or in the picked group
};

} // namespace bufferscope
