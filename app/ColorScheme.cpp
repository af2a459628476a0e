#include "ColorScheme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

#include <optional>

namespace bufferscope {

namespace {

struct Desktop
{
    QString style;
    QPalette palette;
};

const Desktop &desktop()
{
    static const Desktop d{QApplication::style()->name(), QApplication::palette()};
    return d;
}

QPalette darkPalette()
{
    // Fusion's dark colours, close to what KDE Breeze Dark and GNOME Adwaita-dark use.
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xc4));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xee));
    p.setColor(QPalette::LinkVisited, QColor(0xb4, 0x8e, 0xd4));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

void applyColorScheme(ColorScheme scheme)
{
    const Desktop &d = desktop();
    switch (scheme) {
    case ColorScheme::System:
        if (QApplication::style()->name() != d.style)
            QApplication::setStyle(QStyleFactory::create(d.style));
        QApplication::setPalette(d.palette);
        break;
    case ColorScheme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case ColorScheme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
}

ColorScheme colorSchemeFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return ColorScheme::Light;
    if (name == QLatin1String("dark"))
        return ColorScheme::Dark;
    return ColorScheme::System;
}

QString colorSchemeName(ColorScheme scheme)
{
    switch (scheme) {
    case ColorScheme::Light:
        return QStringLiteral("light");
    case ColorScheme::Dark:
        return QStringLiteral("dark");
    case ColorScheme::System:
        break;
    }
    return QStringLiteral("system");
}

} // namespace bufferscope
