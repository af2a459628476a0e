#pragma once

#include <QString>

namespace bufferscope {

/// Where file dialogs start, one rule for all of them: open dialogs (dumps, folders, logs, a
/// dump to compare with) in the folder last opened from, else `fallback` (the shown dump's
/// folder), else home; save dialogs (exports, CSV, pictures) in the folder last saved to, else
/// Documents, never the dump's folder (often read-only, and a dump folder is no place for
/// reports). Remembered across runs (QSettings).
namespace DialogFolders {

QString openFolder(const QString &fallback = {});
/// Remembers the folder of `path` (a file, or a folder itself) as the last opened from.
void rememberOpened(const QString &path);
QString saveFolder();
/// `fileName` in saveFolder().
QString savePath(const QString &fileName);
/// Remembers the folder `path` was saved in.
void rememberSaved(const QString &path);

} // namespace DialogFolders

} // namespace bufferscope
