#include "CsvRead.h"
#include "analysis/DumpDiff.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "layout/LabelLayout.h"
#include "models/AllocationTreeModel.h"
#include "models/BreakdownTreeModel.h"
#include "models/InstructionListModel.h"
#include "models/ModelCsv.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueChangeModel.h"
#include "models/ValueTableModel.h"
#include "open/ModuleReader.h"
#include "parse/DumpParser.h"
#include "report/Csv.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTest>

using namespace bufferscope;

namespace {

/// What a value sorts by in `column`, read from the dump directly: the order the model must
/// produce, worked out without the model's own comparison.
std::pair<std::int64_t, std::string> keyOf(const Dump &d, int v, int column)
{
    const Value &x = d.values[static_cast<std::size_t>(v)];
    const Instruction *ins = d.instructionOf(x);
    switch (column) {
    case ValueTableModel::SizeColumn:
        return {x.size, {}};
    case ValueTableModel::StartColumn:
        return {x.start, {}};
    case ValueTableModel::NameColumn:
        return {0, std::string(d.valueName(x)) + '\x01' + std::string(d.str(x.index))};
    case ValueTableModel::OpNameColumn:
        return {0, ins ? std::string(d.str(ins->opName)) : std::string()};
    default:
        return {0, {}};
    }
}

/// The model as text, one row a line, children indented: `columns` joined by " | ", at most
/// `rows` rows per level (after hotspot's printTree).
QString render(const QAbstractItemModel &model, const QList<int> &columns, int rows,
               const QModelIndex &parent = {}, int depth = 0)
{
    QString out;
    for (int r = 0; r < model.rowCount(parent) && r < rows; ++r) {
        QStringList cells;
        for (int c : columns)
            cells << model.index(r, c, parent).data().toString();
        out += QString(depth * 2, QLatin1Char(' ')) + cells.join(QStringLiteral(" | ")) +
               QLatin1Char('\n');
        out += render(model, columns, rows, model.index(r, 0, parent), depth + 1);
    }
    return out;
}

/// A sample dump from tests/data, parsed.
LoadResult loadSample(const QString &name)
{
    return ModuleReader::loadPath(
        QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt").arg(name).toStdString());
}

} // namespace

class TestModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The one label layout the charts share (issue 49): a label takes the first place offered
    // that stays in the area, meets nothing taken and keeps above the data's skyline.
    void labelLayoutTakesTheFirstFreePlace()
    {
        using Box = LabelLayout::Box;
        LabelLayout layout({0, 0, 100, 50});
        // Data 30 px high on the left half (y from 20 down), none on the right.
        std::vector<double> skyline(100, 50);
        for (int c = 0; c < 50; ++c)
            skyline[static_cast<std::size_t>(c)] = 20;
        layout.setSkyline(skyline);
        layout.addObstacle({80, 0, 20, 10});
        const Box overData{10, 15, 20, 10};  // its bottom (25) is below the data's top (20)
        const Box outside{90, 45, 20, 10};   // leaves the area
        const Box onObstacle{70, 5, 20, 10}; // meets the obstacle
        const Box aboveData{10, 5, 20, 10};  // free: bottom 15 above 20
        const std::vector<Box> candidates{overData, outside, onObstacle, aboveData};
        QCOMPARE(layout.place(candidates), 3);
        // That place is taken now: the same offer again finds nothing.
        QCOMPARE(layout.place(candidates), -1);
        QCOMPARE(layout.taken().size(), std::size_t(2));
        QCOMPARE(layout.dataTopUnder(40, 60), 20.0);
        QCOMPARE(layout.dataTopUnder(60, 70), 50.0);
        // anchored: -1 ends at the anchor, 0 centres, 1 starts there.
        const Box b = LabelLayout::anchored(50, 20, 10, 4, -1, 0);
        QCOMPARE(b.x, 40.0);
        QCOMPARE(b.y, 18.0);
    }

    void labelLayoutSpreadsARow()
    {
        // Three labels 10 long wanted at 5, 6 and 7 on [0, 100]: pushed apart, 2 between.
        const std::vector<double> wanted{5, 6, 7};
        const std::vector<double> extent{10, 10, 10};
        const std::vector<double> at = LabelLayout::spreadAlong(wanted, extent, 2, 0, 100);
        QCOMPARE(at, (std::vector<double>{5, 17, 29}));
        // Wanted past the end: pulled back inside.
        const std::vector<double> late =
            LabelLayout::spreadAlong(std::vector<double>{95, 96}, extent, 2, 0, 100);
        QCOMPARE(late, (std::vector<double>{83, 95}));
    }

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

    void modelsAsText()
    {
        // Expected text read off tpu_unstack by hand: the allocations (lines 2-19), their value
        // lines, and the live ranges (lines 177-183); ties keep ascending XLA id.
        const LoadResult r = loadSample(QStringLiteral("tpu_unstack"));
        QVERIFY(r.ok());
        ValueTableModel values;
        values.setDump(r.dump);
        values.sort(ValueTableModel::SizeColumn, Qt::AscendingOrder);
        const QList<int> valueColumns = {
            ValueTableModel::IdColumn, ValueTableModel::NameColumn, ValueTableModel::SizeColumn,
            ValueTableModel::AllocationColumn, ValueTableModel::KindColumn};
        QCOMPARE(render(values, valueColumns, 8),
                 QStringLiteral("24 | slice_reduce_fusion{} | 32B | 18 | temp\n"
                                "29 | tuple.10{} | 32B | 6 | output\n"
                                "25 | slice_reduce_fusion{0} | 512B | 2 | output\n"
                                "26 | slice_reduce_fusion{1} | 512B | 3 | output\n"
                                "27 | slice_reduce_fusion{2} | 512B | 4 | output\n"
                                "28 | slice_reduce_fusion{3} | 512B | 5 | output\n"
                                "23 | Arg_0.1 | 1.0KiB | 1 | parameter\n"
                                "0 | lhs | 4.0KiB | 8 | thread_local\n"));
        // The same table as CSV (Copy as CSV): sizes as exact integers under "Size (bytes)",
        // the rest as shown.
        {
            const auto csv =
                testutil::readCsv(QString::fromUtf8(ModelCsv::write(values, valueColumns)));
            QVERIFY(csv);
            QCOMPARE(static_cast<int>(csv->size()), 1 + values.rowCount());
            QCOMPARE((*csv)[0], (QStringList{QStringLiteral("Id"), QStringLiteral("Value"),
                                             QStringLiteral("Size (bytes)"),
                                             QStringLiteral("Alloc"), QStringLiteral("Kind")}));
            QCOMPARE(
                (*csv)[1],
                (QStringList{QStringLiteral("24"), QStringLiteral("slice_reduce_fusion{}"),
                             QStringLiteral("32"), QStringLiteral("18"), QStringLiteral("temp")}));
            QCOMPARE((*csv)[7], (QStringList{QStringLiteral("23"), QStringLiteral("Arg_0.1"),
                                             QStringLiteral("1024"), QStringLiteral("1"),
                                             QStringLiteral("parameter")}));
            QCOMPARE((*csv)[8], (QStringList{QStringLiteral("0"), QStringLiteral("lhs"),
                                             QStringLiteral("4096"), QStringLiteral("8"),
                                             QStringLiteral("thread_local")}));
        }

        const auto timeline = MemoryTimeline::compute(*r.dump);
        AllocationTreeModel allocations;
        allocations.setDump(r.dump, timeline->allocations());
        // An allocation row counts its values in the "Offset / values" column (issue 35, item
        // 14: it said "Offset" above "31 value(s)").
        QCOMPARE(
            allocations.headerData(AllocationTreeModel::OffsetColumn, Qt::Horizontal).toString(),
            QStringLiteral("Offset / values"));
        QCOMPARE(render(allocations,
                        {AllocationTreeModel::NameColumn, AllocationTreeModel::SizeColumn,
                         AllocationTreeModel::KindColumn, AllocationTreeModel::OffsetColumn,
                         AllocationTreeModel::LiveColumn},
                        3),
                 QStringLiteral("allocation 0 | 4.0KiB | thread_local | 1 value | max 0B live\n"
                                "  add.3 | 4.0KiB | u32[] | 0 | never live\n"
                                "allocation 1 | 1.0KiB | parameter #0 | 1 value | max 1.0KiB live\n"
                                "  Arg_0.1 | 1.0KiB | u32[4,2]{0,1:T(2,128)} | 0 | 0–7\n"
                                "allocation 2 | 512B | output | 1 value | max 512B live\n"
                                "  slice_reduce_fusion{0} | 512B | u32[2]{0:T(128)} | 0 | 1–7\n"));

        // What is live at step 68 of gpu_vllm_update_slice, read off its live ranges (lines
        // 710-717) and allocations: 528 and 529 (512 B each, allocations 1 and 0), 531 and 532
        // (64 B, allocations 2 and 3), loop_broadcast_fusion (16 B, allocation 6): 1168 B of
        // output; tuple.2 (40 B, the preallocated temp); p0.37.0 (2 B, parameter 0). 1210 B.
        const LoadResult vllm = loadSample(QStringLiteral("gpu_vllm_update_slice"));
        QVERIFY(vllm.ok());
        const Breakdown b = Breakdown::compute(*vllm.dump, 68, 0);
        BreakdownTreeModel tree;
        QAbstractItemModelTester tester(&tree,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        tree.setRows(b.rows(Breakdown::Grouping::Kind), b.bytes);
        QCOMPARE(render(tree, {0, 1, 2, 3}, 10), QStringLiteral("output | 1.1KiB | 96.5% | 5\n"
                                                                "temp | 40B | 3.3% | 1\n"
                                                                "parameter | 2B | 0.2% | 1\n"));
        // By op_name, from each value's `from instruction:` metadata (lines 458-557).
        tree.setTree(b.opNameTree, b.bytes);
        QCOMPARE(render(tree, {0, 1, 3}, 10),
                 QStringLiteral("(no op_name) | 1.0KiB | 3\n"
                                "  loop_broadcast_dynamic_update_slice_fusion | 1.0KiB | 2\n"
                                "  tuple.2 | 40B | 1\n"
                                "xla__unselect | 128B | 2\n"
                                "  loop_broadcast_select_fusion | 128B | 2\n"
                                "aten__expand | 16B | 1\n"
                                "  loop_broadcast_fusion | 16B | 1\n"
                                "xla__device_data | 2B | 1\n"
                                "  p0.37.0 | 2B | 1\n"));
        // As CSV, a tree gets its depth: children under their parent, every branch written.
        {
            const auto csv = testutil::readCsv(QString::fromUtf8(ModelCsv::write(tree, {0, 1, 3})));
            QVERIFY(csv);
            QCOMPARE(static_cast<int>(csv->size()), 1 + 9);
            QCOMPARE((*csv)[0].at(0), QStringLiteral("depth"));
            QCOMPARE((*csv)[0].at(2),
                     tree.headerData(1, Qt::Horizontal, Qt::DisplayRole).toString() +
                         QStringLiteral(" (bytes)"));
            QCOMPARE((*csv)[1], (QStringList{QStringLiteral("0"), QStringLiteral("(no op_name)"),
                                             QStringLiteral("1064"), QStringLiteral("3")}));
            QCOMPARE((*csv)[2],
                     (QStringList{QStringLiteral("1"),
                                  QStringLiteral("loop_broadcast_dynamic_update_slice_fusion"),
                                  QStringLiteral("1024"), QStringLiteral("2")}));
            QCOMPARE((*csv)[3], (QStringList{QStringLiteral("1"), QStringLiteral("tuple.2"),
                                             QStringLiteral("40"), QStringLiteral("1")}));
            QCOMPARE((*csv)[4], (QStringList{QStringLiteral("0"), QStringLiteral("xla__unselect"),
                                             QStringLiteral("128"), QStringLiteral("2")}));
            QCOMPARE((*csv)[9], (QStringList{QStringLiteral("1"), QStringLiteral("p0.37.0"),
                                             QStringLiteral("2"), QStringLiteral("1")}));
        }
        // Members and paths through the shared roles.
        const QModelIndex unselect = tree.index(1, 0);
        QCOMPARE(unselect.data(MembersRole).value<QVector<int>>().size(), 2);
        QCOMPARE(tree.index(0, 0, unselect).data(PathRole).toString(),
                 QStringLiteral("xla__unselect"));
        // Another step replaces the tree under the tester (node pointers in the indexes).
        tree.setTree(Breakdown::compute(*vllm.dump, 30, 0).opNameTree, b.bytes);
        tree.setRows({}, 0);
        QCOMPARE(tree.rowCount(), 0);
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
                    // The order checked against the dump's own fields, not the model's
                    // comparison.
                    const int u = values.valueAt(row - 1);
                    const auto ku = keyOf(*r.dump, u, column);
                    const auto kv = keyOf(*r.dump, v, column);
                    const bool before = order == Qt::AscendingOrder ? kv < ku : ku < kv;
                    QVERIFY2(!before,
                             qPrintable(QStringLiteral("column %1 row %2").arg(column).arg(row)));
                    const bool tie = ku == kv;
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
                if (row > 0) {
                    const auto before =
                        r.dump->values[static_cast<std::size_t>(values.valueAt(row - 1))].size;
                    const auto here = r.dump->values[static_cast<std::size_t>(v)].size;
                    QVERIFY(order == Qt::DescendingOrder ? before >= here : before <= here);
                }
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
        // 12 added, 6 removed, 1 changed (the same comparison tst_mainwindow opens; tst_diff
        // works it out).
        QCOMPARE(changes.rowCount(), 19);
        QCOMPARE(changes.kindAt(0), ValueChangeModel::Change::Added);
        QCOMPARE(changes.kindAt(12), ValueChangeModel::Change::Removed);
        QCOMPARE(changes.kindAt(18), ValueChangeModel::Change::Changed);
        const QPersistentModelIndex first = changes.index(0, ValueChangeModel::KeyColumn);
        const QString firstKey = first.data().toString();
        for (int column = 0; column < ValueChangeModel::ColumnCount; ++column) {
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                changes.sort(column, order);
                QCOMPARE(changes.rowCount(), 19);
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

    void csvQuoting()
    {
        // RFC 4180 by hand: quote a field with a comma, quote, CR or LF; double its quotes; end
        // records in CRLF; leave everything else (spaces, UTF-8) as it is.
        CsvWriter w;
        w.field("plain").field("a,b").field("say \"hi\"").field("two\nlines").field(" lead");
        w.endRow();
        w.field(std::int64_t{-5}).blank().field("ünï").field("cr\r").endRow();
        QCOMPARE(QString::fromStdString(w.str()),
                 QStringLiteral("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\", lead\r\n"
                                "-5,,ünï,\"cr\r\"\r\n"));
        // And any model's text comes back whole through a reader written from the RFC.
        const QStringList tricky = {QStringLiteral("a,b"),
                                    QStringLiteral("say \"hi\""),
                                    QStringLiteral("two\nlines"),
                                    QStringLiteral("\"quoted\""),
                                    QStringLiteral("ünïcödé · 中文"),
                                    QStringLiteral(""),
                                    QStringLiteral(",\r\n\"")};
        QStringListModel model(tricky);
        const auto csv = testutil::readCsv(QString::fromUtf8(ModelCsv::write(model)));
        QVERIFY(csv);
        QCOMPARE(static_cast<int>(csv->size()), 1 + static_cast<int>(tricky.size()));
        for (qsizetype i = 0; i < tricky.size(); ++i)
            QCOMPARE((*csv)[static_cast<std::size_t>(i) + 1], QStringList{tricky[i]});
    }

    void tickLabels()
    {
        // Byte ticks: the fewest digits, a space, the IEC unit.
        const double KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
        QCOMPARE(tickBytesText(0), QStringLiteral("0 B"));
        QCOMPARE(tickBytesText(512), QStringLiteral("512 B"));
        QCOMPARE(tickBytesText(256 * KiB), QStringLiteral("256 KiB"));
        QCOMPARE(tickBytesText(768 * MiB), QStringLiteral("768 MiB"));
        QCOMPARE(tickBytesText(GiB), QStringLiteral("1 GiB"));
        QCOMPARE(tickBytesText(1.5 * GiB), QStringLiteral("1.5 GiB"));
        QCOMPARE(tickBytesText(1.25 * GiB), QStringLiteral("1.25 GiB"));
        QCOMPARE(tickBytesText(1.125 * GiB), QStringLiteral("1.125 GiB"));
        QCOMPARE(tickBytesText(-256 * KiB), QStringLiteral("-256 KiB"));
        QCOMPARE(tickBytesText(80 * GiB), QStringLiteral("80 GiB"));
        QCOMPARE(tickBytesText(2 * 1024 * GiB), QStringLiteral("2 TiB"));
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
