#!/usr/bin/env python3
"""Writes small instances of the attacks issue 61 names into tests/fuzz/seeds/, for the fuzzer
to mutate (each under the fuzzer's 64 KiB input limit):

- attack-wide-tuple.hlo.pb: a parameter that is a tuple of 1,500 parts, each its own value and
  allocation (the text XLA prints for it is quadratic in the parts);
- attack-tuple-uses.hlo.pb: 20 custom-calls that each take a 60-part tuple as all 20 of their
  operands (uses multiply: parts x calls x operands);
- attack-long-name.hlo.pb: a 4,000-character name on a 12-part tuple;
- attack-report-lists.txt: a memory-usage report whose second list names 250 allocations of the
  first in the opposite order;
- attack-capture.xplane.pb: a profiler capture of 40 modules;
- attack-fanout.hlo.pb: a conditional of 200 branches, each defining its own value, its merged
  value set passed down 20 bitcasts (issue 74, D17);
- attack-forwarded.hlo.pb: one parameter forwarded by 1,500 bitcasts that one custom-call reads;
- attack-empty-allocations.hlo.pb: 20,000 buffer allocations that are empty messages.

Run from anywhere: python3 tests/fuzz/make_attack_seeds.py (needs protoc for the protos).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "seeds")
PROTO = os.path.join(HERE, "..", "..", "core", "proto", "hlo_min.proto")
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
import make_capture  # noqa: E402


def encode(text):
    return subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto", "-I",
                           os.path.dirname(PROTO), PROTO], input=text.encode(),
                          capture_output=True, check=True).stdout


def wide(parts, name="p", users=0):
    """Entry parameter NAME: a tuple of `parts` f32[] parts; `users` custom-calls each take it
    as every one of their `users` operands."""
    element = "tuple_shapes { element_type: 11 }"
    tup = "shape { element_type: 13 " + " ".join([element] * parts) + " }"
    ins = [f'instructions {{ id: 1 name: "{name}" opcode: "parameter" {tup} parameter_number: 0 }}']
    ids = [1]
    for u in range(users):
        ins.append(f'instructions {{ id: {10 + u} name: "u{u}" opcode: "custom-call" '
                   'shape { element_type: 11 } ' + " ".join(["operand_ids: 1"] * users) +
                   ' custom_call_target: "x" }')
        ids.append(10 + u)
    out = ['hlo_module { name: "wide" entry_computation_name: "main" entry_computation_id: 1',
           f' computations {{ name: "main" id: 1 root_id: {ids[-1]} ' + " ".join(ins) + " }",
           " schedule { sequences { key: 1 value { " +
           " ".join(f"instruction_ids: {i}" for i in ids) + " } } }", "}", "buffer_assignment {",
           f" logical_buffers {{ id: 0 size: 8 defined_at {{ instruction_id: 1 }} }}",
           " buffer_allocations { index: 0 size: 8 is_entry_computation_parameter: true "
           "parameter_number: 0 assigned { logical_buffer_id: 0 offset: 0 size: 8 } }"]
    for k in range(parts):
        out.append(f" logical_buffers {{ id: {k + 1} size: 4 defined_at {{ instruction_id: 1 "
                   f"shape_index: {k} }} }}")
        out.append(f" buffer_allocations {{ index: {k + 1} size: 4 is_entry_computation_parameter: "
                   f"true parameter_number: 0 parameter_shape_index: {k} assigned {{ "
                   f"logical_buffer_id: {k + 1} offset: 0 size: 4 }} }}")
    for u in range(users):
        v = parts + 1 + u
        out.append(f" logical_buffers {{ id: {v} size: 4 defined_at {{ instruction_id: {10 + u} }} }}")
        out.append(f" buffer_allocations {{ index: {v} size: 4 maybe_live_out: true assigned {{ "
                   f"logical_buffer_id: {v} offset: 0 size: 4 }} }}")
    out.append("}")
    return encode("\n".join(out))


def module(instructions, computations="", values=(), extra=""):
    """A module whose entry computation `main` (id 1) holds `instructions` (text-format
    instruction messages, the last the root) and is scheduled in their order; `values` are
    (id, instruction id) pairs, each a 4-byte value in an allocation of its own (the first an
    entry parameter's)."""
    ids = [int(i.split("id: ", 1)[1].split()[0]) for i in instructions]
    out = ['hlo_module { name: "attack" entry_computation_name: "main" entry_computation_id: 1',
           f' computations {{ name: "main" id: 1 root_id: {ids[-1]} ' + " ".join(instructions) +
           " }", computations, " schedule { sequences { key: 1 value { " +
           " ".join(f"instruction_ids: {i}" for i in ids) + " } } }", "}", "buffer_assignment {"]
    for n, (v, at) in enumerate(values):
        kind = "is_entry_computation_parameter: true parameter_number: 0" if n == 0 else ""
        out.append(f" logical_buffers {{ id: {v} size: 4 defined_at {{ instruction_id: {at} }} }}")
        out.append(f" buffer_allocations {{ index: {n} size: 4 {kind} assigned {{ "
                   f"logical_buffer_id: {v} offset: 0 size: 4 }} }}")
    out += [extra, "}"]
    return encode("\n".join(out))


def instruction(i, name, opcode, operands=(), extra=""):
    return (f'instructions {{ id: {i} name: "{name}" opcode: "{opcode}" shape {{ element_type: 11 }} '
            + " ".join(f"operand_ids: {o}" for o in operands) + f" {extra} }}")


def fanout(branches, chain):
    cond = instruction(2, "c", "conditional", [1] * (branches + 1),
                       " ".join(f"called_computation_ids: {10 + b}" for b in range(branches)))
    body = [instruction(1, "p", "parameter", extra="parameter_number: 0"), cond]
    body += [instruction(3 + k, f"t{k}", "bitcast", [2 + k]) for k in range(chain)]
    base = 3 + chain
    comps = " ".join(
        f' computations {{ name: "b{b}" id: {10 + b} root_id: {base + 2 * b + 1} '
        + instruction(base + 2 * b, f"bp{b}", "parameter", extra="parameter_number: 0") + " "
        + instruction(base + 2 * b + 1, f"k{b}", "constant") + " }" for b in range(branches))
    values = [(0, 1)] + [(1 + b, base + 2 * b + 1) for b in range(branches)]
    return module(body, comps, values)


def forwarded(forwards):
    body = [instruction(1, "p", "parameter", extra="parameter_number: 0")]
    body += [instruction(2 + k, f"f{k}", "bitcast", [1]) for k in range(forwards)]
    body.append(instruction(2 + forwards, "c", "custom-call", range(2, 2 + forwards),
                            'custom_call_target: "x"'))
    return module(body, values=[(0, 1), (1, 2 + forwards)])


def empty_allocations(count):
    body = [instruction(1, "p", "parameter", extra="parameter_number: 0"),
            instruction(2, "c", "custom-call", [1], 'custom_call_target: "x"')]
    return module(body, values=[(0, 1), (1, 2)], extra=" buffer_allocations { }" * count)


def report(allocations):
    lines = [f"Total bytes used: {allocations * 1024} (x)", "", "Allocations sorted by size:", "",
             "cumulative_size; total_size - cumulative_size; allocation", "-" * 60]
    for k in range(allocations):
        lines.append(f" 1.00KiB(  0%); 1.00KiB; allocation {k}: size 1.00KiB, parameter {k}, "
                     "shape |f32[256]| at ShapeIndex {}:")
    lines += ["", "Allocations sorted by size with their values:"]
    for k in reversed(range(allocations)):
        lines.append(f"allocation {k}: size 1.00KiB, parameter {k}, shape |f32[256]| at "
                     "ShapeIndex {}:")
        lines.append("\t 1.00KiB(100%); 1.00KiB; 0; 1; f32[256]")
    return ("\n".join(lines) + "\n").encode()


def main():
    seeds = {
        "attack-wide-tuple.hlo.pb": wide(1500),
        "attack-tuple-uses.hlo.pb": wide(60, users=20),
        "attack-long-name.hlo.pb": wide(12, name="n" * 4000),
        "attack-report-lists.txt": report(250),
        "attack-fanout.hlo.pb": fanout(200, 20),
        "attack-forwarded.hlo.pb": forwarded(1500),
        "attack-empty-allocations.hlo.pb": empty_allocations(20000),
    }
    with open(os.path.join(HERE, "..", "data", "binary", "protos",
                           "module_0001.tpu_dynamic_slice.after_optimizations.hlo.pb"), "rb") as f:
        seeds["attack-capture.xplane.pb"] = make_capture.capture(40, f.read())
    for name, data in seeds.items():
        if len(data) > 65536:
            sys.exit(f"{name}: {len(data)} bytes, more than the fuzzer takes")
        with open(os.path.join(SEEDS, name), "wb") as f:
            f.write(data)
        print(name, len(data))


if __name__ == "__main__":
    main()
