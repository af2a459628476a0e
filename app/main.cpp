#include "CommandLine.h"
#include "MainWindow.h"
#include "ScreenshotMode.h"
#include "cli/ExportCommand.h"
#include "models/QtText.h"
#include "util/Parallel.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <sys/stat.h>
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
///
/// Starting again costs a second load of every library, some 30 ms: more than the huge pages
/// save on a folder of small modules (`list` of 1,101 generated modules: 0.147 s against
/// 0.121 s). So it is done only where a large heap is likely: the window and `export` (their
/// start costs more anyway), and a command given a file of kHugePagesFrom bytes or more.
enum class HeapPages : std::uint8_t
{
    Huge,       ///< started again with the tunable
    Small,      ///< not worth starting again
    AsTheUsers, ///< BUFFERSCOPE_NO_HUGEPAGES or the user's own tunable; or no second start
};
constexpr std::int64_t kHugePagesFrom = 32ll << 20;
const char kMarker[] = "BUFFERSCOPE_TUNABLES_WERE";
const char kTunables[] = "GLIBC_TUNABLES";

/// The second start: the environment put back as it was. True when this is it.
bool restartedWithHugePages()
{
#if defined(__linux__) && defined(__GLIBC__)
    if (const char *was = std::getenv(kMarker)) {
        // "-" there was none, "=…" the user's own.
        if (was[0] == '=')
            ::setenv(kTunables, was + 1, 1);
        else
            ::unsetenv(kTunables);
        ::unsetenv(kMarker);
        return true;
    }
#endif
    return false;
}

/// Whether the invocation is one whose heap may be large: the window, `export`, or a command
/// given a regular file of kHugePagesFrom bytes or more (its bytes, as given).
bool mayHoldALargeHeap(const CommandLine::Invocation &invocation)
{
    if (invocation.command.isEmpty() || invocation.command == QLatin1String("export"))
        return true;
    for (const QString &arg : invocation.rest) {
        struct stat st
        {};
        if (!arg.startsWith(QLatin1Char('-')) && ::stat(pathBytes(arg).c_str(), &st) == 0 &&
            S_ISREG(st.st_mode) && st.st_size >= kHugePagesFrom)
            return true;
    }
    return false;
}

/// Starts again with the tunable, where it is not the user's to set; returns what the heap
/// has when it does not (no /proc, say).
HeapPages startWithHugePages(char **argv)
{
#if defined(__linux__) && defined(__GLIBC__)
    const char *own = std::getenv(kTunables);
    if (std::getenv("BUFFERSCOPE_NO_HUGEPAGES") ||
        (own && std::strstr(own, "glibc.malloc.hugetlb")))
        return HeapPages::AsTheUsers;
    const std::string previous = own ? std::string("=") + own : std::string("-");
    const std::string tunables =
        own && *own ? std::string(own) + ":glibc.malloc.hugetlb=1" : "glibc.malloc.hugetlb=1";
    ::setenv(kMarker, previous.c_str(), 1);
    ::setenv(kTunables, tunables.c_str(), 1);
    ::execv("/proc/self/exe", argv);
    // No second start: go on as we are, with the environment as it was.
    if (own)
        ::setenv(kTunables, own, 1);
    else
        ::unsetenv(kTunables);
    ::unsetenv(kMarker);
#else
    (void)argv;
#endif
    return HeapPages::AsTheUsers;
}

const char *heapPagesText(HeapPages pages)
{
    switch (pages) {
    case HeapPages::Huge:
        return "heap: huge pages (started again with glibc.malloc.hugetlb=1)";
    case HeapPages::Small:
        return "heap: 4 KiB pages (no file of 32 MiB or more given: starting again with huge "
               "pages would cost more than it saves)";
    case HeapPages::AsTheUsers:
        break;
    }
    return "heap: as the environment sets it (BUFFERSCOPE_NO_HUGEPAGES or GLIBC_TUNABLES)";
}

/// Logging is quiet by default (warnings only) and goes to stderr; --verbose turns on debug.
void setUpLogging(bool verbose)
{
    auto logger = spdlog::stderr_color_mt("bufferscope");
    spdlog::set_default_logger(logger);
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
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

} // namespace

int main(int argc, char **argv)
{
    const bool restarted = restartedWithHugePages();
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << pathFromBytes(argv[i]); // a file name keeps its bytes
    const CommandLine::Invocation invocation = CommandLine::invocationOf(args);
    const HeapPages pages = restarted                       ? HeapPages::Huge
                            : mayHoldALargeHeap(invocation) ? startWithHugePages(argv)
                                                            : HeapPages::Small;
    heapPerCore();
    // A bare word that is no file is a mistyped command, not a file for the GUI to open.
    if (const QString first = invocation.rest.value(0);
        invocation.command.isEmpty() && !first.isEmpty() && !QFileInfo::exists(first) &&
        !first.contains(QLatin1Char('.')) && !first.contains(QLatin1Char('/')) &&
        !first.startsWith(QLatin1Char('-')))
        return cli::fail(QStringLiteral("unknown command '%1'\n").arg(first) + cli::usage(), 1);
    const std::optional<Args> parsed = CommandLine::parse(invocation);
    if (!parsed)
        return 1;
    setUpLogging(parsed->verbose());
    spdlog::debug("{}", heapPagesText(pages));
    g_qtHandler = qInstallMessageHandler(qtMessages);
    const std::optional<int> threads = parsed->threads();
    if (threads && *threads > maxThreads())
        std::fprintf(stderr,
                     "bufferscope: --threads %d is more than the %d core(s) here: using %d\n",
                     *threads, maxThreads(), maxThreads());

    if (CommandLine::isHeadless(invocation)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("bufferscope"));
        try {
            return CommandLine::run(invocation, *parsed, threads.value_or(0));
        } catch (const std::bad_alloc &) {
            // A file read as a module says so itself (ModuleReader); this is the rest: a log, a
            // report, the work after a read. Said, with what it was reading, not an abort.
            std::fflush(stdout);
            return cli::fail(
                QStringLiteral("there is not enough memory for '%1' on %2 (the "
                               "machine, or the limit it runs under, ran out)\n")
                    .arg(invocation.command, parsed->positional().join(QStringLiteral(", "))),
                2);
        }
    }
    if (invocation.command == QLatin1String("export")) {
        // Headless: the same widgets draw into an offscreen surface; no display needed.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        QApplication::setApplicationName(QStringLiteral("bufferscope"));
        QApplication::setApplicationVersion(QStringLiteral(BUFFERSCOPE_VERSION)); // --footer
        return ExportCommand::run(*parsed, threads.value_or(0));
    }
    // The window's options: --screenshot OUT.png grabs it once what it opened is shown and
    // quits (ScreenshotMode); --compare B opens the comparison of the dump with B.
    ScreenshotMode::Options shot;
    shot.out = parsed->value("screenshot");
    shot.select = parsed->value("select");
    shot.compare = parsed->value("compare");
    shot.fitLimit = parsed->value("fit");
    const auto groupBy = parsed->oneOf(
        "group-by", {QStringLiteral("op_name"), QStringLiteral("source"), QStringLiteral("op_type"),
                     QStringLiteral("kind"), QStringLiteral("stack"),
                     QStringLiteral("stack-bottom-up"), QStringLiteral("shape")});
    const auto sourceFrame =
        parsed->integer("source-frame", 0, std::numeric_limits<int>::max(), -1);
    if (!groupBy || !sourceFrame)
        return 1;
    shot.groupBy = *groupBy;
    shot.sourceFrame = static_cast<int>(*sourceFrame);

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("BufferScope"));
    QApplication::setOrganizationName(QStringLiteral("BufferScope"));
    QApplication::setApplicationVersion(QStringLiteral(BUFFERSCOPE_VERSION));
    MainWindow window;
    if (threads)
        window.setCommandLineThreads(*threads);
    if (!shot.out.isEmpty())
        new ScreenshotMode(&window, shot);
    else if (!shot.compare.isEmpty())
        QObject::connect(
            &window, &MainWindow::dumpShown, &window,
            [&window, compare = shot.compare] { window.compareWith(compare); },
            Qt::SingleShotConnection);
    window.show();
    if (parsed->positional().isEmpty())
        window.openEmbeddedSample();
    else
        window.openPaths(parsed->positional());
    return QApplication::exec();
}
