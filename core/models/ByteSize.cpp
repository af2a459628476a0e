#include "ByteSize.h"

#include <cmath>
#include <cstring>

namespace bufferscope {

qint64 parseByteSize(const QString &text)
{
    QString t = text.trimmed();
    static const struct
    {
        const char *suffix;
        double factor;
    } kUnits[] = {{"TiB", 1024.0 * 1024 * 1024 * 1024},
                  {"GiB", 1024.0 * 1024 * 1024},
                  {"MiB", 1024.0 * 1024},
                  {"KiB", 1024.0},
                  {"TB", 1024.0 * 1024 * 1024 * 1024},
                  {"GB", 1024.0 * 1024 * 1024},
                  {"MB", 1024.0 * 1024},
                  {"KB", 1024.0},
                  {"T", 1024.0 * 1024 * 1024 * 1024},
                  {"G", 1024.0 * 1024 * 1024},
                  {"M", 1024.0 * 1024},
                  {"K", 1024.0},
                  {"B", 1.0}};
    double factor = 1.0;
    for (const auto &unit : kUnits) {
        if (t.endsWith(QLatin1String(unit.suffix), Qt::CaseInsensitive)) {
            factor = unit.factor;
            t.chop(static_cast<qsizetype>(std::strlen(unit.suffix)));
            t = t.trimmed();
            break;
        }
    }
    if (factor == 1.0) {
        bool ok = false;
        const qint64 bytes = t.toLongLong(&ok);
        return ok && bytes >= 0 ? bytes : -1;
    }
    bool ok = false;
    const double number = t.toDouble(&ok);
    if (!ok || number < 0 || !std::isfinite(number) || number * factor > 9.2e18)
        return -1;
    return static_cast<qint64>(std::llround(number * factor));
}

} // namespace bufferscope
