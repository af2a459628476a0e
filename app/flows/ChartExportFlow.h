#pragma once

#include "charts/ChartView.h"

#include <QObject>

namespace bufferscope {

class WindowServices;

/// File ▸ Export Chart… and each chart's Export: the dialog, the file written (a CSV in the
/// background), and what the status bar says of it.
class ChartExportFlow : public QObject
{
    Q_OBJECT
public:
    explicit ChartExportFlow(WindowServices *window);

    /// Asks where and how, starting with `view` (the chart last worked with).
    void showDialog(ChartView *view);
    /// Exports without asking; false, with the reason shown, on failure (MainWindow::exportView).
    bool exportView(ChartView *view, const QString &path, const ExportOptions &options);
    /// A chart wrote (or copied) the data behind it.
    void csvWritten(const QString &path, const QString &error);

private:
    WindowServices *m_window;
};

} // namespace bufferscope
