#pragma once

#include "analysis/RunDiff.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace bufferscope {

/// Two runs compared function by function (File ▸ Compare With Another Run, analysis/RunDiff):
/// the functions that appeared and vanished, those compiled another number of times, and every
/// compile whose held bytes or live peak changed, with the module diff's main cause. The same
/// figures as `bufferscope diff RUN_A RUN_B`. Double-click a changed compile to compare its two
/// modules.
class RunDiffView : public QWidget
{
    Q_OBJECT
public:
    explicit RunDiffView(QWidget *parent = nullptr);

    void setReading(const QString &what);
    void setDiff(const RunDiff &diff, const QString &before, const QString &after);
    QTreeWidget *table() const { return m_table; }
    QString summaryText() const;

Q_SIGNALS:
    /// A changed compile: its module in each run (files).
    void compareModules(const QString &before, const QString &after);

private:
    QLabel *m_summary;
    QTreeWidget *m_table;
};

} // namespace bufferscope
