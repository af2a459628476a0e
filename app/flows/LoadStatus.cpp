#include "LoadStatus.h"

#include "Workspace.h"
#include "analysis/DeviceFit.h"
#include "drawing/ElidedLabel.h"
#include "model/ModuleNames.h"
#include "models/QtText.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include <cmath>

namespace bufferscope {

LoadStatus::LoadStatus(QStatusBar *bar, Workspace *workspace)
    : QObject(bar), m_workspace(workspace), m_file(new ElidedLabel(bar)), m_totals(new QLabel(bar)),
      m_progress(new QProgressBar(bar)), m_cancel(new QPushButton(tr("Cancel"), bar))
{
    m_progress->setMaximumWidth(220);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, workspace, &Workspace::cancelLoad);
    bar->addWidget(m_file, 1);
    bar->addPermanentWidget(m_totals);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    m_file->setText(tr("Drop a *-buffer-assignment.txt file or an --xla_dump_to folder "
                       "here, or use File → Open."));
    connect(workspace, &Workspace::loadStarted, this, [this](const QString &path) {
        m_loadingName = QFileInfo(path).fileName();
        m_file->setText(tr("Loading %1…").arg(m_loadingName));
        m_clock.start();
        m_progress->setValue(0);
        m_progress->setFormat(QStringLiteral("%p%"));
        m_progress->show();
        m_cancel->show();
    });
    connect(workspace, &Workspace::loadProgress, this, [this](qint64 done, qint64 total) {
        m_progress->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 0);
        // The bar shows the percentage; the status line the bytes and the time left.
        m_file->setText(
            tr("Loading %1: %2").arg(m_loadingName, progressText(done, total, m_clock.elapsed())));
    });
    connect(workspace, &Workspace::loadCancelled, this, [this](const QString &path) {
        stopped(tr("Loading %1 cancelled").arg(QFileInfo(path).fileName()));
    });
}

void LoadStatus::setText(const QString &text)
{
    m_file->setText(text);
}

QString LoadStatus::text() const
{
    return m_file->text();
}

void LoadStatus::stopped(const QString &text)
{
    m_progress->hide();
    m_cancel->hide();
    m_file->setText(text);
}

void LoadStatus::show(const LoadedDump &shown)
{
    m_progress->hide();
    m_cancel->hide();
    if (!shown.dump)
        return;
    const Dump &d = *shown.dump;
    // The module as people name it, then its file; too long, the path gives way in its middle
    // (ElidedLabel), never the end mid-word.
    m_file->setText(tr("%1 · %2").arg(
        toQString(ModuleNames::shortNameOfStem(d.module)),
        shown.path.startsWith(QLatin1Char(':')) ? tr("embedded sample") : shown.path));
    QString totals = tr("total %1").arg(humanBytesText(d.totalBytes()));
    // The device's live peak (every memory space but the host's), as the Modules dock, `list`
    // and `summary` give it; the usage chart shows each space's own.
    if (d.hasLiveRanges()) {
        const DeviceFit::DevicePeak peak = DeviceFit::devicePeak(*shown.timeline);
        if (peak.step >= 0)
            totals +=
                tr(" · live peak %1 at step %2").arg(humanBytesText(peak.bytes)).arg(peak.step);
    }
    if (const std::size_t warnings = shown.warningCount(); warnings > 0)
        totals += tr(" · %n warning(s)", nullptr, static_cast<int>(warnings));
    m_totals->setText(totals);
    m_totals->setToolTip(tr("Total: %1. Live peak: the most bytes live on the device at one "
                            "step, every memory space but the host's.")
                             .arg(exactBytesText(d.totalBytes())));
}

QString LoadStatus::progressText(qint64 done, qint64 total, qint64 elapsedMs)
{
    if (total <= 0)
        return tr("reading…");
    if (done >= total)
        return tr("%1 read · analysing…").arg(humanBytesText(total));
    QString text = tr("%1 of %2").arg(humanBytesText(done), humanBytesText(total));
    // A rate needs a little history to mean anything.
    if (elapsedMs >= 300 && done > 0) {
        const double left = static_cast<double>(total - done) * static_cast<double>(elapsedMs) /
                            static_cast<double>(done) / 1000.0;
        text += left < 1.0 ? tr(" · under a second left")
                           : tr(" · about %1 s left").arg(static_cast<qint64>(std::ceil(left)));
    }
    return text;
}

} // namespace bufferscope
