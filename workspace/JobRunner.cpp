#include "JobRunner.h"

#include "util/BackgroundThread.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QThreadPool>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <new>

namespace bufferscope {

namespace {
/// Workers enough that a long job (a load, a module scan) never makes a short one (a filter, a
/// breakdown) wait for a thread; the CPU is shared by priority, not by queueing.
constexpr int kMinWorkers = 4;

qint64 nowMs()
{
    static const QElapsedTimer clock = [] {
        QElapsedTimer c;
        c.start();
        return c;
    }();
    return clock.elapsed();
}
} // namespace

void JobControl::progress(qint64 done, qint64 total) const
{
    if (!m_post)
        return;
    const qint64 now = nowMs();
    Throttle &t = *m_throttle;
    if (done != total && now - t.lastMs < 50 && (done - t.lastDone) * 200 < total)
        return;
    t.lastDone = done;
    t.lastMs = now;
    m_post(done, total);
}

JobRunner::JobRunner(QObject *parent)
    : QObject(parent), m_pool(QThreadPool::globalInstance()),
      m_alive(std::make_shared<JobRunner *>(this))
{
    m_pool->setMaxThreadCount(std::max(m_pool->maxThreadCount(), kMinWorkers));
}

JobRunner::~JobRunner()
{
    // Nothing waits: running jobs are told to stop, and what they post finds the runner gone.
    for (LaneState &lane : m_lanes)
        if (lane.cancel)
            lane.cancel->store(true);
    *m_alive = nullptr;
}

JobRunner::Lane JobRunner::newLane(const char *name, Scope scope)
{
    if (!m_retired.empty()) {
        const Lane lane = m_retired.back();
        m_retired.pop_back();
        LaneState &l = m_lanes[static_cast<std::size_t>(lane)];
        l.name = QByteArray(name);
        l.scope = scope;
        ++l.generation; // nothing of its last owner is delivered
        return lane;
    }
    m_lanes.push_back({QByteArray(name), scope, 0, nullptr});
    return static_cast<Lane>(m_lanes.size() - 1);
}

void JobRunner::retireLane(Lane lane)
{
    cancel(lane);
    ++m_lanes.at(static_cast<std::size_t>(lane)).generation;
    m_retired.push_back(lane);
}

void JobRunner::cancel(Lane lane)
{
    LaneState &l = m_lanes.at(static_cast<std::size_t>(lane));
    if (!l.cancel)
        return;
    l.cancel->store(true);
    l.cancel.reset();
    ++l.generation; // whatever it still posts is stale
    Q_EMIT idle(lane);
}

bool JobRunner::isBusy(Lane lane) const
{
    return m_lanes.at(static_cast<std::size_t>(lane)).cancel != nullptr;
}

void JobRunner::dumpChanged()
{
    ++m_epoch;
    for (std::size_t i = 0; i < m_lanes.size(); ++i)
        if (m_lanes[i].scope == Scope::Dump)
            cancel(static_cast<Lane>(i));
}

void JobRunner::start(Lane lane, QObject *receiver, Erased work,
                      const std::function<void(qint64, qint64)> &progress)
{
    LaneState &l = m_lanes.at(static_cast<std::size_t>(lane));
    if (l.cancel)
        l.cancel->store(true); // the newest request wins
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    l.cancel = cancel;
    const quint64 generation = ++l.generation;
    const quint64 epoch = m_epoch;
    const std::weak_ptr<JobRunner *> alive = m_alive;
    const QPointer<QObject> target(receiver);
    spdlog::debug("job {} #{} started", l.name.constData(), generation);

    JobControl control;
    control.m_cancel = cancel;
    if (progress)
        control.m_post = [alive, lane, generation, progress](qint64 done, qint64 total) {
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [alive, lane, generation, progress, done, total] {
                    const auto runner = alive.lock();
                    if (runner && *runner &&
                        (*runner)->m_lanes[static_cast<std::size_t>(lane)].generation == generation)
                        progress(done, total);
                },
                Qt::QueuedConnection);
        };
    control.m_part = [alive, lane, generation, epoch, target](std::function<void()> part) {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [alive, lane, generation, epoch, target, part = std::move(part)]() mutable {
                const auto runner = alive.lock();
                if (runner && *runner &&
                    (*runner)->wanted(lane, generation, epoch, !target.isNull()))
                    part();
                else if (runner && *runner)
                    (*runner)->release(std::move(part)); // what it holds is freed on a worker
            },
            Qt::QueuedConnection);
    };
    post([alive, lane, generation, epoch, target, control, name = l.name,
          work = std::move(work)]() mutable {
        QElapsedTimer clock;
        clock.start();
        std::function<void()> deliver;
        try {
            deliver = work(control);
        } catch (const std::bad_alloc &) {
            // A file that asks for more memory than there is ends its job, not the process;
            // the window says so (a module's read says it of the file itself: ModuleReader).
            deliver = [alive, name] {
                const auto runner = alive.lock();
                if (runner && *runner)
                    Q_EMIT(*runner)->outOfMemory(QString::fromLatin1(name));
            };
        }
        const qint64 ms = clock.elapsed();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [alive, lane, generation, epoch, target, ms, deliver = std::move(deliver)]() mutable {
                const auto runner = alive.lock();
                if (!runner || !*runner)
                    return; // the runner is gone; so is whoever asked
                spdlog::debug("job {} #{} took {} ms",
                              (*runner)->m_lanes[static_cast<std::size_t>(lane)].name.constData(),
                              generation, ms);
                (*runner)->finish(lane, generation, epoch, !target.isNull(), std::move(deliver));
            },
            Qt::QueuedConnection);
    });
}

void JobRunner::finish(Lane lane, quint64 generation, quint64 epoch, bool receiverAlive,
                       std::function<void()> deliver)
{
    LaneState &l = m_lanes[static_cast<std::size_t>(lane)];
    if (generation != l.generation) {
        release(std::move(deliver)); // a newer request runs; it reports idle itself
        return;
    }
    const bool deliverIt = wanted(lane, generation, epoch, receiverAlive);
    l.cancel.reset();
    if (deliverIt)
        deliver(); // may start the lane's next job
    else
        release(std::move(deliver)); // a dropped result may be big: freed on a worker
    if (!m_lanes[static_cast<std::size_t>(lane)].cancel)
        Q_EMIT idle(lane);
}

bool JobRunner::wanted(Lane lane, quint64 generation, quint64 epoch, bool receiverAlive) const
{
    const LaneState &l = m_lanes[static_cast<std::size_t>(lane)];
    return generation == l.generation && l.cancel && !l.cancel->load() && receiverAlive &&
           (l.scope == Scope::Session || epoch == m_epoch);
}

void JobRunner::post(std::function<void()> task)
{
    m_pool->start([task = std::move(task)]() mutable {
        markBackgroundThread();
        task();
        task = nullptr; // whatever it held is freed here, on the worker
    });
}

bool JobRunner::waitForDone(int msecs)
{
    // The workers first: what they hand over is posted to this thread before they end.
    if (!m_pool->waitForDone(msecs))
        return false;
    QCoreApplication::sendPostedEvents();
    return true;
}

} // namespace bufferscope
