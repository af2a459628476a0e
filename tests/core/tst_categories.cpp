// Memory by category and the levers (issue 62). The training steps are written by
// tests/bench/make_training_step.py as XLA writes a module's proto; every figure below is
// worked out by hand from the step's schedule and HloLiveRange's rules, in the comments beside
// it, not from the code under test.
//
// The step (3 layers, batch 512, width 256): W = f32[256,256] = 262,144 bytes, A = f32[512,256]
// = 524,288 bytes. Parameters: w1..w3 (W, donated), m1..m3 and v1..v3 (W, donated), count
// (s32[], 4 bytes, donated), x (A, not donated): 9W + 4 + A = 2,883,588 bytes, all live from
// step 0. Schedule: params 0-10; forward a1 11, h1 12, a2 13, h2 14, a3 15, loss 16; backward
// g3 17, dw3 18, gh2 19, g2 20, dw2 21, gh1 22, g1 23, dw1 24; update count' 25, m3' 26, v3'
// 27, w3' 28, m2' 29, v2' 30, w2' 31, m1' 32, v1' 33, w1' 34; root tuple 35; end 36.
// Live ranges (definition to last read): a1 11-12, h1 12-23, a2 13-14, h2 14-20, a3 15-17,
// g3 17-19, dw3 18-27, gh2 19-20, g2 20-22, dw2 21-30, gh1 22-23, g1 23-24, dw1 24-33; loss
// 16-36. Temp bytes by step (loss's 4 bytes in its own output allocation): 17: 4A; 19 and 20:
// 4A + W (h1 h2 g3 dw3 gh2 / h1 h2 dw3 gh2 g2); 22, 23: 3A + 2W. The peak is step 19:
// 2,883,588 + 4A + W + 4 = 5,242,888 bytes.
#include "CliRun.h"
#include "analysis/Categories.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/MemoryTimeline.h"
#include "model/Dump.h"
#include "models/AllocationTreeModel.h"
#include "models/ModelCsv.h"
#include "models/ValueTableModel.h"
#include "open/ModuleReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using namespace bufferscope;

namespace {

constexpr std::int64_t W = 262144;
constexpr std::int64_t A = 524288;
constexpr std::int64_t kParams = 9 * W + 4 + A; // 2,883,588

std::shared_ptr<const Dump> load(const std::string &path)
{
    const LoadResult r = ModuleReader::loadPath(path);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return r.dump;
}

struct Analysed
{
    std::shared_ptr<const Dump> dump;
    MemoryTimeline timeline;
    ValueCategories categories;
    CategoryReport report;
};

Analysed analyse(const std::string &path)
{
    Analysed a{load(path), {}, {}, {}};
    a.timeline = *MemoryTimeline::compute(*a.dump);
    a.categories = ValueCategories::of(*a.dump);
    a.report = CategoryReport::of(*a.dump, a.timeline, a.categories);
    return a;
}

Category categoryOf(const Analysed &a, const char *name)
{
    const std::uint32_t v = a.dump->findValue(name);
    if (v == kNone)
        qFatal("no value %s", name);
    return a.categories.category[v];
}

/// Empty when value `name` has category `c` by rule `r`; else what it has, and why.
QString mismatch(const Analysed &a, const char *name, Category c, CategoryReason r)
{
    const std::uint32_t v = a.dump->findValue(name);
    if (v == kNone)
        return QStringLiteral("no value %1").arg(QLatin1String(name));
    if (a.categories.category[v] == c && a.categories.reason[v] == r)
        return {};
    return QStringLiteral("%1 is %2 (%3)")
        .arg(QLatin1String(name), QLatin1String(categoryName(a.categories.category[v])),
             QString::fromStdString(a.categories.evidence(*a.dump, v)));
}
#define EXPECT_CATEGORY(a, name, c, r)                                                             \
    do {                                                                                           \
        const QString why_ = mismatch(a, name, c, r);                                              \
        QVERIFY2(why_.isEmpty(), qPrintable(why_));                                                \
    } while (false)

/// The categories' held bytes add up to what the device holds, and their peak bytes to the
/// peak.
bool addsUp(const Analysed &a)
{
    std::int64_t held = 0;
    std::int64_t peak = 0;
    for (const CategoryTotals &t : a.report.totals) {
        held += t.heldBytes;
        peak += t.peakBytes;
    }
    return held == MemoryAnalysis::of(*a.dump).device.held() && peak == a.report.peakBytes;
}

const Lever *lever(const CategoryReport &r, Lever::Kind kind)
{
    for (const Lever &l : r.levers)
        if (l.kind == kind)
            return &l;
    return nullptr;
}

QStringList names(const Dump &dump, const std::vector<std::uint32_t> &values)
{
    QStringList out;
    for (std::uint32_t v : values)
        out << QString::fromStdString(std::string(dump.valueName(dump.values[v])));
    return out;
}

} // namespace

class TestCategories : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_step;
    std::string m_remat;

    std::string make(const QString &name, const QStringList &extra)
    {
        const QString out = QDir::isAbsolutePath(name) ? name : m_dir.filePath(name);
        QProcess p;
        p.start(
            QStringLiteral("python3"),
            QStringList{QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/tests/bench/make_training_step.py"),
                        out} +
                extra);
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            qFatal("make_training_step.py failed: %s", p.readAllStandardError().constData());
        return out.toStdString();
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("protoc")).isEmpty())
            QSKIP("python3 or protoc is not installed: the training steps cannot be made");
        m_step = make(QStringLiteral("module_0001.jit_train_step.hlo.pb"), {});
        m_remat = make(QStringLiteral("module_0002.jit_train_step.hlo.pb"),
                       {QStringLiteral("--remat"), QStringLiteral("1")});
    }

    // An FSDP-shaped combined all-gather (tests/bench/make_wide_module.py gather 300 16 3000:
    // 300 weights, each read 16 times, 3,000 gathered parts read by a backward fusion that is
    // returned): the weights are weights (named params[...], with a gradient of their shape),
    // the all-gather's 3,001 values gathered weights, the fusion a gradient; and the outputs'
    // decisions walk the all-gather's 4,800 operands once, not once per output (3,000 × 4,800
    // = 14.4 million before, issue 74).
    void wideGatherWalksItsOperandsOnce()
    {
        QTemporaryDir dir; // its own: the other tests read m_dir as a run
        const QString out = dir.filePath(QStringLiteral("wide-buffer-assignment.txt"));
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/tests/bench/make_wide_module.py"), out,
                 QStringLiteral("gather"), QStringLiteral("300"), QStringLiteral("16"),
                 QStringLiteral("3000")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const Analysed a = analyse(out.toStdString());
        QVERIFY(a.categories.training);
        std::size_t weights = 0;
        std::size_t gathered = 0;
        for (const Category c : a.categories.category) {
            weights += c == Category::Weights;
            gathered += c == Category::GatheredWeights;
        }
        QCOMPARE(weights, std::size_t(300));
        QCOMPARE(gathered, std::size_t(3001));
        QCOMPARE(categoryOf(a, "fusion"), Category::Gradients);
        const std::uint64_t uses = 300 * 16 + 3000;
        QVERIFY2(a.categories.operandsWalked <= uses,
                 qPrintable(QString::number(a.categories.operandsWalked)));
    }

    // Every value's category, from the data flow alone (the parameters have no names).
    void everyValueByHand()
    {
        const Analysed a = analyse(m_step);
        QVERIFY(a.categories.training);
        QVERIFY(a.categories.update); // the Adam fusions read the parameters
        QCOMPARE(a.categories.firstBackwardStep, std::int64_t(17)); // g3
        const auto is = [&a](const char *name, Category c) {
            if (categoryOf(a, name) != c)
                qFatal("%s is %s, not %s", name, categoryName(categoryOf(a, name)).data(),
                       categoryName(c).data());
        };
        // Read by the forward pass's dots, donated: weights. Read only by the update:
        // optimizer state; the donated s32[] is the step counter. x: read only, not donated.
        for (const char *w : {"w1", "w2", "w3", "w1_new", "w2_new", "w3_new"})
            is(w, Category::Weights);
        for (const char *o :
             {"m1", "m2", "m3", "v1", "v2", "v3", "count", "m1_new", "v3_new", "count_new"})
            is(o, Category::OptimizerState);
        QCOMPARE(a.categories.reason[a.dump->findValue("count")], CategoryReason::StepCounter);
        is("x", Category::Inputs);
        // h1 (read by dw2, g1), h2 (dw3, g2) and a3 (g3): forward, read backward.
        for (const char *s : {"h1", "h2", "a3"})
            is(s, Category::Activations);
        // a1 and a2 are read only by the next tanh: forward temporaries.
        for (const char *t : {"a1", "a2", "g3", "gh2", "g2", "gh1", "g1"})
            is(t, Category::Temporaries);
        for (const char *g : {"dw1", "dw2", "dw3"})
            is(g, Category::Gradients);
        is("loss", Category::Outputs);
        is("root", Category::Outputs);
    }

    // Held while it runs (argument + output − alias + temp = 2,883,588 + 2,359,392 − 2,359,300
    // + 6,029,312 = 8,912,992) and live at the peak, by category.
    void bytesByHand()
    {
        const Analysed a = analyse(m_step);
        const CategoryReport &r = a.report;
        QCOMPARE(r.heldBytes, std::int64_t(8912992));
        QCOMPARE(r.peakStep, std::int64_t(19));
        QCOMPARE(r.peakBytes, std::int64_t(5242888));
        // Parameters whole: 3W weights, 6W + 4 optimizer state, A input. Outputs: the loss's 4
        // bytes and the root tuple's 11 × 8-byte table. The temp (10A + 3W = 6,029,312) by what
        // it holds at its busiest step, 19: h1 h2 (2A activations), g3 gh2 (2A temporaries),
        // dw3 (W gradient); the other 6,029,312 − (4A + W) = 3,670,016 are never live with them.
        QCOMPARE(r.of(Category::Weights).heldBytes, 3 * W);
        QCOMPARE(r.of(Category::OptimizerState).heldBytes, 6 * W + 4);
        QCOMPARE(r.of(Category::Inputs).heldBytes, A);
        // The three are the parameters, whole.
        QCOMPARE(r.of(Category::Weights).heldBytes + r.of(Category::OptimizerState).heldBytes +
                     r.of(Category::Inputs).heldBytes,
                 kParams);
        QCOMPARE(r.of(Category::Outputs).heldBytes, std::int64_t(4 + 88));
        QCOMPARE(r.of(Category::Activations).heldBytes, 2 * A);
        QCOMPARE(r.of(Category::Temporaries).heldBytes, 2 * A);
        QCOMPARE(r.of(Category::Gradients).heldBytes, W);
        QCOMPARE(r.of(Category::Other).heldBytes, std::int64_t(3670016));
        // At step 19: every parameter, h1 h2, g3 gh2, dw3 and the loss.
        QCOMPARE(r.of(Category::Weights).peakBytes, 3 * W);
        QCOMPARE(r.of(Category::OptimizerState).peakBytes, 6 * W + 4);
        QCOMPARE(r.of(Category::Inputs).peakBytes, A);
        QCOMPARE(r.of(Category::Activations).peakBytes, 2 * A);
        QCOMPARE(r.of(Category::Temporaries).peakBytes, 2 * A);
        QCOMPARE(r.of(Category::Gradients).peakBytes, W);
        QCOMPARE(r.of(Category::Outputs).peakBytes, std::int64_t(4));
        QCOMPARE(r.of(Category::GatheredWeights).values, std::int64_t(0));
        QVERIFY(addsUp(a));
    }

    // With each forward dot reading a copy of its weights (--copy-weights: wc1..wc3, made just
    // before their dots, as a cast or an FSDP all-gather is), the copies are gathered weights,
    // W each, and the weights stay weights (the forward pass reads them through the copies).
    // The copies are never live at the peak (three steps later, 22: the same bytes).
    void gatheredWeights()
    {
        const Analysed a = analyse(make(QStringLiteral("module_0003.jit_train_step.hlo.pb"),
                                        {QStringLiteral("--copy-weights")}));
        for (const char *c : {"wc1", "wc2", "wc3"}) {
            QCOMPARE(categoryOf(a, c), Category::GatheredWeights);
            QCOMPARE(a.categories.reason[a.dump->findValue(c)],
                     CategoryReason::GatheredFromWeights);
        }
        for (const char *w : {"w1", "w2", "w3"})
            QCOMPARE(categoryOf(a, w), Category::Weights);
        QCOMPARE(a.report.of(Category::GatheredWeights).valueBytes, 3 * W);
        QCOMPARE(a.report.of(Category::GatheredWeights).peakBytes, std::int64_t(0));
        QCOMPARE(a.report.peakStep, std::int64_t(22));
        QCOMPARE(a.report.peakBytes, std::int64_t(5242888));
    }

    // The traps real steps set (--traps, parameters unnamed; make_training_step.py): an
    // operand-free partition-id and constant and a zero cotangent broadcast from the constant,
    // all in the backward scope, at steps 11-13 right after the parameters; each weight read by
    // its dot through all-gather, convert (outside any jvp scope), copy and bitcast (four moves,
    // wg wb wl wt, steps 14-17 for layer 1, 20-23, 26-29); x differentiated (gx = dot(g1, w1),
    // returned, step 40). Schedule: a1 18, h1 19, a2 24, h2 25, a3 30, loss 31, g3 32.
    void trapsByHand()
    {
        const std::string path =
            make(QStringLiteral("module_0004.jit_train_step.hlo.pb"), {QStringLiteral("--traps")});
        const Analysed a = analyse(path);
        QVERIFY(a.categories.training);
        QVERIFY(a.categories.update);
        // The first op that computes from data in the backward scope: g3, not the
        // partition-id at 11.
        QCOMPARE(a.categories.firstBackwardStep, std::int64_t(32));
        // Nothing forward runs after it, so nothing is recomputed.
        QCOMPARE(a.categories.recomputed, std::int64_t(0));
        // The dots read the weights four moves away: donated, read forward.
        for (const char *w : {"w1", "w2", "w3"})
            EXPECT_CATEGORY(a, w, Category::Weights, CategoryReason::DonatedReadForward);
        // Each move is made from weights alone.
        for (const char *g : {"wg1", "wb1", "wl1", "wt1", "wg3", "wb3", "wl3", "wt3"})
            EXPECT_CATEGORY(a, g, Category::GatheredWeights, CategoryReason::GatheredFromWeights);
        for (const char *o : {"m1", "m3", "v1", "v3"})
            EXPECT_CATEGORY(a, o, Category::OptimizerState, CategoryReason::DonatedReadByUpdate);
        EXPECT_CATEGORY(a, "count", Category::OptimizerState, CategoryReason::StepCounter);
        // x has its gradient returned, but the step updates its weights and not x: an input.
        EXPECT_CATEGORY(a, "x", Category::Inputs, CategoryReason::DifferentiatedInput);
        // h1, h2 and a3 are defined forward (19, 25, 30) and read backward: saved for it.
        for (const char *s : {"h1", "h2", "a3"})
            EXPECT_CATEGORY(a, s, Category::Activations, CategoryReason::SavedForBackward);
        EXPECT_CATEGORY(a, "gx", Category::Gradients, CategoryReason::BackwardReturned);
        QVERIFY(a.categories.disagreements.empty());
        QVERIFY(addsUp(a));

        // x is read only before gx (A bytes, returned, live 40 to the end, 52) is written, so
        // donating x lets gx sit in x's bytes: the device holds A less, and the live bytes lose
        // A from step 40 on (x's bytes are live to the end anyway, a read-only argument).
        const Lever *donate = lever(a.report, Lever::Kind::Donate);
        QVERIFY(donate);
        QVERIFY(donate->exact);
        QCOMPARE(names(*a.dump, donate->values), QStringList{QStringLiteral("x")});
        QCOMPARE(donate->savingBytes, A);
        const std::vector<std::int64_t> curve =
            CategoryReport::leverCurve(*a.dump, a.timeline, a.categories, Lever::Kind::Donate);
        const std::vector<std::int64_t> &live = a.timeline.primary()->liveBytes;
        QCOMPARE(curve.size(), live.size());
        for (std::size_t t = 0; t < live.size(); ++t)
            QCOMPARE(curve[t], live[t] - (t >= 40 ? A : 0));
        QCOMPARE(donate->newPeakBytes, *std::max_element(curve.begin(), curve.end()));
        // Its A is a share of what the device holds, not of the peak: in the report's text,
        // its JSON and the window's percent, one decision (issue 75).
        QCOMPARE(donate->whole(), Lever::Whole::Held);
        QCOMPARE(a.report.wholeBytes(*donate), a.report.heldBytes);
        for (const Lever &l : a.report.levers)
            if (l.kind != Lever::Kind::Donate) {
                QCOMPARE(l.whole(), Lever::Whole::Peak);
                QCOMPARE(a.report.wholeBytes(l), a.report.peakBytes);
            }
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("report"), QString::fromStdString(path)});
        QCOMPARE(text.code, 0);
        QCOMPARE(text.out.count("(of what the device holds)"), 1);
        // A = 524,288 bytes = 512 KiB, right-aligned in ten columns.
        QVERIFY2(text.out.contains("donate   saves   512.0KiB        524288 bytes  exact (of what "
                                   "the device holds)"),
                 text.out.constData());
        const testutil::CliRun json = testutil::runBufferscope(
            {QStringLiteral("report"), QStringLiteral("--json"), QString::fromStdString(path)});
        QCOMPARE(json.code, 0);
        int levers = 0;
        for (const QJsonValue &l :
             QJsonDocument::fromJson(json.out).object().value(QStringLiteral("levers")).toArray()) {
            ++levers;
            QCOMPARE(l[QStringLiteral("of")].toString(),
                     l[QStringLiteral("kind")] == QStringLiteral("donate")
                         ? QStringLiteral("held_bytes")
                         : QStringLiteral("peak_bytes"));
        }
        QCOMPARE(levers, static_cast<int>(a.report.levers.size()));
    }

    // The same step with pytree paths (--names): params['dense_k']['kernel'] weights,
    // opt_state[0].mu/nu[…] optimizer state, state.step the counter, and x, inputs['weights'],
    // a batch although a word of it says weights. Names and data flow agree on every one.
    void namesByHand()
    {
        const Analysed a = analyse(make(QStringLiteral("module_0005.jit_train_step.hlo.pb"),
                                        {QStringLiteral("--traps"), QStringLiteral("--names")}));
        for (const char *w : {"w1", "w2", "w3"})
            EXPECT_CATEGORY(a, w, Category::Weights, CategoryReason::NamedWeights);
        for (const char *o : {"m1", "m2", "m3", "v1", "v2", "v3"})
            EXPECT_CATEGORY(a, o, Category::OptimizerState, CategoryReason::NamedOptimizer);
        EXPECT_CATEGORY(a, "count", Category::OptimizerState, CategoryReason::NamedStep);
        EXPECT_CATEGORY(a, "x", Category::Inputs, CategoryReason::NamedInputs);
        QVERIFY(a.categories.disagreements.empty());

        // x named params['embed'] (--misnamed-x): the name goes first, and the evidence says
        // what the data flow said (a differentiated input).
        const Analysed m = analyse(make(QStringLiteral("module_0006.jit_train_step.hlo.pb"),
                                        {QStringLiteral("--traps"), QStringLiteral("--names"),
                                         QStringLiteral("--misnamed-x")}));
        const std::uint32_t x = m.dump->findValue("x");
        QCOMPARE(m.categories.category[x], Category::Weights);
        QCOMPARE(m.categories.disagreements.size(), std::size_t(1));
        QCOMPARE(m.categories.disagreements[0].value, x);
        QCOMPARE(m.categories.disagreements[0].flow, Category::Inputs);
        const std::string why = m.categories.evidence(*m.dump, x);
        QVERIFY2(why.find("the data flow says inputs") != std::string::npos, why.c_str());
    }

    // A model scanned over its layers (--scan; make_training_step.py draws it): the weights
    // stacked W [4,256,256], a forward while loop wf whose body (steps 13-24, its condition
    // 9-12) runs a layer and stacks its input into R [4,512,256], a backward loop wb (condition
    // 32-35, body 36-50) that reads R and W by dynamic-slice and stacks dW, then Adam. No
    // parameter is named: all from the data flow and the loops' carries.
    void scanOverLayersByHand()
    {
        const Analysed a = analyse(
            make(QStringLiteral("module_0007.jit_train_step.hlo.pb"),
                 {QStringLiteral("--scan"), QStringLiteral("--layers"), QStringLiteral("4")}));
        QVERIFY(a.categories.training);
        QVERIFY(a.categories.update);
        // g = 2·hL at 29 is the first backward op computing from the forward pass's work (the
        // zero cotangent dW0 at 30 is a broadcast of a constant).
        QCOMPARE(a.categories.firstBackwardStep, std::int64_t(29));
        QCOMPARE(a.categories.recomputed, std::int64_t(0));
        // W is read forward inside the forward loop's body (f_wi, a jvp-scoped dynamic-slice)
        // and donated: weights. M and V only by the update; count the step counter.
        EXPECT_CATEGORY(a, "W", Category::Weights, CategoryReason::DonatedReadForward);
        for (const char *o : {"M", "V"})
            EXPECT_CATEGORY(a, o, Category::OptimizerState, CategoryReason::DonatedReadByUpdate);
        EXPECT_CATEGORY(a, "count", Category::OptimizerState, CategoryReason::StepCounter);
        EXPECT_CATEGORY(a, "x", Category::Inputs, CategoryReason::ReadOnlyArgument);
        // A layer's weights sliced out of the stack, in either loop: gathered weights.
        for (const char *g : {"f_wi", "b_wi"})
            EXPECT_CATEGORY(a, g, Category::GatheredWeights, CategoryReason::GatheredFromWeights);
        // The residuals the forward loop leaves (wf{3}) are read by the backward loop: saved
        // for it. Before the loop's result, the same buffer is the zeros it starts from (R0),
        // the condition's and body's carry (f_pc{3}, f_p{3}) and the body's new stack (f_Rn):
        // carried by the loop, activations as well.
        EXPECT_CATEGORY(a, "wf{3}", Category::Activations, CategoryReason::SavedForBackward);
        for (const char *r : {"R0", "f_pc{3}", "f_p{3}", "f_Rn"})
            EXPECT_CATEGORY(a, r, Category::Activations, CategoryReason::LoopCarried);
        // The backward loop's result wb{4} (dW) is read by the update: gradients; so is what
        // carries it through the loop, from the zeros dW0 on.
        EXPECT_CATEGORY(a, "wb{4}", Category::Gradients, CategoryReason::BackwardToUpdate);
        for (const char *g : {"dW0", "b_pc{4}", "b_p{4}", "b_dWn"})
            EXPECT_CATEGORY(a, g, Category::Gradients, CategoryReason::LoopCarried);
        // The cotangent the backward loop carries (g, b_p{1}, b_gn, wb{1}) is read by nothing
        // after it: backward temporaries, as are the body's dots.
        for (const char *t : {"g", "b_p{1}", "b_gn", "wb{1}", "b_hi", "b_dw", "b_gh"})
            QCOMPARE(categoryOf(a, t), Category::Temporaries);
        const std::string why = a.categories.evidence(*a.dump, a.dump->findValue("b_p{4}"));
        QVERIFY2(why.find("while loop wb") != std::string::npos &&
                     why.find("wb{4}, which is gradients") != std::string::npos,
                 why.c_str());

        // The peak is step 45 (b_gh), 8,912,908 bytes: W M V (3 × 1,048,576), count 4, x 524,288,
        // wf{3} 2,097,152, the loss 4, and the backward body's b_p{0} 4, b_p{1} 524,288,
        // b_p{4} 1,048,576, b_hi 524,288, b_wi 262,144, b_dw 262,144, b_gh 524,288.
        const CategoryReport &r = a.report;
        QCOMPARE(r.peakStep, std::int64_t(45));
        QCOMPARE(r.peakBytes, std::int64_t(8912908));
        QCOMPARE(r.of(Category::Weights).peakBytes, std::int64_t(1048576));
        QCOMPARE(r.of(Category::OptimizerState).peakBytes, std::int64_t(2 * 1048576 + 4));
        QCOMPARE(r.of(Category::Inputs).peakBytes, std::int64_t(524288));
        QCOMPARE(r.of(Category::Activations).peakBytes, std::int64_t(2097152));
        QCOMPARE(r.of(Category::Gradients).peakBytes, std::int64_t(1048576));
        QCOMPARE(r.of(Category::GatheredWeights).peakBytes, std::int64_t(262144));
        QCOMPARE(r.of(Category::Temporaries).peakBytes,
                 std::int64_t(4 + 524288 + 524288 + 262144 + 524288));
        QCOMPARE(r.of(Category::Outputs).peakBytes, std::int64_t(4));
        QVERIFY(addsUp(a));
        // The backward loop reads every layer's residuals: nothing is saved across the peak
        // that the backward pass does not read at it, and remat, which would save nothing, is
        // not offered.
        QVERIFY(!lever(r, Lever::Kind::Remat));
    }

    // An optimizer update jitted alone (--update-only: update(grads, state, params), nothing
    // donated, no jvp or transpose scope): its arguments are what their pytree paths say, and
    // the new moments and weights it returns are new values of the parameters they are
    // computed from (mu_new from mu and g: mu, the one of them that is state or weights). In
    // a folder of its own: the summary below reads the training steps' folder.
    void optimizerUpdateAlone()
    {
        const QTemporaryDir alone; // make() writes an absolute path where it is told
        const Analysed a =
            analyse(make(alone.filePath(QStringLiteral("module_0008.jit_update.hlo.pb")),
                         {QStringLiteral("--update-only")}));
        QVERIFY(!a.categories.training);
        EXPECT_CATEGORY(a, "g", Category::Gradients, CategoryReason::NamedGradients);
        for (const char *o : {"mu", "nu"})
            EXPECT_CATEGORY(a, o, Category::OptimizerState, CategoryReason::NamedOptimizer);
        EXPECT_CATEGORY(a, "p", Category::Weights, CategoryReason::NamedWeights);
        for (const char *o : {"mu_new", "nu_new"})
            EXPECT_CATEGORY(a, o, Category::OptimizerState, CategoryReason::NewValueOfParameter);
        EXPECT_CATEGORY(a, "p_new", Category::Weights, CategoryReason::NewValueOfParameter);
        // Seven f32[256,256] (262,144 bytes each) and the root's 3 × 8-byte table, all live at
        // the last step: 2 weights, 4 optimizer state, 1 gradient.
        QCOMPARE(a.report.of(Category::Weights).peakBytes, std::int64_t(2 * 262144));
        QCOMPARE(a.report.of(Category::OptimizerState).peakBytes, std::int64_t(4 * 262144));
        QCOMPARE(a.report.of(Category::Gradients).peakBytes, std::int64_t(262144));
        QVERIFY(addsUp(a));
    }

    // The remat lever on the step, against the same step with h1 recomputed by hand.
    void rematAgainstTheRematerializedStep()
    {
        const Analysed a = analyse(m_step);
        const Lever *remat = lever(a.report, Lever::Kind::Remat);
        QVERIFY(remat);
        // h1 leaves the curve between its last forward read (13) and its first backward read
        // (21); h2's gap (16-17) and a3's (none) miss the peak. Step 19 loses A; steps 22-23
        // (3A + 2W of temps, h1 back) become the peak: 2,883,588 + 3A + 2W + 4 = 4,980,744.
        QCOMPARE(names(*a.dump, remat->values), QStringList{QStringLiteral("h1")});
        QCOMPARE(remat->newPeakBytes, std::int64_t(4980744));
        QCOMPARE(remat->savingBytes, std::int64_t(262144));
        QVERIFY(!remat->exact);
        // Recomputing h1 runs its tanh fusion and a1 = dot(x, w1): 2 × 512·256 × 256 FLOPs.
        QCOMPARE(remat->flops, std::int64_t(2) * 512 * 256 * 256);

        // The step with h1 recomputed: the forward drops it after a2 (h1 12-13); the backward
        // runs ra1 21, rh1 22 before dw2 23, gh1 24, g1 25, dw1 26. Temps peak at step 24:
        // g2 dw3 rh1 dw2 gh1 = 3A + 2W, plus the loss: 4,980,744, as the lever said.
        const Analysed r = analyse(m_remat);
        QCOMPARE(r.report.peakBytes, std::int64_t(4980744));
        QCOMPARE(r.report.peakStep, std::int64_t(24));
        QCOMPARE(a.report.peakBytes - r.report.peakBytes, remat->savingBytes);
        // The recomputation is seen as such: two values in a rematted_computation scope, and
        // h1 is now a forward temporary.
        QCOMPARE(r.categories.recomputed, std::int64_t(2));
        QCOMPARE(categoryOf(r, "h1"), Category::Temporaries);
        QCOMPARE(categoryOf(r, "rh1"), Category::Temporaries);
        QCOMPARE(r.categories.reason[r.dump->findValue("rh1")], CategoryReason::Recomputed);
        // At its peak only h2 is saved across (its gap, 16-17, is not the peak): nothing to
        // save, and a lever that saves nothing is not listed.
        QVERIFY(!lever(r.report, Lever::Kind::Remat));
    }

    // The other levers, by hand on the same curve.
    void otherLeversByHand()
    {
        const Analysed a = analyse(m_step);
        // Shard: weights and optimizer state halved everywhere; they are all live at step 19,
        // which stays the peak: (3W + 6W + 4) / 2 = 1,179,650.
        const Lever *shard = lever(a.report, Lever::Kind::Shard);
        QVERIFY(shard);
        QCOMPARE(shard->savingBytes, std::int64_t(1179650));
        // Dtype: f32 weights, activations and gradients halved. Step 19 loses 3W/2 + (h1 + h2)/2
        // + dw3/2 = 393,216 + 524,288 + 131,072 = 1,048,576 and stays the peak (step 22 loses
        // 393,216 + h1/2 + (dw3 + dw2)/2 = 917,504 from 4,980,744).
        const Lever *dtype = lever(a.report, Lever::Kind::Dtype);
        QVERIFY(dtype);
        QCOMPARE(dtype->savingBytes, std::int64_t(1048576));
        // Offload: h1 as for remat, and the optimizer state (6W + 4) off the device until the
        // update first reads it (count 25, m3 26 … v1 33): step 22 is the peak at 4,980,744 −
        // 1,572,868 = 3,407,876; saving 1,835,012. h1 and the seven optimizer arrays leave step 19.
        const Lever *offload = lever(a.report, Lever::Kind::Offload);
        QVERIFY(offload);
        QCOMPARE(offload->savingBytes, std::int64_t(1835012));
        QCOMPARE(offload->values.size(), std::size_t(8));
        // The optimizer state alone: step 19 loses 6W + 4 and stays the peak (3,670,020 against
        // step 22's 3,407,876): 1,572,868 bytes, 1.50 MiB; the rest is h1, as remat frees it.
        QVERIFY(offload->text.find("The optimizer state alone would save 1.50MiB") !=
                std::string::npos);
        // x is no output's shape: nothing to donate.
        QVERIFY(!lever(a.report, Lever::Kind::Donate));
        // Largest saving first.
        for (std::size_t k = 1; k < a.report.levers.size(); ++k)
            QVERIFY(a.report.levers[k - 1].savingBytes >= a.report.levers[k].savingBytes);
    }

    // Two activations on one buffer (--share-h1: h1c, a forward copy of h1 placed over h1's
    // own bytes, read by dw2 where g1 reads h1): the curve counts those bytes once, so the
    // step holds what the plain step holds (peak 5,242,888 bytes, one step later), and every
    // lever saves what it saves there (otherLeversByHand, rematAgainstTheRematerializedStep):
    // a lever never takes the shared bytes off twice.
    void sharedBytesComeOffOnce()
    {
        const Analysed a = analyse(make(QStringLiteral("module_0007.jit_train_step.hlo.pb"),
                                        {QStringLiteral("--share-h1")}));
        QCOMPARE(categoryOf(a, "h1"), Category::Activations);
        QCOMPARE(categoryOf(a, "h1c"), Category::Activations);
        QCOMPARE(a.report.peakStep, std::int64_t(20));
        QCOMPARE(a.report.peakBytes, std::int64_t(5242888));
        QCOMPARE(a.report.of(Category::Activations).peakBytes, 2 * A); // h1 (with h1c), h2
        const std::pair<Lever::Kind, std::int64_t> expected[] = {{Lever::Kind::Dtype, 1048576},
                                                                 {Lever::Kind::Shard, 1179650},
                                                                 {Lever::Kind::Offload, 1835012},
                                                                 {Lever::Kind::Remat, 262144}};
        for (const auto &[kind, saving] : expected) {
            const Lever *l = lever(a.report, kind);
            QVERIFY(l);
            QCOMPARE(l->savingBytes, saving);
        }
    }

    // The Values table and the Allocations tree carry a Category column, and so does their CSV
    // export: on the plain step w1 is weights, h1 an activation, dw1 a gradient
    // (everyValueByHand), the parameter allocation of w1 weights, the temp allocation of
    // values of several categories the one holding most of its bytes: 10A + 3W in it, of which
    // the temporaries a1 a2 g3 gh2 g2 gh1 g1 hold 7A (activations 3A, gradients 3W).
    void tablesSayIt()
    {
        const Analysed a = analyse(m_step);
        auto categories = std::make_shared<const ValueCategories>(a.categories);
        ValueTableModel values;
        values.setDump(a.dump);
        QCOMPARE(values.index(0, ValueTableModel::CategoryColumn).data().toString(),
                 QStringLiteral("—")); // not given yet
        values.setCategories(categories);
        QCOMPARE(values.headerData(ValueTableModel::CategoryColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Category"));
        const auto cell = [&](const char *name) {
            return values
                .index(values.rowOfValue(static_cast<int>(a.dump->findValue(name))),
                       ValueTableModel::CategoryColumn)
                .data()
                .toString();
        };
        QCOMPARE(cell("w1"), QStringLiteral("Weights"));
        QCOMPARE(cell("h1"), QStringLiteral("Activations"));
        QCOMPARE(cell("dw1"), QStringLiteral("Gradients"));
        QCOMPARE(cell("m1"), QStringLiteral("Optimizer state"));
        QVERIFY(values
                    .index(values.rowOfValue(static_cast<int>(a.dump->findValue("h1"))),
                           ValueTableModel::CategoryColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("saved for it")));
        // Sorted by category: the report's order, weights first.
        values.sort(ValueTableModel::CategoryColumn, Qt::AscendingOrder);
        QCOMPARE(values.index(0, ValueTableModel::CategoryColumn).data().toString(),
                 QStringLiteral("Weights"));
        const QByteArray csv = ModelCsv::write(values);
        QVERIFY(csv.left(csv.indexOf('\n')).contains("Category"));
        QVERIFY(csv.contains(",Activations,"));

        AllocationTreeModel tree;
        tree.setDump(a.dump);
        tree.setCategories(categories);
        const Dump &d = *a.dump;
        for (int row = 0; row < tree.rowCount(); ++row) {
            const Allocation &al = d.allocations[static_cast<std::size_t>(row)];
            const QString c =
                tree.index(row, AllocationTreeModel::CategoryColumn).data().toString();
            if (al.isParameter && al.parameterNumber == 0) // w1
                QCOMPARE(c, QStringLiteral("Weights"));
            if (al.kind == AllocationKind::Temp)
                QCOMPARE(c, QStringLiteral("Temporaries"));
        }
        QVERIFY(ModelCsv::write(tree).contains(",Weights"));
    }

    // diff says which category changed: remat of layer 1 takes the activations off the peak
    // (before: h1 h2 at step 19, 2A; after, at step 24: none of h2 (14-20) or a3 (15-17) is
    // live); summary gives each function's largest compile by category (the parameters are
    // the same in both: 3W weights, 6W + 4 optimizer state, A input).
    void diffAndSummarySayIt()
    {
        const testutil::CliRun diff = testutil::runBufferscope(
            {QStringLiteral("diff"), QStringLiteral("--json"), QString::fromStdString(m_step),
             QString::fromStdString(m_remat)});
        QCOMPARE(diff.code, 0);
        QJsonObject activations;
        for (const QJsonValue &c : QJsonDocument::fromJson(diff.out)
                                       .object()
                                       .value(QStringLiteral("categories"))
                                       .toArray())
            if (c[QStringLiteral("name")] == QStringLiteral("activations"))
                activations = c.toObject();
        QCOMPARE(activations.value(QStringLiteral("peak_before")).toInteger(), 2 * A);
        QCOMPARE(activations.value(QStringLiteral("peak_after")).toInteger(), 0);
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("diff"), QString::fromStdString(m_step),
                                      QString::fromStdString(m_remat)});
        QVERIFY(text.out.contains("By category (held while it runs; live at each peak)"));
        QVERIFY(text.out.contains("activations       held 1.00MiB -> 0B"));

        const QString folder = QFileInfo(QString::fromStdString(m_step)).absolutePath();
        const testutil::CliRun summary =
            testutil::runBufferscope({QStringLiteral("summary"), QStringLiteral("--json"), folder});
        QCOMPARE(summary.code, 0);
        const QJsonArray families = QJsonDocument::fromJson(summary.out)
                                        .object()
                                        .value(QStringLiteral("families"))
                                        .toArray();
        QCOMPARE(families.size(), 1);
        std::map<QString, qint64> held;
        for (const QJsonValue &c : families.at(0)[QStringLiteral("categories")].toArray())
            held[c[QStringLiteral("name")].toString()] =
                c[QStringLiteral("held_bytes")].toInteger();
        QCOMPARE(held[QStringLiteral("weights")], 3 * W);
        QCOMPARE(held[QStringLiteral("optimizer_state")], 6 * W + 4);
        QCOMPARE(held[QStringLiteral("inputs")], A);
        const testutil::CliRun summaryText =
            testutil::runBufferscope({QStringLiteral("summary"), folder});
        QVERIFY(summaryText.out.contains("a training step; held by category: "));
    }

    // The real forward and backward pass of ../shared/real/training (JAX + TransformerEngine
    // on an AMD GPU, value_and_grad of an attention loss, no optimizer), by what XLA wrote in
    // it: three differentiated arguments, qkv bf16[2,2048,3,16,128] (2·2048·3·16·128·2 =
    // 50,331,648 bytes) and weights_o[0], weights_o[1] bf16[2048,6144] (25,165,824 bytes
    // each), whose gradients of the same shapes are its outputs; the rngs and seqlens are read
    // only. Nothing is donated, so donating the three would let XLA write the gradients over
    // them: 96 MiB less held, exactly.
    void realTrainingStep()
    {
        const QString path = QDir::cleanPath(QStringLiteral(
            BUFFERSCOPE_SOURCE_DIR "/../shared/real/training/jit_loss_fn(17).hlo_proto.pb"));
        if (!QFileInfo::exists(path))
            QSKIP("../shared/real is not here: the real dumps live beside the repository, which a "
                  "clone does not have");
        const Analysed a = analyse(path.toStdString());
        QVERIFY(a.categories.training);
        QVERIFY(!a.categories.update); // a loss and its gradients: no optimizer
        // weights_o[0] and [1] are named weights; qkv, differentiated too, is not: an input.
        for (const char *w : {"weights_o_0_.1", "weights_o_1_.1"}) {
            QCOMPARE(categoryOf(a, w), Category::Weights);
            QCOMPARE(a.categories.reason[a.dump->findValue(w)], CategoryReason::WeightWithGradient);
        }
        QCOMPARE(categoryOf(a, "qkv.1"), Category::Inputs);
        QCOMPARE(a.categories.reason[a.dump->findValue("qkv.1")],
                 CategoryReason::DifferentiatedInput);
        for (const char *i : {"rngs_0_.1", "rngs_1_.1", "seqlens.1"})
            QCOMPARE(categoryOf(a, i), Category::Inputs);
        const std::int64_t qkv = 50331648;
        const std::int64_t wo = 25165824;
        QCOMPARE(a.report.of(Category::Weights).heldBytes, 2 * wo);
        QCOMPARE(a.report.of(Category::Gradients).heldBytes, qkv + 2 * wo);
        QCOMPARE(a.report.of(Category::Gradients).values, std::int64_t(3));
        QCOMPARE(a.report.of(Category::OptimizerState).values, std::int64_t(0));
        const Lever *donate = lever(a.report, Lever::Kind::Donate);
        QVERIFY(donate);
        QVERIFY(donate->exact);
        QCOMPARE(donate->savingBytes, qkv + 2 * wo);
        // Named by parameter number, as the proto numbers them (parameter_number of qkv.1 is
        // 0, of weights_o_0_.1 2 and weights_o_1_.1 3; seqlens.1 is 1, the rngs 4 and 5).
        QVERIFY2(donate->text.find("3 parameters (0, 2, 3:") != std::string::npos,
                 donate->text.c_str());
        QVERIFY(addsUp(a));
    }

    // The Pax step of ../shared/real/training (module_0040.pjit__wrapped_step_fn, GPU), against
    // its categories worked out by hand beside it (pjit__wrapped_step_fn.expected-categories.
    // tsv: every ENTRY parameter by its pytree path, state.mdl_vars['params'][…] weights,
    // state.opt_states[…] optimizer state, state.step the counter, inputs[…] the batch).
    void realPaxStep()
    {
        const QString dir =
            QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real/training"));
        const QString step = dir + QStringLiteral("/module_0040.pjit__wrapped_step_fn.sm_8.0_gpu_"
                                                  "after_optimizations.hlo.pb.xz");
        QFile truth(dir + QStringLiteral("/pjit__wrapped_step_fn.expected-categories.tsv"));
        if (!QFileInfo::exists(step) || !truth.open(QIODevice::ReadOnly))
            QSKIP("../shared/real is not here: the real dumps live beside the repository, which a "
                  "clone does not have");
        const Analysed a = analyse(step.toStdString());
        QVERIFY(a.categories.training);
        QVERIFY(a.categories.update);
        // The backward pass begins at 1303, loop_negate_fusion (transpose(jvp(…))/…/softmax/
        // neg), the first backward op that reads the forward pass's work: the forward
        // compute_loss reduce_sum, input_convert_reduce_fusion.40 (1279). Not at the
        // partition-id in the backward scope at 1273; the hand file's values are those live at
        // 1311, input_convert_reduce_fusion.13 (d logits), the first large backward op.
        QCOMPARE(a.categories.firstBackwardStep, std::int64_t(1303));
        const std::map<QString, Category> byHand = {
            {QStringLiteral("weight"), Category::Weights},
            {QStringLiteral("optimizer-state"), Category::OptimizerState},
            {QStringLiteral("optimizer-state/step-counter"), Category::OptimizerState},
            {QStringLiteral("input"), Category::Inputs}};
        int params = 0;
        while (!truth.atEnd()) {
            const QStringList f = QString::fromUtf8(truth.readLine()).trimmed().split(u'\t');
            if (f.size() < 8 || f[1] != QStringLiteral("param"))
                continue;
            const std::uint32_t v = a.dump->findValue(f[3].toStdString());
            QVERIFY2(v != kNone, qPrintable(f[3]));
            QVERIFY2(byHand.count(f[7]), qPrintable(f[7]));
            QVERIFY2(a.categories.category[v] == byHand.at(f[7]),
                     qPrintable(f[3] + QStringLiteral(" ") + f[8] + QStringLiteral(": ") +
                                QString::fromStdString(a.categories.evidence(*a.dump, v))));
            QCOMPARE(a.dump->values[v].size, f[5].toLongLong());
            ++params;
        }
        QCOMPARE(params, 454);
        // The largest values live at the first backward op, by hand (the file's last rows):
        // the bf16 one-hot of the embedding lookup and the forward logits, both defined in the
        // forward pass (jvp scopes) and read in the backward; d logits, the first backward op's
        // own value, read in the backward only; the attention logits and probabilities of
        // x_layers_0, forward, read in the backward.
        const std::pair<const char *, Category> peak[] = {
            {"loop_convert_fusion", Category::Activations},
            {"custom-call.219.0{0}", Category::Activations},
            {"input_convert_reduce_fusion.13{0}", Category::Temporaries},
            {"gemm_fusion_dot.545.0", Category::Activations},
            {"loop_convert_fusion.1", Category::Activations}};
        for (const auto &[name, c] : peak) {
            const std::uint32_t v = a.dump->findValue(name);
            QVERIFY2(v != kNone, name);
            QVERIFY2(a.categories.category[v] == c,
                     qPrintable(QString::fromLatin1(name) + QStringLiteral(": ") +
                                QString::fromStdString(a.categories.evidence(*a.dump, v))));
        }
        QVERIFY(addsUp(a));
        // Remat is offered for what the backward pass reads of the forward pass, the attention
        // logits and probabilities of x_layers_0 among them, and saves no more than the
        // activations hold at the peak.
        const Lever *remat = lever(a.report, Lever::Kind::Remat);
        QVERIFY(remat);
        for (const char *saved : {"gemm_fusion_dot.545.0", "loop_convert_fusion.1"})
            QVERIFY2(std::find(remat->values.begin(), remat->values.end(),
                               a.dump->findValue(saved)) != remat->values.end(),
                     saved);
        QVERIFY(remat->savingBytes > 0);
        QVERIFY(remat->savingBytes <= a.report.of(Category::Activations).peakBytes);
    }

    // The real text dumps of ../shared/real: no backward pass in any, so arguments, outputs,
    // temporaries and other only; names decide nothing from single letters (module_0037's
    // parameters are named `psi_v_X` and `W_q`: a wave function and an interaction, not Adam's
    // v and a weight); module_0161's donated 810 MiB parameter (allocation 0, both `parameter
    // 2` and `maybe-live-out`, 849,346,560 bytes) is read by no forward pass or update and not
    // named: other, undecided, never a guess.
    void realTextDumps()
    {
        const QString real =
            QDir::cleanPath(QStringLiteral(BUFFERSCOPE_SOURCE_DIR "/../shared/real"));
        if (!QFileInfo::exists(real))
            QSKIP("../shared/real is not here: the real dumps live beside the repository, which a "
                  "clone does not have");
        int seen = 0;
        for (const QFileInfo &f :
             QDir(real).entryInfoList({QStringLiteral("*buffer-assignment.txt")})) {
            const Analysed a = analyse(f.filePath().toStdString());
            QVERIFY(!a.categories.training);
            QVERIFY2(addsUp(a), qPrintable(f.fileName()));
            for (Category c : {Category::Weights, Category::OptimizerState, Category::Gradients,
                               Category::Activations})
                QCOMPARE(a.report.of(c).values, std::int64_t(0));
            if (f.fileName().startsWith(QStringLiteral("module_0161"))) {
                const std::uint32_t p = a.dump->allocationValues[a.dump->allocations[0].firstValue];
                QCOMPARE(a.categories.category[p], Category::Other);
                QCOMPARE(a.categories.reason[p], CategoryReason::DonatedUnclear);
                QCOMPARE(a.dump->allocations[0].size, std::int64_t(849346560));
            }
            ++seen;
        }
        QCOMPARE(seen, 4);
    }

    // A module without a backward pass has arguments, outputs and temporaries only, and the
    // bundled samples add up to what the device holds.
    void samplesAddUp_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n : {"gpu_decoder_layer", "gpu_vllm_update_slice", "tpu_dynamic_slice",
                              "tpu_random_normal", "tpu_unstack"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void samplesAddUp()
    {
        QFETCH(QString, name);
        const Analysed a = analyse(std::string(BUFFERSCOPE_TEST_DATA "/") + name.toStdString() +
                                   ".buffer-assignment.txt");
        QVERIFY(!a.categories.training);
        QVERIFY(addsUp(a));
        QCOMPARE(a.report.of(Category::Activations).values, std::int64_t(0));
        QCOMPARE(a.report.of(Category::Gradients).values, std::int64_t(0));
    }

    // The report says it, in text and JSON, as the issue names the fields.
    void reportSaysIt()
    {
        const testutil::CliRun text =
            testutil::runBufferscope({QStringLiteral("report"), QString::fromStdString(m_step)});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("Memory by category (a training step"));
        QVERIFY(text.out.contains("Levers at the peak (step 19"));
        const testutil::CliRun json = testutil::runBufferscope(
            {QStringLiteral("report"), QStringLiteral("--json"), QString::fromStdString(m_step)});
        QCOMPARE(json.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        const QJsonArray categories = o.value(QStringLiteral("categories")).toArray();
        QCOMPARE(categories.size(), kCategoryCount);
        QJsonObject activations;
        for (const QJsonValue &c : categories)
            if (c[QStringLiteral("name")] == QStringLiteral("activations"))
                activations = c.toObject();
        QCOMPARE(activations.value(QStringLiteral("held_bytes")).toInteger(), 2 * A);
        QCOMPARE(activations.value(QStringLiteral("peak_bytes")).toInteger(), 2 * A);
        QCOMPARE(activations.value(QStringLiteral("values")).toInteger(), 3);
        QVERIFY(!activations.value(QStringLiteral("evidence")).toArray().isEmpty());
        bool remat = false;
        for (const QJsonValue &l : o.value(QStringLiteral("levers")).toArray())
            if (l[QStringLiteral("kind")] == QStringLiteral("remat")) {
                remat = true;
                QCOMPARE(l[QStringLiteral("saving_bytes")].toInteger(), 262144);
                QCOMPARE(l[QStringLiteral("exact")].toBool(), false);
                QCOMPARE(l[QStringLiteral("values")].toArray().size(), 1);
                QVERIFY(!l[QStringLiteral("text")].toString().isEmpty());
            }
        QVERIFY(remat);
    }
};

QTEST_APPLESS_MAIN(TestCategories)
#include "tst_categories.moc"
