#pragma once

#include "DumpFiles.h"

#include <QStringList>

namespace bufferscope {

/// The run the window has open, the one owner every window that reads a run asks: the Modules
/// dock lists its modules, Run Summary reads them, Device Fit measures them, and Compare With
/// Another Run compares them with the other run. Set when what was opened is listed
/// (OpenFlow::openListed); a module opened from it keeps it.
struct Run
{
    /// The folders and captures opened, as given (Opened::runs); empty for files given by name.
    QStringList roots;
    /// One entry per module, as the catalog found them.
    DumpFiles modules;

    bool isEmpty() const { return modules.files.isEmpty(); }
    /// How a window names it: its folder or capture; "N folders and captures"; else the folder
    /// of its first module.
    QString label() const;
};

} // namespace bufferscope
