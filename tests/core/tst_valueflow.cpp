// A value's positions, uses, producers and consumers (analysis/ValueFlow) against the facts
// worked out by hand in FlowFacts.h, and the operand names of instruction texts.
#include "DumpText.h"
#include "FlowFacts.h"
#include "analysis/ValueFlow.h"
#include "open/ModuleReader.h"

#include <QTest>

using namespace bufferscope;
using namespace testutil;

namespace {

std::shared_ptr<const Dump> load(const char *sample)
{
    LoadResult r = ModuleReader::loadPath(samplePath(sample));
    if (!r.ok())
        qFatal("cannot load %s: %s", sample, r.error.c_str());
    return r.dump;
}

std::vector<std::int64_t> idsOf(const Dump &d, const std::vector<std::uint32_t> &values)
{
    std::vector<std::int64_t> ids;
    for (std::uint32_t v : values)
        ids.push_back(d.values[v].id);
    return ids;
}

QString joined(const std::vector<std::string_view> &names)
{
    QStringList out;
    for (std::string_view n : names)
        out << QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestValueFlow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handWorkedFacts_data()
    {
        QTest::addColumn<int>("fact");
        for (std::size_t i = 0; i < flowFacts().size(); ++i)
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(
                QLatin1String(flowFacts()[i].sample), QLatin1String(flowFacts()[i].value))))
                << static_cast<int>(i);
    }

    void handWorkedFacts()
    {
        QFETCH(int, fact);
        const FlowFact &f = flowFacts()[static_cast<std::size_t>(fact)];
        const auto dump = load(f.sample);
        const std::uint32_t value = dump->findValue(f.value);
        QVERIFY(value != kNone);
        QCOMPARE(dump->values[value].id, f.id);
        const ValueFlow flow = ValueFlow::of(*dump, value);
        QVERIFY(flow.usesKnown);
        QCOMPARE(flow.positionSteps(), f.positionSteps);
        QCOMPARE(flow.useSteps(), f.useSteps);
        QCOMPARE(idsOf(*dump, flow.producers), f.producers);
        QCOMPARE(idsOf(*dump, flow.consumers), f.consumers);
    }

    void usesAndPositionsInDumpOrder()
    {
        // gpu_decoder_layer, value 175: `fusion.40, operand 1`, `fusion.38, operand 1`,
        // `fusion.36, operand 2`; one position, loop_gather_fusion, with no index printed.
        const auto dump = load("gpu_decoder_layer");
        const ValueFlow flow = ValueFlow::of(*dump, dump->findValue("loop_gather_fusion"));
        QCOMPARE(flow.uses.size(), std::size_t(3));
        const char *users[] = {"fusion.40", "fusion.38", "fusion.36"};
        const std::int64_t operands[] = {1, 1, 2};
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(dump->str(dump->instructions[flow.uses[i].instruction].name),
                     std::string_view(users[i]));
            QCOMPARE(flow.uses[i].operand, operands[i]);
        }
        QCOMPARE(flow.positions.size(), std::size_t(1));
        QCOMPARE(flow.positions[0].index, kNoString);
        // tpu_unstack's `lhs` is read by `add` in the reduction's computation: no step.
        const auto unstack = load("tpu_unstack");
        const ValueFlow lhs = ValueFlow::of(*unstack, unstack->findValue("lhs"));
        QCOMPARE(lhs.uses.size(), std::size_t(1));
        QCOMPARE(lhs.uses[0].step, std::int64_t(-1));
        QCOMPARE(lhs.uses[0].operand, std::int64_t(0));
    }

    void operandNames_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("names");
        // gpu_decoder_layer line 119, with the comment XLA puts before the sixth operand.
        QTest::newRow("fusion")
            << "%fusion.40 = bf16[128,1024]{1,0} fusion(f32[] %p.4, bf16[128,1,1024]{2,0,1} "
               "%loop_gather_fusion, bf16[128,2048]{1,0} %gemm_fusion_dot.7.0, bf16[1024]{0} "
               "%p.5), kind=kCustom, calls=%fused_computation.31"
            << "p.4 loop_gather_fusion gemm_fusion_dot.7.0 p.5";
        QTest::newRow("index comment")
            << "%fusion.36 = bf16[128,1024]{1,0} fusion(f32[] %p.4, bf16[128,1024]{1,0} %a, "
               "bf16[1]{0} %b, bf16[1]{0} %c, bf16[1]{0} %d, /*index=5*/bf16[1024]{0} %p.11), "
               "kind=kCustom, calls=%fused_computation.27"
            << "p.4 a b c d p.11";
        QTest::newRow("tuple shape")
            << "%custom-call.5.0 = (bf16[128,6144]{1,0}, s8[4194304]{0}) custom-call(bf16[128,"
               "1024]{1,0} %fusion.40, bf16[6144,1024]{1,0} %p.6), custom_call_target=\"x\""
            << "fusion.40 p.6";
        QTest::newRow("TPU tiled layout")
            << "%xor.49 = u32[2,4]{1,0:T(2,128)S(6)} xor(u32[2,4]{1,0:T(2,128)} %a, "
               "u32[2,4]{1,0:T(2,128)} %b), metadata={op_name=\"jit(f)/xor\"}"
            << "a b";
        QTest::newRow("no operands") << "%p = f32[] parameter(0)"
                                     << "";
        QTest::newRow("not an instruction") << "garbage (%x)"
                                            << "";
        QTest::newRow("unclosed") << "%a = f32[] add(f32[] %x, f32[] %y"
                                  << "";
    }

    void operandNames()
    {
        QFETCH(QString, text);
        QFETCH(QString, names);
        const QByteArray utf8 = text.toUtf8();
        QCOMPARE(joined(bufferscope::operandNames(std::string_view(utf8.data(), utf8.size()))),
                 names);
    }

    void operandNamesJoinUsesToPositions_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char *s : {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                              "tpu_random_normal", "tpu_dynamic_slice"})
            QTest::newRow(s) << s;
    }

    void operandNamesJoinUsesToPositions()
    {
        // The name at operand N of the reading instruction's text is an instruction at which the
        // used value has a position (docs/FORMAT.md Part B §12): the text and the uses agree.
        QFETCH(QString, sample);
        const auto dump = load(qPrintable(sample));
        int checked = 0;
        for (std::uint32_t v = 0; v < dump->values.size(); ++v) {
            const ValueFlow flow = ValueFlow::of(*dump, v);
            for (const ValueMark &use : flow.uses) {
                const std::string text = dump->instructionText(use.instruction);
                if (text.empty())
                    continue; // e.g. get-tuple-element, which defines no value
                const std::vector<std::string_view> names = bufferscope::operandNames(text);
                QVERIFY2(use.operand >= 0 && use.operand < static_cast<std::int64_t>(names.size()),
                         text.c_str());
                const std::uint32_t named =
                    dump->findInstruction(names[static_cast<std::size_t>(use.operand)]);
                bool found = false;
                for (const ValueMark &p : flow.positions)
                    found = found || p.instruction == named;
                QVERIFY2(found, text.c_str());
                ++checked;
            }
        }
        QVERIFY(checked > 5);
    }
};

QTEST_APPLESS_MAIN(TestValueFlow)
#include "tst_valueflow.moc"
