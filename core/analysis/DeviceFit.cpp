#include "DeviceFit.h"

#include "model/Dump.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace bufferscope {

namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

// Memory per device as its maker states it (a TPU "device" is what JAX calls one: a core on
// v2/v3, a chip from v4 on), smallest first. The one list the command line, the Budget box and
// Device Fit offer.
constexpr DeviceFit::Device kDevices[] = {
    {"v100-16gb", "V100 16GB", 16},
    {"tpu-v3", "TPU v3 core", 16},
    {"tpu-v5e", "TPU v5e", 16},
    {"a10-24gb", "A10", 24},
    {"l4-24gb", "L4", 24},
    {"rtx4090-24gb", "RTX 4090", 24},
    {"v100-32gb", "V100 32GB", 32},
    {"tpu-v4", "TPU v4", 32},
    {"tpu-v6e", "TPU v6e", 32},
    {"a100-40gb", "A100 40GB", 40},
    {"l40s-48gb", "L40S", 48},
    {"rtx-a6000-48gb", "RTX A6000", 48},
    {"mi250-64gb", "MI250 (one GCD)", 64},
    {"a100-80gb", "A100 80GB", 80},
    {"h100-80gb", "H100 80GB", 80},
    {"h100-nvl-94gb", "H100 NVL", 94},
    {"tpu-v5p", "TPU v5p", 95},
    {"h200-141gb", "H200", 141},
    {"mi300x-192gb", "MI300X", 192},
};

} // namespace

std::optional<DeviceFit::Resident>
DeviceFit::Resident::parse(std::string_view text, std::int64_t (*parseSize)(std::string_view))
{
    Resident r;
    if (text == "args" || text == "arguments")
        return r;
    r.arguments = false;
    for (std::string_view prefix : {std::string_view("args+"), std::string_view("arguments+")}) {
        if (text.starts_with(prefix)) {
            r.arguments = true;
            text.remove_prefix(prefix.size());
            break;
        }
    }
    r.fixed = parseSize(text);
    if (r.fixed < 0)
        return std::nullopt;
    return r;
}

std::string DeviceFit::Resident::describe() const
{
    if (arguments && fixed == 0)
        return "each module's arguments";
    if (arguments)
        return "each module's arguments + " + humanBytes(fixed);
    return humanBytes(fixed) + " (each module's arguments included)";
}

DeviceFit DeviceFit::compute(const std::vector<Module> &modules, const Resident &resident,
                             std::int64_t limit)
{
    DeviceFit fit;
    fit.limit = limit;
    fit.resident = resident;
    for (const Module &m : modules)
        fit.constantsLoaded += m.analysis.device.constant;
    for (std::size_t i = 0; i < modules.size(); ++i) {
        const MemoryAnalysis::Side &d = modules[i].analysis.device;
        Row row;
        if (resident.arguments) {
            row.resident = d.argument + resident.fixed;
        } else {
            // A typed number holds the module's arguments: it cannot be less than them.
            row.residentBelowArguments = resident.fixed < d.argument;
            row.resident = std::max(resident.fixed, d.argument);
        }
        row.allocated = d.output - d.alias + d.temp;
        row.device = row.resident + row.allocated + fit.constantsLoaded;
        row.headroom = limit - row.device;
        row.host = modules[i].analysis.host.held();
        if (modules[i].platform == Platform::Tpu) {
            row.compileCheck = true;
            row.tempHeadroom = limit - d.temp;
            if (row.tempHeadroom < 0 && fit.compileAborts < 0)
                fit.compileAborts = static_cast<int>(i);
        }
        if (fit.limiting < 0 || row.device > fit.peak) {
            fit.limiting = static_cast<int>(i);
            fit.peak = row.device;
        }
        if (modules[i].truncated)
            fit.certain = false;
        fit.rows.push_back(row);
    }
    return fit;
}

std::vector<std::int64_t> DeviceFit::deviceLiveBytes(const MemoryTimeline &timeline)
{
    std::vector<std::int64_t> total;
    for (const SpaceTimeline &s : timeline.spaces()) {
        if (s.memorySpace == MemoryAnalysis::kHostMemorySpace)
            continue;
        if (total.size() < s.liveBytes.size())
            total.resize(s.liveBytes.size(), 0);
        for (std::size_t t = 0; t < s.liveBytes.size(); ++t)
            total[t] += s.liveBytes[t];
    }
    return total;
}

DeviceFit::Module DeviceFit::Module::of(std::string name, std::string file, const Dump &dump,
                                        const MemoryTimeline &timeline)
{
    Module m;
    m.name = std::move(name);
    m.file = std::move(file);
    m.analysis = MemoryAnalysis::of(dump);
    m.truncated = dump.traits.truncated;
    m.platform = platformOf(m.file);
    if (m.platform == Platform::Unknown)
        m.platform = platformOf(dump);
    if (dump.hasLiveRanges()) {
        const std::vector<std::int64_t> live = deviceLiveBytes(timeline);
        const auto top = std::max_element(live.begin(), live.end());
        if (top != live.end()) {
            m.livePeak = *top;
            m.livePeakStep = top - live.begin();
        }
        m.steps = static_cast<std::int64_t>(live.size());
        m.curve = downsample(live, kCurvePoints);
    }
    return m;
}

std::vector<std::int64_t> DeviceFit::downsample(const std::vector<std::int64_t> &values,
                                                std::size_t points)
{
    if (values.size() <= points || points == 0)
        return values;
    std::vector<std::int64_t> out(points, 0);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::size_t bucket = i * points / values.size();
        out[bucket] = std::max(out[bucket], values[i]);
    }
    return out;
}

DeviceFit::DevicePeak DeviceFit::devicePeak(const MemoryTimeline &timeline)
{
    std::size_t steps = 0;
    for (const SpaceTimeline &s : timeline.spaces())
        steps = std::max(steps, s.liveBytes.size());
    DevicePeak peak;
    for (std::size_t t = 0; t < steps; ++t) {
        std::int64_t sum = 0;
        for (const SpaceTimeline &s : timeline.spaces())
            if (s.memorySpace != MemoryAnalysis::kHostMemorySpace && t < s.liveBytes.size())
                sum += s.liveBytes[t];
        if (peak.step < 0 || sum > peak.bytes) // the earliest, as each space's own peak
            peak = {sum, static_cast<std::int64_t>(t)};
    }
    return peak;
}

std::span<const DeviceFit::Device> DeviceFit::devices()
{
    return kDevices;
}

std::string DeviceFit::percent(double fraction)
{
    // Two decimals at most, the trailing zeros cut: 0.75 -> "75 %", 0.875 -> "87.5 %".
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, fraction * 100.0,
                                 std::chars_format::fixed, 2);
    std::string text(buffer, r.ec == std::errc() ? r.ptr : buffer);
    while (text.find('.') != std::string::npos && (text.back() == '0' || text.back() == '.'))
        text.pop_back();
    return text + " %";
}

std::int64_t DeviceFit::gpuAllocatorLimit(std::int64_t memory, double fraction)
{
    constexpr std::int64_t kGranularity = std::int64_t{2} << 20;
    if (memory <= 0 || !(fraction > 0))
        return 0;
    // XLA: size_t(total_memory * memory_fraction), in double as it computes it, then rounded
    // up to 2 MiB.
    const double product = static_cast<double>(memory) * fraction;
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    if (product >= static_cast<double>(kMax - kGranularity))
        return kMax - kMax % kGranularity;
    const auto bytes = static_cast<std::int64_t>(product);
    return (bytes + kGranularity - 1) / kGranularity * kGranularity;
}

std::string DeviceFit::Limit::describe() const
{
    if (device.empty())
        return {};
    if (fraction > 0)
        return "device " + std::string(device) + ": XLA's GPU allocator gets " + percent(fraction) +
               " of the " + humanBytes(memory) +
               " its maker states (XLA_CLIENT_MEM_FRACTION), a little less as the driver "
               "reports less";
    return "device " + std::string(device) + ": its " + humanBytes(memory) +
           " as its maker states it; the runtime keeps a part";
}

std::vector<DeviceFit::DeviceSize> DeviceFit::deviceSizes(double gpuFraction)
{
    // Each device at the limit the runtime acts on, grouped by that limit.
    struct Entry
    {
        std::int64_t limit;
        const Device *device;
    };
    std::vector<Entry> entries;
    for (const Device &d : kDevices)
        entries.push_back(
            {d.gpu() ? gpuAllocatorLimit(d.gib * kGiB, gpuFraction) : d.gib * kGiB, &d});
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry &a, const Entry &b) { return a.limit < b.limit; });
    std::vector<DeviceSize> out;
    for (std::size_t i = 0; i < entries.size();) {
        std::size_t j = i;
        bool gpu = false;
        bool tpu = false;
        DeviceSize size;
        size.bytes = entries[i].limit;
        while (j < entries.size() && entries[j].limit == entries[i].limit) {
            // Devices of one kind and one memory in a run, a GPU's with its share.
            const Device &d = *entries[j].device;
            std::size_t k = j;
            std::string names;
            while (k < entries.size() && entries[k].limit == entries[i].limit &&
                   entries[k].device->gpu() == d.gpu() && entries[k].device->gib == d.gib) {
                names += (names.empty() ? "" : ", ") + std::string(entries[k].device->name);
                ++k;
            }
            if (d.gpu())
                names += " (" + percent(gpuFraction) + " of " + humanBytes(d.gib * kGiB) + ")";
            size.devices += (size.devices.empty() ? "" : "; ") + names;
            (d.gpu() ? gpu : tpu) = true;
            j = k;
        }
        size.gpu = gpu;
        size.tpu = tpu;
        if (gpu)
            size.runtime = "on a GPU, XLA's allocator gets " + percent(gpuFraction) +
                           " of the memory the driver reports (a little less than the maker's "
                           "figure; XLA_CLIENT_MEM_FRACTION, 75 % unless set)";
        if (tpu)
            size.runtime += std::string(gpu ? "; on" : "on") +
                            " a TPU, its memory as the maker states it, of which the runtime "
                            "keeps a part (the out-of-memory report's 'reserved')";
        out.push_back(std::move(size));
        i = j;
    }
    return out;
}

std::optional<DeviceFit::Limit> DeviceFit::preset(std::string_view name, double gpuFraction)
{
    for (const Device &d : kDevices) {
        if (d.id != name)
            continue;
        Limit limit;
        limit.device = d.id;
        limit.memory = d.gib * kGiB;
        limit.fraction = d.gpu() ? gpuFraction : 0;
        limit.bytes = d.gpu() ? gpuAllocatorLimit(limit.memory, gpuFraction) : limit.memory;
        return limit;
    }
    return std::nullopt;
}

std::string DeviceFit::presetNames()
{
    std::string out;
    for (const Device &d : kDevices) {
        if (!out.empty())
            out += ", ";
        out += d.id;
    }
    return out;
}

} // namespace bufferscope
