#pragma once

#include <QComboBox>

namespace bufferscope {

/// A device's memory, chosen from the one list of known devices (DeviceFit::deviceSizes): each
/// size with the devices that have it in the list ("24.00GiB · A10, L4, RTX 4090"), a custom
/// size, and "none" where there may be no limit. Closed, it shows the size alone, so a narrow
/// box is never cut mid-name; the devices are in its list and its tooltip. The Budget box of
/// Memory Usage and the limit of Device Fit are both one of these.
class DeviceSizeBox : public QComboBox
{
    Q_OBJECT
public:
    enum class None
    {
        Offered,
        NotOffered
    };
    explicit DeviceSizeBox(None none, QWidget *parent = nullptr);

    /// The size shown (bytes; 0: none).
    qint64 bytes() const;
    /// Shows `bytes`: its entry, or a custom entry made for it (with `toolTip`, e.g. where the
    /// size came from). No signal.
    void setBytes(qint64 bytes, const QString &toolTip = {});
    /// "24.00GiB", "none": what the closed box shows for an entry.
    QString shortText(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// The user chose a size (a preset, or one typed in after "Custom…"); 0 for none.
    void chosen(qint64 bytes);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int customIndex() const { return count() - 1; }
};

} // namespace bufferscope
