#pragma once

#include "analysis/PeakBreakdown.h"
#include "model/Dump.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

class MemoryTimeline;

/// What kind of memory a value is in a step of training or inference (docs/FORMAT.md Part A,
/// "What kind of memory it is"). The order is the order the report lists them in.
enum class Category : std::uint8_t
{
    Weights,         ///< the model's parameters, held as arguments (updated in place or not)
    GatheredWeights, ///< weights gathered, copied or cast inside the step
    OptimizerState,  ///< the optimizer's moments and step counters
    Gradients,       ///< computed by the backward pass for the update (or returned)
    Activations,     ///< defined in the forward pass and read in the backward: saved for it
    Inputs,          ///< arguments that are neither donated nor updated: a batch
    Outputs,         ///< what the module returns that is none of the above
    Temporaries,     ///< defined and used inside one pass
    Other            ///< constants, packing, and what the evidence does not decide
};
inline constexpr int kCategoryCount = 9;
/// "weights", "gathered_weights", "optimizer_state", … (the JSON and command-line names).
std::string_view categoryName(Category category);
/// "Weights", "Gathered weights", "Optimizer state", … (the names people read).
std::string_view categoryTitle(Category category);

/// Why a value has its category: the rule that decided it, data flow before names.
enum class CategoryReason : std::uint8_t
{
    DonatedReadForward,  ///< donated parameter read by the forward pass (`jvp(…)` scopes)
    DonatedReadByUpdate, ///< donated parameter read only by the update after the backward
    StepCounter,         ///< donated integer scalar of a training step
    UpdatedReadForward,  ///< parameter not donated, a new value of it returned, read forward
    UpdatedReadByUpdate, ///< parameter not donated, a new value of it returned, read by update
    WeightWithGradient,  ///< parameter read forward whose gradient (same shape) is returned
    NamedWeights,        ///< its pytree path's root says params (or a word says weights)
    NamedOptimizer,      ///< its pytree path says opt_state / mu / nu
    NamedInputs,         ///< its pytree path's root says batch / inputs
    NamedStep,           ///< its pytree path says step (`state.step`)
    NamedGradients,      ///< its pytree path's root says grads
    DifferentiatedInput, ///< its gradient is returned, but it is not named a weight as others are
    ReadOnlyArgument,    ///< parameter neither donated nor updated
    DonatedUnclear,      ///< donated, but read neither forward nor by an update
    WrittenOverDonated,  ///< the new value written in place over a donated parameter
    NewValueOfParameter, ///< returned, same shape as a parameter it is computed from
    GatheredFromWeights, ///< every operand is weights (all-gather, copy, convert, slice…)
    LoopCarried,         ///< in one buffer with a while loop's result, which decided it
    BackwardToUpdate,    ///< defined in the backward pass, read by the update
    BackwardReturned,    ///< defined in the backward pass and returned
    SavedForBackward,    ///< defined in the forward pass, read in the backward pass
    Recomputed,          ///< a forward op run again in the backward pass (remat)
    ForwardOnly,         ///< defined and last read in the forward pass
    BackwardOnly,        ///< defined and last read in the backward pass
    UpdateOnly,          ///< inside the update after the backward pass
    TemporaryValue,      ///< a temporary of a module without a backward pass
    Returned,            ///< returned by the module
    Constant,            ///< a constant allocation
    NoInstruction,       ///< the dump names no defining instruction
};

/// The category of every value of a dump, with the evidence (docs/FORMAT.md Part A).
/// Computed once per dump in one pass over its values and uses; O(V + uses).
struct ValueCategories
{
    std::vector<Category> category;     ///< per value
    std::vector<CategoryReason> reason; ///< per value
    /// Per value: the parameter allocation the decision points to (WrittenOverDonated,
    /// NewValueOfParameter), else kNone.
    std::vector<std::uint32_t> related;
    /// Parameters whose name decided against the data flow, by value: what the flow said.
    struct Disagreement
    {
        std::uint32_t value = 0;
        Category flow = Category::Other;
        CategoryReason reason = CategoryReason::NoInstruction;
    };
    std::vector<Disagreement> disagreements;
    /// Per allocation: the category holding most of its bytes (its parameter's for a parameter).
    std::vector<Category> allocation;

    /// Per instruction, where it runs: kForward (a `jvp(…)` scope), kBackward (a `transpose(…)`
    /// scope), kRecompute (a forward op scheduled after the backward pass began, or in a
    /// `rematted_computation` scope), kUpdate (neither, after the backward pass began), or 0.
    std::vector<std::uint8_t> pass;
    static constexpr std::uint8_t kForward = 1;
    static constexpr std::uint8_t kBackward = 2;
    static constexpr std::uint8_t kRecompute = 4;
    static constexpr std::uint8_t kUpdate = 8;

    /// Operands the outputs' decisions walked: each instruction's once, however many outputs
    /// it has (tst_limits bounds it by the module's uses).
    std::uint64_t operandsWalked = 0;

    bool training = false; ///< the module has a backward pass (`transpose(…)` ops)
    bool update = false;   ///< and ops of neither pass after it began: an update
    /// The first step of the backward pass: where the schedule turns from forward to backward
    /// work (ops that compute from data, not constants), -1 without one.
    std::int64_t firstBackwardStep = -1;
    std::int64_t recomputed = 0; ///< values of forward ops run again in the backward

    /// The evidence for one value, in a sentence ("a donated parameter the forward pass reads").
    std::string evidence(const Dump &dump, std::uint32_t value) const;
    /// The rule's sentence, without the parameter it may point to.
    static std::string_view reasonText(CategoryReason reason);

    static ValueCategories of(const Dump &dump);
};

/// One category's share of a module.
struct CategoryTotals
{
    Category category = Category::Other;
    /// Its share of what the device holds while the module runs (MemoryAnalysis::held: argument
    /// + output − alias + temp): its parameter and output allocations whole, and of the temp
    /// allocation the bytes it has live at the temp's busiest step.
    std::int64_t heldBytes = 0;
    std::int64_t peakBytes = 0;         ///< live at the peak step (the curve's counting)
    std::int64_t values = 0;            ///< how many values
    std::int64_t valueBytes = 0;        ///< their assigned bytes, summed
    std::vector<std::uint32_t> members; ///< all its values, in the dump's order
    /// Its kLargest largest values (assigned size, then id), largest first.
    std::vector<std::uint32_t> largest;
    static constexpr std::size_t kLargest = 64;
    /// The reasons behind it, most bytes first, each with its values' count.
    std::vector<std::pair<CategoryReason, std::int64_t>> reasons;
};

/// A change the user can make, and what it would save by our live-range model.
struct Lever
{
    enum class Kind : std::uint8_t
    {
        Remat,   ///< recompute activations in the backward pass instead of saving them
        Offload, ///< keep activations in host memory between the passes
        Donate,  ///< donate a parameter an output of its shape could be written over
        Dtype,   ///< hold f32 weights, activations and gradients in bf16
        Shard,   ///< shard weights and optimizer state over twice the devices
    };
    Kind kind = Kind::Remat;
    /// What it saves: of the peak of live bytes (Remat, Offload, Dtype, Shard) or of what the
    /// device holds (Donate).
    std::int64_t savingBytes = 0;
    std::int64_t newPeakBytes = -1;    ///< the peak the same sweep finds with it applied
    bool exact = false;                ///< exact by the dump, or an estimate (see text)
    std::vector<std::uint32_t> values; ///< the values it acts on, largest first
    std::int64_t flops = -1;           ///< Remat: what recomputing costs, where shapes allow
    std::string text;                  ///< what to do, and how the saving was worked out

    /// What the saving is a share of: the peak of live bytes, or what the device holds.
    enum class Whole : std::uint8_t
    {
        Peak,
        Held,
    };
    /// The one decision every renderer reads: Donate's saving is of what is held (its outputs
    /// no longer held beside the arguments), every other lever's of the peak.
    Whole whole() const { return kind == Kind::Donate ? Whole::Held : Whole::Peak; }

    static std::string_view kindName(Kind kind); ///< "remat", "offload", …
    /// `--json`'s name of the whole: "peak_bytes" or "held_bytes" (CategoryReport's keys).
    static std::string_view wholeKey(Whole whole);
};

/// Memory by category, and the levers with their savings, for one memory space.
struct CategoryReport
{
    std::int64_t peakStep = -1;
    std::int64_t peakBytes = 0;
    std::int64_t heldBytes = 0; ///< MemoryAnalysis::device.held()
    /// Of `other`'s held bytes, the temp allocation's that are not live at its busiest step.
    std::int64_t packingBytes = 0;
    std::array<CategoryTotals, kCategoryCount> totals;
    std::vector<Lever> levers; ///< largest saving first
    /// What is live at the peak as trees for the treemap: by category, then each value's JAX
    /// path (its op_name; a parameter's is its argument's pytree path) down to its instruction;
    /// and by JAX path alone. Bytes as the curve counts them (in-place sharing once).
    BreakdownNode categoryTree;
    BreakdownNode pathTree;
    bool training = false;
    bool update = false;
    std::int64_t recomputed = 0;

    const CategoryTotals &of(Category c) const { return totals[static_cast<std::size_t>(c)]; }
    /// The bytes a lever's saving is a share of: peakBytes or heldBytes (Lever::whole).
    std::int64_t wholeBytes(const Lever &lever) const
    {
        return lever.whole() == Lever::Whole::Held ? heldBytes : peakBytes;
    }

    struct Options
    {
        bool trees = true; ///< build categoryTree and pathTree (the window's treemap)
        /// The values live at the peak step with their counted bytes (Breakdown::live and
        /// Breakdown::countedBytes), when the caller has them; else found here.
        const std::vector<std::uint32_t> *live = nullptr;
        const std::vector<std::int64_t> *counted = nullptr;
    };
    static CategoryReport of(const Dump &dump, const MemoryTimeline &timeline,
                             const ValueCategories &categories);
    static CategoryReport of(const Dump &dump, const MemoryTimeline &timeline,
                             const ValueCategories &categories, const Options &options);
    /// The live-bytes curve of the primary memory space with lever `kind` applied, as the
    /// lever's saving was found (empty for Donate, whose saving is of what is held, and without
    /// live ranges). O(values + steps).
    static std::vector<std::int64_t> leverCurve(const Dump &dump, const MemoryTimeline &timeline,
                                                const ValueCategories &categories,
                                                Lever::Kind kind);
};

} // namespace bufferscope
