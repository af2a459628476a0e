#pragma once

#include "Opened.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QDockWidget;

namespace bufferscope {

class FitFlow;
class LoadStatus;
class WindowServices;
class ModuleBrowser;
class OomFlow;
class Workspace;

/// Opening files: what the user opened is classified on a job (Workspace::open, Opened) and
/// each kind goes its way — a module loads, a folder's modules are listed and read for their
/// figures and the one the device holds most for opens, an out-of-memory log opens its
/// window (the other paths are where its module is looked for), a lone memory-usage report
/// opens its own window.
class OpenFlow : public QObject
{
    Q_OBJECT
public:
    OpenFlow(WindowServices *window, Workspace *workspace, ModuleBrowser *modules,
             QDockWidget *modulesDock, LoadStatus *status, OomFlow *oom, FitFlow *fit);

    /// Files, folders, logs and reports, as dropped or chosen.
    void openPaths(const QStringList &paths);
    /// One path (a module of the Modules dock, a test's file).
    void openPath(const QString &path);
    /// A folder's modules listed: the workspace's run, which shows its module itself
    /// (Workspace::openRun). `roots`: the folders and captures it came from (Opened::runs).
    void openListed(const DumpFiles &found, const QStringList &roots = {});

Q_SIGNALS:
    /// A memory-usage report without its dump was opened in a window of its own.
    void reportOpened(QWidget *view);
    /// A profiler capture was opened (its modules listed): its allocators' events may follow.
    void captureOpened(const QString &capture);

private:
    void openClassified(const Opened &opened);
    void openReport(const Opened::Report &report);
    /// The run is read and none of its modules could be: the status bar says so.
    void sayIfNoneRead();

    WindowServices *m_window;
    Workspace *m_workspace;
    ModuleBrowser *m_modules;
    QDockWidget *m_modulesDock;
    LoadStatus *m_status;
    OomFlow *m_oom;
    FitFlow *m_fit;
};

} // namespace bufferscope
