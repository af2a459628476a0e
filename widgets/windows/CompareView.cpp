#include "windows/CompareView.h"

#include "JobRunner.h"
#include "drawing/BytesTicker.h"
#include "drawing/ChartExport.h"
#include "drawing/ChartPalette.h"
#include "drawing/LinkRestyle.h"
#include "layout/LabelLayout.h"
#include "model/ModuleNames.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/ValueChangeModel.h"
#include "report/DiffReport.h"
#include "report/Report.h"
#include "report/ViewCsv.h"
#include "tables/TableCsv.h"
#include "windows/DialogFolders.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

namespace bufferscope {

namespace {

/// A table cell that sorts by `sortKey` (bytes) and shows `text`.
/// A cause row's index in DiffCauses::causes (the row's first cell).
constexpr int CauseRole = Qt::UserRole + 1;

QTableWidgetItem *cell(const QString &text, qint64 sortKey, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, sortKey);
    item->setToolTip(number ? QObject::tr("%1 bytes").arg(sortKey) : plainToolTip(text));
    if (number) {
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        item->setData(BytesRole, sortKey); // exact, for Copy as CSV
    }
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

QTableWidget *makeTable(QWidget *parent, const QStringList &headers)
{
    auto *t = new QTableWidget(parent);
    t->setColumnCount(static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->setAlternatingRowColors(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

/// A byte cell with no value behind it ("—"): no exact bytes either.
QTableWidgetItem *noBytes(QTableWidgetItem *item)
{
    item->setData(BytesRole, QVariant());
    return item;
}

QTreeWidget *makeTree(QWidget *parent, const QString &what)
{
    auto *t = new QTreeWidget(parent);
    t->setColumnCount(4);
    t->setHeaderLabels({what, QObject::tr("Δ bytes"), QObject::tr("before"), QObject::tr("after")});
    t->setAlternatingRowColors(true);
    t->setUniformRowHeights(true);
    // The numbers first and the names last, stretched, as in the tables beside it; the tree's
    // branches go with the names.
    t->header()->moveSection(0, 3);
    t->header()->setStretchLastSection(true);
    for (int c = 1; c < 4; ++c)
        t->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    return t;
}

void fillTree(QTreeWidget *tree, const DeltaNode &root)
{
    tree->clear();
    // Depth first, with an explicit stack: call stacks can be a thousand frames deep.
    std::vector<std::pair<const DeltaNode *, QTreeWidgetItem *>> todo;
    for (auto it = root.children.rbegin(); it != root.children.rend(); ++it)
        todo.emplace_back(&*it, nullptr);
    std::vector<QTreeWidgetItem *> tops;
    while (!todo.empty()) {
        const auto [node, parent] = todo.back();
        todo.pop_back();
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem();
        if (!parent)
            tops.push_back(item);
        item->setText(0, toQString(node->label));
        item->setToolTip(0, plainToolTip(toQString(node->label)));
        item->setText(1, signedBytesText(node->delta()));
        item->setText(2, humanBytesText(node->before));
        item->setText(3, humanBytesText(node->after));
        item->setData(1, BytesRole, static_cast<qint64>(node->delta()));
        item->setData(2, BytesRole, static_cast<qint64>(node->before));
        item->setData(3, BytesRole, static_cast<qint64>(node->after));
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(1, QObject::tr("%1 bytes").arg(node->delta()));
        for (auto it = node->children.rbegin(); it != node->children.rend(); ++it)
            todo.emplace_back(&*it, item);
    }
    // `tops` came out in order; children were appended in order under their parents.
    tree->addTopLevelItems(QList<QTreeWidgetItem *>(tops.begin(), tops.end()));
    // Open down to where the changes split.
    for (QTreeWidgetItem *item = tree->topLevelItemCount() == 1 ? tree->topLevelItem(0) : nullptr;
         item; item = item->childCount() == 1 ? item->child(0) : nullptr)
        item->setExpanded(true);
    if (tree->topLevelItemCount() > 0)
        tree->topLevelItem(0)->setExpanded(true);
    for (int c = 1; c < 4; ++c)
        tree->resizeColumnToContents(c);
}

} // namespace

void CompareView::keyPressEvent(QKeyEvent *event)
{
    // A window of its own closes as windows do: Ctrl+W, and Esc (keys its tables leave alone
    // come here).
    if (isWindow() && (event->matches(QKeySequence::Close) || event->key() == Qt::Key_Escape)) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool CompareView::eventFilter(QObject *watched, QEvent *event)
{
    // The causes' rows are as tall as their wrapped sentences at the width the table has now:
    // again whenever its viewport gets another size, and when it is first shown (before that
    // it has no width of its own, and every row would be sized for a sliver).
    if (watched == m_causes->viewport() &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        scheduleFitCauseRows();
    return QWidget::eventFilter(watched, event);
}

CompareView::CompareView(JobRunner *jobs, QWidget *parent, Qt::WindowFlags flags)
    : QWidget(parent, flags), m_jobs(jobs), m_summary(new QLabel(this)),
      m_plot(new QCustomPlot(this)), m_tabs(new QTabWidget(this))
{
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_summary->setWordWrap(true);
    m_atPeak = makeTable(
        this, {tr("change"), tr("Δ at the peak"), tr("before"), tr("after"), tr("value")});
    m_atPeak->setToolTip(tr("Click a row to show the value on both curves"));
    m_causes = makeTable(this, {tr("cause"), tr("Δ peak"), tr("Δ held"), tr("why")});
    m_causes->viewport()->installEventFilter(this);
    m_causes->setWordWrap(true);
    m_causes->setTextElideMode(Qt::ElideNone);
    // Rows as tall as their wrapped sentence at the width the window gives them.
    connect(m_causes->horizontalHeader(), &QHeaderView::sectionResized, m_causes,
            [this] { scheduleFitCauseRows(); });
    m_causes->setToolTip(tr("Click a cause to show its largest value on both curves; each "
                            "cause's share of the change of the live peak and of what the "
                            "device holds while the module runs (they add up to both)"));
    TableCsv::addActions(m_causes, QStringLiteral("compare-causes"));
    connect(m_causes, &QTableWidget::cellClicked, this, [this](int row, int) {
        const QTableWidgetItem *item = m_causes->item(row, 0);
        if (!m_diff || !item)
            return;
        const auto k = item->data(CauseRole).toULongLong();
        if (k >= m_diff->why.causes.size())
            return;
        const Cause &c = m_diff->why.causes[k];
        // Its largest value, with what it is on the other side.
        std::uint32_t va = c.valuesBefore.empty() ? kNone : c.valuesBefore.front();
        std::uint32_t vb = c.valuesAfter.empty() ? kNone : c.valuesAfter.front();
        if (vb != kNone && (va == kNone || m_diff->match.valueInA[vb] != kNone))
            va = m_diff->match.valueInA[vb];
        else if (va != kNone && vb == kNone)
            vb = m_diff->match.valueInB[va];
        if (va == kNone && vb == kNone)
            return;
        ValueChange v;
        v.before = DiffSide::of(*m_before, va);
        v.after = DiffSide::of(*m_after, vb);
        pick(v);
    });
    m_byOpName = makeTree(this, tr("op_name"));
    m_byStack = makeTree(this, tr("call stack (outermost caller first)"));
    m_bySource = makeTable(this, {tr("Δ bytes"), tr("before"), tr("after"), tr("source")});
    m_byKind = makeTable(this, {tr("Δ bytes"), tr("before"), tr("after"), tr("allocation kind")});
    m_byCategory =
        makeTable(this, {tr("Δ held"), tr("held before"), tr("held after"), tr("Δ at the peak"),
                         tr("peak before"), tr("peak after"), tr("category")});
    m_byCategory->setToolTip(
        tr("What kind of memory grew or shrank (the Categories view's categories): held while "
           "it runs (argument + output − alias + temp) and live at each side's own peak; the "
           "largest change first"));
    // A model over the diff, not an item per cell: two million-value dumps can differ in
    // every value.
    m_valueChanges = new ValueChangeModel(this);
    m_values = new QTableView(this);
    m_values->setModel(m_valueChanges);
    m_values->verticalHeader()->hide();
    m_values->verticalHeader()->setDefaultSectionSize(m_values->fontMetrics().height() + 6);
    m_values->setAlternatingRowColors(true);
    m_values->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_values->horizontalHeader()->setStretchLastSection(true);
    m_values->setWordWrap(false);
    m_values->setSortingEnabled(true);
    m_values->verticalHeader()->setResizeContentsPrecision(100);
    m_values->setToolTip(
        tr("Click a row to show the value on both curves and select it in the main window"));
    TableCsv::addActions(m_atPeak, QStringLiteral("compare-at-peak"));
    TableCsv::addActions(m_byOpName, QStringLiteral("compare-by-op-name"));
    TableCsv::addActions(m_byStack, QStringLiteral("compare-by-call-stack"));
    TableCsv::addActions(m_bySource, QStringLiteral("compare-by-source"));
    TableCsv::addActions(m_byKind, QStringLiteral("compare-by-kind"));
    TableCsv::addActions(m_byCategory, QStringLiteral("compare-by-category"));
    TableCsv::addActions(m_values, QStringLiteral("compare-values"));
    connect(m_values, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        if (m_diff && index.isValid())
            pick(m_valueChanges->changeAt(index.row()));
    });
    connect(m_atPeak, &QTableWidget::cellClicked, this, [this](int row, int) {
        const QTableWidgetItem *item = m_atPeak->item(row, 0);
        if (!m_diff || !item)
            return;
        const auto k = item->data(Qt::UserRole).toULongLong();
        if (k < m_diff->atPeak.size()) {
            const PeakChange &c = m_diff->atPeak[k];
            ValueChange v;
            v.before = c.before;
            v.after = c.after;
            pick(v);
        }
    });
    m_filter = new QComboBox(this);
    auto *valuesPage = new QWidget(this);
    auto *filterRow = new QHBoxLayout;
    auto *filterLabel = new QLabel(tr("&Show:"), valuesPage);
    filterLabel->setBuddy(m_filter);
    filterRow->addWidget(filterLabel);
    filterRow->addWidget(m_filter);
    filterRow->addStretch(1);
    auto *valuesLayout = new QVBoxLayout(valuesPage);
    valuesLayout->setContentsMargins(0, 4, 0, 0);
    valuesLayout->addLayout(filterRow);
    valuesLayout->addWidget(m_values);
    connect(m_filter, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_valueChanges->setFilter(
            static_cast<ValueChangeModel::Filter>(m_filter->itemData(index).toInt()));
        m_values->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    });

    // The Why page: the headline, one sentence to act on, over the causes.
    m_whyPage = new QWidget(this);
    m_headline = new QLabel(m_whyPage);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setContentsMargins(4, 4, 4, 2);
    auto *whyLayout = new QVBoxLayout(m_whyPage);
    whyLayout->setContentsMargins(0, 0, 0, 0);
    whyLayout->setSpacing(2);
    whyLayout->addWidget(m_headline);
    whyLayout->addWidget(m_causes, 1);
    m_tabs->addTab(m_whyPage, tr("Why"));
    m_tabs->addTab(m_atPeak, tr("At the peaks"));
    m_tabs->addTab(m_byOpName, tr("By op_name"));
    m_tabs->addTab(m_byStack, tr("By call stack"));
    m_tabs->addTab(m_bySource, tr("By source"));
    m_tabs->addTab(m_byKind, tr("By kind"));
    m_tabs->addTab(m_byCategory, tr("By category"));
    m_tabs->addTab(valuesPage, tr("Values"));

    m_plot->setMinimumHeight(200);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (placePeakLabels())
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        if (!m_diff)
            return;
        QMenu menu(this);
        menu.addAction(tr("Export Chart…"), this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export Chart"), DialogFolders::savePath(QStringLiteral("compare.png")),
                ChartExport::fileFilters(ExportFormat::Png));
            if (path.isEmpty())
                return;
            DialogFolders::rememberSaved(path);
            QString why;
            if (!exportChart(path, ExportOptions(), &why))
                ChartExport::warnNotWritten(this, tr("Export Failed"), path, why);
        });
        menu.addAction(tr("Copy Data as CSV"), this,
                       [this] { ChartExport::copyText(curvesCsv()); });
        menu.exec(m_plot->mapToGlobal(pos));
    });
    BytesTicker::installUpright(m_plot->yAxis);
    m_plot->xAxis->setLabel(tr("program order, aligned (matched instructions share a step)"));
    m_plot->yAxis->setLabel(tr("live bytes"));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    // The legend in a row of its own under the axes, where it covers no curve.
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(6, 0, 6, 4));
    legendRow->addElement(0, 0, m_plot->legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(m_plot)); // keeps the entries together
    legendRow->setColumnStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setColumnSpacing(24); // entries apart even where a viewer's font is wider
    m_plot->legend->setVisible(true);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);

    auto *split = m_split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    split->addWidget(m_tabs);
    split->setSizes({600, 400}); // the chart gets the larger share
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    // In the palette's colours, and again when it changes (dark while running).
    ChartPalette::follow(m_plot, [this] {
        if (m_diff)
            fillPlot();
    });
}

CompareView::~CompareView()
{
    // The other dump and a comparison of two big ones take long to free: not here.
    m_valueChanges->setDiff(nullptr);
    m_jobs->release(std::move(m_diff), std::move(m_before), std::move(m_after),
                    std::move(m_beforeTimeline), std::move(m_afterTimeline));
}

void CompareView::setDumps(std::shared_ptr<const Dump> before,
                           std::shared_ptr<const MemoryTimeline> tb, QString beforeName,
                           std::shared_ptr<const Dump> after,
                           std::shared_ptr<const MemoryTimeline> ta, QString afterName,
                           std::shared_ptr<const DumpDiff> diff)
{
    m_before = std::move(before);
    m_beforeTimeline = std::move(tb);
    m_beforeName = std::move(beforeName);
    m_after = std::move(after);
    m_afterTimeline = std::move(ta);
    m_afterName = std::move(afterName);
    m_diff = std::move(diff);
    m_summary->setText(summaryText());
    m_summary->setToolTip(plainToolTip(tr("before: %1\nafter: %2").arg(m_beforeName, m_afterName)));
    m_tabs->setTabVisible(m_tabs->indexOf(m_byStack), m_diff->hasStacks);
    fillCauses(); // the first screen says why: not deferred with the other tables
    m_tabs->setCurrentWidget(m_whyPage);
    // The chart gets the larger share, unless there are many causes to read.
    const std::size_t causes = m_diff->why.causes.size();
    m_split->setSizes(causes <= 2   ? QList<int>{620, 380}
                      : causes <= 4 ? QList<int>{500, 500}
                                    : QList<int>{420, 580});
    fillPlot();
    // The tables in a later turn of the event loop (a timer, not a posted call, so input and
    // painting come in between): the window shows first.
    QTimer::singleShot(1, this, [this, diff = m_diff] {
        if (diff == m_diff) {
            fillTables();
            spdlog::debug("comparison tables filled");
        }
    });
}

QString CompareView::shortName(const QString &module)
{
    return toQString(ModuleNames::shortNameOfStem(module.toStdString()));
}

QString CompareView::legendName(const QString &name) const
{
    // A legend key cannot wrap: a long name is cut in its middle, never the window widened.
    return QFontMetrics(m_plot->legend->font()).elidedText(name, Qt::ElideMiddle, 380);
}

QString CompareView::summaryText() const
{
    if (!m_before)
        return {};
    const DumpDiff &d = *m_diff;
    const auto row = [](const QString &what, qint64 a, qint64 b, const QString &extra = {}) {
        return QStringLiteral(
                   "<tr><td>%1</td><td align=right>%2</td><td>→</td>"
                   "<td align=right>%3</td><td align=right><b>%4</b></td><td>%5</td></tr>")
            .arg(what, humanBytesText(a), humanBytesText(b), signedBytesText(b - a), extra);
    };
    const QString peakNote = tr("steps %1 → %2").arg(d.peakStepBefore).arg(d.peakStepAfter);
    QString lines;
    // Where the peak went: the one sentence the Why tab and `diff` say too.
    if (d.why.peakMoved)
        lines += richEscaped(toQString(d.why.peakMovedText)) + QStringLiteral(". ");
    lines += d.partStepBefore >= 0
                 ? tr("The curves first part at step %1 of before, %2 of after (%3 → %4 live).")
                       .arg(d.partStepBefore)
                       .arg(d.partStepAfter)
                       .arg(humanBytesText(d.partBytesBefore), humanBytesText(d.partBytesAfter))
                 : tr("The curves are the same on every aligned step.");
    lines += QLatin1Char(' ') +
             tr("Values matched by structure: %1 in both (%2 renamed), %3 added, %4 removed, "
                "%5 changed.")
                 .arg(d.matched)
                 .arg(d.renamed)
                 .arg(d.added.size())
                 .arg(d.removed.size())
                 .arg(d.changed.size());
    // Two unrelated programs match only by accident: say so before anyone reads the deltas.
    if (d.differentPrograms())
        lines += QStringLiteral(" <b style='color:#b3261e'>%1.</b>")
                     .arg(richEscaped(toQString(d.differentProgramsText())));
    if (d.lostDonations() > 0)
        lines += QStringLiteral(" <b style='color:#b3261e'>%1</b>")
                     .arg(tr("%n donation(s) lost: a parameter aliased with an output before is "
                             "not after.",
                             nullptr, static_cast<int>(d.lostDonations())));
    if (!d.why.printedDisagree.empty())
        lines +=
            QLatin1Char(' ') + richEscaped(toQString(d.why.printedDisagree)) + QLatin1Char('.');
    // The modules as people name them, breakable after _ . / so a long name wraps rather than
    // widen the window past the screen (issue 49, item 2); the full names in the tooltip.
    const auto breakable = [](const QString &name) {
        QString out = richEscaped(name);
        for (const QChar c : {QLatin1Char('_'), QLatin1Char('.'), QLatin1Char('/')})
            out.replace(c, QString(c) + QChar(0x200B));
        return out;
    };
    return QStringLiteral("<b>%1</b> → <b>%2</b><table cellspacing=4>%3%4%5</table>%6")
        .arg(breakable(shortName(m_beforeName)), breakable(shortName(m_afterName)),
             row(tr("total"), d.totalBefore, d.totalAfter),
             row(tr("peak"), d.peakBefore, d.peakAfter, peakNote),
             row(tr("held"), d.why.heldBefore, d.why.heldAfter,
                 tr("argument + output − alias + temp: what the device holds while it runs")),
             lines);
}

void CompareView::fillCauses()
{
    const DiffCauses &why = m_diff->why;
    m_tabs->setTabText(m_tabs->indexOf(m_whyPage), why.causes.empty()
                                                       ? tr("Why (nothing changed)")
                                                       : tr("Why (%1)").arg(why.causes.size()));
    // The headline in bold, where the peak went under it.
    QString head = QStringLiteral("<b>%1</b>").arg(richEscaped(toQString(why.headline)));
    if (why.peakMoved)
        head += QStringLiteral("<br>%1.").arg(richEscaped(toQString(why.peakMovedText)));
    m_headline->setText(head);
    m_causes->setSortingEnabled(false);
    m_causes->setRowCount(static_cast<int>(why.causes.size()));
    for (int r = 0; r < static_cast<int>(why.causes.size()); ++r) {
        const Cause &c = why.causes[static_cast<std::size_t>(r)];
        auto *kind = cell(QString::fromLatin1(causeKindKey(c.kind)), 0, false);
        kind->setData(CauseRole, static_cast<qulonglong>(r));
        m_causes->setItem(r, 0, kind);
        m_causes->setItem(r, 1, cell(signedBytesText(c.peakDelta), c.peakDelta, true));
        m_causes->setItem(r, 2, cell(signedBytesText(c.heldDelta), c.heldDelta, true));
        m_causes->setItem(r, 3, cell(toQString(c.text), 0, false));
        // Over the plain cell (which Copy as CSV reads): the sentence, then the values as
        // links that show them on both curves.
        auto *label = new QLabel(m_causes);
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setAutoFillBackground(true);
        label->setBackgroundRole(r % 2 == 1 ? QPalette::AlternateBase : QPalette::Base);
        label->setContentsMargins(3, 2, 3, 2);
        label->setText(causeRichText(c));
        // Read again when the colour scheme switches (setText with the same text reads
        // nothing), for its links' colour.
        LinkRestyle::watch(label, [label] {
            const QString text = label->text();
            label->clear();
            label->setText(text);
        });
        label->setToolTip(tr("Click a value to show it on both curves"));
        connect(label, &QLabel::linkActivated, this,
                [this](const QString &link) { showCauseValue(link); });
        m_causes->setCellWidget(r, 3, label);
    }
    m_causes->resizeColumnsToContents();
    // The sentence wraps in the width left to it.
    m_causes->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    fitCauseRows();
}

QString CompareView::causeRichText(const Cause &c) const
{
    // How many values of each side a cause links to; the rest are counted.
    constexpr std::size_t kLinked = 6;
    QString out = richEscaped(toQString(c.text));
    const auto links = [&](const QString &side, const std::vector<std::uint32_t> &values,
                           const Dump &dump, QChar key) {
        if (values.empty())
            return;
        out += QStringLiteral("<br>") + side + QStringLiteral(": ");
        for (std::size_t k = 0; k < values.size() && k < kLinked; ++k)
            out += (k == 0 ? QString() : QStringLiteral(", ")) +
                   QStringLiteral("<a href=\"%1:%2\">%3</a>")
                       .arg(key)
                       .arg(values[k])
                       .arg(richEscaped(toQString(dump.valueKey(dump.values[values[k]]))));
        if (values.size() > kLinked)
            out += tr(" and %1 more").arg(values.size() - kLinked);
    };
    links(tr("before"), c.valuesBefore, *m_before, QLatin1Char('a'));
    links(tr("after"), c.valuesAfter, *m_after, QLatin1Char('b'));
    return out;
}

void CompareView::showCauseValue(const QString &link)
{
    // "a:INDEX" (a value of before) or "b:INDEX" (of after), with its counterpart.
    bool ok = false;
    const std::uint32_t index = link.mid(2).toUInt(&ok);
    if (!m_diff || !ok || link.size() < 3 || link[1] != QLatin1Char(':'))
        return;
    const bool after = link[0] == QLatin1Char('b');
    const Dump &dump = after ? *m_after : *m_before;
    if (index >= dump.values.size())
        return;
    const std::uint32_t va = after ? m_diff->match.valueInA[index] : index;
    const std::uint32_t vb = after ? index : m_diff->match.valueInB[index];
    ValueChange v;
    v.before = DiffSide::of(*m_before, va);
    v.after = DiffSide::of(*m_after, vb);
    pick(v);
}

void CompareView::scheduleFitCauseRows()
{
    // After the event that asked: a viewport's resize reaches us before the header has given
    // the stretched column its new width.
    if (m_fitPending)
        return;
    m_fitPending = true;
    QTimer::singleShot(0, this, [this] {
        m_fitPending = false;
        fitCauseRows();
    });
}

void CompareView::fitCauseRows()
{
    const int width = m_causes->columnWidth(3);
    if (width < 40)
        return; // not laid out yet: the viewport's resize comes back here

    for (int r = 0; r < m_causes->rowCount(); ++r) {
        const QWidget *w = m_causes->cellWidget(r, 3);
        const auto *label = qobject_cast<const QLabel *>(w);
        if (label) {
            m_causes->setRowHeight(r, std::max(m_causes->verticalHeader()->defaultSectionSize(),
                                               label->heightForWidth(width)));
        } else {
            m_causes->resizeRowToContents(r);
        }
    }
}

void CompareView::fillCategories()
{
    // Every category either side has, the largest change (held or at the peak) first, as
    // `bufferscope diff` orders them.
    const DumpDiff::CategorySide &a = m_diff->categoriesBefore;
    const DumpDiff::CategorySide &b = m_diff->categoriesAfter;
    const bool peaks = std::any_of(a.peak.begin(), a.peak.end(), [](auto p) { return p >= 0; }) &&
                       std::any_of(b.peak.begin(), b.peak.end(), [](auto p) { return p >= 0; });
    const auto change = [&](std::size_t c) {
        const std::int64_t held = std::abs(b.held[c] - a.held[c]);
        return peaks ? std::max(held, std::abs(b.peak[c] - a.peak[c])) : held;
    };
    std::vector<std::size_t> order;
    std::size_t changed = 0;
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
        if (a.held[c] == 0 && b.held[c] == 0 && a.peak[c] <= 0 && b.peak[c] <= 0)
            continue;
        order.push_back(c);
        changed += change(c) != 0 ? 1 : 0;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return change(x) > change(y); });
    m_byCategory->setRowCount(static_cast<int>(order.size()));
    for (int r = 0; r < static_cast<int>(order.size()); ++r) {
        const std::size_t c = order[static_cast<std::size_t>(r)];
        const auto category = static_cast<Category>(c);
        QTableWidgetItem *name = cell(toQString(categoryTitle(category)), 0, false);
        name->setIcon(ChartPalette::categorySwatch(category));
        m_byCategory->setItem(r, 6, name);
        m_byCategory->setItem(
            r, 0, cell(signedBytesText(b.held[c] - a.held[c]), b.held[c] - a.held[c], true));
        m_byCategory->setItem(r, 1, cell(humanBytesText(a.held[c]), a.held[c], true));
        m_byCategory->setItem(r, 2, cell(humanBytesText(b.held[c]), b.held[c], true));
        if (peaks) {
            m_byCategory->setItem(
                r, 3, cell(signedBytesText(b.peak[c] - a.peak[c]), b.peak[c] - a.peak[c], true));
            m_byCategory->setItem(r, 4, cell(humanBytesText(a.peak[c]), a.peak[c], true));
            m_byCategory->setItem(r, 5, cell(humanBytesText(b.peak[c]), b.peak[c], true));
        } else {
            for (int k = 3; k < 6; ++k)
                m_byCategory->setItem(r, k, noBytes(cell(QStringLiteral("—"), 0, true)));
        }
    }
    m_byCategory->resizeColumnsToContents();
    QString title =
        changed == 0 ? tr("By category (no change)") : tr("By category (%1 changed)").arg(changed);
    if (a.training != b.training)
        title += b.training ? tr(", after trains") : tr(", before trains");
    m_tabs->setTabText(m_tabs->indexOf(m_byCategory), title);
}

void CompareView::fillTables()
{
    const auto fillDeltas = [](QTableWidget *t, const std::vector<KeyDelta> &rows) {
        t->setSortingEnabled(false);
        t->setRowCount(static_cast<int>(rows.size()));
        for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
            const KeyDelta &d = rows[static_cast<std::size_t>(r)];
            t->setItem(r, 0, cell(signedBytesText(d.delta()), d.delta(), true));
            t->setItem(r, 1, cell(humanBytesText(d.before), d.before, true));
            t->setItem(r, 2, cell(humanBytesText(d.after), d.after, true));
            t->setItem(r, 3, cell(toQString(d.key), 0, false));
        }
        t->resizeColumnsToContents();
    };
    fillDeltas(m_bySource, m_diff->bySource);
    fillDeltas(m_byKind, m_diff->byKind);
    fillCategories();
    fillTree(m_byOpName, m_diff->opNameTree);
    if (m_diff->hasStacks)
        fillTree(m_byStack, m_diff->stackTree);

    // The tab says how many values differ there, and when none does, that none does.
    m_tabs->setTabText(m_tabs->indexOf(m_atPeak),
                       m_diff->atPeak.empty() ? tr("At the peaks (no value differs)")
                                              : tr("At the peaks (%1)").arg(m_diff->atPeak.size()));
    m_atPeak->setRowCount(static_cast<int>(m_diff->atPeak.size()));
    for (int r = 0; r < static_cast<int>(m_diff->atPeak.size()); ++r) {
        const PeakChange &c = m_diff->atPeak[static_cast<std::size_t>(r)];
        QTableWidgetItem *kind =
            cell(QString::fromUtf8(DiffReport::peakKindText(c.kind)), 0, false);
        kind->setData(Qt::UserRole, static_cast<qulonglong>(r));
        m_atPeak->setItem(r, 0, kind);
        m_atPeak->setItem(r, 1, cell(signedBytesText(c.contribution), c.contribution, true));
        m_atPeak->setItem(r, 2,
                          c.before.value == kNone
                              ? noBytes(cell(QStringLiteral("—"), 0, true))
                              : cell(humanBytesText(c.before.bytes), c.before.bytes, true));
        m_atPeak->setItem(r, 3,
                          c.after.value == kNone
                              ? noBytes(cell(QStringLiteral("—"), 0, true))
                              : cell(humanBytesText(c.after.bytes), c.after.bytes, true));
        QString name = toQString(c.before.value != kNone ? c.before.name : c.after.name);
        if (c.before.value != kNone && c.after.value != kNone && c.before.name != c.after.name)
            name += QStringLiteral(" → ") + toQString(c.after.name);
        m_atPeak->setItem(r, 4, cell(name, 0, false));
    }
    m_atPeak->resizeColumnsToContents();

    m_valueChanges->setDiff(m_diff);
    {
        const QSignalBlocker quiet(m_filter);
        m_filter->clear();
        using F = ValueChangeModel::Filter;
        const std::pair<F, QString> filters[] = {{F::All, tr("all changes")},
                                                 {F::Added, tr("added")},
                                                 {F::Removed, tr("removed")},
                                                 {F::Changed, tr("changed")},
                                                 {F::Grown, tr("grown")},
                                                 {F::Shrunk, tr("shrunk")},
                                                 {F::LiveRange, tr("live range changed")},
                                                 {F::Moved, tr("moved to another allocation")},
                                                 {F::LostDonation, tr("lost donation")}};
        for (const auto &[filter, text] : filters)
            m_filter->addItem(
                QStringLiteral("%1 (%2)").arg(text).arg(m_valueChanges->countOf(filter)),
                static_cast<int>(filter));
        m_filter->setCurrentIndex(0);
        m_valueChanges->setFilter(F::All);
    }
    // As the diff lists them (added, removed, changed, largest first in each) until a header is
    // clicked.
    m_values->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_values->resizeColumnsToContents();
}

bool CompareView::showValue(const QString &name)
{
    if (!m_diff)
        return false;
    const std::string wanted = name.toStdString();
    const auto is = [&wanted](const DiffSide &side) {
        return side.value != kNone && (side.name == wanted || side.name == wanted + "{}");
    };
    for (int row = 0; row < m_valueChanges->rowCount(); ++row) {
        const ValueChange &c = m_valueChanges->changeAt(row);
        if (is(c.before) || is(c.after)) {
            m_tabs->setCurrentIndex(m_tabs->indexOf(m_values->parentWidget()));
            m_values->selectRow(row);
            m_values->scrollTo(m_valueChanges->index(row, 0));
            showChange(c);
            return true;
        }
    }
    // A value that did not change: the same in both dumps, found by its name in before.
    const std::uint32_t v = m_before->findValue(wanted);
    if (v == kNone)
        return false;
    ValueChange same;
    same.before = DiffSide::of(*m_before, v);
    same.after = DiffSide::of(*m_after, m_diff->match.valueInB[v]);
    showChange(same);
    return true;
}

void CompareView::pick(const ValueChange &change)
{
    showChange(change);
    Q_EMIT valuePicked(change.before.value == kNone ? -1 : static_cast<int>(change.before.value),
                       toQString(change.name()));
}

} // namespace bufferscope
