#pragma once

#include <QImage>
#include <QRgb>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bufferscope {

/// Boxes too small to paint one by one, summed into the pixels they cover (BoxPlottable's
/// level of detail). A narrow box covers rows [top, end) of one column, a flat one columns
/// [left, end) of one row; each is counted once, at its first pixel. A pixel some boxes cover
/// takes the count-weighted mix of their colours, more opaque where more of them overlap, and
/// each column is cut into runs of one colour (for the tests' bookkeeping).
///
/// The boxes are held until the picture is painted in one of two ways, with the same pixels:
/// - **dense**: difference grids the size of the picture, one random write per box, in memory
///   kept between frames. Cheapest for a picture the size of a window with a million boxes.
/// - **by row**: a mark per box edge, sorted by row and met by one sweep down the picture.
///   Memory follows the boxes and the picture's width, not its area: an export at 3840 × 2160
///   would otherwise allocate and zero a third of a gigabyte of grids for one frame.
/// The picture is painted row by row either way (sequential writes, a colour computed once
/// per change along a row).
class PixelFold
{
public:
    /// A vertical run of one colour in one column, in device pixels.
    struct Run
    {
        int column = 0;
        int top = 0;             ///< first row
        int bottom = 0;          ///< one past the last row
        std::uint32_t count = 0; ///< boxes counted in this run (each in exactly one run)
        QRgb colour = 0;
    };
    enum class Mode
    {
        Auto,
        Dense,
        ByRow
    };

    /// The one fold every BoxPlottable draws through (they all draw on the GUI thread).
    static PixelFold &shared();

    /// Starts a picture of w × h pixels. Auto is dense when the grids fit what is kept between
    /// frames, else by row.
    void begin(int width, int height, bool recordRuns, Mode mode = Mode::Auto);
    /// A narrow box over rows [top, end) of column x (0 ≤ x < w, 0 ≤ top < end ≤ h).
    [[gnu::always_inline]] void column(int x, int top, int end, QRgb rgb)
    {
        if (!m_dense) {
            markColumn(x, top, end, rgb);
            return;
        }
        if (!m_haveDowns)
            allocateDowns();
        // Column-major: a box's two changes are near each other.
        Weight *column =
            m_downs.data() + static_cast<std::size_t>(x) * (static_cast<std::size_t>(m_height) + 1);
        column[top].add(rgb);
        column[end].remove(rgb);
        if (m_recording)
            ++m_anchorGrid[static_cast<std::size_t>(top) * static_cast<std::size_t>(m_width) +
                           static_cast<std::size_t>(x)];
    }
    /// A flat box over columns [left, end) of row y (0 ≤ y < h, 0 ≤ left < end ≤ w).
    [[gnu::always_inline]] void row(int y, int left, int end, QRgb rgb)
    {
        if (!m_dense) {
            markRow(y, left, end, rgb);
            return;
        }
        if (!m_haveAcross)
            allocateAcross();
        Weight *line =
            m_across.data() + static_cast<std::size_t>(y) * (static_cast<std::size_t>(m_width) + 1);
        line[left].add(rgb);
        line[end].remove(rgb);
        if (m_recording)
            ++m_anchorGrid[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) +
                           static_cast<std::size_t>(left)];
    }
    bool dense() const { return m_dense; }
    /// Paints the boxes since begin() into `image` (w × h, premultiplied ARGB32, transparent
    /// where no box is), and with recordRuns their runs into `runs`. Then releases what is not
    /// kept between frames.
    void paint(QImage &image, std::vector<Run> &runs);

private:
    /// The boxes covering a pixel (or, in the grids, a change of them): how many and the sums
    /// of their colours' channels. Unsigned, so differences may wrap and still sum right.
    struct Weight
    {
        std::uint32_t n = 0;
        std::uint32_t r = 0;
        std::uint32_t g = 0;
        std::uint32_t b = 0;
        std::uint32_t a = 0;

        void add(QRgb c)
        {
            ++n;
            r += static_cast<std::uint32_t>(qRed(c));
            g += static_cast<std::uint32_t>(qGreen(c));
            b += static_cast<std::uint32_t>(qBlue(c));
            a += static_cast<std::uint32_t>(qAlpha(c));
        }
        void remove(QRgb c)
        {
            --n;
            r -= static_cast<std::uint32_t>(qRed(c));
            g -= static_cast<std::uint32_t>(qGreen(c));
            b -= static_cast<std::uint32_t>(qBlue(c));
            a -= static_cast<std::uint32_t>(qAlpha(c));
        }
        void operator+=(const Weight &o)
        {
            n += o.n;
            r += o.r;
            g += o.g;
            b += o.b;
            a += o.a;
        }
        bool operator==(const Weight &o) const = default;
        /// The mix a folded pixel shows: the mean colour, more opaque where more boxes
        /// overlap, times their mean opacity.
        QRgb colour() const;
    };
    /// A box's edge where the sweep meets it (by row): a narrow box turns its column on in its
    /// first row and off in the row after its last; a flat box covers [x, end) of its row.
    struct Mark
    {
        std::int32_t row = 0;
        std::int32_t x = 0;
        std::int32_t end = 0; ///< kOn, kOff, or (a flat box) one past its last column
        QRgb rgb = 0;
    };
    static constexpr std::int32_t kOn = -1;
    static constexpr std::int32_t kOff = -2;
    /// A run still growing down a column (when recording).
    struct OpenRun
    {
        Weight first; ///< its top pixel's weight
        QRgb colour = 0;
        int top = -1; ///< -1: none open
        std::uint32_t count = 0;
    };

    void markColumn(int x, int top, int end, QRgb rgb);
    void markRow(int y, int left, int end, QRgb rgb);
    void allocateDowns();
    void allocateAcross();
    void sortMarks();
    void release();

    int m_width = 0;
    int m_height = 0;
    bool m_dense = false;
    bool m_recording = false;
    bool m_haveDowns = false;
    bool m_haveAcross = false;
    std::vector<Weight>
        m_downs; ///< dense, w × (h + 1) by column: each column sum's changes down it
    std::vector<Weight> m_across;            ///< dense, h × (w + 1): changes along each row
    std::vector<std::uint32_t> m_anchorGrid; ///< dense, h × w, recording: boxes counted there
    std::vector<Mark> m_marks;               ///< by row: as the boxes came
    std::vector<Mark> m_sorted;              ///< by row: the same, sorted by row
    std::vector<std::uint32_t> m_rowStart;   ///< by row: h + 1, each row's first mark
    std::vector<Weight> m_columns;           ///< w: the narrow boxes over each column, this row
    std::vector<Weight> m_rowAcross;         ///< by row: w + 1, this row's changes along it
    std::vector<std::uint32_t> m_anchors;    ///< by row, recording: w, counted in this row
    std::vector<OpenRun> m_open;             ///< recording: w
};

} // namespace bufferscope
