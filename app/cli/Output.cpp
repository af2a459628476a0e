#include "Output.h"

#include "Usage.h"
#include "util/SafeText.h"

#include <QStringList>

#include <cstdio>

namespace bufferscope {

void cli::sayNotRead(const std::vector<std::string> &errors)
{
    constexpr std::size_t kNamed = 10;
    std::string out;
    for (std::size_t i = 0; i < errors.size() && i < kNamed; ++i)
        out += "bufferscope: not read: " + safetext::forTerminal(errors[i]) + "\n";
    if (errors.size() > kNamed)
        out += "bufferscope: … and " + std::to_string(errors.size() - kNamed) +
               " more modules not read\n";
    std::fwrite(out.data(), 1, out.size(), stderr);
}

int cli::fail(const QString &message, int code)
{
    std::string out = "bufferscope: ";
    const QStringList lines = message.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            out += '\n';
        out += safetext::forTerminal(lines[i].toStdString());
    }
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stderr);
    return code;
}

QString cli::usage()
{
    return QStringLiteral("usage:\n") + QString::fromUtf8(kUsageText).trimmed();
}

QString cli::usageOf(QStringView command)
{
    // The synopsis lines of `command`: its own lines and the ones indented under them.
    const QString prefix = QStringLiteral("bufferscope ") + command + QLatin1Char(' ');
    QStringList lines;
    bool in = false;
    for (const QString &line : QString::fromUtf8(kUsageText).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("bufferscope")))
            in = line.startsWith(prefix);
        else if (!line.startsWith(QLatin1Char(' ')))
            in = false;
        if (in)
            lines << line;
    }
    return QStringLiteral("usage:\n") + lines.join(QLatin1Char('\n'));
}

} // namespace bufferscope
