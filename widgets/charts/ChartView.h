#pragma once

#include "analysis/MemoryTimeline.h"
#include "drawing/ChartExport.h"
#include "model/Dump.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <string>

class QCPItemStraightLine;
class QCPLayer;
class QCPLayoutGrid;
class QCustomPlot;
class QHBoxLayout;
class QLabel;

namespace bufferscope {

class Selection;
class Workspace;

/// Base of every chart view: a row of view-specific controls above one QCustomPlot, a
/// buffered "highlight" layer for the selection (moving a highlight replots only that layer),
/// a context menu with export, palette-following colours and keyboard stepping. Views read the
/// shared Selection and write to it, and ask the Workspace for what they draw; they never talk
/// to each other.
class ChartView : public QWidget
{
    Q_OBJECT
public:
    /// How many times the highlight layer was redrawn (one per selection change: tests).
    int highlightReplots() const { return m_highlightReplots; }
    explicit ChartView(Workspace *workspace, QWidget *parent = nullptr);
    ~ChartView() override;

    /// Shows `dump`: the workspace calls it for each dump it shows (the view subscribes itself);
    /// a host calls it only to show a dump the workspace does not hold.
    void setDump(std::shared_ptr<const Dump> dump, std::shared_ptr<const MemoryTimeline> timeline);
    QCustomPlot *plot() const { return m_plot; }
    Selection *selection() const { return m_selection; }
    Workspace *workspace() const { return m_workspace; }

    /// Short name for menus and file names ("usage", "gantt", "memory-map").
    virtual QString viewName() const = 0;
    /// Human title for exports: what is shown, of which module.
    virtual QString title() const = 0;
    /// Exports the view in the format of `path`'s extension (ChartExport.h): a PNG of exactly
    /// width*scale x height*scale pixels, an SVG or a PDF of width x height, each with the
    /// title (a null title: title()), the axes, the legend, the labels that fit at that size,
    /// the selection and the footer; or the CSV of the data behind the view (csv()). Works on
    /// hidden and never-shown views. Written atomically (QSaveFile): a failed export never
    /// leaves a partial file, and an existing one is replaced only once the new one is
    /// complete. On failure `error` says why.
    bool exportTo(const QString &path, const ExportOptions &options, QString *error = nullptr);
    /// The data behind the view as CSV (core/report/ViewCsv.h), in the view's current mode
    /// (memory space, order, allocation, grouping, step). Empty without a dump.
    std::string csv();
    /// The same CSV written to `path` (atomically, as exportTo) or put on the clipboard, made
    /// on a worker: a million values' CSV is some 200 MB and seconds of work the window keeps
    /// answering through. The data is the view's as it is now, whatever the user does
    /// meanwhile. csvWritten follows (also for the clipboard, with an empty path). False,
    /// and nothing started, without a dump or while the view is still writing one.
    bool writeCsvInBackground(const QString &path);
    bool copyCsvInBackground();
    /// A CSV of the view is being made.
    bool isWritingCsv() const;
    /// Why another CSV cannot start while isWritingCsv(), for a warning.
    static QString csvBusyText();
    /// The footer exports offer: the dump's file name and BufferScope's version.
    QString footerText() const;
    /// The visible axis ranges, to be put back after a reload (restoreRanges ignores ranges that
    /// no longer fit the data).
    struct Ranges
    {
        double xLower = 0, xUpper = 0, yLower = 0, yUpper = 0;
        bool valid = false;
    };
    Ranges ranges() const;
    void restoreRanges(const Ranges &ranges);
    /// The value the view shows as selected (-1: none); tests and the export check it.
    int highlightedValue() const { return m_highlighted; }
    /// Back to the full extent of the data.
    virtual void resetZoom() = 0;
    /// What the view says in place of the chart when it has nothing to draw (no dump, a dump
    /// without live ranges); empty while it draws.
    QString emptyStateText() const;

Q_SIGNALS:
    /// The user asked to export this view (context menu); the window shows the export dialog.
    void exportRequested(bufferscope::ChartView *view);
    /// A CSV made in the background is written to `path` (empty: put on the clipboard), or
    /// could not be, for the reason `error`.
    void csvWritten(const QString &path, const QString &error);

protected:
    QHBoxLayout *toolRow() const { return m_toolRow; }
    /// Adds a widget under the plot (e.g. a list of values the chart cannot draw).
    void addBelowPlot(QWidget *widget);
    QCPLayer *highlightLayer() const { return m_highlightLayer; }
    const Dump *dump() const { return m_dump.get(); }
    const std::shared_ptr<const Dump> &dumpPointer() const { return m_dump; }
    const MemoryTimeline *timeline() const { return m_timeline.get(); }
    const std::shared_ptr<const MemoryTimeline> &timelinePointer() const { return m_timeline; }

    /// The dump changed: rebuild data and items, then call showValue/showStep.
    virtual void rebuild() = 0;
    /// Show `value` (-1: none) as selected on the highlight layer.
    virtual void showValue(int value) = 0;
    virtual void showStep(qint64 step) = 0;
    virtual void showHover(int value) { Q_UNUSED(value) }
    /// Brings deferred work up to date before the view is drawn off screen (exports).
    virtual void ensureCurrent() {}
    /// Names that fit only at some sizes (memory-map bands, Gantt rows): recomputes them for the
    /// axis rect's current size and returns whether they changed. Called after every replot
    /// (another replot follows a change) and by exports at the exported size.
    virtual bool updateLabels() { return false; }
    /// Makes the CSV of the view's data: work that owns what it reads (shared pointers to the
    /// immutable dump, timeline and layouts), so it may run on any thread. csv() and the
    /// background writers ask for it once the view is current.
    using CsvWork = std::function<std::string()>;
    virtual CsvWork csvWork() const = 0;
    /// Show a group of values (a breakdown group) highlighted together; empty: none.
    virtual void showGroup(const QVector<int> &values) { Q_UNUSED(values) }
    /// Re-colour axes, grid and text from the current palette.
    virtual void applyPalette();
    /// Why there is nothing to draw, in the view's place; empty when there is. By default: no
    /// dump, or a dump without live ranges (every chart here draws over the program order).
    virtual QString emptyText() const;
    /// Shows emptyText() instead of the plot when there is one, the plot otherwise.
    void updateEmptyState();

    void setHighlighted(int value) { m_highlighted = value; }
    /// A left click on the plot that was not the end of a drag (the dump is loaded).
    virtual void plotClicked(const QPointF &pixel) { Q_UNUSED(pixel) }
    /// The pointer left the plot, or another dump came: whatever followed the pointer goes
    /// (a tooltip, a cursor line and its label).
    virtual void pointerLeft();
    /// The program step under widget pixel column `x`, or -1 outside the program.
    qint64 stepAtPixel(double x) const;
    /// Replaces the legend with a swatch for each allocation kind the dump has.
    void setKindLegend();
    /// Puts a vertical step line at the centre of `step`; hides it for steps outside the program.
    void placeStepLine(QCPItemStraightLine *line, qint64 step) const;
    /// Replots the highlight layer only (cheap), through the queued replot. With
    /// setDeferHiddenReplots, a chart not on screen (a closed or tabbed-away dock, a chart drawn
    /// for `export`) does so when it is shown instead: its first replot draws every layer, a
    /// million boxes for a big dump.
    void replotHighlight();
    /// For charts whose picture does not depend on having been replotted before (the box
    /// charts: the usage chart places its labels after a replot).
    void setDeferHiddenReplots(bool defer) { m_deferHiddenReplots = defer; }
    void replotAll();

    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    /// The legend fitted to the chart before each replot: as many entries per row as the
    /// widest fits (ChartExport::legendWrap); on a chart too short for both, the plot keeps
    /// its room and the legend row goes (hovering still names every line and box).
    void fitLegend();
    void setLegendRowShown(bool shown);
    QLabel *m_empty = nullptr; ///< the empty state, in the plot's place
    void showContextMenu(const QPoint &pos);
    void saveCsvAs();
    /// Runs csvWork() on the CSV lane and writes its text to `path`, or, with an empty path,
    /// turns it into the clipboard's text, on the worker; the GUI thread only delivers.
    bool startCsv(const QString &path);

    Workspace *m_workspace;
    Selection *m_selection;
    QCustomPlot *m_plot;
    QHBoxLayout *m_toolRow;
    QCPLayer *m_highlightLayer;
    QCPLayoutGrid *m_legendRow;
    bool m_legendShown = true;
    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const MemoryTimeline> m_timeline;
    int m_highlighted = -1;
    bool m_deferHiddenReplots = false;
    bool m_highlightStale = false; ///< replotHighlight came while the chart was not shown
    QPoint m_pressPos;
    int m_csvLane; ///< the JobRunner lane of writeCsvInBackground and copyCsvInBackground
    int m_highlightReplots = 0;
};

} // namespace bufferscope
