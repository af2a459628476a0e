#include "HelpDialogs.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <spdlog/version.h>

namespace bufferscope {

namespace {

void showHtml(QWidget *parent, const QString &title, const QString &html, QSize size)
{
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *text = new QTextBrowser(dialog);
    text->setOpenExternalLinks(true);
    text->setHtml(html);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(size);
    dialog->open();
}

} // namespace

QString gettingADumpHtml()
{
    return QObject::tr(R"(
<h3>Getting a dump of your own program</h3>
<p>XLA writes what it decided about memory when it is told to dump. Set
<code>XLA_FLAGS</code> before the program starts, run it until it has compiled the step you
care about (an out-of-memory error is fine), then open the folder here.</p>
<p><b>JAX</b></p>
<pre>XLA_FLAGS=--xla_dump_to=/tmp/xla_dump python train.py</pre>
<p><b>PyTorch/XLA</b> (TPU or GPU)</p>
<pre>XLA_FLAGS=--xla_dump_to=/tmp/xla_dump PJRT_DEVICE=TPU python train.py</pre>
<p><b>TensorFlow</b> (XLA-compiled functions, <code>jit_compile=True</code>)</p>
<pre>XLA_FLAGS=--xla_dump_to=/tmp/xla_dump python train.py</pre>
<p>The folder gets several files per compiled module. BufferScope reads
<code>module_NNNN.NAME.&lt;platform&gt;_after_optimizations-buffer-assignment.txt</code>. Since
2026 XLA may split it into <code>…-buffer-assignment.txt</code>,
<code>…-buffer-assignment-values.txt</code> and <code>…-live-range.txt</code>; open any one and
BufferScope reads all three.</p>
<p><b>Open it:</b> drop the folder on this window, or use <i>File → Open Folder…</i>. The
Modules list shows every module, largest first; your training step is usually the largest.
On the command line, <code>bufferscope report FILE</code> prints the same facts.</p>
<p>Dumping many modules can take disk space; <code>--xla_dump_hlo_module_re=train_step</code>
limits the dump to the modules whose name matches.</p>
)");
}

QString keyboardShortcutsHtml()
{
    const QString rows = QObject::tr(R"(
<tr><td><b>Ctrl+O</b></td><td>Open a dump</td></tr>
<tr><td><b>F5</b></td><td>Reload the dump from disk</td></tr>
<tr><td><b>Ctrl+E</b></td><td>Export a chart as PNG</td></tr>
<tr><td><b>Ctrl+F</b></td><td>Find a value (the filter of the Values table)</td></tr>
<tr><td><b>Ctrl+P</b></td><td>Go to the peak</td></tr>
<tr><td><b>Alt+← / Alt+→</b></td><td>Previous / next step, anywhere in the window</td></tr>
<tr><td><b>Alt+↑ / Alt+↓</b></td><td>Select the largest producer (a value the selected value's instruction reads) / consumer (a value made by one of its readers)</td></tr>
<tr><td><b>← / →</b></td><td>Previous / next step in a chart; with Shift, ten steps</td></tr>
<tr><td><b>Home / End</b></td><td>First / last step in a chart</td></tr>
<tr><td><b>Ctrl+0</b></td><td>Zoom every chart to fit</td></tr>
<tr><td><b>Mouse wheel</b></td><td>Zoom the steps of the Live Ranges and the Memory Map;
with Ctrl, zoom the rows or offsets</td></tr>
<tr><td><b>Drag</b></td><td>Pan a zoomed chart</td></tr>
<tr><td><b>Esc</b></td><td>Clear the selected value</td></tr>
<tr><td><b>Ctrl+Q</b></td><td>Quit</td></tr>
)");
    return QStringLiteral("<h3>%1</h3><table cellspacing=\"6\">%2</table>")
        .arg(QObject::tr("Keyboard shortcuts"), rows);
}

QString aboutHtml()
{
    return QObject::tr(
               "<h3>BufferScope %1</h3>"
               "<p>See what fills accelerator memory in XLA buffer-assignment dumps.</p>"
               "<p>BufferScope is free software under the GNU General Public License, version 3 "
               "or later.</p>"
               "<p>It is built on:</p><ul>"
               "<li>Qt %2 (LGPL-3.0) — <a href=\"https://www.qt.io\">qt.io</a></li>"
               "<li>QCustomPlot %3 (GPL-3.0) — <a "
               "href=\"https://www.qcustomplot.com\">qcustomplot.com</a></li>"
               "<li>spdlog %4 (MIT) — <a "
               "href=\"https://github.com/gabime/spdlog\">github.com/gabime/spdlog</a></li>"
               "</ul><p><a href=\"%5\">%5</a></p>")
        .arg(QStringLiteral(BUFFERSCOPE_VERSION), QString::fromLatin1(qVersion()),
             QStringLiteral(QCUSTOMPLOT_VERSION_STR),
             QStringLiteral("%1.%2.%3")
                 .arg(SPDLOG_VER_MAJOR)
                 .arg(SPDLOG_VER_MINOR)
                 .arg(SPDLOG_VER_PATCH),
             QStringLiteral("https://github.com/bufferscope/bufferscope"));
}

void showGettingADump(QWidget *parent)
{
    showHtml(parent, QObject::tr("Getting a Dump"), gettingADumpHtml(), QSize(720, 620));
}

void showKeyboardShortcuts(QWidget *parent)
{
    showHtml(parent, QObject::tr("Keyboard Shortcuts"), keyboardShortcutsHtml(), QSize(560, 520));
}

void showAbout(QWidget *parent)
{
    QMessageBox::about(parent, QObject::tr("About BufferScope"), aboutHtml());
}

} // namespace bufferscope
