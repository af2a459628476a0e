#include "drawing/ChartPalette.h"

#include <QEvent>
#include <QPixmap>
#include <qcustomplot.h>

namespace bufferscope::ChartPalette {

namespace {
/// Restyles a plot when its palette changes (an event filter on it, owned by it).
class PaletteFollower : public QObject
{
public:
    PaletteFollower(QCustomPlot *plot, std::function<void()> restyle)
        : QObject(plot), m_plot(plot), m_restyle(std::move(restyle))
    {
        plot->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_plot && event->type() == QEvent::PaletteChange) {
            style(m_plot, m_plot->palette());
            if (m_restyle)
                m_restyle();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QCustomPlot *m_plot;
    std::function<void()> m_restyle;
};
} // namespace

void style(QCustomPlot *plot, const QPalette &pal)
{
    const QColor fg = foreground(pal);
    plot->setBackground(background(pal));
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            axis->setBasePen(QPen(fg));
            axis->setTickPen(QPen(fg));
            axis->setSubTickPen(QPen(fg));
            axis->setTickLabelColor(fg);
            axis->setLabelColor(fg);
            axis->grid()->setPen(QPen(grid(pal), 0, Qt::DotLine));
        }
    }
    plot->legend->setBrush(QBrush(background(pal)));
    plot->legend->setTextColor(fg);
    if (plot->legend->borderPen().style() != Qt::NoPen)
        plot->legend->setBorderPen(QPen(grid(pal)));
}

void follow(QCustomPlot *plot, std::function<void()> restyle)
{
    style(plot, plot->palette());
    new PaletteFollower(plot, std::move(restyle));
}

QColor kindColor(AllocationKind kind)
{
    switch (kind) {
    case AllocationKind::Parameter:
        return QColor(0x00, 0x72, 0xb2); // blue
    case AllocationKind::Output:
        return QColor(0x00, 0x9e, 0x73); // bluish green
    case AllocationKind::Constant:
        return QColor(0xcc, 0x79, 0xa7); // reddish purple
    case AllocationKind::ThreadLocal:
        return QColor(0xe6, 0x9f, 0x00); // orange
    case AllocationKind::Temp:
        break;
    }
    return QColor(0x56, 0xb4, 0xe9); // sky blue: temps are the bulk, so the calmest colour
}

QColor categoryColor(Category category)
{
    // Okabe–Ito again, each hue once; the kinds that hold no model state in greys.
    switch (category) {
    case Category::Weights:
        return QColor(0x00, 0x72, 0xb2); // blue
    case Category::GatheredWeights:
        return QColor(0x56, 0xb4, 0xe9); // sky blue: copies of the weights
    case Category::OptimizerState:
        return QColor(0xcc, 0x79, 0xa7); // reddish purple
    case Category::Gradients:
        return QColor(0xe6, 0x9f, 0x00); // orange
    case Category::Activations:
        return QColor(0x00, 0x9e, 0x73); // bluish green
    case Category::Inputs:
        return QColor(0xf0, 0xe4, 0x42); // yellow
    case Category::Outputs:
        return QColor(0x8c, 0x6d, 0x31); // brown
    case Category::Temporaries:
        return QColor(0x99, 0x99, 0x99); // grey
    case Category::Other:
        break;
    }
    return QColor(0xcc, 0xcc, 0xcc); // light grey
}

QIcon categorySwatch(Category category)
{
    QPixmap square(12, 12);
    square.fill(categoryColor(category));
    return QIcon(square);
}

QColor kindFill(AllocationKind kind)
{
    QColor c = kindColor(kind);
    c.setAlpha(60);
    return c;
}

QColor highlight()
{
    return QColor(0xd5, 0x5e, 0x00); // vermillion
}

QColor picked()
{
    return QColor(0x33, 0x22, 0x88); // indigo (Paul Tol's muted scheme)
}

QColor producer()
{
    return QColor(0xf0, 0xe4, 0x42); // yellow
}

QColor consumer()
{
    return QColor(0x88, 0x22, 0x55); // wine
}

QColor hover()
{
    return QColor(0x20, 0x20, 0x20);
}

QColor liveBytes()
{
    return QColor(0x00, 0x72, 0xb2);
}

QColor logicalBytes()
{
    return QColor(0x00, 0x9e, 0x73);
}

QColor peakMarker()
{
    return QColor(0xd5, 0x5e, 0x00);
}

QColor printedPeakMarker()
{
    return QColor(0xcc, 0x79, 0xa7);
}

QColor grew()
{
    return QColor(0xd5, 0x5e, 0x00); // vermillion: more memory
}

QColor shrank()
{
    return QColor(0x00, 0x9e, 0x73); // bluish green: less
}

QColor foreground(const QPalette &palette)
{
    return palette.color(QPalette::WindowText);
}

QColor background(const QPalette &palette)
{
    return palette.color(QPalette::Base);
}

QColor grid(const QPalette &palette)
{
    QColor c = palette.color(QPalette::WindowText);
    c.setAlpha(40);
    return c;
}

QColor currentStep(const QPalette &palette)
{
    QColor c = palette.color(QPalette::WindowText);
    c.setAlpha(200);
    return c;
}

QColor alert(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xb0, 0x00, 0x20);
}

} // namespace bufferscope::ChartPalette
