#include "ExportDialog.h"

#include "ChartView.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

namespace bufferscope {

ExportDialog::ExportDialog(const QList<ChartView *> &views, ChartView *current,
                           const QString &suggestedDir, QWidget *parent)
    : QDialog(parent), m_views(views), m_dir(suggestedDir), m_view(new QComboBox(this)),
      m_width(new QSpinBox(this)), m_height(new QSpinBox(this)), m_scale(new QDoubleSpinBox(this)),
      m_path(new QLineEdit(this))
{
    setWindowTitle(tr("Export Chart as PNG"));
    for (ChartView *v : views)
        m_view->addItem(v->windowTitle().isEmpty() ? v->viewName() : v->windowTitle());
    m_view->setCurrentIndex(std::max<qsizetype>(0, views.indexOf(current)));
    m_width->setRange(100, 8000);
    m_width->setValue(1200);
    m_width->setSuffix(tr(" px"));
    m_height->setRange(100, 8000);
    m_height->setValue(600);
    m_height->setSuffix(tr(" px"));
    m_scale->setRange(0.5, 4);
    m_scale->setSingleStep(0.5);
    m_scale->setValue(2);
    m_scale->setSuffix(QStringLiteral("×"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    auto *form = new QFormLayout(this);
    form->addRow(tr("&View:"), m_view);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Scale:"), m_scale);
    form->addRow(tr("&File:"), pathRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_view, &QComboBox::currentIndexChanged, this, &ExportDialog::suggestPath);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export PNG"), m_path->text(),
                                                          tr("PNG image (*.png)"));
        if (!path.isEmpty()) {
            m_path->setText(path);
            m_confirmedPath = path;
        }
    });
    confirmReplace = [this](const QString &path) {
        return QMessageBox::question(
                   this, tr("Replace File?"),
                   tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path)),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    suggestPath();
}

void ExportDialog::accept()
{
    const QString file = path();
    if (file.isEmpty()) {
        m_path->setFocus();
        return;
    }
    if (QFileInfo::exists(file) && file != m_confirmedPath && confirmReplace &&
        !confirmReplace(file))
        return;
    QDialog::accept();
}

void ExportDialog::suggestPath()
{
    ChartView *v = view();
    if (!v)
        return;
    m_path->setText(QDir(m_dir).filePath(v->viewName() + QStringLiteral(".png")));
}

ChartView *ExportDialog::view() const
{
    const int i = m_view->currentIndex();
    return i >= 0 && i < m_views.size() ? m_views[i] : nullptr;
}

int ExportDialog::exportWidth() const
{
    return m_width->value();
}

int ExportDialog::exportHeight() const
{
    return m_height->value();
}

double ExportDialog::scale() const
{
    return m_scale->value();
}

QString ExportDialog::path() const
{
    return m_path->text();
}

} // namespace bufferscope
