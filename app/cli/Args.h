#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <optional>

namespace bufferscope {

/// One option of the command line, in the one table (Args.cpp) every command and the window
/// take theirs from.
struct OptionSpec
{
    const char *name;  ///< without the dashes
    const char *value; ///< the value's name in messages; null for a flag
    const char *needs; ///< what its value must be ("--top needs a number ≥ 0")
};

/// The arguments of one command, parsed by QCommandLineParser with the options the command
/// takes (and --verbose and --threads, which every command takes). What a value must be is
/// checked by the typed getters, which print the option's message and give nothing when it is
/// not that.
class Args
{
public:
    /// Parses `args` (after the command word) for `command` ("report", …; empty: the window)
    /// with `options` (names in the table). On an unknown option or a missing value prints why
    /// and the command's synopsis and returns nothing (exit status 1).
    static std::optional<Args> parse(const QString &command, const QStringList &args,
                                     std::initializer_list<const char *> options);
    static const OptionSpec &spec(const char *name);

    bool isSet(const char *name) const { return m_values.contains(QLatin1String(name)); }
    /// The value given last; `fallback` when the option is not given.
    QString value(const char *name, const QString &fallback = {}) const;
    const QStringList &positional() const { return m_positional; }

    /// An integer from `min` to `max`; not given: `fallback`. Prints the option's message and
    /// gives nothing when the value is not such a number.
    std::optional<qint64> integer(const char *name, qint64 min, qint64 max, qint64 fallback) const;
    /// A size ("16GiB", "1234") of at least `min` bytes; likewise.
    std::optional<qint64> size(const char *name, qint64 min, qint64 fallback) const;
    /// One of `choices`; likewise.
    std::optional<QString> oneOf(const char *name, const QStringList &choices,
                                 const QString &fallback = {}) const;
    /// Prints the option's message ("--top needs a number ≥ 0") and returns 1.
    static int needs(const char *name, const QString &got = {});

    /// --verbose and --threads N (every command): nothing when --threads is not given.
    bool verbose() const { return isSet("verbose"); }
    std::optional<int> threads() const { return m_threads; }

private:
    QHash<QString, QString> m_values; ///< option name → the value given last ("" for a flag)
    QStringList m_positional;
    std::optional<int> m_threads;
};

} // namespace bufferscope
