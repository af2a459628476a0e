#pragma once

// The out-of-memory log reader (parse/OomMessage.h), shared by its parts: the lines, blocks,
// lists and the BFC allocator's lines (OomRead.cpp), the headlines in every wording
// (OomHeadlines.cpp), and the checks of a message's figures against each other (OomCheck.cpp).
// Nothing outside core/parse includes it.

#include "parse/OomMessage.h"
#include "parse/detail/OomLines.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bufferscope::oom_detail {

enum class Block : std::uint8_t
{
    None,
    GpuStats,
    GpuBuffers,
    TpuUsage,
    TpuRequirement,
    TpuBuffers,
};

/// The phrases that announce a GPU message or a TPU report without the TPU's own wording
/// (docs/FORMAT.md §4.1): what a headline starts a message at, and, with kTpuPhrases, what makes
/// a file a log (OomLog::looksLike) — one list, so that a file the reader would find a message
/// in is never taken for a dump.
constexpr sv kAnnouncingPhrases[] = {sv("BufferAssignment OOM Debugging"),
                                     sv("emory while trying to allocate"),
                                     sv("ran out of memory trying to allocate"),
                                     sv("failed to allocate"),
                                     sv("Failed to allocate request for"),
                                     sv("Ran out of memory"),
                                     sv("Program hbm requirement"),
                                     sv("Total hbm usage"),
                                     sv("Largest program allocations")};

/// The phrases that announce a TPU compiler's or runtime's message (docs/FORMAT.md §4.1).
constexpr sv kTpuPhrases[] = {sv("Ran out of memory"),
                              sv("Error loading program"),
                              sv("Error allocating device buffer"),
                              sv("RuntimeProgramAllocationFailure"),
                              sv("RuntimeBufferAllocationFailure"),
                              sv("CompileTimeHbmOom"),
                              sv("CompileTimeScopedVmemOom"),
                              sv("CompileTimeSparseCoreAllocationFailure"),
                              sv("TensorCore Hbm usage"),
                              sv("program HBM usage:"),
                              sv("program VMEM usage:")};

class Reader
{
public:
    OomLog run(sv text);

    /// A line break inside a TPU message's announcing phrase ("Ran out of m" / "emory on HBM"),
    /// where a terminal or `fold` cut a log too short to tell its width: the two lines are
    /// read as one, glued, or with a space where the break was at one.
    void rejoinCutPhrases();

    /// How many of the TPU messages' phrases a line holds.
    static int phrases(sv text);

    /// Whether `next` is the rest of `line`, cut at `width`: `next` is not indented (an
    /// indented line of a list is a line of its own; a cut before a space leaves one) and does
    /// not start with a logger's prefix (a record of its own), as the next line after one that
    /// was exactly `width` wide usually does.
    static bool continues(sv line, sv next, std::size_t width);

    /// The column a line ends at, as a terminal or `fold` counts: a tab to the next multiple of
    /// 8, a carriage return back to 0 (a progress line rewritten in place). `widest` gets the
    /// farthest column the line reached.
    static std::size_t columns(sv l, std::size_t *widest = nullptr);

    /// The width a log was hard-wrapped at, or 0: the widest lines (40 columns or more) are
    /// all of one width, at least three different ones, and they are most of the lines within
    /// five columns of it — a log written as it ran has lines of every length.
    static std::size_t wrapWidth(const std::vector<sv> &lines);

private:
    /// A line as read, without what loggers put around it.
    struct Cleaned
    {
        std::string text;
        std::int64_t line = 0;
    };
    std::vector<Cleaned> m_lines;
    std::size_t m_next = 0; ///< the next line to read
    OomLog m_log;
    std::deque<OomMessage> m_messages; ///< stable addresses for m_cur
    OomMessage *m_cur = nullptr;
    /// The message whose size asked for was too large to read: the next headline with a size
    /// is another message (with neither read, they cannot be told to be one).
    const OomMessage *m_tooLarge = nullptr;
    Block m_block = Block::None;
    bool m_lastWasField = false;
    enum class Field : std::uint8_t
    {
        None,
        Operator,
        Label,
        Shape
    } m_field = Field::None;
    std::optional<OomBuffer> m_buffer;
    /// Every figure a message printed for its request, to check them against each other.
    struct Request
    {
        std::int64_t bytes = 0;
        std::int64_t ulp = 0;
        std::int64_t line = 0;
    };
    std::unordered_map<const OomMessage *, std::vector<Request>> m_requests;

    /// The event a new headline belongs to: the current one unless its list is done or it
    /// already holds a different value for the same fact.
    OomMessage &event(std::int64_t lineNo, bool conflict = false);

    void closeBuffer();

    void problem(std::int64_t lineNo, std::string message);

    void line(const std::string &cleaned, std::int64_t lineNo);

    /// A line inside a block; false when the block has ended (the line is then read afresh).
    bool blockLine(sv body, std::int64_t lineNo);

    /// A listed size; a bare number is a cut one (XLA prints every size with its unit).
    void readBufferSize(OomBuffer &b, sv text, std::int64_t lineNo);

    /// An entry whose rank is not past the last one: a list that starts over (entry 1 after
    /// entry 4) is the next message's.
    bool startsOver(sv body) const;

    bool bufferLine(sv body, std::int64_t lineNo);

    /// Every `module_NNNN` in an announcing line, for the event it belongs to.
    static void moduleNames(sv body, OomMessage &m);

    /// The rank of a list entry's first line: TPU `10. Size: 384.00M`, GPU `Buffer 13:`.
    static std::optional<std::int64_t> entryRank(sv body, bool *tpu);

    /// A list entry outside a list: the next entry of the list a stray line interrupted (a
    /// logger's line between two entries), or the start of a fragment, a list whose headline
    /// is not in the text (pasted from the middle of a log).
    bool listEntry(sv body, std::int64_t lineNo);

    void headline(sv body, std::int64_t lineNo);

    /// Whether a line announces one of the TPU compiler's or runtime's messages (docs/FORMAT.md
    /// §4.1): out of memory in a memory space, the early abort, a program or buffer that could
    /// not be allocated, an XLA error code of those, the TensorCore/SparseCore check, or a
    /// program's usage line.
    static bool tpuWording(sv body);

    /// Whether the line at `m_next` goes on the paragraph `text`: the same message, broken by
    /// its author, a terminal or a tracker at another place than a fixed width (a logger such
    /// as `kubectl logs --timestamps` may put its prefix on every piece). Never a line that is
    /// blank, a list entry or a block's heading; a line
    /// that announces a message of its own only after a heading that ends with a colon
    /// (`E0101: RuntimeProgramAllocationFailure:` then `Error loading program …`).
    bool continuesParagraph(const std::string &text) const;

    /// A size after `key` in a TPU message, which prints every size with its unit ("18.54G",
    /// "528.72M", "0B"): a bare number is a size a line break cut ("(15" of "(15.75G)"), and
    /// so is a number a break left without its unit ("15.75" then "G)"): not read, and kept to
    /// be said when no reading of the paragraph has that figure whole (`field`).
    std::int64_t unitSize(std::int64_t &field, sv body, sv key, std::int64_t *ulp);
    /// Sizes a line break cut in one reading of a paragraph, with the figure each was for.
    std::vector<std::pair<const std::int64_t *, std::string>> m_cutSizes;

    /// A TPU message: its paragraph read whole, wherever its lines were broken.
    void tpuHeadline(sv first, std::int64_t lineNo);

    /// How two pieces of a paragraph join: at a space, glued (a number cut from its digits or
    /// its unit), or either (a word may have been cut or the break may have been at a space).
    enum class Join : std::uint8_t
    {
        Space,
        Glue,
        Either
    };
    static Join joinAt(const std::string &text, sv next, bool nextAtSpace);

    /// The figures of a TPU message's paragraph, each set only where a reading before did not.
    void readTpu(OomMessage &m, sv body);

    /// `%NAME = SHAPE opcode(…)`: the instruction, its shape as printed (a tuple's parentheses
    /// and a layout's braces balanced) and the shape's logical bytes.
    static void stackInstruction(sv text, OomMessage &m);

    /// XLA's error code and name (`E0101: RuntimeProgramAllocationFailure:`,
    /// xla/error/error_codes.h GetErrorCodeAndName).
    static void errorCode(sv body, OomMessage &m);

    /// The BFC allocator's summary and chunk lines: `Limit:`, `InUse:` (counts before XLA
    /// d51ac97e8d, human-readable sizes since) and the in-use chunks' `allocation_annotation
    /// xla.execute{executable=NAME} / …` tags (since 928f51ed8e).
    void bfcLine(sv body);

    static void addDoubt(OomMessage &m, std::string text);

    /// The figures a message prints for one request check each other: a byte count, the same
    /// size human-readable (±its rounding) and the BFC allocator's "(rounded to N)" (the
    /// request rounded up to a multiple of 256, bfc_allocator.cc RoundedBytes). A figure that
    /// disagrees was cut by a line break: the message keeps the human-readable one, with its
    /// rounding, or none, and says why.
    void crossCheck(OomMessage &m);

    void finish();
};

} // namespace bufferscope::oom_detail
