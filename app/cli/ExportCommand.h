#pragma once

#include "Args.h"

namespace bufferscope {

/// `bufferscope export FILE --view usage|gantt|memory-map|breakdown --out OUT.png|.svg|.pdf|.csv
/// [--width W] [--height H] [--scale S] [--title TEXT] [--footer] [--select VALUE_ID|NAME]
/// [--step T] [--budget SIZE]`: renders a view headless, through the same widgets the GUI shows,
/// in the format of OUT's extension (CSV: the data behind the view). Needs a QApplication
/// (offscreen is fine).
class ExportCommand
{
public:
    /// `threads` as util/Parallel.h threadsFor takes them (0: every core).
    static int run(const Args &args, int threads);
};

} // namespace bufferscope
