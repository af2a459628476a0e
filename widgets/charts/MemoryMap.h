#pragma once

#include "charts/BoxChartView.h"
#include "layout/MemoryMapLayout.h"

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace bufferscope {

class ElidedLabel;

/// Offsets over time: x = step, y = byte offset, each value a box [start, end + 1) x
/// [offset, offset + size). One allocation at a time, or all stacked in labelled bands.
/// Regions reused by several values over time show as boxes side by side at the same offsets.
/// The boxes come from the workspace (MemoryMapLayout); the map only draws them.
class MemoryMap : public BoxChartView
{
    Q_OBJECT
public:
    static constexpr int kAllAllocations = MemoryMapLayout::kAllAllocations;
    using Band = MemoryMapLayout::Band;

    explicit MemoryMap(Workspace *workspace, QWidget *parent = nullptr);

    QString viewName() const override { return QStringLiteral("memory-map"); }
    QString title() const override;
    void resetZoom() override;

    /// Shows one allocation (dense index) or kAllAllocations (stacked bands).
    void setAllocation(int allocation);
    int allocation() const { return m_allocation; }

protected:
    void rebuild() override;
    void showValue(int value) override;
    void revealValue(int value) override;
    void applyPalette() override;
    /// The stacked map's band labels for the current range and height; true when they changed.
    bool updateLabels() override;
    CsvWork csvWork() const override;

private:
    /// Shows the workspace's layout of the current allocation, or keeps the old one while it
    /// builds.
    void takeLayout(bool rebuilding = false);

    QComboBox *m_allocationBox;
    ElidedLabel *m_info; ///< what is drawn; too long, cut in its middle, never mid-word
    BoxPlottable *m_bands;
    int m_allocation = kAllAllocations;
    std::shared_ptr<const MemoryMapLayout> m_layout;
};

} // namespace bufferscope
