#pragma once

#include "DumpFiles.h"
#include "LoadedDump.h"
#include "analysis/DeviceFit.h"
#include "analysis/RunSummary.h"

#include <QHash>
#include <QStringList>

namespace bufferscope {

/// The run the window has open, the one owner every window that reads a run asks: the Modules
/// dock lists its modules, Run Summary reads them, Device Fit measures them, and Compare With
/// Another Run compares them with the other run. Set when what was opened is listed
/// (OpenFlow::openListed), which starts reading every module's figures; a module opened from
/// it keeps it.
struct Run
{
    Run() = default;
    Run(QStringList openedRoots, DumpFiles listed)
        : roots(std::move(openedRoots)), modules(std::move(listed))
    {}

    /// The folders and captures opened, as given (Opened::runs); empty for files given by name.
    QStringList roots;
    /// One entry per module, as the catalog found them.
    DumpFiles modules;
    /// Each module's figures (file → ModuleFigures), as the run's scan read them or, for the
    /// module loaded beside the scan, as its load found them. The Modules dock ranks and shows
    /// these; a module not read yet has none.
    QHash<QString, ModuleFigures> figures;
    /// Each module's facts for the run's views (RunFacts: signature, collectives, categories,
    /// fingerprint), from the same read of the scan: Run Summary is made from these, and reads
    /// only the modules the scan did not (the one loaded beside it).
    QHash<QString, RunSummary::Module> facts;
    /// And what Device Fit weighs of each (its figures and its live-bytes curve), from that
    /// same read: Device Fit reads only the modules the scan did not.
    QHash<QString, DeviceFit::Module> fits;

    bool isEmpty() const { return modules.files.isEmpty(); }
    /// The module the device holds most for, by the one ranking (ModuleFigures::ranksAbove),
    /// among its modules read; empty when none is. What a folder opens on: the module that
    /// runs out of memory first.
    QString largest() const;
    /// The module at `address` as the run's catalog listed it (a capture's member by its
    /// capture and name, never split again from the address); an address the run does not
    /// hold as the catalog reads it (Catalog::refOf).
    ModuleRef refOf(const QString &address) const;
    std::vector<ModuleRef> refsOf(const QStringList &addresses) const;
    /// How a window names it: its folder or capture; "N folders and captures"; else the folder
    /// of its first module.
    QString label() const;
};

} // namespace bufferscope
