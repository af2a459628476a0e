#pragma once

#include "analysis/SourceFrames.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace bufferscope {

/// The source of one call-stack frame: the lines around it with the frame's line marked, read
/// from this machine — at the path the dump names, or under a path mapping (dumps come from
/// TPU VMs: `/home/alice/proj` → `~/src/proj`) — and *Open in Editor*, which runs the
/// configured command (`{file}`, `{line}`, `{column}` replaced) or, without one, asks the
/// desktop to open the file.
class SourceView : public QWidget
{
    Q_OBJECT
public:
    explicit SourceView(QWidget *parent = nullptr);

    void setPathMappings(std::vector<PathMapping> mappings);
    /// Empty: the desktop's handler for the file.
    void setEditorCommand(const QString &command);
    /// The folder of the dump on show (empty: none, or an embedded sample): a frame whose file
    /// is relative is looked for there and nowhere else.
    void setDumpFolder(const QString &folder);
    /// Shows `place` (an invalid place: nothing).
    void showPlace(const SourcePlace &place);
    const SourcePlace &place() const { return m_place; }
    /// The file read for the place on show; empty when none was found.
    QString localPath() const { return m_localPath; }
    QPlainTextEdit *text() const { return m_text; }
    /// The line of the text that is the frame's line (-1: none).
    int markedBlock() const { return m_markedBlock; }
    /// Runs the editor command (or the desktop's handler) on the file; false with `error` set
    /// when it could not start.
    bool openInEditor(QString *error = nullptr);
    /// The command line openInEditor runs for the place on show (empty: the desktop handler).
    QStringList editorArguments() const;

    static constexpr int kContext = 40; ///< lines shown on each side of the frame's line
    /// The heading as shown: "function · file:line:column", the file elided in the middle to
    /// fit, never the line number.
    QString headingText() const;

Q_SIGNALS:
    /// The user asked to set a path mapping (the file was not found).
    void preferencesRequested();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();
    void updateHeading();
    /// The Open button's tooltip says what it will run.
    void updateOpenToolTip();

    SourcePlace m_place;
    std::vector<PathMapping> m_mappings;
    QString m_editorCommand;
    QString m_dumpFolder;
    QString m_localPath;
    int m_markedBlock = -1;
    QLabel *m_heading;
    QLabel *m_status;
    QPlainTextEdit *m_text;
    QPushButton *m_open;
    QPushButton *m_mapping;
};

} // namespace bufferscope
