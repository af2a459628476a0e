#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bufferscope {

/// Text taken from a dump (names, op_name, op_type, source_file, call-stack tables) was chosen
/// by whoever made the file. These functions are the one place it is decoded and made safe for
/// the places it leaves the program through: a terminal or a pipe, a CSV cell. (Rich text in
/// the GUI: `models/QtText.h`; JSON: `report/JsonWriter`; SVG: `widgets/ChartExport`.)
namespace safetext {

/// Appends code point `c` to `out` as UTF-8.
void appendUtf8(std::string &out, char32_t c);

/// The length of the well-formed UTF-8 sequence at `p` (RFC 3629, Unicode Table 3-7: no
/// overlong forms, no surrogates, nothing past U+10FFFF), or 0 with `bad` set to the length of
/// the maximal ill-formed subpart there (at least 1), which becomes one U+FFFD.
std::size_t utf8Length(const unsigned char *p, std::size_t left, std::size_t &bad);

/// Whether the code point is a bidirectional formatting control (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069): text that reorders what follows it on screen.
bool isBidiControl(char32_t c);

/// absl::CUnescape, as XLA's text is written by absl::CEscape (op_type, op_name and
/// source_file in `OpMetadataToString`, the file and function names of the stack-frame
/// tables): `\n \r \t \" \' \\ \? \a \b \f \v`, octal `\o`…`\ooo`, hex `\xH…` (up to two
/// digits used), and `\uXXXX`/`\UXXXXXXXX` as UTF-8. A backslash before anything else, or at
/// the end, stays as it is.
std::string unescapeC(std::string_view text);

/// The text as it may be written to a terminal or a pipe: every C0 control (TAB, CR and LF
/// too), DEL and C1 control written as `\xNN` or `\u{NNNN}`, bidi controls as `\u{NNNN}`,
/// ill-formed UTF-8 bytes as `\xNN`. One line in, one line out: nothing in
/// a name can move the cursor, retitle or clear the terminal, or forge a line of a report.
std::string forTerminal(std::string_view text);

/// The text as a Markdown paragraph or table cell shows it, never as markup: forTerminal, then
/// every ASCII punctuation mark Markdown or HTML gives a meaning (`\ ` * _ { } [ ] ( ) # + - . !
/// | < > ~ @ &`) escaped with a backslash, so a name cannot open a link, a code span, an image,
/// a tag or a table column.
std::string forMarkdown(std::string_view text);

/// Whether forTerminal would change the text.
bool needsTerminalEscape(std::string_view text);

/// Well-formed UTF-8 with no NUL: ill-formed sequences become U+FFFD (as decoders that
/// replace do), NUL bytes are dropped.
std::string validUtf8(std::string_view text);

/// A CSV text cell that a spreadsheet will not run (OWASP's CSV injection advice): a cell that
/// begins with `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`, unless the whole cell is a
/// number ("-5", "+1.5e3"); the result is also validUtf8.
std::string csvCell(std::string_view text);

} // namespace safetext

} // namespace bufferscope
