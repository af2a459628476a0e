#include "drawing/PixelFold.h"

#include <algorithm>
#include <cmath>

namespace bufferscope {

namespace {

/// Buffers above this size are released after a frame instead of kept for the next; the dense
/// grids are used only where they fit it.
constexpr std::size_t kKeepBytes = std::size_t{96} << 20;

template <typename T> void releaseIfLarge(std::vector<T> &v)
{
    if (v.capacity() * sizeof(T) > kKeepBytes)
        std::vector<T>().swap(v);
}

} // namespace

QRgb PixelFold::Weight::colour() const
{
    // One box alone stays clearly visible; faint colours (the map's bands) stay faint.
    static constexpr float kDensity[] = {0, 150, 185, 210, 230};
    const float density = n < 5 ? kDensity[n] : 255.0f;
    const float inverse = 1.0f / static_cast<float>(n);
    const float opacity = static_cast<float>(a) * inverse / 255.0f;
    return qRgba(static_cast<int>(static_cast<float>(r) * inverse),
                 static_cast<int>(static_cast<float>(g) * inverse),
                 static_cast<int>(static_cast<float>(b) * inverse),
                 static_cast<int>(std::lround(density * opacity)));
}

PixelFold &PixelFold::shared()
{
    static PixelFold fold;
    return fold;
}

void PixelFold::begin(int width, int height, bool recordRuns, Mode mode)
{
    m_width = std::max(1, width);
    m_height = std::max(1, height);
    m_recording = recordRuns;
    m_haveDowns = m_haveAcross = false;
    m_marks.clear();
    const auto w = static_cast<std::size_t>(m_width);
    const auto h = static_cast<std::size_t>(m_height);
    const std::size_t gridBytes =
        (w * h + (w + 1) * h) * sizeof(Weight) + (recordRuns ? w * h * sizeof(std::uint32_t) : 0);
    m_dense = mode == Mode::Dense || (mode == Mode::Auto && gridBytes <= kKeepBytes);
    if (m_dense && m_recording)
        m_anchorGrid.assign(w * h, 0);
}

void PixelFold::markColumn(int x, int top, int end, QRgb rgb)
{
    m_marks.push_back({top, x, kOn, rgb});
    if (end < m_height)
        m_marks.push_back({end, x, kOff, rgb});
}

void PixelFold::markRow(int y, int left, int end, QRgb rgb)
{
    m_marks.push_back({y, left, end, rgb});
}

void PixelFold::allocateDowns()
{
    m_downs.assign(static_cast<std::size_t>(m_width) * (static_cast<std::size_t>(m_height) + 1),
                   Weight{});
    m_haveDowns = true;
}

void PixelFold::allocateAcross()
{
    m_across.assign((static_cast<std::size_t>(m_width) + 1) * static_cast<std::size_t>(m_height),
                    Weight{});
    m_haveAcross = true;
}

void PixelFold::sortMarks()
{
    // A counting sort: rows are few, marks many.
    m_rowStart.assign(static_cast<std::size_t>(m_height) + 1, 0);
    for (const Mark &m : m_marks)
        ++m_rowStart[static_cast<std::size_t>(m.row) + 1];
    for (std::size_t y = 1; y < m_rowStart.size(); ++y)
        m_rowStart[y] += m_rowStart[y - 1];
    std::vector<std::uint32_t> next(m_rowStart.begin(), m_rowStart.end() - 1);
    m_sorted.resize(m_marks.size());
    for (const Mark &m : m_marks)
        m_sorted[next[static_cast<std::size_t>(m.row)]++] = m;
}

void PixelFold::paint(QImage &image, std::vector<Run> &runs)
{
    const int h = m_height;
    const bool recording = m_recording; // fixed for the whole paint
    const auto width = static_cast<std::size_t>(m_width);
    if (!m_dense)
        sortMarks();
    m_columns.assign(width, Weight{});
    if (!m_dense) {
        m_rowAcross.assign(width + 1, Weight{});
        if (recording)
            m_anchors.assign(width, 0);
    }
    if (recording)
        m_open.assign(width, OpenRun{});
    const auto close = [&](OpenRun &run, std::size_t x, int bottom) {
        if (run.top < 0)
            return;
        runs.push_back({static_cast<int>(x), run.top, bottom, run.count, run.colour});
        run.top = -1;
    };

    const std::size_t downStride = static_cast<std::size_t>(h) + 1;
    auto *pixels = reinterpret_cast<QRgb *>(image.bits());
    const auto stride = static_cast<std::size_t>(image.bytesPerLine() / 4);
    std::size_t active = 0; // by row: columns some narrow box covers at this row
    for (int y = 0; y < h; ++y) {
        const auto row = static_cast<std::size_t>(y);
        const Weight *downs = nullptr;  // this row's changes of the columns' sums
        const Weight *across = nullptr; // this row's changes along it
        const std::uint32_t *anchors = nullptr;
        if (m_dense) {
            if (m_haveDowns)
                downs = m_downs.data() + row; // column-major: column x at x * (h + 1)
            if (m_haveAcross)
                across = m_across.data() + row * (width + 1);
            if (recording)
                anchors = m_anchorGrid.data() + row * width;
        } else {
            for (std::uint32_t k = m_rowStart[row]; k < m_rowStart[row + 1]; ++k) {
                const Mark &m = m_sorted[k];
                const auto x = static_cast<std::size_t>(m.x);
                if (m.end == kOff) {
                    m_columns[x].remove(m.rgb);
                    active -= m_columns[x].n == 0 ? 1 : 0;
                    continue;
                }
                if (m.end == kOn) {
                    active += m_columns[x].n == 0 ? 1 : 0;
                    m_columns[x].add(m.rgb);
                } else {
                    m_rowAcross[x].add(m.rgb);
                    m_rowAcross[static_cast<std::size_t>(m.end)].remove(m.rgb);
                    across = m_rowAcross.data();
                }
                if (recording)
                    ++m_anchors[x];
            }
            if (recording)
                anchors = m_anchors.data();
            else if (active == 0 && across == nullptr)
                continue; // nothing folded in this row
        }
        QRgb *line = pixels + row * stride;
        Weight alongRow;
        Weight last;
        QRgb lastColour = 0;
        QRgb lastPixel = 0;
        for (std::size_t x = 0; x < width; ++x) {
            if (downs)
                m_columns[x] += downs[x * downStride];
            Weight p = m_columns[x];
            if (across) {
                alongRow += across[x];
                p += alongRow;
            }
            if (p.n == 0) {
                if (recording)
                    close(m_open[x], x, y);
                continue;
            }
            if (!(p == last)) {
                last = p;
                lastColour = p.colour();
                lastPixel = qPremultiply(lastColour);
            }
            line[x] = lastPixel;
            if (recording) {
                OpenRun &run = m_open[x];
                if (run.top >= 0 && !(p == run.first || lastColour == run.colour))
                    close(run, x, y);
                if (run.top < 0)
                    run = {p, lastColour, y, 0};
                run.count += anchors[x];
            }
        }
        if (!m_dense) {
            if (across)
                std::fill(m_rowAcross.begin(), m_rowAcross.end(), Weight{});
            if (recording)
                std::fill(m_anchors.begin(), m_anchors.end(), 0);
        }
    }
    if (recording)
        for (std::size_t x = 0; x < width; ++x)
            close(m_open[x], x, h);
    release();
}

void PixelFold::release()
{
    releaseIfLarge(m_downs);
    releaseIfLarge(m_across);
    releaseIfLarge(m_anchorGrid);
    releaseIfLarge(m_marks);
    releaseIfLarge(m_sorted);
}

} // namespace bufferscope
