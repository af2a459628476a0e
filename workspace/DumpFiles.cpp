#include "DumpFiles.h"

namespace bufferscope {

namespace {

std::vector<std::string> stdPaths(const QStringList &paths)
{
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(paths.size()));
    for (const QString &p : paths)
        out.push_back(p.toStdString());
    return out;
}

} // namespace

void DumpFiles::append(const ModuleRef &ref)
{
    files << QString::fromStdString(ref.path);
    QStringList listed;
    if (ref.listed()) {
        if (ref.format == ModuleFormat::CaptureMember || ref.format == ModuleFormat::Capture)
            listed << files.back();
        else
            for (const std::string &f : ref.files)
                listed << QString::fromStdString(f);
    }
    members << listed;
    bytes << (ref.listed() ? qint64{ref.bytes} : qint64{-1});
    refs.push_back(ref);
}

DumpFiles DumpFiles::of(const Catalog &catalog)
{
    DumpFiles out;
    for (const ModuleRef &ref : catalog.modules)
        out.append(ref);
    for (const CatalogProblem &p : catalog.problems)
        out.problems << OpenProblem{QString::fromStdString(p.path),
                                    QString::fromStdString(p.message)};
    return out;
}

DumpFiles DumpFiles::collect(const QStringList &paths)
{
    return of(Catalog::of(stdPaths(paths), Catalog::Split::ModulesOnly));
}

bool DumpFiles::isRun(const QString &path)
{
    return Catalog::isRun(path.toStdString());
}

DumpFiles DumpFiles::ofFile(const QString &path)
{
    DumpFiles one;
    ModuleRef ref = Catalog::refOf(path.toStdString());
    ref.bytes = -1;
    one.append(ref);
    return one;
}

std::vector<ModuleRef> DumpFiles::refsOf(const QStringList &files)
{
    std::vector<ModuleRef> out;
    out.reserve(static_cast<std::size_t>(files.size()));
    for (const QString &f : files)
        out.push_back(Catalog::refOf(f.toStdString()));
    return out;
}

} // namespace bufferscope
