#include "Commands.h"
#include "analysis/RuntimeMemory.h"
#include "models/QtText.h"
#include "report/RuntimeMemoryReport.h"

#include <cstdio>

namespace bufferscope {

using cli::fail;

int runMemory(const Args &args, int /*threads*/)
{
    const bool json = args.isSet("json");
    if (args.positional().size() != 1)
        return fail(QStringLiteral("memory takes one CAPTURE (a profiler capture, "
                                   "*.xplane.pb)\n") +
                        cli::usageOf(u"memory"),
                    1);
    const QString capture = args.positional().front();
    if (!pathIsFile(capture))
        return fail(capture + (pathExists(capture) ? QStringLiteral(": is not a file")
                                                   : QStringLiteral(": no such file")),
                    2);
    std::string error;
    const RuntimeMemory memory = RuntimeMemory::readCapture(pathBytes(capture), &error);
    if (!error.empty())
        return fail(capture + QStringLiteral(": ") + toQString(error), 2);
    const std::string name = capture.toStdString();
    const std::string out =
        json ? RuntimeMemoryReport::json(name, memory) : RuntimeMemoryReport::text(name, memory);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace bufferscope
