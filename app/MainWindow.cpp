#include "MainWindow.h"

#include "ValueTableView.h"
#include "models/AllocationTreeModel.h"
#include "models/InstructionListModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "models/ValueTableModel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>

namespace bufferscope {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_loader(new DumpLoader(this)), m_selection(new Selection(this)),
      m_valueModel(new ValueTableModel(this)), m_allocationModel(new AllocationTreeModel(this)),
      m_instructionModel(new InstructionListModel(this))
{
    setWindowTitle(tr("BufferScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/bufferscope.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    createActions();
    createDocks();
    connectViews();

    m_statusFile = new QLabel(this);
    m_statusTotals = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(220);
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, m_loader, &DumpLoader::cancel);
    statusBar()->addWidget(m_statusFile, 1);
    statusBar()->addPermanentWidget(m_statusTotals);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);

    connect(m_loader, &DumpLoader::started, this, [this](const QString &path) {
        m_statusFile->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
        m_progress->setValue(0);
        m_progress->show();
        m_cancel->show();
    });
    connect(m_loader, &DumpLoader::progress, this, [this](qint64 done, qint64 total) {
        m_progress->setValue(total > 0 ? static_cast<int>(done * 1000 / total) : 0);
    });
    connect(m_loader, &DumpLoader::finished, this, &MainWindow::showLoaded);
    connect(m_loader, &DumpLoader::failed, this, &MainWindow::showError);
    connect(m_loader, &DumpLoader::cancelled, this, [this](const QString &path) {
        m_progress->hide();
        m_cancel->hide();
        m_statusFile->setText(tr("Loading %1 cancelled").arg(QFileInfo(path).fileName()));
    });
    resize(1600, 1000);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open buffer-assignment dump"), QString(),
            tr("XLA buffer assignment (*buffer-assignment*.txt *live-range.txt);;All files (*)"));
        if (!path.isEmpty())
            openPath(path);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Sample"), this, &MainWindow::openEmbeddedSample);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::createDocks()
{
    m_valueView = new ValueTableView(m_valueModel, m_selection, this);
    setCentralWidget(m_valueView);

    m_allocationView = new QTreeView(this);
    m_allocationView->setModel(m_allocationModel);
    m_allocationView->setUniformRowHeights(true);
    auto *allocDock = new QDockWidget(tr("Allocations"), this);
    allocDock->setObjectName(QStringLiteral("AllocationsDock"));
    allocDock->setWidget(m_allocationView);
    addDockWidget(Qt::LeftDockWidgetArea, allocDock);

    m_instructionView = new QTableView(this);
    m_instructionView->setModel(m_instructionModel);
    m_instructionView->verticalHeader()->hide();
    m_instructionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_instructionView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_instructionView->horizontalHeader()->setStretchLastSection(true);
    auto *insDock = new QDockWidget(tr("Instructions"), this);
    insDock->setObjectName(QStringLiteral("InstructionsDock"));
    insDock->setWidget(m_instructionView);
    addDockWidget(Qt::RightDockWidgetArea, insDock);
}

void MainWindow::connectViews()
{
    // All cross-view wiring lives here: views write the Selection and react to it, never to
    // each other.
    connect(m_allocationView, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        const int value = index.data(ValueIndexRole).toInt();
        if (value >= 0)
            m_selection->setCurrentValue(value);
    });
    connect(m_instructionView, &QTableView::clicked, this, [this](const QModelIndex &index) {
        m_selection->setCurrentStep(index.data(StepRole).toLongLong());
    });
    connect(m_selection, &Selection::currentValueChanged, this, [this](int value) {
        const QModelIndex index = m_allocationModel->indexOfValue(value);
        if (index.isValid()) {
            m_allocationView->setCurrentIndex(index);
            m_allocationView->scrollTo(index);
        }
        if (value >= 0 && m_current.dump) {
            const Value &v = m_current.dump->values[static_cast<std::size_t>(value)];
            if (v.hasLiveRange())
                m_selection->setCurrentStep(v.start);
        }
    });
    connect(m_selection, &Selection::currentStepChanged, this, [this](qint64 step) {
        if (step < 0 || step >= m_instructionModel->rowCount())
            return;
        const QModelIndex index = m_instructionModel->index(static_cast<int>(step), 0);
        m_instructionView->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_instructionView->scrollTo(index);
    });
}

void MainWindow::openPath(const QString &path)
{
    m_loader->load(path);
}

void MainWindow::openEmbeddedSample()
{
    openPath(QStringLiteral(":/sample/gpu_decoder_layer.buffer-assignment.txt"));
}

void MainWindow::showLoaded(const LoadedDump &loaded)
{
    m_progress->hide();
    m_cancel->hide();
    m_selection->clear();
    m_selection->setCurrentStep(-1);
    m_current = loaded;
    m_valueModel->setDump(loaded.dump);
    m_allocationModel->setDump(loaded.dump, loaded.timeline->allocations());
    m_instructionModel->setDump(loaded.dump, loaded.timeline);
    m_instructionView->resizeColumnsToContents();
    m_allocationView->resizeColumnToContents(0);
    setWindowTitle(tr("%1 — BufferScope").arg(toQString(loaded.dump->module)));
    updateStatus();
    if (const SpaceTimeline *primary = loaded.timeline->primary())
        m_selection->setCurrentStep(primary->peak.step);
}

void MainWindow::showError(const QString &path, const QString &error)
{
    m_progress->hide();
    m_cancel->hide();
    m_statusFile->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
    QMessageBox::critical(this, tr("Cannot open dump"), error);
}

void MainWindow::updateStatus()
{
    if (!m_current.dump)
        return;
    const Dump &d = *m_current.dump;
    m_statusFile->setText(tr("%1 — module %2")
                              .arg(m_current.path.startsWith(QLatin1Char(':'))
                                       ? tr("embedded sample")
                                       : m_current.path,
                                   toQString(d.module)));
    QString totals = tr("total %1").arg(humanBytesText(d.totalBytes()));
    if (const SpaceTimeline *primary = m_current.timeline->primary(); primary && d.hasLiveRanges())
        totals += tr(" · peak %1 at step %2")
                      .arg(humanBytesText(primary->peak.bytes))
                      .arg(primary->peak.step);
    if (!d.warnings.empty())
        totals += tr(" · %n warning(s)", nullptr, static_cast<int>(d.warnings.size()));
    m_statusTotals->setText(totals);
    m_statusTotals->setToolTip(exactBytesText(d.totalBytes()));
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile()) {
            openPath(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_loader->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace bufferscope
