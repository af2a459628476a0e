#include "Args.h"

#include "Output.h"
#include "models/ByteSize.h"

#include <QCommandLineParser>

#include <array>

namespace bufferscope {

namespace {

/// Every option of every command, once. A command lists the names it takes (Args::parse).
constexpr std::array kOptions = {
    OptionSpec{"verbose", nullptr, nullptr},
    OptionSpec{"threads", "N", "--threads needs a number of threads from 1 to 1024"},
    OptionSpec{"json", nullptr, nullptr},
    OptionSpec{"md", nullptr, nullptr},
    OptionSpec{"top", "N", "--top needs a number ≥ 0"},
    OptionSpec{"step", "T", "--step needs a step number ≥ 0"},
    OptionSpec{"value", "VALUE", "--value needs a value id, NAME or NAME{INDEX}"},
    OptionSpec{"group-by", "G", "--group-by needs op_name, source, op_type, kind or shape"},
    OptionSpec{"fail-above", "SIZE",
               "--fail-above needs a size such as 16GiB, 512MiB or 1234 (bytes)"},
    OptionSpec{"fail-above-delta", "SIZE",
               "--fail-above-delta needs a size such as 512MiB, 1GiB or 0 (bytes)"},
    OptionSpec{"fail-on-lost-donation", nullptr, nullptr},
    OptionSpec{"fail-on", "CAUSE", "--fail-on needs a cause kind (or several, comma separated)"},
    OptionSpec{"limit", "SIZE",
               "--limit needs a size such as 80GiB, or a device such as a100-80gb"},
    OptionSpec{"mem-fraction", "F",
               "--mem-fraction needs a fraction such as 0.75 (XLA_CLIENT_MEM_FRACTION)"},
    OptionSpec{"resident", "WHAT",
               "--resident needs args, a size such as 10GiB, args+SIZE, or in-use"},
    OptionSpec{"log", "LOG", "--log needs an out-of-memory log"},
    OptionSpec{"view", "VIEW", "--view needs usage, gantt, memory-map or breakdown"},
    OptionSpec{"out", "OUT", "--out needs a path ending in .png, .svg, .pdf or .csv"},
    OptionSpec{"width", "W", "--width needs a number of pixels from 16 to 20000"},
    OptionSpec{"height", "H", "--height needs a number of pixels from 16 to 20000"},
    OptionSpec{"scale", "S", "--scale needs a factor between 0.25 and 8"},
    OptionSpec{"title", "TEXT", "--title needs a text (\"\" for none)"},
    OptionSpec{"footer", nullptr, nullptr},
    OptionSpec{"compare", "OTHER", "--compare needs the dump to compare with"},
    OptionSpec{"select", "VALUE", "--select needs a value id or name"},
    OptionSpec{"order", "ORDER", "--order needs start, size or allocation"},
    OptionSpec{"allocation", "N", "--allocation needs an allocation number ≥ 0"},
    OptionSpec{"budget", "SIZE",
               "--budget needs a size such as 16GiB, or a device such as a100-80gb"},
    OptionSpec{"screenshot", "OUT.png", "--screenshot needs a path ending in .png"},
    OptionSpec{"source-frame", "K", "--source-frame takes a frame number (0: the innermost)"},
    OptionSpec{"fit", "LIMIT", "--fit needs a size such as 80GiB or a device"},
};

/// Options whose message says what was given ("(got '0')").
bool saysWhatItGot(const char *name)
{
    return qstrcmp(name, "width") == 0 || qstrcmp(name, "height") == 0 ||
           qstrcmp(name, "threads") == 0;
}

QString usageFor(const QString &command)
{
    return command.isEmpty() ? cli::usage() : cli::usageOf(command);
}

} // namespace

const OptionSpec &Args::spec(const char *name)
{
    for (const OptionSpec &o : kOptions)
        if (qstrcmp(o.name, name) == 0)
            return o;
    Q_ASSERT_X(false, "Args::spec", name);
    return kOptions.front();
}

int Args::needs(const char *name, const QString &got)
{
    QString message = QString::fromUtf8(spec(name).needs);
    if (!got.isNull())
        message += QStringLiteral(" (got '%1')").arg(got);
    return cli::fail(message, 1);
}

std::optional<Args> Args::parse(const QString &command, const QStringList &args,
                                std::initializer_list<const char *> options)
{
    QCommandLineParser parser;
    // "-x" is an option named x, never the letters x, y, z; --help is a command of its own.
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    QStringList names;
    const auto add = [&](const char *name) {
        const OptionSpec &o = spec(name);
        names << QString::fromLatin1(o.name);
        parser.addOption(
            o.value ? QCommandLineOption(names.back(), QString(), QString::fromLatin1(o.value))
                    : QCommandLineOption(names.back()));
    };
    add("verbose");
    add("threads");
    for (const char *name : options)
        add(name);
    const QString where = command.isEmpty() ? QString() : QStringLiteral(" for ") + command;
    if (!parser.parse(QStringList{QStringLiteral("bufferscope")} + args)) {
        if (const QStringList unknown = parser.unknownOptionNames(); !unknown.isEmpty()) {
            const QString &u = unknown.front();
            const QString shown = (u.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + u;
            cli::fail(
                QStringLiteral("unknown option '%1'%2\n").arg(shown, where) + usageFor(command), 1);
            return std::nullopt;
        }
        // "Missing value after '--top'.": the option's own message.
        const QString error = parser.errorText();
        for (const QString &name : names)
            if (error.contains(QLatin1Char('\'') + QStringLiteral("--") + name +
                               QLatin1Char('\'')) ||
                error.contains(QLatin1Char('\'') + QStringLiteral("-") + name +
                               QLatin1Char('\''))) {
                const QByteArray n = name.toLatin1();
                needs(n.constData(), saysWhatItGot(n.constData()) ? QStringLiteral("") : QString());
                return std::nullopt;
            }
        cli::fail(error, 1);
        return std::nullopt;
    }
    Args out;
    for (const QString &name : names)
        if (parser.isSet(name)) {
            const QStringList values = parser.values(name);
            out.m_values.insert(name, values.isEmpty() ? QString() : values.back());
        }
    out.m_positional = parser.positionalArguments();
    if (out.isSet("threads")) {
        const std::optional<qint64> n = out.integer("threads", 1, 1024, 0);
        if (!n)
            return std::nullopt;
        out.m_threads = static_cast<int>(*n);
    }
    return out;
}

QString Args::value(const char *name, const QString &fallback) const
{
    return m_values.value(QLatin1String(name), fallback);
}

std::optional<qint64> Args::integer(const char *name, qint64 min, qint64 max, qint64 fallback) const
{
    if (!isSet(name))
        return fallback;
    const QString text = value(name);
    bool ok = false;
    const qint64 n = text.toLongLong(&ok);
    if (!ok || n < min || n > max) {
        needs(name, saysWhatItGot(name) ? text : QString());
        return std::nullopt;
    }
    return n;
}

std::optional<qint64> Args::size(const char *name, qint64 min, qint64 fallback) const
{
    if (!isSet(name))
        return fallback;
    const qint64 n = parseByteSize(value(name));
    if (n < min) {
        needs(name);
        return std::nullopt;
    }
    return n;
}

std::optional<QString> Args::oneOf(const char *name, const QStringList &choices,
                                   const QString &fallback) const
{
    if (!isSet(name))
        return fallback;
    const QString v = value(name);
    if (!choices.contains(v)) {
        // The choices this command takes ("op_name, source, … or shape"): the window's
        // --group-by takes more than the commands'.
        QString list = choices.mid(0, choices.size() - 1).join(QStringLiteral(", "));
        list += (list.isEmpty() ? QString() : QStringLiteral(" or ")) +
                choices.value(choices.size() - 1);
        cli::fail(QStringLiteral("--%1 needs %2").arg(QLatin1String(name), list), 1);
        return std::nullopt;
    }
    return v;
}

} // namespace bufferscope
