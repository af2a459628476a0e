#pragma once

#include "analysis/DumpDiff.h"
#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace bufferscope {

class JobRunner;
class ValueChangeModel;

/// Two dumps compared (before → after): both live-bytes curves over the program order with the
/// difference shaded, the totals and peaks, and tables of the deltas by op_name and source and
/// of the values added, removed and changed. `bufferscope diff` prints the same.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    /// `jobs` frees the dumps and the comparison off the GUI thread when the window closes.
    explicit CompareView(JobRunner *jobs, QWidget *parent = nullptr, Qt::WindowFlags flags = {});
    ~CompareView() override;

    /// Shows the comparison of `before` with `after`, computed elsewhere (the workspace's job).
    void setDumps(std::shared_ptr<const Dump> before, std::shared_ptr<const MemoryTimeline> tb,
                  QString beforeName, std::shared_ptr<const Dump> after,
                  std::shared_ptr<const MemoryTimeline> ta, QString afterName,
                  std::shared_ptr<const DumpDiff> diff);
    const DumpDiff &diff() const { return *m_diff; }
    QCustomPlot *plot() const { return m_plot; }
    QString summaryText() const;
    QTableWidget *opNameTable() const { return m_byOpName; }
    QTableView *valuesTable() const { return m_values; }

Q_SIGNALS:
    /// A row of the Values tab was clicked: the value's index in the before dump (-1 when only
    /// the after dump has it) and its name.
    void valuePicked(int before, const QString &name);

private:
    void fillPlot();
    void fillTables();

    JobRunner *m_jobs;

    std::shared_ptr<const Dump> m_before, m_after;
    std::shared_ptr<const MemoryTimeline> m_beforeTimeline, m_afterTimeline;
    QString m_beforeName, m_afterName;
    std::shared_ptr<const DumpDiff> m_diff;
    QLabel *m_summary;
    QCustomPlot *m_plot;
    QTabWidget *m_tabs;
    QTableWidget *m_byOpName;
    QTableWidget *m_bySource;
    QTableView *m_values;
    ValueChangeModel *m_valueChanges;
};

} // namespace bufferscope
