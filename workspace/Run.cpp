#include "Run.h"

#include "models/QtText.h"

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

QString Run::largest() const
{
    QString best;
    for (auto it = figures.cbegin(); it != figures.cend(); ++it) {
        if (it.value().status != ModuleFigures::Status::Read || !modules.find(it.key()))
            continue;
        if (best.isEmpty() ||
            ModuleFigures::ranksAbove(it.value(), it.key(), figures.value(best), best))
            best = it.key();
    }
    return best;
}

ModuleRef Run::refOf(const QString &address) const
{
    if (const ModuleRef *listed = modules.find(address))
        return *listed;
    return Catalog::refOf(pathBytes(address));
}

std::vector<ModuleRef> Run::refsOf(const QStringList &addresses) const
{
    std::vector<ModuleRef> out;
    out.reserve(static_cast<std::size_t>(addresses.size()));
    for (const QString &a : addresses)
        out.push_back(refOf(a));
    return out;
}

} // namespace bufferscope
