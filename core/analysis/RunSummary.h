#pragma once

#include "analysis/Categories.h"
#include "analysis/MemoryAnalysis.h"
#include "model/Dump.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bufferscope {

/// A whole `--xla_dump_to` folder as one run: its modules grouped by the jit function they
/// compile (a *family*), what each family holds at most and in all, why a function was compiled
/// more than once, and the largest collective buffers (docs/FORMAT.md Part A, "A run").
///
/// A family is the modules of one function: `module_0294.jit_train_step.sm_8.0_gpu…` is a
/// compile of `jit_train_step`. Two functions can share a name (a `_kernel` in two files): a
/// family is a name and a number of arguments, and the summary says which names are shared.
/// Its compiles differ by their ENTRY signature (the parameters' shapes); a function compiled
/// again with the same signature was recompiled for something the signature does not show (a
/// static argument, the device, the options).
struct RunSummary
{
    /// One entry parameter as a signature names it.
    struct Parameter
    {
        std::string name;  ///< "Arg_1" (the number suffix dropped), or "parameter 1"
        std::string shape; ///< layout-free: "c128[9,80,2,11520]", "(f32[2], s32[])"
        bool operator==(const Parameter &) const = default;
    };
    /// What the summary needs of one module, read once (ModuleFacts::of).
    struct Collective
    {
        std::string instruction; ///< "all-gather-start.3"
        std::string opcode;      ///< as printed: "all-gather-start", "all-reduce"
        std::int64_t bytes = 0;  ///< its largest value's assigned bytes
        std::string shape;
        std::string source; ///< "model.py:412", empty when the metadata names none
    };
    struct Module
    {
        std::string file; ///< the path it was read from
        /// The capture (a host's profile) a member was read from; empty for a module's file.
        /// The same compile on two hosts of one profile is one compile, not a recompile.
        std::string host;
        /// Its name in that capture ("jit_step(12)"); with `host`, how it is opened again
        /// (Catalog::memberOf), never by splitting `file`.
        std::string member;
        std::string name;     ///< the module's name (ModuleNames::moduleName)
        std::string function; ///< the family: "jit_train_step"
        std::string number;   ///< "0294" (empty when the file name has none)
        bool read = false;    ///< false: unreadable (`error`)
        std::string error;
        std::int64_t held = -1; ///< argument + output - alias + temp
        std::int64_t total = 0;
        std::int64_t livePeak = -1; ///< the device's live bytes at their peak; -1 without ranges
        std::vector<Parameter> signature;
        std::string signatureFrom; ///< "before_optimizations", "optimized HLO" or "dump"
        /// When `signature` is the program's before SPMD partitioning (before_optimizations:
        /// global shapes) and the dump's own parameters differ from it: those, what each device
        /// holds (the shapes the module diff's causes name). Empty otherwise.
        std::vector<Parameter> deviceSignature;
        std::vector<Collective> collectives; ///< its largest, at most kCollectivesPerModule
        /// The buffer assignment itself, hashed (its allocations, and each value's name, shape,
        /// size, offset and live range): two compiles with one fingerprint are the same.
        std::uint64_t fingerprint = 0;
        std::size_t valueCount = 0;
        /// What the program is made of, for the run diff's rename search without reading the
        /// module again: the kSketchSize smallest hashes of its values' (opcode, shape kind)
        /// pairs, each pair's copies told apart (a bottom-k sketch of that multiset), ascending.
        /// Names, value ids and dimension sizes are left out, so a renamed or renumbered
        /// program, or one whose inputs changed size, keeps its sketch (RunSummary::likeness).
        std::vector<std::uint64_t> sketch;
        /// What kind of memory it holds (analysis/Categories): each category's held and peak
        /// bytes, in Category order; `categorized` false when they were not worked out.
        bool categorized = false;
        bool training = false;
        std::array<std::int64_t, kCategoryCount> categoryHeld{};
        std::array<std::int64_t, kCategoryCount> categoryPeak{};
        /// Fills the four fields above from a module's category report.
        void setCategories(const CategoryReport &report);
    };
    struct Signature
    {
        std::vector<Parameter> parameters;
        std::vector<std::size_t> modules; ///< into RunSummary::modules
    };
    struct Family
    {
        std::string name;          ///< the function's name
        std::size_t arguments = 0; ///< its number of arguments (its signatures' length)
        /// `name`, or `name (7 arguments)` when another family has the same name.
        std::string label;
        std::vector<std::size_t> modules; ///< into RunSummary::modules, by module number
        std::int64_t heldMax = 0;
        std::int64_t heldSum = 0;
        std::int64_t peakMax = -1;
        std::size_t largest = 0; ///< the module that holds the most (into RunSummary::modules)
        std::vector<Signature> signatures; ///< distinct, in the order first compiled
        std::string why; ///< what differs between its compiles, in words; empty for one
    };
    struct CollectiveRow
    {
        std::size_t module = 0; ///< into RunSummary::modules
        Collective collective;
    };

    static constexpr std::size_t kCollectivesPerModule = 16;
    static constexpr std::size_t kSketchSize = 32;

    std::vector<Module> modules;
    std::vector<Family> families;           ///< the most held first
    std::vector<CollectiveRow> collectives; ///< the largest first, at most `top`
    /// A sentence per function name that several families share: "two functions share the name
    /// `_kernel`: 7 and 6 arguments".
    std::vector<std::string> sharedNames;
    /// What the listing did not take, each with why (a link out of the folder, a dangling
    /// link, a loop, two captures' members at one address): said with the modules, never
    /// dropped unsaid. Set by whoever listed the modules (the catalog's problems).
    struct Skipped
    {
        std::string path;
        std::string why;
    };
    std::vector<Skipped> skipped;

    /// Families, signatures and the folder's largest collectives from the modules read.
    static RunSummary of(std::vector<Module> modules, std::size_t top = 20);

    /// `jit_train_step` of `module_0294.jit_train_step.sm_8.0_gpu_after_optimizations`;
    /// the module's own name when it does not follow XLA's file naming.
    static std::string functionOf(std::string_view moduleName);
    static std::string numberOf(std::string_view moduleName);
    /// A module's facts from its dump: figures, the dump's signature (its entry parameters'
    /// allocations) and its collectives.
    static Module of(const Dump &dump, const MemoryAnalysis &analysis, std::int64_t livePeak,
                     std::string file, std::string name);
    /// The ENTRY line of an HLO module's text (`ENTRY %main.4 (Arg_0.1: f32[8]{0}, Arg_1.2:
    /// s32[]) -> f32[8] {`): its parameters, names without their number suffix, shapes without
    /// layouts. Empty when `text` has no ENTRY line that parses.
    static std::vector<Parameter> entrySignature(std::string_view text);
    /// What differs between a family's signatures, in words: "Arg_1 changed shape:
    /// c128[9,80,2,11520] → c128[9,80,2,11776] (7 distinct signatures)".
    static std::string whyRecompiled(const Family &family);
    /// The family of `function` with `arguments` arguments, or null.
    const Family *family(const std::string &function, std::size_t arguments) const;
    /// A buffer assignment's fingerprint (Module::fingerprint).
    static std::uint64_t fingerprintOf(const Dump &dump);
    /// Module::sketch of a dump.
    static std::vector<std::uint64_t> sketchOf(const Dump &dump);
    /// How alike two modules' programs are, from their sketches: the estimated share of the
    /// two multisets of (opcode, shape kind) that they have in common (Jaccard), 0 to 1; 0 when
    /// either has no sketch. Linear in kSketchSize.
    static double likeness(const Module &x, const Module &y);
};

} // namespace bufferscope
