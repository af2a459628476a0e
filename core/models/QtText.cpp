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

} // namespace bufferscope
