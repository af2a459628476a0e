#include "ScreenshotMode.h"

#include "MainWindow.h"
#include "Workspace.h"
#include "cli/Output.h"
#include "models/Selection.h"
#include "panels/ValueInspector.h"
#include "windows/CompareView.h"

#include <QApplication>
#include <QTextBrowser>
#include <QTimer>

namespace bufferscope {

namespace {
/// On stderr as every command says things: each line made safe for a terminal (a file's name
/// or text is never a control sequence).
void say(const QString &message)
{
    cli::fail(message, 0);
}
} // namespace

ScreenshotMode::ScreenshotMode(MainWindow *window, Options options)
    : QObject(window), m_window(window), m_options(std::move(options))
{
    // A screenshot shows the default layout at the default size for the screen, not the
    // user's.
    window->resetLayout();
    window->sizeToScreen();
    // No one sees the window's message boxes: what they say goes to stderr.
    connect(window, &MainWindow::errorShown, this, [](const QString &error) { say(error); });
    connect(window->workspace(), &Workspace::loadFailed, this, [] { QApplication::exit(2); });
    if (!m_options.compare.isEmpty()) {
        connect(
            window, &MainWindow::dumpShown, this,
            [this] { m_window->compareWith(m_options.compare); }, Qt::SingleShotConnection);
        connect(window, &MainWindow::compareFailed, this, [] { QApplication::exit(2); });
        connect(window, &MainWindow::compareOpened, this, &ScreenshotMode::compareOpened);
        return;
    }
    // A memory-usage report without its dump: its own window is the picture.
    connect(window, &MainWindow::memoryUsageReportOpened, this, [this](QWidget *view) {
        QTimer::singleShot(300, view, [this, view] { grabAndQuit(view); });
    });
    connect(window, &MainWindow::oomOpened, this, &ScreenshotMode::oomOpened);
    // --fit LIMIT: the device-fit window of the folder's modules is the picture.
    connect(window, &MainWindow::deviceFitReady, this, [this](QWidget *view) {
        QTimer::singleShot(300, view, [this, view] { grabAndQuit(view); });
    });
    connect(window, &MainWindow::dumpShown, this, &ScreenshotMode::dumpShown);
}

void ScreenshotMode::grabAndQuit(QWidget *shown)
{
    const bool ok = shown->grab().save(m_options.out);
    if (!ok)
        say(QStringLiteral("cannot write %1").arg(m_options.out));
    QApplication::exit(ok ? 0 : 2);
}

void ScreenshotMode::compareOpened(CompareView *view)
{
    QTimer::singleShot(500, view, [this, view] {
        if (!m_options.select.isEmpty() && !view->showValue(m_options.select)) {
            say(QStringLiteral("no value '%1' in either dump").arg(m_options.select));
            QApplication::exit(1);
            return;
        }
        QTimer::singleShot(300, view, [this, view] { grabAndQuit(view); });
    });
}

void ScreenshotMode::oomOpened(QWidget *shown)
{
    // An out-of-memory message: its window is the picture, and when its module is found and
    // opened, the main window too, as OUT-window.png.
    m_oom = qobject_cast<OomView *>(shown);
    const auto grabUnlessOpening = [this] {
        QTimer::singleShot(300, m_oom, [this] {
            if (m_oom && !m_oom->isWeighing() && !m_oom->moduleChosen())
                grabAndQuit(m_oom);
        });
    };
    grabUnlessOpening();
    connect(m_window->workspace(), &Workspace::oomWeighed, m_oom, grabUnlessOpening);
}

void ScreenshotMode::dumpShown()
{
    if (!m_options.fitLimit.isEmpty()) {
        m_window->showDeviceFit(m_options.fitLimit);
        return;
    }
    QTimer::singleShot(300, m_window, [this] {
        const Dump &dump = *m_window->current().dump;
        if (!m_options.select.isEmpty()) {
            const std::uint32_t value = dump.findValue(m_options.select.toStdString());
            if (value == kNone) {
                say(QStringLiteral("no value '%1'").arg(m_options.select));
                QApplication::exit(1);
                return;
            }
            m_window->selection()->setCurrentValue(static_cast<int>(value));
        }
        Breakdown::Grouping grouping = Breakdown::Grouping::OpName;
        if (Breakdown::groupingByName(m_options.groupBy.toStdString(), grouping))
            m_window->showBreakdownBy(grouping);
        if (m_options.sourceFrame >= 0) {
            const auto &frames = m_window->inspector()->frames();
            if (static_cast<std::size_t>(m_options.sourceFrame) >= frames.size()) {
                say(QStringLiteral("the selected value has no frame %1")
                        .arg(m_options.sourceFrame));
                QApplication::exit(1);
                return;
            }
            m_window->showSource(frames[static_cast<std::size_t>(m_options.sourceFrame)]);
            m_window->inspector()->details()->scrollToAnchor(QStringLiteral("stack"));
        }
        QTimer::singleShot(500, m_window, [this] {
            if (m_oom) {
                QString windowShot = m_options.out;
                windowShot.insert(windowShot.lastIndexOf(QLatin1Char('.')),
                                  QStringLiteral("-window"));
                if (!m_window->grab().save(windowShot)) {
                    say(QStringLiteral("cannot write %1").arg(windowShot));
                    QApplication::exit(2);
                    return;
                }
                grabAndQuit(m_oom);
                return;
            }
            grabAndQuit(m_window);
        });
    });
}

} // namespace bufferscope
