#include "panels/BreakdownPanel.h"

#include "Workspace.h"
#include "charts/FlameGraph.h"
#include "charts/Treemap.h"
#include "drawing/LinkRestyle.h"
#include "models/BreakdownTreeModel.h"
#include "models/QtText.h"
#include "models/Roles.h"
#include "models/Selection.h"
#include "tables/TableCsv.h"
#include "windows/DialogFolders.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace bufferscope {

BreakdownPanel::BreakdownPanel(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_selection(workspace->selection()),
      m_grouping(new QComboBox(this)), m_summary(new QLabel(this)), m_up(new QToolButton(this)),
      m_crumbs(new QLabel(this)), m_model(new BreakdownTreeModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_tree(new QTreeView(this)),
      m_treemap(new Treemap(this)), m_flame(new FlameGraph(this)),
      m_flameScroll(new QScrollArea(this)), m_pictures(new QStackedWidget(this)),
      m_findingsView(new QTextBrowser(this))
{
    m_grouping->addItem(tr("op_name (tree)"));
    m_grouping->addItem(tr("source line"));
    m_grouping->addItem(tr("op_type"));
    m_grouping->addItem(tr("allocation kind"));
    m_grouping->addItem(tr("call stack, top-down"));
    m_grouping->addItem(tr("call stack, bottom-up"));
    m_grouping->addItem(tr("shape and dtype"));
    m_grouping->setItemData(static_cast<int>(Grouping::Shape),
                            tr("Values of one shape and element type together, layout aside: "
                               "\"83 × bf16[32768,4096]\"; reliable where op metadata is not "
                               "(scan, remat, jvp)"),
                            Qt::ToolTipRole);
    m_grouping->setItemData(static_cast<int>(Grouping::Source),
                            tr("The innermost frame of each value's call stack that is not library "
                               "code (Edit ▸ Preferences), so your own line shows"),
                            Qt::ToolTipRole);
    m_grouping->setItemData(static_cast<int>(Grouping::CallersTopDown),
                            tr("Outermost callers first, down to the instructions; a flame graph "
                               "beside"),
                            Qt::ToolTipRole);
    m_grouping->setItemData(static_cast<int>(Grouping::CallersBottomUp),
                            tr("Innermost frames first, out to their callers"), Qt::ToolTipRole);
    // The treemap and the flame graph are pictures too: Save Picture… on their context menu
    // (Export Chart covers the charts).
    for (QWidget *picture : {static_cast<QWidget *>(m_treemap), static_cast<QWidget *>(m_flame)}) {
        auto *save = new QAction(tr("Save Picture…"), picture);
        picture->addAction(save);
        picture->setContextMenuPolicy(Qt::ActionsContextMenu);
        connect(save, &QAction::triggered, this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Save the picture"),
                DialogFolders::savePath(QStringLiteral("what-fills-memory.png")),
                tr("Images (*.png *.jpg *.bmp)"));
            if (!path.isEmpty())
                DialogFolders::rememberSaved(path);
            QString error;
            if (!path.isEmpty() && !savePicture(path, &error))
                QMessageBox::warning(this, tr("Save Picture"), error);
        });
    }
    m_flameScroll->setWidget(m_flame);
    m_flameScroll->setWidgetResizable(true);
    m_flameScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_flameScroll->setFrameShape(QFrame::NoFrame);
    m_pictures->addWidget(m_treemap);
    m_pictures->addWidget(m_flameScroll);
    m_flame->setLibraryTest([this](const BreakdownNode &n) {
        const Breakdown &b = breakdown();
        if (!m_dump || n.frame < 0 || static_cast<std::size_t>(n.frame) >= b.frames.size())
            return false;
        const StackFrame &f = b.frames[static_cast<std::size_t>(n.frame)];
        return f.file != kNoString &&
               isLibraryFile(m_dump->str(f.file), m_workspace->libraryPatterns());
    });
    auto *groupLabel = new QLabel(tr("&Group by:"), this);
    groupLabel->setBuddy(m_grouping);
    m_up->setText(tr("Up"));
    m_up->setToolTip(tr("Back to the enclosing group in the treemap or flame graph"));
    m_up->setEnabled(false);
    m_crumbs->setTextFormat(Qt::PlainText);
    m_summary->setTextFormat(Qt::PlainText);
    // Long texts must not widen the dock (and squeeze its neighbours): they are cut instead.
    m_crumbs->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_tree->setModel(m_proxy);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(BreakdownTreeModel::BytesColumn, Qt::DescendingOrder);
    m_tree->setUniformRowHeights(true);
    // Paths share their start (/usr/local/lib/python3.10/site-packages/…): keep file.py:line.
    m_tree->setTextElideMode(Qt::ElideMiddle);
    TableCsv::addActions(m_tree, QStringLiteral("what-fills-memory"));
    m_tree->setAlternatingRowColors(true);
    m_tree->setIndentation(12); // call stacks nest deep: keep room for the names
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(BreakdownTreeModel::GroupColumn, QHeaderView::Stretch);
    // The numbers take what they need; the group names (deeply nested for call stacks) the rest.
    for (int c : {BreakdownTreeModel::ShareColumn, BreakdownTreeModel::ValuesColumn})
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    m_findingsView->document()->setDefaultStyleSheet(
        QStringLiteral("a { text-decoration: none; }"));
    m_findingsView->setOpenLinks(false);
    // The findings read again when the colour scheme switches, or their links stay light-theme
    // blue on a dark background.
    LinkRestyle::watch(m_findingsView, [this] { fillFindings(); });
    m_findingsView->setPlaceholderText(tr("No findings at this step."));

    m_pin = new QCheckBox(tr("&Pin to peak"), this);
    m_pin->setToolTip(tr("Stay at the peak while you click around; unticked, the panel shows "
                         "what is live at the current step"));
    auto *top = new QHBoxLayout;
    top->addWidget(groupLabel);
    top->addWidget(m_grouping);
    top->addWidget(m_pin);
    top->addWidget(m_summary, 1);
    auto *crumbRow = new QHBoxLayout;
    crumbRow->addWidget(m_up);
    crumbRow->addWidget(m_crumbs, 1);
    auto *mapBox = new QWidget(this);
    auto *mapLayout = new QVBoxLayout(mapBox);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->addLayout(crumbRow);
    mapLayout->addWidget(m_pictures, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tree);
    split->addWidget(mapBox);
    // The tree a little wider than the map: its names are what is read (at 1366 px they were
    // cut in their middle).
    split->setStretchFactor(0, 11);
    split->setStretchFactor(1, 9);
    split->setSizes({550, 450});
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(split);
    vertical->addWidget(m_findingsView);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(vertical, 1);

    connect(m_grouping, &QComboBox::currentIndexChanged, this,
            [this](int i) { setGrouping(static_cast<Grouping>(i)); });
    connect(m_pin, &QCheckBox::toggled, this, [this] {
        if (m_dump)
            follow(m_selection->currentStep());
    });
    connect(m_selection, &Selection::currentStepChanged, this, [this](qint64 step) {
        if (!m_dump || step == this->step() || m_pin->isChecked())
            return;
        // Behind another dock tab the O(values) breakdown waits until the panel is shown.
        if (!m_onScreen) {
            m_stale = true;
            return;
        }
        follow(step);
    });
    m_workspace->subscribe(this, tr("what fills memory"), [this](const LoadedDump &loaded) {
        setDump(loaded.dump, loaded.timeline);
    });
    connect(m_workspace, &Workspace::breakdownReady, this, [this] {
        if (m_waiting && m_onScreen)
            follow(m_selection->currentStep());
    });
    // Another memory space on show: what is live in it at the same step. Other library
    // patterns: the by-source rows change.
    const auto again = [this] {
        if (!m_dump)
            return;
        if (!m_onScreen) {
            m_stale = true;
            return;
        }
        follow(m_selection->currentStep());
    };
    connect(m_workspace, &Workspace::memorySpaceChanged, this, again);
    connect(m_workspace, &Workspace::libraryPatternsChanged, this, again);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!m_picking)
                    pick(m_model->node(m_proxy->mapToSource(current.siblingAtColumn(0))));
            });
    connect(m_treemap, &Treemap::clicked, this, [this](const BreakdownNode *node) {
        if (node)
            pick(node);
    });
    connect(m_treemap, &Treemap::activated, this, [this](const BreakdownNode *node) {
        // Through a chain of single children at once: a rectangle that would fill the whole
        // map alone is not a level worth a double-click (five of them to a leaf before).
        m_drill.push_back(node);
        while (node->children.size() == 1 && !node->children.front().children.empty()) {
            node = &node->children.front();
            m_drill.push_back(node);
        }
        showTreemapNode(node);
    });
    connect(m_flame, &FlameGraph::clicked, this, [this](const BreakdownNode *node) {
        if (node)
            pick(node);
    });
    connect(m_flame, &FlameGraph::activated, this, &BreakdownPanel::zoomTo);
    connect(m_up, &QToolButton::clicked, this, [this] {
        if (m_drill.empty())
            return;
        // Out past the levels of one child, as activating went in through them.
        m_drill.pop_back();
        while (!m_drill.empty() && m_drill.back()->children.size() == 1)
            m_drill.pop_back();
        showTreemapNode(m_drill.empty() ? &m_model->root() : m_drill.back());
    });
    connect(m_findingsView, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("finding"))
            showFinding(url.path().toInt());
    });
}

void BreakdownPanel::setOnScreen(bool onScreen)
{
    m_onScreen = onScreen;
    if (!onScreen && m_waiting) {
        // It stops waiting for the job; the step is read again when the panel is shown.
        m_waiting = false;
        m_stale = true;
    }
    if (onScreen && m_stale) {
        m_stale = false;
        follow(m_selection->currentStep());
    }
}

qint64 BreakdownPanel::step() const
{
    return m_shown ? m_shown->step : -1;
}

const Breakdown &BreakdownPanel::breakdown() const
{
    static const Breakdown none;
    return m_shown ? m_shown->breakdown : none;
}

const std::vector<Finding> &BreakdownPanel::findings() const
{
    static const std::vector<Finding> none;
    return m_shown ? m_shown->findings : none;
}

void BreakdownPanel::setDump(std::shared_ptr<const Dump> dump,
                             std::shared_ptr<const MemoryTimeline> timeline)
{
    m_dump = std::move(dump);
    m_timeline = std::move(timeline);
    m_shown.reset();
    m_waiting = false;
    follow(m_selection->currentStep());
}

void BreakdownPanel::setGrouping(Grouping grouping)
{
    m_groupBy = grouping;
    if (m_grouping->currentIndex() != static_cast<int>(grouping))
        m_grouping->setCurrentIndex(static_cast<int>(grouping));
    if (m_shown)
        apply(m_shown); // the breakdown holds all four groupings
}

bool BreakdownPanel::savePicture(const QString &path, QString *error) const
{
    // The flame graph whole, not the part its scroll area shows.
    QWidget *picture = m_pictures->currentWidget() == m_flameScroll
                           ? static_cast<QWidget *>(m_flame)
                           : static_cast<QWidget *>(m_treemap);
    const QPixmap pixmap = picture->grab();
    if (pixmap.isNull() || !pixmap.save(path)) {
        if (error)
            *error = tr("%1: cannot be written as an image (use .png, .jpg or .bmp)").arg(path);
        return false;
    }
    return true;
}

void BreakdownPanel::setPinnedToPeak(bool pinned)
{
    m_pin->setChecked(pinned);
}

void BreakdownPanel::follow(qint64 step)
{
    // Pinned: the peak of the memory space on show, whatever step is current.
    if (m_pin->isChecked() && m_timeline) {
        const SpaceTimeline *space = m_timeline->space(m_workspace->memorySpace());
        if (!space)
            space = m_timeline->primary();
        if (space && space->peak.step >= 0)
            step = space->peak.step;
    }
    if (!m_dump || !m_timeline || !m_dump->hasLiveRanges()) {
        m_shown.reset();
        m_waiting = false;
        m_drill.clear();
        m_model->setTree({}, 0);
        m_treemap->setNode(nullptr, 0);
        m_flame->setTree(nullptr, 0);
        fillFindings();
        m_summary->setText(m_dump ? tr("no live ranges in this dump") : QString());
        return;
    }
    std::shared_ptr<const StepBreakdown> b = m_workspace->breakdown(m_dump, m_timeline, step);
    if (!b) {
        // Big dumps: computed on a job; the last step asked for wins.
        m_waiting = true;
        m_summary->setText(tr("step %1: reading what is live…").arg(step));
        return;
    }
    m_waiting = false;
    apply(std::move(b));
}

void BreakdownPanel::apply(std::shared_ptr<const StepBreakdown> shown)
{
    const SpaceTimeline *space = m_timeline->space(shown->memorySpace);
    // Keep the treemap where the user went, if that group still exists at the new step.
    std::vector<std::string> drillPaths;
    for (const BreakdownNode *n : m_drill)
        drillPaths.push_back(n->path + "\x1f" + n->label);
    m_drill.clear();
    // The model's nodes point into the breakdown: it is replaced before the old one goes.
    const std::shared_ptr<const StepBreakdown> old = std::exchange(m_shown, std::move(shown));
    const Breakdown &b = m_shown->breakdown;
    if (const BreakdownNode *tree = b.tree(m_groupBy))
        m_model->setTree(*tree, b.bytes);
    else
        m_model->setRows(b.rows(m_groupBy), b.bytes);
    const BreakdownNode *at = &m_model->root();
    const bool stacks =
        m_groupBy == Grouping::CallersTopDown || m_groupBy == Grouping::CallersBottomUp;
    m_pictures->setCurrentWidget(stacks ? static_cast<QWidget *>(m_flameScroll) : m_treemap);
    if (stacks)
        m_flame->setTree(&m_model->root(), b.bytes);
    if (drillPaths.empty() && m_groupBy == Grouping::OpName) {
        // op_names share long prefixes (jit(train_step)/jit(main)/…): a level with one group
        // says nothing, so the treemap starts where the groups first split.
        while (at->children.size() == 1 && !at->children.front().children.empty() &&
               !at->children.front().instructions) {
            at = &at->children.front();
            m_drill.push_back(at);
        }
    }
    for (const std::string &key : drillPaths) {
        const BreakdownNode *next = nullptr;
        for (const BreakdownNode &c : at->children)
            if (c.path + "\x1f" + c.label == key)
                next = &c;
        if (!next)
            break;
        m_drill.push_back(next);
        at = next;
    }
    showTreemapNode(at);
    // The tree opens down to the same level; a call stack's callers, down to where they split.
    for (const BreakdownNode *n : m_drill)
        m_tree->expand(m_proxy->mapFromSource(m_model->indexOfNode(n)));
    if (stacks)
        for (const BreakdownNode *n = &m_model->root();
             !n->children.empty() && n->children.front().frame >= 0;) {
            const BreakdownNode *first = &n->children.front();
            m_tree->expand(m_proxy->mapFromSource(m_model->indexOfNode(first)));
            if (n->children.size() > 1 && n != &m_model->root())
                break;
            n = first;
        }
    m_tree->resizeColumnToContents(BreakdownTreeModel::BytesColumn);
    const bool peak = space && m_shown->step == space->peak.step;
    m_summary->setText(tr("step %1%2: %3 in %4 value(s)")
                           .arg(QString::number(m_shown->step), peak ? tr(" (peak)") : QString(),
                                humanBytesText(b.bytes), QString::number(b.valueCount)));
    fillFindings();
}

void BreakdownPanel::showTreemapNode(const BreakdownNode *node)
{
    if (m_pictures->currentWidget() == m_flameScroll)
        m_flame->setFocus(m_drill);
    else
        m_treemap->setNode(node, breakdown().bytes);
    m_up->setEnabled(!m_drill.empty());
    QStringList crumbs{tr("all")};
    for (const BreakdownNode *n : m_drill)
        crumbs << toQString(n->label);
    m_crumbs->setText(crumbs.join(QStringLiteral(" › ")));
}

void BreakdownPanel::zoomTo(const BreakdownNode *node)
{
    if (!node)
        return;
    const auto at = std::find(m_drill.begin(), m_drill.end(), node);
    if (node == &m_model->root()) {
        m_drill.clear();
    } else if (at + 1 == m_drill.end()) {
        m_drill.pop_back(); // the node zoomed into: out by one
    } else if (at != m_drill.end()) {
        m_drill.erase(at + 1, m_drill.end());
    } else {
        // Deeper: the chain from the root down to it.
        std::vector<const BreakdownNode *> chain;
        const auto find = [&](const auto &self, const BreakdownNode &n) -> bool {
            for (const BreakdownNode &c : n.children) {
                chain.push_back(&c);
                if (&c == node || self(self, c))
                    return true;
                chain.pop_back();
            }
            return false;
        };
        if (!find(find, m_model->root()))
            return;
        m_drill = std::move(chain);
    }
    showTreemapNode(m_drill.empty() ? &m_model->root() : m_drill.back());
}

void BreakdownPanel::pick(const BreakdownNode *node)
{
    if (!node || node == &m_model->root())
        return;
    m_picking = true;
    const QModelIndex source = m_model->indexOfNode(node);
    const QModelIndex proxy = m_proxy->mapFromSource(source);
    if (proxy.isValid()) {
        m_tree->scrollTo(proxy);
        m_tree->setCurrentIndex(proxy);
    }
    m_picking = false;
    m_treemap->setHighlighted(node);
    m_flame->setHighlighted(node);
    if (const FlameGraph::Bar *bar = m_flame->barOf(node))
        m_flameScroll->ensureVisible(static_cast<int>(bar->rect.center().x()),
                                     static_cast<int>(bar->rect.center().y()), 0,
                                     m_flame->rowHeight());
    const Breakdown &b = breakdown();
    if (m_dump && node->frame >= 0 && static_cast<std::size_t>(node->frame) < b.frames.size())
        Q_EMIT framePicked(placeOf(*m_dump, b.frames[static_cast<std::size_t>(node->frame)]));
    QVector<int> members;
    for (std::uint32_t v : node->members)
        members.push_back(static_cast<int>(v));
    m_selection->setHighlightedGroup(members,
                                     toQString(node->path.empty() ? node->label : node->path));
    // A leaf (instruction names) also selects its largest value, so its card, live range and
    // uses show everywhere.
    if (node->children.empty() && !node->members.empty())
        m_selection->setCurrentValue(static_cast<int>(node->members.front()));
}

void BreakdownPanel::showFinding(int k)
{
    if (k < 0 || k >= static_cast<int>(findings().size()))
        return;
    const Finding &f = findings()[static_cast<std::size_t>(k)];
    QVector<int> members;
    for (std::uint32_t v : f.values)
        members.push_back(static_cast<int>(v));
    m_selection->setHighlightedGroup(members, toQString(f.title));
    if (!f.values.empty())
        m_selection->setCurrentValue(static_cast<int>(f.values.front()));
}

bool BreakdownPanel::revealFinding(Finding::Kind kind)
{
    m_pendingReveal = -1;
    for (const Finding &f : findings()) {
        if (f.kind == kind) {
            m_findingsView->scrollToAnchor(QString::fromLatin1(findingKindName(kind)));
            return true;
        }
    }
    // Not worked out yet (the panel was hidden): once it is.
    m_pendingReveal = static_cast<int>(kind);
    return false;
}

void BreakdownPanel::fillFindings()
{
    QString html;
    for (std::size_t k = 0; k < findings().size(); ++k) {
        const Finding &f = findings()[k];
        html += QStringLiteral("<p><a name=\"%1\"></a><b>%2</b><br>%3")
                    .arg(QString::fromLatin1(findingKindName(f.kind)), richEscaped(f.title),
                         richEscaped(f.detail));
        if (!f.values.empty())
            html += QStringLiteral("<br><a href=\"finding:%1\">%2</a>")
                        .arg(k)
                        .arg(f.values.size() == 1
                                 ? tr("Select this value")
                                 : tr("Highlight these %1 values").arg(f.values.size()));
        html += QStringLiteral("</p>");
    }
    m_findingsView->setHtml(html);
    if (m_pendingReveal >= 0 && !findings().empty())
        revealFinding(static_cast<Finding::Kind>(m_pendingReveal));
}

} // namespace bufferscope
