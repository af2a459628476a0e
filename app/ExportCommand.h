#pragma once

#include <QStringList>

namespace bufferscope {

/// `bufferscope export FILE --view usage|gantt|memory-map|breakdown --out OUT.png [--width W]
/// [--height H] [--scale S] [--select VALUE_ID|NAME] [--step T]`: renders a view headless,
/// through the same widgets the GUI shows. Needs a QApplication (offscreen is fine).
class ExportCommand
{
public:
    static int run(const QStringList &args);
};

} // namespace bufferscope
