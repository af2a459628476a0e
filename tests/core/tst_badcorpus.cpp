// The bad-input corpus (tests/data/bad, listed in its EXPECTED file) gives exactly the errors and
// warnings written down for it; randomly mutated samples always end in a report or a clear
// error; the fuzzer's reproducers (tests/data/fuzz) load without a crash.
#include "DumpCompare.h"
#include "DumpText.h"
#include "analysis/DumpDiff.h"
#include "analysis/PeakBreakdown.h"
#include "open/ModuleReader.h"
#include "report/Report.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTest>

#include <map>
#include <random>

using namespace bufferscope;
using namespace testutil;

namespace {

const QString kBadDir = QStringLiteral(BUFFERSCOPE_TEST_DATA "/bad");
const QString kFuzzDir = QStringLiteral(BUFFERSCOPE_TEST_DATA "/fuzz");

struct Expected
{
    bool error = false;
    std::vector<std::string> diagnostics;
};

std::map<std::string, Expected> readManifest()
{
    std::map<std::string, Expected> out;
    std::istringstream in(readFile(QString(kBadDir + QStringLiteral("/EXPECTED")).toStdString()));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        const auto tab1 = line.find('\t');
        const auto tab2 = line.find('\t', tab1 + 1);
        if (tab1 == std::string::npos || tab2 == std::string::npos)
            qFatal("EXPECTED: malformed line '%s'", line.c_str());
        Expected &e = out[line.substr(0, tab1)];
        e.error = line.substr(tab1 + 1, tab2 - tab1 - 1) == "error";
        e.diagnostics.push_back(line.substr(tab2 + 1));
    }
    return out;
}

/// Diagnostics name files by the path they were opened with; the manifest uses bare names.
std::string relative(std::string text)
{
    return replaceAll(std::move(text), kBadDir.toStdString() + "/", "");
}

std::int64_t lineCount(const std::string &text)
{
    return std::count(text.begin(), text.end(), '\n') + 1;
}

/// Everything a user can ask of a loaded dump: the analyses, both reports and the breakdown.
void exercise(const Dump &dump)
{
    const auto timeline = MemoryTimeline::compute(dump);
    QVERIFY(timeline.has_value());
    ReportOptions options;
    QVERIFY(!Report::text(dump, *timeline, options).empty());
    QVERIFY(!Report::json(dump, *timeline, options).empty());
    // The invariants the fuzzer checks: the breakdown adds up, a dump equals itself.
    const Breakdown b = Breakdown::compute(dump, Report::reportStep(*timeline, options), 0);
    std::int64_t sum = 0;
    for (const BreakdownRow &row : b.byKind)
        sum += row.bytes;
    QCOMPARE(sum, b.bytes);
    QCOMPARE(b.opNameTree.bytes, b.bytes);
    const DumpDiff self = DumpDiff::compute(dump, *timeline, dump, *timeline);
    QCOMPARE(self.totalDelta(), std::int64_t(0));
    QCOMPARE(self.peakDelta(), std::int64_t(0));
    QVERIFY(self.added.empty() && self.removed.empty() && self.changed.empty());
}

/// One random edit of the kinds damaged files show.
std::string mutate(const std::string &text, std::mt19937_64 &rng)
{
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n' && i + 1 < text.size())
            starts.push_back(i + 1);
    }
    auto pick = [&](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    const std::size_t line = pick(starts.size());
    const std::size_t begin = starts[line];
    const std::size_t end = line + 1 < starts.size() ? starts[line + 1] : text.size();
    std::string out = text;
    switch (pick(6)) {
    case 0: // delete a line
        out.erase(begin, end - begin);
        break;
    case 1: // duplicate a line
        out.insert(begin, text.substr(begin, end - begin));
        break;
    case 2: // truncate anywhere
        out.resize(pick(text.size()));
        break;
    case 3: // flip a bit
        out[pick(out.size())] ^= static_cast<char>(1u << pick(8));
        break;
    case 4: { // a huge or negative number in place of one in the line
        static const char *const kNumbers[] = {"99999999999999999999", "9223372036854775807", "-1",
                                               "-9223372036854775808", "4294967296"};
        const auto digit = out.find_first_of("0123456789", begin);
        if (digit != std::string::npos && digit < end) {
            auto stop = out.find_first_not_of("0123456789", digit);
            if (stop == std::string::npos)
                stop = out.size();
            out.replace(digit, stop - digit, kNumbers[pick(std::size(kNumbers))]);
        }
        break;
    }
    default: // swap two lines
    {
        const std::size_t other = pick(starts.size());
        const std::size_t b2 = starts[other];
        const std::size_t e2 = other + 1 < starts.size() ? starts[other + 1] : text.size();
        if (other != line && e2 <= begin) {
            out = text.substr(0, b2) + text.substr(begin, end - begin) +
                  text.substr(e2, begin - e2) + text.substr(b2, e2 - b2) + text.substr(end);
        }
        break;
    }
    }
    return out;
}

} // namespace

class TestBadCorpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFileIsListed()
    {
        const auto manifest = readManifest();
        const QStringList files = QDir(kBadDir).entryList({QStringLiteral("*.txt")}, QDir::Files);
        QVERIFY(files.size() >= 25);
        for (const QString &f : files)
            QVERIFY2(manifest.count(f.toStdString()),
                     qPrintable(f + QStringLiteral(" is not in EXPECTED")));
        QCOMPARE(manifest.size(), static_cast<std::size_t>(files.size()));
    }

    void corpus_data()
    {
        QTest::addColumn<QString>("file");
        for (const auto &[name, expected] : readManifest())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void corpus()
    {
        QFETCH(QString, file);
        const Expected expected = readManifest().at(file.toStdString());
        const std::string path = QString(kBadDir + QLatin1Char('/') + file).toStdString();
        QElapsedTimer timer;
        timer.start();
        const LoadResult r = LOAD_EVERY_WAY(ModuleReader::loadPath(path, options_));
        if (expected.error) {
            QVERIFY2(!r.ok(), "loaded, but must be refused");
            QCOMPARE(relative(r.error), expected.diagnostics.front());
            QCOMPARE(QString::fromStdString(r.errorFile), QString::fromStdString(path));
            return;
        }
        QVERIFY2(r.ok(), r.error.c_str());
        const Dump &dump = *r.dump;
        // Memory follows the file, never a number in it: no more steps than the file has lines.
        QVERIFY(dump.stepCount() <= lineCount(readFile(path)) + 1);
        const auto timeline = MemoryTimeline::compute(dump);
        QVERIFY(timeline);
        std::vector<std::string> got;
        for (const Diagnostic &d : Report::warnings(dump, *timeline))
            got.push_back(relative(dump.diagnosticText(d)));
        auto joined = [](const std::vector<std::string> &lines) {
            QStringList out;
            for (const std::string &l : lines)
                out << QString::fromStdString(l);
            return out.join(QLatin1Char('\n'));
        };
        QCOMPARE(joined(got), joined(expected.diagnostics));
        exercise(dump);
        QVERIFY(timer.elapsed() < 5000); // a hang guard, not a benchmark
    }

    void missingFileAndDirectory()
    {
        const LoadResult missing = ModuleReader::loadPath(
            QString(kBadDir + QStringLiteral("/no-such-file.txt")).toStdString());
        QVERIFY(!missing.ok());
        QCOMPARE(relative(missing.error), std::string("no-such-file.txt: no such file"));
        const LoadResult dir = ModuleReader::loadPath(kBadDir.toStdString());
        QVERIFY(!dir.ok());
        QCOMPARE(dir.error, kBadDir.toStdString() + ": is a directory, not a dump file");
    }

    void mutations()
    {
        // 400 mutations from a fixed seed: each ends in a dump or in an error naming a line.
        std::mt19937_64 rng(20261121);
        const char *const samples[] = {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                                       "tpu_random_normal", "tpu_dynamic_slice"};
        std::vector<std::string> texts;
        for (const char *s : samples)
            texts.push_back(readFile(samplePath(s)));
        int loaded = 0;
        int refused = 0;
        for (int i = 0; i < 400; ++i) {
            std::string text = texts[static_cast<std::size_t>(i) % texts.size()];
            const int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits; ++e)
                text = mutate(text, rng);
            QElapsedTimer timer;
            timer.start();
            const LoadResult r = LOAD_EVERY_WAY(
                DumpParser::loadBuffer(text, "mutant-buffer-assignment.txt", options_));
            if (r.ok()) {
                ++loaded;
                QVERIFY(r.dump->stepCount() <= lineCount(text) + 1);
                exercise(*r.dump);
            } else {
                ++refused;
                QVERIFY2(r.error.starts_with("mutant-buffer-assignment.txt"), r.error.c_str());
            }
            QVERIFY2(timer.elapsed() < 5000, qPrintable(QStringLiteral("mutation %1").arg(i)));
        }
        qInfo("%d mutants loaded (with warnings), %d refused with an error", loaded, refused);
        QVERIFY(loaded > 0);
    }

    void fuzzReproducers()
    {
        // Minimised inputs from fuzzer findings; each once crashed, hung or misbehaved.
        const QDir dir(kFuzzDir);
        const QStringList files = dir.entryList(QDir::Files);
        for (const QString &f : files) {
            if (f == QLatin1String("README.md"))
                continue;
            const std::string text = readFile(dir.filePath(f).toStdString());
            const LoadResult r =
                LOAD_EVERY_WAY(DumpParser::loadBuffer(text, f.toStdString(), options_));
            if (r.ok())
                exercise(*r.dump);
            else
                QVERIFY2(r.error.starts_with(f.toStdString()), r.error.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestBadCorpus)
#include "tst_badcorpus.moc"
