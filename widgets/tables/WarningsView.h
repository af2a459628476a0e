#pragma once

#include "model/Dump.h"

#include <QTreeWidget>

#include <memory>
#include <vector>

namespace bufferscope {

class Selection;
class Workspace;

/// The parser's and the analyses' warnings, each with its file and line. Activating a warning
/// about a value selects that value.
class WarningsView : public QTreeWidget
{
    Q_OBJECT
public:
    WarningsView(Workspace *workspace, QWidget *parent = nullptr);

    void setDiagnostics(std::shared_ptr<const Dump> dump, const std::vector<Diagnostic> &extra);
    /// What the view says when it lists nothing (no dump, or a dump read without a warning);
    /// empty while it lists warnings.
    QString emptyText() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    Selection *m_selection;
    std::shared_ptr<const Dump> m_dump;
};

} // namespace bufferscope
