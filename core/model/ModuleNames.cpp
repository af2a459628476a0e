#include "ModuleNames.h"

#include <algorithm>

namespace bufferscope {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// Every kind of module file. XLA writes `<stem>-<suffix>` (a '.' in renamed copies) and, with
/// --xla_dump_hlo_as_proto, `<stem>.hlo.pb`; tools keep that compressed; XProf writes each
/// module of a profile beside its capture as `<module>(<program id>).hlo_proto.pb`, the same
/// HloProto (docs/FORMAT.md §1).
constexpr ModuleFileKind kKinds[] = {
    {"buffer-assignment-values.txt", ModuleFileFormat::DumpText, 1,
     "*buffer-assignment-values.txt"},
    {"buffer-assignment.txt", ModuleFileFormat::DumpText, 0, "*buffer-assignment.txt"},
    {"live-range.txt", ModuleFileFormat::DumpText, 2, "*live-range.txt"},
    {"memory-usage-report.txt", ModuleFileFormat::ReportText, 4, "*memory-usage-report.txt"},
    {"memory-usage-report.pb", ModuleFileFormat::ReportProto, 4, "*memory-usage-report.pb"},
    {"memory-usage-report.pb.gz", ModuleFileFormat::ReportProto, 4, "*memory-usage-report.pb.gz"},
    {"hlo.pb", ModuleFileFormat::HloProto, 3, "*.hlo.pb"},
    {"hlo.pb.gz", ModuleFileFormat::HloProto, 3, "*.hlo.pb.gz"},
    {"hlo.pb.xz", ModuleFileFormat::HloProto, 3, "*.hlo.pb.xz"},
    {"hlo_proto.pb", ModuleFileFormat::HloProto, 3, "*.hlo_proto.pb"},
};

/// The length of the stem of `fileName` under `kind`, or npos when it does not fit.
std::size_t stemLength(std::string_view fileName, const ModuleFileKind &kind)
{
    if (fileName.size() <= kind.suffix.size() + 1 || !fileName.ends_with(kind.suffix))
        return std::string_view::npos;
    const std::size_t stem = fileName.size() - kind.suffix.size() - 1;
    const char sep = fileName[stem];
    // A binary module is `<stem>.hlo.pb`; the module before optimization has no buffer
    // assignment: not a dump.
    if (kind.format == ModuleFileFormat::HloProto &&
        (sep != '.' || fileName.find("before_optimizations") != std::string_view::npos))
        return std::string_view::npos;
    return sep == '-' || sep == '.' ? stem : std::string_view::npos;
}

} // namespace

std::span<const ModuleFileKind> ModuleNames::fileKinds()
{
    return kKinds;
}

const ModuleFileKind *ModuleNames::kindOf(std::string_view fileName)
{
    for (const ModuleFileKind &kind : kKinds)
        if (stemLength(fileName, kind) != std::string_view::npos)
            return &kind;
    return nullptr;
}

std::string ModuleNames::dialogPatterns()
{
    std::string out;
    for (const ModuleFileKind &kind : kKinds)
        out += (out.empty() ? "" : " ") + std::string(kind.pattern);
    return out;
}

std::string ModuleNames::stemOf(std::string_view fileName)
{
    for (const ModuleFileKind &kind : kKinds)
        if (const std::size_t stem = stemLength(fileName, kind); stem != std::string_view::npos)
            return std::string(fileName.substr(0, stem));
    return {};
}

bool ModuleNames::isMemoryUsageReportName(std::string_view fileName)
{
    const std::string_view name = baseName(fileName);
    return (name.ends_with("memory-usage-report.txt") || name.ends_with("memory-usage-report.pb") ||
            name.ends_with("memory-usage-report.pb.gz")) &&
           !stemOf(name).empty();
}

std::string ModuleNames::moduleName(std::string_view path)
{
    // A profiler capture's module, `capture.xplane.pb#jit_step(12)`: its name in the capture.
    if (const std::size_t at = path.rfind(".xplane.pb#");
        at != std::string_view::npos && at + 11 < path.size())
        return std::string(path.substr(at + 11));
    const std::string_view name = baseName(path);
    std::string stem = stemOf(name);
    if (!stem.empty())
        return stem;
    const auto dot = name.rfind('.');
    return std::string(dot == std::string_view::npos || dot == 0 ? name : name.substr(0, dot));
}

std::string ModuleNames::shortName(std::string_view path)
{
    return shortNameOfStem(moduleName(path));
}

std::string ModuleNames::shortNameOfStem(std::string_view stemText)
{
    std::string stem(stemText);
    const auto allDigits = [&](std::string_view s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
    };
    // [<timestamp>.]module_<id>
    std::string_view rest = stem;
    if (const auto dot = rest.find('.'); dot != std::string_view::npos &&
                                         allDigits(rest.substr(0, dot)) &&
                                         rest.substr(dot + 1).starts_with("module_"))
        rest.remove_prefix(dot + 1);
    if (!rest.starts_with("module_"))
        return stem;
    rest.remove_prefix(7);
    std::size_t digits = 0;
    while (digits < rest.size() && isDigit(rest[digits]))
        ++digits;
    if (digits == 0)
        return stem;
    const std::string id(rest.substr(0, digits));
    rest.remove_prefix(digits);
    if (!rest.empty() && rest.front() != '.')
        return stem;
    if (!rest.empty())
        rest.remove_prefix(1);
    // .<platform suffix>: sm_8.0_gpu_after_optimizations (CUDA, with a dot of its own),
    // gfx90a_gpu_after_optimizations, cpu_after_optimizations, after_optimizations (TPU).
    if (rest.ends_with("after_optimizations")) {
        auto cut = rest.rfind('.');
        if (cut != std::string_view::npos && cut > 0) {
            const auto before = rest.rfind('.', cut - 1);
            const std::string_view piece =
                rest.substr(before == std::string_view::npos ? 0 : before + 1,
                            cut - (before == std::string_view::npos ? 0 : before + 1));
            if (piece.starts_with("sm_") && allDigits(piece.substr(3)))
                cut = before;
        }
        rest = cut == std::string_view::npos ? std::string_view() : rest.substr(0, cut);
    }
    // .cl_<N>: builds that carry a changelist number (the public libtpu).
    if (const auto cl = rest.rfind("cl_"); cl != std::string_view::npos &&
                                           (cl == 0 || rest[cl - 1] == '.') &&
                                           allDigits(rest.substr(cl + 3)))
        rest = rest.substr(0, cl == 0 ? 0 : cl - 1);
    if (rest.empty())
        return "module_" + id;
    return std::string(rest) + " (" + id + ")";
}

std::string ModuleNames::functionOf(std::string_view moduleName)
{
    // [<timestamp>.]module_<id>.<name>.<rest>
    std::string_view rest = moduleName;
    if (const std::size_t dot = rest.find('.');
        dot != std::string_view::npos && std::all_of(rest.begin(), rest.begin() + dot, isDigit) &&
        rest.substr(dot + 1).starts_with("module_"))
        rest.remove_prefix(dot + 1);
    if (!rest.starts_with("module_")) {
        // A profiler capture's module, as XProf names it: `jit_train_step(12)`.
        if (const std::size_t open = rest.rfind('(');
            open != std::string_view::npos && open > 0 && rest.ends_with(")") &&
            open + 2 < rest.size() && std::all_of(rest.begin() + open + 1, rest.end() - 1, isDigit))
            return std::string(rest.substr(0, open));
        return std::string(moduleName);
    }
    std::size_t i = 7;
    while (i < rest.size() && isDigit(rest[i]))
        ++i;
    if (i == 7 || i >= rest.size() || rest[i] != '.')
        return std::string(moduleName);
    rest.remove_prefix(i + 1);
    const std::size_t end = rest.find('.');
    return std::string(end == std::string_view::npos ? rest : rest.substr(0, end));
}

std::string ModuleNames::numberOf(std::string_view moduleName)
{
    const std::size_t at = moduleName.find("module_");
    if (at == std::string_view::npos)
        return {};
    std::size_t end = at + 7;
    while (end < moduleName.size() && isDigit(moduleName[end]))
        ++end;
    return std::string(moduleName.substr(at + 7, end - at - 7));
}

} // namespace bufferscope
