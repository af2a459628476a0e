#pragma once

#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"

#include <QAbstractTableModel>

#include <memory>

namespace bufferscope {

/// The program order: one row per step 0..max with the instruction and the live bytes there.
class InstructionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        StepColumn,
        InstructionColumn,
        LiveColumn,
        LogicalColumn,
        ColumnCount
    };

    explicit InstructionListModel(QObject *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump, std::shared_ptr<const MemoryTimeline> timeline);
    /// Which memory space's bytes the live columns show.
    void setMemorySpace(int memorySpace);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const MemoryTimeline> m_timeline;
    const SpaceTimeline *m_space = nullptr;
};

} // namespace bufferscope
