#include "Preferences.h"

#include "models/QtText.h"
#include "util/Parallel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <thread>

namespace bufferscope {

namespace {

const char *const kPatternsKey = "source/libraryPatterns";
const char *const kMappingFromKey = "source/pathMappingFrom";
const char *const kMappingToKey = "source/pathMappingTo";
const char *const kEditorKey = "source/editorCommand";
const char *const kThreadsKey = "performance/threads";

} // namespace

Preferences Preferences::load()
{
    const QSettings settings;
    Preferences p;
    if (settings.contains(QLatin1String(kPatternsKey))) {
        p.libraryPatterns.clear();
        for (const QString &s : settings.value(QLatin1String(kPatternsKey)).toStringList())
            if (!s.trimmed().isEmpty())
                p.libraryPatterns.push_back(s.trimmed().toStdString());
    }
    const QStringList from = settings.value(QLatin1String(kMappingFromKey)).toStringList();
    const QStringList to = settings.value(QLatin1String(kMappingToKey)).toStringList();
    for (qsizetype i = 0; i < from.size() && i < to.size(); ++i)
        p.pathMappings.push_back({from[i].toStdString(), to[i].toStdString()});
    p.editorCommand = settings.value(QLatin1String(kEditorKey)).toString();
    p.threads = std::clamp(settings.value(QLatin1String(kThreadsKey), 0).toInt(), 0, maxThreads());
    return p;
}

void Preferences::save() const
{
    QSettings settings;
    QStringList patterns;
    for (const std::string &s : libraryPatterns)
        patterns << toQString(s);
    settings.setValue(QLatin1String(kPatternsKey), patterns);
    QStringList from, to;
    for (const PathMapping &m : pathMappings) {
        from << toQString(m.from);
        to << toQString(m.to);
    }
    settings.setValue(QLatin1String(kMappingFromKey), from);
    settings.setValue(QLatin1String(kMappingToKey), to);
    settings.setValue(QLatin1String(kEditorKey), editorCommand);
    settings.setValue(QLatin1String(kThreadsKey), threads);
}

PreferencesDialog::PreferencesDialog(const Preferences &preferences, QWidget *parent)
    : QDialog(parent), m_patterns(new QPlainTextEdit(this)),
      m_mappings(new QTableWidget(0, 2, this)), m_editor(new QLineEdit(this)),
      m_threads(new QSpinBox(this))
{
    setWindowTitle(tr("Preferences"));

    auto *libraryBox = new QGroupBox(tr("Library code"), this);
    auto *libraryHelp = new QLabel(
        tr("A call-stack frame whose file contains one of these (one per line) is library code: "
           "\"by source\" and the report show the innermost frame that is not, so your own "
           "line shows. Library frames are grey in the inspector and the flame graph."),
        this);
    libraryHelp->setWordWrap(true);
    QStringList patterns;
    for (const std::string &s : preferences.libraryPatterns)
        patterns << toQString(s);
    m_patterns->setPlainText(patterns.join(QLatin1Char('\n')));
    m_patterns->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto *defaults = new QPushButton(tr("Restore &Defaults"), this);
    connect(defaults, &QPushButton::clicked, this, [this] {
        QStringList d;
        for (const std::string &s : defaultLibraryPatterns())
            d << toQString(s);
        m_patterns->setPlainText(d.join(QLatin1Char('\n')));
    });
    auto *libraryLayout = new QVBoxLayout(libraryBox);
    libraryLayout->addWidget(libraryHelp);
    libraryLayout->addWidget(m_patterns);
    libraryLayout->addWidget(defaults, 0, Qt::AlignLeft);

    auto *mappingBox = new QGroupBox(tr("Path mappings"), this);
    auto *mappingHelp = new QLabel(
        tr("Dumps name files on the machine that compiled them. Where the same code is on this "
           "machine under another folder, map the prefix (\"~/\" is your home folder)."),
        this);
    mappingHelp->setWordWrap(true);
    m_mappings->setHorizontalHeaderLabels({tr("In the dump"), tr("On this machine")});
    m_mappings->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_mappings->verticalHeader()->hide();
    for (const PathMapping &m : preferences.pathMappings)
        addMapping(toQString(m.from), toQString(m.to));
    auto *add = new QPushButton(tr("&Add"), this);
    auto *remove = new QPushButton(tr("&Remove"), this);
    connect(add, &QPushButton::clicked, this, [this] { addMapping(); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_mappings->currentRow() >= 0)
            m_mappings->removeRow(m_mappings->currentRow());
    });
    auto *mappingButtons = new QHBoxLayout;
    mappingButtons->addWidget(add);
    mappingButtons->addWidget(remove);
    mappingButtons->addStretch(1);
    auto *mappingLayout = new QVBoxLayout(mappingBox);
    mappingLayout->addWidget(mappingHelp);
    mappingLayout->addWidget(m_mappings);
    mappingLayout->addLayout(mappingButtons);

    auto *editorBox = new QGroupBox(tr("Editor"), this);
    m_editor->setText(preferences.editorCommand);
    m_editor->setPlaceholderText(tr("the desktop's handler for the file"));
    auto *editorHelp = new QLabel(
        tr("The command Open in Editor runs: {file}, {line} and {column} are replaced; without "
           "{file} the file comes last. For example <code>code --goto "
           "{file}:{line}:{column}</code>, "
           "<code>emacsclient -n +{line} {file}</code>, <code>kate --line {line} {file}</code>."),
        this);
    editorHelp->setWordWrap(true);
    auto *editorLayout = new QFormLayout(editorBox);
    editorLayout->addRow(tr("&Command:"), m_editor);
    editorLayout->addRow(editorHelp);

    auto *speedBox = new QGroupBox(tr("Speed"), this);
    const int cores = maxThreads();
    m_threads->setObjectName(QStringLiteral("threads"));
    m_threads->setRange(0, cores); // more threads than cores only cost time and memory
    m_threads->setSpecialValueText(tr("every core (%1)").arg(cores));
    m_threads->setValue(preferences.threads);
    auto *speedHelp = new QLabel(tr("A big dump is read on this many cores at once; 1 reads it "
                                    "on one. <code>--threads N</code> on the command line "
                                    "decides for that run."),
                                 this);
    speedHelp->setWordWrap(true);
    auto *speedLayout = new QFormLayout(speedBox);
    speedLayout->addRow(tr("&Threads:"), m_threads);
    speedLayout->addRow(speedHelp);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(libraryBox, 1);
    layout->addWidget(mappingBox, 1);
    layout->addWidget(editorBox);
    layout->addWidget(speedBox);
    layout->addWidget(buttons);
    resize(620, 700);
}

void PreferencesDialog::addMapping(const QString &from, const QString &to)
{
    const int row = m_mappings->rowCount();
    m_mappings->insertRow(row);
    m_mappings->setItem(row, 0, new QTableWidgetItem(from));
    m_mappings->setItem(row, 1, new QTableWidgetItem(to));
    m_mappings->setCurrentCell(row, from.isEmpty() ? 0 : 1);
}

Preferences PreferencesDialog::preferences() const
{
    Preferences p;
    p.libraryPatterns.clear();
    for (const QString &line : m_patterns->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            p.libraryPatterns.push_back(line.trimmed().toStdString());
    for (int row = 0; row < m_mappings->rowCount(); ++row) {
        const QTableWidgetItem *from = m_mappings->item(row, 0);
        const QTableWidgetItem *to = m_mappings->item(row, 1);
        if (from && to && !from->text().trimmed().isEmpty() && !to->text().trimmed().isEmpty())
            p.pathMappings.push_back(
                {from->text().trimmed().toStdString(), to->text().trimmed().toStdString()});
    }
    p.editorCommand = m_editor->text().trimmed();
    p.threads = m_threads->value();
    return p;
}

} // namespace bufferscope
