#include "MemorySpaces.h"

#include "model/Dump.h"

namespace bufferscope {

Platform platformOf(std::string_view fileName)
{
    const std::size_t slash = fileName.rfind('/');
    const std::string_view name =
        slash == std::string_view::npos ? fileName : fileName.substr(slash + 1);
    if (name.find("gpu") != std::string_view::npos)
        return Platform::Gpu;
    if (name.find("tpu") != std::string_view::npos)
        return Platform::Tpu;
    if (name.find("cpu_") != std::string_view::npos || name.find(".cpu.") != std::string_view::npos)
        return Platform::Cpu;
    return Platform::Unknown;
}

Platform platformOf(const Dump &dump)
{
    if (dump.files.empty())
        return Platform::Unknown;
    const Platform byName = platformOf(dump.files.front().path);
    if (byName != Platform::Unknown)
        return byName;
    for (const ShapeInfo &s : dump.shapes)
        if (s.text != kNoString && dump.str(s.text).find(":T(") != std::string_view::npos)
            return Platform::Tpu;
    return Platform::Unknown;
}

std::string_view platformName(Platform platform)
{
    switch (platform) {
    case Platform::Gpu:
        return "gpu";
    case Platform::Tpu:
        return "tpu";
    case Platform::Cpu:
        return "cpu";
    case Platform::Unknown:
        break;
    }
    return "unknown";
}

std::string_view memorySpaceName(Platform platform, std::int32_t space)
{
    switch (space) {
    case 0:
        return "device";
    case 5:
        return "host";
    case 1:
        return platform == Platform::Gpu ? "collective" : "";
    case 2:
        return platform == Platform::Gpu ? "temp buffers" : "";
    default:
        return "";
    }
}

std::string memorySpaceLabel(Platform platform, std::int32_t space)
{
    std::string label = "S(" + std::to_string(space) + ")";
    const std::string_view name = memorySpaceName(platform, space);
    if (!name.empty())
        label += " " + std::string(name);
    return label;
}

} // namespace bufferscope
