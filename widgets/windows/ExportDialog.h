#pragma once

#include "drawing/ChartExport.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace bufferscope {

class ChartView;

/// Asks how to export a chart: which view, the format (PNG, SVG, PDF or the CSV of its data;
/// the file's extension and the format follow each other), width and height, the scale of a
/// PNG (2x by default, for crisp slides), the title, an optional footer naming the dump and the
/// BufferScope version, and the path. The format and the footer choice are remembered.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    ExportDialog(const QList<ChartView *> &views, ChartView *current, const QString &suggestedDir,
                 QWidget *parent = nullptr);

    ChartView *view() const;
    ExportFormat format() const;
    /// Size, scale, title and footer as chosen.
    ExportOptions options() const;
    QString path() const;
    /// Accepts unless the path has no known extension, or the file exists and the user
    /// declines to replace it (the file dialog of Browse… has asked already for the path it
    /// returned).
    void accept() override;
    /// Asks before replacing `path`; tests replace it to answer without a dialog.
    std::function<bool(const QString &path)> confirmReplace;

private:
    void suggestPath();
    void formatChosen();
    void enableFor(ExportFormat format);
    void pathEdited();
    void viewChosen();

    QList<ChartView *> m_views;
    QString m_dir;
    QComboBox *m_view;
    QComboBox *m_format;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QDoubleSpinBox *m_scale;
    QLineEdit *m_title;
    QCheckBox *m_footer;
    QLineEdit *m_path;
    QLabel *m_problem;
    QString m_confirmedPath; ///< the file dialog asked about replacing this one
    QString m_defaultTitle;  ///< the view's title, while the user has not typed another
};

} // namespace bufferscope
