#pragma once

#include "LoadedDump.h"
#include "charts/ChartView.h"

#include <QObject>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

class QAction;
class QFileSystemWatcher;
class QLabel;
class QToolBar;

namespace bufferscope {

class WindowServices;

/// The bar above the views and what it is about: the open dump changed or vanished on disk
/// (watched), a dump read with warnings, the first-run hint on the bundled sample, a failed
/// open; and the reload it offers, which puts back the selected value, the step and each
/// chart's zoom.
class FileNotice : public QObject
{
    Q_OBJECT
public:
    explicit FileNotice(WindowServices *window);

    QToolBar *bar() const { return m_bar; }
    QFileSystemWatcher *watcher() const { return m_watcher; }
    /// The notice on show; empty when hidden.
    QString text() const;
    void hide();
    /// A new dump on show: its files watched, its warnings or the sample's hint said, and
    /// after a reload what was selected put back.
    void dumpShown(const LoadedDump &loaded);
    /// Opening `path` failed while `shown` stays on screen.
    void openFailed(const QString &path, const LoadedDump &shown);
    /// Loads the dump on show again (F5); false when there is nothing to reload.
    bool reload();

Q_SIGNALS:
    void warningsRequested();

private:
    void show(const QString &text, bool offerReload, bool offerHelp, bool offerWarnings = false);
    void changedOnDisk(const QString &path);
    void watch(const LoadedDump &loaded);

    WindowServices *m_window;
    QFileSystemWatcher *m_watcher;
    QToolBar *m_bar;
    QLabel *m_text;
    QAction *m_reload;
    QAction *m_help;
    QAction *m_warnings;
    /// What to put back once a reload arrives.
    struct ReloadState
    {
        QString path;
        QString valueKey; ///< "name{idx}" of the selected value
        qint64 step = -1;
        std::vector<std::pair<ChartView *, ChartView::Ranges>> ranges;
    };
    std::optional<ReloadState> m_pending;
};

} // namespace bufferscope
