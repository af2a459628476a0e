#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// One buffer an out-of-memory message lists (GPU `Peak buffers:`, TPU `Largest program
/// allocations in hbm:`; docs/FORMAT.md Part B §4).
struct OomBuffer
{
    std::int64_t rank = 0;    ///< `Buffer N:` / `N. Size:` as printed (1-based)
    std::int64_t size = -1;   ///< bytes, rounded as printed; -1 when not printed
    std::int64_t sizeUlp = 0; ///< how far the printed size may be from the real one
    std::string shape;        ///< as printed, layout and TPU tiling included
    std::string operatorText; ///< the `Operator:` attributes, unwrapped
    std::string opType;       ///< from `Operator:` (C escapes undone)
    std::string opName;
    std::string sourceFile;
    std::int64_t sourceLine = -1;
    /// GPU `XLA Label:` is the opcode ("fusion"); TPU `XLA label:` starts with the
    /// instruction's name ("broadcast.6042.remat3 = broadcast(…)").
    std::string label;
    bool labelIsName = false; ///< `label` is an instruction name (TPU), not an opcode (GPU)
    std::string labelText;    ///< the whole TPU label text
    std::string kind;         ///< `Allocation type:`, or "entry parameter"
    bool entryParameter = false;
    std::int64_t unpadded = -1; ///< TPU `Unpadded size:`
    std::int64_t padding = -1;  ///< TPU `Extra memory due to padding:`
    std::string expansion;      ///< "32.0x expansion"
    /// How many times its unpadded size it takes: the factor XLA printed (`32.0x expansion`),
    /// else size / unpadded size, else size / (size − padding); 0 when none is known. The
    /// printed factor comes first: the sizes are rounded, so a ratio of them may disagree.
    double expansionFactor() const;
    std::int64_t line = 0; ///< where it starts in the log (1-based)
    /// The text ends inside this entry (no `Shape:` came), or its size was cut short: a bare
    /// number where XLA always prints a unit ("Size: 384" of "Size: 384.00M"). A cut size is
    /// not read (`size` -1); `sizeText` keeps what was printed.
    bool cut = false;
    std::string sizeText;
};

/// A named size an OOM message prints: a `BufferAssignment stats:` line, a TPU usage line.
struct OomFigure
{
    std::string name;        ///< "preallocated temp allocation", "HLO temp", "arguments"
    std::int64_t bytes = -1; ///< -1: "unknown size"
    std::int64_t ulp = 0;
    std::string note; ///< what follows the size: "(0.00%)", "(24.2% utilization, …)"
};

/// One out-of-memory event read from a log: the lines that belong to it, merged, and the same
/// text printed again (a log line and then the traceback) counted once.
struct OomMessage
{
    enum class Form : std::uint8_t
    {
        GpuAllocation,       ///< only allocator lines: what was asked for, nothing listed
        GpuBufferAssignment, ///< `BufferAssignment OOM Debugging.` with `Peak buffers:`
        Tpu,                 ///< `Ran out of memory in memory space hbm`, program allocations
    };
    Form form = Form::GpuAllocation;
    /// What failed (docs/FORMAT.md §4.1): an allocation at run time (a GPU allocator, TPU
    /// E0100), the compiler's check that the program fits (TPU E1000 and the early abort), a
    /// program that could not be loaded (TPU E0101), an instruction's scoped stack (TPU E1001,
    /// VMEM or SMEM), or no failure at all: a program's usage line (`XLA::TPU program HBM
    /// usage: X / Y`).
    enum class Failure : std::uint8_t
    {
        Allocation,
        CompileTime,
        ProgramLoad,
        Stack,
        Usage,
    };
    Failure failure = Failure::Allocation;
    /// The allocator says the caller retries and this is not a failure (TensorFlow's BFC
    /// `… The caller indicates that this is not a failure`); a usage line is none either.
    bool notAFailure = false;
    std::string errorCode;    ///< XLA's `E0101` (xla/error/error_codes.h), empty when none
    std::string errorName;    ///< its name, `RuntimeProgramAllocationFailure`
    std::int64_t line = 0;    ///< first line of the event (1-based)
    std::int64_t printed = 1; ///< how many times the log prints it

    /// What the failing allocation asked for: exact when the log prints the byte count
    /// (`… allocate 2110783616 bytes`, `cuMemAllocAsync failed to allocate N bytes`).
    std::int64_t requested = -1;
    std::int64_t requestedUlp = 0; ///< 0: exact
    std::int64_t roundedTo = -1;   ///< the BFC allocator's `(rounded to N)`
    bool hostMemory = false;       ///< `Out of host memory …`
    std::string executable;        ///< `[executable_name='jit_train_step']`, `xla.execute{…}`
    /// Where `executable` was read: "executable_name" (the error names it) or "xla.execute tag"
    /// (every in-use chunk the allocator lists is tagged with this one executable, XLA
    /// 928f51ed8e).
    std::string executableFrom;
    /// The executables the allocator's in-use chunks are tagged with (`allocation_annotation
    /// xla.execute{executable=NAME}`), in the order first seen; at most 16.
    std::vector<std::string> taggedExecutables;
    /// `module_NNNN` names in the event's own lines (a dump file's prefix quoted in the error)
    std::vector<std::string> modules;
    std::string device;         ///< "device ordinal 0", "on device 3"
    std::string memorySpace;    ///< TPU: "hbm"
    std::int64_t capacity = -1; ///< TPU `Used X of Y hbm`, BFC `Limit:`, "available HBM (Y)"
    std::int64_t capacityUlp = 0;
    std::int64_t used = -1; ///< TPU `Used X`
    std::int64_t usedUlp = 0;
    std::int64_t exceededBy = -1; ///< TPU `Exceeded hbm capacity by Z`
    std::int64_t exceededUlp = 0;
    std::int64_t inUse = -1; ///< BFC `InUse:` (exact before XLA d51ac97e8d)
    std::int64_t inUseUlp = 0;
    std::int64_t programRequirement = -1; ///< TPU `Program hbm requirement X:`
    std::int64_t programRequirementUlp = 0;
    /// TPU runtime: `There are X free` (program load, buffer allocation), `Y reservable`.
    std::int64_t freeBytes = -1;
    std::int64_t freeUlp = 0;
    std::int64_t reservable = -1;
    std::int64_t reservableUlp = 0;
    std::string program;   ///< `Error loading program 'NAME'`
    std::string hloModule; ///< the early abort's `HLO module: NAME.`
    /// A stack (scoped VMEM/SMEM) failure's instruction, its shape as printed, and that shape's
    /// logical bytes (before TPU tiling; -1 when the shape does not parse or is cut).
    std::string stackInstruction;
    std::string stackShape;
    std::int64_t stackBytes = -1;
    std::int64_t tempRequired = -1; ///< TPU 2026 early abort: "HLO temporaries (X)"
    std::int64_t tempUlp = 0;
    std::vector<OomFigure> stats;       ///< GPU `BufferAssignment stats:`
    std::vector<OomFigure> usage;       ///< TPU `Total hbm usage >= X:` lines
    std::vector<OomFigure> requirement; ///< TPU `Program hbm requirement X:` lines
    std::vector<OomBuffer> buffers;     ///< as listed, largest first
    std::vector<std::string> headlines; ///< the lines that announced it, cleaned (kHeadlines)
    std::size_t moreHeadlines = 0;      ///< announcing lines past those kept
    /// The most announcing lines a message keeps: a log may repeat one without end.
    static constexpr std::size_t kHeadlines = 8;
    /// Keeps `text` among the headlines (cut at 4 KiB), or counts it past kHeadlines.
    void addHeadline(std::string_view text)
    {
        if (headlines.size() < kHeadlines)
            headlines.emplace_back(text.substr(0, 4096));
        else
            ++moreHeadlines;
    }
    /// The text starts inside the message: no headline came before its list, which begins at
    /// entry `buffers.front().rank` (a fragment pasted from the middle of a log).
    bool startsCut = false;
    /// Figures the message prints more than once that disagree (a number cut by a line
    /// break): said in words; the figure kept is the one with its rounding, never exact.
    std::vector<std::string> doubts;

    /// The `BufferAssignment stats:` figure `name` ("preallocated temp allocation"), or null.
    const OomFigure *stat(std::string_view name) const;
    std::string_view platform() const { return form == Form::Tpu ? "TPU" : "GPU"; }
};

/// Every out-of-memory message in a log as users meet it: with timestamps, glog, Ray or MPI
/// prefixes, ANSI colours, carriage-return progress lines, tabs, and op_names hard-wrapped
/// across lines. Nothing is guessed: a size is kept with the rounding the text allows.
struct OomLog
{
    struct Problem
    {
        std::int64_t line = 0;
        std::string message;
    };
    std::vector<OomMessage> messages;
    std::vector<Problem> problems;
    /// The width the log was hard-wrapped at (a terminal, an issue tracker, `fold`) and read
    /// unwrapped; 0 when it was not.
    std::int64_t wrappedAt = 0;

    /// Whether `text` holds an out-of-memory message this reader knows: any phrase its
    /// headlines start a message at.
    static bool looksLike(std::string_view text);
    /// What a log is read for, for a message that says none was found: the one wording the
    /// window and `bufferscope oom` give.
    static constexpr const char *kWhatIsRead =
        "XLA's GPU \"Out of memory while trying to allocate\" and \"BufferAssignment OOM "
        "Debugging\" messages, and the TPU \"Ran out of memory\" and \"Program hbm "
        "requirement\" reports";
    static OomLog parse(std::string_view text);

    /// A log line without what loggers put around the message: ANSI escapes, the text before
    /// the last carriage return, and leading timestamps, glog/absl/TensorFlow headers,
    /// `(Worker pid=1, ip=…)` and `[1,0]<stderr>:` prefixes. Not trimmed otherwise.
    static std::string cleanLine(std::string_view raw);
    /// Sizes as OOM messages print them: "1.97GiB", "1004.50MiB", "16B", TPU "32.00G", "4.0K",
    /// "2110783616 bytes", "165425291480B". -1 when not a size.
    static std::int64_t parseSize(std::string_view text, std::int64_t *ulp = nullptr);
};

} // namespace bufferscope
