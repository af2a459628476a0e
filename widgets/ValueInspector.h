#pragma once

#include "model/Dump.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace bufferscope {

class Selection;

/// Every field of the selected value: identity, allocation, sizes and padding, shape, live
/// range, positions and uses as links (select that step or value), metadata with a copyable
/// source location, and the full `from instruction:` text.
class ValueInspector : public QWidget
{
    Q_OBJECT
public:
    ValueInspector(Selection *selection, QWidget *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump);
    int shownValue() const { return m_value; }
    QTextBrowser *details() const { return m_details; }
    QPlainTextEdit *instructionText() const { return m_text; }
    /// Follows a link of the details view ("value:N", "step:N"), as a click would.
    void activateLink(const QUrl &url);

private:
    void showValue(int value);
    QString html(const Value &v) const;
    QString stepLink(std::int64_t step) const;
    QString instructionLink(std::uint32_t instruction) const;

    Selection *m_selection;
    std::shared_ptr<const Dump> m_dump;
    QLabel *m_heading;
    QTextBrowser *m_details;
    QPlainTextEdit *m_text;
    QPushButton *m_copySource;
    int m_value = -1;
};

} // namespace bufferscope
