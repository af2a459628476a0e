#pragma once

#include "LoadedDump.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;
class QTimer;

namespace bufferscope {

class Workspace;
struct DumpFiles;
struct ModuleFigures;
struct ScannedModule;

/// The modules of an opened --xla_dump_to folder: what the device holds while each runs, total
/// bytes, peak and its step, and the module's files. The workspace reads them in the
/// background, many at a time; each row appears with its figures, and the list is kept sorted
/// by the column the header shows (what the device holds, largest first, to begin with).
/// A function compiled more than once is one row (its *family*: `jit_train_step · 63
/// compiles`) with its compiles under it: the most any of them holds, their total, the largest
/// live peak; it opens its largest module. The filter box keeps the rows whose name or file
/// holds its text. Double-click (or Enter) opens a module.
class ModuleBrowser : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        ModuleColumn,
        HeldColumn, ///< what the device holds while it runs (MemoryAnalysis)
        TotalColumn,
        PeakColumn,
        StepColumn,
        FilesColumn,
        ColumnCount
    };

    explicit ModuleBrowser(Workspace *workspace, QWidget *parent = nullptr);

    /// Lists the workspace's run (Workspace::run): a row for each module as its figures come
    /// (Workspace::modulesScanned), ranked by them (Run::figures).
    void showRun();
    /// The modules read so far (each one row, alone or under its family).
    int count() const;
    /// The families with more than one compile so far (rows with the compiles under them).
    int familyCount() const { return static_cast<int>(m_familyItem.size()); }
    /// Keeps the rows whose module name, file or function holds `text` (any case).
    void setFilter(const QString &text);
    QLineEdit *filterBox() const { return m_filter; }
    QTreeWidget *tree() const { return m_tree; }
    bool isScanning() const { return m_remaining > 0; }
    /// The module file shown in row `row` (top to bottom).
    QString fileAt(int row) const;
    /// The module on show in the window: its row is bold, and once every module is read the
    /// status line says which it is and, when another one holds more, which.
    void setOpenFile(const QString &file);

Q_SIGNALS:
    void moduleActivated(const QString &file);
    /// Every module of the run shown has its figures.
    void allRead();

private:
    void applyResults(const QList<ScannedModule> &modules);
    void addPending();
    void fill(QTreeWidgetItem *item, const QString &file, const ModuleFigures &figures);
    /// A family's row: the most its compiles hold, their total, the largest live peak, and the
    /// largest module's file, which it opens.
    void fillFamily(QTreeWidgetItem *family, const QString &name);
    bool matches(const QTreeWidgetItem *item) const;

    Workspace *m_workspace;
    QLabel *m_status;
    QTreeWidget *m_tree;
    int m_remaining = 0;
    QString m_openFile;
    QHash<QString, QTreeWidgetItem *> m_itemOf; ///< file → its row (null until it is read)
    QLineEdit *m_filter;
    QHash<QString, QStringList> m_familyFiles;      ///< function → its modules read so far
    QHash<QString, QTreeWidgetItem *> m_familyItem; ///< function → its row, when 2+ compiles
    QTimer *m_resort;                               ///< sorts the rows results came in for
    QList<ScannedModule> m_pending;                 ///< read, their rows not made yet
    QTimer *m_drain;                                ///< makes the next rows of m_pending
    void updateStatus();
    void resort();
};

} // namespace bufferscope
