#pragma once

#include <QDialog>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace bufferscope {

class ChartView;

/// Asks where and how large to export a chart: which view, width and height in pixels before
/// scaling, the scale (2x by default, for crisp slides) and the PNG path.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    ExportDialog(const QList<ChartView *> &views, ChartView *current, const QString &suggestedDir,
                 QWidget *parent = nullptr);

    ChartView *view() const;
    int exportWidth() const;
    int exportHeight() const;
    double scale() const;
    QString path() const;
    /// Accepts unless the file exists and the user declines to replace it (the file dialog of
    /// Browse… has asked already for the path it returned).
    void accept() override;
    /// Asks before replacing `path`; tests replace it to answer without a dialog.
    std::function<bool(const QString &path)> confirmReplace;

private:
    void suggestPath();

    QList<ChartView *> m_views;
    QString m_dir;
    QComboBox *m_view;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QDoubleSpinBox *m_scale;
    QLineEdit *m_path;
    QString m_confirmedPath; ///< the file dialog asked about replacing this one
};

} // namespace bufferscope
