#!/usr/bin/env python3
"""Writes a buffer-assignment dump of one very wide instruction, the shapes an attacker (or an
FSDP program) gives a module, for the tests and benchmarks of what an analysis costs per
operand and per output (issue 74):

  make_wide_module.py OUT-buffer-assignment.txt gather W R O
      W weights (entry parameters p0..p{W-1}, f32[256] each, in allocations of their own),
      each read R times by one combined `all-gather` (W x R operands) whose tuple result has
      O elements (f32[256] each, in one temp allocation), read by a fusion of the backward
      pass (op_name transpose(jvp(f))) that the module returns: a gradient of the weights'
      shape, so the weights are weights and the all-gather's values gathered weights. Live ranges: the weights 0 to the end, the all-gather's values from its step
      (W) to the fusion's (W + 1), the fusion's from W + 1 to the end (W + 2).
  make_wide_module.py OUT-buffer-assignment.txt parts N
      one parameter p0 read by a fusion whose tuple result has N parts (f32[256] each), every
      one returned (maybe-live-out, in allocations of their own).
  make_wide_module.py OUT-buffer-assignment.txt donate N
      N parameters p0..p{N-1} (f32[256], not donated) each read by its own fusion f{i}, whose
      value is output {i} of the module's tuple (in an output allocation of its own): N
      parameter and output pairs of one shape in separate buffers, each a donation finding.

The text is BufferAssignment::ToString and HloLiveRange::ToString's, as make_chain_module.py
writes it; each value's `from instruction:` is kept short (its operands elided), as the
analyses read the operands from the values' `uses:`.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_chain_module import human  # noqa: E402  tsl::strings::HumanReadableNumBytes

ELEM = "f32[256]{0}"
SIZE = 1024


def gather(w, r, o):
    t = ["BufferAssignment:"]
    index = 0
    for k in range(w):
        t += [f"allocation {index}: size {SIZE}, parameter {k}, shape |f32[256]| at ShapeIndex {{}}:",
              f" value: <{k} p{k} @0> (size={SIZE},offset=0): {ELEM}"]
        index += 1
    gid = w  # the all-gather's tuple value, then its elements
    t += [f"allocation {index}: size {SIZE * o}, preallocated-temp:"]
    for i in range(o):
        t.append(f" value: <{gid + 1 + i} all-gather{{{i}}} @0> (size={SIZE},offset={SIZE * i}): {ELEM}")
    index += 1
    fid = gid + 1 + o
    t += [f"allocation {index}: size {SIZE}, output shape is |f32[256]|, maybe-live-out:",
          f" value: <{fid} fusion @0> (size={SIZE},offset=0): {ELEM}",
          f"allocation {index + 1}: size {8 * o}, thread-local:",
          f" value: <{gid} all-gather{{}} @0> (size={8 * o},offset=0): (f32[256]{{0}}, ...)"]
    total = SIZE * w + SIZE * o + SIZE + 8 * o
    t += ["", f"Total bytes used: {total} ({human(total)})", "", "Used values:"]
    for k in range(w):
        t += [f"<{k} p{k} @0>", " positions:", f"  p{k}", " uses:"]
        t += [f"  all-gather, operand {k * r + j}" for j in range(r)]
        t.append(f" from instruction: %p{k} = {ELEM} parameter({k}), "
                 f"metadata={{op_name=\"params['w{k}']\"}}")
    t += [f"<{gid} all-gather{{}} @0>", " positions:", "  all-gather {}", " uses:",
          " from instruction: %all-gather = (f32[256]{0}, ...) all-gather(%p0, ...), "
          "replica_groups={}, dimensions={0}, metadata={op_name=\"jit(step)/jvp(f)/all_gather\"}"]
    for i in range(o):
        t += [f"<{gid + 1 + i} all-gather{{{i}}} @0>", " positions:", f"  all-gather {{{i}}}",
              " uses:", f"  fusion, operand {i}",
              " from instruction: %all-gather = (f32[256]{0}, ...) all-gather(%p0, ...), "
              "replica_groups={}, dimensions={0}, metadata={op_name=\"jit(step)/jvp(f)/all_gather\"}"]
    t += [f"<{fid} fusion @0>", " positions:", "  fusion", " uses:",
          " from instruction: %fusion = f32[256]{0} fusion(%get-tuple-element, ...), kind=kLoop, "
          "metadata={op_name=\"jit(step)/transpose(jvp(f))/mul\"}"]
    end = w + 2
    t += ["", "", f"HloLiveRange (max {end}):", "  InstructionSequence:"]
    t += [f"    {k}:p{k}" for k in range(w)] + [f"    {w}:all-gather", f"    {w + 1}:fusion"]
    t.append("  BufferLiveRange:")
    t += [f"    p{k}{{}}:0-{end}" for k in range(w)]
    t.append(f"    all-gather{{}}:{w}-{w + 1}")
    t += [f"    all-gather{{{i}}}:{w}-{w + 1}" for i in range(o)]
    t.append(f"    fusion{{}}:{w + 1}-{end}")
    return t


def parts(n):
    t = ["BufferAssignment:",
         f"allocation 0: size {SIZE}, parameter 0, shape |f32[256]| at ShapeIndex {{}}:",
         f" value: <0 p0 @0> (size={SIZE},offset=0): {ELEM}"]
    for i in range(n):
        t += [f"allocation {i + 1}: size {SIZE}, maybe-live-out:",
              f" value: <{i + 2} fusion{{{i}}} @0> (size={SIZE},offset=0): {ELEM}"]
    t += [f"allocation {n + 1}: size {8 * n}, output shape is |(f32[256], ...)|, maybe-live-out:",
          f" value: <1 fusion{{}} @0> (size={8 * n},offset=0): (f32[256]{{0}}, ...)"]
    total = SIZE * (n + 1) + 8 * n
    t += ["", f"Total bytes used: {total} ({human(total)})", "", "Used values:",
          "<0 p0 @0>", " positions:", "  p0", " uses:", "  fusion, operand 0",
          f" from instruction: %p0 = {ELEM} parameter(0), metadata={{op_name=\"x\"}}",
          "<1 fusion{} @0>", " positions:", "  fusion {}", " uses:",
          " from instruction: %fusion = (f32[256]{0}, ...) fusion(%p0), kind=kLoop, "
          "metadata={op_name=\"jit(step)/split\"}"]
    for i in range(n):
        t += [f"<{i + 2} fusion{{{i}}} @0>", " positions:", f"  fusion {{{i}}}", " uses:",
              " from instruction: %fusion = (f32[256]{0}, ...) fusion(%p0), kind=kLoop, "
              "metadata={op_name=\"jit(step)/split\"}"]
    t += ["", "", "HloLiveRange (max 2):", "  InstructionSequence:", "    0:p0", "    1:fusion",
          "  BufferLiveRange:", "    p0{}:0-2", "    fusion{}:1-2"]
    t += [f"    fusion{{{i}}}:1-2" for i in range(n)]
    return t


def donate(n):
    t = ["BufferAssignment:"]
    for i in range(n):
        t += [f"allocation {i}: size {SIZE}, parameter {i}, shape |f32[256]| at ShapeIndex {{}}:",
              f" value: <{i} p{i} @0> (size={SIZE},offset=0): {ELEM}"]
    for i in range(n):
        t += [f"allocation {n + i}: size {SIZE}, output shape is |f32[256]|, maybe-live-out:",
              f" value: <{n + i} f{i} @0> (size={SIZE},offset=0): {ELEM}"]
    t += [f"allocation {2 * n}: size {8 * n}, output shape is |(f32[256], ...)|, maybe-live-out:",
          f" value: <{2 * n} tuple @0> (size={8 * n},offset=0): (f32[256]{{0}}, ...)"]
    total = 2 * SIZE * n + 8 * n
    t += ["", f"Total bytes used: {total} ({human(total)})", "", "Used values:"]
    for i in range(n):
        t += [f"<{i} p{i} @0>", " positions:", f"  p{i}", " uses:", f"  f{i}, operand 0",
              f" from instruction: %p{i} = {ELEM} parameter({i})"]
    for i in range(n):
        t += [f"<{n + i} f{i} @0>", " positions:", f"  f{i}", f"  tuple {{{i}}}", " uses:",
              f"  tuple, operand {i}",
              f" from instruction: %f{i} = {ELEM} fusion(%p{i}), kind=kLoop"]
    t += [f"<{2 * n} tuple @0>", " positions:", "  tuple {}", " uses:",
          " from instruction: %tuple = (f32[256]{0}, ...) tuple(%f0, ...)"]
    end = 2 * n + 1
    t += ["", "", f"HloLiveRange (max {end}):", "  InstructionSequence:"]
    t += [f"    {i}:p{i}" for i in range(n)] + [f"    {n + i}:f{i}" for i in range(n)]
    t += [f"    {2 * n}:tuple", "  BufferLiveRange:"]
    t += [f"    p{i}{{}}:0-{n + i}" for i in range(n)]
    t += [f"    f{i}{{}}:{n + i}-{end}" for i in range(n)]
    t.append(f"    tuple{{}}:{2 * n}-{end}")
    return t


def main():
    out, kind = sys.argv[1], sys.argv[2]
    numbers = [int(a) for a in sys.argv[3:]]
    lines = {"gather": gather, "parts": parts, "donate": donate}[kind](*numbers)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
