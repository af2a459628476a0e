#pragma once

#include "analysis/MemoryTimeline.h"
#include "analysis/ValueFlow.h"
#include "model/Dump.h"

#include <QAbstractTableModel>

#include <memory>

namespace bufferscope {

/// The program order: one row per step 0..max with the instruction and the live bytes there,
/// and the selected value's uses (▼ operand N) and positions (○ {index}) in their rows — all
/// rows, or only those.
class InstructionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        StepColumn,
        MarksColumn,
        InstructionColumn,
        LiveColumn,
        LogicalColumn,
        ColumnCount
    };

    explicit InstructionListModel(QObject *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump, std::shared_ptr<const MemoryTimeline> timeline);
    /// Which memory space's bytes the live columns show.
    void setMemorySpace(int memorySpace);
    /// The selected value's uses and positions to mark (null: none).
    void setMarks(std::shared_ptr<const ValueFlow> flow);
    /// Only the marked steps as rows (a reset), or every step.
    void setOnlyMarked(bool only);
    bool onlyMarked() const { return m_onlyMarked; }
    qint64 stepOfRow(int row) const;
    /// The row showing `step`; -1 when it is not shown.
    int rowOfStep(qint64 step) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const MemoryTimeline> m_timeline;
    const SpaceTimeline *m_space = nullptr;
    std::shared_ptr<const ValueFlow> m_flow;
    std::vector<qint64> m_markedSteps;
    bool m_onlyMarked = false;

    QString marksText(qint64 step) const;
};

} // namespace bufferscope
