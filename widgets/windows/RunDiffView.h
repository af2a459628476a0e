#pragma once

#include "analysis/RunDiff.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace bufferscope {

/// Two runs compared function by function (File ▸ Compare With Another Run, analysis/RunDiff):
/// every compile that changed, is new or is gone, the largest change of what is held first,
/// each with what changed between its two compiles (the signature's difference, or the same
/// inputs and another program) and the whole sentence of why (the module diff's headline). The
/// same figures as `bufferscope diff RUN_A RUN_B`. Double-click a changed compile to compare its
/// two modules, a new or gone one to open it; Close or Esc closes the window.
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
    /// A new or gone compile: its one module.
    void openModule(const QString &file);

private:
    QLabel *m_summary;
    QTreeWidget *m_table;
};

} // namespace bufferscope
