#pragma once
// A value's positions, uses, producers and consumers on every sample, worked out by hand from
// the dump text: the value's `positions:` and `uses:` lists in "Used values", each instruction's
// step in `InstructionSequence`, the producers from the other values' `uses:` lines that name
// the defining instruction, and the consumers from the values whose defining instruction is one
// of the uses (docs/FORMAT.md Part B §12). Steps are sorted and unique; instructions outside the
// sequence have no step. Ids are the dump's value ids.

#include <cstdint>
#include <vector>

namespace testutil {

struct FlowFact
{
    const char *sample;
    const char *value; ///< as `report --value` takes it
    std::int64_t id;
    std::vector<std::int64_t> positionSteps;
    std::vector<std::int64_t> useSteps;
    std::vector<std::int64_t> producers; ///< value ids
    std::vector<std::int64_t> consumers; ///< value ids
};

inline const std::vector<FlowFact> &flowFacts()
{
    static const std::vector<FlowFact> facts = {
        // loop_gather_fusion: read by fusion.40 (36), fusion.38 (42), fusion.36 (48); it reads
        // p5.18.0 and p4.16.0.
        {"gpu_decoder_layer",
         "loop_gather_fusion",
         175,
         {34},
         {36, 42, 48},
         {203, 204},
         {177, 185, 193}},
        // A parameter also seen as `p` (step 17) and read by `call` (59).
        {"gpu_decoder_layer", "p5.18.0", 203, {12, 17}, {34, 59}, {}, {175}},
        // A tuple element passed on by get-tuple-element.5 (38).
        {"gpu_decoder_layer", "custom-call.5.0{0}", 179, {37, 38}, {39}, {177, 209}, {181}},
        // Six positions: wrapped_slice, bitcast.764.0, tuple, call, get-tuple-element.8,
        // tuple.292.0.
        {"gpu_decoder_layer",
         "wrapped_slice",
         199,
         {51, 54, 58, 59, 61, 65},
         {54, 58, 65},
         {195},
         {202, 220}},
        {"gpu_vllm_update_slice",
         "loop_dynamic_update_slice_fusion.27",
         471,
         {5},
         {6, 7},
         {470},
         {472, 473}},
        {"gpu_vllm_update_slice", "wrapped_slice", 472, {6}, {7}, {471}, {473}},
        {"gpu_vllm_update_slice",
         "loop_broadcast_dynamic_update_slice_fusion{0}",
         528,
         {61, 62, 68, 69, 70, 75},
         {68, 75},
         {526},
         {534, 537}},
        {"tpu_random_normal", "fusion.23{0}", 328, {5, 7, 9}, {9, 10, 15}, {325}, {330, 333}},
        {"tpu_random_normal", "Arg_0.1", 323, {1, 2}, {2, 4}, {}, {324, 325, 326}},
        {"tpu_random_normal", "xor.50", 332, {11}, {15}, {330, 331}, {333}},
        {"tpu_unstack", "slice_reduce_fusion{0}", 25, {1, 5, 6}, {6}, {23}, {29}},
        // Read by the four get-tuple-elements, which define no value.
        {"tpu_unstack", "slice_reduce_fusion{}", 24, {1}, {2, 3, 4, 5}, {23}, {}},
        // In the reduction's computation: neither `lhs` nor `add` is in the sequence.
        {"tpu_unstack", "lhs", 0, {}, {}, {}, {2}},
        {"tpu_unstack", "Arg_0.1", 23, {0}, {1}, {}, {24, 25, 26, 27, 28}},
        {"tpu_dynamic_slice", "Arg_0.1", 0, {0, 1}, {1, 6}, {}, {1, 2, 3}},
        {"tpu_dynamic_slice", "copy-start{0}", 2, {1, 6}, {6, 7}, {0}, {8}},
        {"tpu_dynamic_slice", "dynamic-slice.4", 8, {7}, {}, {2, 5, 7}, {}},
        {"tpu_dynamic_slice", "copy", 5, {5}, {7}, {4}, {8}},
    };
    return facts;
}

} // namespace testutil
