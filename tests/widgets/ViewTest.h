#pragma once
// What the view tests share: the includes, a sample and its workspace, pixels counted.
#include "FlowFacts.h"
#include "LoadedDump.h"
#include "Workspace.h"
#include "analysis/DeviceFit.h"
#include "analysis/MemoryAnalysis.h"
#include "analysis/RuntimeMemory.h"
#include "charts/BreakdownChart.h"
#include "charts/FlameGraph.h"
#include "charts/LiveRangeGantt.h"
#include "charts/MemoryMap.h"
#include "charts/Treemap.h"
#include "charts/UsageChart.h"
#include "drawing/BoxPlottable.h"
#include "drawing/ChartExport.h"
#include "drawing/ChartPalette.h"
#include "drawing/StepMarks.h"
#include "drawing/StepTicker.h"
#include "models/BreakdownTreeModel.h"
#include "models/InstructionListModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "panels/BreakdownPanel.h"
#include "panels/CategoriesView.h"
#include "panels/SourceView.h"
#include "panels/ValueInspector.h"
#include "parse/OomMessage.h"
#include "report/OomReport.h"
#include "tables/InstructionsView.h"
#include "tables/TableCsv.h"
#include "tables/WarningsView.h"
#include "windows/FitView.h"
#include "windows/MemoryUsageReportView.h"
#include "windows/OomView.h"
#include "windows/RuntimeMemoryView.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeWidget>
#include <QXmlStreamReader>
#include <qcustomplot.h>

#include <algorithm>

using namespace bufferscope;

using Steps = std::vector<qint64>;
Q_DECLARE_METATYPE(Steps)

namespace viewtest {

/// A 2026-style module made by hand from tpu_dynamic_slice: Arg_0.1's metadata names frame 2
/// (train_step at model.py:20, column 5), called from frame 1 (main at train.py:10); the
/// tables are in the module's <stem>.txt (docs/FORMAT.md Part B §13). Returns the dump's path.
inline QString writeStackModule(const QTemporaryDir &dir)
{
    QFile in(QStringLiteral(BUFFERSCOPE_TEST_DATA "/tpu_dynamic_slice.buffer-assignment.txt"));
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QByteArray text = in.readAll();
    text.replace("op_name=\"args[0]\"", "op_name=\"args[0]\" stack_frame_id=2");
    const QString stem = dir.filePath(QStringLiteral("module_0009.jit_f"));
    QFile out(stem + QStringLiteral("-buffer-assignment.txt"));
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
        return {};
    QFile hlo(stem + QStringLiteral(".txt"));
    if (!hlo.open(QIODevice::WriteOnly))
        return {};
    hlo.write("HloModule jit_f\n\nFileNames\n1 \"train.py\"\n2 \"model.py\"\n\n"
              "FunctionNames\n1 \"main\"\n2 \"train_step\"\n\nFileLocations\n"
              "1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=1 end_column=2}\n"
              "2 {file_name_id=2 function_name_id=2 line=20 end_line=20 column=5 end_column=9}\n"
              "\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n"
              "2 {file_location_id=2 parent_frame_id=2}\n\n\nENTRY %e {\n}\n");
    return stem + QStringLiteral("-buffer-assignment.txt");
}

struct Views
{
    Workspace workspace;
    Selection &selection = *workspace.selection();
    UsageChart usage{&workspace};
    LiveRangeGantt gantt{&workspace};
    MemoryMap map{&workspace};
    ValueInspector inspector{&workspace};
    LoadedDump loaded;

    Views()
    {
        // As the window does: the inspector is handed each dump the workspace shows (the
        // charts subscribe themselves).
        workspace.subscribe(&inspector, {},
                            [this](const LoadedDump &shown) { inspector.setDump(shown.dump); });
    }

    bool load(const QString &name)
    {
        QString error;
        if (!loadDump(QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt").arg(name),
                      loaded, error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        // As the app shows a dump: the workspace hands it to the views (they subscribe).
        workspace.show(loaded, Workspace::Fill::AtOnce);
        for (ChartView *v : {static_cast<ChartView *>(&usage), static_cast<ChartView *>(&gantt),
                             static_cast<ChartView *>(&map)}) {
            v->resize(1000, 520);
            v->show();
        }
        for (ChartView *v : {static_cast<ChartView *>(&usage), static_cast<ChartView *>(&gantt),
                             static_cast<ChartView *>(&map)}) {
            if (!QTest::qWaitForWindowExposed(v))
                return false;
            v->plot()->replot(); // lay out axes so pixel coordinates are final
        }
        return true;
    }

    void expectEverywhere(int value)
    {
        QCOMPARE(selection.currentValue(), value);
        QCOMPARE(usage.highlightedValue(), value);
        QCOMPARE(gantt.highlightedValue(), value);
        QCOMPARE(map.highlightedValue(), value);
        QCOMPARE(inspector.shownValue(), value);
    }
};

/// Pixels of exactly `colour` in `image`.
inline int countColour(const QImage &image, const QColor &colour)
{
    const QRgb want = colour.rgb();
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            n += (line[x] & 0xffffffu) == (want & 0xffffffu) ? 1 : 0;
    }
    return n;
}

} // namespace viewtest

using namespace viewtest;
