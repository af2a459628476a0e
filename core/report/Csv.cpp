#include "Csv.h"

namespace bufferscope {

std::string CsvWriter::quoted(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

void CsvWriter::separator()
{
    if (m_rowStarted)
        m_out += ',';
    m_rowStarted = true;
}

CsvWriter &CsvWriter::field(std::string_view text)
{
    separator();
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        m_out += text;
    else
        m_out += quoted(text);
    return *this;
}

CsvWriter &CsvWriter::field(std::int64_t number)
{
    separator();
    m_out += std::to_string(number);
    return *this;
}

CsvWriter &CsvWriter::empty()
{
    separator();
    return *this;
}

CsvWriter &CsvWriter::endRow()
{
    m_out += "\r\n";
    m_rowStarted = false;
    return *this;
}

} // namespace bufferscope
