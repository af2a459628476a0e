// The main window as a user drives it: drops, folders, tables, keyboard, layout, errors.
#include "LiveRangeGantt.h"
#include "MainWindow.h"
#include "MemoryMap.h"
#include "UsageChart.h"
#include "ValueInspector.h"
#include "ValueTableView.h"
#include "models/Roles.h"
#include "models/Selection.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace bufferscope;

namespace {

QString sample(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
        .arg(QLatin1String(name));
}

bool waitLoaded(MainWindow &w, const QString &module)
{
    return QTest::qWaitFor(
        [&] { return w.current().dump && w.current().dump->module == module.toStdString(); },
        10000);
}

void drop(QWidget *target, const QList<QUrl> &urls)
{
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QDropEvent dropEvent(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropEvent);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Settings go to a test location, never the user's.
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("BufferScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
    }

    void dropOpensFile()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        drop(&w, {QUrl::fromLocalFile(sample("tpu_unstack"))});
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_unstack")));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("tpu_unstack")));
        // The current step starts at the peak (FORMAT.md Part A table: step 1).
        QCOMPARE(w.selection()->currentStep(), qint64(1));
        QCOMPARE(w.recentFiles().value(0), QFileInfo(sample("tpu_unstack")).absoluteFilePath());
    }

    void dropFolderListsModules()
    {
        MainWindow w;
        w.show();
        drop(&w, {QUrl::fromLocalFile(QStringLiteral(BUFFERSCOPE_TEST_DATA))});
        QCOMPARE(w.modulesList()->count(), 5);
        // Largest file first (45826 bytes): it is the module most likely to be short of memory.
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_vllm_update_slice")));
        QVERIFY(
            w.modulesList()->item(0)->text().startsWith(QStringLiteral("gpu_vllm_update_slice")));
        // Activating another module loads it.
        QListWidgetItem *item = nullptr;
        for (int i = 0; i < w.modulesList()->count(); ++i)
            if (w.modulesList()->item(i)->text().startsWith(QStringLiteral("tpu_random_normal")))
                item = w.modulesList()->item(i);
        QVERIFY(item);
        Q_EMIT w.modulesList()->itemActivated(item);
        QVERIFY(waitLoaded(w, QStringLiteral("tpu_random_normal")));
    }

    void tableSelectsEverywhere()
    {
        MainWindow w;
        w.show();
        w.openPath(sample("gpu_decoder_layer"));
        QVERIFY(waitLoaded(w, QStringLiteral("gpu_decoder_layer")));
        QTableView *table = w.valueTable()->table();
        // Find fusion.40's row through the proxy and click it.
        const int value = static_cast<int>(w.current().dump->findValue("fusion.40"));
        QModelIndex target;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QModelIndex i = table->model()->index(r, 1);
            if (i.data(ValueIndexRole).toInt() == value)
                target = i;
        }
        QVERIFY(target.isValid());
        table->scrollTo(target);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(target).center());
        // Within the same event-loop turn, every view shows it.
        QCOMPARE(w.selection()->currentValue(), value);
        QCOMPARE(w.usageChart()->highlightedValue(), value);
        QCOMPARE(w.gantt()->highlightedValue(), value);
        QCOMPARE(w.memoryMap()->highlightedValue(), value);
        QCOMPARE(w.inspector()->shownValue(), value);
        QCOMPARE(w.allocationTree()->currentIndex().data(ValueIndexRole).toInt(), value);
        // The step moved into its live range (36..37) and the instruction table follows.
        QCOMPARE(w.selection()->currentStep(), qint64(36));
        QCOMPARE(w.instructionTable()->currentIndex().row(), 36);
        // Inspector links select steps.
        w.inspector()->activateLink(QUrl(QStringLiteral("step:37")));
        QCOMPARE(w.selection()->currentStep(), qint64(37));
        QCOMPARE(w.instructionTable()->currentIndex().row(), 37);
        // Alt+Right steps the program order anywhere in the window; Esc clears the value.
        QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(w.selection()->currentStep(), qint64(38));
        QTest::keyClick(&w, Qt::Key_Escape);
        QCOMPARE(w.selection()->currentValue(), -1);
        QCOMPARE(w.gantt()->highlightedValue(), -1);
    }

    void layoutIsSavedAndReset()
    {
        QSettings().clear();
        QStringList names;
        {
            MainWindow w;
            w.show();
            for (QDockWidget *dock : w.docks()) {
                QVERIFY(!dock->objectName().isEmpty());
                QVERIFY(!names.contains(dock->objectName()));
                names << dock->objectName();
            }
            QVERIFY(names.size() >= 8);
            w.findChild<QDockWidget *>(QStringLiteral("GanttDock"))->hide();
            w.close();
        }
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.findChild<QDockWidget *>(QStringLiteral("GanttDock"))->isHidden());
            w.resetLayout();
            QVERIFY(!w.findChild<QDockWidget *>(QStringLiteral("GanttDock"))->isHidden());
            // The default layout shows every view at once (none tabbed behind another).
            for (const char *name : {"UsageDock", "GanttDock", "MemoryMapDock", "ValuesDock",
                                     "InspectorDock", "AllocationsDock", "InstructionsDock"}) {
                QDockWidget *dock = w.findChild<QDockWidget *>(QString::fromLatin1(name));
                QVERIFY2(!dock->isHidden() && !dock->visibleRegion().isEmpty(), name);
            }
        }
        QSettings().clear();
    }

    void errorNamesFileAndLine()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad-buffer-assignment.txt"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("HloModule foo\nENTRY main {\n}\n");
        f.close();
        MainWindow w;
        w.show();
        w.openPath(bad);
        QMessageBox *box = nullptr;
        QVERIFY(QTest::qWaitFor([&] { return (box = w.findChild<QMessageBox *>()) != nullptr; },
                                10000));
        QVERIFY2(box->text().contains(QStringLiteral("bad-buffer-assignment.txt")),
                 qPrintable(box->text()));
        QVERIFY2(box->text().contains(QStringLiteral("line 1")), qPrintable(box->text()));
        box->close();
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
