#pragma once
// An RFC 4180 reader for the tests, written from the RFC, not from the writer under test:
// records end in CRLF (a bare LF is accepted too), fields are split on commas, a field that
// starts with a quote runs to the closing quote with "" standing for one quote, and may then
// hold commas and line breaks. Malformed input (text after a closing quote, an unclosed quote)
// is reported, so a writer that quotes wrongly fails the test.
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace testutil {

inline std::optional<std::vector<QStringList>> readCsv(const QString &text,
                                                       QString *error = nullptr)
{
    std::vector<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;    // inside a quoted field
    bool wasQuoted = false; // the current field was quoted and is closed
    const auto bad = [&](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                    wasQuoted = true;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
            wasQuoted = false;
        } else if (c == QLatin1Char('\r') || c == QLatin1Char('\n')) {
            if (c == QLatin1Char('\r')) {
                if (i + 1 >= text.size() || text[i + 1] != QLatin1Char('\n'))
                    return bad(QStringLiteral("bare CR at %1").arg(i));
                ++i;
            }
            record << field;
            records.push_back(record);
            record.clear();
            field.clear();
            wasQuoted = false;
        } else if (c == QLatin1Char('"')) {
            if (!field.isEmpty() || wasQuoted)
                return bad(QStringLiteral("quote inside an unquoted field at %1").arg(i));
            quoted = true;
        } else {
            if (wasQuoted)
                return bad(QStringLiteral("text after a closing quote at %1").arg(i));
            field += c;
        }
    }
    if (quoted)
        return bad(QStringLiteral("unclosed quote"));
    if (!field.isEmpty() || !record.isEmpty() || wasQuoted) {
        record << field;
        records.push_back(record);
    }
    return records;
}

} // namespace testutil
