#pragma once

// What protobuf takes to parse a message, worked out from its wire bytes before it is parsed:
// an empty message of a repeated field is two bytes on the wire and a whole object in memory
// (5 * 10^6 empty instructions in 10 MB took 893 MB to parse). Used by the readers of binary
// modules and memory-usage reports (parse/HloProtoDump.cpp, parse/MemoryUsageReport.cpp).

#include <cstdint>
#include <string_view>

namespace google::protobuf {
class Descriptor;
}

namespace bufferscope::wire {

/// About the bytes parsing `bytes` as a `type` takes: each message its object's size, each
/// string or bytes field its length, each scalar eight bytes, each unknown field 48. Stops
/// counting once past `cap` (returning more than it); -1 where the wire format is broken
/// (the parse then refuses it too).
std::int64_t parsedSize(std::string_view bytes, const google::protobuf::Descriptor &type,
                        std::int64_t cap);

} // namespace bufferscope::wire
