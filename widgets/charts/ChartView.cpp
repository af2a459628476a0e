#include "charts/ChartView.h"

#include "Workspace.h"
#include "drawing/ChartPalette.h"
#include "drawing/SwatchLegendItem.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "windows/DialogFolders.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace bufferscope {

ChartView::ChartView(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_selection(workspace->selection()),
      m_plot(new QCustomPlot(this)), m_toolRow(new QHBoxLayout),
      // Session scope: the work owns its data, so a CSV asked for is written even when another
      // dump is opened meanwhile.
      m_csvLane(workspace->jobs()->newLane("chart csv", JobRunner::Scope::Session))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    m_toolRow->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_toolRow);
    layout->addWidget(m_plot, 1);
    // Nothing to draw: a sentence over the chart, never empty axes. Laid over the plot (not
    // instead of it), so the first dump shown costs no relayout of every chart.
    m_empty = new QLabel(m_plot);
    m_empty->setTextFormat(Qt::PlainText);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(24);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setAutoFillBackground(true);
    m_empty->setBackgroundRole(QPalette::Window);

    // Highlights live on their own buffered layer above "main": moving the selection
    // replots that layer alone instead of every box.
    m_plot->addLayer(QStringLiteral("highlight"), m_plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    m_highlightLayer = m_plot->layer(QStringLiteral("highlight"));
    m_highlightLayer->setMode(QCPLayer::lmBuffered);
    // The legend sits in its own row under the chart, so it never covers bars or boxes.
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    auto *legendRow = new QCPLayoutGrid;
    m_legendRow = legendRow;
    m_plot->plotLayout()->addElement(1, 0, legendRow);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    legendRow->setMargins(QMargins(0, 0, 0, 4));
    legendRow->addElement(0, 0, m_plot->legend);
    // An empty legend (a view before its first dump) wants no width at all, and the column it
    // shares with the axis rect would shrink to that: a spacer beside it, with next to no
    // stretch, keeps the column as wide as the plot.
    legendRow->addElement(0, 1, new QCPLayoutElement(m_plot));
    legendRow->setColumnStretchFactor(1, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(4);
    m_plot->legend->setBorderPen(Qt::NoPen);
    connect(m_plot, &QCustomPlot::beforeReplot, this, &ChartView::fitLegend);

    // Every dump the workspace shows comes here (Workspace::show hands it to its subscribers).
    workspace->subscribe(
        this, {}, [this](const LoadedDump &loaded) { setDump(loaded.dump, loaded.timeline); });

    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->installEventFilter(this);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ChartView::showContextMenu);
    updateEmptyState();

    // After a replot the axis rect has its final size: names that no longer fit (or now do)
    // are corrected with one more queued replot.
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (m_dump && updateLabels())
            replotAll();
    });
    connect(m_plot, &QCustomPlot::mousePress, this,
            [this](QMouseEvent *event) { m_pressPos = event->position().toPoint(); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        // A click, not the end of a drag (QCustomPlot pans on drag).
        if (m_dump && event->button() == Qt::LeftButton &&
            (event->position().toPoint() - m_pressPos).manhattanLength() <= 3)
            plotClicked(event->position());
    });
    // A click changes the value and the step at once (the workspace's rule): one replot.
    connect(m_selection, &Selection::currentChanged, this,
            [this](int value, qint64 step, int changes) {
                if (changes & Selection::StepChanged)
                    showStep(step);
                if (changes & Selection::ValueChanged)
                    showValue(value);
                replotHighlight();
            });
    connect(m_selection, &Selection::highlightedGroupChanged, this,
            [this](const QVector<int> &values) {
                if (!m_dump)
                    return;
                showGroup(values);
                replotHighlight();
            });
    connect(m_selection, &Selection::hoveredValueChanged, this, [this](int value) {
        showHover(value);
        replotHighlight();
    });
}

ChartView::~ChartView() = default;

void ChartView::addBelowPlot(QWidget *widget)
{
    layout()->addWidget(widget);
}

void ChartView::pointerLeft()
{
    QToolTip::hideText();
}

void ChartView::setDump(std::shared_ptr<const Dump> dump,
                        std::shared_ptr<const MemoryTimeline> timeline)
{
    pointerLeft(); // nothing the pointer showed of the previous dump stays
    m_dump = std::move(dump);
    m_timeline = std::move(timeline);
    m_highlighted = -1;
    applyPalette();
    rebuild();
    showValue(m_selection->currentValue());
    showStep(m_selection->currentStep());
    updateEmptyState();
    replotAll();
}

QString ChartView::emptyText() const
{
    if (!m_dump)
        return tr("No dump shown yet. Open one with File ▸ Open, or drop a dump or a dump folder "
                  "on the window.");
    if (!m_dump->hasLiveRanges())
        return toQString(m_dump->noLiveRangesText()) +
               tr(" Its allocations and values are all there: see the Allocations dock and the "
                  "Values tab.");
    return {};
}

void ChartView::updateEmptyState()
{
    const QString text = emptyText();
    m_empty->setText(text);
    m_empty->setGeometry(m_plot->rect());
    m_empty->setVisible(!text.isEmpty());
    if (!text.isEmpty())
        m_empty->raise();
}

QString ChartView::emptyStateText() const
{
    return m_empty->isVisibleTo(m_plot) ? m_empty->text() : QString();
}

void ChartView::applyPalette()
{
    ChartPalette::style(m_plot, palette());
}

void ChartView::setKindLegend()
{
    QCPLegend *legend = m_plot->legend;
    legend->clearItems();
    bool kinds[kAllocationKindCount] = {};
    for (const Allocation &a : m_dump->allocations)
        kinds[static_cast<int>(a.kind)] = true;
    for (int k = 0; k < kAllocationKindCount; ++k) {
        const auto kind = static_cast<AllocationKind>(k);
        if (kinds[k])
            legend->addItem(new SwatchLegendItem(legend, ChartPalette::kindColor(kind),
                                                 toQString(allocationKindName(kind))));
    }
}

qint64 ChartView::stepAtPixel(double x) const
{
    const auto step = static_cast<qint64>(std::floor(m_plot->xAxis->pixelToCoord(x)));
    return m_dump && step >= 0 && step < m_dump->stepCount() ? step : -1;
}

void ChartView::placeStepLine(QCPItemStraightLine *line, qint64 step) const
{
    const bool visible = m_dump && step >= 0 && step < m_dump->stepCount();
    line->setVisible(visible);
    if (!visible)
        return;
    const double x = static_cast<double>(step) + 0.5;
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
}

void ChartView::replotHighlight()
{
    if (m_deferHiddenReplots && !m_plot->isVisible()) {
        m_highlightStale = true;
        return;
    }
    m_highlightStale = false;
    ++m_highlightReplots;
    m_highlightLayer->replot();
    // A chart's own label layer above it (UsageChart) shows what the highlight changes.
    if (QCPLayer *labels = m_plot->layer(QStringLiteral("labels")))
        labels->replot();
}

void ChartView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_highlightStale)
        replotHighlight();
}

void ChartView::replotAll()
{
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool ChartView::exportTo(const QString &path, const ExportOptions &options, QString *error)
{
    ensureCurrent();
    ExportOptions o = options;
    if (o.title.isNull())
        o.title = title();
    // An export has its own size: the legend row is there whatever the chart on screen lacks.
    const bool shown = m_legendShown;
    setLegendRowShown(true);
    const bool written = ChartExport::write(
        m_plot, path, o, [this] { return csv(); }, [this] { return updateLabels(); }, error);
    setLegendRowShown(shown);
    return written;
}

std::string ChartView::csv()
{
    if (!m_dump)
        return {};
    ensureCurrent();
    return csvWork()();
}

bool ChartView::writeCsvInBackground(const QString &path)
{
    return !path.isEmpty() && startCsv(path);
}

bool ChartView::copyCsvInBackground()
{
    return startCsv(QString());
}

bool ChartView::isWritingCsv() const
{
    return m_workspace->jobs()->isBusy(m_csvLane);
}

QString ChartView::csvBusyText()
{
    return tr("the chart's data is still being written to another file; try again when it is "
              "done");
}

bool ChartView::startCsv(const QString &path)
{
    if (!m_dump || isWritingCsv())
        return false;
    ensureCurrent();
    struct Written
    {
        QString error;
        QString text; ///< for the clipboard
    };
    m_workspace->jobs()->run(
        m_csvLane, this,
        [work = csvWork(), path](const JobControl &) {
            Written w;
            const std::string csv = work();
            if (path.isEmpty())
                w.text = QString::fromUtf8(csv.data(), static_cast<qsizetype>(csv.size()));
            else
                ChartExport::writeFile(
                    path, QByteArray::fromRawData(csv.data(), static_cast<qsizetype>(csv.size())),
                    &w.error);
            return w;
        },
        [this, path](const Written &w) {
            m_plot->unsetCursor();
            if (path.isEmpty() && w.error.isEmpty())
                QApplication::clipboard()->setText(w.text);
            Q_EMIT csvWritten(path, w.error);
        });
    m_plot->setCursor(Qt::BusyCursor);
    return true;
}

QString ChartView::footerText() const
{
    return ChartExport::footerFor(
        m_dump && !m_dump->files.empty() ? toQString(m_dump->files.front().path) : QString());
}

void ChartView::saveCsvAs()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Chart Data as CSV"),
        DialogFolders::savePath(viewName() + QStringLiteral(".csv")), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    DialogFolders::rememberSaved(path);
    // csvWritten says how it ends; only a CSV started meanwhile (the export dialog) stops it.
    if (!writeCsvInBackground(path))
        ChartExport::warnNotWritten(this, tr("Save Failed"), path, csvBusyText());
}

ChartView::Ranges ChartView::ranges() const
{
    Ranges r;
    if (!m_dump)
        return r;
    r.xLower = m_plot->xAxis->range().lower;
    r.xUpper = m_plot->xAxis->range().upper;
    r.yLower = m_plot->yAxis->range().lower;
    r.yUpper = m_plot->yAxis->range().upper;
    r.valid = true;
    return r;
}

void ChartView::restoreRanges(const Ranges &r)
{
    if (!r.valid || !m_dump)
        return;
    // Only a range that overlaps the new data's full extent is kept: after a reload that
    // shortened the program, a zoom into steps that no longer exist would show nothing.
    const QCPRange fullX = m_plot->xAxis->range();
    const QCPRange fullY = m_plot->yAxis->range();
    if (r.xUpper <= fullX.lower || r.xLower >= fullX.upper || r.yUpper <= fullY.lower ||
        r.yLower >= fullY.upper)
        return;
    m_plot->xAxis->setRange(r.xLower, r.xUpper);
    m_plot->yAxis->setRange(r.yLower, r.yUpper);
    replotAll();
}

void ChartView::showContextMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addAction(tr("Export…"), this, [this] { Q_EMIT exportRequested(this); });
    menu.addAction(tr("Copy Image"), this,
                   [this] { QApplication::clipboard()->setPixmap(m_plot->toPixmap()); });
    if (m_dump) {
        // One CSV at a time: the actions wait while one is being made.
        const bool writing = isWritingCsv();
        menu.addAction(tr("Copy Data as CSV"), this, [this] { copyCsvInBackground(); })
            ->setEnabled(!writing);
        menu.addAction(tr("Save Data as CSV…"), this, &ChartView::saveCsvAs)->setEnabled(!writing);
    }
    menu.addSeparator();
    menu.addAction(tr("Reset Zoom"), this, [this] { resetZoom(); });
    if (m_selection->currentValue() >= 0)
        menu.addAction(tr("Clear Selection"), m_selection, &Selection::clear);
    menu.exec(m_plot->mapToGlobal(pos));
}

bool ChartView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        m_empty->setGeometry(m_plot->rect()); // the empty state covers the plot
    if (watched == m_plot && event->type() == QEvent::KeyPress && m_dump) {
        // Arrow keys walk the program order; Shift moves ten steps; Esc clears the value.
        // (The workspace clamps; with no step yet, stepping starts from step 0.)
        const auto *key = static_cast<QKeyEvent *>(event);
        const qint64 stride = (key->modifiers() & Qt::ShiftModifier) ? 10 : 1;
        switch (key->key()) {
        case Qt::Key_Left:
            m_workspace->stepBy(-stride);
            return true;
        case Qt::Key_Right:
            m_workspace->stepBy(stride);
            return true;
        case Qt::Key_Home:
            m_workspace->setStep(0);
            return true;
        case Qt::Key_End:
            m_workspace->setStep(m_dump->stepCount() - 1);
            return true;
        case Qt::Key_Escape:
            m_selection->clear();
            return true;
        default:
            break;
        }
    }
    if (watched == m_plot && event->type() == QEvent::Show) {
        // QCustomPlot reads the device pixel ratio once, in its constructor: re-sync it when
        // the view appears (possibly on another screen), or it draws blurry on HiDPI.
        m_plot->setBufferDevicePixelRatio(m_plot->devicePixelRatioF());
    }
    if (watched == m_plot && event->type() == QEvent::Leave) {
        m_selection->setHoveredValue(-1);
        pointerLeft();
    }
    return QWidget::eventFilter(watched, event);
}

void ChartView::fitLegend()
{
    QCPLegend *legend = m_plot->legend;
    const int wrap = ChartExport::legendWrap(legend, m_plot->width());
    if (legend->wrap() != wrap)
        legend->setWrap(wrap);
    // The rows the legend takes, and what the axes take around the plot (from the last
    // layout): a plot left shorter than kMinPlotPixels loses the legend row instead.
    constexpr int kMinPlotPixels = 64;
    int items = 0;
    int rowHeight = 0;
    for (int i = 0; i < legend->itemCount(); ++i) // cells of the grid, some of them empty
        if (const QCPAbstractLegendItem *item = legend->item(i)) {
            ++items;
            rowHeight =
                std::max(rowHeight, item->minimumOuterSizeHint().height() + legend->rowSpacing());
        }
    const int rows = items > 0 ? (items + wrap - 1) / wrap : 0;
    const QCPAxisRect *rect = m_plot->axisRect();
    const int around = rect->outerRect().height() - rect->rect().height();
    const int left = m_plot->height() - rows * rowHeight - std::max(around, 0);
    setLegendRowShown(rows == 0 || left >= kMinPlotPixels);
}

void ChartView::setLegendRowShown(bool shown)
{
    if (shown == m_legendShown)
        return;
    m_legendShown = shown;
    // Out of the layout, the legend would still be drawn where it was last laid out.
    m_plot->legend->setVisible(shown);
    QCPLayoutGrid *layout = m_plot->plotLayout();
    if (!shown) {
        layout->take(m_legendRow);
        layout->simplify();
        return;
    }
    layout->insertRow(1);
    layout->addElement(1, 0, m_legendRow);
    layout->setRowStretchFactor(1, 0.001);
}

void ChartView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replotAll();
    }
}

} // namespace bufferscope
