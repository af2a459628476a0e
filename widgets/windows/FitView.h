#pragma once

#include "analysis/DeviceFit.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSplitter;
class QCPItemText;
class QTableWidget;

namespace bufferscope {

class DeviceSizeBox;

/// Several modules on one device (docs/FORMAT.md Part A, "Several modules on one device"):
/// choose the modules that share it, what stays resident between them and the device's limit,
/// and see per module what the device holds while it runs against the limit, and which module
/// sets the device's peak. The chart lays the modules end to end in the order they are listed:
/// each one's resident bytes plus its device live bytes over its program order, the level it
/// holds while it runs, and the limit.
class FitView : public QWidget
{
    Q_OBJECT
public:
    explicit FitView(QWidget *parent = nullptr);
    ~FitView() override;

    /// The modules measured (Workspace::measureModules), all on the device at first.
    void setModules(std::vector<DeviceFit::Module> modules);
    void setMeasuring(int done, int total);
    /// The limit: a size ("80GiB") or a device ("a100-80gb"); false when it is neither.
    /// Without one (and without a log's), the limit is the smallest device size in
    /// DeviceFit's list that holds the modules, once they are measured.
    bool setLimit(const QString &text);
    qint64 limit() const { return m_limit; }
    /// "args", "SIZE" or "args+SIZE" as `bufferscope fit --resident`; false when malformed.
    bool setResident(const QString &text);
    void setIncluded(int module, bool included);
    /// Shows only the modules whose name, function or file holds `text` (any case); the others
    /// keep their tick.
    void setFilter(const QString &text);
    /// Only the modules the filter shows are on the device ("Only these"); all when empty.
    void includeOnlyShown();
    /// Every module on the device again.
    void includeAll();
    /// What an out-of-memory log says of the device: its limit becomes a choice of the limit
    /// box (and the limit), its InUse figure what is resident. -1: not in the log.
    void setLogFigures(const QString &log, qint64 limit, qint64 inUse);

    const DeviceFit &fit() const { return m_fit; }
    /// The modules included, in the order of fit().rows.
    const std::vector<DeviceFit::Module> &included() const { return m_included; }
    QTableWidget *table() const { return m_table; }
    QCustomPlot *plot() const { return m_plot; }
    QLabel *verdict() const { return m_verdict; }
    /// The modules named on the chart (those whose names fit without meeting another).
    QStringList namedModules() const;
    /// Their boxes (widget pixels), for tests: none meets another.
    QList<QRectF> nameBoxes() const;

Q_SIGNALS:
    /// The user chose a limit in the window (the Budget of the main window follows it).
    void limitChosen(qint64 bytes);

private:
    void setLimitBytes(qint64 bytes, const QString &toolTip = {});
    void chooseSmallestThatFits();
    /// "Limit: A100 80GB, H100 80GB (75 % of 80.00GiB) — on a GPU, …": a limit of the list
    /// with its devices, else "as typed".
    static QString limitNoteOf(qint64 bytes);
    void recompute();
    void fillTable();
    void fillPlot();
    /// Shows the names that fit over their modules' levels, largest first (LabelLayout); true
    /// when one moved, came or went.
    bool placeNames();
    bool shown(const DeviceFit::Module &m) const;
    /// The module under the chart's x (into m_included), or -1.
    int moduleAt(double x) const;

    std::vector<DeviceFit::Module> m_modules;
    std::vector<bool> m_on;
    std::vector<DeviceFit::Module> m_included;
    DeviceFit m_fit;
    qint64 m_limit = 0;
    /// Where the limit comes from, said after the verdict ("Limit: A100 80GB, H100 80GB
    /// (75 % of 80.00GiB), the share of a GPU XLA's allocator gets.")
    QString m_limitNote;
    DeviceFit::Resident m_resident;
    bool m_filling = false;
    QLineEdit *m_filter = nullptr;
    std::vector<std::pair<double, double>> m_spans; ///< each included module's x range
    bool m_limitChosen = false; ///< given, chosen or from a log: not picked by the window
    bool m_smallestNote = false;
    DeviceSizeBox *m_limitBox;
    QComboBox *m_residentMode;
    QLineEdit *m_residentSize;
    QLabel *m_verdict;
    QTableWidget *m_table;
    QCustomPlot *m_plot;
    QSplitter *m_split;
    struct Name
    {
        QCPItemText *label = nullptr;
        double x = 0;    ///< its module's middle, in chart coordinates
        double left = 0; ///< its module's span
        double right = 0;
        double level = 0; ///< what it holds while it runs
    };
    std::vector<Name> m_names;
    QCPItemText *m_limitText = nullptr;
};

} // namespace bufferscope
