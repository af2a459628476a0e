#include "HelpDialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMessageBox>
#include <QSet>
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
Modules list shows every module as it is read, the one the device holds most for first, and
then opens that one; your training step is usually it.
On the command line, <code>bufferscope report FILE</code> prints the same facts.</p>
<p>Dumping many modules can take disk space; <code>--xla_dump_hlo_module_re=train_step</code>
limits the dump to the modules whose name matches.</p>
)");
}

QString keyboardShortcutsHtml(const QWidget *window)
{
    // The actions themselves: what each shortcut does, as its menu names it.
    QStringList rows;
    QSet<QString> seen;
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (action->shortcut().isEmpty())
            continue;
        const QString keys = action->shortcut().toString(QKeySequence::NativeText);
        QString what = action->text();
        what.remove(QLatin1Char('&'));
        if (what.endsWith(QStringLiteral("…")))
            what.chop(1);
        if (!action->toolTip().isEmpty() && action->toolTip() != action->text() &&
            !action->toolTip().startsWith(what))
            what += QStringLiteral(" — ") + action->toolTip();
        const QString row = QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                                .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
        if (seen.contains(keys + what))
            continue;
        seen.insert(keys + what);
        rows << row;
    }
    rows.sort();
    const QString charts = QObject::tr(R"(
<tr><td><b>← / →</b></td><td>Previous / next step in a chart; with Shift, ten steps</td></tr>
<tr><td><b>Home / End</b></td><td>First / last step in a chart</td></tr>
<tr><td><b>Esc</b></td><td>Clear the selected value (in a chart or a table)</td></tr>
<tr><td><b>Wheel</b></td><td>Zoom the program order of a chart (Memory Usage, Live Ranges,
Memory Map, Compare) around the pointer</td></tr>
<tr><td><b>Ctrl+Wheel</b></td><td>In Live Ranges and the Memory Map: zoom the rows or the
offsets instead</td></tr>
<tr><td><b>Drag</b></td><td>Pan a zoomed chart</td></tr>
<tr><td><b>Enter / double-click</b></td><td>In the Modules dock: open the module</td></tr>
)");
    return QStringLiteral("<h3>%1</h3><table cellspacing=\"6\">%2</table><h3>%3</h3>"
                          "<table cellspacing=\"6\">%4</table>")
        .arg(QObject::tr("Keyboard shortcuts"), rows.join(QString()), QObject::tr("In the charts"),
             charts);
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
    showHtml(parent, QObject::tr("Keyboard Shortcuts"), keyboardShortcutsHtml(parent->window()),
             QSize(620, 560));
}

void showAbout(QWidget *parent)
{
    QMessageBox::about(parent, QObject::tr("About BufferScope"), aboutHtml());
}

} // namespace bufferscope
