#include "windows/FitView.h"

#include "drawing/BytesTicker.h"
#include "drawing/ChartPalette.h"
#include "layout/LabelLayout.h"
#include "model/ModuleNames.h"
#include "models/ByteSize.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "report/FitReport.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"
#include "windows/DeviceSizeBox.h"
#include "windows/ToolWindow.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace bufferscope {

namespace {

enum Column
{
    OnColumn,
    ModuleColumn,
    ResidentColumn,
    AllocatesColumn,
    HeldColumn,
    LivePeakColumn,
    CompileColumn, ///< TPU: the temporaries against the limit, the compiler's check
    VerdictColumn,
    ColumnCount
};

enum ResidentMode
{
    Arguments,
    Fixed,
    ArgumentsPlus
};

using SizeCell = SortedCell<BytesRole>;

QTableWidgetItem *cell(const QString &text, qint64 sortKey = -1)
{
    auto *i = new SizeCell(text);
    i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    i->setToolTip(plainToolTip(text));
    if (sortKey >= 0) {
        i->setData(BytesRole, sortKey);
        i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    return i;
}

/// "jit_train_step (0294)": the module as a person names it (ModuleNames::shortName).
std::string shortNameOf(const DeviceFit::Module &m)
{
    return ModuleNames::shortName(m.file.empty() ? m.name : m.file);
}

std::int64_t sizeOf(std::string_view text)
{
    return parseByteSize(QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
}

} // namespace

FitView::FitView(QWidget *parent)
    : QWidget(parent, Qt::Window),
      m_limitBox(new DeviceSizeBox(DeviceSizeBox::None::NotOffered, this)),
      m_residentMode(new QComboBox(this)), m_residentSize(new QLineEdit(this)),
      m_verdict(new QLabel(this)), m_table(new QTableWidget(this)), m_plot(new QCustomPlot(this))
{
    setWindowTitle(tr("Device Fit — BufferScope"));
    m_limitBox->setWhatsThis(tr("The limit: a device at what the runtime gets of it (a GPU at "
                                "the share XLA's allocator gets, 75 % unless "
                                "XLA_CLIENT_MEM_FRACTION says otherwise; a TPU at its memory) "
                                "or a size, such as a log's Limit:"));
    m_residentMode->addItem(tr("each module's arguments"));
    m_residentMode->addItem(tr("a number (its arguments among it)"));
    m_residentMode->addItem(tr("each module's arguments + a number"));
    m_residentMode->setToolTip(tr("What is on the device before a module starts: its own "
                                  "arguments at least; a number for what else stays (another "
                                  "model, caches, or a log's InUse figure)"));
    m_residentSize->setPlaceholderText(tr("e.g. 10GiB"));
    m_residentSize->setEnabled(false);
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setWordWrap(true);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);

    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("On"), tr("Module"), tr("Resident"), tr("Allocates"),
                                        tr("On the device"), tr("Live peak"),
                                        tr("Temporaries (compile)"), tr("On the device (run)")});
    m_table->horizontalHeaderItem(CompileColumn)
        ->setToolTip(tr("TPU: the temporaries alone against the limit, the compiler's own "
                        "check — past it XLA:TPU aborts the compile (\"the total memory "
                        "required for HLO temporaries exceeds available HBM\")"));
    m_table->horizontalHeaderItem(VerdictColumn)
        ->setToolTip(tr("What the device holds while it runs against the limit: the "
                        "allocator's limit on a GPU, the HBM the runtime gives on a TPU"));
    m_table->horizontalHeaderItem(ResidentColumn)
        ->setToolTip(tr("On the device before it starts, its arguments among it"));
    m_table->horizontalHeaderItem(AllocatesColumn)
        ->setToolTip(tr("Outputs that are not donated parameters, and the temp allocation, "
                        "made whole when it starts"));
    m_table->horizontalHeaderItem(HeldColumn)
        ->setToolTip(tr("While it runs: resident + allocates + every module's constants (what "
                        "the usage chart calls held, argument + output − alias + temp, plus the "
                        "constants and any resident beyond its arguments)"));
    m_table->horizontalHeaderItem(LivePeakColumn)
        ->setToolTip(tr("The most of it the module uses at one step (device memory spaces "
                        "summed)"));
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    TableCsv::addActions(m_table, QStringLiteral("device-fit"));
    // Sorted by what each module needs on the device, the most first: the one that sets what
    // the device must hold leads (any column sorts from its header).
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(HeldColumn, Qt::DescendingOrder);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name or function"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Shows the modules whose name, function or file holds this text; "
                            "\"Only these\" puts just them on the device"));
    connect(m_filter, &QLineEdit::textChanged, this, &FitView::setFilter);

    m_plot->setNoAntialiasingOnDrag(true);
    BytesTicker::installUpright(m_plot->yAxis);
    m_plot->yAxis->setLabel(tr("device memory"));
    m_plot->xAxis->setLabel(tr("the modules one after another, each over its program order"));
    m_plot->xAxis->setTicks(false);
    // The legend in a row under the chart, never over a module's name or curve.
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (placeNames())
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    // A module whose name did not fit on the chart is named when the pointer is over it.
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const int i = moduleAt(m_plot->xAxis->pixelToCoord(event->position().x()));
        if (i < 0) {
            QToolTip::hideText();
            return;
        }
        const DeviceFit::Module &m = m_included[static_cast<std::size_t>(i)];
        const DeviceFit::Row &r = m_fit.rows[static_cast<std::size_t>(i)];
        QToolTip::showText(
            event->globalPosition().toPoint(),
            plainToolTip(tr("%1\n%2 on the device while it runs; live peak %3; %4")
                             .arg(toQString(shortNameOf(m)), humanBytesText(r.device),
                                  m.livePeak >= 0 ? humanBytesText(m.livePeak) : tr("-"),
                                  r.headroom >= 0
                                      ? tr("headroom %1").arg(humanBytesText(r.headroom))
                                      : tr("over by %1").arg(humanBytesText(-r.headroom)))),
            m_plot);
    });

    auto *form = new QHBoxLayout;
    form->addWidget(new QLabel(tr("&Limit:"), this));
    static_cast<QLabel *>(form->itemAt(0)->widget())->setBuddy(m_limitBox);
    form->addWidget(m_limitBox);
    form->addSpacing(16);
    auto *residentLabel = new QLabel(tr("&Resident between modules:"), this);
    residentLabel->setBuddy(m_residentMode);
    form->addWidget(residentLabel);
    form->addWidget(m_residentMode);
    form->addWidget(m_residentSize);
    form->addStretch(1);
    auto *split = new QSplitter(Qt::Vertical, this);
    m_split = split;
    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    auto *onlyThese = new QPushButton(tr("&Only these"), this);
    onlyThese->setToolTip(tr("Put only the modules shown on the device, none of the others"));
    connect(onlyThese, &QPushButton::clicked, this, &FitView::includeOnlyShown);
    auto *all = new QPushButton(tr("&All"), this);
    all->setToolTip(tr("Put every module on the device again"));
    connect(all, &QPushButton::clicked, this, &FitView::includeAll);
    filterRow->addWidget(onlyThese);
    filterRow->addWidget(all);
    tableLayout->addLayout(filterRow);
    tableLayout->addWidget(m_table, 1);
    split->addWidget(tablePane);
    split->addWidget(m_plot);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_verdict);
    layout->addWidget(split, 1);

    connect(m_limitBox, &DeviceSizeBox::chosen, this, [this](qint64 bytes) {
        m_limitChosen = true;
        setLimitBytes(bytes);
        Q_EMIT limitChosen(bytes);
    });
    const auto residentChanged = [this] {
        const int mode = m_residentMode->currentIndex();
        m_residentSize->setEnabled(mode != Arguments);
        const QString size = m_residentSize->text().trimmed();
        if (mode == Arguments)
            setResident(QStringLiteral("args"));
        else if (!size.isEmpty())
            setResident(mode == Fixed ? size : QStringLiteral("args+") + size);
    };
    connect(m_residentMode, &QComboBox::activated, this, residentChanged);
    connect(m_residentSize, &QLineEdit::editingFinished, this, residentChanged);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_filling || item->column() != OnColumn)
            return;
        setIncluded(item->data(Qt::UserRole).toInt(), item->checkState() == Qt::Checked);
    });
    // A window of its own: Esc and a Close button close it, as in any dialog.
    ToolWindow::addClose(this, layout);
    ToolWindow::fitScreen(this, QSize(1500, 950));
    // In the palette's colours, and again when it changes (dark while running).
    ChartPalette::follow(m_plot, [this] { fillPlot(); });
}

FitView::~FitView()
{
    // An editable combo box and a line edit report "activated" and "editing finished" when
    // they lose focus as the window goes: the members those slots use are gone by then.
    QObject::disconnect(m_limitBox, nullptr, this, nullptr);
    QObject::disconnect(m_residentMode, nullptr, this, nullptr);
    QObject::disconnect(m_residentSize, nullptr, this, nullptr);
    QObject::disconnect(m_table, nullptr, this, nullptr);
}

void FitView::setMeasuring(int done, int total)
{
    m_verdict->setText(tr("Reading module %1 of %2…").arg(done + 1).arg(total));
}

void FitView::setModules(std::vector<DeviceFit::Module> modules)
{
    m_modules = std::move(modules);
    m_on.assign(m_modules.size(), true);
    recompute();
    setFilter(m_filter->text());
    if (!m_limitChosen && !m_modules.empty())
        chooseSmallestThatFits();
    // The table as tall as its rows (up to two fifths), the chart the rest.
    const int rows = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth() + 4 +
                     m_table->verticalHeader()->length();
    const int total = m_split->height() > 0 ? m_split->height() : height() * 3 / 4;
    const int tableHeight = std::min(rows, total * 2 / 5);
    m_split->setSizes({tableHeight, std::max(total - tableHeight, 100)});
}

bool FitView::setLimit(const QString &text)
{
    const QString t = text.trimmed();
    qint64 bytes = -1;
    QString note;
    if (const auto preset = DeviceFit::preset(t.toLower().toStdString())) {
        bytes = preset->bytes;
        note = tr("Limit: %1.").arg(toQString(preset->describe()));
    } else {
        bytes = parseByteSize(t);
    }
    if (bytes <= 0) {
        m_verdict->setText(tr("\"%1\" is not a size or a known device").arg(t));
        return false;
    }
    m_limitChosen = true;
    setLimitBytes(bytes, note); // a device's own note; a size is noted by its entry
    return true;
}

void FitView::setLimitBytes(qint64 bytes, const QString &toolTip)
{
    m_limit = bytes;
    m_limitBox->setBytes(bytes, toolTip);
    m_limitNote = toolTip.isEmpty() ? limitNoteOf(bytes) : toolTip;
    recompute();
}

QString FitView::limitNoteOf(qint64 bytes)
{
    // The devices that give this limit, and how the runtime comes to it.
    for (const DeviceFit::DeviceSize &size : DeviceFit::deviceSizes()) {
        if (size.bytes != bytes)
            continue;
        QString note = tr("Limit: %1").arg(toQString(size.devices));
        if (size.gpu)
            note += tr(": the share of a GPU that XLA's allocator gets unless "
                       "XLA_CLIENT_MEM_FRACTION says otherwise (Custom… for another)");
        if (size.tpu)
            note += tr(size.gpu ? "; a TPU at its memory as the maker states it, of which the "
                                  "runtime keeps a part"
                                : ": a TPU at its memory as the maker states it, of which the "
                                  "runtime keeps a part");
        return note + QLatin1Char('.');
    }
    return tr("Limit: %1, as typed.").arg(humanBytesText(bytes));
}

void FitView::chooseSmallestThatFits()
{
    // No limit given: the smallest limit in the list that holds them, as a first answer to
    // "what does this need"; the largest when none does. Modules all of one platform are
    // weighed on that platform's devices only.
    bool allGpu = !m_included.empty();
    bool allTpu = !m_included.empty();
    for (const DeviceFit::Module &m : m_included) {
        allGpu = allGpu && m.platform == Platform::Gpu;
        allTpu = allTpu && m.platform == Platform::Tpu;
    }
    std::vector<DeviceFit::DeviceSize> sizes;
    for (DeviceFit::DeviceSize &size : DeviceFit::deviceSizes())
        if ((!allGpu || size.gpu) && (!allTpu || size.tpu))
            sizes.push_back(std::move(size));
    qint64 pick = sizes.back().bytes;
    for (const DeviceFit::DeviceSize &size : sizes) {
        if (DeviceFit::compute(m_included, m_resident, size.bytes).fits()) {
            pick = size.bytes;
            break;
        }
    }
    setLimitBytes(pick);
    m_smallestNote = true;
    recompute();
}

bool FitView::setResident(const QString &text)
{
    const auto r = DeviceFit::Resident::parse(text.trimmed().toStdString(), &sizeOf);
    if (!r) {
        m_verdict->setText(tr("\"%1\" is not a size").arg(text));
        return false;
    }
    m_resident = *r;
    const int mode = !r->arguments ? Fixed : r->fixed > 0 ? ArgumentsPlus : Arguments;
    m_residentMode->setCurrentIndex(mode);
    m_residentSize->setEnabled(mode != Arguments);
    if (mode != Arguments && m_residentSize->text().trimmed().isEmpty())
        m_residentSize->setText(humanBytesText(r->fixed));
    recompute();
    return true;
}

void FitView::setLogFigures(const QString &log, qint64 limit, qint64 inUse)
{
    if (limit > 0) {
        m_limitChosen = true;
        setLimitBytes(limit, tr("Limit: the allocator's, as %1 states it.").arg(log));
    }
    if (inUse > 0) {
        // The allocator's InUse when the allocation failed: everything on the device then,
        // the failing module's arguments among it.
        m_residentMode->setCurrentIndex(Fixed);
        m_residentSize->setText(QString::number(inUse));
        m_residentSize->setToolTip(tr("InUse in %1: %2").arg(log, humanBytesText(inUse)));
        setResident(QString::number(inUse));
    }
}

void FitView::setIncluded(int module, bool included)
{
    if (module < 0 || module >= static_cast<int>(m_on.size()))
        return;
    m_on[static_cast<std::size_t>(module)] = included;
    recompute();
}

void FitView::recompute()
{
    m_included.clear();
    for (std::size_t i = 0; i < m_modules.size(); ++i)
        if (m_on[i])
            m_included.push_back(m_modules[i]);
    m_fit = DeviceFit::compute(m_included, m_resident, m_limit);
    if (m_modules.empty()) {
        m_verdict->setText(tr("No module to weigh: open a dump folder first."));
    } else if (m_fit.limiting < 0) {
        m_verdict->setText(tr("No module is on the device: tick the ones that share it."));
    } else {
        const QString who =
            toQString(shortNameOf(m_included[static_cast<std::size_t>(m_fit.limiting)]));
        // Figures that would read alike but differ get their byte counts (FitReport::apart).
        const std::int64_t gap = m_fit.fits() ? m_fit.limit - m_fit.peak : m_fit.peak - m_fit.limit;
        const std::vector<std::string> said = FitReport::apart({m_fit.peak, gap, m_fit.limit});
        const QString most = toQString(said[0]);
        const QString by = toQString(said[1]);
        const QString limit = toQString(said[2]);
        const DeviceFit::Row &limitingRow = m_fit.rows[static_cast<std::size_t>(m_fit.limiting)];
        const bool tpu = limitingRow.compileCheck;
        QString aborts;
        if (m_fit.compileAborts >= 0) {
            const DeviceFit::Module &a = m_included[static_cast<std::size_t>(m_fit.compileAborts)];
            const DeviceFit::Row &ar = m_fit.rows[static_cast<std::size_t>(m_fit.compileAborts)];
            aborts = tr("Does not compile: the temporaries of %1 alone, %2, are %3 over the "
                        "limit — XLA:TPU aborts the compile. ")
                         .arg(toQString(shortNameOf(a)), humanBytesText(a.analysis.device.temp),
                              humanBytesText(-ar.tempHeadroom));
        }
        m_verdict->setText(
            aborts +
            (!m_fit.fits() && tpu && limitingRow.tempHeadroom >= 0
                 ? tr("Does not fit at run time: the device holds %1 while %2 runs — %3 over the "
                      "limit of %4. Its temporaries alone fit, so it compiles and then fails to "
                      "load or run.")
                       .arg(most, who, by, limit)
             : !m_fit.fits()
                 ? tr("Does not fit: the device holds %1 while %2 runs — %3 over the limit of "
                      "%4.")
                       .arg(most, who, by, limit)
             : !m_fit.certain
                 ? tr("Cannot tell: the device holds at least %1 while %2 runs — %3 under the "
                      "limit of %4, but a module's dump is cut short and it may need more.")
                       .arg(most, who, by, limit)
             : tpu ? tr("Fits: the device holds at most %1, while %2 runs — %3 under the "
                        "limit of %4; the temporaries of every TPU module fit too, so each "
                        "compiles.")
                         .arg(most, who, by, limit)
                   : tr("Fits: the device holds at most %1, while %2 runs — %3 under the "
                        "limit of %4.")
                         .arg(most, who, by, limit)));
        if (m_smallestNote && !m_limitChosen)
            m_verdict->setText(m_verdict->text() +
                               tr(" (No budget was chosen: the limit is the smallest in the "
                                  "list that holds them.)"));
        if (!m_limitNote.isEmpty())
            m_verdict->setText(m_verdict->text() + QLatin1Char(' ') + m_limitNote);
    }
    fillTable();
    fillPlot();
}

void FitView::fillTable()
{
    m_filling = true;
    m_table->setSortingEnabled(false); // rows are filled by module, sorted after
    m_table->setRowCount(static_cast<int>(m_modules.size()));
    std::size_t k = 0; // into m_fit.rows
    for (std::size_t i = 0; i < m_modules.size(); ++i) {
        const int row = static_cast<int>(i);
        const DeviceFit::Module &m = m_modules[i];
        auto *on = new QTableWidgetItem;
        on->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        on->setCheckState(m_on[i] ? Qt::Checked : Qt::Unchecked);
        on->setData(Qt::UserRole, row);
        on->setToolTip(tr("Whether this module runs on the device with the others"));
        m_table->setItem(row, OnColumn, on);
        // The module as a person names it; its file in the tooltip.
        QTableWidgetItem *nameCell = cell(toQString(shortNameOf(m)));
        nameCell->setToolTip(plainToolTip(toQString(m.file.empty() ? m.name : m.file)));
        m_table->setItem(row, ModuleColumn, nameCell);
        m_table->setItem(row, LivePeakColumn,
                         m.livePeak >= 0 ? cell(humanBytesText(m.livePeak), m.livePeak)
                                         : cell(tr("-")));
        if (!m_on[i]) {
            for (int c :
                 {ResidentColumn, AllocatesColumn, HeldColumn, CompileColumn, VerdictColumn})
                m_table->setItem(row, c, cell(QString()));
            continue;
        }
        const DeviceFit::Row &r = m_fit.rows[k];
        m_table->setItem(row, ResidentColumn, cell(humanBytesText(r.resident), r.resident));
        m_table->setItem(row, AllocatesColumn, cell(humanBytesText(r.allocated), r.allocated));
        m_table->setItem(row, HeldColumn, cell(humanBytesText(r.device), r.device));
        QString verdict = r.headroom < 0 ? tr("OVER by %1").arg(humanBytesText(-r.headroom))
                          : m.truncated  ? tr("unknown: its dump is cut short")
                                         : tr("headroom %1").arg(humanBytesText(r.headroom));
        if (static_cast<int>(k) == m_fit.limiting && m_included.size() > 1)
            verdict += tr(" · the most on the device");
        if (r.host > 0)
            verdict += tr(" · also %1 of host memory (S(5))").arg(humanBytesText(r.host));
        if (r.compileCheck) {
            const std::int64_t temp = m.analysis.device.temp;
            QTableWidgetItem *c = cell(
                r.tempHeadroom < 0 ? tr("%1: OVER by %2, the compile aborts")
                                         .arg(humanBytesText(temp), humanBytesText(-r.tempHeadroom))
                                   : tr("%1: headroom %2")
                                         .arg(humanBytesText(temp), humanBytesText(r.tempHeadroom)),
                temp);
            c->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            if (r.tempHeadroom < 0)
                c->setForeground(ChartPalette::peakMarker());
            m_table->setItem(row, CompileColumn, c);
        } else {
            m_table->setItem(row, CompileColumn, cell(tr("-")));
        }
        QTableWidgetItem *v = cell(verdict);
        if (r.headroom < 0)
            v->setForeground(ChartPalette::peakMarker());
        m_table->setItem(row, VerdictColumn, v);
        ++k;
    }
    bool anyTpu = false;
    for (const DeviceFit::Module &m : m_modules)
        anyTpu = anyTpu || m.platform == Platform::Tpu;
    m_table->setColumnHidden(CompileColumn, !anyTpu);
    m_table->setSortingEnabled(true);
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *on = m_table->item(row, OnColumn);
        const int module = on ? on->data(Qt::UserRole).toInt() : -1;
        m_table->setRowHidden(row, module >= 0 && module < static_cast<int>(m_modules.size()) &&
                                       !shown(m_modules[static_cast<std::size_t>(module)]));
    }
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(ModuleColumn, std::min(m_table->columnWidth(ModuleColumn), 420));
    m_filling = false;
}

void FitView::fillPlot()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_names.clear();
    m_limitText = nullptr;
    // Each module gets a width in proportion to its steps' share, at least a twentieth, so a
    // short module stays visible beside a long one.
    std::int64_t totalSteps = 0;
    for (const auto &m : m_included)
        totalSteps += std::max<std::int64_t>(m.steps, 1);
    double x = 0;
    double top = static_cast<double>(m_limit);
    m_spans.clear();
    for (std::size_t i = 0; i < m_included.size(); ++i) {
        const DeviceFit::Module &m = m_included[i];
        const DeviceFit::Row &r = m_fit.rows[i];
        const double width =
            std::max(0.05, static_cast<double>(std::max<std::int64_t>(m.steps, 1)) /
                               static_cast<double>(std::max<std::int64_t>(totalSteps, 1))) *
            100.0;
        // Live: what is resident besides the module's own arguments and constants (those are
        // among its live bytes), plus its device live bytes; never above what it holds.
        const double base = static_cast<double>(r.resident - m.analysis.device.argument +
                                                m_fit.constantsLoaded - m.analysis.device.constant);
        auto *curve = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
        QVector<double> xs;
        QVector<double> ys;
        const std::size_t n = std::max<std::size_t>(m.curve.size(), 1);
        for (std::size_t p = 0; p < n; ++p) {
            xs << x + width * static_cast<double>(p) / static_cast<double>(n);
            ys << base + (m.curve.empty() ? 0.0 : static_cast<double>(m.curve[p]));
        }
        xs << x + width;
        ys << ys.back();
        curve->setData(xs, ys, true);
        curve->setLineStyle(QCPGraph::lsStepLeft);
        const QColor color = ChartPalette::liveBytes();
        curve->setPen(QPen(color, 1.5));
        QColor fill = color;
        fill.setAlpha(60);
        curve->setBrush(fill);
        curve->setName(tr("live bytes, with what else is resident"));
        if (i > 0)
            curve->removeFromLegend(); // one entry per kind
        // Held: what the device holds while it runs, flat over the module.
        auto *level = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
        level->setData({x, x + width}, {double(r.device), double(r.device)}, true);
        QPen dotted(r.headroom < 0 ? ChartPalette::alert(palette())
                                   : palette().color(QPalette::Text),
                    2, Qt::DashLine);
        level->setPen(dotted);
        level->setName(tr("on the device while it runs"));
        if (i > 0)
            level->removeFromLegend();
        // The module's name over its level, where it fits (placeNames), and a line between
        // modules.
        auto *name = new QCPItemText(m_plot);
        name->position->setType(QCPItemPosition::ptAbsolute);
        name->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        QString label = toQString(shortNameOf(m));
        if (label.size() > 28) // cut in its middle: the id at its end tells modules apart
            label = label.left(13) + QStringLiteral("…") + label.right(14);
        name->setText(label + QStringLiteral("\n") + humanBytesText(r.device));
        name->setColor(palette().color(QPalette::Text));
        name->setBrush(ChartPalette::background(palette()));
        name->setClipToAxisRect(true);
        name->setVisible(false);
        m_names.push_back({name, x + width / 2, x, x + width, double(r.device)});
        // A line between modules, while they are few enough to tell apart (a run's thousand
        // drew a texture over the chart).
        if (i > 0 && m_included.size() <= 100) {
            auto *divider = new QCPItemStraightLine(m_plot);
            divider->point1->setCoords(x, 0);
            divider->point2->setCoords(x, 1);
            divider->setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
        }
        top = std::max(top, static_cast<double>(r.device));
        m_spans.push_back({x, x + width});
        x += width;
    }
    if (m_limit > 0) {
        auto *limit = new QCPItemStraightLine(m_plot);
        limit->point1->setCoords(0, double(m_limit));
        limit->point2->setCoords(1, double(m_limit));
        // As the Memory Usage budget: the foreground's dashes, the label red when over.
        limit->setPen(QPen(palette().color(QPalette::Text), 1.5, Qt::DashLine));
        auto *text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(std::max(x, 1.0), double(m_limit));
        text->setPositionAlignment(Qt::AlignTop | Qt::AlignRight);
        text->setText(tr("limit %1").arg(humanBytesText(m_limit)));
        text->setColor(m_fit.fits() ? palette().color(QPalette::Text)
                                    : ChartPalette::alert(palette()));
        text->setBrush(ChartPalette::background(palette()));
        m_limitText = text;
    }
    m_plot->xAxis->setRange(0, std::max(x, 1.0));
    m_plot->yAxis->setRange(0, top * 1.25); // room for the names above the levels
    m_plot->replot();
}

bool FitView::placeNames()
{
    if (m_names.empty())
        return false;
    const QRect rect = m_plot->axisRect()->rect();
    LabelLayout layout({static_cast<double>(rect.left()), static_cast<double>(rect.top()),
                        static_cast<double>(rect.width()), static_cast<double>(rect.height())});
    if (m_limitText && m_limitText->visible()) {
        const QRectF r =
            QRectF(m_limitText->topLeft->pixelPosition(), m_limitText->bottomRight->pixelPosition())
                .normalized();
        layout.addObstacle({r.x(), r.y(), r.width(), r.height()});
        // and its line: no name hides it.
        layout.addObstacle({static_cast<double>(rect.left()),
                            m_plot->yAxis->coordToPixel(static_cast<double>(m_limit)) - 0.5,
                            static_cast<double>(rect.width()), 1});
    }
    // The modules that hold most are named first; a name that would meet another, or leave
    // the plot, is left to the table (and the tooltip of its row).
    std::vector<std::size_t> order(m_names.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
        return m_names[a].level > m_names[b].level;
    });
    bool changed = false;
    for (const std::size_t i : order) {
        const Name &n = m_names[i];
        const QFontMetrics metrics(n.label->font());
        const QRect text =
            metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, n.label->text());
        const QMargins pad = n.label->padding();
        const double w = text.width() + pad.left() + pad.right();
        const double h = text.height() + pad.top() + pad.bottom();
        const double cx = m_plot->xAxis->coordToPixel(n.x);
        const double y = m_plot->yAxis->coordToPixel(n.level);
        std::vector<LabelLayout::Box> c;
        // Centred over its module, else moved in from the chart's edge; up to two rows higher.
        const double inside = std::clamp(cx - w / 2, static_cast<double>(rect.left()),
                                         std::max<double>(rect.left(), rect.right() - w));
        for (int k = 0; k < 3; ++k) {
            c.push_back(LabelLayout::anchored(cx, y - 2 - k * (h + 2), w, h, 0, -1));
            c.push_back(LabelLayout::anchored(inside, y - 2 - k * (h + 2), w, h, 1, -1));
        }
        const int at = layout.place(c);
        const bool show = at >= 0;
        if (show) {
            const QPointF to(c[static_cast<std::size_t>(at)].x, c[static_cast<std::size_t>(at)].y);
            if (n.label->position->coords() != to) {
                n.label->position->setCoords(to);
                changed = true;
            }
        }
        if (n.label->visible() != show) {
            n.label->setVisible(show);
            changed = true;
        }
    }
    return changed;
}

QList<QRectF> FitView::nameBoxes() const
{
    QList<QRectF> out;
    for (const Name &n : m_names)
        if (n.label->visible())
            out << QRectF(n.label->topLeft->pixelPosition(), n.label->bottomRight->pixelPosition())
                       .normalized();
    return out;
}

QStringList FitView::namedModules() const
{
    QStringList out;
    for (const Name &n : m_names)
        if (n.label->visible())
            out << n.label->text().section(QLatin1Char('\n'), 0, 0);
    return out;
}

bool FitView::shown(const DeviceFit::Module &m) const
{
    const QString text = m_filter ? m_filter->text().trimmed() : QString();
    if (text.isEmpty())
        return true;
    return toQString(shortNameOf(m)).contains(text, Qt::CaseInsensitive) ||
           toQString(m.file.empty() ? m.name : m.file).contains(text, Qt::CaseInsensitive);
}

void FitView::setFilter(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text); // comes back here through textChanged
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *on = m_table->item(row, OnColumn);
        const int module = on ? on->data(Qt::UserRole).toInt() : -1;
        if (module >= 0 && module < static_cast<int>(m_modules.size()))
            m_table->setRowHidden(row, !shown(m_modules[static_cast<std::size_t>(module)]));
    }
}

void FitView::includeOnlyShown()
{
    for (std::size_t i = 0; i < m_modules.size(); ++i)
        m_on[i] = shown(m_modules[i]);
    recompute();
}

void FitView::includeAll()
{
    m_on.assign(m_modules.size(), true);
    recompute();
}

int FitView::moduleAt(double x) const
{
    for (std::size_t i = 0; i < m_spans.size() && i < m_included.size(); ++i)
        if (x >= m_spans[i].first && x < m_spans[i].second)
            return static_cast<int>(i);
    return -1;
}

} // namespace bufferscope
