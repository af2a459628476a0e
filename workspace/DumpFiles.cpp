#include "DumpFiles.h"

#include "models/QtText.h"

namespace bufferscope {

namespace {

std::vector<std::string> stdPaths(const QStringList &paths)
{
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(paths.size()));
    for (const QString &p : paths)
        out.push_back(pathBytes(p));
    return out;
}

} // namespace

void DumpFiles::append(const ModuleRef &ref)
{
    files << pathFromBytes(ref.path);
    QStringList listed;
    if (ref.listed()) {
        if (ref.format == ModuleFormat::CaptureMember || ref.format == ModuleFormat::Capture)
            listed << files.back();
        else
            for (const std::string &f : ref.files)
                listed << pathFromBytes(f);
    }
    members << listed;
    bytes << (ref.listed() ? qint64{ref.bytes} : qint64{-1});
    m_at.insert(files.back(), refs.size());
    refs.push_back(ref);
}

const ModuleRef *DumpFiles::find(const QString &file) const
{
    const auto it = m_at.constFind(file);
    return it == m_at.constEnd() ? nullptr : &refs[*it];
}

DumpFiles DumpFiles::of(const Catalog &catalog)
{
    DumpFiles out;
    for (const ModuleRef &ref : catalog.modules)
        out.append(ref);
    for (const CatalogProblem &p : catalog.problems)
        out.problems << OpenProblem{pathFromBytes(p.path), QString::fromStdString(p.message)};
    return out;
}

DumpFiles DumpFiles::collect(const QStringList &paths)
{
    return of(Catalog::of(stdPaths(paths), Catalog::Split::ModulesOnly));
}

bool DumpFiles::isRun(const QString &path)
{
    return Catalog::isRun(pathBytes(path));
}

DumpFiles DumpFiles::ofFile(const QString &path)
{
    DumpFiles one;
    ModuleRef ref = Catalog::refOf(pathBytes(path));
    ref.bytes = -1;
    one.append(ref);
    return one;
}

std::vector<ModuleRef> DumpFiles::refsOf(const QStringList &files)
{
    std::vector<ModuleRef> out;
    out.reserve(static_cast<std::size_t>(files.size()));
    for (const QString &f : files)
        out.push_back(Catalog::refOf(pathBytes(f)));
    return out;
}

} // namespace bufferscope
