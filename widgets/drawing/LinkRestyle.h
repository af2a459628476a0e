#pragma once

#include <QObject>

#include <functional>

namespace bufferscope {

/// Rich text's links take the palette's link colour when the text is read, so a colour scheme
/// switch leaves them in the old colour. This calls `reread` when `target` itself gets its new
/// palette (not when its parent does, before the child has it), so the text read again takes
/// the new colour in the same turn as the switch. Owned by `target`.
class LinkRestyle : public QObject
{
public:
    static void watch(QWidget *target, std::function<void()> reread);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    LinkRestyle(QWidget *target, std::function<void()> reread);
    std::function<void()> m_reread;
};

} // namespace bufferscope
