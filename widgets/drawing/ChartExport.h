#pragma once

#include <QString>

class QCPLegend;

#include <functional>
#include <optional>
#include <string>

class QByteArray;
class QCustomPlot;
class QWidget;

namespace bufferscope {

/// What an export writes, chosen by the file's extension.
enum class ExportFormat
{
    Png, ///< raster, width*scale x height*scale pixels
    Svg, ///< vector, text kept as text
    Pdf, ///< vector, one page of width x height points
    Csv  ///< the data behind the view (core/report/ViewCsv.h)
};

/// How large, and with which words around the chart.
struct ExportOptions
{
    static constexpr int kMinSide = 16;    ///< pixels (points for vector output)
    static constexpr int kMaxSide = 20000; ///< beyond this, a PNG would not fit in memory
    int width = 1200;
    int height = 600;
    double scale = 2.0; ///< PNG only: device pixels per pixel
    QString title;      ///< above the chart; empty: none
    QString footer;     ///< small, under the chart; empty: none

    /// The default words (the view's title, no footer) at another size.
    static ExportOptions sized(int width, int height, double scale = 1.0)
    {
        ExportOptions o;
        o.width = width;
        o.height = height;
        o.scale = scale;
        return o;
    }
};

/// The export path shared by every chart (ChartView and the compare window): format by
/// extension, the title and footer around the plot, labels fitted to the exported size, and an
/// atomic write (QSaveFile), so a failed export never leaves a partial file.
namespace ChartExport {

/// As many legend entries per row as `width` pixels hold, measured by the widest entry (a
/// fixed count clipped long names in a narrow dock): at least one.
int legendWrap(const QCPLegend *legend, int width);
/// The format of `path`'s extension (case-insensitive), or nullopt for any other.
std::optional<ExportFormat> formatOf(const QString &path);
/// The extensions that work, for messages: ".png, .svg, .pdf or .csv".
QString formatsText();
/// The extension of `format`, without the dot.
QString extension(ExportFormat format);
/// "PNG image (*.png)" … for file dialogs, the one of `first` first.
QString fileFilters(ExportFormat first);
/// Empty when the size can be exported, else why not.
QString checkSize(const ExportOptions &options);
/// "<file name> · BufferScope <version>": the footer the CLI's --footer and the dialog write.
QString footerFor(const QString &dumpPath);

/// Draws `plot` into `path` as PNG, SVG or PDF with the options' title and footer. `fitLabels`
/// (may be empty) is called after the plot was laid out at the export size and returns whether
/// it changed the labels (band or row names that fit only at some sizes); the layout is then
/// redone. The plot is left as it was. On failure `error` says why.
bool writeImage(QCustomPlot *plot, ExportFormat format, const QString &path,
                const ExportOptions &options, const std::function<bool()> &fitLabels,
                QString *error);
/// The whole export: by `path`'s extension, the text `csv` returns (the data behind the chart)
/// or the picture of `plot` (writeImage). Any other extension fails, naming those that work.
bool write(QCustomPlot *plot, const QString &path, const ExportOptions &options,
           const std::function<std::string()> &csv, const std::function<bool()> &fitLabels,
           QString *error);
/// Puts UTF-8 `text` (a chart's CSV) on the clipboard.
void copyText(const std::string &text);
/// Writes `data` to `path` atomically.
bool writeFile(const QString &path, const QByteArray &data, QString *error);
/// An SVG that any XML reader takes: every character XML 1.0 does not allow (controls from
/// names or a title), raw or as a character reference, replaced by U+FFFD.
QByteArray wellFormedXml(const QByteArray &svg);
/// Tells the user `path` could not be written and why, in the words every export and save use.
void warnNotWritten(QWidget *parent, const QString &title, const QString &path, const QString &why);

} // namespace ChartExport

} // namespace bufferscope
