#include "drawing/ChartExport.h"

#include "drawing/ChartPalette.h"

#include <QBuffer>
#include <QClipboard>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace bufferscope {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ChartExport", text);
}

bool failWith(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return false;
}

/// Runs QCustomPlot's three layout phases at the current viewport (what replot does first).
void layOut(QCustomPlot *plot)
{
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
}

/// The title above and the footer under the plot while it is exported; removed again after.
class Decorations
{
public:
    Decorations(QCustomPlot *plot, const ExportOptions &options) : m_plot(plot)
    {
        const QColor fg = ChartPalette::foreground(plot->palette());
        if (!options.title.isEmpty()) {
            plot->plotLayout()->insertRow(0);
            QFont font = plot->font();
            font.setPointSize(11);
            font.setBold(true);
            // A title wider than the picture is cut in its middle, never off both ends (a long
            // file name centred on a narrow export started left of the page).
            const QString title = QFontMetrics(font).elidedText(options.title, Qt::ElideMiddle,
                                                                std::max(40, options.width - 24));
            m_title = new QCPTextElement(plot, title, font);
            m_title->setTextColor(fg);
            plot->plotLayout()->addElement(0, 0, m_title);
        }
        if (!options.footer.isEmpty()) {
            const int row = plot->plotLayout()->rowCount();
            plot->plotLayout()->insertRow(row);
            QFont font = plot->font();
            font.setPointSize(7);
            m_footer = new QCPTextElement(plot, options.footer, font);
            QColor grey = fg;
            grey.setAlphaF(0.65f);
            m_footer->setTextColor(grey);
            // Left-aligned: a viewer whose font is wider than ours lets it run into the empty
            // right, not off the page.
            m_footer->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
            m_footer->setMargins(QMargins(8, 2, 8, 4));
            plot->plotLayout()->addElement(row, 0, m_footer);
            plot->plotLayout()->setRowStretchFactor(row, 0.001);
        }
        m_wrap = plot->legend->wrap();
        // As many legend entries per row as the exported width holds.
        plot->legend->setWrap(ChartExport::legendWrap(plot->legend, options.width));
    }
    ~Decorations()
    {
        m_plot->legend->setWrap(m_wrap);
        if (m_footer)
            m_plot->plotLayout()->remove(m_footer);
        if (m_title)
            m_plot->plotLayout()->remove(m_title);
        m_plot->plotLayout()->simplify();
    }
    Decorations(const Decorations &) = delete;
    Decorations &operator=(const Decorations &) = delete;

private:
    QCustomPlot *m_plot;
    QCPTextElement *m_title = nullptr;
    QCPTextElement *m_footer = nullptr;
    int m_wrap = 1;
};

/// Fonts are sized in points: at the screen's 96 dpi they keep the proportions of the window and
/// the PNG in vector output too.
constexpr int kVectorDpi = 96;

bool renderVector(QCustomPlot *plot, QPaintDevice *device, int width, int height)
{
    QCPPainter painter;
    if (!painter.begin(device))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setWindow(0, 0, width, height); // the chart's pixels onto the whole page
    plot->toPainter(&painter, width, height);
    return painter.end();
}

/// Writes `data` to the open `file` and commits it: the target is replaced only when every
/// byte reached the disk; otherwise the temporary file goes and `error` says why.
/// Whether XML 1.0 allows the character (§2.2: TAB, LF, CR, U+0020 and up but the surrogates,
/// U+FFFE and U+FFFF).
bool allowedInXml(quint32 c)
{
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

} // namespace

int ChartExport::legendWrap(const QCPLegend *legend, int width)
{
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i) // cells of the grid, some of them empty
        if (const QCPAbstractLegendItem *item = legend->item(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    if (widest == 0)
        return 4;
    const int margins = legend->margins().left() + legend->margins().right() + 8;
    return std::max(1, (width - margins + legend->columnSpacing()) /
                           (widest + legend->columnSpacing()));
}

QByteArray ChartExport::wellFormedXml(const QByteArray &svg)
{
    // QSvgGenerator escapes & < > but writes any other character as it is, so a name or a
    // title holding a control character made the whole file unreadable: each such character,
    // raw or as a character reference, becomes U+FFFD.
    static const QByteArray kReplacement = QByteArrayLiteral("\xEF\xBF\xBD");
    QByteArray out;
    out.reserve(svg.size());
    for (qsizetype i = 0; i < svg.size(); ++i) {
        const auto c = static_cast<unsigned char>(svg[i]);
        if (c < 0x20 && !allowedInXml(c)) {
            out += kReplacement;
            continue;
        }
        if (c == '&' && i + 2 < svg.size() && svg[i + 1] == '#') {
            const qsizetype end = svg.indexOf(';', i);
            if (end > i + 2 && end - i < 16) {
                const bool hex = svg[i + 2] == 'x' || svg[i + 2] == 'X';
                bool ok = false;
                const quint32 code =
                    svg.mid(i + (hex ? 3 : 2), end - i - (hex ? 3 : 2)).toUInt(&ok, hex ? 16 : 10);
                if (ok && !allowedInXml(code)) {
                    out += kReplacement;
                    i = end;
                    continue;
                }
            }
        }
        out += static_cast<char>(c);
    }
    return out;
}

namespace {

bool commitBytes(QSaveFile &file, const QByteArray &data, QString *error)
{
    errno = 0;
    if (file.write(data) != data.size() || !file.flush()) {
        // Qt reports a full disk as "Unknown error"; the system's reason says what happened.
        const int code = errno;
        QString why = file.errorString();
        if (code != 0)
            why = QString::fromLocal8Bit(std::strerror(code));
        file.cancelWriting();
        return failWith(error, why);
    }
    if (!file.commit())
        return failWith(error, file.errorString());
    return true;
}

} // namespace

std::optional<ExportFormat> ChartExport::formatOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    return std::nullopt;
}

QString ChartExport::formatsText()
{
    return QStringLiteral(".png, .svg, .pdf or .csv");
}

QString ChartExport::extension(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Png:
        return QStringLiteral("png");
    case ExportFormat::Svg:
        return QStringLiteral("svg");
    case ExportFormat::Pdf:
        return QStringLiteral("pdf");
    case ExportFormat::Csv:
        break;
    }
    return QStringLiteral("csv");
}

QString ChartExport::fileFilters(ExportFormat first)
{
    const QStringList filters{tr("PNG image (*.png)"), tr("SVG vector image (*.svg)"),
                              tr("PDF document (*.pdf)"), tr("CSV data behind the chart (*.csv)")};
    QStringList ordered{filters[static_cast<int>(first)]};
    for (const QString &f : filters) {
        if (f != ordered.front())
            ordered.append(f);
    }
    return ordered.join(QStringLiteral(";;"));
}

QString ChartExport::checkSize(const ExportOptions &o)
{
    const auto side = [](int v) {
        return v >= ExportOptions::kMinSide && v <= ExportOptions::kMaxSide;
    };
    if (!side(o.width) || !side(o.height))
        return tr("the size %1 × %2 is outside %3..%4 pixels a side")
            .arg(o.width)
            .arg(o.height)
            .arg(ExportOptions::kMinSide)
            .arg(ExportOptions::kMaxSide);
    if (!(o.scale >= 0.25 && o.scale <= 8))
        return tr("the scale %1 is outside 0.25..8").arg(o.scale);
    // A PNG is held in memory whole: 32 bits a pixel.
    const double pixels = o.width * o.scale * o.height * o.scale;
    if (pixels > 400e6)
        return tr("%1 × %2 pixels at scale %3 is more than 400 megapixels")
            .arg(o.width)
            .arg(o.height)
            .arg(o.scale);
    return {};
}

QString ChartExport::footerFor(const QString &dumpPath)
{
    const QString version = QCoreApplication::applicationVersion();
    return tr("%1 · BufferScope %2")
        .arg(QFileInfo(dumpPath).fileName(), version.isEmpty() ? tr("(dev)") : version);
}

bool ChartExport::write(QCustomPlot *plot, const QString &path, const ExportOptions &options,
                        const std::function<std::string()> &csv,
                        const std::function<bool()> &fitLabels, QString *error)
{
    const std::optional<ExportFormat> format = formatOf(path);
    if (!format)
        return failWith(error, tr("unknown file type; the export writes %1").arg(formatsText()));
    if (*format == ExportFormat::Csv) {
        const std::string text = csv();
        return writeFile(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())), error);
    }
    return writeImage(plot, *format, path, options, fitLabels, error);
}

void ChartExport::warnNotWritten(QWidget *parent, const QString &title, const QString &path,
                                 const QString &why)
{
    QMessageBox::warning(parent, title,
                         QCoreApplication::translate("ChartExport", "Could not write %1:\n%2")
                             .arg(QDir::toNativeSeparators(path), why));
}

void ChartExport::copyText(const std::string &text)
{
    QGuiApplication::clipboard()->setText(
        QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
}

bool ChartExport::writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failWith(error, file.errorString());
    return commitBytes(file, data, error);
}

bool ChartExport::writeImage(QCustomPlot *plot, ExportFormat format, const QString &path,
                             const ExportOptions &options, const std::function<bool()> &fitLabels,
                             QString *error)
{
    const QString badSize = checkSize(options);
    if (!badSize.isEmpty())
        return failWith(error, badSize);
    if (format == ExportFormat::Csv)
        return failWith(error, tr("CSV is the data behind a chart, not an image"));
    const int w = options.width;
    const int h = options.height;
    // The target is opened first, so an unwritable path fails before the drawing; the picture
    // is drawn into memory and written in one go, so a full disk is reported as such (an
    // encoder writing straight to the file would leave its error behind).
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failWith(error, file.errorString());
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    bool drawn = false;
    QString why;
    {
        Decorations decorations(plot, options);
        const QRect oldViewport = plot->viewport();
        plot->setViewport(QRect(0, 0, w, h));
        // Band and row names depend on the axis rect's height at this size, and they change the
        // margins in turn: lay out until they settle (twice is enough in practice).
        for (int pass = 0; pass < 3; ++pass) {
            layOut(plot);
            if (!fitLabels || !fitLabels())
                break;
        }
        plot->setViewport(oldViewport);
        switch (format) {
        case ExportFormat::Png: {
            const QPixmap picture = plot->toPixmap(w, h, options.scale);
            if (picture.isNull())
                why = tr("the picture could not be rendered (%1 × %2 px is too large?)")
                          .arg(qRound(w * options.scale))
                          .arg(qRound(h * options.scale));
            else if (!picture.save(&buffer, "PNG"))
                why = tr("the PNG could not be encoded");
            else
                drawn = true;
            break;
        }
        case ExportFormat::Svg: {
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setSize(QSize(w, h));
            svg.setViewBox(QRect(0, 0, w, h));
            // QSvgGenerator writes the title into <title> as it is: escaped here, or a title
            // with < or & made a file no SVG reader opens.
            svg.setTitle(options.title.toHtmlEscaped());
            svg.setDescription(tr("Exported by BufferScope").toHtmlEscaped());
            svg.setResolution(kVectorDpi);
            drawn = renderVector(plot, &svg, w, h);
            if (!drawn)
                why = tr("the SVG could not be drawn");
            buffer.close();
            bytes = wellFormedXml(bytes);
            break;
        }
        case ExportFormat::Pdf: {
            QPdfWriter pdf(&buffer);
            pdf.setCreator(QStringLiteral("BufferScope ") + QCoreApplication::applicationVersion());
            pdf.setTitle(options.title);
            pdf.setResolution(kVectorDpi);
            pdf.setPageLayout(QPageLayout(
                QPageSize(QSizeF(w, h), QPageSize::Point, QString(), QPageSize::ExactMatch),
                QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
            drawn = renderVector(plot, &pdf, w, h);
            if (!drawn)
                why = tr("the PDF could not be drawn");
            break;
        }
        case ExportFormat::Csv:
            break;
        }
    }
    // The window's own labels again, at its own size.
    layOut(plot);
    if (fitLabels)
        fitLabels();
    plot->replot(QCustomPlot::rpQueuedReplot);
    if (!drawn) {
        file.cancelWriting();
        return failWith(error, why);
    }
    return commitBytes(file, bytes, error);
}

} // namespace bufferscope
