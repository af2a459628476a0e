// Why memory changed between two compiles (issue 48): values matched across renames and
// restructured fusions (analysis/DumpMatch), and the causes of the change (analysis/DiffCauses).
// The real pair is read from ../shared/real beside the repository (skipped, saying why, where a
// clone does not have it); the other pairs are sample dumps edited by hand so that the cause is
// exact, and every expected figure is worked out from the sample text in the comments.
#include "DumpText.h"
#include "analysis/DumpDiff.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <set>

using namespace bufferscope;
using namespace testutil;

namespace {

QString renamedPair(const char *side)
{
    const QString dir =
        QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real/pairs/renamed/") +
                        QLatin1String(side));
    const QStringList files = QDir(dir).entryList({QStringLiteral("*-buffer-assignment.txt")});
    return files.isEmpty() ? QString() : dir + QLatin1Char('/') + files.front();
}

#define REQUIRE_RENAMED_PAIR()                                                                     \
    do {                                                                                           \
        if (renamedPair("before").isEmpty() || renamedPair("after").isEmpty())                     \
            QSKIP("../shared/real/pairs/renamed is not beside the repository (a clone does not "   \
                  "have it)");                                                                     \
    } while (false)

DumpDiff diffOf(const Loaded &a, const Loaded &b)
{
    return DumpDiff::compute(*a.dump, *a.timeline, *b.dump, *b.timeline);
}

} // namespace

class TestCauses : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The author renamed the jitted function (jit(_tau_channel_step) → jit(_tau_kernel)) and an
    // inner scope (jit(_sigma_channel_pipeline) → jit(_sigma_kij_kernel)), then turned a
    // concatenate into a two-output fusion. 68 values before; the fft chain, the transposes and
    // the parameters are the same program under other op_names, and the parameters swap names
    // (parameter 3 is param.13 before, param.12.0 after).
    void renamedPairMatches()
    {
        REQUIRE_RENAMED_PAIR();
        const Loaded a = loadText(readFile(renamedPair("before").toStdString()));
        const Loaded b = loadText(readFile(renamedPair("after").toStdString()));
        QCOMPARE(a.dump->values.size(), std::size_t(68));
        const DumpDiff d = diffOf(a, b);
        QVERIFY2(d.matched >= 60, qPrintable(QString::number(d.matched)));
        // No name on both the added and the removed list.
        std::set<std::string> gone;
        for (const ValueChange &c : d.removed)
            gone.insert(c.before.name);
        for (const ValueChange &c : d.added)
            QVERIFY2(!gone.count(c.after.name), c.after.name.c_str());
        // fft.0.0 … fft.8.0: each the same instruction on both sides, unchanged.
        for (int k = 0; k <= 8; ++k) {
            const std::string name = "fft." + std::to_string(k) + ".0";
            const auto find = [&name](const Dump &dump) {
                for (std::uint32_t v = 0; v < dump.values.size(); ++v)
                    if (dump.valueName(dump.values[v]) == name)
                        return v;
                return kNone;
            };
            const std::uint32_t va = find(*a.dump);
            QVERIFY(va != kNone);
            QCOMPARE(d.match.valueInB[va], find(*b.dump));
        }
        // Parameters join by number: parameter 3 is param.13 before and param.12.0 after.
        for (const Allocation &alloc : a.dump->allocations) {
            if (!alloc.isParameter)
                continue;
            const std::uint32_t va = a.dump->allocationValues[alloc.firstValue];
            const std::uint32_t vb = d.match.valueInB[va];
            QVERIFY(vb != kNone);
            const Allocation &other = b.dump->allocations[b.dump->values[vb].allocation];
            QCOMPARE(other.parameterNumber, alloc.parameterNumber);
        }
        // The programs have 82 and 106 steps; the aligned rows are not much more than the
        // longer one (each unmatched stretch adds its steps once).
        QVERIFY2(d.match.steps.rows.size() <= 115,
                 qPrintable(QString::number(d.match.steps.rows.size())));
    }
};

QTEST_GUILESS_MAIN(TestCauses)
#include "tst_causes.moc"
