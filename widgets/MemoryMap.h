#pragma once

#include "BoxChartView.h"

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace bufferscope {

class BoxSet;
struct Dump;

/// Offsets over time: x = step, y = byte offset, each value a box [start, end + 1) x
/// [offset, offset + size). One allocation at a time, or all stacked in labelled bands.
/// Regions reused by several values over time show as boxes side by side at the same offsets.
class MemoryMap : public BoxChartView
{
    Q_OBJECT
public:
    static constexpr int kAllAllocations = -1;

    /// Band of allocation a in stacked mode: [base, base + height) on the value axis.
    struct Band
    {
        double base = 0;
        double height = 0;
    };
    /// The boxes of one allocation (or all stacked): built on any thread (the loader builds the
    /// stacked map while the GUI runs), adopted by the view that shows that dump and allocation.
    struct Layout
    {
        std::weak_ptr<const Dump> dump;
        int allocation = kAllAllocations;
        std::vector<Band> bandOf; ///< per allocation, in stacked mode
        std::shared_ptr<const BoxSet> bands;
        std::shared_ptr<const BoxSet> boxes;
        std::size_t drawn = 0;
        std::size_t undrawn = 0;           ///< values without a live range
        std::size_t hiddenAllocations = 0; ///< stacked: allocations with no live value
    };
    static std::shared_ptr<const Layout> layOut(const std::shared_ptr<const Dump> &dump,
                                                int allocation);

    explicit MemoryMap(Selection *selection, QWidget *parent = nullptr);

    /// A layout built in advance: used instead of building one when its dump and allocation
    /// are shown.
    void setPrepared(std::shared_ptr<const Layout> layout) { m_prepared = std::move(layout); }

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
    /// The stacked map's band labels for the current range and height; true when they changed.
    bool updateBandLabels();

    QComboBox *m_allocationBox;
    QLabel *m_info;
    BoxPlottable *m_bands;
    int m_allocation = kAllAllocations;
    std::shared_ptr<const Layout> m_layout;
    std::shared_ptr<const Layout> m_prepared;
};

} // namespace bufferscope
