#pragma once
// What the window tests share: the includes, settings kept from the user's, samples, a
// module shown, a copy to change, a drop as the windowing system delivers it.
#include "CliRun.h"
#include "CsvRead.h"
#include "HelpDialogs.h"
#include "MainWindow.h"
#include "Preferences.h"
#include "SampleTruths.h"
#include "Workspace.h"
#include "charts/BoxChartView.h"
#include "charts/BreakdownChart.h"
#include "charts/LiveRangeGantt.h"
#include "charts/MemoryMap.h"
#include "charts/Treemap.h"
#include "charts/UsageChart.h"
#include "core/DumpText.h"
#include "core/EditedDumps.h"
#include "drawing/ChartExport.h"
#include "drawing/ChartPalette.h"
#include "flows/FitFlow.h"
#include "flows/LoadStatus.h"
#include "flows/RunFlow.h"
#include "models/BreakdownTreeModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"
#include "panels/BreakdownPanel.h"
#include "panels/SourceView.h"
#include "panels/ValueInspector.h"
#include "tables/ModuleBrowser.h"
#include "tables/TableCsv.h"
#include "tables/ValueTableView.h"
#include "util/Parallel.h"
#include "windows/CompareView.h"
#include "windows/DialogFolders.h"
#include "windows/ExportDialog.h"
#include "windows/FitView.h"
#include "windows/OomView.h"
#include "windows/RunDiffView.h"
#include "windows/RunSummaryView.h"
#include "windows/RuntimeMemoryView.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHeaderView>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QWindow>
#include <qcustomplot.h>

#include <algorithm>
#include <vector>

using namespace bufferscope;

namespace windowtest {

inline QString sample(const char *name)
{
    return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
        .arg(QLatin1String(name));
}

inline bool waitLoaded(MainWindow &w, const QString &module)
{
    return QTest::qWaitFor(
        [&] {
            // Shown: current and every view has it (the selection is live again).
            return w.current().dump && w.current().dump->module == module.toStdString() &&
                   !w.selection()->isFrozen();
        },
        10000);
}

/// A copy of a sample in `dir` that the test may change or delete.
inline QString copyOf(const QTemporaryDir &dir, const char *name)
{
    const QString path = dir.filePath(QFileInfo(sample(name)).fileName());
    QFile::copy(sample(name), path);
    return path;
}

inline void rewrite(const QString &path, const QByteArray &from, const QByteArray &to)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    f.close();
    QVERIFY(text.contains(from));
    text.replace(from, to);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

/// A drop as the windowing system delivers it: to the window, at a point over `over`, where Qt
/// finds the widget under the pointer that accepts drops (a chart, a table, a text field) and
/// sends it the enter, move and drop; with what a file manager offers (text/uri-list and the
/// same URLs as text/plain). Says whether the drop was taken.
inline bool drop(QWidget *window, const QList<QUrl> &urls, QWidget *over = nullptr)
{
    QMimeData mime;
    mime.setUrls(urls);
    QStringList lines;
    for (const QUrl &url : urls)
        lines << url.toString();
    mime.setText(lines.join(QStringLiteral("\r\n")));
    QWindow *handle = window->windowHandle();
    if (!handle)
        return false;
    const QPoint at = over ? over->mapTo(window, over->rect().center()) : window->rect().center();
    const Qt::DropActions offered = Qt::CopyAction | Qt::MoveAction | Qt::LinkAction;
    QDragEnterEvent enter(at, offered, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(handle, &enter);
    // The platform's first move carries the enter's answer: a target that only answers the
    // enter has taken the drag (QGuiApplicationPrivate::processDrag).
    QDragMoveEvent move(at, offered, &mime, Qt::LeftButton, Qt::NoModifier);
    move.setDropAction(enter.dropAction());
    move.setAccepted(enter.isAccepted());
    QApplication::sendEvent(handle, &move);
    if (!move.isAccepted())
        return false;
    QDropEvent dropEvent(at, offered, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(handle, &dropEvent);
    return dropEvent.isAccepted();
}

/// Settings go to a test location, never the user's: called from each test's initTestCase.
inline void useTestSettings(const char *test)
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("BufferScopeTest"));
    QApplication::setApplicationName(QLatin1String(test));
    QSettings().clear();
}

} // namespace windowtest

using namespace windowtest;
