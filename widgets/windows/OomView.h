#pragma once

#include "report/OomReport.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace bufferscope {

/// An out-of-memory message — a log file, or text pasted or dropped on the window — in a
/// window of its own (docs/FORMAT.md Part B §4.1): what the failing allocation asked for, the
/// device's limit, the buffers the message lists as a table (Copy/Save as CSV) and as bars.
/// Joined to a dump folder (OomJoin), it names the module the message is about and why, and
/// what in it each listed buffer is; anything not exact stays "unmatched", with the reason.
class OomView : public QWidget
{
    Q_OBJECT
public:
    OomView(OomFindings findings, QWidget *parent = nullptr);

    const OomFindings &findings() const { return *m_findings; }
    /// The result of weighing modules: shows the module and the matches.
    void setFindings(OomFindings findings);
    /// While modules are weighed: the button is off and the module line says so.
    void setWeighing(const QString &what);
    bool isWeighing() const { return m_weighing; }
    /// Whether the shown message's module was found (then the window opens it).
    bool moduleChosen() const;
    int message() const { return m_message; }
    void showMessage(int index);

    QTableWidget *table() const { return m_table; }
    QCustomPlot *bars() const { return m_bars; }
    QPushButton *openButton() const { return m_open; }
    QLabel *moduleLabel() const { return m_module; }
    QLabel *summaryLabel() const { return m_summary; }

Q_SIGNALS:
    /// The user asked to find the module in a folder of their choice.
    void findModuleRequested();
    /// The user asked to open the chosen module of message `message`.
    void openModuleRequested(int message);

private:
    void fillSummary();
    void fillTable();
    void fillBars();
    void fillModule();

    std::shared_ptr<OomFindings> m_findings;
    int m_message = 0;
    bool m_weighing = false;
    QComboBox *m_messages;
    QLabel *m_summary;
    QLabel *m_module;
    QPushButton *m_find;
    QPushButton *m_open;
    QTableWidget *m_table;
    QWidget *m_split = nullptr; ///< the table and the bars: hidden when the message lists none
    QCustomPlot *m_bars;
};

} // namespace bufferscope
