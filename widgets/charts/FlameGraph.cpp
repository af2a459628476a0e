#include "charts/FlameGraph.h"

#include "drawing/ChartPalette.h"
#include "models/QtText.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace bufferscope {

namespace {

/// A stable small hash of a label, so a frame keeps its colour from step to step.
unsigned labelHash(const std::string &s)
{
    unsigned h = 2166136261u;
    for (unsigned char c : s)
        h = (h ^ c) * 16777619u;
    return h;
}

} // namespace

FlameGraph::FlameGraph(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(120, 60);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

int FlameGraph::rowHeight() const
{
    return fontMetrics().height() + 6;
}

QSize FlameGraph::sizeHint() const
{
    return {360, std::max(240, m_rows * rowHeight() + 2)};
}

void FlameGraph::setTree(const BreakdownNode *root, std::int64_t total,
                         std::vector<const BreakdownNode *> focus)
{
    m_root = root;
    m_total = total;
    m_focus = std::move(focus);
    m_highlighted = nullptr;
    layout();
    update();
}

void FlameGraph::setFocus(std::vector<const BreakdownNode *> focus)
{
    m_focus = std::move(focus);
    layout();
    update();
}

void FlameGraph::setLibraryTest(std::function<bool(const BreakdownNode &)> isLibrary)
{
    m_isLibrary = std::move(isLibrary);
    update();
}

void FlameGraph::setHighlighted(const BreakdownNode *node)
{
    m_highlighted = node;
    update();
}

void FlameGraph::layout()
{
    m_bars.clear();
    m_rows = 0;
    if (!m_root || m_root->bytes <= 0)
        return;
    const double width = std::max(1, this->width() - 2);
    const int h = rowHeight();
    int row = 0;
    m_bars.push_back({QRectF(1, 0, width, h), m_root, true});
    for (const BreakdownNode *n : m_focus)
        m_bars.push_back({QRectF(1, ++row * h, width, h), n, true});
    const BreakdownNode &focus = m_focus.empty() ? *m_root : *m_focus.back();
    if (!m_focus.empty())
        m_bars.back().ancestor = false; // the zoomed node is a bar like the others
    m_rows = row + 1;
    if (focus.bytes > 0) {
        double x = 1;
        for (const BreakdownNode &c : focus.children) {
            const double w =
                width * static_cast<double>(c.bytes) / static_cast<double>(focus.bytes);
            layOut(c, x, w, row + 1);
            x += w;
        }
    }
    // The widget is as tall as the deepest row drawn (a scroll area around it scrolls).
    setMinimumHeight(std::max(60, m_rows * h + 2));
    updateGeometry();
}

void FlameGraph::layOut(const BreakdownNode &node, double x, double width, int row)
{
    // Bars under half a pixel are not drawn, nor is anything below them.
    if (width < 0.5 || node.bytes <= 0)
        return;
    const int h = rowHeight();
    m_bars.push_back({QRectF(x, row * h, width, h), &node, false});
    m_rows = std::max(m_rows, row + 1);
    double at = x;
    for (const BreakdownNode &c : node.children) {
        const double w = width * static_cast<double>(c.bytes) / static_cast<double>(node.bytes);
        layOut(c, at, w, row + 1);
        at += w;
    }
}

const FlameGraph::Bar *FlameGraph::barAt(const QPointF &pos) const
{
    for (const Bar &b : m_bars)
        if (b.rect.contains(pos))
            return &b;
    return nullptr;
}

const FlameGraph::Bar *FlameGraph::barOf(const BreakdownNode *node) const
{
    for (const Bar &b : m_bars)
        if (b.node == node)
            return &b;
    return nullptr;
}

QColor FlameGraph::fillOf(const Bar &bar) const
{
    const BreakdownNode &n = *bar.node;
    if (&n == m_root)
        return palette().color(QPalette::Mid);
    if (n.instructions)
        return QColor::fromHsv(100 + static_cast<int>(labelHash(n.label) % 30), 90, 215);
    if (n.frame < 0)
        return palette().color(QPalette::Midlight);
    const unsigned hash = labelHash(n.path);
    if (m_isLibrary && m_isLibrary(n))
        return QColor::fromHsv(200 + static_cast<int>(hash % 25), 35,
                               200 + static_cast<int>(hash % 30));
    // flamegraph.pl's "hot" palette: reds, oranges and yellows.
    return QColor::fromHsv(static_cast<int>(hash % 50), 150 + static_cast<int>((hash >> 8) % 70),
                           230 + static_cast<int>((hash >> 16) % 25));
}

void FlameGraph::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.fillRect(rect(), ChartPalette::background(palette()));
    if (m_bars.empty()) {
        p.setPen(ChartPalette::foreground(palette()));
        p.drawText(rect(), Qt::AlignCenter, tr("Nothing is live here"));
        return;
    }
    const QFontMetrics fm(font());
    const QRect dirty = event->rect();
    for (const Bar &b : m_bars) {
        if (!b.rect.intersects(dirty))
            continue;
        const QColor fill = fillOf(b);
        p.fillRect(b.rect, fill);
        p.setPen(QPen(ChartPalette::background(palette()), 1));
        p.drawRect(b.rect);
        if (b.rect.width() < 24)
            continue;
        QString text;
        if (b.node == m_root) {
            text = tr("all · %1").arg(humanBytesText(b.node->bytes));
        } else {
            const double share = m_total > 0 ? 100.0 * static_cast<double>(b.node->bytes) /
                                                   static_cast<double>(m_total)
                                             : 0.0;
            text = toQString(b.node->label) +
                   QStringLiteral(" · %1 (%2%)")
                       .arg(humanBytesText(b.node->bytes), QString::number(share, 'f', 1));
        }
        p.setPen(fill.lightness() > 120 ? Qt::black : Qt::white);
        const QRectF inner = b.rect.adjusted(4, 0, -3, 0);
        p.drawText(inner, Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(text, Qt::ElideRight, static_cast<int>(inner.width())));
    }
    if (const Bar *h = barOf(m_highlighted)) {
        p.setPen(QPen(ChartPalette::picked(), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(h->rect.adjusted(1.5, 1.5, -1.5, -1.5));
    }
}

void FlameGraph::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (event->oldSize().width() != width())
        layout();
}

void FlameGraph::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const Bar *b = barAt(event->position());
    Q_EMIT clicked(b ? b->node : nullptr);
}

void FlameGraph::mouseDoubleClickEvent(QMouseEvent *event)
{
    const Bar *b = barAt(event->position());
    if (b && (b->ancestor || b->node == (m_focus.empty() ? nullptr : m_focus.back()) ||
              !b->node->children.empty()))
        Q_EMIT activated(b->node);
}

bool FlameGraph::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const Bar *b = barAt(help->pos());
        if (b && b->node != m_root) {
            const BreakdownNode &n = *b->node;
            const double share =
                m_total > 0 ? 100.0 * static_cast<double>(n.bytes) / static_cast<double>(m_total)
                            : 0.0;
            QString hint;
            if (!m_focus.empty() && b->node == m_focus.back())
                hint = tr("Double-click to zoom out");
            else if (b->ancestor)
                hint = tr("Double-click to zoom out to it");
            else if (!n.children.empty())
                hint = tr("Double-click to zoom in");
            // An instruction row's path is its frame's: "fusion.* in f (a.py:3)".
            const std::string title = n.instructions && !n.path.empty() ? n.label + " in " + n.path
                                      : n.path.empty()                  ? n.label
                                                                        : n.path;
            QToolTip::showText(help->globalPos(),
                               tr("<b>%1</b><br>%2 (%3 bytes, %4% of the step) in %5 value(s)%6")
                                   .arg(richEscaped(title), humanBytesText(n.bytes),
                                        QString::number(n.bytes), QString::number(share, 'f', 1),
                                        QString::number(n.values),
                                        hint.isEmpty() ? QString() : QStringLiteral("<br>") + hint),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace bufferscope
