#pragma once

#include <QStringList>
#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QThread;
class QTreeWidget;

namespace bufferscope {

/// The modules of an opened --xla_dump_to folder: module, total bytes, peak and its step, and
/// the module's files. The list appears at once; totals and peaks are read in the background,
/// one module after another, and the list is kept sorted by total bytes, largest first.
/// Double-click (or Enter) opens a module.
class ModuleBrowser : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        ModuleColumn,
        TotalColumn,
        PeakColumn,
        StepColumn,
        FilesColumn,
        ColumnCount
    };

    explicit ModuleBrowser(QWidget *parent = nullptr);
    ~ModuleBrowser() override;

    /// Lists `files` (one per module) and starts reading their totals; a previous scan stops.
    /// `loadedElsewhere` (one of the files) is not read: the window that loads it anyway hands
    /// its figures over with setKnownResult, so a big dump is not parsed twice.
    void setFiles(const QStringList &files, const QString &loadedElsewhere = {});
    /// The figures of a listed file, read by someone else (ignored when it is not listed or
    /// already has them).
    void setKnownResult(const QString &file, qint64 total, qint64 peak, qint64 step, int files,
                        const QString &error = {});
    /// The error to pass to setKnownResult when the load was cancelled.
    static QString cancelledText();
    int count() const;
    QTreeWidget *tree() const { return m_tree; }
    bool isScanning() const { return m_remaining > 0; }
    /// The module file shown in row `row` (top to bottom).
    QString fileAt(int row) const;

Q_SIGNALS:
    void moduleActivated(const QString &file);
    void scanFinished();

private:
    void stopScan();
    void applyResult(quint64 generation, int index, qint64 total, qint64 peak, qint64 step,
                     int files, const QString &error);

    QLabel *m_status;
    QTreeWidget *m_tree;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_generation = 0;
    int m_remaining = 0;
    QString m_loadedElsewhere; ///< waiting for setKnownResult
};

} // namespace bufferscope
