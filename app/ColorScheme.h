#pragma once

#include <QString>

namespace bufferscope {

/// View → Color Scheme: follow the desktop's light or dark palette live (the default), or
/// force light or dark (Fusion style with a matching palette). Charts take their text, axis and
/// grid colours from the palette and keep the one colour-blind-safe category palette.
enum class ColorScheme
{
    System,
    Light,
    Dark
};

/// Applies `scheme` to the whole application; call after QApplication exists. The desktop's
/// own style and palette are remembered on the first call so System can restore them.
void applyColorScheme(ColorScheme scheme);
ColorScheme colorSchemeFromName(const QString &name); ///< "system", "light", "dark"
QString colorSchemeName(ColorScheme scheme);

} // namespace bufferscope
