#pragma once

#include "open/ModuleRef.h"
#include "report/OomReport.h"

#include <QStringList>

#include <atomic>
#include <vector>

namespace bufferscope {

/// The out-of-memory messages in `text` (a log, pasted or dropped text), not yet weighed
/// against any module; `name` is the log's path or "(pasted)". No message: messages is empty.
OomFindings oomFindingsOf(const QString &name, const std::string &text);

/// Weighs the modules `refs` (as the catalog listed them, DumpFiles' order) for every message
/// of `findings.log`: a module is loaded only when a message may be about it (its name is the
/// message's executable_name, or the message names none) and once. Fills findings.messages,
/// withDumps and dumpsGiven; `errors` gets "FILE:LINE: message" for modules that do not load.
/// Returns false when cancelled. For `bufferscope oom` and the window's out-of-memory view.
bool weighModules(OomFindings &findings, const std::vector<ModuleRef> &refs, QStringList &errors,
                  const std::atomic<bool> *cancel = nullptr, int threads = 0);

} // namespace bufferscope
