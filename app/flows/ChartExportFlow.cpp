#include "ChartExportFlow.h"

#include "WindowServices.h"
#include "charts/UsageChart.h"
#include "drawing/ChartExport.h"
#include "windows/DialogFolders.h"
#include "windows/ExportDialog.h"

#include <QDir>
#include <QStatusBar>

namespace bufferscope {

ChartExportFlow::ChartExportFlow(WindowServices *window)
    : QObject(window->mainWindow()), m_window(window)
{}

void ChartExportFlow::csvWritten(const QString &path, const QString &error)
{
    if (!error.isEmpty())
        ChartExport::warnNotWritten(m_window->mainWindow(), tr("Export Failed"), path, error);
    else if (path.isEmpty())
        m_window->status()->showMessage(tr("Copied the data behind the chart as CSV"), 8000);
    else
        m_window->status()->showMessage(
            tr("Exported %1 (the data behind the chart)").arg(QDir::toNativeSeparators(path)),
            8000);
}

bool ChartExportFlow::exportView(ChartView *view, const QString &path, const ExportOptions &options)
{
    const std::optional<ExportFormat> format = ChartExport::formatOf(path);
    if (format == ExportFormat::Csv) {
        const bool busy = view->isWritingCsv();
        if (busy || !view->writeCsvInBackground(path)) {
            ChartExport::warnNotWritten(m_window->mainWindow(), tr("Export Failed"), path,
                                        busy ? ChartView::csvBusyText() : tr("no dump is open"));
            return false;
        }
        m_window->status()->showMessage(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
        return true;
    }
    QString why;
    if (!view->exportTo(path, options, &why)) {
        ChartExport::warnNotWritten(m_window->mainWindow(), tr("Export Failed"), path, why);
        return false;
    }
    const QString what = format == ExportFormat::Png
                             ? tr("%1 × %2 px")
                                   .arg(qRound(options.width * options.scale))
                                   .arg(qRound(options.height * options.scale))
                             : tr("%1 × %2, vector").arg(options.width).arg(options.height);
    m_window->status()->showMessage(
        tr("Exported %1 (%2)").arg(QDir::toNativeSeparators(path), what), 8000);
    return true;
}

void ChartExportFlow::showDialog(ChartView *view)
{
    if (!view)
        view = m_window->usageChart();
    // Where the last export went, not the dump's folder (often read-only).
    ExportDialog dialog(m_window->chartViews(), view, DialogFolders::saveFolder(),
                        m_window->mainWindow());
    if (dialog.exec() != QDialog::Accepted || !dialog.view() || dialog.path().isEmpty())
        return;
    DialogFolders::rememberSaved(dialog.path());
    exportView(dialog.view(), dialog.path(), dialog.options());
}

} // namespace bufferscope
