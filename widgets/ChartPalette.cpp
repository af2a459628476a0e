#include "ChartPalette.h"

namespace bufferscope::ChartPalette {

QColor kindColor(AllocationKind kind)
{
    switch (kind) {
    case AllocationKind::Parameter:
        return QColor(0x00, 0x72, 0xb2); // blue
    case AllocationKind::Output:
        return QColor(0x00, 0x9e, 0x73); // bluish green
    case AllocationKind::Constant:
        return QColor(0xcc, 0x79, 0xa7); // reddish purple
    case AllocationKind::ThreadLocal:
        return QColor(0xe6, 0x9f, 0x00); // orange
    case AllocationKind::Temp:
        break;
    }
    return QColor(0x56, 0xb4, 0xe9); // sky blue: temps are the bulk, so the calmest colour
}

QColor kindFill(AllocationKind kind)
{
    QColor c = kindColor(kind);
    c.setAlpha(60);
    return c;
}

QColor highlight()
{
    return QColor(0xd5, 0x5e, 0x00); // vermillion
}

QColor producer()
{
    return QColor(0xf0, 0xe4, 0x42); // yellow
}

QColor consumer()
{
    return QColor(0x88, 0x22, 0x55); // wine
}

QColor hover()
{
    return QColor(0x20, 0x20, 0x20);
}

QColor liveBytes()
{
    return QColor(0x00, 0x72, 0xb2);
}

QColor logicalBytes()
{
    return QColor(0x00, 0x9e, 0x73);
}

QColor peakMarker()
{
    return QColor(0xd5, 0x5e, 0x00);
}

QColor printedPeakMarker()
{
    return QColor(0xcc, 0x79, 0xa7);
}

QColor grew()
{
    return QColor(0xd5, 0x5e, 0x00); // vermillion: more memory
}

QColor shrank()
{
    return QColor(0x00, 0x9e, 0x73); // bluish green: less
}

QColor foreground(const QPalette &palette)
{
    return palette.color(QPalette::WindowText);
}

QColor background(const QPalette &palette)
{
    return palette.color(QPalette::Base);
}

QColor grid(const QPalette &palette)
{
    QColor c = palette.color(QPalette::WindowText);
    c.setAlpha(40);
    return c;
}

QColor currentStep(const QPalette &palette)
{
    QColor c = palette.color(QPalette::WindowText);
    c.setAlpha(200);
    return c;
}

QColor alert(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xb0, 0x00, 0x20);
}

} // namespace bufferscope::ChartPalette
