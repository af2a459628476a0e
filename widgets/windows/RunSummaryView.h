#pragma once

#include "analysis/RunSummary.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTreeWidget;

namespace bufferscope {

/// Tools ▸ Run Summary: the open folder as one run (analysis/RunSummary), the same figures as
/// `bufferscope summary`: its functions with their compiles and why each was compiled again, the
/// largest modules and the largest collective buffers. Every table sorts by any column and
/// copies or saves as CSV; double-click a row to open its module.
class RunSummaryView : public QWidget
{
    Q_OBJECT
public:
    explicit RunSummaryView(QWidget *parent = nullptr);

    void setReading(int done, int total);
    void setSummary(const RunSummary &summary, const QString &folder);
    QTreeWidget *functions() const { return m_functions; }
    QTreeWidget *collectives() const { return m_collectives; }
    QTreeWidget *modules() const { return m_modules; }
    QString summaryText() const;

Q_SIGNALS:
    void moduleActivated(const QString &file);

private:
    QLabel *m_summary;
    QTabWidget *m_tabs;
    QTreeWidget *m_functions;
    QTreeWidget *m_collectives;
    QTreeWidget *m_modules;
};

} // namespace bufferscope
