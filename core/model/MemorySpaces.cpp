#include "MemorySpaces.h"

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
    return Platform::Unknown;
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
