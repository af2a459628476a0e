#pragma once

#include <QString>

class QWidget;

namespace bufferscope {

/// Help → Getting a Dump: how JAX, PyTorch/XLA and TensorFlow users get the files to open.
void showGettingADump(QWidget *parent);
/// Help → Keyboard Shortcuts.
void showKeyboardShortcuts(QWidget *parent);
/// Help → About: version, license, and the versions and licenses of Qt, QCustomPlot, spdlog.
void showAbout(QWidget *parent);
/// The HTML of the dialogs above (tests read it).
QString gettingADumpHtml();
QString keyboardShortcutsHtml();
QString aboutHtml();

} // namespace bufferscope
