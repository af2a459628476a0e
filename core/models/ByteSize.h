#pragma once

#include <QString>

namespace bufferscope {

/// A byte count typed by a person: "1234", "512MiB", "16 GiB", "1.5G" (binary units: K, M, G, T
/// with or without "iB"/"B"). Returns -1 when it is not a size.
qint64 parseByteSize(const QString &text);

} // namespace bufferscope
