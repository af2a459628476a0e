#include "CommandLine.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

using namespace bufferscope;

namespace {

/// Logging is quiet by default (warnings only) and goes to stderr; --verbose turns on debug.
QStringList setUpLogging(QStringList args)
{
    const bool verbose = args.removeAll(QStringLiteral("--verbose")) > 0;
    auto logger = spdlog::stderr_color_mt("bufferscope");
    spdlog::set_default_logger(logger);
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
    return args;
}

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    args = setUpLogging(args);

    if (CommandLine::isCommand(args)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("bufferscope"));
        return CommandLine::run(args);
    }
    // A bare word that is no file is a mistyped command, not a file for the GUI to open.
    if (!args.isEmpty() && !QFileInfo::exists(args.front()) &&
        !args.front().contains(QLatin1Char('.')) && !args.front().contains(QLatin1Char('/'))) {
        std::fprintf(stderr, "bufferscope: unknown command '%s'\n%s\n",
                     args.front().toUtf8().constData(), CommandLine::usage().toUtf8().constData());
        return 1;
    }
    for (const QString &arg : args) {
        if (arg.startsWith(QLatin1String("-"))) {
            std::fprintf(stderr, "bufferscope: unknown option '%s'\n%s\n", arg.toUtf8().constData(),
                         CommandLine::usage().toUtf8().constData());
            return 1;
        }
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("BufferScope"));
    QApplication::setOrganizationName(QStringLiteral("BufferScope"));
    QApplication::setApplicationVersion(QStringLiteral(BUFFERSCOPE_VERSION));
    MainWindow window;
    window.show();
    if (args.isEmpty())
        window.openEmbeddedSample();
    else
        window.openPath(args.front());
    return QApplication::exec();
}
