#pragma once

#include "model/Dump.h"

#include <QColor>
#include <QPalette>

namespace bufferscope {

/// The one colour scheme every view shares (Okabe–Ito, safe for colour-blind readers), so the
/// same kind or value has the same colour everywhere. Background-dependent colours are derived
/// from the widget palette, so a dark theme stays readable.
namespace ChartPalette {

QColor kindColor(AllocationKind kind);
/// Translucent variant for large areas (bands, fills).
QColor kindFill(AllocationKind kind);
/// The selected value, in every view. Distinct from every kind colour.
QColor highlight();
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

} // namespace ChartPalette

} // namespace bufferscope
