#include "OomFlow.h"

#include "OomJoin.h"
#include "WindowServices.h"
#include "Workspace.h"
#include "models/QtText.h"
#include "models/Selection.h"
#include "windows/DialogFolders.h"
#include "windows/OomView.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

namespace bufferscope {

OomFlow::OomFlow(WindowServices *window, Workspace *workspace)
    : QObject(window->mainWindow()), m_window(window), m_workspace(workspace)
{}

bool OomFlow::open(const QString &name, const std::string &text, const DumpFiles &dumps)
{
    return open(oomFindingsOf(name, text), dumps);
}

bool OomFlow::open(OomFindings findings, const DumpFiles &dumps)
{
    const QString name = QString::fromStdString(findings.file);
    if (findings.log.messages.empty()) {
        m_window->showError(name, tr("No out-of-memory message in it: BufferScope reads %1.")
                                      .arg(QString::fromLatin1(OomLog::kWhatIsRead)));
        return false;
    }
    auto *view = new OomView(std::move(findings), m_window->mainWindow());
    view->setAttribute(Qt::WA_DeleteOnClose);
    m_last = view;
    connect(view, &OomView::findModuleRequested, this, [this, view, name] {
        // Beside the log when it is a file, else where dialogs open.
        const QString start = name.startsWith(QLatin1Char('('))
                                  ? DialogFolders::openFolder(m_window->shownFolder())
                                  : QFileInfo(name).absolutePath();
        const QString dir = QFileDialog::getExistingDirectory(
            view, tr("The --xla_dump_to folder of the run that ran out of memory"), start);
        if (dir.isEmpty())
            return;
        DialogFolders::rememberOpened(dir);
        view->setWeighing(tr("Listing %1…").arg(QFileInfo(dir).fileName()));
        m_workspace->open({dir}, view, [this, view](const Opened &opened) {
            weigh(view, opened.modules, Source::Chosen);
        });
    });
    connect(view, &OomView::openModuleRequested, this,
            [this, view](int message) { openModule(view, message); });
    view->show();
    Q_EMIT opened(view);
    // With dumps given, look there; else in the run the window has open (every module the
    // Modules dock lists, not only the one on screen: the message may be about another);
    // else the module on screen, which costs one load.
    if (!dumps.files.isEmpty())
        weigh(view, dumps, Source::Chosen);
    else if (!m_workspace->run().isEmpty())
        weigh(view, m_workspace->run().modules, Source::Shown);
    else if (const LoadedDump &shown = m_workspace->current(); shown.dump && !shown.isEmbedded())
        weigh(view, DumpFiles::ofFile(shown.path), Source::Shown);
    return true;
}

void OomFlow::weigh(OomView *view, const DumpFiles &dumps, Source source)
{
    view->setWeighing(tr("Weighing %n module(s) against the message…", nullptr,
                         static_cast<int>(dumps.files.size())));
    QPointer<OomView> guard(view);
    // The result goes to this window (the request's own callback, not a broadcast: two logs
    // dropped at once left the first window showing the second log).
    m_workspace->weighOomModules(
        view->findings(), dumps.files, view,
        [this, guard, dumps, source](const OomFindings &findings, const QStringList &errors) {
            if (!guard)
                return;
            guard->setFindings(findings);
            if (!errors.isEmpty())
                m_window->status()->showMessage(errors.join(QStringLiteral("; ")), 10000);
            const int m = guard->message();
            const LoadedDump &shown = m_workspace->current();
            if (m < static_cast<int>(findings.messages.size()) &&
                findings.messages[static_cast<std::size_t>(m)].chosen >= 0) {
                openModule(guard, m);
            } else if (source == Source::Chosen && findings.dumpsGiven > 0) {
                m_target.reset();
                // No module of the folder the user gave fits the message: the folder as it
                // opens alone (its modules listed, the largest shown), never the dump that was
                // on screen before, which the message is not about either.
                m_window->openListed(dumps);
                m_window->status()->showMessage(
                    tr("No module of the %n given is the out-of-memory message's: the folder "
                       "is listed, its largest module shown",
                       nullptr, static_cast<int>(findings.dumpsGiven)),
                    15000);
            } else if (source == Source::Chosen && !shown.isEmbedded() && shown.dump) {
                // A folder with no module at all: what is on screen stays, but nothing of the
                // message is drawn on it.
                m_workspace->selection()->setHighlightedGroup({}, {});
                m_workspace->setBudget(0);
                m_window->status()->showMessage(
                    tr("No buffer-assignment dump in that folder: the module on screen is not "
                       "the out-of-memory message's"),
                    15000);
            }
        });
}

void OomFlow::openModule(OomView *view, int message)
{
    const OomFindings &f = view->findings();
    if (message < 0 || message >= static_cast<int>(f.messages.size()))
        return;
    const OomFindings::PerMessage &per = f.messages[static_cast<std::size_t>(message)];
    if (per.chosen < 0 || !per.dump)
        return;
    Target target;
    target.path = toQString(per.candidates[static_cast<std::size_t>(per.chosen)].file);
    for (const OomMatch::BufferMatch &b : per.join.buffers)
        for (std::uint32_t v : b.values)
            target.valueIds.push_back(per.dump->values[v].id);
    if (per.join.failingAllocation != kNone)
        target.allocation = per.dump->allocations[per.join.failingAllocation].index;
    target.limit = f.log.messages[static_cast<std::size_t>(message)].capacity;
    m_target = target;
    const LoadedDump &shown = m_workspace->current();
    if (shown.dump && QFileInfo(shown.path) == QFileInfo(target.path))
        selectTarget();
    else
        m_window->openPaths({target.path});
}

void OomFlow::dumpShown()
{
    if (m_target && QFileInfo(m_target->path) == QFileInfo(m_workspace->current().path))
        selectTarget();
}

void OomFlow::selectTarget()
{
    if (!m_target || !m_workspace->current().dump)
        return;
    const Target target = *m_target;
    m_target.reset();
    const Dump &dump = *m_workspace->current().dump;
    Selection *selection = m_workspace->selection();
    QVector<int> group;
    QString label;
    for (std::int64_t id : target.valueIds)
        if (const std::uint32_t v = dump.findValueById(id); v != kNone)
            group << static_cast<int>(v);
    if (!group.isEmpty()) {
        label = tr("the buffers the out-of-memory message lists");
        selection->setCurrentValue(group.front());
    } else if (target.allocation >= 0 &&
               target.allocation < static_cast<std::int64_t>(dump.allocations.size())) {
        const Allocation &a = dump.allocations[static_cast<std::size_t>(target.allocation)];
        for (std::uint32_t k = 0; k < a.valueCount; ++k)
            group << static_cast<int>(dump.allocationValues[a.firstValue + k]);
        label = tr("allocation %1, the one that failed").arg(a.index);
    }
    if (!group.isEmpty())
        selection->setHighlightedGroup(group, label);
    if (target.limit > 0)
        m_workspace->setBudget(target.limit);
    const QString what = label.isEmpty() ? tr("nothing it lists is known exactly") : label;
    m_window->status()->showMessage(
        target.limit > 0 ? tr("The out-of-memory message's module: %1 selected; the device's "
                              "limit (%2) is the budget line")
                               .arg(what, humanBytesText(target.limit))
                         : tr("The out-of-memory message's module: %1 selected").arg(what),
        15000);
}

} // namespace bufferscope
