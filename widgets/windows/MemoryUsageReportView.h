#pragma once

#include "model/MemoryUsageReport.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace bufferscope {

/// XLA's memory-usage report opened without its module's dump (docs/FORMAT.md Part B §5): no
/// live ranges, so no time axis. Its allocations as a table (Copy/Save as CSV), their sizes as
/// bars, and the selected allocation's values as an offset map: one bar per offset, from the
/// offset to the offset plus the largest value there. Every size but the total is XLA's
/// rounding, and the view says so.
class MemoryUsageReportView : public QWidget
{
    Q_OBJECT
public:
    MemoryUsageReportView(MemoryUsageReport report, const QString &path, QWidget *parent = nullptr);

    const MemoryUsageReport &report() const { return m_report; }
    QTableWidget *table() const { return m_table; }
    QCustomPlot *sizes() const { return m_sizes; }
    QCustomPlot *offsets() const { return m_offsets; }
    /// Shows allocation `row` of the table (the report's order) in the offset map.
    void showAllocation(int row);
    int shownAllocation() const { return m_shown; }

    /// The offset rows' names on show (for tests): only those that fit without meeting another.
    QStringList namedRows() const;

private:
    void fillTable();
    /// Names the offset rows that fit at the chart's height, largest first; true on a change.
    bool nameRows();
    QString offsetToolTip(const QPointF &pixel) const;
    void fillSizes();

    MemoryUsageReport m_report;
    QLabel *m_summary;
    QTableWidget *m_table;
    QCustomPlot *m_sizes;
    QCustomPlot *m_offsets;
    int m_shown = -1;
    QString m_offsetsTitle;               ///< the offset map's title, whole
    QStringList m_rowNames;               ///< every offset row's name, in row order
    std::vector<std::int64_t> m_rowSizes; ///< and its size
};

} // namespace bufferscope
