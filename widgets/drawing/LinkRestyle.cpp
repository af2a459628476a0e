#include "drawing/LinkRestyle.h"

#include <QEvent>
#include <QWidget>

namespace bufferscope {

LinkRestyle::LinkRestyle(QWidget *target, std::function<void()> reread)
    : QObject(target), m_reread(std::move(reread))
{
    target->installEventFilter(this);
}

void LinkRestyle::watch(QWidget *target, std::function<void()> reread)
{
    new LinkRestyle(target, std::move(reread));
}

bool LinkRestyle::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::PaletteChange && watched == parent())
        m_reread();
    return false;
}

} // namespace bufferscope
