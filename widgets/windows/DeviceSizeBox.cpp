#include "windows/DeviceSizeBox.h"

#include "analysis/DeviceFit.h"
#include "models/ByteSize.h"
#include "models/QtText.h"

#include <QAbstractItemView>
#include <QInputDialog>
#include <QLineEdit>
#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace bufferscope {

namespace {
constexpr int kShortRole = Qt::UserRole + 1;

QString upperFirst(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}
} // namespace

DeviceSizeBox::DeviceSizeBox(None none, QWidget *parent) : QComboBox(parent)
{
    if (none == None::Offered) {
        addItem(tr("none"), qint64(0));
        setItemData(0, tr("none"), kShortRole);
    }
    for (const DeviceFit::DeviceSize &size : DeviceFit::deviceSizes()) {
        const QString bytesText = humanBytesText(size.bytes);
        const QString devices = toQString(size.devices);
        addItem(QStringLiteral("%1 · %2").arg(bytesText, devices), qint64(size.bytes));
        setItemData(count() - 1, bytesText, kShortRole);
        // The limit, its devices, and how the runtime comes to it.
        setItemData(count() - 1,
                    tr("A limit of %1: %2.\n%3.")
                        .arg(bytesText, devices, upperFirst(toQString(size.runtime))),
                    Qt::ToolTipRole);
    }
    addItem(tr("Custom…"), qint64(-1));
    setItemData(count() - 1, tr("Custom…"), kShortRole);
    // The list as wide as its longest entry; the box as wide as its longest size.
    view()->setMinimumWidth(view()->sizeHintForColumn(0) + 24);
    connect(this, &QComboBox::activated, this, [this](int index) {
        qint64 chosenBytes = itemData(index).toLongLong();
        if (chosenBytes < 0) {
            bool ok = false;
            const qint64 was = bytes();
            const QString text = QInputDialog::getText(
                this, tr("Limit"),
                tr("The limit: what the runtime may use, such as a log's Limit: line\n"
                   "(e.g. 16GiB, 72 GiB, 61440MiB or a byte count):"),
                QLineEdit::Normal, was > 0 ? humanBytesText(was) : QString(), &ok);
            chosenBytes = ok ? parseByteSize(text) : -1;
            if (chosenBytes <= 0) {
                setBytes(was); // back to what was shown
                return;
            }
            setBytes(chosenBytes);
        }
        Q_EMIT chosen(chosenBytes);
    });
    connect(this, &QComboBox::currentIndexChanged, this,
            [this](int index) { setToolTip(index >= 0 ? itemText(index) : QString()); });
}

qint64 DeviceSizeBox::bytes() const
{
    const qint64 b = currentData().toLongLong();
    return b < 0 ? 0 : b;
}

void DeviceSizeBox::setBytes(qint64 bytes, const QString &toolTip)
{
    const QSignalBlocker blocker(this);
    int index = findData(std::max<qint64>(0, bytes));
    if (index < 0 && bytes <= 0)
        index = 0;
    if (index < 0) {
        // A custom size gets its own entry, in order of size, before "Custom…".
        index = customIndex();
        for (int i = 0; i < customIndex(); ++i) {
            if (itemData(i).toLongLong() > bytes) {
                index = i;
                break;
            }
        }
        const QString text = humanBytesText(bytes);
        insertItem(index, text, bytes);
        setItemData(index, text, kShortRole);
        if (!toolTip.isEmpty())
            setItemData(index, toolTip, Qt::ToolTipRole);
    }
    setCurrentIndex(index);
    setToolTip(itemText(index));
    updateGeometry();
}

QString DeviceSizeBox::shortText(int index) const
{
    return itemData(index, kShortRole).toString();
}

QSize DeviceSizeBox::sizeHint() const
{
    // As wide as the widest short text, plus the frame and arrow QComboBox adds.
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    int widest = 0;
    for (int i = 0; i < count(); ++i)
        widest = std::max(widest, fontMetrics().horizontalAdvance(shortText(i)));
    const QSize text(widest, fontMetrics().height());
    return style()
        ->sizeFromContents(QStyle::CT_ComboBox, &opt, text, this)
        .expandedTo(QSize(60, 0));
}

QSize DeviceSizeBox::minimumSizeHint() const
{
    return sizeHint();
}

void DeviceSizeBox::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    opt.currentText = shortText(currentIndex());
    painter.drawComplexControl(QStyle::CC_ComboBox, opt);
    painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

} // namespace bufferscope
