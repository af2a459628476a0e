#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// A small streaming JSON writer: keys stay in the order written (the report's field order is
/// part of its contract) and integers are exact 64-bit (QJsonValue would round them to double).
class JsonWriter
{
public:
    explicit JsonWriter(int indent = 2) : m_indent(indent) {}

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(std::string_view name);
    JsonWriter &value(std::string_view text);
    JsonWriter &value(const char *text) { return value(std::string_view(text)); }
    JsonWriter &value(std::int64_t number);
    JsonWriter &value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter &value(double number);
    JsonWriter &value(bool flag);
    JsonWriter &null();

    const std::string &str() const { return m_out; }
    static std::string escape(std::string_view text);

private:
    void separator();
    void newline();

    std::string m_out;
    struct Level
    {
        bool array = false;
        bool empty = true;
    };
    std::vector<Level> m_stack;
    bool m_afterKey = false;
    int m_indent;
};

} // namespace bufferscope
