#include "Csv.h"

#include "util/SafeText.h"

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
    // Most cells are plain ASCII names and numbers: written without a copy.
    bool plain = text.empty() || !(text[0] == '=' || text[0] == '+' || text[0] == '-' ||
                                   text[0] == '@' || text[0] == '\t' || text[0] == '\r');
    for (std::size_t i = 0; plain && i < text.size(); ++i)
        plain = text[i] != '\0' && static_cast<unsigned char>(text[i]) < 0x80;
    const std::string safe = plain ? std::string() : safetext::csvCell(text);
    const std::string_view cell = plain ? text : std::string_view(safe);
    if (cell.find_first_of(",\"\r\n") == std::string_view::npos)
        m_out += cell;
    else
        m_out += quoted(cell);
    return *this;
}

CsvWriter &CsvWriter::field(std::int64_t number)
{
    separator();
    m_out += std::to_string(number);
    return *this;
}

CsvWriter &CsvWriter::blank()
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
