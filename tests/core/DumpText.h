#pragma once

// Helpers shared by the core tests: read a sample dump, rewrite it into another XLA era's
// layout, and summarise the facts two loads must agree on.
#include "analysis/MemoryTimeline.h"
#include "parse/DumpParser.h"

#include <QFile>
#include <QString>

#include <memory>
#include <optional>
#include <sstream>
#include <string>

namespace testutil {

inline std::string samplePath(const char *name)
{
    return std::string(BUFFERSCOPE_TEST_DATA) + "/" + name + ".buffer-assignment.txt";
}

inline std::string readFile(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", path.c_str());
    return f.readAll().toStdString();
}

inline void writeFile(const std::string &path, const std::string &text)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", path.c_str());
    f.write(text.data(), static_cast<qint64>(text.size()));
}

inline std::string replaceAll(std::string text, const std::string &from, const std::string &to)
{
    std::size_t pos = 0;
    while ((pos = text.find(from, pos)) != std::string::npos) {
        text.replace(pos, from.size(), to);
        pos += to.size();
    }
    return text;
}

/// A dump parsed from text, with its timeline (the parse must succeed).
struct Loaded
{
    std::shared_ptr<const bufferscope::Dump> dump;
    std::optional<bufferscope::MemoryTimeline> timeline;
};

inline Loaded loadText(const std::string &text, const std::string &name = "x-buffer-assignment.txt")
{
    bufferscope::LoadResult r = bufferscope::DumpParser::loadBuffer(text, name);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return {r.dump, bufferscope::MemoryTimeline::compute(*r.dump)};
}

/// Everything a user sees of a dump, as one comparable string.
inline std::string facts(const bufferscope::Dump &d)
{
    using namespace bufferscope;
    std::ostringstream out;
    out << "total " << d.totalBytes() << " allocations " << d.allocations.size() << " values "
        << d.values.size() << " steps " << d.maxStep() << "\n";
    for (const Allocation &a : d.allocations)
        out << "A" << a.index << " " << a.size << " c" << a.color << " k"
            << static_cast<int>(a.kind) << " n" << a.valueCount << "\n";
    for (const Value &v : d.values)
        out << "V" << v.id << " " << d.valueKey(v) << " " << v.size << "@" << v.offset << " "
            << v.start << "-" << v.end << " " << d.shapeText(v) << "\n";
    const auto tl = MemoryTimeline::compute(d);
    for (const SpaceTimeline &s : tl->spaces())
        out << "S" << s.memorySpace << " " << s.peak.step << "/" << s.peak.bytes << " "
            << s.logicalPeak.step << "/" << s.logicalPeak.bytes << "\n";
    if (d.hasLiveRanges())
        out << "xla " << tl->xlaPeak().step << "\n";
    out << "printed " << d.printedPeak.present << " " << d.printedPeak.step << " "
        << d.printedPeak.entries.size() << " " << d.printedPeak.bytes << "\n";
    return out.str();
}

} // namespace testutil
