#include "Commands.h"
#include "DumpFiles.h"
#include "OomJoin.h"
#include "Output.h"
#include "models/QtText.h"
#include "parse/XPlaneMemory.h"
#include "parse/XPlaneModules.h"
#include "report/OomReport.h"

#include <cstdio>

namespace bufferscope {

using cli::fail;

int runOom(const Args &args, int threads)
{
    const bool json = args.isSet("json");
    const QString log = args.positional().value(0);
    const QStringList dumps = args.positional().mid(1);
    if (log.isEmpty())
        return fail(QStringLiteral("oom needs a LOG (the text of an out-of-memory error)\n") +
                        cli::usageOf(u"oom"),
                    1);
    OomFindings findings;
    findings.file = pathBytes(log);
    {
        std::string text;
        if (!readLog(log, text))
            return 2;
        findings.log = OomLog::parse(text);
    }
    if (findings.log.messages.empty())
        return fail(log + QStringLiteral(": no out-of-memory message found (BufferScope reads ") +
                        QString::fromLatin1(OomLog::kWhatIsRead) + QStringLiteral(")"),
                    2);
    int status = 0;
    if (!dumps.isEmpty()) {
        const DumpFiles found = DumpFiles::collect(dumps);
        for (const OpenProblem &p : found.problems)
            cli::fail(p.text(), 0);
        QStringList errors;
        weighModules(findings, found.refs, errors, nullptr, threads);
        for (const QString &e : errors)
            cli::fail(e, 0);
        if (!errors.isEmpty())
            status = 2;
    }
    // A capture given with the log: what its allocators really held (issue 73).
    for (const QString &d : dumps) {
        if (!pathIsFile(d) || !XPlaneModules::isCaptureName(pathBytes(d)))
            continue;
        std::string why;
        XPlaneMemory events = XPlaneMemory::readFile(pathBytes(d), &why);
        if (why.empty())
            findings.runtimes.push_back({pathBytes(d), RuntimeMemory::of(std::move(events))});
    }
    const std::string out = json ? OomReport::json(findings) : OomReport::text(findings);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return status;
}

} // namespace bufferscope
