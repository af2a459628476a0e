#pragma once

// Sample dumps edited by hand so that a comparison has one exact cause (tst_causes, and the
// Compare window in tst_mainwindow).
#include "DumpText.h"

#include <string>
#include <utility>
#include <vector>

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

/// The edits that replace tpu_random_normal's broadcast_add_fusion (a loop fusion, u32[64], 512
/// bytes at offset 8192 of temp allocation 3, memory space 1, live 3-15, operand 0 of
/// select_multiply_fusion) by an iota of u32[256] (1024 bytes; allocation 3 grown 8704 → 9216)
/// at the same place: an instruction replaced by another that neither side matches. The total
/// is left to the caller.
inline std::vector<std::pair<std::string, std::string>> broadcastBecomesIota()
{
    return {{"allocation 3: size 8704, color 1,", "allocation 3: size 9216, color 1,"},
            {" value: <319 broadcast_add_fusion @1> (size=512,offset=8192): u32[64]",
             " value: <319 iota.5 @1> (size=1024,offset=8192): u32[256]"},
            {"<319 broadcast_add_fusion @1>\n positions:\n  broadcast_add_fusion\n",
             "<319 iota.5 @1>\n positions:\n  iota.5\n"},
            {"%broadcast_add_fusion = u32[64]{0:T(128)S(1)} fusion(), kind=kLoop, "
             "calls=%fused_computation.32,",
             "%iota.5 = u32[256]{0:T(128)S(1)} iota(), iota_dimension=0,"},
            {"fusion(%broadcast_add_fusion,", "fusion(%iota.5,"},
            {"    3:broadcast_add_fusion\n", "    3:iota.5\n"},
            {"    broadcast_add_fusion{}:3-15", "    iota.5{}:3-15"},
            {"    broadcast_add_fusion{}: 256 bytes", "    iota.5{}: 256 bytes"}};
}

} // namespace testutil
