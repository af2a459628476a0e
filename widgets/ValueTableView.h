#pragma once

#include <QWidget>

class QLineEdit;
class QTableView;
class QSortFilterProxyModel;

namespace bufferscope {

class Selection;
class ValueTableModel;

/// The values table with a filter box (name, op_name, source, shape). Selecting a row sets the
/// shared Selection; a selection made elsewhere scrolls the table to its row.
class ValueTableView : public QWidget
{
    Q_OBJECT
public:
    ValueTableView(ValueTableModel *model, Selection *selection, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }

private:
    void showValue(int value);

    ValueTableModel *m_model;
    Selection *m_selection;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLineEdit *m_filter;
    bool m_filtering = false;
};

} // namespace bufferscope
