#include "QtText.h"

#include "model/Dump.h"

#include <QLocale>

namespace bufferscope {

QString humanBytesText(qint64 bytes)
{
    return toQString(humanBytes(bytes));
}

QString exactBytesText(qint64 bytes)
{
    QLocale locale(QLocale::English);
    return locale.toString(bytes) + QStringLiteral(" bytes");
}

QString signedBytesText(qint64 delta)
{
    const QString magnitude = humanBytesText(delta < 0 ? -delta : delta);
    return delta > 0   ? QStringLiteral("+") + magnitude
           : delta < 0 ? QStringLiteral("−") + magnitude
                       : QStringLiteral("±0B");
}

} // namespace bufferscope
