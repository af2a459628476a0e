#include "Run.h"

#include <QDir>
#include <QFileInfo>

namespace bufferscope {

QString Run::label() const
{
    if (roots.size() == 1)
        return QDir::cleanPath(roots.front());
    if (roots.size() > 1)
        return QObject::tr("%n folders and captures", nullptr, static_cast<int>(roots.size()));
    return modules.files.isEmpty() ? QString() : QFileInfo(modules.files.front()).path();
}

} // namespace bufferscope
