#include "windows/ExportDialog.h"

#include "charts/ChartView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace bufferscope {

namespace {
const char *const kFormatKey = "export/format";
const char *const kFooterKey = "export/footer";
} // namespace

ExportDialog::ExportDialog(const QList<ChartView *> &views, ChartView *current,
                           const QString &suggestedDir, QWidget *parent)
    : QDialog(parent), m_views(views), m_dir(suggestedDir), m_view(new QComboBox(this)),
      m_format(new QComboBox(this)), m_width(new QSpinBox(this)), m_height(new QSpinBox(this)),
      m_scale(new QDoubleSpinBox(this)), m_title(new QLineEdit(this)),
      m_footer(new QCheckBox(tr("File name and BufferScope version under the chart"), this)),
      m_path(new QLineEdit(this)), m_problem(new QLabel(this))
{
    setWindowTitle(tr("Export Chart"));
    setMinimumWidth(520); // room for a title and a path
    for (ChartView *v : views)
        m_view->addItem(v->windowTitle().isEmpty() ? v->viewName() : v->windowTitle());
    m_view->setCurrentIndex(std::max<qsizetype>(0, views.indexOf(current)));
    m_format->addItem(tr("PNG image"), static_cast<int>(ExportFormat::Png));
    m_format->addItem(tr("SVG vector image"), static_cast<int>(ExportFormat::Svg));
    m_format->addItem(tr("PDF document"), static_cast<int>(ExportFormat::Pdf));
    m_format->addItem(tr("CSV: the data behind the chart"), static_cast<int>(ExportFormat::Csv));
    const QSettings settings;
    m_format->setCurrentIndex(
        std::clamp(settings.value(QLatin1String(kFormatKey), 0).toInt(), 0, m_format->count() - 1));
    m_footer->setChecked(settings.value(QLatin1String(kFooterKey), false).toBool());
    m_width->setRange(ExportOptions::kMinSide, 8000);
    m_width->setValue(1200);
    m_width->setSuffix(tr(" px"));
    m_height->setRange(ExportOptions::kMinSide, 8000);
    m_height->setValue(600);
    m_height->setSuffix(tr(" px"));
    m_scale->setRange(0.5, 4);
    m_scale->setSingleStep(0.5);
    m_scale->setValue(2);
    m_scale->setSuffix(QStringLiteral("×"));
    m_scale->setToolTip(tr("Device pixels per pixel of a PNG (vector output needs none)"));
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setToolTip(tr("Written above the chart; empty: no title"));
    m_path->setObjectName(QStringLiteral("path"));
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);
    QPalette warn = m_problem->palette();
    warn.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_problem->setPalette(warn);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    auto *form = new QFormLayout(this);
    form->addRow(tr("&View:"), m_view);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Scale:"), m_scale);
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("Foo&ter:"), m_footer);
    // A row holding a layout gets no buddy from the form: without one the label would show its
    // '&' instead of a shortcut.
    auto *fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(m_path);
    form->addRow(fileLabel, pathRow);
    form->addRow(m_problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_view, &QComboBox::currentIndexChanged, this, &ExportDialog::viewChosen);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChosen);
    connect(m_path, &QLineEdit::textEdited, this, &ExportDialog::pathEdited);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), m_path->text(),
                                                          ChartExport::fileFilters(format()));
        if (path.isEmpty())
            return;
        m_path->setText(path);
        m_confirmedPath = path;
        pathEdited();
    });
    confirmReplace = [this](const QString &path) {
        return QMessageBox::question(
                   this, tr("Replace File?"),
                   tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path)),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    viewChosen();
    formatChosen();
}

void ExportDialog::viewChosen()
{
    ChartView *v = view();
    if (!v)
        return;
    // The title follows the view until the user writes one of their own.
    if (m_title->text() == m_defaultTitle) {
        m_title->setText(v->title());
        m_title->setCursorPosition(0); // the start of a long title, not its end
    }
    m_defaultTitle = v->title();
    suggestPath();
}

void ExportDialog::enableFor(ExportFormat f)
{
    const bool image = f != ExportFormat::Csv;
    m_width->setEnabled(image);
    m_height->setEnabled(image);
    m_scale->setEnabled(f == ExportFormat::Png);
    m_title->setEnabled(image);
    m_footer->setEnabled(image);
}

void ExportDialog::formatChosen()
{
    const ExportFormat f = format();
    enableFor(f);
    // The path's extension follows the format.
    const QString path = m_path->text();
    if (!path.isEmpty()) {
        const QFileInfo info(path);
        const QString wanted = ChartExport::extension(f);
        if (info.suffix().toLower() != wanted) {
            const QString base =
                info.suffix().isEmpty() ? path : path.left(path.size() - info.suffix().size() - 1);
            m_path->setText(base + QLatin1Char('.') + wanted);
        }
    }
    m_problem->setVisible(false);
}

void ExportDialog::pathEdited()
{
    // A known extension typed into the path chooses the format.
    if (const std::optional<ExportFormat> f = ChartExport::formatOf(m_path->text())) {
        const QSignalBlocker blocker(m_format);
        m_format->setCurrentIndex(m_format->findData(static_cast<int>(*f)));
        enableFor(*f);
    }
    m_problem->setVisible(false);
}

void ExportDialog::accept()
{
    const QString file = path();
    if (file.isEmpty()) {
        m_path->setFocus();
        return;
    }
    if (!ChartExport::formatOf(file)) {
        m_problem->setText(tr("“%1” is not a file type the export writes: end the name in %2.")
                               .arg(QFileInfo(file).fileName(), ChartExport::formatsText()));
        m_problem->setVisible(true);
        m_path->setFocus();
        return;
    }
    if (QFileInfo::exists(file) && file != m_confirmedPath && confirmReplace &&
        !confirmReplace(file))
        return;
    QSettings settings;
    settings.setValue(QLatin1String(kFormatKey), m_format->currentIndex());
    settings.setValue(QLatin1String(kFooterKey), m_footer->isChecked());
    QDialog::accept();
}

void ExportDialog::suggestPath()
{
    ChartView *v = view();
    if (!v)
        return;
    m_path->setText(
        QDir(m_dir).filePath(v->viewName() + QLatin1Char('.') + ChartExport::extension(format())));
}

ChartView *ExportDialog::view() const
{
    const int i = m_view->currentIndex();
    return i >= 0 && i < m_views.size() ? m_views[i] : nullptr;
}

ExportFormat ExportDialog::format() const
{
    return static_cast<ExportFormat>(m_format->currentData().toInt());
}

ExportOptions ExportDialog::options() const
{
    ExportOptions o;
    o.width = m_width->value();
    o.height = m_height->value();
    o.scale = m_scale->value();
    o.title = m_title->text().isNull() ? QStringLiteral("") : m_title->text();
    if (m_footer->isChecked() && view())
        o.footer = view()->footerText();
    return o;
}

QString ExportDialog::path() const
{
    return m_path->text();
}

} // namespace bufferscope
