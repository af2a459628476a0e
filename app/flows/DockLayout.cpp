#include "DockLayout.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace bufferscope {

namespace {
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kSharesKey = QStringLiteral("window/dockShares");
/// Whether the saved layout is a default arrangement the user has not changed, and which.
const QString kDefaultKey = QStringLiteral("window/defaultArrangement");
} // namespace

DockLayout::DockLayout(QMainWindow *window, const Views &views) : QObject(window), m_window(window)
{
    // Fixed object names: saveState()/restoreState() find docks by them.
    add(views.usage, tr("Memory Usage"), QStringLiteral("UsageDock"));
    add(views.gantt, tr("Live Ranges"), QStringLiteral("GanttDock"));
    add(views.map, tr("Memory Map"), QStringLiteral("MemoryMapDock"));
    add(views.values, tr("Values"), QStringLiteral("ValuesDock"));
    add(views.breakdown, tr("Breakdown"), QStringLiteral("BreakdownDock"));
    add(views.peak, tr("What Fills Memory"), QStringLiteral("WhatFillsMemoryDock"));
    add(views.categories, tr("Categories"), QStringLiteral("CategoriesDock"));
    add(views.inspector, tr("Value Inspector"), QStringLiteral("InspectorDock"));
    add(views.allocations, tr("Allocations"), QStringLiteral("AllocationsDock"));
    add(views.instructions, tr("Instructions"), QStringLiteral("InstructionsDock"));
    m_warnings = add(views.warnings, tr("Warnings"), QStringLiteral("WarningsDock"));
    m_modules = add(views.modules, tr("Modules"), QStringLiteral("ModulesDock"));
    m_source = add(views.source, tr("Source"), QStringLiteral("SourceDock"));
    arrange();
    m_window->installEventFilter(this);
    // A dock moved to another place or floated: the user's arrangement.
    for (QDockWidget *dock : docks()) {
        connect(dock, &QDockWidget::dockLocationChanged, this, &DockLayout::queueCapture);
        connect(dock, &QDockWidget::topLevelChanged, this, &DockLayout::queueCapture);
    }
}

DockLayout::Sizes DockLayout::dockSizes() const
{
    Sizes out;
    for (QDockWidget *dock : docks())
        if (dock->isVisible() && !dock->isFloating() && !dock->size().isEmpty())
            out.insert(dock->objectName(), dock->size());
    return out;
}

DockLayout::Shares DockLayout::sharesOf(const Sizes &sizes, QSize window)
{
    Shares out;
    if (window.width() <= 0 || window.height() <= 0)
        return out;
    for (auto it = sizes.begin(); it != sizes.end(); ++it)
        out.insert(it.key(), QPointF(double(it->width()) / window.width(),
                                     double(it->height()) / window.height()));
    return out;
}

bool DockLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && m_window->isVisible()) {
        if (event->type() == QEvent::Resize && (m_defaultSizes || !m_shares.isEmpty()) &&
            !m_applyPending) {
            // The new size's layout first, then the shares over it.
            m_applyPending = true;
            QMetaObject::invokeMethod(this, &DockLayout::applyShares, Qt::QueuedConnection);
        } else if (event->type() == QEvent::MouseButtonRelease) {
            // A separator dragged (they are the window's own): the user's arrangement.
            queueCapture();
        }
    }
    return QObject::eventFilter(watched, event);
}

void DockLayout::queueCapture()
{
    // A capture asked before a layout was restored or reset (restoreState moves every dock)
    // is not the user's.
    QMetaObject::invokeMethod(
        this,
        [this, generation = m_generation] {
            if (generation != m_generation)
                return;
            m_shares = sharesOf(dockSizes(), m_window->size());
            m_defaultSizes = false;
        },
        Qt::QueuedConnection);
}

void DockLayout::applyShares()
{
    m_applyPending = false;
    // The default arrangement sizes itself by its own rule at any size.
    if (m_defaultSizes) {
        sizeDefaults();
        return;
    }
    QList<QDockWidget *> shown;
    QList<int> widths, heights;
    const QSize size = m_window->size();
    for (QDockWidget *dock : docks()) {
        if (!dock->isVisible() || dock->isFloating())
            continue;
        // A tab raised since the shares were read has its group's share.
        auto share = m_shares.constFind(dock->objectName());
        for (QDockWidget *tab : m_window->tabifiedDockWidgets(dock))
            if (share == m_shares.cend())
                share = m_shares.constFind(tab->objectName());
        if (share == m_shares.cend())
            continue;
        shown << dock;
        widths << std::max(1, qRound(share->x() * size.width()));
        heights << std::max(1, qRound(share->y() * size.height()));
    }
    if (shown.isEmpty())
        return;
    m_window->resizeDocks(shown, widths, Qt::Horizontal);
    m_window->resizeDocks(shown, heights, Qt::Vertical);
}

QDockWidget *DockLayout::add(QWidget *widget, const QString &title, const QString &objectName)
{
    auto *dock = new QDockWidget(title, m_window);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    return dock;
}

QDockWidget *DockLayout::dockOf(QWidget *view) const
{
    return qobject_cast<QDockWidget *>(view->parentWidget());
}

void DockLayout::raise(QWidget *view) const
{
    if (QDockWidget *dock = dockOf(view)) {
        dock->show();
        dock->raise();
    }
}

QList<QDockWidget *> DockLayout::docks() const
{
    return m_window->findChildren<QDockWidget *>(QString(), Qt::FindDirectChildrenOnly);
}

QDockWidget *DockLayout::named(const char *objectName) const
{
    return m_window->findChild<QDockWidget *>(QLatin1String(objectName),
                                              Qt::FindDirectChildrenOnly);
}

bool DockLayout::isCompact() const
{
    return m_window->height() < 900 || m_window->width() < 1500;
}

void DockLayout::arrange()
{
    QDockWidget *usage = named("UsageDock");
    QDockWidget *gantt = named("GanttDock");
    QDockWidget *map = named("MemoryMapDock");
    QDockWidget *values = named("ValuesDock");
    QDockWidget *breakdown = named("BreakdownDock");
    QDockWidget *peak = named("WhatFillsMemoryDock");
    QDockWidget *categories = named("CategoriesDock");
    QDockWidget *inspector = named("InspectorDock");
    QDockWidget *allocations = named("AllocationsDock");
    QDockWidget *instructions = named("InstructionsDock");
    // Two defaults, each giving every chart room. On a laptop screen (1366 × 768) rows under the
    // usage chart would leave each view a few dozen pixels: the charts and the values are one
    // tab group under the usage chart (Live Ranges first), the right-hand tables another. On a
    // larger screen the Gantt and the memory map sit side by side under the usage chart, the
    // values and What Fills Memory under them; the right-hand column is the inspector over one
    // tab group of tables, each as wide as the column (side by side they were ~200 px each).
    const bool compact = isCompact();
    m_compact = compact;
    m_window->addDockWidget(Qt::LeftDockWidgetArea, usage);
    m_window->splitDockWidget(usage, gantt, Qt::Vertical);
    if (!compact) {
        // Rows first, then each row split: the map beside the Gantt only, not beside the values.
        m_window->splitDockWidget(gantt, values, Qt::Vertical);
        m_window->splitDockWidget(gantt, map, Qt::Horizontal);
        m_window->splitDockWidget(values, peak, Qt::Horizontal);
    }
    m_window->addDockWidget(Qt::RightDockWidgetArea, inspector);
    m_window->splitDockWidget(inspector, instructions, Qt::Vertical);
    for (QDockWidget *d : {allocations, m_warnings, m_modules})
        m_window->tabifyDockWidget(instructions, d);
    if (compact) {
        for (QDockWidget *d : {map, peak, categories, breakdown, values})
            m_window->tabifyDockWidget(gantt, d);
        // Source lines need width: with the right-hand tables on a laptop, beside the memory
        // map on a large screen.
        m_window->tabifyDockWidget(instructions, m_source);
    } else {
        m_window->tabifyDockWidget(peak, categories);
        m_window->tabifyDockWidget(peak, breakdown);
        m_window->tabifyDockWidget(map, m_source);
    }
    peak->raise();
    map->raise();
    gantt->raise();
    instructions->raise();
    sizeDefaults();
    m_modules->hide();
    m_defaultState = m_window->saveState(kLayoutVersion);
}

void DockLayout::sizeDefaults()
{
    QDockWidget *usage = named("UsageDock");
    QDockWidget *gantt = named("GanttDock");
    QDockWidget *map = named("MemoryMapDock");
    QDockWidget *values = named("ValuesDock");
    QDockWidget *peak = named("WhatFillsMemoryDock");
    QDockWidget *inspector = named("InspectorDock");
    QDockWidget *instructions = named("InstructionsDock");
    const int width = m_window->width();
    // Sizes as shares of the window: the right column a fixed-ish width for the inspector's
    // card, the usage chart tall enough to read its levels (a third on a laptop).
    const int right = std::clamp(width * 30 / 100, 400, 560);
    const int left = width - right;
    m_window->resizeDocks({usage, inspector}, {left, right}, Qt::Horizontal);
    const int tall = m_window->height() - 60; // menu and status bar
    if (m_compact) {
        m_window->resizeDocks({usage, gantt}, {tall * 40 / 100, tall * 60 / 100}, Qt::Vertical);
    } else {
        m_window->resizeDocks({usage, gantt, values},
                              {tall * 29 / 100, tall * 40 / 100, tall * 31 / 100}, Qt::Vertical);
        m_window->resizeDocks({gantt, map}, {left * 55 / 100, left * 45 / 100}, Qt::Horizontal);
        m_window->resizeDocks({values, peak}, {left * 40 / 100, left * 60 / 100}, Qt::Horizontal);
    }
    m_window->resizeDocks({inspector, instructions}, {tall * 55 / 100, tall * 45 / 100},
                          Qt::Vertical);
}

void DockLayout::shown()
{
    // Dock sizes set before the first show are rescaled by the layout's first pass: set them
    // again at the window's real size (not over a layout the user saved).
    if (m_defaultSizesPending) {
        m_defaultSizesPending = false;
        sizeDefaults();
        m_defaultState = m_window->saveState(kLayoutVersion);
    }
    // A layout saved without its shares: read them off it once the layout has its sizes.
    if (!m_defaultSizes && m_shares.isEmpty())
        queueCapture();
}

void DockLayout::reset()
{
    m_window->restoreState(m_defaultState, kLayoutVersion);
    for (QDockWidget *dock : docks())
        if (dock != m_modules)
            dock->show();
    ++m_generation;
    m_shares.clear();
    m_defaultSizes = true;
    sizeDefaults();
}

void DockLayout::restore()
{
    QSettings settings;
    // A saved geometry only where it still fits the screen (it may come from a larger monitor).
    if (settings.contains(kGeometryKey) &&
        m_window->restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QScreen *screen = QGuiApplication::screenAt(m_window->frameGeometry().center());
        if (!screen || !screen->availableGeometry().contains(m_window->frameGeometry()))
            sizeToScreen(m_window);
    }
    // A layout saved by another version of the dock set is ignored (restoreState checks it).
    if (settings.contains(kStateKey)) {
        if (m_window->restoreState(settings.value(kStateKey).toByteArray(), kLayoutVersion)) {
            m_defaultSizesPending = false;
            ++m_generation;
            const QString arrangement = settings.value(kDefaultKey).toString();
            m_defaultSizes =
                arrangement == QLatin1String("compact") || arrangement == QLatin1String("large");
            if (m_defaultSizes)
                m_compact = arrangement == QLatin1String("compact");
            // The shares the layout was arranged with, so a layout saved in a small window
            // grows back to them (not to its squeeze).
            const QVariantMap shares = settings.value(kSharesKey).toMap();
            for (auto it = shares.begin(); it != shares.end(); ++it) {
                const QPointF share = it->toPointF();
                if (share.x() > 0 && share.x() <= 1 && share.y() > 0 && share.y() <= 1)
                    m_shares.insert(it.key(), share);
            }
        } else
            spdlog::debug("ignoring a saved window layout of another version");
    }
}

void DockLayout::save() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState(kLayoutVersion));
    QVariantMap shares;
    for (auto it = m_shares.begin(); it != m_shares.end(); ++it)
        shares.insert(it.key(), it.value());
    settings.setValue(kSharesKey, shares);
    settings.setValue(kDefaultKey, !m_defaultSizes ? QStringLiteral("arranged")
                                   : m_compact     ? QStringLiteral("compact")
                                                   : QStringLiteral("large"));
}

void DockLayout::sizeToScreen(QWidget *window)
{
    // The screen's available area (less the window manager's frame), up to 2400 × 1400: a tool
    // kept open all day, with charts that want width. Smaller screens (1366 × 768) likewise, so
    // the status bar and the right-hand docks are on screen.
    const QScreen *screen = QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000);
    const QSize frame(16, 40); // title bar and borders the window manager adds
    const QSize size(std::min(2400, available.width() - frame.width()),
                     std::min(1400, available.height() - frame.height()));
    window->resize(size);
    window->move(available.topLeft() +
                 QPoint((available.width() - size.width()) / 2,
                        (available.height() - size.height() - frame.height()) / 2));
}

} // namespace bufferscope
