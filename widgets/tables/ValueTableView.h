#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QLineEdit;
class QTableView;

namespace bufferscope {

class Selection;
class ValueTableModel;
class Workspace;

/// The values table with a filter box (name, op_name, source, shape). Selecting a row sets the
/// shared Selection; a selection made elsewhere scrolls the table to its row. The model sorts
/// and filters itself; on big dumps the matching runs on the workspace's job runner, the newest
/// filter wins and the table keeps answering meanwhile.
class ValueTableView : public QWidget
{
    Q_OBJECT
public:
    /// Dumps with at least this many values (50,000 unless set) are filtered off the GUI thread.
    void setBackgroundFrom(int values) { m_backgroundFrom = values; }

    ValueTableView(ValueTableModel *model, Workspace *workspace, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    /// A filter is being matched in the background.
    bool isFiltering() const;
    /// "12 of 340 values" under a filter, empty without one.
    QString countText() const;

Q_SIGNALS:
    /// The rows now shown are those of the filter text (also when it was cleared).
    void filterApplied();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyFilter();
    void fitColumns();
    void adoptFilter(std::vector<std::uint8_t> keep);
    void showValue(int value);

    ValueTableModel *m_model;
    Workspace *m_workspace;
    Selection *m_selection;
    int m_filterLane;
    QTableView *m_table;
    QLineEdit *m_filter;
    QLabel *m_count;
    bool m_filtering = false;   ///< the table's current row moves because of the filter
    bool m_selectFirst = false; ///< Enter in the filter: select the first match once applied
    void selectFirstRow();
    int m_backgroundFrom = 50000;
};

} // namespace bufferscope
