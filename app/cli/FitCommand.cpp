#include "Commands.h"
#include "DumpFiles.h"
#include "LoadedDump.h"
#include "Output.h"
#include "analysis/DeviceFit.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "parse/ModuleFiles.h"
#include "parse/OomMessage.h"
#include "report/FitReport.h"

#include <charconv>
#include <cstdio>
#include <optional>

namespace bufferscope {

using cli::fail;

namespace {

std::int64_t sizeFromText(std::string_view text)
{
    return parseByteSize(QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
}

} // namespace

int runFit(const Args &args, int threads)
{
    const bool json = args.isSet("json");
    const QStringList &inputs = args.positional();
    const QString limitText = args.value("limit");
    const QString residentText = args.value("resident", QStringLiteral("args"));
    const QString logPath = args.value("log");
    if (inputs.isEmpty())
        return fail(QStringLiteral("fit needs modules: a dump folder or dump files\n") +
                        cli::usageOf(u"fit"),
                    1);
    // The limit: typed, a named device, or what the log says the device had.
    std::int64_t limit = -1;
    std::string limitSource;
    DeviceFit::Limit named; // the device the limit was named by, if it was
    OomLog log;
    if (!logPath.isEmpty()) {
        std::string text;
        if (!readLog(logPath, text))
            return 2;
        log = OomLog::parse(text);
    }
    // A GPU's share for XLA's allocator: JAX's and PyTorch/XLA's default unless given.
    double fraction = DeviceFit::kGpuMemFraction;
    const QString fractionText = args.value("mem-fraction");
    if (!fractionText.isEmpty()) {
        const std::string t = fractionText.trimmed().toStdString();
        const auto r = std::from_chars(t.data(), t.data() + t.size(), fraction);
        if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !(fraction > 0) || fraction > 1)
            return fail(QStringLiteral("--mem-fraction needs a fraction above 0 and at most 1, "
                                       "such as 0.75 (XLA_CLIENT_MEM_FRACTION), not '%1'")
                            .arg(fractionText),
                        1);
    }
    const auto preset = DeviceFit::preset(limitText.toLower().toStdString(), fraction);
    if (!fractionText.isEmpty() && (!preset || preset->fraction <= 0))
        return fail(QStringLiteral("--mem-fraction is the share of a GPU named by --limit (such "
                                   "as a100-80gb); a size, a TPU or a log's Limit: is taken as "
                                   "it is"),
                    1);
    if (preset) {
        named = *preset;
        limit = preset->bytes;
        limitSource = preset->describe();
    } else if (!limitText.isEmpty()) {
        limit = parseByteSize(limitText);
        if (limit <= 0)
            return fail(QStringLiteral("--limit needs a size such as 80GiB or a device: %1")
                            .arg(QString::fromStdString(DeviceFit::presetNames())),
                        1);
        limitSource = "as given";
    } else if (!logPath.isEmpty()) {
        for (const OomMessage &m : log.messages) {
            if (m.capacity > 0) {
                limit = m.capacity;
                limitSource = "from " + logPath.toStdString() + " line " + std::to_string(m.line) +
                              (m.capacityUlp > 0 ? ", as printed (rounded)" : "");
                break;
            }
        }
        if (limit < 0)
            return fail(logPath + QStringLiteral(": no device limit in this log (a BFC "
                                                 "'Limit:' line or a TPU 'Used X of Y'); give "
                                                 "--limit"),
                        2);
    } else {
        return fail(QStringLiteral("fit needs --limit SIZE|DEVICE (or --log LOG with the "
                                   "device's limit); devices: ") +
                        QString::fromStdString(DeviceFit::presetNames()),
                    1);
    }
    DeviceFit::Resident resident;
    if (residentText == QLatin1String("in-use")) {
        std::int64_t inUse = -1;
        for (const OomMessage &m : log.messages)
            if (m.inUse >= 0 && inUse < 0)
                inUse = m.inUse;
        if (inUse < 0)
            return fail(QStringLiteral("--resident in-use needs --log LOG with the allocator's "
                                       "'InUse:' line"),
                        1);
        resident.arguments = false;
        resident.fixed = inUse;
    } else if (const auto r =
                   DeviceFit::Resident::parse(residentText.toStdString(), &sizeFromText)) {
        resident = *r;
    } else {
        return fail(QStringLiteral("--resident needs args, a size such as 10GiB, args+SIZE or "
                                   "in-use, not '%1'")
                        .arg(residentText),
                    1);
    }

    const DumpFiles found = DumpFiles::collect(inputs);
    for (const OpenProblem &p : found.problems)
        cli::fail(p.text(), 0);
    std::vector<DeviceFit::Module> modules;
    bool truncated = false;
    int status = 0;
    // Read under the reader's policy (a capture once for all its members), said in the
    // listing's order.
    std::vector<ModuleRef> dumps;
    std::vector<qsizetype> at;
    for (qsizetype i = 0; i < found.files.size(); ++i) {
        if (found.refs[static_cast<std::size_t>(i)].isReport()) {
            cli::fail(found.files[i] + QStringLiteral(": only the memory-usage report is here; "
                                                      "its sizes are rounded, so it is left out"),
                      0);
            continue;
        }
        dumps.push_back(found.refs[static_cast<std::size_t>(i)]);
        at.push_back(i);
    }
    std::vector<std::optional<DeviceFit::Module>> measured(dumps.size());
    std::vector<QString> errors(dumps.size());
    std::vector<char> cut(dumps.size(), 0); // not vector<bool>: written from reading threads
    loadEach(dumps, threads, nullptr, [&](std::size_t k, const LoadedDump &loaded, QString error) {
        if (!loaded.dump) {
            errors[k] = std::move(error);
            return;
        }
        measured[k] = DeviceFit::Module::of(ModuleFiles::moduleName(dumps[k].path), dumps[k].path,
                                            *loaded.dump, *loaded.timeline);
        cut[k] = loaded.dump->traits.truncated ? 1 : 0;
    });
    for (std::size_t k = 0; k < dumps.size(); ++k) {
        if (!measured[k]) {
            cli::fail(errors[k], 0);
            status = 2;
            continue;
        }
        truncated = truncated || cut[k] != 0;
        modules.push_back(std::move(*measured[k]));
    }
    if (modules.empty())
        return fail(QStringLiteral("fit: no module could be read"), 2);
    const DeviceFit fit = DeviceFit::compute(modules, resident, limit);
    const std::string out = json ? FitReport::json(fit, modules, limitSource, named)
                                 : FitReport::text(fit, modules, limitSource);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    if (status != 0)
        return status;
    if (truncated)
        return fail(QStringLiteral("a module looks truncated (see its warnings): whether it "
                                   "fits cannot be judged"),
                    cli::kUnjudged);
    return fit.fits() ? 0 : 3;
}

} // namespace bufferscope
