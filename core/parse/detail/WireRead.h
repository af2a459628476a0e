#pragma once

// Reading protobuf's wire format field by field, for the readers of profiler captures
// (parse/XPlaneModules.cpp, parse/XPlaneMemory.cpp): a capture's big parts are walked, not
// parsed into messages.
#include <cstdint>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <string_view>

namespace bufferscope::wire {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

inline CodedInputStream streamOf(std::string_view bytes)
{
    return CodedInputStream(reinterpret_cast<const std::uint8_t *>(bytes.data()),
                            static_cast<int>(bytes.size()));
}

/// The length-delimited field at the stream's position, as a view into `bytes`.
inline bool lengthDelimited(CodedInputStream &in, std::string_view bytes, std::string_view *out)
{
    std::uint32_t length = 0;
    if (!in.ReadVarint32(&length))
        return false;
    const int at = in.CurrentPosition();
    if (at < 0 || static_cast<std::size_t>(at) + length > bytes.size())
        return false;
    *out = bytes.substr(static_cast<std::size_t>(at), length);
    return in.Skip(static_cast<int>(length));
}

inline bool isLengthDelimited(std::uint32_t tag)
{
    return WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
}

} // namespace bufferscope::wire
