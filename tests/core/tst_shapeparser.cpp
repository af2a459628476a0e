#include "parse/ShapeParser.h"

#include <QTest>

using namespace bufferscope;

class TestShapeParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bytes_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<int>("arity");
        QTest::addColumn<qint64>("memorySpace");
        // Sizes from docs/FORMAT.md Part A (ByteSizeOf with pointer size 8) and the sample dumps.
        QTest::newRow("bf16_matrix_gpu") << "bf16[16,16]{1,0}" << qint64(512) << -1 << qint64(0);
        QTest::newRow("f32_tpu_tiled_vmem")
            << "f32[16,32]{1,0:T(8,128)S(1)}" << qint64(2048) << -1 << qint64(1);
        QTest::newRow("scalar_no_layout") << "u32[]" << qint64(4) << -1 << qint64(0);
        QTest::newRow("scalar_memory_space") << "u32[]{:S(2)}" << qint64(4) << -1 << qint64(2);
        QTest::newRow("scalar_tiled") << "s32[]{:T(128)}" << qint64(4) << -1 << qint64(0);
        QTest::newRow("pred") << "pred[16]{0}" << qint64(16) << -1 << qint64(0);
        QTest::newRow("s4_one_byte") << "s4[10]" << qint64(10) << -1 << qint64(0);
        QTest::newRow("s4_element_bits") << "s4[10]{0:E(4)}" << qint64(5) << -1 << qint64(0);
        QTest::newRow("c128") << "c128[3]" << qint64(48) << -1 << qint64(0);
        QTest::newRow("f8") << "f8e4m3fn[7,3]" << qint64(21) << -1 << qint64(0);
        QTest::newRow("bounded_dynamic") << "f32[<=8,4]" << qint64(128) << -1 << qint64(0);
        QTest::newRow("token") << "token[]" << qint64(0) << -1 << qint64(0);
        QTest::newRow("tuple_3_is_table")
            << "(f32[16,32]{1,0:T(8,128)S(1)}, f32[16,32]{1,0:T(8,128)}, u32[]{:S(2)})"
            << qint64(24) << 3 << qint64(0);
        QTest::newRow("tuple_5") << "(s32[16], s32[16], bf16[16,16], bf16[16,16], pred[16])"
                                 << qint64(40) << 5 << qint64(0);
        QTest::newRow("nested_tuple")
            << "((f32[2], s32[]), bf16[4])" << qint64(16) << 2 << qint64(0);
        QTest::newRow("empty_tuple") << "()" << qint64(0) << 0 << qint64(0);
        // XLA's PrintTupleShapes writes /*index=N*/ before every fifth element (shape_util.cc);
        // this tuple is as a real JAX 0.5.3 GPU dump printed it (the shape of a while loop's
        // state, quoted here whole).
        QTest::newRow("tuple_6_index_comment")
            << "(s64[], c128[4,2,2,64]{2,1,0,3}, c128[4,2,240,64]{3,2,1,0}, s32[], "
               "c128[64,4,2,240]{3,2,1,0}, /*index=5*/c128[64,2,2,240]{3,2,1,0})"
            << qint64(48) << 6 << qint64(0);
        QTest::newRow("tuple_11_nested_comments")
            << "(s32[], s32[], s32[], s32[], s32[], /*index=5*/(f32[], f32[], f32[], f32[], f32[], "
               "/*index=5*/f32[]), s32[], s32[], s32[], s32[], /*index=10*/s32[])"
            << qint64(88) << 11 << qint64(0);
        QTest::newRow("tiles_many")
            << "u32[4,2]{0,1:T(2,128)(2,1)L(1024)S(6)}" << qint64(32) << -1 << qint64(6);
        QTest::newRow("tile_star")
            << "bf16[8,128]{1,0:T(8,128)(2,1)T(*,4)}" << qint64(2048) << -1 << qint64(0);
    }
    void bytes()
    {
        QFETCH(QString, shape);
        QFETCH(qint64, bytes);
        QFETCH(int, arity);
        QFETCH(qint64, memorySpace);
        const auto text = shape.toStdString();
        const ShapeParseResult r = ShapeParser::parse(text);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.shape.byteSize(8), bytes);
        QCOMPARE(r.shape.isTuple() ? static_cast<int>(r.shape.elements.size()) : -1, arity);
        QCOMPARE(r.shape.layout.memorySpace, memorySpace);
    }

    void details()
    {
        const ShapeParseResult r = ShapeParser::parse("f32[16,32]{1,0:T(8,128)S(1)}");
        QVERIFY(r.ok);
        QCOMPARE(r.shape.type, ElementType::F32);
        QCOMPARE(r.shape.dims.size(), std::size_t(2));
        QCOMPARE(r.shape.layout.minorToMajor, (std::vector<std::int64_t>{1, 0}));
        QCOMPARE(r.shape.layout.tiles.size(), std::size_t(1));
        QCOMPARE(r.shape.layout.tiles[0].dims, (std::vector<std::int64_t>{8, 128}));
        QCOMPARE(r.shape.toStringWithoutLayout(), std::string("f32[16,32]"));

        const ShapeParseResult dyn = ShapeParser::parse("bf16[<=8,?]{1,0}");
        QVERIFY(dyn.ok);
        QCOMPARE(dyn.shape.dims[0].kind, Dimension::Kind::Bounded);
        QCOMPARE(dyn.shape.dims[0].size, std::int64_t(8));
        QCOMPARE(dyn.shape.dims[1].kind, Dimension::Kind::Unbounded);
        QVERIFY(dyn.shape.hasUnboundedDim());
        QCOMPARE(dyn.shape.byteSize(8), std::int64_t(-1)); // unknown, never a made-up number
        QCOMPARE(dyn.shape.toStringWithoutLayout(), std::string("bf16[<=8,?]"));

        const ShapeParseResult nested = ShapeParser::parse("((f32[2]{0}, s32[]), bf16[4]{0})");
        QVERIFY(nested.ok);
        QCOMPARE(nested.shape.toStringWithoutLayout(), std::string("((f32[2], s32[]), bf16[4])"));
    }

    void tokenLength()
    {
        QCOMPARE(ShapeParser::shapeTokenLength("f32[16,32]{1,0:T(8,128)} parameter(0)"),
                 std::size_t(24));
        QCOMPARE(ShapeParser::shapeTokenLength("(f32[2], s32[]) tuple(%a, %b)"), std::size_t(15));
        QCOMPARE(ShapeParser::shapeTokenLength("(f32[2], s32[] tuple"), std::size_t(0));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::newRow("empty") << "";
        QTest::newRow("unknown_type") << "f33[2]";
        QTest::newRow("unclosed_dims") << "f32[2,3";
        QTest::newRow("unclosed_tuple") << "(f32[2], s32[]";
        QTest::newRow("unclosed_layout") << "f32[2]{0";
        QTest::newRow("negative_dim") << "f32[-2]";
        QTest::newRow("overflow_dim") << "f32[99999999999999999999999]";
        QTest::newRow("trailing") << "f32[2] junk";
        QTest::newRow("unterminated_comment") << "(f32[2], /*index=1 f32[2])";
        QTest::newRow("comment_not_in_tuple") << "/*index=5*/f32[2]";
        QTest::newRow("deep_nesting")
            << QString(200, QLatin1Char('(')) + QString(200, QLatin1Char(')'));
    }
    void errors()
    {
        QFETCH(QString, shape);
        const auto text = shape.toStdString();
        const ShapeParseResult r = ShapeParser::parse(text);
        QVERIFY(!r.ok);
        QVERIFY(!r.error.empty());
    }

    void overflowingSizeIsUnknown()
    {
        const ShapeParseResult r = ShapeParser::parse("f32[4294967296,4294967296,16]");
        QVERIFY(r.ok);
        QCOMPARE(r.shape.byteSize(8), std::int64_t(-1));
    }
};

QTEST_GUILESS_MAIN(TestShapeParser)
#include "tst_shapeparser.moc"
