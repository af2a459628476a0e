#include "charts/Treemap.h"

#include "drawing/ChartPalette.h"
#include "models/QtText.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <limits>

namespace bufferscope {

namespace {

/// The worst aspect ratio of a row of areas laid along a side of length `side`.
double worst(const std::vector<double> &row, double side)
{
    double sum = 0;
    double lo = std::numeric_limits<double>::max();
    double hi = 0;
    for (double a : row) {
        sum += a;
        lo = std::min(lo, a);
        hi = std::max(hi, a);
    }
    if (sum <= 0 || lo <= 0)
        return std::numeric_limits<double>::max();
    const double s2 = side * side;
    return std::max(s2 * hi / (sum * sum), (sum * sum) / (s2 * lo));
}

/// Squarified layout of `areas` (sorted largest first, summing to the rect's area).
std::vector<QRectF> squarify(const std::vector<double> &areas, QRectF rect)
{
    std::vector<QRectF> out(areas.size());
    std::size_t i = 0;
    while (i < areas.size() && rect.width() > 0 && rect.height() > 0) {
        const bool wide = rect.width() >= rect.height();
        const double side = wide ? rect.height() : rect.width();
        std::vector<double> row{areas[i]};
        std::size_t j = i + 1;
        while (j < areas.size()) {
            std::vector<double> next = row;
            next.push_back(areas[j]);
            if (worst(next, side) > worst(row, side))
                break;
            row = std::move(next);
            ++j;
        }
        double sum = 0;
        for (double a : row)
            sum += a;
        const double thickness = side > 0 ? sum / side : 0;
        double along = 0;
        for (std::size_t k = i; k < j; ++k) {
            const double length = thickness > 0 ? areas[k] / thickness : 0;
            out[k] = wide ? QRectF(rect.left(), rect.top() + along, thickness, length)
                          : QRectF(rect.left() + along, rect.top(), length, thickness);
            along += length;
        }
        rect = wide ? rect.adjusted(thickness, 0, 0, 0) : rect.adjusted(0, thickness, 0, 0);
        i = j;
    }
    return out;
}

const AllocationKind kCycle[] = {AllocationKind::Parameter, AllocationKind::Temp,
                                 AllocationKind::Output, AllocationKind::ThreadLocal,
                                 AllocationKind::Constant};

} // namespace

Treemap::Treemap(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(120, 80);
}

void Treemap::setNode(const BreakdownNode *node, std::int64_t total)
{
    m_node = node;
    m_total = total;
    m_highlighted = nullptr;
    layout();
    update();
}

void Treemap::setHighlighted(const BreakdownNode *child)
{
    m_highlighted = child;
    update();
}

void Treemap::layout()
{
    m_rects.clear();
    if (!m_node || m_node->bytes <= 0)
        return;
    const QRectF area = QRectF(rect()).adjusted(1, 1, -1, -1);
    std::vector<double> areas;
    areas.reserve(m_node->children.size());
    const double scale = area.width() * area.height() / static_cast<double>(m_node->bytes);
    for (const BreakdownNode &c : m_node->children)
        areas.push_back(static_cast<double>(std::max<std::int64_t>(c.bytes, 0)) * scale);
    m_rects = squarify(areas, area);
}

const BreakdownNode *Treemap::childAt(const QPointF &pos) const
{
    if (!m_node)
        return nullptr;
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        if (m_rects[i].contains(pos))
            return &m_node->children[i];
    }
    return nullptr;
}

void Treemap::setColorOf(std::function<QColor(const BreakdownNode &, std::size_t)> colorOf)
{
    m_colorOf = std::move(colorOf);
    update();
}

QColor Treemap::fillOf(std::size_t i) const
{
    QColor fill;
    if (m_colorOf && m_node && i < m_node->children.size())
        fill = m_colorOf(m_node->children[i], i);
    if (!fill.isValid()) {
        // The five kind colours in turn, every other round a little lighter (never so light
        // that the rectangles fade into the background).
        fill = ChartPalette::kindColor(kCycle[i % std::size(kCycle)]);
        if ((i / std::size(kCycle)) % 2 == 1)
            fill = fill.lighter(125);
    }
    return fill;
}

void Treemap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), ChartPalette::background(palette()));
    if (!m_node || m_rects.empty()) {
        p.setPen(ChartPalette::foreground(palette()));
        p.drawText(rect(), Qt::AlignCenter, tr("Nothing is live here"));
        return;
    }
    const QFontMetrics fm(font());
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        const BreakdownNode &c = m_node->children[i];
        const QRectF r = m_rects[i];
        const QColor fill = fillOf(i);
        p.fillRect(r, fill);
        p.setPen(QPen(ChartPalette::background(palette()), 1));
        p.drawRect(r);
        if (r.width() > 48 && r.height() > fm.height() + 4) {
            const double share =
                m_total > 0 ? 100.0 * static_cast<double>(c.bytes) / static_cast<double>(m_total)
                            : 0.0;
            const QString text = toQString(c.label) + QLatin1Char('\n') + humanBytesText(c.bytes) +
                                 QStringLiteral(" · %1%").arg(share, 0, 'f', 1);
            p.setPen(fill.lightness() > 140 ? Qt::black : Qt::white);
            const QRectF inner = r.adjusted(4, 2, -4, -2);
            const QString elided =
                fm.elidedText(toQString(c.label), Qt::ElideMiddle, static_cast<int>(inner.width()));
            if (r.height() > 2 * fm.height() + 4)
                p.drawText(inner, Qt::AlignLeft | Qt::AlignTop,
                           elided + QLatin1Char('\n') + text.section(QLatin1Char('\n'), 1));
            else
                p.drawText(inner, Qt::AlignLeft | Qt::AlignTop, elided);
        }
    }
    if (m_highlighted) {
        for (std::size_t i = 0; i < m_rects.size(); ++i) {
            if (&m_node->children[i] != m_highlighted)
                continue;
            p.setPen(QPen(ChartPalette::picked(), 3));
            p.setBrush(Qt::NoBrush);
            p.drawRect(m_rects[i].adjusted(1.5, 1.5, -1.5, -1.5));
        }
    }
}

void Treemap::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layout();
}

void Treemap::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT clicked(childAt(event->position()));
}

void Treemap::mouseDoubleClickEvent(QMouseEvent *event)
{
    const BreakdownNode *c = childAt(event->position());
    if (c && !c->children.empty())
        Q_EMIT activated(c);
}

bool Treemap::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        if (const BreakdownNode *c = childAt(help->pos())) {
            QToolTip::showText(
                help->globalPos(),
                tr("<b>%1</b><br>%2 (%3 bytes) in %4 value(s)%5")
                    .arg(richEscaped(c->path.empty() ? c->label : c->path),
                         humanBytesText(c->bytes), QString::number(c->bytes),
                         QString::number(c->values),
                         c->children.empty() ? QString() : tr("<br>Double-click to go in")),
                this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace bufferscope
