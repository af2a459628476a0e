#include "windows/ToolWindow.h"

#include <QBoxLayout>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QScreen>
#include <QShortcut>
#include <QWidget>

#include <algorithm>

namespace bufferscope::ToolWindow {

void addClose(QWidget *window, QBoxLayout *layout)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, window);
    QObject::connect(buttons, &QDialogButtonBox::rejected, window, &QWidget::close);
    layout->addWidget(buttons);
    for (const QKeySequence &keys :
         {QKeySequence(QKeySequence::Cancel), QKeySequence(QKeySequence::Close)}) {
        auto *shortcut = new QShortcut(keys, window);
        shortcut->setContext(Qt::WindowShortcut);
        QObject::connect(shortcut, &QShortcut::activated, window, &QWidget::close);
    }
}

void fitScreen(QWidget *window, QSize preferred)
{
    const QScreen *screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    const QRect free = screen ? screen->availableGeometry() : QRect(0, 0, 1366, 768);
    const QSize size(std::min(preferred.width(), free.width() * 9 / 10),
                     std::min(preferred.height(), free.height() * 85 / 100));
    window->resize(size);
    // Over its parent's window when it has one, as the window manager would; inside the free
    // area either way.
    const QWidget *over = window->parentWidget() ? window->parentWidget()->window() : nullptr;
    QPoint at = over ? over->geometry().center() - QPoint(size.width() / 2, size.height() / 2)
                     : free.center() - QPoint(size.width() / 2, size.height() / 2);
    at.setX(std::clamp(at.x(), free.left(), std::max(free.left(), free.right() - size.width())));
    at.setY(std::clamp(at.y(), free.top(), std::max(free.top(), free.bottom() - size.height())));
    window->move(at);
}

} // namespace bufferscope::ToolWindow
