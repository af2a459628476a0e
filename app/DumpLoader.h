#pragma once

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
};

/// Runs parse + analyses off the GUI thread as a cancellable, generation-tagged job: a newer
/// load cancels the older one, and results of stale jobs are dropped, never delivered.
class DumpLoader : public QObject
{
    Q_OBJECT
public:
    explicit DumpLoader(QObject *parent = nullptr);
    ~DumpLoader() override;

    /// Starts loading `path` (a file, or ":/…" for an embedded resource).
    void load(const QString &path);
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
