#include "drawing/StepMarks.h"

#include "drawing/ChartPalette.h"
#include "models/QtText.h"

#include <qcustomplot.h>

namespace bufferscope {

namespace {
constexpr double kHitPixels = 6; ///< how near the pointer must be to a mark for its tooltip
constexpr double kUseSize = 9;
constexpr double kPositionSize = 8;
constexpr double kLeastHalfPixels = 3.5; ///< half the least height the selection is drawn at
} // namespace

/// A scatter graph whose symbols can be lifted to sit just above a value drawn around them.
class StepMarks::Graph : public QCPGraph
{
public:
    using QCPGraph::QCPGraph;
    bool lifted = false;
    double halfHeight = 0; ///< of the value the marks sit on, in value-axis units

    /// How far the symbols are moved up on screen, in pixels.
    double lift() const
    {
        if (!lifted || data()->isEmpty())
            return 0;
        const double y = data()->constBegin()->value;
        const double half =
            std::abs(valueAxis()->coordToPixel(y + halfHeight) - valueAxis()->coordToPixel(y));
        return std::max(half, kLeastHalfPixels) + kUseSize / 2;
    }

    /// Where the symbol of a point at `pixel` is drawn.
    QPointF drawnAt(const QPointF &pixel) const
    {
        const double dy = lift();
        if (dy == 0)
            return pixel;
        const double top = keyAxis()->axisRect()->top() + kUseSize / 2;
        return QPointF(pixel.x(), StepMarks::useMarkY(pixel.y(), dy, top));
    }

protected:
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override
    {
        const double dy = lift();
        if (dy == 0)
            return QCPGraph::drawScatterPlot(painter, scatters, style);
        // Above the value, pointing down at it; at the top of the chart where there is no room
        // above (the top row): one symbol, one meaning, as the legend shows it.
        const double top = keyAxis()->axisRect()->top() + kUseSize / 2;
        QVector<QPointF> marks;
        for (const QPointF &p : scatters)
            marks.append(QPointF(p.x(), StepMarks::useMarkY(p.y(), dy, top)));
        QCPGraph::drawScatterPlot(painter, marks, style);
    }
};

double StepMarks::useMarkY(double valueY, double lift, double top)
{
    return std::max(valueY - lift, std::min(top, valueY));
}

StepMarks::StepMarks(QCPAxis *keyAxis, QCPAxis *valueAxis, QCPLayer *layer)
    : m_uses(new Graph(keyAxis, valueAxis)), m_positions(new Graph(keyAxis, valueAxis))
{
    m_uses->lifted = true;
    for (QCPGraph *g : {m_uses, m_positions}) {
        g->setLayer(layer);
        g->setLineStyle(QCPGraph::lsNone);
        g->setAdaptiveSampling(false);
        g->removeFromLegend();
    }
    m_uses->setName(QObject::tr("use (selected value)"));
    m_positions->setName(QObject::tr("position (selected value)"));
}

void StepMarks::applyPalette(const QPalette &palette)
{
    const QColor fg = ChartPalette::foreground(palette);
    m_uses->setPen(QPen(fg));
    m_uses->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, fg, fg, kUseSize));
    m_positions->setPen(QPen(fg));
    // Hollow, so the highlighted value shows through where it is smaller than the mark.
    m_positions->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(fg, 1.5), Qt::NoBrush, kPositionSize));
}

void StepMarks::addToLegend()
{
    m_uses->addToLegend();
    m_positions->addToLegend();
}

void StepMarks::removeFromLegend()
{
    m_uses->removeFromLegend();
    m_positions->removeFromLegend();
}

void StepMarks::clear()
{
    m_dump = nullptr;
    m_flow = {};
    m_useSteps.clear();
    m_positionSteps.clear();
    m_uses->data()->clear();
    m_positions->data()->clear();
}

void StepMarks::show(const Dump &dump, ValueFlow flow, const std::function<double(qint64)> &y,
                     double halfHeight)
{
    clear();
    m_dump = &dump;
    m_flow = std::move(flow);
    m_uses->halfHeight = halfHeight;
    for (std::int64_t s : m_flow.positionSteps()) {
        m_positionSteps.push_back(s);
        m_positions->addData(static_cast<double>(s) + 0.5, y(s));
    }
    for (std::int64_t s : m_flow.useSteps()) {
        m_useSteps.push_back(s);
        m_uses->addData(static_cast<double>(s) + 0.5, y(s));
    }
}

QString StepMarks::toolTipAt(const QPointF &pixel) const
{
    if (!m_dump)
        return {};
    QStringList lines;
    const auto near = [&pixel](const Graph *g, qint64 step) {
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (static_cast<qint64>(it->key) != step)
                continue;
            const QPointF at = g->drawnAt(g->coordsToPixels(it->key, it->value));
            if (std::abs(at.x() - pixel.x()) <= kHitPixels &&
                std::abs(at.y() - pixel.y()) <= kHitPixels)
                return true;
        }
        return false;
    };
    const auto name = [this](const ValueMark &m) {
        return m.instruction == kNone
                   ? QStringLiteral("?")
                   : toQString(m_dump->str(m_dump->instructions[m.instruction].name));
    };
    const auto index = [this](const ValueMark &m) {
        return m.index == kNoString ? QString()
                                    : QStringLiteral(" ") + toQString(m_dump->str(m.index));
    };
    for (const ValueMark &m : m_flow.uses)
        if (m.step >= 0 && near(m_uses, m.step))
            lines << QObject::tr("▼ use: %1, operand %2%3 · step %4")
                         .arg(name(m), QString::number(m.operand), index(m),
                              QString::number(m.step));
    for (const ValueMark &m : m_flow.positions)
        if (m.step >= 0 && near(m_positions, m.step))
            lines << QObject::tr("○ position: %1%2 · step %3")
                         .arg(name(m), index(m), QString::number(m.step));
    return lines.join(QLatin1Char('\n'));
}

} // namespace bufferscope
