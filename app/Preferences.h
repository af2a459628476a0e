#pragma once

#include "analysis/SourceFrames.h"

#include <QDialog>

class QLineEdit;
class QPlainTextEdit;
class QTableWidget;

namespace bufferscope {

/// What the user sets about source code, kept in QSettings: the library patterns "by source"
/// and the stacks look past, where the dumps' files are on this machine, and the editor.
struct SourcePreferences
{
    std::vector<std::string> libraryPatterns = defaultLibraryPatterns();
    std::vector<PathMapping> pathMappings;
    QString editorCommand; ///< empty: the desktop's handler

    static SourcePreferences load();
    void save() const;
    bool operator==(const SourcePreferences &) const = default;
};

/// Edit ▸ Preferences: the library patterns (one per line, with the defaults a click away),
/// the path mappings as a two-column table, and the editor command.
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(const SourcePreferences &preferences, QWidget *parent = nullptr);

    SourcePreferences preferences() const;
    /// Adds a mapping row with `from` filled in and its `to` cell ready to type into.
    void addMapping(const QString &from = {}, const QString &to = {});
    QPlainTextEdit *patternsEdit() const { return m_patterns; }
    QTableWidget *mappingsTable() const { return m_mappings; }
    QLineEdit *editorEdit() const { return m_editor; }

private:
    QPlainTextEdit *m_patterns;
    QTableWidget *m_mappings;
    QLineEdit *m_editor;
};

} // namespace bufferscope
