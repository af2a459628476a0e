#include "DumpLoader.h"

#include "parse/DumpParser.h"
#include "util/BackgroundThread.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QThreadPool>

#include <spdlog/spdlog.h>

namespace bufferscope {

struct DumpLoader::Job
{
    std::atomic<bool> cancel{false};
    quint64 generation = 0;
};

DumpLoader::DumpLoader(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<LoadedDump>();
}

DumpLoader::~DumpLoader()
{
    // The job only touches its own state and posts to us through a QPointer, so cancelling is
    // enough; the pool's thread drops the result when it sees the flag.
    cancel();
}

bool DumpLoader::loadNow(const QString &path, LoadedDump &out, QString &error,
                         const std::atomic<bool> *cancel,
                         const std::function<void(qint64, qint64)> &progress)
{
    ParseOptions options;
    options.cancel = cancel;
    if (progress)
        options.progress = [&progress](std::int64_t done, std::int64_t total) {
            progress(done, total);
        };
    LoadResult result;
    if (path.startsWith(QLatin1Char(':'))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            error = path + QStringLiteral(": cannot open the embedded resource");
            return false;
        }
        const QByteArray data = file.readAll();
        result = DumpParser::loadBuffer(
            std::string_view(data.constData(), static_cast<std::size_t>(data.size())),
            QFileInfo(path).fileName().toStdString(), options);
    } else {
        if (QFileInfo(path).isDir()) {
            error = path + QStringLiteral(": is a directory; open one dump file from it");
            return false;
        }
        result = DumpParser::loadFile(path.toStdString(), options);
    }
    if (result.cancelled)
        return false;
    if (!result.ok()) {
        error = QString::fromStdString(result.error);
        return false;
    }
    auto timeline = MemoryTimeline::compute(*result.dump, cancel);
    if (!timeline)
        return false;
    out.dump = result.dump;
    out.timeline = std::make_shared<const MemoryTimeline>(std::move(*timeline));
    out.path = path;
    return true;
}

void DumpLoader::load(const QString &path, Prepare prepare)
{
    cancel();
    auto job = std::make_shared<Job>();
    job->generation = ++m_generation;
    m_job = job;
    m_loading = true;
    Q_EMIT started(path);
    QPointer<DumpLoader> self(this);
    QThreadPool::globalInstance()->start([self, job, path, prepare = std::move(prepare)]() {
        markBackgroundThread();
        QElapsedTimer timer;
        timer.start();
        LoadedDump loaded;
        QString error;
        qint64 lastPosted = -1;
        QElapsedTimer sincePost;
        sincePost.start();
        auto onProgress = [&](qint64 done, qint64 total) {
            // Throttled: at most every 50 ms or 0.5 % so a fast parse does not flood the queue.
            if (done != total && sincePost.elapsed() < 50 && (done - lastPosted) * 200 < total)
                return;
            lastPosted = done;
            sincePost.restart();
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [self, job, done, total]() {
                    if (self && job->generation == self->m_generation)
                        Q_EMIT self->progress(done, total);
                },
                Qt::QueuedConnection);
        };
        const bool ok = loadNow(path, loaded, error, &job->cancel, onProgress);
        spdlog::debug("loaded {} in {} ms", path.toStdString(), timer.elapsed());
        if (ok && prepare && !job->cancel.load()) {
            QElapsedTimer preparing;
            preparing.start();
            prepare(loaded);
            spdlog::debug("prepared the views in {} ms", preparing.elapsed());
        }
        // Posted to the application object: `self` may be gone, and is only checked on the GUI
        // thread, where it lives.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, job, ok, loaded, error, path]() {
                if (!self || job->generation != self->m_generation)
                    return; // a newer load replaced this one
                self->m_loading = false;
                self->m_job.reset();
                if (job->cancel.load())
                    Q_EMIT self->cancelled(path);
                else if (ok)
                    Q_EMIT self->finished(loaded);
                else
                    Q_EMIT self->failed(path, error);
            },
            Qt::QueuedConnection);
    });
}

void DumpLoader::cancel()
{
    if (m_job)
        m_job->cancel.store(true);
}

} // namespace bufferscope
