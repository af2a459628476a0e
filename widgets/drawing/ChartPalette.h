#pragma once

#include "analysis/Categories.h"
#include "model/Dump.h"

#include <QColor>
#include <QIcon>
#include <QPalette>

#include <functional>

class QCustomPlot;

namespace bufferscope {

/// The one colour scheme every view shares (Okabe–Ito, safe for colour-blind readers), so the
/// same kind or value has the same colour everywhere. Background-dependent colours are derived
/// from the widget palette, so a dark theme stays readable.
namespace ChartPalette {

QColor kindColor(AllocationKind kind);
/// Translucent variant for large areas (bands, fills).
QColor kindFill(AllocationKind kind);
/// What kind of memory a value is (analysis/Categories), the same in every view: the
/// Categories view's rows are its key.
QColor categoryColor(Category category);
/// A small square of categoryColor, for a row or a cell naming the category.
QIcon categorySwatch(Category category);
/// The selected value, in every view. Distinct from every kind colour.
QColor highlight();
/// A picked group (a breakdown group, a finding) in every view: apart from the selection's
/// vermillion and the thread-local orange, which its old orange fill was hard to tell from.
QColor picked();
/// The values the selected value is made from (its instruction's operands), and the values
/// made from it (defined by its readers).
QColor producer();
QColor consumer();
/// Hovered value outline.
QColor hover();
QColor liveBytes();
QColor logicalBytes();
QColor peakMarker();
QColor printedPeakMarker();
/// A comparison's difference: where the second curve is above the first, and below.
QColor grew();
QColor shrank();
/// Text, axes and grid colours follow the palette of the widget that draws them.
QColor foreground(const QPalette &palette);
QColor background(const QPalette &palette);
QColor grid(const QPalette &palette);
QColor currentStep(const QPalette &palette);
/// What does not fit (a budget the module is over): a red apart from the peak's and the
/// selection's vermillion, readable on the palette's background.
QColor alert(const QPalette &palette);

/// Background, axes, grid, legend and text of `plot` in `palette`'s colours.
void style(QCustomPlot *plot, const QPalette &palette);
/// Styles `plot` now and again whenever its palette changes (switching to dark while running),
/// replotting it; `restyle` then redoes what else the owner colours (bars, labels).
void follow(QCustomPlot *plot, std::function<void()> restyle = {});

} // namespace ChartPalette

} // namespace bufferscope
