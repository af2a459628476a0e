#pragma once

#include "windows/OomView.h"

#include <QObject>
#include <QPointer>
#include <QString>

namespace bufferscope {

class MainWindow;
class CompareView;

/// `--screenshot OUT.png`: the window (or the window it opens: a comparison, an
/// out-of-memory message, a memory-usage report, Device Fit) grabbed once what it opened is
/// shown, then the application quits (0, or 1/2 with the reason on stderr). The README's
/// pictures are made this way (docs/screenshots.sh).
class ScreenshotMode : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString out;          ///< the PNG
        QString select;       ///< a value to select first (id, NAME or NAME{INDEX})
        QString compare;      ///< compare the dump with this one and grab that window
        QString groupBy;      ///< What Fills Memory's grouping
        int sourceFrame = -1; ///< the selected value's call-stack frame shown in Source
        QString fitLimit;     ///< grab Device Fit at this limit
    };
    /// Wires itself to `window` before it opens anything.
    ScreenshotMode(MainWindow *window, Options options);

private:
    void grabAndQuit(QWidget *shown);
    void dumpShown();
    void compareOpened(CompareView *view);
    void oomOpened(QWidget *shown);

    MainWindow *m_window;
    Options m_options;
    QPointer<OomView> m_oom;
};

} // namespace bufferscope
