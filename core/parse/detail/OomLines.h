#pragma once
// The line-level syntax of out-of-memory messages (parse/OomMessage.cpp reads the messages
// with them; parse/OomLines.cpp defines them): prefixes, sizes, figures, buffer details.

#include "parse/OomMessage.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bufferscope::oom_detail {

using sv = std::string_view;

bool isDigit(char c);
bool isSpace(char c);
sv trim(sv s);
/// Skips `n` digits at `i`; false when they are not there.
bool digits(sv s, std::size_t &i, std::size_t n);
std::size_t skipDigits(sv s, std::size_t i);
std::size_t skipSpaces(sv s, std::size_t i);
/// `HH:MM:SS[.frac]` at i.
bool clock(sv s, std::size_t &i);
/// The length of one logger prefix at the start of `s`, or 0.
std::size_t prefixLength(sv s);
/// The unsigned integer at the start of `s` (after spaces), or nullopt.
std::optional<std::int64_t> leadingInteger(sv s, std::size_t *length = nullptr);
/// The first size token after `key` in `s` (a size ends at a space, ')', ',' or '.' + end).
/// `7,450,374,152 bytes` is read whole. A bare number that ends the line is one a line break
/// cut (XLA follows every bare count with " bytes", "B" or ")"): -1, and `*cut` is set. A
/// count of bytes past 2^63 - 1 is no size: -1, and `*tooLarge` is set.
std::int64_t sizeAfter(sv s, sv key, std::int64_t *ulp = nullptr, bool *cut = nullptr,
                       bool *tooLarge = nullptr);
/// `key='value'` or `key=value` inside `[…]` or `{…}`.
std::string quotedAfter(sv s, sv key);
bool startsWithKey(sv body, sv key);
/// `NAME   SIZE [NOTE]` (a stats or usage line): the name is the words before the size.
std::optional<OomFigure> figureLine(sv body, bool colon);
/// `op_type="…" op_name="…" source_file="…" source_line=N …` (OpMetadataToString).
void readOperator(OomBuffer &b);
/// TPU `XLA label: %copy.40488 = s32[…] copy(…)` → "copy.40488".
std::string labelName(sv text);
bool sameBuffers(const OomMessage &a, const OomMessage &b);
/// Fills what `into` lacks from `from` (the same event printed again).
void merge(OomMessage &into, const OomMessage &from);

} // namespace bufferscope::oom_detail
