#pragma once

#include "DumpFiles.h"
#include "windows/OomView.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bufferscope {

class WindowServices;
class Workspace;

/// The out-of-memory flow: a message (a log's text) in a window of its own; its modules
/// weighed against it on a job, each request answered to its own window; the module it is
/// about opened in the main window with what the message lists selected and the device's
/// limit as the budget.
class OomFlow : public QObject
{
    Q_OBJECT
public:
    OomFlow(WindowServices *window, Workspace *workspace);

    /// Opens the message in `text` (`name`: the log's path, or "(pasted)"); the modules in
    /// `dumps` are weighed against it, else the module on screen. False, with the error
    /// shown, when the text holds no message.
    bool open(const QString &name, const std::string &text, const DumpFiles &dumps = {});
    /// The same for messages already read (Opened::Log, read on a job).
    bool open(OomFindings findings, const DumpFiles &dumps = {});
    /// The message window opened last, while it is open.
    OomView *last() const { return m_last; }
    /// The main window shows a dump: the module a message is about is selected in it.
    void dumpShown();

Q_SIGNALS:
    void opened(QWidget *view);

private:
    /// Where the modules weighed came from: a folder or files the user gave (dropped with the
    /// log, or Find Its Module), or what the window has open (its run, or the module on
    /// screen), which stays as it is when no module is the message's.
    enum class Source
    {
        Chosen,
        Shown
    };
    void weigh(OomView *view, const DumpFiles &dumps, Source source);
    void openModule(OomView *view, int message);
    void selectTarget();

    WindowServices *m_window;
    Workspace *m_workspace;
    QPointer<OomView> m_last;
    /// What to select once the module an out-of-memory message is about arrives.
    struct Target
    {
        QString path;
        std::vector<std::int64_t> valueIds; ///< the values the message lists, as XLA ids
        std::int64_t allocation = -1;       ///< the allocation that failed
        qint64 limit = -1;                  ///< the device's limit the message states
    };
    std::optional<Target> m_target;
};

} // namespace bufferscope
