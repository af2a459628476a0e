#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bufferscope {

/// Writes RFC 4180 CSV: fields separated by commas, records ended by CRLF, a field quoted
/// (with its quotes doubled) when it holds a comma, a quote, CR or LF. Text fields come from
/// dumps, so they are made safe (safetext::csvCell): always well-formed UTF-8 without NUL, and
/// a text cell that a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, TAB, CR first)
/// gets a leading `'` unless it is a number ("-5"), which stays a number. No
/// byte-order mark, so `cut` and pandas read it alike.
class CsvWriter
{
public:
    CsvWriter &field(std::string_view text);
    CsvWriter &field(const char *text) { return field(std::string_view(text)); }
    CsvWriter &field(std::int64_t number);
    CsvWriter &field(int number) { return field(static_cast<std::int64_t>(number)); }
    /// An empty field (a number that does not apply, e.g. the end of a value with no range).
    CsvWriter &blank();
    CsvWriter &endRow();

    const std::string &str() const { return m_out; }
    std::string take() { return std::move(m_out); }

    /// The field as it is written (quoted when it has to be).
    static std::string quoted(std::string_view text);

private:
    void separator();

    std::string m_out;
    bool m_rowStarted = false;
};

} // namespace bufferscope
