#pragma once

#include "JobRunner.h"

#include <QMetaObject>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace bufferscope {

/// One kind of data derived from the dump on screen, asked for by key (a Gantt order, an
/// allocation, a step in a memory space), as the workspace serves it to the views: the last one
/// built is kept (a million-value Gantt order is some 50 MB: older ones are not); a small
/// dump's is built at once on the calling thread; a big dump's on a job of its own lane, the
/// caller getting null meanwhile and `ready` on the GUI thread once it is kept, when it asks
/// again. The Gantt rows, the memory-map layout and the breakdown at a step are three of these.
template <class Key, class T> class Derived
{
public:
    enum class Jobs
    {
        Latest,    ///< asked for another key while a job runs: that job is replaced
        OneAtATime ///< a running job finishes; callers ask again on `ready` for their newest
    };
    using Build = std::function<std::shared_ptr<const T>(const JobControl *control)>;

    Derived(JobRunner *jobs, JobRunner::Lane lane, Jobs policy, QObject *owner,
            std::function<void()> ready)
        : m_jobs(jobs), m_lane(lane), m_policy(policy), m_owner(owner), m_ready(std::move(ready))
    {}

    /// What is kept for `key`; else built now (`now`), or on a job (null until `ready`).
    std::shared_ptr<const T> get(const Key &key, bool now, const Build &build)
    {
        if (m_kept && m_key == key)
            return m_kept;
        if (now) {
            // Callers waiting for a job this one supersedes ask again after this caller has
            // its answer.
            const bool superseded = m_jobs->isBusy(m_lane);
            m_jobs->cancel(m_lane);
            keep(key, build(nullptr));
            if (superseded)
                QMetaObject::invokeMethod(m_owner, m_ready, Qt::QueuedConnection);
            return m_kept;
        }
        const bool busy = m_jobs->isBusy(m_lane);
        if (busy && (m_policy == Jobs::OneAtATime || m_pending == key))
            return nullptr;
        m_pending = key;
        m_jobs->run(
            m_lane, m_owner, [build](const JobControl &control) { return build(&control); },
            [this, key](std::shared_ptr<const T> built) {
                keep(key, std::move(built));
                m_ready();
            });
        return nullptr;
    }

    /// Keeps `value`, built elsewhere (the load job builds the rows and layout asked for last).
    void keep(const Key &key, std::shared_ptr<const T> value)
    {
        m_key = key;
        m_kept = std::move(value);
    }
    /// Cancels the running job and hands over what was kept (for the caller to release off the
    /// GUI thread): another dump, or what it was derived with changed.
    std::shared_ptr<const T> drop()
    {
        m_jobs->cancel(m_lane);
        m_key.reset();
        return std::exchange(m_kept, nullptr);
    }
    bool isBuilding() const { return m_jobs->isBusy(m_lane); }

private:
    JobRunner *m_jobs;
    JobRunner::Lane m_lane;
    Jobs m_policy;
    QObject *m_owner;
    std::function<void()> m_ready;
    std::optional<Key> m_key; ///< what m_kept was built for
    std::shared_ptr<const T> m_kept;
    std::optional<Key> m_pending; ///< what the running job builds
};

} // namespace bufferscope
