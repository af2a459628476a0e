#pragma once

#include "LoadedDump.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace bufferscope {

class ElidedLabel;
class Workspace;

/// The status bar's part of a load: the module on show and its file, its totals, the progress
/// of a load with the time left, and Cancel.
class LoadStatus : public QObject
{
    Q_OBJECT
public:
    LoadStatus(QStatusBar *bar, Workspace *workspace);

    /// The left-hand text (the module and its file, or what is going on).
    void setText(const QString &text);
    QString text() const;
    /// The dump on show: its module and file, its total, peak and warnings.
    void show(const LoadedDump &shown);
    /// A load ended without a dump (failed, cancelled): the bar and Cancel go.
    void stopped(const QString &text);
    /// The loading progress text: bytes read of the total and an estimate of the time left.
    static QString progressText(qint64 done, qint64 total, qint64 elapsedMs);

private:
    Workspace *m_workspace;
    ElidedLabel *m_file;
    QLabel *m_totals;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QElapsedTimer m_clock; ///< since the load started, for the time-left estimate
    QString m_loadingName; ///< file name of the dump being loaded
};

} // namespace bufferscope
