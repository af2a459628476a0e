#pragma once

#include "analysis/SourceFrames.h"
#include "model/Dump.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace bufferscope {

class Selection;
class Workspace;
struct ValueCard;

/// Every field of the selected value: identity, allocation, sizes and padding, shape, live
/// range, positions and uses as links (select that step or value), metadata with a copyable
/// source location, and the full `from instruction:` text.
class ValueInspector : public QWidget
{
    Q_OBJECT
public:
    ValueInspector(Workspace *workspace, QWidget *parent = nullptr);

    void setDump(std::shared_ptr<const Dump> dump);
    /// Library frames of call stacks show grey (SourceFrames.h).
    void setLibraryPatterns(std::vector<std::string> patterns);
    int shownValue() const { return m_value; }
    QTextBrowser *details() const { return m_details; }
    QPlainTextEdit *instructionText() const { return m_text; }
    /// Follows a link of the details view ("value:N", "step:N", "frame:K"), as a click would.
    void activateLink(const QUrl &url);
    /// The shown value's call stack, innermost first (its inline source as one frame).
    const std::vector<SourcePlace> &frames() const { return m_frames; }

protected:
    void resizeEvent(QResizeEvent *event) override;

Q_SIGNALS:
    /// A frame of the call stack was clicked: show its source.
    void frameActivated(const bufferscope::SourcePlace &place);

private:
    void showValue(int value);
    QString html(const ValueCard &card) const;
    QString stepLink(std::int64_t step) const;
    QString instructionLink(std::uint32_t instruction) const;
    /// The heading: the name, elided in the middle to the width there is, and the size.
    void fitHeading();

    Workspace *m_workspace;
    Selection *m_selection;
    std::shared_ptr<const Dump> m_dump;
    QLabel *m_heading;
    QTextBrowser *m_details;
    QString m_detailsHtml; ///< the card shown, read again when the palette changes
    QPlainTextEdit *m_text;
    QPushButton *m_copySource;
    int m_value = -1;
    QString m_headingName; ///< the shown value's name (empty: none)
    QString m_headingSize;
    std::vector<SourcePlace> m_frames;
    std::vector<std::string> m_libraryPatterns = defaultLibraryPatterns();
};

} // namespace bufferscope
