#pragma once
// The process's resident memory, for tests that check pages were mapped in or given back.
#include <QByteArray>
#include <QFile>
#include <QList>

#include <cstdint>
#include <unistd.h>

namespace testutil {

/// Resident bytes of this process (/proc/self/statm), 0 where it cannot be read.
inline std::int64_t residentBytes()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toLongLong() * ::sysconf(_SC_PAGESIZE) : 0;
}

} // namespace testutil
