#pragma once

#include <QSize>

class QBoxLayout;
class QWidget;

namespace bufferscope {

/// What every window of its own the Tools menu opens (Run Summary, Device Fit, the run
/// comparison) has, as any dialog: a Close button under its contents, Esc and the platform's
/// Close keys closing it, and a size that fits the screen it opens on.
namespace ToolWindow {

/// A Close button at the end of `layout`; Esc and QKeySequence::Close close `window`.
void addClose(QWidget *window, QBoxLayout *layout);
/// `preferred`, but no more than 90 % of the width and 85 % of the height the screen leaves
/// free, and placed inside that area (a window taller than a 768-pixel screen ran below it).
void fitScreen(QWidget *window, QSize preferred);

} // namespace ToolWindow

} // namespace bufferscope
