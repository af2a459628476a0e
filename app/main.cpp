#include "CommandLine.h"
#include "CompareView.h"
#include "ExportCommand.h"
#include "FitView.h"
#include "MainWindow.h"
#include "OomView.h"
#include "Preferences.h"
#include "ValueInspector.h"
#include "Workspace.h"
#include "models/Selection.h"
#include "util/Parallel.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPointer>
#include <QTextBrowser>
#include <QTimer>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>

using namespace bufferscope;

namespace {

/// A million-value dump is some 400 MB of vectors the parser touches once each, out of order:
/// with 4 KiB pages the load spends a third of its time in page faults and TLB misses. glibc
/// backs its heap with transparent huge pages when told so by the `glibc.malloc.hugetlb=1`
/// tunable (glibc 2.35+), which it reads only when a program starts; so the first start adds
/// it and starts again (`report` on the 1M benchmark dump: 6.0–6.2 s → 4.2–4.4 s, peak RSS
/// +2%; tests/bench/README.md). The second start puts the environment back as the user had
/// it, so programs started from the app (an editor) inherit theirs. A user's own setting of
/// the tunable, or BUFFERSCOPE_NO_HUGEPAGES=1, is left alone.
void startWithHugePages(char **argv)
{
#if defined(__linux__) && defined(__GLIBC__)
    static const char kMarker[] = "BUFFERSCOPE_TUNABLES_WERE";
    static const char kTunables[] = "GLIBC_TUNABLES";
    if (const char *was = std::getenv(kMarker)) {
        // The second start: "-" there was none, "=…" the user's own.
        if (was[0] == '=')
            ::setenv(kTunables, was + 1, 1);
        else
            ::unsetenv(kTunables);
        ::unsetenv(kMarker);
        return;
    }
    const char *own = std::getenv(kTunables);
    if (std::getenv("BUFFERSCOPE_NO_HUGEPAGES") ||
        (own && std::strstr(own, "glibc.malloc.hugetlb")))
        return;
    const std::string previous = own ? std::string("=") + own : std::string("-");
    const std::string tunables =
        own && *own ? std::string(own) + ":glibc.malloc.hugetlb=1" : "glibc.malloc.hugetlb=1";
    ::setenv(kMarker, previous.c_str(), 1);
    ::setenv(kTunables, tunables.c_str(), 1);
    ::execv("/proc/self/exe", argv);
    // No second start (no /proc, say): go on as we are, with the environment as it was.
    if (own)
        ::setenv(kTunables, own, 1);
    else
        ::unsetenv(kTunables);
    ::unsetenv(kMarker);
#else
    (void)argv;
#endif
}

/// Logging is quiet by default (warnings only) and goes to stderr; --verbose turns on debug.
QStringList setUpLogging(QStringList args)
{
    const bool verbose = args.removeAll(QStringLiteral("--verbose")) > 0;
    auto logger = spdlog::stderr_color_mt("bufferscope");
    spdlog::set_default_logger(logger);
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
    return args;
}

QtMessageHandler g_qtHandler = nullptr;

/// Qt's notes about the environment, not about the user's work ("XDG_RUNTIME_DIR not set" when
/// run as root or from a service, the offscreen platform's "does not support
/// propagateSizeHints()"), go to the debug log; everything else as Qt prints it.
void qtMessages(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type != QtCriticalMsg && type != QtFatalMsg &&
        (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")) ||
         message.contains(QLatin1String("does not support propagateSizeHints")))) {
        spdlog::debug("qt: {}", message.toStdString());
        return;
    }
    g_qtHandler(type, context, message);
}

/// `--threads N` (every command and the GUI): how many threads core/ may use. Removes the
/// option from `args`; false with `error` set when N is not a count of threads.
bool takeThreads(QStringList &args, std::optional<int> &threads, QString &error)
{
    const qsizetype at = args.indexOf(QStringLiteral("--threads"));
    if (at < 0)
        return true;
    bool ok = false;
    const int n = at + 1 < args.size() ? args[at + 1].toInt(&ok) : 0;
    if (!ok || n < 1 || n > 1024) {
        error = QStringLiteral("--threads needs a number of threads from 1 to 1024 (got '%1')")
                    .arg(at + 1 < args.size() ? args[at + 1] : QString());
        return false;
    }
    threads = n;
    args.remove(at, 2);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    startWithHugePages(argv);
    heapPerCore();
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    args = setUpLogging(args);
    g_qtHandler = qInstallMessageHandler(qtMessages);
    std::optional<int> threads;
    if (QString error; !takeThreads(args, threads, error)) {
        std::fprintf(stderr, "bufferscope: %s\n", error.toUtf8().constData());
        return 1;
    }
    if (threads) {
        if (*threads > maxThreads())
            std::fprintf(stderr,
                         "bufferscope: --threads %d is more than the %d core(s) here: "
                         "using %d\n",
                         *threads, maxThreads(), maxThreads());
    }

    if (CommandLine::isCommand(args)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("bufferscope"));
        return CommandLine::run(args, threads.value_or(0));
    }
    if (!args.isEmpty() && args.front() == QLatin1String("export")) {
        // Headless: the same widgets draw into an offscreen surface; no display needed.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        QApplication::setApplicationName(QStringLiteral("bufferscope"));
        QApplication::setApplicationVersion(QStringLiteral(BUFFERSCOPE_VERSION)); // --footer
        return ExportCommand::run(args.mid(1), threads.value_or(0));
    }
    // A bare word that is no file is a mistyped command, not a file for the GUI to open.
    if (!args.isEmpty() && !QFileInfo::exists(args.front()) &&
        !args.front().contains(QLatin1Char('.')) && !args.front().contains(QLatin1Char('/')) &&
        !args.front().startsWith(QLatin1Char('-'))) {
        std::fprintf(stderr, "bufferscope: unknown command '%s'\n%s\n",
                     args.front().toUtf8().constData(), CommandLine::usage().toUtf8().constData());
        return 1;
    }
    // GUI options: --screenshot OUT.png [--select VALUE] grabs the window once the dump is
    // shown and quits (the README's screenshots are made this way).
    // --group-by G shows What Fills Memory grouped by G; --source-frame K shows frame K
    // (0: the innermost) of the selected value's call stack in the Source dock.
    // --compare B opens the comparison of the dump with B (with --screenshot: grabs that
    // window instead; --select VALUE shows the value on both curves).
    QString screenshot;
    QString select;
    QString compare;
    QString groupBy;
    QString fitLimit;
    int sourceFrame = -1;
    QStringList paths;
    const QStringList groupings = {QStringLiteral("op_name"), QStringLiteral("source"),
                                   QStringLiteral("op_type"), QStringLiteral("kind"),
                                   QStringLiteral("stack"),   QStringLiteral("stack-bottom-up"),
                                   QStringLiteral("shape")};
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args[i];
        if ((arg == QLatin1String("--screenshot") || arg == QLatin1String("--select")) &&
            i + 1 < args.size()) {
            (arg == QLatin1String("--screenshot") ? screenshot : select) = args[++i];
        } else if (arg == QLatin1String("--fit") && i + 1 < args.size()) {
            fitLimit = args[++i];
        } else if (arg == QLatin1String("--compare") && i + 1 < args.size()) {
            compare = args[++i];
        } else if (arg == QLatin1String("--group-by") && i + 1 < args.size() &&
                   groupings.contains(args[i + 1])) {
            groupBy = args[++i];
        } else if (arg == QLatin1String("--source-frame") && i + 1 < args.size()) {
            bool ok = false;
            sourceFrame = args[++i].toInt(&ok);
            if (!ok || sourceFrame < 0) {
                std::fprintf(stderr, "bufferscope: --source-frame takes a frame number (0: the "
                                     "innermost)\n");
                return 1;
            }
        } else if (arg.startsWith(QLatin1String("-"))) {
            std::fprintf(stderr, "bufferscope: unknown option '%s'\n%s\n", arg.toUtf8().constData(),
                         CommandLine::usage().toUtf8().constData());
            return 1;
        } else {
            paths << arg;
        }
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("BufferScope"));
    QApplication::setOrganizationName(QStringLiteral("BufferScope"));
    QApplication::setApplicationVersion(QStringLiteral(BUFFERSCOPE_VERSION));
    MainWindow window;
    if (threads)
        window.setCommandLineThreads(*threads);
    QPointer<OomView> oomView;
    const auto grabAndQuit = [&screenshot](QWidget *shown) {
        const bool ok = shown->grab().save(screenshot);
        if (!ok)
            std::fprintf(stderr, "bufferscope: cannot write %s\n", screenshot.toUtf8().constData());
        QApplication::exit(ok ? 0 : 2);
    };
    if (!compare.isEmpty()) {
        QObject::connect(
            &window, &MainWindow::dumpShown, &window, [&] { window.compareWith(compare); },
            Qt::SingleShotConnection);
        QObject::connect(window.workspace(), &Workspace::compareFailed, &window, [&] {
            if (!screenshot.isEmpty())
                QApplication::exit(2);
        });
    }
    if (!screenshot.isEmpty() && !compare.isEmpty()) {
        window.resetLayout();
        window.sizeToScreen();
        QObject::connect(&window, &MainWindow::compareOpened, &window, [&](CompareView *view) {
            QTimer::singleShot(500, view, [&, view] {
                if (!select.isEmpty() && !view->showValue(select)) {
                    std::fprintf(stderr, "bufferscope: no value '%s' in either dump\n",
                                 select.toUtf8().constData());
                    QApplication::exit(1);
                    return;
                }
                QTimer::singleShot(300, view, [&, view] { grabAndQuit(view); });
            });
        });
        QObject::connect(window.workspace(), &Workspace::loadFailed, &window,
                         [] { QApplication::exit(2); });
    } else if (!screenshot.isEmpty()) {
        // A memory-usage report without its dump: its own window is the picture.
        QObject::connect(&window, &MainWindow::memoryUsageReportOpened, &window,
                         [&](QWidget *view) {
                             QTimer::singleShot(300, view, [&, view] { grabAndQuit(view); });
                         });
        // An out-of-memory message: its window is the picture, and when its module is found
        // and opened, the main window too, as OUT-window.png.
        QObject::connect(&window, &MainWindow::oomOpened, &window, [&](QWidget *shown) {
            oomView = qobject_cast<OomView *>(shown);
            const auto grabUnlessOpening = [&] {
                QTimer::singleShot(300, oomView, [&] {
                    if (oomView && !oomView->isWeighing() && !oomView->moduleChosen())
                        grabAndQuit(oomView);
                });
            };
            grabUnlessOpening();
            QObject::connect(window.workspace(), &Workspace::oomWeighed, oomView,
                             grabUnlessOpening);
        });
        // A screenshot shows the default layout at the default size for the screen, not the
        // user's.
        window.resetLayout();
        window.sizeToScreen();
        // --fit LIMIT: the device-fit window of the folder's modules is the picture.
        QObject::connect(&window, &MainWindow::deviceFitReady, &window, [&](QWidget *view) {
            QTimer::singleShot(300, view, [&, view] { grabAndQuit(view); });
        });
        QObject::connect(&window, &MainWindow::dumpShown, &window, [&] {
            if (!fitLimit.isEmpty()) {
                window.showDeviceFit(fitLimit);
                return;
            }
            QTimer::singleShot(300, &window, [&] {
                const Dump &dump = *window.current().dump;
                if (!select.isEmpty()) {
                    const std::uint32_t value = dump.findValue(select.toStdString());
                    if (value == kNone) {
                        std::fprintf(stderr, "bufferscope: no value '%s'\n",
                                     select.toUtf8().constData());
                        QApplication::exit(1);
                        return;
                    }
                    window.selection()->setCurrentValue(static_cast<int>(value));
                }
                Breakdown::Grouping grouping = Breakdown::Grouping::OpName;
                if (Breakdown::groupingByName(groupBy.toStdString(), grouping))
                    window.showBreakdownBy(grouping);
                if (sourceFrame >= 0) {
                    const auto &frames = window.inspector()->frames();
                    if (static_cast<std::size_t>(sourceFrame) >= frames.size()) {
                        std::fprintf(stderr, "bufferscope: the selected value has no frame %d\n",
                                     sourceFrame);
                        QApplication::exit(1);
                        return;
                    }
                    window.showSource(frames[static_cast<std::size_t>(sourceFrame)]);
                    window.inspector()->details()->scrollToAnchor(QStringLiteral("stack"));
                }
                QTimer::singleShot(500, &window, [&] {
                    if (oomView) {
                        QString windowShot = screenshot;
                        windowShot.insert(windowShot.lastIndexOf(QLatin1Char('.')),
                                          QStringLiteral("-window"));
                        if (!window.grab().save(windowShot)) {
                            std::fprintf(stderr, "bufferscope: cannot write %s\n",
                                         windowShot.toUtf8().constData());
                            QApplication::exit(2);
                            return;
                        }
                        grabAndQuit(oomView);
                        return;
                    }
                    grabAndQuit(&window);
                });
            });
        });
        QObject::connect(window.workspace(), &Workspace::loadFailed, &window,
                         [] { QApplication::exit(2); });
    }
    window.show();
    if (paths.isEmpty())
        window.openEmbeddedSample();
    else
        window.openPaths(paths);
    return QApplication::exec();
}
