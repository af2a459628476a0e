#pragma once

#include "analysis/RuntimeMemory.h"
#include "drawing/ChartExport.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTreeWidget;

namespace bufferscope {

/// Tools ▸ Runtime Memory: what the allocators of a profiler capture really did (analysis/
/// RuntimeMemory, the same figures as `bufferscope memory`): an allocator's bytes in use
/// (heap + stack) over the capture's time with its peak marked, and what was live at the peak.
/// It draws only: the capture is read on the workspace's job runner (RuntimeFlow).
class RuntimeMemoryView : public QWidget
{
    Q_OBJECT
public:
    explicit RuntimeMemoryView(QWidget *parent = nullptr);

    /// "Reading CAPTURE…" until setMemory, or why there is nothing to show.
    void setReading(const QString &capture);
    void setMemory(const QString &capture, std::shared_ptr<const RuntimeMemory> memory);
    void setError(const QString &capture, const QString &error);

    QComboBox *allocators() const { return m_allocator; }
    QTreeWidget *liveAtPeak() const { return m_table; }
    QTreeWidget *peakParts() const { return m_parts; } ///< the peak's parts beside the plans
    QCustomPlot *plot() const { return m_plot; }
    QString summaryText() const;
    QString capture() const { return m_capture; }
    /// PNG, SVG or PDF of the chart, or CSV of its curve, by `path`'s extension.
    bool exportChart(const QString &path, const ExportOptions &options, QString *error = nullptr);
    /// The shown allocator's curve: time (ps) and bytes in use after each event.
    std::string curveCsv() const;

Q_SIGNALS:
    /// A row of the allocations live at the peak was clicked: the capture's member of the
    /// module that made them, and its plan's allocation of their size (-1: none known).
    void allocationActivated(const QString &member, qint64 allocation);

private:
    void showAllocator(int index);
    const RuntimeAllocator *shown() const;

    QLabel *m_summary;
    QComboBox *m_allocator;
    QCustomPlot *m_plot;
    QTreeWidget *m_parts;
    QTreeWidget *m_table;
    QString m_capture;
    std::shared_ptr<const RuntimeMemory> m_memory;
};

} // namespace bufferscope
