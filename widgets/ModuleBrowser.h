#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;
class QTimer;

namespace bufferscope {

class Workspace;
struct ModuleFigures;

/// The modules of an opened --xla_dump_to folder: module, total bytes, peak and its step, and
/// the module's files. The list appears at once; the workspace reads totals and peaks in the
/// background, one module after another, and the list is kept sorted by total bytes, largest
/// first.
/// Double-click (or Enter) opens a module.
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

    /// Lists `files` (one per module) and starts reading their totals; a previous scan stops.
    /// `loadedElsewhere` (one of the files) is not read: the window that loads it anyway hands
    /// its figures over with setKnownResult, so a big dump is not parsed twice.
    void setFiles(const QStringList &files, const QString &loadedElsewhere = {});
    /// The figures of a listed file, read by someone else (ignored when it is not listed or
    /// already has them).
    void setKnownResult(const QString &file, const ModuleFigures &figures);
    int count() const;
    QTreeWidget *tree() const { return m_tree; }
    bool isScanning() const { return m_remaining > 0; }
    /// The module file shown in row `row` (top to bottom).
    QString fileAt(int row) const;
    /// The module on show in the window: its row is bold, and once every module is read the
    /// status line says which it is and, when another one holds more, which.
    void setOpenFile(const QString &file);

Q_SIGNALS:
    void moduleActivated(const QString &file);

private:
    void applyResult(const QString &file, const ModuleFigures &figures);

    Workspace *m_workspace;
    QLabel *m_status;
    QTreeWidget *m_tree;
    int m_remaining = 0;
    QString m_loadedElsewhere; ///< waiting for setKnownResult
    QString m_openFile;
    QHash<QString, QTreeWidgetItem *> m_itemOf; ///< file → its row
    QTimer *m_resort;                           ///< sorts the rows results came in for
    void updateStatus();
    void resort();
};

} // namespace bufferscope
