#pragma once

#include <QDialog>

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

private:
    void suggestPath();

    QList<ChartView *> m_views;
    QString m_dir;
    QComboBox *m_view;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QDoubleSpinBox *m_scale;
    QLineEdit *m_path;
};

} // namespace bufferscope
