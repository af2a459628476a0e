#include "panels/CategoriesView.h"

#include "Workspace.h"
#include "charts/Treemap.h"
#include "drawing/ChartPalette.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "tables/SortedRow.h"
#include "tables/TableCsv.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <optional>

namespace bufferscope {

namespace {

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kShareRole = Qt::UserRole + 2; ///< a bar cell's share, 0..1
constexpr int kIndexRole = Qt::UserRole + 3; ///< the category or lever the row stands for

enum CategoryColumn
{
    NameColumn,
    HeldColumn,
    PeakColumn,
    ValuesColumn,
    EvidenceColumn,
    CategoryColumns
};

enum LeverColumn
{
    KindColumn,
    SavesColumn,
    NewPeakColumn,
    HowColumn,
    LeverValuesColumn,
    LeverColumns
};

/// A bytes cell with its share drawn as a bar under the text.
class ShareBar : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        const QVariant share = index.data(kShareRole);
        if (share.isValid()) {
            QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
            bar.setWidth(bar.width() * std::clamp(share.toDouble(), 0.0, 1.0));
            QColor fill = ChartPalette::liveBytes();
            fill.setAlpha(70);
            painter->fillRect(bar, fill);
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

QString percentOf(std::int64_t part, std::int64_t whole)
{
    return whole > 0
               ? QStringLiteral("%1%").arg(
                     100.0 * static_cast<double>(part) / static_cast<double>(whole), 0, 'f', 1)
               : QStringLiteral("–");
}

} // namespace

CategoriesView::CategoriesView(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_selection(workspace->selection()),
      m_summary(new QLabel(this)), m_categories(new QTreeWidget(this)),
      m_levers(new QTreeWidget(this)), m_leverText(new QTextBrowser(this)),
      m_by(new QComboBox(this)), m_up(new QToolButton(this)), m_crumbs(new QLabel(this)),
      m_treemap(new Treemap(this))
{
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_crumbs->setTextFormat(Qt::PlainText);
    m_crumbs->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_categories->setColumnCount(CategoryColumns);
    m_categories->setHeaderLabels({tr("Category"), tr("Held while it runs"), tr("At the peak"),
                                   tr("Values"), tr("Evidence")});
    m_categories->headerItem()->setToolTip(
        HeldColumn, tr("Its share of argument + output − alias + temp: its parameter and output "
                       "allocations whole, and of the temp allocation what it has live at that "
                       "allocation's busiest step"));
    m_categories->headerItem()->setToolTip(
        PeakColumn, tr("Its live bytes at the peak of the memory usage curve"));
    m_categories->headerItem()->setToolTip(
        EvidenceColumn, tr("The rule that decided the most of its values: the data flow first, "
                           "names only when the flow does not decide"));
    m_categories->setRootIsDecorated(false);
    m_categories->setUniformRowHeights(true);
    m_categories->setSortingEnabled(true);
    m_categories->setAlternatingRowColors(true);
    m_categories->setItemDelegateForColumn(HeldColumn, new ShareBar(m_categories));
    m_categories->setItemDelegateForColumn(PeakColumn, new ShareBar(m_categories));
    m_categories->header()->setStretchLastSection(true);
    TableCsv::addActions(m_categories, QStringLiteral("categories"));

    m_levers->setColumnCount(LeverColumns);
    m_levers->setHeaderLabels(
        {tr("Lever"), tr("Saves"), tr("New peak"), tr("How sure"), tr("Values")});
    m_levers->setRootIsDecorated(false);
    m_levers->setUniformRowHeights(true);
    m_levers->setSortingEnabled(true);
    m_levers->setAlternatingRowColors(true);
    m_levers->setItemDelegateForColumn(SavesColumn, new ShareBar(m_levers));
    m_levers->header()->setStretchLastSection(true);
    TableCsv::addActions(m_levers, QStringLiteral("levers"));
    m_leverText->setPlaceholderText(tr("Pick a lever to read what it changes and how its "
                                       "saving was found."));

    m_by->addItem(tr("by category"));
    m_by->addItem(tr("by JAX path"));
    m_by->setToolTip(tr("The values live at the peak: by category, then by op_name (a "
                        "parameter's is its argument's pytree path); or by op_name alone"));
    m_up->setText(tr("Up"));
    m_up->setEnabled(false);
    auto *byLabel = new QLabel(tr("&Treemap at the peak:"), this);
    byLabel->setBuddy(m_by);

    auto *mapRow = new QHBoxLayout;
    mapRow->addWidget(byLabel);
    mapRow->addWidget(m_by);
    mapRow->addWidget(m_up);
    mapRow->addWidget(m_crumbs, 1);
    auto *mapBox = new QWidget(this);
    auto *mapLayout = new QVBoxLayout(mapBox);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->addLayout(mapRow);
    mapLayout->addWidget(m_treemap, 1);

    auto *leverBox = new QSplitter(Qt::Horizontal, this);
    leverBox->addWidget(m_levers);
    leverBox->addWidget(m_leverText);
    leverBox->setStretchFactor(0, 3);
    leverBox->setStretchFactor(1, 2);
    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_categories);
    left->addWidget(leverBox);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(mapBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_categories, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item)
            pickCategory(static_cast<Category>(item->data(0, kIndexRole).toInt()));
    });
    connect(m_levers, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item)
            pickLever(item->data(0, kIndexRole).toInt());
    });
    connect(m_by, &QComboBox::currentIndexChanged, this, [this] {
        m_drill.clear();
        showTree();
    });
    connect(m_treemap, &Treemap::clicked, this, [this](const BreakdownNode *node) {
        if (!node)
            return;
        m_treemap->setHighlighted(node);
        highlight(node->members, toQString(node->path.empty() ? node->label : node->path));
    });
    connect(m_treemap, &Treemap::activated, this, [this](const BreakdownNode *node) {
        if (!node || node->children.empty())
            return;
        m_drill.push_back(node);
        showTree();
    });
    connect(m_up, &QToolButton::clicked, this, [this] {
        if (!m_drill.empty())
            m_drill.pop_back();
        showTree();
    });
    // Another group picked anywhere, or the selection cleared (Esc, the window's Clear
    // Selection): the lever's curve goes, and a cleared group lets go of the picked row too.
    connect(m_selection, &Selection::highlightedGroupChanged, this, [this] {
        if (!m_pickingLever)
            m_workspace->showLever(-1);
        if (m_selection->highlightedGroup().isEmpty()) {
            const QSignalBlocker categories(m_categories);
            const QSignalBlocker levers(m_levers);
            m_categories->setCurrentItem(nullptr);
            m_categories->clearSelection();
            m_levers->setCurrentItem(nullptr);
            m_levers->clearSelection();
            m_leverText->clear();
        }
    });
    m_workspace->subscribe(this, tr("categories"),
                           [this](const LoadedDump &loaded) { setDump(loaded); });
}

void CategoriesView::setDump(const LoadedDump &loaded)
{
    m_dump = loaded.dump;
    m_values = loaded.categories;
    m_report = loaded.byCategory;
    m_drill.clear();
    fill();
}

void CategoriesView::fill()
{
    m_categories->clear();
    m_levers->clear();
    m_leverText->clear();
    if (!m_dump || !m_report) {
        m_summary->clear();
        showTree();
        return;
    }
    const CategoryReport &r = *m_report;
    QString how = !r.training ? tr("No backward pass in the op_names: arguments, outputs and "
                                   "temporaries only.")
                  : r.update  ? tr("A training step: forward (jvp), backward (transpose) and an "
                                    "update found in the op_names.")
                              : tr("Forward (jvp) and backward (transpose) found in the "
                                    "op_names, no update after them.");
    if (r.recomputed > 0)
        how += QLatin1Char(' ') +
               tr("%n value(s) of forward ops after the backward pass began (recomputed, or "
                  "scheduled late).",
                  "", int(r.recomputed));
    if (r.peakStep >= 0)
        how += QLatin1Char(' ') + tr("Held while it runs %1; peak %2 at step %3.")
                                      .arg(humanBytesText(r.heldBytes), humanBytesText(r.peakBytes))
                                      .arg(r.peakStep);
    else
        how += QLatin1Char(' ') + tr("Held while it runs %1; no live ranges, so no peak and "
                                     "no levers.")
                                      .arg(humanBytesText(r.heldBytes));
    m_summary->setText(how);

    m_categories->setSortingEnabled(false);
    for (const CategoryTotals &t : r.totals) {
        if (t.values == 0 && t.heldBytes == 0)
            continue;
        auto *item = new SortedRow<kSortRole>(m_categories);
        item->setText(NameColumn, toQString(categoryTitle(t.category)));
        item->setIcon(NameColumn, ChartPalette::categorySwatch(t.category));
        item->setData(NameColumn, kIndexRole, static_cast<int>(t.category));
        item->setData(NameColumn, kSortRole, static_cast<int>(t.category));
        item->setText(HeldColumn, humanBytesText(t.heldBytes) + QStringLiteral("  ") +
                                      percentOf(t.heldBytes, r.heldBytes));
        item->setData(HeldColumn, kSortRole, qint64(t.heldBytes));
        item->setData(HeldColumn, kShareRole,
                      r.heldBytes > 0 ? double(t.heldBytes) / double(r.heldBytes) : 0.0);
        if (r.peakStep >= 0) {
            item->setText(PeakColumn, humanBytesText(t.peakBytes) + QStringLiteral("  ") +
                                          percentOf(t.peakBytes, r.peakBytes));
            item->setData(PeakColumn, kSortRole, qint64(t.peakBytes));
            item->setData(PeakColumn, kShareRole,
                          r.peakBytes > 0 ? double(t.peakBytes) / double(r.peakBytes) : 0.0);
        } else {
            item->setText(PeakColumn, QStringLiteral("–"));
        }
        item->setText(ValuesColumn, QString::number(t.values));
        item->setData(ValuesColumn, kSortRole, qint64(t.values));
        item->setTextAlignment(ValuesColumn, Qt::AlignRight | Qt::AlignVCenter);
        QString evidence;
        QString tip;
        for (const auto &[reason, count] : t.reasons) {
            if (evidence.isEmpty())
                evidence = toQString(ValueCategories::reasonText(reason));
            tip += QStringLiteral("%1 × %2\n")
                       .arg(count)
                       .arg(toQString(ValueCategories::reasonText(reason)));
        }
        if (t.category == Category::Other && r.packingBytes > 0) {
            const QString packing = tr("%1 of the temp allocation is never live with its busiest "
                                       "step's values (packing)")
                                        .arg(humanBytesText(r.packingBytes));
            evidence = evidence.isEmpty() ? packing : evidence;
            tip += packing;
        }
        item->setText(EvidenceColumn, evidence);
        item->setToolTip(EvidenceColumn, tip.trimmed());
        item->setToolTip(NameColumn, tip.trimmed());
    }
    m_categories->setSortingEnabled(true);
    m_categories->sortByColumn(NameColumn, Qt::AscendingOrder);
    for (int c : {NameColumn, HeldColumn, PeakColumn, ValuesColumn})
        m_categories->resizeColumnToContents(c);
    for (int c : {HeldColumn, PeakColumn})
        m_categories->setColumnWidth(c, m_categories->columnWidth(c) + 24);

    m_levers->setSortingEnabled(false);
    for (std::size_t k = 0; k < r.levers.size(); ++k) {
        const Lever &l = r.levers[k];
        auto *item = new SortedRow<kSortRole>(m_levers);
        item->setText(KindColumn, toQString(Lever::kindName(l.kind)));
        item->setData(KindColumn, kIndexRole, static_cast<int>(k));
        const std::int64_t of = r.wholeBytes(l);
        item->setText(SavesColumn, humanBytesText(l.savingBytes) + QStringLiteral("  ") +
                                       percentOf(l.savingBytes, of));
        item->setData(SavesColumn, kSortRole, qint64(l.savingBytes));
        item->setData(SavesColumn, kShareRole, of > 0 ? double(l.savingBytes) / double(of) : 0.0);
        item->setText(NewPeakColumn, l.newPeakBytes >= 0
                                         ? humanBytesText(l.newPeakBytes)
                                         : tr("held %1").arg(signedBytesText(-l.savingBytes)));
        item->setData(NewPeakColumn, kSortRole, qint64(l.newPeakBytes));
        item->setText(HowColumn, l.exact ? tr("exact") : tr("estimate"));
        item->setText(LeverValuesColumn, QString::number(l.values.size()));
        item->setData(LeverValuesColumn, kSortRole, qint64(l.values.size()));
        item->setToolTip(KindColumn, toQString(l.text));
    }
    m_levers->setSortingEnabled(true);
    m_levers->sortByColumn(SavesColumn, Qt::DescendingOrder);
    for (int c = 0; c < LeverColumns; ++c)
        m_levers->resizeColumnToContents(c);
    m_levers->setColumnWidth(SavesColumn, m_levers->columnWidth(SavesColumn) + 24);
    if (r.levers.empty())
        m_leverText->setPlainText(
            r.peakStep < 0 ? tr("No levers without live ranges: the savings are found on the "
                                "live-bytes curve.")
                           : tr("No lever applies: no weights, optimizer state, activations or "
                                "donatable parameters were found."));
    showTree();
}

void CategoriesView::showTree()
{
    const BreakdownNode *root = nullptr;
    if (m_report)
        root = m_by->currentIndex() == 1 ? &m_report->pathTree : &m_report->categoryTree;
    const BreakdownNode *node = m_drill.empty() ? root : m_drill.back();
    m_up->setEnabled(!m_drill.empty());
    QStringList crumbs;
    for (const BreakdownNode *n : m_drill)
        crumbs << toQString(n->label);
    m_crumbs->setText(crumbs.isEmpty()
                          ? (root ? tr("All, %1").arg(humanBytesText(root->bytes)) : QString())
                          : crumbs.join(QStringLiteral(" › ")));
    // By category, each category in its own colour (the table's swatches are the key), and
    // inside one, shades of it; by JAX path, the palette's cycle.
    std::optional<Category> in;
    const auto categoryOf = [](const BreakdownNode &n) -> std::optional<Category> {
        for (std::size_t c = 0; c < kCategoryCount; ++c)
            if (n.label == categoryTitle(static_cast<Category>(c)))
                return static_cast<Category>(c);
        return std::nullopt;
    };
    if (m_by->currentIndex() == 0 && !m_drill.empty())
        in = categoryOf(*m_drill.front());
    if (m_by->currentIndex() != 0)
        m_treemap->setColorOf({});
    else
        m_treemap->setColorOf(
            [in, categoryOf](const BreakdownNode &child, std::size_t i) -> QColor {
                if (!in) {
                    const std::optional<Category> c = categoryOf(child);
                    return c ? ChartPalette::categoryColor(*c) : QColor();
                }
                const QColor base = ChartPalette::categoryColor(*in);
                switch (i % 3) {
                case 1:
                    return base.darker(125);
                case 2:
                    return base.lighter(125);
                default:
                    return base;
                }
            });
    m_treemap->setNode(node, node ? node->bytes : 0);
}

void CategoriesView::highlight(const std::vector<std::uint32_t> &values, const QString &label)
{
    QVector<int> members;
    members.reserve(static_cast<qsizetype>(values.size()));
    for (std::uint32_t v : values)
        members.push_back(static_cast<int>(v));
    m_selection->setHighlightedGroup(members, label);
}

void CategoriesView::pickCategory(Category c)
{
    if (!m_report)
        return;
    const CategoryTotals &t = m_report->of(c);
    m_workspace->showLever(-1);
    highlight(t.members, toQString(categoryTitle(c)));
}

void CategoriesView::pickLever(int k)
{
    if (!m_report || k < 0 || static_cast<std::size_t>(k) >= m_report->levers.size() || !m_dump)
        return;
    const Lever &l = m_report->levers[static_cast<std::size_t>(k)];
    QString text = QStringLiteral("<p><b>%1</b> — %2 %3</p><p>%4</p>")
                       .arg(richEscaped(Lever::kindName(l.kind)),
                            tr("saves %1").arg(humanBytesText(l.savingBytes)),
                            l.exact ? tr("(exact)") : tr("(estimate)"), richEscaped(l.text, 4000));
    if (!l.values.empty()) {
        text += QStringLiteral("<p>%1</p><ul>").arg(tr("The values it acts on at the peak:"));
        for (std::size_t i = 0; i < l.values.size() && i < 12; ++i) {
            const Value &v = m_dump->values[l.values[i]];
            text += QStringLiteral("<li>%1 — %2</li>")
                        .arg(richEscaped(m_dump->valueDisplayName(v)), humanBytesText(v.size));
        }
        if (l.values.size() > 12)
            text +=
                QStringLiteral("<li>%1</li>").arg(tr("… %n more", "", int(l.values.size() - 12)));
        text += QStringLiteral("</ul>");
    }
    m_leverText->setHtml(text);
    m_pickingLever = true;
    highlight(l.values, tr("%1 lever").arg(toQString(Lever::kindName(l.kind))));
    m_pickingLever = false;
    m_workspace->showLever(k); // its curve on Memory Usage
}

} // namespace bufferscope
