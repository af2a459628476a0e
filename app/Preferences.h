#pragma once

#include "analysis/SourceFrames.h"

#include <QDialog>

class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;

namespace bufferscope {

/// What the user sets, kept in QSettings: the library patterns "by source" and the stacks look
/// past, where the dumps' files are on this machine, the editor, and the threads to load with.
struct Preferences
{
    std::vector<std::string> libraryPatterns = defaultLibraryPatterns();
    std::vector<PathMapping> pathMappings;
    QString editorCommand; ///< empty: the desktop's handler
    int threads = 0;       ///< threads for loading and analysis; 0: every core

    static Preferences load();
    void save() const;
    bool operator==(const Preferences &) const = default;
};

/// Edit ▸ Preferences: the library patterns (one per line, with the defaults a click away),
/// the path mappings as a two-column table, the editor command and the thread count.
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences &preferences, QWidget *parent = nullptr);

    Preferences preferences() const;
    /// Adds a mapping row with `from` filled in and its `to` cell ready to type into.
    void addMapping(const QString &from = {}, const QString &to = {});
    QPlainTextEdit *patternsEdit() const { return m_patterns; }
    QSpinBox *threadsSpin() const { return m_threads; }

private:
    QPlainTextEdit *m_patterns;
    QTableWidget *m_mappings;
    QLineEdit *m_editor;
    QSpinBox *m_threads;
};

} // namespace bufferscope
