#pragma once

#include "LiveRangeGantt.h"
#include "MemoryMap.h"
#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace bufferscope {

/// A loaded module: the immutable dump and its analyses, shared by every model and view.
struct LoadedDump
{
    std::shared_ptr<const Dump> dump;
    std::shared_ptr<const MemoryTimeline> timeline;
    QString path; ///< what was opened (":/…" for the embedded sample)
    /// What the Gantt and the memory map would otherwise build on the GUI thread, built by the
    /// loader's worker (null when not prepared: the views then build it themselves).
    std::shared_ptr<const LiveRangeGantt::Rows> ganttRows;
    std::shared_ptr<const MemoryMap::Layout> mapLayout;
};

/// Runs parse + analyses off the GUI thread as a cancellable, generation-tagged job: a newer
/// load cancels the older one, and results of stale jobs are dropped, never delivered.
class DumpLoader : public QObject
{
    Q_OBJECT
public:
    explicit DumpLoader(QObject *parent = nullptr);
    ~DumpLoader() override;

    /// Work done on the worker after the analyses, before `finished` (e.g. building the
    /// views' boxes). Must not touch widgets.
    using Prepare = std::function<void(LoadedDump &)>;

    /// Starts loading `path` (a file, or ":/…" for an embedded resource); `prepare` runs on
    /// the worker once the dump is loaded.
    void load(const QString &path, Prepare prepare = {});
    void cancel();
    bool isLoading() const { return m_loading; }

    /// Synchronous load for the command line and tests. On failure returns false and fills error.
    static bool loadNow(const QString &path, LoadedDump &out, QString &error,
                        const std::atomic<bool> *cancel = nullptr,
                        const std::function<void(qint64, qint64)> &progress = {});

Q_SIGNALS:
    void started(const QString &path);
    void progress(qint64 done, qint64 total);
    void finished(const bufferscope::LoadedDump &result);
    void failed(const QString &path, const QString &error);
    void cancelled(const QString &path);

private:
    struct Job;
    std::shared_ptr<Job> m_job;
    quint64 m_generation = 0;
    bool m_loading = false;
};

} // namespace bufferscope

Q_DECLARE_METATYPE(bufferscope::LoadedDump)
