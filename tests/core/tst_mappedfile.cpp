// core/parse/MappedFile: mapping a dump, and the page hints the parse gives the kernel
// (populate ahead of the parse, release behind it), and small files read instead of mapped.
#include "Resident.h"
#include "parse/MappedFile.h"

#include <QtTest>

#include <cstdint>
#include <string>
#include <unistd.h>

using namespace bufferscope;

class TestMappedFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void populateMapsTheRangeAndReleaseDropsIt()
    {
        // 8 MiB of numbered lines, in the page cache since they were just written.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dump.txt"));
        QByteArray text;
        for (int i = 0; text.size() < (8 << 20); ++i)
            text += QByteArray("line ") + QByteArray::number(i) + '\n';
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(text), text.size());
        out.close();

        MappedFile file;
        std::string error;
        QVERIFY2(file.open(path.toStdString(), error), error.c_str());
        QCOMPARE(file.size(), static_cast<std::int64_t>(text.size()));
        const std::size_t from = 1 << 20;
        const std::size_t to = 5 << 20;
        const std::int64_t before = testutil::residentBytes();
        if (!file.populate(from, to))
            QSKIP("this kernel cannot populate pages ahead (MADV_POPULATE_READ, Linux 5.14)");
        const std::int64_t grown = testutil::residentBytes() - before;
        QVERIFY2(grown >= static_cast<std::int64_t>(to - from) * 9 / 10,
                 qPrintable(QStringLiteral("resident memory grew by %1 bytes").arg(grown)));
        QVERIFY(file.data() == std::string_view(text.constData(), text.size()));

        // Past the end is clipped; an empty range does nothing.
        QVERIFY(file.populate(text.size() - 10, std::size_t{1} << 40));
        QVERIFY(!file.populate(to, to));
        QVERIFY(!file.populate(static_cast<std::size_t>(text.size()) + 4096, std::size_t{1} << 40));

        // The whole file is resident now; releasing the populated range gives it back, and
        // the bytes read the same afterwards (from the page cache).
        QVERIFY(file.populate(0, text.size()));
        const std::int64_t full = testutil::residentBytes();
        file.releaseRange(from, to);
        const std::int64_t dropped = full - testutil::residentBytes();
        QVERIFY2(dropped >= static_cast<std::int64_t>(to - from) * 9 / 10,
                 qPrintable(QStringLiteral("resident memory fell by %1 bytes").arg(dropped)));
        QVERIFY(file.data() == std::string_view(text.constData(), text.size()));
    }

    void smallFilesAreRead()
    {
        // Under MappedFile::kReadBelow a file is read, not mapped: the same bytes, and releasing
        // or populating ranges (which would drop pages of a mapping) leaves them as they are.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("small.txt"));
        QByteArray text;
        for (int i = 0; text.size() < 300000; ++i)
            text += "line " + QByteArray::number(i) + '\n';
        QVERIFY(static_cast<std::size_t>(text.size()) < MappedFile::kReadBelow);
        {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            QCOMPARE(out.write(text), text.size());
        }
        MappedFile file;
        std::string error;
        QVERIFY2(file.open(path.toStdString(), error), error.c_str());
        QCOMPARE(file.size(), static_cast<std::int64_t>(text.size()));
        QVERIFY(file.data() == std::string_view(text.constData(), text.size()));
        file.releaseRange(0, text.size());
        file.releaseBefore(text.size());
        QVERIFY(!file.populate(0, text.size()));
        QVERIFY(file.data() == std::string_view(text.constData(), text.size()));
        // Cut short after it was read: what was read stays, and the file says it shrank.
        QCOMPARE(file.shrank(), std::int64_t(-1));
        QCOMPARE(::truncate(path.toLocal8Bit().constData(), 100), 0);
        QCOMPARE(file.shrank(), std::int64_t(100));
        QVERIFY(file.data() == std::string_view(text.constData(), text.size()));
        // And a descriptor to read it again later (the instruction texts) is still there.
        const int fd = file.takeDescriptor();
        QVERIFY(fd >= 0);
        ::close(fd);
    }
};

QTEST_GUILESS_MAIN(TestMappedFile)
#include "tst_mappedfile.moc"
