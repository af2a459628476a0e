#include "panels/SourceView.h"

#include "models/QtText.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBlock>
#include <QUrl>
#include <QVBoxLayout>

namespace bufferscope {

SourceView::SourceView(QWidget *parent)
    : QWidget(parent), m_heading(new QLabel(this)), m_status(new QLabel(this)),
      m_text(new QPlainTextEdit(this)), m_open(new QPushButton(tr("Open in &Editor"), this)),
      m_mapping(new QPushButton(tr("Path &Mappings…"), this))
{
    m_heading->setTextFormat(Qt::RichText);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heading->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Click a frame of a call stack — in the Value Inspector or in "
                                  "What Fills Memory — to see its source here."));
    m_mapping->setToolTip(tr("The dump names files on the machine that compiled it: map its "
                             "paths to where the code is here"));
    // The heading on a row of its own, the whole width of the dock: beside the buttons a narrow
    // dock left it a few pixels, or none.
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_mapping);
    buttons->addWidget(m_open);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_heading);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_text, 1);
    connect(m_open, &QPushButton::clicked, this, [this] {
        QString error;
        if (!openInEditor(&error))
            m_status->setText(error);
    });
    connect(m_mapping, &QPushButton::clicked, this, &SourceView::preferencesRequested);
    refresh();
}

void SourceView::setPathMappings(std::vector<PathMapping> mappings)
{
    m_mappings = std::move(mappings);
    refresh();
}

void SourceView::setEditorCommand(const QString &command)
{
    m_editorCommand = command.trimmed();
    updateOpenToolTip();
}

void SourceView::setDumpFolder(const QString &folder)
{
    if (folder == m_dumpFolder)
        return;
    m_dumpFolder = folder;
    refresh();
}

void SourceView::updateOpenToolTip()
{
    if (m_localPath.isEmpty()) {
        m_open->setToolTip(tr("Opens the file at this line with the editor command of Edit ▸ "
                              "Preferences (the desktop's handler when there is none)"));
        return;
    }
    const QStringList args = editorArguments();
    QString runs;
    for (const QString &a : args) {
        if (!runs.isEmpty())
            runs += QLatin1Char(' ');
        // Shown as a shell would need it, so what runs is unambiguous.
        const bool plain =
            !a.isEmpty() &&
            !a.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_@%+=:,./{}-]")));
        runs += plain ? a
                      : QLatin1Char('\'') +
                            QString(a).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
                            QLatin1Char('\'');
    }
    m_open->setToolTip(
        args.isEmpty()
            ? QStringLiteral("<qt>%1<br><code>%2</code></qt>")
                  .arg(tr("Opens with the desktop's handler:"), richEscaped(m_localPath))
            : QStringLiteral("<qt>%1<br><code>%2</code></qt>").arg(tr("Runs:"), richEscaped(runs)));
}

void SourceView::showPlace(const SourcePlace &place)
{
    if (place == m_place && !m_localPath.isEmpty())
        return;
    m_place = place;
    refresh();
}

namespace {
/// `path` in `room` pixels: the folders give way in their middle, the file name stays whole.
QString elidedPath(const QFontMetrics &metrics, const QString &path, int room)
{
    if (metrics.horizontalAdvance(path) <= room)
        return path;
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    const QString name = slash < 0 ? path : path.mid(slash + 1);
    const QString folder = slash < 0 ? QString() : path.left(slash + 1);
    const int left = room - metrics.horizontalAdvance(name);
    if (folder.isEmpty() || left < metrics.horizontalAdvance(QStringLiteral("…/")))
        return QStringLiteral("…/") + name;
    return metrics.elidedText(folder, Qt::ElideMiddle, left) + name;
}
} // namespace

void SourceView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_place.isValid())
        updateHeading();
}

QString SourceView::headingText() const
{
    return m_heading->text();
}

void SourceView::updateHeading()
{
    // The line number is what the user came for: the path gives way, in its middle, so the
    // file name and ":line:column" stay.
    QString position = QStringLiteral(":%1").arg(m_place.line);
    if (m_place.column > 0)
        position += QStringLiteral(":%1").arg(m_place.column);
    const QString function = toQString(m_place.function);
    QFont bold = m_heading->font();
    bold.setBold(true);
    const QFontMetrics plain(m_heading->font());
    int room =
        std::max(m_heading->contentsRect().width(), 60) - 4 - plain.horizontalAdvance(position);
    if (!function.isEmpty()) {
        // The function takes at most half; the rest is the path's.
        const QString shownFunction =
            QFontMetrics(bold).elidedText(function, Qt::ElideRight, room / 2);
        room -= QFontMetrics(bold).horizontalAdvance(shownFunction) +
                plain.horizontalAdvance(QStringLiteral(" · "));
        const QString file = elidedPath(plain, toQString(m_place.file), room);
        // In the label's own font: the room was measured in it (a <code> path came out wider
        // and lost the end of its line number: "isdf_fitting.py:52" for line 527).
        m_heading->setText(QStringLiteral("<b>%1</b> · %2%3")
                               .arg(richEscaped(shownFunction), richEscaped(file), position));
        return;
    }
    const QString file = elidedPath(plain, toQString(m_place.file), room);
    m_heading->setText(richEscaped(file) + position);
}

void SourceView::refresh()
{
    m_localPath.clear();
    m_markedBlock = -1;
    m_text->clear();
    m_text->setExtraSelections({});
    if (!m_place.isValid()) {
        m_heading->setText(tr("<i>No frame chosen</i>"));
        m_status->hide();
        m_open->setEnabled(false);
        m_mapping->hide();
        return;
    }
    updateHeading();
    m_heading->setToolTip(plainToolTip(toQString(m_place.file)));
    for (const std::string &candidate :
         localCandidates(m_place.file, m_mappings, QDir::homePath().toStdString(),
                         m_dumpFolder.toStdString())) {
        const QString path = toQString(candidate);
        if (QFileInfo(path).isFile()) {
            m_localPath = path;
            break;
        }
    }
    m_open->setEnabled(!m_localPath.isEmpty());
    m_mapping->setVisible(m_localPath.isEmpty());
    updateOpenToolTip();
    if (m_localPath.isEmpty()) {
        m_status->setText(tr("%1 is not on this machine. If the code is here under another "
                             "folder, add a path mapping.")
                              .arg(toQString(m_place.file)));
        m_status->show();
        return;
    }
    const SourceExcerpt excerpt = readExcerpt(m_localPath.toStdString(), m_place.line, kContext);
    if (!excerpt.error.empty()) {
        m_status->setText(toQString(excerpt.error));
        m_status->show();
        return;
    }
    if (m_localPath != toQString(m_place.file)) {
        m_status->setText(tr("Read from %1").arg(m_localPath));
        m_status->show();
    } else {
        m_status->hide();
    }
    const int lastNumber = excerpt.firstLine + static_cast<int>(excerpt.lines.size()) - 1;
    const int digits = static_cast<int>(QString::number(lastNumber).size());
    QStringList lines;
    for (std::size_t i = 0; i < excerpt.lines.size(); ++i) {
        const int number = excerpt.firstLine + static_cast<int>(i);
        lines << QStringLiteral("%1 %2 %3")
                     .arg(number, digits)
                     .arg(number == m_place.line ? QStringLiteral("▶") : QStringLiteral(" "))
                     .arg(QString::fromUtf8(excerpt.lines[i]));
    }
    m_text->setPlainText(lines.join(QLatin1Char('\n')));
    m_markedBlock = m_place.line - excerpt.firstLine;
    const QTextBlock block = m_text->document()->findBlockByNumber(m_markedBlock);
    QTextEdit::ExtraSelection mark;
    mark.format.setBackground(palette().color(QPalette::Highlight).lighter(170));
    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
    mark.cursor = QTextCursor(block);
    m_text->setExtraSelections({mark});
    m_text->setTextCursor(QTextCursor(block));
    m_text->centerCursor();
}

QStringList SourceView::editorArguments() const
{
    // The path is absolute (localCandidates), so no argument made from it starts with '-' or
    // '+' and reads as an option; the place's numbers are numbers.
    if (m_editorCommand.isEmpty() || !m_localPath.startsWith(QLatin1Char('/')))
        return {};
    const QString line = QString::number(std::max(1, m_place.line));
    const QString column = QString::number(std::max(1, m_place.column));
    QStringList args = QProcess::splitCommand(m_editorCommand);
    bool namesFile = false;
    for (QString &a : args) {
        // One pass over the command's own text: what is filled in is never searched again,
        // so a path holding "{line}" stays as it is.
        QString out;
        for (qsizetype i = 0; i < a.size();) {
            const QStringView rest = QStringView(a).mid(i);
            if (rest.startsWith(QLatin1String("{file}"))) {
                out += m_localPath;
                namesFile = true;
                i += 6;
            } else if (rest.startsWith(QLatin1String("{line}"))) {
                out += line;
                i += 6;
            } else if (rest.startsWith(QLatin1String("{column}"))) {
                out += column;
                i += 8;
            } else {
                out += a.at(i++);
            }
        }
        a = out;
    }
    if (!namesFile)
        args << m_localPath;
    return args;
}

bool SourceView::openInEditor(QString *error)
{
    if (m_localPath.isEmpty()) {
        if (error)
            *error = tr("No file to open.");
        return false;
    }
    const QStringList args = editorArguments();
    if (args.isEmpty()) {
        if (QDesktopServices::openUrl(QUrl::fromLocalFile(m_localPath)))
            return true;
        if (error)
            *error = tr("The desktop has no application for %1: set an editor command in "
                        "Edit ▸ Preferences.")
                         .arg(m_localPath);
        return false;
    }
    if (QProcess::startDetached(args.front(), args.mid(1)))
        return true;
    if (error)
        *error = tr("Could not start the editor: %1").arg(args.join(QLatin1Char(' ')));
    return false;
}

} // namespace bufferscope
