#pragma once

#include "model/Dump.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QMenu;
class QTableView;

namespace bufferscope {

class InstructionListModel;
class Workspace;
class MemoryTimeline;

/// The program order as a table: one row per step with its instruction and the live bytes, the
/// current step selected, and the selected value's uses and positions marked and tinted in their
/// rows ("Only the selected value's steps" hides the rest). A click on a row selects the value
/// its instruction defines — a chooser when it defines several (a tuple) — and the step;
/// the keyboard only moves the step.
class InstructionsView : public QWidget
{
    Q_OBJECT
public:
    InstructionsView(InstructionListModel *model, Workspace *workspace, QWidget *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump, std::shared_ptr<const MemoryTimeline> timeline);
    QTableView *table() const { return m_table; }
    QCheckBox *onlyMarkedBox() const { return m_onlyMarked; }
    InstructionListModel *model() const { return m_model; }
    /// What a click on `row` does: selects the value defined there, or opens the chooser.
    void activateRow(int row, const QPoint &globalPos);
    /// The chooser of the last click on a tuple instruction's row, while it is open.
    QMenu *chooser() const { return m_chooser; }

private:
    void showStep(qint64 step);

    InstructionListModel *m_model;
    Workspace *m_workspace;
    QCheckBox *m_onlyMarked;
    QTableView *m_table;
    QPointer<QMenu> m_chooser;
    std::shared_ptr<const Dump> m_dump;
};

} // namespace bufferscope
