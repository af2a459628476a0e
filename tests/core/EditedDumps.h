#pragma once

// Sample dumps edited by hand so that a comparison has one exact cause (tst_causes, and the
// Compare window in tst_mainwindow).
#include "DumpText.h"

#include <string>

namespace testutil {

/// tpu_random_normal with a parameter 1, Arg_1.9 f32[64,32] (16384 bytes, live 0-15), whose
/// buffer the output select_multiply_fusion (15-16) is written into when `donated` (one
/// allocation, `parameter 1 … maybe-live-out`, the two touching at step 15 as an in-place
/// chain does), or which keeps its own buffer while the output gets a new one (allocation 7,
/// `maybe-live-out`) when not: what a lost `donate_argnums` looks like in a dump.
inline std::string withParameter1(bool donated)
{
    std::string t = readFile(samplePath("tpu_random_normal"));
    const std::string value =
        " value: <400 Arg_1.9 @0> (size=16384,offset=0): f32[64,32]{0,1:T(8,128)}\n";
    const std::string output =
        " value: <333 select_multiply_fusion @0> (size=16384,offset=0): f32[64,32]{0,1:T(8,128)}\n";
    if (donated) {
        t = replaceAll(
            t, "allocation 1: size 16384, output shape is |f32[64,32]|, maybe-live-out:\n",
            "allocation 1: size 16384, parameter 1, shape |f32[64,32]| at ShapeIndex {}, "
            "maybe-live-out:\n" +
                value);
    } else {
        t = replaceAll(
            t, "allocation 1: size 16384, output shape is |f32[64,32]|, maybe-live-out:\n" + output,
            "allocation 1: size 16384, parameter 1, shape |f32[64,32]| at ShapeIndex {}:\n" +
                value);
        t = replaceAll(t, "\nTotal bytes used: 92676 (90.5KiB)",
                       "allocation 7: size 16384, output shape is |f32[64,32]|, maybe-live-out:\n" +
                           output + "\nTotal bytes used: 109060 (106.5KiB)");
    }
    t = replaceAll(
        t, "\n\nHloLiveRange (max 16):",
        "<400 Arg_1.9 @0>\n positions:\n  Arg_1.9\n uses:\n  select_multiply_fusion, "
        "operand 3\n from instruction: %Arg_1.9 = f32[64,32]{0,1:T(8,128)} parameter(1)\n"
        "\n\nHloLiveRange (max 16):");
    t = replaceAll(t, "    select_multiply_fusion{}:15-16\n",
                   "    select_multiply_fusion{}:15-16\n    Arg_1.9{}:0-15\n");
    // Live at XLA's printed peak (step 15) too, at its logical 8192 bytes.
    t = replaceAll(t, "    xor.50{}: 4 bytes (cumulative: 8980 bytes)\n",
                   "    xor.50{}: 4 bytes (cumulative: 8980 bytes)\n"
                   "    Arg_1.9{}: 8192 bytes (cumulative: 17172 bytes)\n");
    return t;
}

} // namespace testutil
