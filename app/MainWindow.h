#pragma once

#include "DumpLoader.h"

#include <QMainWindow>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeView;
class QTableView;

namespace bufferscope {

class AllocationTreeModel;
class InstructionListModel;
class Selection;
class ValueTableModel;
class ValueTableView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens a dump file (or ":/…" resource) off the GUI thread.
    void openPath(const QString &path);
    void openEmbeddedSample();

    Selection *selection() const { return m_selection; }
    const LoadedDump &current() const { return m_current; }
    DumpLoader *loader() const { return m_loader; }

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void connectViews();
    void showLoaded(const LoadedDump &loaded);
    void showError(const QString &path, const QString &error);
    void updateStatus();

    DumpLoader *m_loader;
    Selection *m_selection;
    ValueTableModel *m_valueModel;
    AllocationTreeModel *m_allocationModel;
    InstructionListModel *m_instructionModel;
    ValueTableView *m_valueView = nullptr;
    QTreeView *m_allocationView = nullptr;
    QTableView *m_instructionView = nullptr;
    QLabel *m_statusFile = nullptr;
    QLabel *m_statusTotals = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    LoadedDump m_current;
};

} // namespace bufferscope
