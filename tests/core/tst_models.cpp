#include "analysis/DumpDiff.h"
#include "analysis/MemoryTimeline.h"
#include "models/AllocationTreeModel.h"
#include "models/InstructionListModel.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueChangeModel.h"
#include "models/ValueTableModel.h"
#include "parse/DumpParser.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace bufferscope;

namespace {

/// A sample dump from tests/data, parsed.
LoadResult loadSample(const QString &name)
{
    return DumpParser::loadFile(
        QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt").arg(name).toStdString());
}

} // namespace

class TestModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void models_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n : {"gpu_vllm_update_slice", "gpu_decoder_layer", "tpu_unstack",
                              "tpu_random_normal", "tpu_dynamic_slice"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void models()
    {
        QFETCH(QString, name);
        const LoadResult r = loadSample(name);
        QVERIFY(r.ok());
        auto timeline = std::make_shared<const MemoryTimeline>(*MemoryTimeline::compute(*r.dump));

        ValueTableModel values;
        QAbstractItemModelTester t1(&values,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        values.setDump(r.dump);
        QCOMPARE(values.rowCount(), static_cast<int>(r.dump->values.size()));
        // The typed comparison the table sorts with agrees with SortRole on numeric columns.
        for (int column : {int(ValueTableModel::IdColumn), int(ValueTableModel::SizeColumn),
                           int(ValueTableModel::LogicalColumn), int(ValueTableModel::OffsetColumn),
                           int(ValueTableModel::StartColumn), int(ValueTableModel::EndColumn),
                           int(ValueTableModel::AllocationColumn)}) {
            for (int a = 0; a < values.rowCount(); a += 3) {
                for (int b = 0; b < values.rowCount(); b += 5) {
                    const qint64 ka = values.index(a, column).data(SortRole).toLongLong();
                    const qint64 kb = values.index(b, column).data(SortRole).toLongLong();
                    QCOMPARE(values.lessThan(a, b, column), ka < kb);
                }
            }
        }
        for (int row = 0; row < values.rowCount(); ++row) {
            QCOMPARE(values.index(row, 0).data(ValueIndexRole).toInt(), row);
            QCOMPARE(values.index(row, ValueTableModel::SizeColumn).data(BytesRole).toLongLong(),
                     r.dump->values[static_cast<std::size_t>(row)].size);
        }

        AllocationTreeModel allocations;
        QAbstractItemModelTester t2(&allocations,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        allocations.setDump(r.dump, timeline->allocations());
        QCOMPARE(allocations.rowCount(), static_cast<int>(r.dump->allocations.size()));
        int children = 0;
        for (int row = 0; row < allocations.rowCount(); ++row)
            children += allocations.rowCount(allocations.index(row, 0));
        QCOMPARE(children, static_cast<int>(r.dump->allocationValues.size()));
        for (int v = 0; v < static_cast<int>(r.dump->values.size()); ++v) {
            const QModelIndex idx = allocations.indexOfValue(v);
            QVERIFY(idx.isValid());
            QCOMPARE(idx.data(ValueIndexRole).toInt(), v);
        }

        InstructionListModel instructions;
        QAbstractItemModelTester t3(&instructions,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        instructions.setDump(r.dump, timeline);
        QCOMPARE(instructions.rowCount(), static_cast<int>(r.dump->maxStep() + 1));
        const SpaceTimeline *s0 = timeline->primary();
        const QModelIndex peak =
            instructions.index(static_cast<int>(s0->peak.step), InstructionListModel::LiveColumn);
        QCOMPARE(peak.data(BytesRole).toLongLong(), s0->peak.bytes);
        instructions.setMemorySpace(s0->memorySpace);

        // A reload swaps the dump inside a reset.
        values.setDump(nullptr);
        QCOMPARE(values.rowCount(), 0);
        allocations.setDump(nullptr);
        instructions.setDump(nullptr, nullptr);
    }

    void valueSort()
    {
        const LoadResult r = loadSample(QStringLiteral("gpu_decoder_layer"));
        QVERIFY(r.ok());
        ValueTableModel values;
        QAbstractItemModelTester tester(&values,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        values.setDump(r.dump);
        const std::uint32_t fusion40 = r.dump->findValue("fusion.40");
        const QPersistentModelIndex kept = values.index(values.rowOfValue(fusion40), 1);
        for (int column : {int(ValueTableModel::SizeColumn), int(ValueTableModel::NameColumn),
                           int(ValueTableModel::OpNameColumn), int(ValueTableModel::StartColumn)}) {
            for (Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
                values.sort(column, order);
                // Every row holds a different value, rows and values map both ways, the order
                // is the column's (ties keep ascending id), and persistent indexes follow.
                std::vector<bool> seen(r.dump->values.size(), false);
                for (int row = 0; row < values.rowCount(); ++row) {
                    const int v = values.valueAt(row);
                    QVERIFY(!seen[static_cast<std::size_t>(v)]);
                    seen[static_cast<std::size_t>(v)] = true;
                    QCOMPARE(values.rowOfValue(v), row);
                    QCOMPARE(values.index(row, 0).data(ValueIndexRole).toInt(), v);
                    if (row == 0)
                        continue;
                    const int u = values.valueAt(row - 1);
                    const bool before = order == Qt::AscendingOrder ? values.lessThan(v, u, column)
                                                                    : values.lessThan(u, v, column);
                    QVERIFY2(!before,
                             qPrintable(QStringLiteral("column %1 row %2").arg(column).arg(row)));
                    const bool tie =
                        !values.lessThan(u, v, column) && !values.lessThan(v, u, column);
                    if (tie)
                        QVERIFY(r.dump->values[static_cast<std::size_t>(u)].id <
                                r.dump->values[static_cast<std::size_t>(v)].id);
                }
                QVERIFY(kept.isValid());
                QCOMPARE(kept.data(ValueIndexRole).toInt(), fusion40);
                QCOMPARE(kept.column(), 1);
            }
        }
        // Largest first by size: the 296.75 MiB embedding parameter p5.18.0.
        values.sort(ValueTableModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(values.index(0, ValueTableModel::NameColumn).data().toString(),
                 QStringLiteral("p5.18.0"));
    }

    void valueFilter()
    {
        const LoadResult r = loadSample(QStringLiteral("gpu_decoder_layer"));
        QVERIFY(r.ok());
        ValueTableModel values;
        values.setDump(r.dump);
        const std::uint32_t fusion40 = r.dump->findValue("fusion.40");
        const std::uint32_t p5 = r.dump->findValue("p5.18.0");
        QVERIFY(ValueTableModel::matches(*r.dump, fusion40, "fusion.40"));
        QVERIFY(ValueTableModel::matches(*r.dump, fusion40,
                                         "usion.4")); // any part, case folded by the caller
        QVERIFY(ValueTableModel::matches(*r.dump, fusion40, "bf16[128,1024]")); // its shape
        QVERIFY(ValueTableModel::matches(*r.dump, fusion40, "xla__cast"));      // its op_name
        QVERIFY(ValueTableModel::matches(*r.dump, fusion40,
                                         "torch/_ops.py:756")); // its source location
        QVERIFY(!ValueTableModel::matches(*r.dump, fusion40, "torch/_ops.py:757"));
        QVERIFY(!ValueTableModel::matches(*r.dump, fusion40, "p5.18"));
        QVERIFY(ValueTableModel::matches(*r.dump, p5, "dynamo_bridge.py"));
        // Exactly the rows whose name contains the needle, when nothing else can match.
        int expected = 0;
        int got = 0;
        for (std::uint32_t v = 0; v < r.dump->values.size(); ++v) {
            expected += r.dump->valueName(r.dump->values[v]).find("wrapped_slice") !=
                        std::string_view::npos;
            got += ValueTableModel::matches(*r.dump, v, "wrapped_slice");
        }
        QVERIFY(expected > 1);
        QCOMPARE(got, expected);

        // The model filters itself: exactly those rows, in the current order, both ways mapped;
        // sorting keeps the filter; an empty filter shows everything again.
        QAbstractItemModelTester tester(&values,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        values.setFilter(ValueTableModel::matching(*r.dump, "wrapped_slice"));
        QVERIFY(values.isFiltered());
        QCOMPARE(values.rowCount(), expected);
        for (Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            values.sort(ValueTableModel::SizeColumn, order);
            QCOMPARE(values.rowCount(), expected);
            for (int row = 0; row < values.rowCount(); ++row) {
                const int v = values.valueAt(row);
                QVERIFY(r.dump->valueName(r.dump->values[static_cast<std::size_t>(v)])
                            .find("wrapped_slice") != std::string_view::npos);
                QCOMPARE(values.rowOfValue(v), row);
                if (row > 0)
                    QVERIFY(!(order == Qt::DescendingOrder
                                  ? values.lessThan(values.valueAt(row - 1), v,
                                                    ValueTableModel::SizeColumn)
                                  : values.lessThan(v, values.valueAt(row - 1),
                                                    ValueTableModel::SizeColumn)));
            }
        }
        QCOMPARE(values.rowOfValue(p5), -1); // filtered out
        values.setFilter({});
        QVERIFY(!values.isFiltered());
        QCOMPARE(values.rowCount(), static_cast<int>(r.dump->values.size()));
        QVERIFY(values.rowOfValue(p5) >= 0);
    }

    void valueChanges()
    {
        const auto a = loadSample(QStringLiteral("tpu_dynamic_slice")).dump;
        const auto b = loadSample(QStringLiteral("tpu_random_normal")).dump;
        QVERIFY(a && b);
        const auto ta = MemoryTimeline::compute(*a);
        const auto tb = MemoryTimeline::compute(*b);
        auto diff = std::make_shared<const DumpDiff>(DumpDiff::compute(*a, *ta, *b, *tb));
        ValueChangeModel changes;
        QAbstractItemModelTester tester(&changes,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        changes.setDiff(diff);
        // 11 added, 5 removed, 4 changed (the same comparison tst_mainwindow opens).
        QCOMPARE(changes.rowCount(), 20);
        QCOMPARE(changes.kindAt(0), ValueChangeModel::Change::Added);
        QCOMPARE(changes.kindAt(11), ValueChangeModel::Change::Removed);
        QCOMPARE(changes.kindAt(19), ValueChangeModel::Change::Changed);
        const QPersistentModelIndex first = changes.index(0, ValueChangeModel::KeyColumn);
        const QString firstKey = first.data().toString();
        for (int column = 0; column < ValueChangeModel::ColumnCount; ++column) {
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                changes.sort(column, order);
                QCOMPARE(changes.rowCount(), 20);
                QCOMPARE(first.data().toString(), firstKey); // persistent indexes follow
                for (int r = 1; r < changes.rowCount(); ++r) {
                    const auto value = [&](int row) -> QVariant {
                        if (column == ValueChangeModel::KeyColumn)
                            return changes.index(row, column).data();
                        if (column == ValueChangeModel::ChangeColumn)
                            return static_cast<int>(changes.kindAt(row));
                        return changes.index(row, column).data(BytesRole);
                    };
                    const QVariant u = value(r - 1);
                    const QVariant v = value(r);
                    const bool inOrder =
                        column == ValueChangeModel::KeyColumn
                            ? (order == Qt::AscendingOrder ? u.toString() <= v.toString()
                                                           : u.toString() >= v.toString())
                            : (order == Qt::AscendingOrder ? u.toLongLong() <= v.toLongLong()
                                                           : u.toLongLong() >= v.toLongLong());
                    QVERIFY2(inOrder,
                             qPrintable(QStringLiteral("column %1 row %2").arg(column).arg(r)));
                }
            }
        }
        // Δ bytes of a row is after minus before.
        const ValueChange &c = changes.changeAt(0);
        QCOMPARE(changes.index(0, ValueChangeModel::DeltaColumn).data(BytesRole).toLongLong(),
                 c.after.bytes - c.before.bytes);
    }

    void selection()
    {
        Selection s;
        QSignalSpy value(&s, &Selection::currentValueChanged);
        QSignalSpy step(&s, &Selection::currentStepChanged);
        s.setCurrentValue(3);
        s.setCurrentValue(3); // no second signal for the same value
        QCOMPARE(value.count(), 1);
        s.setCurrentStep(7);
        QCOMPARE(step.count(), 1);
        s.setHoveredValue(2);
        s.clear();
        QCOMPARE(s.currentValue(), -1);
        QCOMPARE(s.hoveredValue(), -1);
        QCOMPARE(s.currentStep(), qint64(7));
        QCOMPARE(value.count(), 2);
    }
};

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
