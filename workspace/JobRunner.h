#pragma once

#include <QByteArray>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

class QThreadPool;

namespace bufferscope {

/// What a running job sees of its request: whether it was superseded or cancelled (check it
/// every few thousand items and return early), and a way to report progress.
class JobControl
{
public:
    bool cancelled() const { return m_cancel->load(std::memory_order_relaxed); }
    /// The flag itself, for code in core/ that takes a `const std::atomic<bool> *`.
    const std::atomic<bool> *flag() const { return m_cancel.get(); }
    /// Reports progress; throttled (every 50 ms or 0.5 %), delivered on the GUI thread to the
    /// request's progress callback while the request is still the newest of its lane.
    void progress(qint64 done, qint64 total) const;

private:
    friend class JobRunner;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::function<void(qint64, qint64)> m_post;
    /// Hands a part of a streamed result (JobRunner::stream) to the GUI thread, where it runs
    /// under the rules a result is delivered by; callable from any thread.
    std::function<void(std::function<void()>)> m_part;
    struct Throttle
    {
        qint64 lastDone = -1;
        qint64 lastMs = 0;
    };
    std::shared_ptr<Throttle> m_throttle = std::make_shared<Throttle>();
};

/// The one way BufferScope runs work off the GUI thread (load, layouts, filter, breakdown,
/// compare, module scan, chart CSV, release), after KDAB/hotspot's job tracker:
/// - work is requested on a *lane*; the newest request of a lane wins: starting one sets the
///   cancel flag of the one before, whose result is dropped, never delivered;
/// - results are delivered on the GUI thread, to a receiver that must still exist;
/// - lanes of Scope::Dump belong to the dump on screen: once another dump is shown
///   (dumpChanged), their running jobs are cancelled and their results dropped;
/// - worker threads run at a lower priority (markBackgroundThread), so the GUI thread gets the
///   CPU first on a machine with few cores;
/// - nothing here ever waits: a dropped result is freed on a worker too.
class JobRunner : public QObject
{
    Q_OBJECT
public:
    using Lane = int;
    enum class Scope
    {
        Session, ///< results stay valid whatever dump is shown (load, module scan)
        Dump     ///< results are about the dump on screen (layouts, filter, breakdown, compare)
    };

    explicit JobRunner(QObject *parent = nullptr);
    ~JobRunner() override;

    /// A new lane; `name` is for the debug log. A retired lane's number is given again.
    Lane newLane(const char *name, Scope scope);
    /// The lane is no longer asked on (its requester is gone): its running job is cancelled,
    /// whatever it still hands over dropped, and its number kept for the next newLane, so a
    /// lane per request or per window costs nothing once it is done.
    void retireLane(Lane lane);

    /// Runs `work(const JobControl &)` on a worker and hands its result to `deliver` on the
    /// GUI thread, unless a newer request on `lane` came meanwhile, the lane was cancelled, the
    /// dump changed (Scope::Dump) or `receiver` is gone. `progress(done, total)` is called on
    /// the GUI thread for the job's progress reports.
    template <class Work, class Deliver>
    void run(Lane lane, QObject *receiver, Work work, Deliver deliver,
             const std::function<void(qint64, qint64)> &progress = {})
    {
        using Result = std::invoke_result_t<Work &, const JobControl &>;
        start(
            lane, receiver,
            [work = std::move(work),
             deliver = std::move(deliver)](const JobControl &control) mutable {
                auto result = std::make_shared<Result>(work(control));
                return std::function<void()>(
                    [deliver, result]() mutable { deliver(std::move(*result)); });
            },
            progress);
    }

    /// Like run(), for a job whose result comes in parts (a folder's modules as they are read):
    /// `work(control, send)` calls `send(Part)` from the worker or any thread it starts, and
    /// each part reaches `take(Part)` on the GUI thread under the rules a result is delivered
    /// by (the newest request of the lane, not cancelled, the receiver alive, the same dump
    /// for Scope::Dump); `finished()` follows the last part, under the same rules.
    template <class Part, class Work, class Take, class Finished>
    void stream(Lane lane, QObject *receiver, Work work, Take take, Finished finished)
    {
        start(lane, receiver,
              [work = std::move(work), take = std::move(take),
               finished = std::move(finished)](const JobControl &control) mutable {
                  const auto send = [&control, &take](Part part) {
                      control.m_part([take, held = std::make_shared<Part>(std::move(part))] {
                          take(std::move(*held));
                      });
                  };
                  work(control, send);
                  return std::function<void()>(finished);
              },
              {});
    }
    /// Cancels the lane's running job; its result is dropped.
    void cancel(Lane lane);
    /// A job of the lane runs (its result not yet delivered or dropped).
    bool isBusy(Lane lane) const;
    /// Another dump is shown: every Scope::Dump job is cancelled and its result dropped.
    void dumpChanged();
    /// Waits (up to `msecs`) until every job has finished and what it handed over was
    /// delivered or dropped. For tests and headless hosts, instead of sleeping "long enough";
    /// the window never waits. False when jobs still run after `msecs`.
    bool waitForDone(int msecs = 10000);

    /// Drops references to big immutable things (a dump, its timeline, a comparison) on a
    /// worker: if they were the last, the freeing happens there and not on the GUI thread,
    /// where it costs a million-value comparison over 100 ms. Pass the owners by value.
    template <class... Owners> void release(Owners... owners)
    {
        post([held = std::make_shared<std::tuple<Owners...>>(std::move(owners)...)]() mutable {
            held.reset();
        });
    }

Q_SIGNALS:
    /// The lane's job ended (delivered, dropped or cancelled) and no newer one runs.
    void idle(bufferscope::JobRunner::Lane lane);
    /// A job of the lane named `lane` ran out of memory (std::bad_alloc) and delivered nothing.
    void outOfMemory(const QString &lane);

private:
    using Erased = std::function<std::function<void()>(const JobControl &)>;
    struct LaneState
    {
        QByteArray name;
        Scope scope = Scope::Session;
        quint64 generation = 0;
        std::shared_ptr<std::atomic<bool>> cancel; ///< of the running job, null when idle
    };

    void start(Lane lane, QObject *receiver, Erased work,
               const std::function<void(qint64, qint64)> &progress);
    void finish(Lane lane, quint64 generation, quint64 epoch, bool receiverAlive,
                std::function<void()> deliver);
    /// Whether what a job of `lane` (request `generation`, started in `epoch`) hands over now
    /// is still wanted.
    bool wanted(Lane lane, quint64 generation, quint64 epoch, bool receiverAlive) const;
    /// Runs `task` on a worker thread, nothing delivered.
    void post(std::function<void()> task);

    QThreadPool *m_pool;
    std::vector<LaneState> m_lanes;
    std::vector<Lane> m_retired;
    quint64 m_epoch = 0; ///< bumped by dumpChanged
    /// Posted results check this, not `this`: the runner may be gone when they arrive.
    std::shared_ptr<JobRunner *> m_alive;
};

} // namespace bufferscope
