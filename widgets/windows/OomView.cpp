#include "windows/OomView.h"

#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "model/ModuleNames.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace bufferscope {

namespace {

enum Column
{
    RankColumn,
    SizeColumn,
    ShapeColumn,
    MatchColumn,
    KindColumn,
    LabelColumn,
    OpNameColumn,
    SourceColumn,
    PaddingColumn,
    ColumnCount
};

/// Sorts by SortRole when set (sizes by bytes, not by their text).
using Item = SortedCell<SortRole>;

QTableWidgetItem *item(const QString &text, const QVariant &sortKey = {})
{
    auto *i = new Item(text);
    i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    i->setToolTip(plainToolTip(text));
    if (sortKey.isValid())
        i->setData(SortRole, sortKey);
    return i;
}

QString sizeText(std::int64_t bytes, std::int64_t ulp)
{
    if (bytes < 0)
        return OomView::tr("unknown");
    return ulp == 0 ? OomView::tr("%1 (%2 bytes, exact)").arg(humanBytesText(bytes)).arg(bytes)
                    : OomView::tr("%1 (as printed)").arg(humanBytesText(bytes));
}

QString figureLine(const std::vector<OomFigure> &figures)
{
    QStringList parts;
    // With what XLA prints after a size: "(60.9% utilization: Unpadded (9.40G) Padded …)" is
    // the fact that explains a TPU failure.
    for (const OomFigure &f : figures)
        parts << QStringLiteral("%1 %2%3").arg(
            toQString(f.name), f.bytes >= 0 ? humanBytesText(f.bytes) : OomView::tr("unknown"),
            f.note.empty() ? QString() : QLatin1Char(' ') + toQString(f.note));
    return parts.join(QStringLiteral(" · "));
}

} // namespace

OomView::OomView(OomFindings findings, QWidget *parent)
    : QWidget(parent, Qt::Window), m_findings(std::make_shared<OomFindings>(std::move(findings))),
      m_messages(new QComboBox(this)), m_summary(new QLabel(this)), m_module(new QLabel(this)),
      m_find(new QPushButton(tr("&Find Its Module in a Folder…"), this)),
      m_open(new QPushButton(tr("&Open the Module"), this)), m_table(new QTableWidget(this)),
      m_bars(new QCustomPlot(this))
{
    setWindowTitle(tr("%1 — out of memory — BufferScope")
                       .arg(toQString(m_findings->file).section(QLatin1Char('/'), -1)));
    for (QLabel *label : {m_summary, m_module}) {
        label->setTextFormat(Qt::PlainText); // the log's words, never markup
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_find->setToolTip(tr("Weigh the modules of an --xla_dump_to folder against this message: "
                          "its executable_name, the exact size it asked for, its stats and "
                          "labels"));
    m_open->setToolTip(tr("Open the module, select what the message lists in it and draw the "
                          "device's limit on the usage chart"));
    m_open->setEnabled(false);

    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("#"), tr("Size"), tr("Shape"), tr("In the module"),
                                        tr("Kind"), tr("XLA label"), tr("op_name"), tr("Source"),
                                        tr("Padding")});
    m_table->horizontalHeaderItem(SizeColumn)
        ->setToolTip(tr("As the message rounds it (e.g. 4.89GiB)"));
    m_table->horizontalHeaderItem(MatchColumn)
        ->setToolTip(tr("The value the buffer is, found by its label, or by the one value of "
                        "its opcode, shape and op_name; otherwise why it is not known"));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->moveSection(PaddingColumn, SizeColumn + 1);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    TableCsv::addActions(m_table, QStringLiteral("oom-buffers"));

    m_bars->setNoAntialiasingOnDrag(true);
    m_bars->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_bars->yAxis->setRangeReversed(true);
    m_bars->yAxis->grid()->setVisible(false);
    m_bars->yAxis->setSubTicks(false);
    m_bars->xAxis->setTicker(QSharedPointer<BytesTicker>::create());
    m_bars->xAxis->setLabel(tr("size, as the message rounds it"));
    m_bars->xAxis->ticker()->setTickCount(4);
    // The legend (what the shape needs, padding) goes in a row under the bars when there is
    // padding to tell apart (fillBars), never over them.
    m_bars->axisRect()->insetLayout()->take(m_bars->legend);
    m_bars->plotLayout()->simplify();
    m_bars->legend->setBorderPen(Qt::NoPen);
    m_bars->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_bars->legend->setVisible(false);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Message:"), this));
    top->addWidget(m_messages, 1);
    auto *moduleRow = new QHBoxLayout;
    moduleRow->addWidget(m_module, 1);
    moduleRow->addWidget(m_find);
    moduleRow->addWidget(m_open);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_bars);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({720, 480});
    m_split = split;
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addLayout(moduleRow);
    layout->addWidget(split, 1);
    layout->addStretch(0); // takes the room when the message lists no buffers

    for (std::size_t i = 0; i < m_findings->log.messages.size(); ++i) {
        const OomMessage &m = m_findings->log.messages[i];
        m_messages->addItem(tr("%1 of %2 — line %3, %4")
                                .arg(i + 1)
                                .arg(m_findings->log.messages.size())
                                .arg(m.line)
                                .arg(toQString(m.platform())));
    }
    m_messages->setEnabled(m_findings->log.messages.size() > 1);
    connect(m_messages, &QComboBox::currentIndexChanged, this, &OomView::showMessage);
    connect(m_find, &QPushButton::clicked, this, &OomView::findModuleRequested);
    connect(m_open, &QPushButton::clicked, this, [this] { Q_EMIT openModuleRequested(m_message); });
    showMessage(0);
    // Most of the screen, as a document window; the table and the bars share it.
    const QRect screen =
        this->screen() ? this->screen()->availableGeometry() : QRect(0, 0, 1366, 768);
    // A message of no buffers (a compile-time abort, a program load) is its text: half as tall.
    bool anyBuffers = false;
    for (const OomMessage &m : m_findings->log.messages)
        anyBuffers = anyBuffers || !m.buffers.empty();
    resize(std::min(1600, screen.width() * 9 / 10),
           std::min(1000, screen.height() * (anyBuffers ? 8 : 4) / 10));
    // In the palette's colours, and again when it changes (dark while running).
    ChartPalette::follow(m_bars);
}

bool OomView::moduleChosen() const
{
    return m_findings->withDumps && m_message < static_cast<int>(m_findings->messages.size()) &&
           m_findings->messages[static_cast<std::size_t>(m_message)].chosen >= 0;
}

void OomView::setFindings(OomFindings findings)
{
    m_weighing = false;
    *m_findings = std::move(findings);
    m_find->setEnabled(true);
    showMessage(m_message);
}

void OomView::setWeighing(const QString &what)
{
    m_weighing = true;
    m_find->setEnabled(false);
    m_open->setEnabled(false);
    m_module->setText(what);
}

void OomView::showMessage(int index)
{
    if (index < 0 || index >= static_cast<int>(m_findings->log.messages.size()))
        return;
    m_message = index;
    if (m_messages->currentIndex() != index)
        m_messages->setCurrentIndex(index);
    fillSummary();
    m_split->setVisible(!m_findings->log.messages[static_cast<std::size_t>(index)].buffers.empty());
    fillModule();
    fillTable();
    fillBars();
}

void OomView::fillSummary()
{
    const OomMessage &m = m_findings->log.messages[static_cast<std::size_t>(m_message)];
    QStringList lines;
    QString head;
    switch (m.form) {
    case OomMessage::Form::GpuAllocation:
        head = tr("GPU: an allocation failed");
        break;
    case OomMessage::Form::GpuBufferAssignment:
        head = tr("GPU: an allocation failed; XLA listed the largest buffers of the module");
        break;
    case OomMessage::Form::Tpu:
        head = tr("TPU: the program does not fit in %1").arg(toQString(m.memorySpace));
        break;
    }
    // What failed (docs/FORMAT.md §4.1), beside where.
    const QString space = m.memorySpace.empty() ? tr("device memory") : toQString(m.memorySpace);
    switch (m.failure) {
    case OomMessage::Failure::CompileTime:
        head = m.tempRequired >= 0
                   ? tr("%1: the compile aborted — the temporaries alone exceed the HBM "
                        "available")
                         .arg(toQString(m.platform()))
                   : tr("%1: the compiler's check failed — the program does not fit in %2")
                         .arg(toQString(m.platform()), space);
        break;
    case OomMessage::Failure::ProgramLoad:
        head = m.program.empty()
                   ? tr("%1: a program could not be loaded").arg(toQString(m.platform()))
                   : tr("%1: program %2 could not be loaded")
                         .arg(toQString(m.platform()), toQString(m.program));
        break;
    case OomMessage::Failure::Stack:
        head = tr("%1: an instruction's scoped allocation does not fit in %2")
                   .arg(toQString(m.platform()), space);
        break;
    case OomMessage::Failure::Usage:
        head = tr("%1: a program's %2 usage, as the runtime logs it (not a failure)")
                   .arg(toQString(m.platform()), space);
        break;
    case OomMessage::Failure::Allocation:
        if (m.form == OomMessage::Form::Tpu && m.buffers.empty() && m.requested >= 0)
            head = tr("%1: a device buffer could not be allocated").arg(toQString(m.platform()));
        break;
    }
    if (!m.errorCode.empty())
        head += tr(" (%1 %2)").arg(toQString(m.errorCode), toQString(m.errorName));
    if (m.notAFailure && m.failure != OomMessage::Failure::Usage)
        head += tr(" — not a failure: the allocator says its caller tries again another way");
    if (m.printed > 1)
        head += tr(" (printed %1 times in the log)").arg(m.printed);
    lines << head;
    // What the command line's "cut" and "uncertain" lines say: a figure here may not be exact.
    if (m.startsCut)
        lines << (m.buffers.empty()
                      ? tr("The text starts inside this message: no headline.")
                      : tr("The text starts inside this message: no headline; its list starts "
                           "at entry %1.")
                            .arg(m.buffers.front().rank));
    for (const std::string &d : m.doubts)
        lines << tr("Uncertain: %1").arg(toQString(d));
    QStringList facts;
    if (m.requested >= 0)
        facts << tr("asked for %1").arg(sizeText(m.requested, m.requestedUlp));
    if (m.capacity >= 0)
        facts << tr("limit %1").arg(sizeText(m.capacity, m.capacityUlp));
    if (m.used >= 0)
        facts << tr("used %1").arg(humanBytesText(m.used));
    if (m.exceededBy >= 0)
        facts << tr("over by %1").arg(humanBytesText(m.exceededBy));
    if (m.inUse >= 0)
        facts << tr("in use %1 (the allocator's InUse)").arg(humanBytesText(m.inUse));
    if (m.tempRequired >= 0)
        facts << tr("temporaries need %1").arg(sizeText(m.tempRequired, m.tempUlp));
    if (m.freeBytes >= 0)
        facts << (m.requested >= 0 && m.requested > m.freeBytes + m.requestedUlp + m.freeUlp
                      ? tr("free %1, %2 short of what it asked")
                            .arg(sizeText(m.freeBytes, m.freeUlp),
                                 humanBytesText(m.requested - m.freeBytes))
                      : tr("free %1").arg(sizeText(m.freeBytes, m.freeUlp)));
    if (m.reservable >= 0)
        facts << tr("reservable %1").arg(humanBytesText(m.reservable));
    if (!m.hloModule.empty())
        facts << tr("HLO module %1").arg(toQString(m.hloModule));
    if (!m.program.empty())
        facts << tr("program %1").arg(toQString(m.program));
    if (!m.executable.empty() && m.executable != m.hloModule && m.executable != m.program)
        facts << tr("executable %1").arg(toQString(m.executable));
    if (!m.device.empty())
        facts << toQString(m.device);
    if (!facts.isEmpty())
        lines << facts.join(QStringLiteral(" · "));
    if (!m.stackInstruction.empty())
        lines << tr("On its stack: %1 = %2%3")
                     .arg(toQString(m.stackInstruction), toQString(m.stackShape),
                          m.stackBytes >= 0 ? tr(", %1 (%2 bytes before tiling)")
                                                  .arg(humanBytesText(m.stackBytes))
                                                  .arg(m.stackBytes)
                                            : QString());
    if (m.failure == OomMessage::Failure::ProgramLoad && m.requested < 0 && m.freeBytes < 0)
        lines << tr("The message gives no figures: only that loading the program failed.");
    if (!m.stats.empty())
        lines << tr("BufferAssignment stats: %1").arg(figureLine(m.stats));
    if (!m.usage.empty())
        lines << tr("Total usage: %1").arg(figureLine(m.usage));
    if (!m.requirement.empty())
        lines << tr("Program requirement%1: %2")
                     .arg(m.programRequirement >= 0
                              ? QLatin1Char(' ') + humanBytesText(m.programRequirement)
                              : QString())
                     .arg(figureLine(m.requirement));
    if (m.buffers.empty())
        lines << (m_findings->withDumps
                      ? tr("The message lists no buffers.")
                      : tr("The message lists no buffers: find its module to see what it "
                           "holds."));
    // TPU buffers padded to their layout's tiles: how much of what is listed is padding.
    std::int64_t listed = 0;
    std::int64_t padding = 0;
    QString widest;
    double widestFactor = 0;
    for (const OomBuffer &b : m.buffers) {
        if (b.padding <= 0 || b.size <= 0)
            continue;
        listed += b.size;
        padding += b.padding;
        // The factor XLA printed when it did, the one the table shows.
        const double factor = b.expansionFactor();
        if (factor > widestFactor) {
            widestFactor = factor;
            widest = toQString(b.label.empty() ? b.shape : b.label);
        }
    }
    if (padding > 0)
        lines << tr("Padding: %1 of the %2 these buffers take is padding to their layout's tiles "
                    "(%3 %); %4 is %5× its unpadded size. The tiles (the T(…) in a shape) round "
                    "up the dimensions they cover: sizes that are multiples of the tile, or "
                    "another layout, need less.")
                     .arg(humanBytesText(padding), humanBytesText(listed))
                     .arg(qRound(100.0 * double(padding) / double(listed)))
                     .arg(widest)
                     .arg(widestFactor, 0, 'f', 1);
    m_summary->setText(lines.join(QLatin1Char('\n')));
}

void OomView::fillModule()
{
    const auto &per = m_findings->messages;
    m_open->setEnabled(false);
    if (!m_findings->withDumps || m_message >= static_cast<int>(per.size())) {
        m_module->setText(tr("Module: not looked for yet. Find it in the --xla_dump_to folder of "
                             "the run that failed."));
        return;
    }
    const OomFindings::PerMessage &p = per[static_cast<std::size_t>(m_message)];
    const OomMessage &m = m_findings->log.messages[static_cast<std::size_t>(m_message)];
    QStringList lines;
    if (p.chosen >= 0) {
        const OomFindings::Candidate &c = p.candidates[static_cast<std::size_t>(p.chosen)];
        lines << tr("Module: %1").arg(toQString(c.module));
        for (const std::string &r : c.evidence.reasons)
            lines << tr("  because %1").arg(toQString(r));
        if (p.dump) {
            // The platform's rules, each with the figure it compares and the message's own.
            for (const OomMatch::Check &check : OomMatch::checks(m, *p.dump)) {
                const bool compile = check.name == "compile_time";
                QString line = compile ? tr("  Compile time (TPU): its temporaries are %1")
                                             .arg(humanBytesText(check.bytes))
                                       : tr("  Run time: it holds %1 on the device while it runs "
                                            "(argument + output − alias + temp)")
                                             .arg(humanBytesText(check.bytes));
                if (check.said >= 0)
                    line += tr("; the message says %1").arg(humanBytesText(check.said));
                if (check.limit >= 0)
                    line += check.headroom < 0
                                ? (compile ? tr(" — %1 over the HBM available: the compile "
                                                "aborts")
                                           : tr(" — %1 over the limit"))
                                      .arg(humanBytesText(-check.headroom))
                                : (compile ? tr(" — %1 under the HBM available: it compiles")
                                   : m.failure == OomMessage::Failure::Allocation
                                       ? tr(" — %1 under the limit: the rest was held by "
                                            "other buffers")
                                       : tr(" — %1 under the limit"))
                                      .arg(humanBytesText(check.headroom));
                lines << line;
            }
            if (p.join.failingAllocation != kNone) {
                const Allocation &al = p.dump->allocations[p.join.failingAllocation];
                lines << tr("  The allocation that failed: allocation %1 (%2, %3): %4")
                             .arg(al.index)
                             .arg(toQString(allocationKindName(al.kind)), humanBytesText(al.size),
                                  toQString(p.join.failingHow));
            } else if (!p.join.failingHow.empty()) {
                lines << tr("  The allocation that failed is not known: %1")
                             .arg(toQString(p.join.failingHow));
            }
        }
        m_open->setEnabled(true);
    } else if (p.candidates.empty()) {
        lines << (m_findings->dumpsGiven == 0
                      ? tr("Module: no buffer-assignment dump in that folder.")
                      : tr("Module: none of the %1 modules is named %2 (the executable_name).")
                            .arg(m_findings->dumpsGiven)
                            .arg(toQString(m.executable)));
    } else {
        bool fits = false;
        for (const auto &c : p.candidates)
            fits = fits || (c.evidence.score > 0 && c.evidence.contradiction.empty());
        const int listed = std::min<int>(4, static_cast<int>(p.candidates.size()));
        const int rest = static_cast<int>(p.candidates.size()) - listed;
        // Which these are and why each is out, and how many more there are.
        lines << (fits ? tr("Module: undecided — these fit equally well, so none is chosen:")
                       : tr("Module: none of the %1 modules fits the message. The %2 nearest to "
                            "it (strongest evidence first), each with what rules it out:")
                             .arg(p.candidates.size())
                             .arg(listed));
        for (int k = 0; k < listed; ++k) {
            const auto &c = p.candidates[static_cast<std::size_t>(k)];
            lines << tr("  %1: %2")
                         .arg(toQString(ModuleNames::shortNameOfStem(c.module)),
                              toQString(!c.evidence.contradiction.empty() ? c.evidence.contradiction
                                        : c.evidence.reasons.empty() ? std::string("no evidence")
                                                                     : c.evidence.reasons.front()));
        }
        if (rest > 0)
            lines << tr("  … and %n more, further from it.", nullptr, rest);
    }
    m_module->setText(lines.join(QLatin1Char('\n')));
}

void OomView::fillTable()
{
    const OomMessage &m = m_findings->log.messages[static_cast<std::size_t>(m_message)];
    const OomFindings::PerMessage *per =
        m_findings->withDumps && m_message < static_cast<int>(m_findings->messages.size())
            ? &m_findings->messages[static_cast<std::size_t>(m_message)]
            : nullptr;
    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(m.buffers.size()));
    for (std::size_t r = 0; r < m.buffers.size(); ++r) {
        const OomBuffer &b = m.buffers[r];
        const int row = static_cast<int>(r);
        m_table->setItem(row, RankColumn, item(QString::number(b.rank), qint64(b.rank)));
        QTableWidgetItem *size =
            item(b.size >= 0 ? humanBytesText(b.size) : tr("?"), qint64(b.size));
        size->setData(BytesRole, qint64(b.size));
        size->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (b.size >= 0)
            size->setToolTip(b.sizeUlp == 0 ? tr("%1 bytes").arg(b.size)
                                            : tr("about %1 bytes (± %2), as the message "
                                                 "rounds it")
                                                  .arg(b.size)
                                                  .arg(b.sizeUlp));
        else if (b.cut)
            size->setToolTip(
                plainToolTip(tr("Not read: a line break cut this size; the text shows “%1”.")
                                 .arg(toQString(b.sizeText))));
        m_table->setItem(row, SizeColumn, size);
        m_table->setItem(row, ShapeColumn, item(toQString(b.shape)));
        m_table->setItem(row, KindColumn, item(toQString(b.kind)));
        QTableWidgetItem *label = item(toQString(b.label));
        if (!b.labelText.empty())
            label->setToolTip(plainToolTip(toQString(b.labelText)));
        m_table->setItem(row, LabelColumn, label);
        QTableWidgetItem *op = item(toQString(b.opName));
        if (!b.operatorText.empty())
            op->setToolTip(plainToolTip(toQString(b.operatorText)));
        m_table->setItem(row, OpNameColumn, op);
        QString source = toQString(b.sourceFile).section(QLatin1Char('/'), -1);
        if (!source.isEmpty() && b.sourceLine >= 0)
            source += QStringLiteral(":%1").arg(b.sourceLine);
        QTableWidgetItem *src = item(source);
        src->setToolTip(plainToolTip(toQString(b.sourceFile)));
        m_table->setItem(row, SourceColumn, src);
        QString padding;
        if (b.padding >= 0)
            padding = b.expansion.empty()
                          ? humanBytesText(b.padding)
                          : tr("%1 (%2)").arg(humanBytesText(b.padding), toQString(b.expansion));
        m_table->setItem(row, PaddingColumn, item(padding, qint64(b.padding)));
        QString match;
        if (per && per->dump && r < per->join.buffers.size()) {
            const OomMatch::BufferMatch &bm = per->join.buffers[r];
            if (bm.values.empty()) {
                match = tr("unmatched: %1").arg(toQString(bm.how));
            } else {
                const Value &v = per->dump->values[bm.values.front()];
                match = tr("%1 (value %2)")
                            .arg(toQString(per->dump->valueDisplayName(v)), QString::number(v.id));
            }
        }
        m_table->setItem(row, MatchColumn, item(match));
    }
    m_table->setSortingEnabled(true);
    m_table->sortItems(SizeColumn, Qt::DescendingOrder); // largest first, as the bars
    m_table->setColumnHidden(MatchColumn, !per || !per->dump);
    // Padding beside the size it is part of, in sight (it was the last column, off screen).
    m_table->setColumnHidden(PaddingColumn,
                             std::none_of(m.buffers.begin(), m.buffers.end(),
                                          [](const OomBuffer &b) { return b.padding >= 0; }));
    m_table->resizeColumnsToContents();
    // Long shapes, op_names and reasons would push the other columns out of sight.
    for (int c : {ShapeColumn, MatchColumn, OpNameColumn})
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 300));
}

void OomView::fillBars()
{
    const OomMessage &m = m_findings->log.messages[static_cast<std::size_t>(m_message)];
    m_bars->clearPlottables();
    auto ticker = m_bars->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    // The 20 largest, largest on top (a log may list them in another order).
    std::vector<const OomBuffer *> sorted;
    for (const OomBuffer &b : m.buffers)
        sorted.push_back(&b);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const OomBuffer *x, const OomBuffer *y) { return x->size > y->size; });
    const std::size_t n = std::min<std::size_t>(sorted.size(), 20);
    double largest = 1;
    bool padded = false;
    m_bars->legend->clearItems();
    for (std::size_t i = 0; i < n; ++i) {
        const OomBuffer &b = *sorted[i];
        const AllocationKind kind = b.entryParameter || b.kind == "program argument"
                                        ? AllocationKind::Parameter
                                        : AllocationKind::Temp;
        // What the shape needs, then (TPU) the padding to its layout's tiles on top of it, in
        // the same colour hatched: a 4.0× expansion shows as three quarters of the bar.
        const std::int64_t size = std::max<std::int64_t>(b.size, 0);
        const std::int64_t pad = b.padding > 0 && b.padding <= size ? b.padding : 0;
        auto *bar = new QCPBars(m_bars->yAxis, m_bars->xAxis);
        bar->setWidth(0.7);
        bar->setBrush(ChartPalette::kindColor(kind));
        bar->setPen(Qt::NoPen);
        bar->setData({double(i)}, {double(size - pad)}, true);
        bar->setName(tr("what the shape needs"));
        bar->removeFromLegend();
        if (pad > 0) {
            auto *padding = new QCPBars(m_bars->yAxis, m_bars->xAxis);
            padding->setWidth(0.7);
            padding->setBrush(QBrush(ChartPalette::kindColor(kind), Qt::BDiagPattern));
            padding->setPen(QPen(ChartPalette::kindColor(kind)));
            padding->setData({double(i)}, {double(pad)}, true);
            padding->moveAbove(bar);
            padding->setName(tr("padding to the layout's tiles"));
            padding->removeFromLegend();
            if (!padded) {
                bar->addToLegend();
                padding->addToLegend();
            }
            padded = true;
        }
        // The label alone (its shape is in the table): long shapes left no room for the bars.
        const QString name = toQString(b.label.empty() ? b.shape : b.label);
        ticker->addTick(double(i),
                        QStringLiteral("%1. %2").arg(b.rank).arg(
                            name.size() > 40 ? name.left(39) + QStringLiteral("…") : name));
        largest = std::max(largest, double(b.size));
    }
    // A hidden legend still takes its row's width from the bars: in the layout only when shown.
    const bool inLayout = m_bars->plotLayout()->hasElement(1, 0);
    if (padded && !inLayout) {
        m_bars->plotLayout()->addElement(1, 0, m_bars->legend);
        m_bars->plotLayout()->setRowStretchFactor(1, 0.001);
    } else if (!padded && inLayout) {
        m_bars->plotLayout()->take(m_bars->legend);
        m_bars->plotLayout()->simplify();
    }
    m_bars->legend->setVisible(padded);
    m_bars->yAxis->setRange(-0.6, double(std::max<std::size_t>(n, 1)) - 0.4);
    m_bars->xAxis->setRange(0, largest * 1.05);
    m_bars->replot();
}

} // namespace bufferscope
