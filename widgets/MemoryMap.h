#pragma once

#include "BoxChartView.h"

#include <vector>

class QComboBox;
class QLabel;

namespace bufferscope {

/// Offsets over time: x = step, y = byte offset, each value a box [start, end + 1) x
/// [offset, offset + size). One allocation at a time, or all stacked in labelled bands.
/// Regions reused by several values over time show as boxes side by side at the same offsets.
class MemoryMap : public BoxChartView
{
    Q_OBJECT
public:
    static constexpr int kAllAllocations = -1;

    explicit MemoryMap(Selection *selection, QWidget *parent = nullptr);

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

private:
    void buildBoxes();
    void updateBandLabels();
    /// Band of allocation a in stacked mode: [base, base + height) on the value axis.
    struct Band
    {
        double base = 0;
        double height = 0;
    };

    QComboBox *m_allocationBox;
    QLabel *m_info;
    BoxPlottable *m_bands;
    int m_allocation = kAllAllocations;
    std::vector<Band> m_bandOf; ///< per allocation, in stacked mode
};

} // namespace bufferscope
