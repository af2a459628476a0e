#include "FileNotice.h"

#include "HelpDialogs.h"
#include "WindowServices.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "models/Selection.h"

#include <QAction>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace bufferscope {

namespace {
const QString kSampleHintKey = QStringLiteral("hints/sampleDismissed");
}

FileNotice::FileNotice(WindowServices *window)
    : QObject(window->mainWindow()), m_window(window), m_watcher(new QFileSystemWatcher(this)),
      m_bar(new QToolBar(tr("File Notice"), window->mainWindow()))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &FileNotice::changedOnDisk);
    m_bar->setObjectName(QStringLiteral("FileNotice"));
    m_bar->setMovable(false);
    m_bar->setFloatable(false);
    m_bar->toggleViewAction()->setVisible(false);
    auto *icon = new QLabel(m_bar);
    icon->setPixmap(window->mainWindow()
                        ->style()
                        ->standardIcon(QStyle::SP_MessageBoxInformation)
                        .pixmap(16, 16));
    m_bar->addWidget(icon);
    m_text = new QLabel(m_bar);
    m_text->setContentsMargins(6, 0, 12, 0);
    // It quotes file names, module names and the dump's own warnings: text, never markup.
    m_text->setTextFormat(Qt::PlainText);
    m_bar->addWidget(m_text);
    m_reload = m_bar->addAction(tr("Reload"), this, &FileNotice::reload);
    m_help = m_bar->addAction(tr("Getting a Dump…"), this,
                              [window] { showGettingADump(window->mainWindow()); });
    m_warnings = m_bar->addAction(tr("Show Warnings"), this, &FileNotice::warningsRequested);
    m_bar->addAction(tr("Dismiss"), this, [this] {
        // The first-run hint stays dismissed; file notices come back on the next change.
        if (m_help->isVisible())
            QSettings().setValue(kSampleHintKey, true);
        m_bar->hide();
    });
    window->mainWindow()->addToolBar(Qt::TopToolBarArea, m_bar);
}

void FileNotice::show(const QString &text, bool offerReload, bool offerHelp, bool offerWarnings)
{
    m_text->setText(text);
    m_reload->setVisible(offerReload);
    m_help->setVisible(offerHelp);
    m_warnings->setVisible(offerWarnings);
    m_bar->show();
}

void FileNotice::hide()
{
    m_bar->hide();
}

QString FileNotice::text() const
{
    return m_bar->isHidden() ? QString() : m_text->text();
}

void FileNotice::watch(const LoadedDump &loaded)
{
    if (const QStringList old = m_watcher->files(); !old.isEmpty())
        m_watcher->removePaths(old);
    if (loaded.isEmbedded())
        return;
    for (const SourceFile &f : loaded.dump->files)
        m_watcher->addPath(toQString(f.path));
}

void FileNotice::changedOnDisk(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (QFileInfo::exists(path)) {
        // Editors and copy tools often replace a file (delete + rename): watch the new one.
        if (!m_watcher->files().contains(path))
            m_watcher->addPath(path);
        show(tr("%1 changed on disk. Reload it to see the new version (F5).").arg(name), true,
             false);
    } else {
        show(tr("%1 was deleted or moved. BufferScope keeps showing the version it loaded.")
                 .arg(name),
             false, false);
    }
}

bool FileNotice::reload()
{
    Workspace *workspace = m_window->workspace();
    const LoadedDump &shown = workspace->current();
    if (!shown.dump || shown.isEmbedded())
        return false;
    ReloadState state;
    state.path = shown.path;
    if (const int v = workspace->selection()->currentValue(); v >= 0)
        state.valueKey = toQString(shown.dump->valueKey(shown.dump->values[v]));
    state.step = workspace->selection()->currentStep();
    for (ChartView *view : m_window->chartViews())
        state.ranges.emplace_back(view, view->ranges());
    m_pending = std::move(state);
    m_bar->hide();
    workspace->load(m_pending->path);
    return true;
}

void FileNotice::openFailed(const QString &path, const LoadedDump &shown)
{
    m_pending.reset(); // the loaded dump stays as it was
    // The dump on screen is the one before: say so, so it is not taken for the new one.
    if (shown.dump)
        show(tr("Could not open %1; still showing %2.")
                 .arg(QFileInfo(path).fileName(), toQString(shown.dump->module)),
             false, false);
}

void FileNotice::dumpShown(const LoadedDump &loaded)
{
    watch(loaded);
    m_bar->hide();
    // Warnings where the user looks, over the charts: a truncated dump draws empty axes that
    // would otherwise pass for "nothing is live".
    if (const std::size_t warningCount = loaded.warningCount(); warningCount > 0) {
        const Diagnostic *first = !loaded.dump->warnings.empty() ? &loaded.dump->warnings.front()
                                  : !loaded.timeline->warnings().empty()
                                      ? &loaded.timeline->warnings().front()
                                      : nullptr;
        QString firstText = first ? toQString(loaded.dump->diagnosticText(*first)) : QString();
        if (firstText.size() > 160)
            firstText = firstText.left(159) + QStringLiteral("…");
        const QString count = warningCount == 1
                                  ? tr("1 warning")
                                  : tr("%1 warnings").arg(static_cast<qint64>(warningCount));
        show(loaded.dump->traits.truncated
                 ? tr("This dump looks truncated: what the charts show may be incomplete "
                      "(%1). %2")
                       .arg(count, firstText)
                 : tr("%1 while reading this dump. %2").arg(count, firstText),
             false, false, true);
    }
    if (loaded.isEmbedded() && !QSettings().value(kSampleHintKey).toBool())
        show(tr("This is a bundled sample (a GPU decoder layer). To see your own program, "
                "run it with XLA_FLAGS=--xla_dump_to=DIR and drop DIR here."),
             false, true);
    const std::optional<ReloadState> state = std::exchange(m_pending, std::nullopt);
    if (!state || state->path != loaded.path)
        return;
    const Dump &dump = *loaded.dump;
    Selection *selection = m_window->workspace()->selection();
    if (!state->valueKey.isEmpty()) {
        const std::uint32_t v = dump.findValue(state->valueKey.toStdString());
        if (v != kNone)
            selection->setCurrentValue(static_cast<int>(v));
        else
            m_window->status()->showMessage(
                tr("%1 is not in the reloaded dump").arg(state->valueKey), 8000);
    }
    if (state->step >= 0 && state->step < dump.stepCount())
        selection->setCurrentStep(state->step);
    for (const auto &[view, ranges] : state->ranges)
        view->restoreRanges(ranges);
}

} // namespace bufferscope
