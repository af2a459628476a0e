#!/usr/bin/env python3
"""Writes the out-of-memory logs the tests read, each made for a bundled sample dump
(tests/data/*.buffer-assignment.txt) in a form XLA prints when it runs out of memory
(docs/FORMAT.md, "Out-of-memory messages"), wrapped the way logs reach users: logger
prefixes, ANSI colours, tabs, carriage returns, hard-wrapped lines.

The expected readings are in tests/core/tst_oom.cpp, worked out by hand from these texts and
from the dumps' allocation and value lines. Run from this folder: python3 make_oom.py
"""

ESC = "\x1b"
RED = ESC + "[31;1m"
OFF = ESC + "[0m"


def glog(level, place, text):
    return f"{level}1125 10:01:02.123456   27487 {place}] {text}"


def tfstamp(level, place, text):
    return f"2026-11-25 10:01:02.123456: {level} {place}] {text}"


def wrap(line, width):
    return [line[i:i + width] for i in range(0, len(line), width)]


def gpu_block(wrap_at=None):
    """BufferAssignment::ToVerboseString for gpu_decoder_layer (its allocation lines summed
    by hand: parameters 653597956 B, outputs 277938208 B, temp 1311392 B, all 932847568 B)."""
    out = ["BufferAssignment OOM Debugging.",
           "BufferAssignment stats:",
           "             parameter allocation:  623.32MiB",
           "              constant allocation:         0B",
           "        maybe_live_out allocation:  265.06MiB",
           "     preallocated temp allocation:    1.25MiB",
           "  preallocated temp fragmentation:         0B (0.00%)",
           "                 total allocation:  889.63MiB",
           "Peak buffers:"]
    op = ('\t\tOperator: op_type="aten__as_strided" op_name="aten__as_strided" '
          'source_file="/usr/local/lib/python3.10/site-packages/torch/_higher_order_ops/'
          'auto_functionalize.py" source_line=54')
    out += ["\tBuffer 1:", "\t\tSize: 132.28MiB"]
    out += wrap(op, wrap_at) if wrap_at else [op]
    out += ["\t\tXLA Label: fusion", "\t\tShape: bf16[69353472]",
            "\t\t==========================", ""]
    out += ["\tBuffer 2:", "\t\tSize: 296.75MiB",
            "\t\tEntry Parameter Subshape: bf16[151936,1024]",
            "\t\t==========================", ""]
    out += ["\tBuffer 3:", "\t\tSize: 12.00MiB",
            "\t\tEntry Parameter Subshape: bf16[6144,1024]",
            "\t\t==========================", ""]
    out += ["\tBuffer 4:", "\t\tSize: 768.0KiB",
            '\t\tOperator: op_type="xla__cast" op_name="xla__cast" '
            'source_file="/usr/local/lib/python3.10/site-packages/torch/_ops.py" source_line=756',
            "\t\tXLA Label: fusion", "\t\tShape: bf16[128,3072]",
            "\t\t==========================", "", ""]
    return out


def write(name, lines):
    with open(name, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines) + "\n")


# GPU before 2024: the BFC allocator's lines, the error in red, the list with an op_name
# hard-wrapped at 100 columns, and the same error again in the Python traceback.
lines = [
    tfstamp("W", "external/tsl/tsl/framework/bfc_allocator.cc:482",
            "Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.25MiB "
            "(rounded to 1311488)requested by op "),
    tfstamp("I", "external/tsl/tsl/framework/bfc_allocator.cc:1100", "Stats: "),
    "Limit:                       933232640",
    "InUse:                       932000000",
    "MaxInUse:                    932100000",
    RED + glog("E", "pjrt_stream_executor_client.cc:2826",
               "Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying "
               "to allocate 1311392 bytes.") + OFF,
] + gpu_block(wrap_at=100) + [
    "Traceback (most recent call last):",
    '  File "train.py", line 57, in <module>',
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
    "allocate 1311392 bytes.",
] + gpu_block()
write("gpu-bfc-decoder.log", lines)

# GPU 2024-26: one line, Ray's prefix, a progress bar rewritten with carriage returns before it.
write("gpu-oneline-ray.log", [
    "(RayTrainWorker pid=2211, ip=10.0.0.5) step 1/100\rstep 2/100\rstep 3/100",
    "(RayTrainWorker pid=2211, ip=10.0.0.5) " + glog(
        "E", "pjrt_stream_executor_client.cc:3000",
        "Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to "
        "allocate 1311392 bytes. [tf-allocator-allocation-error=''] "
        "[executable_name='jit_decoder_layer']"),
])

# GPU with the async allocator: the exact size, which two allocations of the module share.
write("gpu-async-twins.log", [
    "2026-11-25T10:01:02.123Z " + glog("E", "gpu_cudamallocasync_allocator.cc:246",
                                       "cuMemAllocAsync failed to allocate 138706944 bytes: "
                                       "CUDA error: out of memory (CUDA_ERROR_OUT_OF_MEMORY)"),
])

# GPU one line without the exact size: nothing is chosen by a rounded number.
write("gpu-oneline-rounded.log", [
    "[rank0]: XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
    "1.25MiB. [tf-allocator-allocation-error=''] [executable_name='jit_decoder_layer']",
])

# TPU before 2026 for tpu_unstack, under an MPI prefix.
mpi = "[1,0]<stderr>:"
write("tpu-hbm-unstack.log", [mpi + line for line in [
    "Compilation failure: Ran out of memory in memory space hbm. Used 17.23G of 15.48G hbm. "
    "Exceeded hbm capacity by 1.75G.",
    "",
    "Total hbm usage >= 17.23G:",
    "    reserved        528.00M",
    "    program          16.71G",
    "    arguments           1.0K",
    "",
    "Output size 2.5K; shares 0B with arguments.",
    "",
    "Program hbm requirement 16.71G:",
    "    global            2.36M",
    "    scoped            3.88M",
    "    HLO temp         16.70G (60.9% utilization: Unpadded (9.40G) Padded (15.44G), 0.0% "
    "fragmentation (5.52M))",
    "",
    "  Largest program allocations in hbm:",
    "",
    "  1. Size: 1.0K",
    "     Shape: u32[4,2]{0,1:T(2,128)}",
    "     Unpadded size: 32B",
    "     Extra memory due to padding: 992B (32.0x expansion)",
    "     XLA label: Arg_0.1 = parameter(0)",
    "     Allocation type: program argument",
    "     ==========================",
    "",
    "  2. Size: 512B",
    '     Operator: op_name="jit(unstack)/slice"',
    "     Shape: u32[2]{0:T(128)}",
    "     Unpadded size: 8B",
    "     Extra memory due to padding: 504B (64.0x expansion)",
    "     XLA label: slice_reduce_fusion = fusion(Arg_0.1), kind=kLoop, calls=%fused",
    "     Allocation type: HLO temp",
    "     ==========================",
    "",
    "  3. Size: 32B",
    "     Shape: (u32[2]{0:T(128)}, u32[2]{0:T(128)}, u32[2]{0:T(128)}, u32[2]{0:T(128)})",
    "     XLA label: %tuple.10 = (u32[2]{0:T(128)}, u32[2]{0:T(128)}, u32[2]{0:T(128)}, "
    "u32[2]{0:T(128)}) tuple(get-tuple-element, get-tuple-element.1, get-tuple-element.2, "
    "get-tuple-element.3)",
    "     Allocation type: HLO temp",
    "     ==========================",
    "",
    "  4. Size: 16B",
    "     Shape: u32[4]{0}",
    "     XLA label: fusion.999.remat2 = fusion(Arg_0.1), kind=kLoop",
    "     Allocation type: HLO temp",
    "     ==========================",
]])

# TPU since 2026-05: the early abort, with colours.
write("tpu-early-abort.log", [
    RED + "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory on HBM, the total "
    "memory required for HLO temporaries (18.54G) exceeds available HBM (15.75G)." + OFF,
])

# GPU since 2026-07 (XLA 2fa50644ad, 928f51ed8e, d51ac97e8d): the request human-readable with
# the allocator and device named, the allocator's stats human-readable, and every in-use chunk
# tagged with the executable that allocated it. 1311392 B asked for is 1.25MiB; the BFC
# allocator rounds it up to a multiple of 256, 1311488; its limit 933232640 B is 890.00MiB and
# 932000000 B in use is 888.82MiB.
write("gpu-2026-tagged.log", [
    tfstamp("W", "external/xla/xla/tsl/framework/bfc_allocator.cc:599",
            "Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.25MiB "
            "(rounded to 1311488) from the high end requested by op "),
    tfstamp("I", "external/xla/xla/tsl/framework/bfc_allocator.cc:1430",
            "InUse at 7f2a4c000000 of size 653598208 tag 0 next 1"),
    tfstamp("I", "external/xla/xla/tsl/framework/bfc_allocator.cc:1430",
            "InUse at 7f2a72f5f100 of size 277938432 tag 0 allocation_annotation "
            "xla.execute{executable=jit_decoder_layer} / xla.buffer{kind=live_out, "
            "allocation_index=1, requested_bytes=277938208, memory_space=0} next 2"),
    tfstamp("I", "external/xla/xla/tsl/framework/bfc_allocator.cc:1460", "Stats: "),
    "Limit:                      890.00MiB",
    "InUse:                      888.82MiB",
    "MaxInUse:                   888.90MiB",
    glog("E", "pjrt_stream_executor_client.cc:2826",
         "Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to "
         "allocate 1.25MiB with allocator GPU_0_bfc on device 0."),
])

# A TPU list pasted from its middle (entries 3 and 4 of tpu-hbm-unstack.log), under glog
# prefixes, with a logger line between the two entries: no headline, read for what it holds.
frag = [
    "  3. Size: 32B",
    "     Shape: (u32[2]{0:T(128)}, u32[2]{0:T(128)}, u32[2]{0:T(128)}, u32[2]{0:T(128)})",
    "     XLA label: %tuple.10 = (u32[2]{0:T(128)}, u32[2]{0:T(128)}, u32[2]{0:T(128)}, "
    "u32[2]{0:T(128)}) tuple(get-tuple-element, get-tuple-element.1, get-tuple-element.2, "
    "get-tuple-element.3)",
    "     Allocation type: HLO temp",
    "     ==========================",
]
write("tpu-fragment-glog.log",
      [glog("E", "tpu_compiler.cc:1021", line) for line in frag] +
      [glog("I", "tpu_compile_op.cc:88", "Compilation cache: 3 entries")] +
      [glog("E", "tpu_compiler.cc:1021", line) for line in [
          "  4. Size: 16B",
          "     Shape: u32[4]{0}",
          "     XLA label: fusion.999.remat2 = fusion(Arg_0.1), kind=kLoop",
          "     Allocation type: HLO temp",
          "     ==========================",
      ]])

# A GPU list pasted from Buffer 3 of gpu-bfc-decoder.log and cut inside Buffer 4's size
# ("768.0KiB" left as "768"): the entry is kept, its size not read.
write("gpu-fragment-cut.log", [
    "\tBuffer 3:",
    "\t\tSize: 12.00MiB",
    "\t\tEntry Parameter Subshape: bf16[6144,1024]",
    "\t\t==========================",
    "",
    "\tBuffer 4:",
    "\t\tSize: 768",
])

# --- The TPU wordings of 2026 (docs/FORMAT.md §4.1), as XLA's error pages and users' pastes
# print them (issue 59). Each one twice: on one line, and broken where an author or a tracker
# broke it. The figures are read by hand in tst_oom.cpp.

# The early abort of libtpu built after 2026-05-22: the temporaries alone exceed the HBM.
write("tpu-2026-early-abort-named.log", [
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory on HBM, the "
    "total memory required for HLO temporaries (98.58G) exceeds available HBM (94.74G). HLO "
    "module: jit_fwd_bwd.",
])
write("tpu-2026-early-abort-broken.log", [
    "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory on HBM, the total memory",
    "required for HLO temporaries (161.94G) exceeds available HBM (94.74G).",
    "HLO module: jit__update_step.",
])

# E1000 CompileTimeHbmOom (xla/error/error_codes.h), broken after "memory space" and "94.75G".
write("tpu-2026-e1000-broken.log", [
    "RESOURCE_EXHAUSTED: E1000: CompileTimeHbmOom: XLA:TPU compile permanent error. Ran out of "
    "memory in memory space",
    "hbm. Used 126.45G of 94.75G",
    "hbm. Exceeded hbm capacity by 31.70G.",
])
# Its other wording, TensorCore and SparseCore counted apart (docs/errors/error_1000.md).
write("tpu-2026-e1000-sparsecore.log", [
    "RESOURCE_EXHAUSTED: TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G, "
    "exceeding available bytes: 95.74G",
])

# E0101 RuntimeProgramAllocationFailure: a program that could not be loaded; the bare heading
# alone says no figure.
write("tpu-2026-program-load.log", [
    "RESOURCE_EXHAUSTED: E0101: RuntimeProgramAllocationFailure: Error loading program "
    "'jit__forward':",
    "Attempting to allocate 1.13G. That was not possible. There are 528.72M free.",
])
write("tpu-2026-program-reserve.log", [
    "XlaRuntimeError: RESOURCE_EXHAUSTED: Error loading program 'jit_embedding_pipeline_step_fn'"
    ": Attempting to reserve 29.49G at the bottom of memory. That was not possible. There are "
    "147.64M free, 0B reserved, and 147.64M reservable. Scope: unknown..: while running replica "
    "0 and partition 34 of a replicated computation (other replicas may have failed as well).",
])
write("tpu-2026-program-bare.log", [
    "RESOURCE_EXHAUSTED: E0101: RuntimeProgramAllocationFailure:",
])
# E0100 RuntimeBufferAllocationFailure: a buffer at run time.
write("tpu-2026-buffer.log", [
    "ValueError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate "
    "8.00M. That was not possible. There are 6.43M free.; (0x0x1_HBM0)",
])

# E1001 CompileTimeScopedVmemOom: an instruction's stack in VMEM.
write("tpu-2026-vmem-stack.log", [
    "JaxRuntimeError: RESOURCE_EXHAUSTED: E1001: CompileTimeScopedVmemOom:",
    "Ran out of memory in memory space vmem while allocating on stack for %kv_cache_update.1 = "
    "bf16[710080,64,128]{2,1,0:T(8,128)(2,1)} custom-call(%get-tuple-element.18273, %bitcast.8695),"
    " custom_call_target=\"tpu_custom_call\"",
    "Scoped allocation with size 18.00M and limit 16.00M exceeded scoped vmem limit by 2.00M.",
])

# A program's usage after it compiled: no failure, its figures.
write("tpu-2026-usage.log", [
    "(pid=, ip=10.68.3.4) 5] XLA::TPU program HBM usage: 52.5K / 31.25G",
    "(pid=, ip=10.68.9.4) :2152] XLA::TPU program VMEM usage: 141.0K / 128.00M",
])

# TensorFlow's BFC allocator: a retry that is not a failure, then the failure.
write("gpu-bfc-not-a-failure.log", [
    tfstamp("W", "tensorflow/core/common_runtime/bfc_allocator.cc:296",
            "Allocator (GPU_0_bfc) ran out of memory trying to allocate 4.64GiB with "
            "freed_by_count=0. The caller indicates that this is not a failure, but this may "
            "mean that there could be performance gains if more memory were available."),
    tfstamp("W", "tensorflow/core/common_runtime/bfc_allocator.cc:474",
            "Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.00GiB (rounded to "
            "2147483648)requested by op MatMul"),
])

# A Ray log pasted from GitHub: each line its number glued to what is left of the colour codes.
write("gpu-ray-glued.log", [
    f"{n}[2m[36m(MeshHostWorker pid=489)[0m {text}" for n, text in enumerate([
        "BufferAssignment OOM Debugging.",
        "BufferAssignment stats:",
        "             parameter allocation:  623.32MiB",
        "              constant allocation:         0B",
        "        maybe_live_out allocation:  265.06MiB",
        "     preallocated temp allocation:    1.25MiB",
        "                 total allocation:  889.63MiB",
    ], start=71)
])
