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
/// Every shortcut of `window`'s actions (menus, docks, tables: as they are bound, so the list
/// cannot drift from them), then the keys and the wheel inside a chart.
QString keyboardShortcutsHtml(const QWidget *window);
QString aboutHtml();

} // namespace bufferscope
