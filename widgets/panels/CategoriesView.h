#pragma once

#include "analysis/Categories.h"
#include "model/Dump.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTextBrowser;
class QToolButton;
class QTreeWidget;

namespace bufferscope {

class Selection;
class Treemap;
class Workspace;
struct LoadedDump;

/// What kind of memory fills the device, and what to change (analysis/Categories): the nine
/// categories with what each holds while the module runs and at the peak, drawn as bars, with
/// the rule that decided each; the levers with their savings; and a treemap of what is live at
/// the peak by category or by JAX path. Picking a category, a lever or a rectangle highlights
/// its values in every view.
class CategoriesView : public QWidget
{
    Q_OBJECT
public:
    explicit CategoriesView(Workspace *workspace, QWidget *parent = nullptr);

    void setDump(const LoadedDump &loaded);
    QTreeWidget *categories() const { return m_categories; }
    QTreeWidget *levers() const { return m_levers; }
    Treemap *treemap() const { return m_treemap; }
    QComboBox *treemapBy() const { return m_by; }
    QLabel *summary() const { return m_summary; }
    QTextBrowser *leverText() const { return m_leverText; }

    /// Highlights category `c`'s values / lever `k`'s values (what clicking its row does).
    void pickCategory(Category c);
    void pickLever(int k);

private:
    void fill();
    void showTree();
    void highlight(const std::vector<std::uint32_t> &values, const QString &label);

    Workspace *m_workspace;
    Selection *m_selection;
    std::shared_ptr<const Dump> m_dump;
    std::shared_ptr<const ValueCategories> m_values;
    std::shared_ptr<const CategoryReport> m_report;
    QLabel *m_summary;
    QTreeWidget *m_categories;
    QTreeWidget *m_levers;
    QTextBrowser *m_leverText;
    QComboBox *m_by;
    QToolButton *m_up;
    QLabel *m_crumbs;
    Treemap *m_treemap;
    std::vector<const BreakdownNode *> m_drill;
    bool m_pickingLever = false; ///< the group being picked is a lever's
};

} // namespace bufferscope
