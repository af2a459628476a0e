#pragma once

#include "analysis/DumpDiff.h"
#include "analysis/MemoryTimeline.h"
#include "drawing/ChartExport.h"
#include "model/Dump.h"

#include <QVector>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QCPItemRect;
class QCPItemText;
class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTreeWidget;

namespace bufferscope {

class JobRunner;
class ValueChangeModel;

/// Two dumps compared (before → after), values matched by structure (DumpMatch): why memory
/// changed (the causes, largest first, each picking its values on both curves), both
/// live-bytes curves on the aligned steps with the difference shaded and the two peaks marked,
/// what differs at the peaks, the deltas by op_name, call stack, source and kind, and the values
/// added, removed and changed (filtered; a renamed pair is one row). Picking a value shows its
/// live range on both curves and selects it in the main window. `bufferscope diff` prints the
/// same.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    /// `jobs` frees the dumps and the comparison off the GUI thread when the window closes.
    explicit CompareView(JobRunner *jobs, QWidget *parent = nullptr, Qt::WindowFlags flags = {});
    ~CompareView() override;

    /// Shows the comparison of `before` with `after`, computed elsewhere (the workspace's job).
    void setDumps(std::shared_ptr<const Dump> before, std::shared_ptr<const MemoryTimeline> tb,
                  QString beforeName, std::shared_ptr<const Dump> after,
                  std::shared_ptr<const MemoryTimeline> ta, QString afterName,
                  std::shared_ptr<const DumpDiff> diff);
    const DumpDiff &diff() const { return *m_diff; }
    QCustomPlot *plot() const { return m_plot; }
    QString summaryText() const;
    QTreeWidget *opNameTree() const { return m_byOpName; }
    QTreeWidget *stackTree() const { return m_byStack; }
    QTableWidget *peakTable() const { return m_atPeak; }
    /// What kind of memory changed: a row per category either side holds, largest change first.
    QTableWidget *categoryTable() const { return m_byCategory; }
    /// Why memory changed: one row per cause (DiffCauses), largest first, under the headline;
    /// the first tab is the page that holds both.
    QTableWidget *causesTable() const { return m_causes; }
    QWidget *whyPage() const { return m_whyPage; }
    /// The first line to read (DiffCauses::headline), and where the peak went.
    QLabel *headline() const { return m_headline; }
    QTableView *valuesTable() const { return m_values; }
    QComboBox *valueFilter() const { return m_filter; }
    QTabWidget *tabs() const { return m_tabs; }
    /// The aligned rows the picked value's live ranges cover in before and after ([first,
    /// last], -1 when that side has none).
    std::pair<double, double> shownRange(bool after) const;
    /// What names that band on the chart ("before: name · size · steps a–b"; empty: none).
    QString shownLabel(bool after) const;

    /// Exports the curves as the extension of `path` says (ChartExport.h): PNG, SVG or PDF of
    /// the chart (a null title: "Live bytes of A and B, aligned"), or CSV of the aligned curves
    /// (ViewCsv::alignedUsage).
    bool exportChart(const QString &path, const ExportOptions &options, QString *error = nullptr);
    std::string curvesCsv() const;

    /// Shows `change`'s live range in before and after on the curves.
    void showChange(const ValueChange &change);
    /// Shows the value named `name` (`name{index}` in either dump, or the name without an
    /// index) on both curves and its row in the Values tab; false when neither dump has it.
    bool showValue(const QString &name);
    /// Shows the value a cause's link names (`a:INDEX` of before, `b:INDEX` of after), with
    /// its counterpart, on both curves, and picks it.
    void showCauseValue(const QString &link);

Q_SIGNALS:
    /// A value was picked: its index in the before dump (-1 when only the after dump has it)
    /// and its name.
    void valuePicked(int before, const QString &name);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// "jit_train_step (0294)" for a module name (ModuleFiles::shortNameOfStem).
    static QString shortName(const QString &module);
    /// A legend key's text, cut in its middle to a width the window can afford.
    QString legendName(const QString &name) const;
    void fillPlot();
    void fillTables();
    void fillCategories();
    void fillCauses();
    /// A cause's sentence and its values as links (`a:INDEX`, `b:INDEX`), rich text.
    QString causeRichText(const Cause &c) const;
    /// Each cause row as tall as its wrapped sentence and links; the scheduled one runs once
    /// the events in hand are done (the header's widths settled).
    void fitCauseRows();
    void scheduleFitCauseRows();
    bool m_fitPending = false;
    void pick(const ValueChange &change);

    JobRunner *m_jobs;

    std::shared_ptr<const Dump> m_before, m_after;
    std::shared_ptr<const MemoryTimeline> m_beforeTimeline, m_afterTimeline;
    QString m_beforeName, m_afterName;
    std::shared_ptr<const DumpDiff> m_diff;
    QLabel *m_summary;
    QCustomPlot *m_plot;
    QCPItemRect *m_spanBefore = nullptr;
    QCPItemRect *m_spanAfter = nullptr;
    QCPItemText *m_spanBeforeLabel = nullptr; ///< "before: name · size · steps a–b"
    QCPItemText *m_spanAfterLabel = nullptr;
    /// The peaks' labels and where their lines stand; laid out after each replot.
    struct PeakMark
    {
        QCPItemText *label = nullptr;
        double x = 0;
        int side = 1; ///< 1: right of its line first, -1: left
    };
    std::vector<PeakMark> m_peakMarks;
    QVector<double> m_curveTop; ///< the higher curve per aligned row
    /// Puts the peaks' labels where they cover neither curve, the picked value's bands nor
    /// each other (LabelLayout); true when one moved.
    bool placePeakLabels();
    QTabWidget *m_tabs;
    QSplitter *m_split = nullptr;
    QTableWidget *m_atPeak;
    QTableWidget *m_causes;
    QWidget *m_whyPage;
    QLabel *m_headline;
    QTreeWidget *m_byOpName;
    QTreeWidget *m_byStack;
    QTableWidget *m_bySource;
    QTableWidget *m_byKind;
    QTableWidget *m_byCategory;
    QComboBox *m_filter;
    QTableView *m_values;
    ValueChangeModel *m_valueChanges;
};

} // namespace bufferscope
