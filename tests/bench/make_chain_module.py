#!/usr/bin/env python3
"""Writes one module twice, as XLA writes it both ways: the binary module dump (an xla.HloProto,
`--xla_dump_hlo_as_proto`) and the buffer-assignment text, for benchmarks and tests of reading
a large proto (parse/HloProtoDump) against reading the text.

The module is built so that every fact follows from HloLiveRange's rules by construction,
computed here and not by BufferScope: P entry parameters (steps 0..P-1; an entry parameter no
output aliases lives from 0 to the end), N fusions (fusion i at step P+i reads one or two
earlier instructions; its value lives from its step to the step of its last reader), and a
root tuple of the last K fusions (their values live to the end; the tuple's own from its step
to the end). Parameters and outputs get an allocation each, the rest share one temp allocation,
each at its own offset. The truths (every value's live range, the total) go to OUT.truths.json.

Usage: make_chain_module.py N OUT.hlo.pb OUT-buffer-assignment.txt [--seed S]   (needs protoc)
"""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(HERE, "..", "..", "core", "proto", "hlo_min.proto")


def human(n):
    """tsl::strings::HumanReadableNumBytes."""
    if n < 1024:
        return "%dB" % n
    units, u, value = "KMGTPE", 0, n
    while value >= 1024 * 1024:
        value //= 1024
        u += 1
    return "%.2f%siB" % (value / 1024.0, units[u])


def build(n, seed):
    rng = random.Random(seed)
    params, outputs = 8, 4
    ins = []  # (name, opcode, elements, operands by index)
    for k in range(params):
        ins.append((f"p{k}", "parameter", rng.choice([256, 1024, 4096]), [], k))
    for i in range(n):
        here = len(ins)
        reads = sorted({rng.randrange(max(0, here - 64), here) for _ in range(rng.choice([1, 2]))})
        ins.append((f"fusion.{i}", "fusion", rng.choice([64, 256, 1024, 16384]), reads, -1))
    outs = list(range(len(ins) - outputs, len(ins)))
    ins.append(("tuple", "tuple", 0, outs, -1))
    return ins, params, outs


def main():
    n = int(sys.argv[1])
    pb_path, txt_path = sys.argv[2], sys.argv[3]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    ins, params, outs = build(n, seed)
    end = len(ins)  # schedule end: one step per instruction
    root = len(ins) - 1
    users = {k: [] for k in range(len(ins))}
    for j, (_, _, _, reads, _) in enumerate(ins):
        for position, r in enumerate(reads):
            users[r].append((j, position))
    # HloLiveRange, by hand: start, end of each value (instruction k's value at {}).
    live = {}
    for k, (name, op, elems, reads, number) in enumerate(ins):
        if op == "parameter":
            live[k] = (0, end)
        elif k == root or k in outs:
            live[k] = (k, end)
        else:
            live[k] = (k, max([k] + [j for j, _ in users[k]]))
    size = {k: 4 * e if ins[k][1] != "tuple" else 8 * len(outs) for k, (_, _, e, _, _) in enumerate(ins)}

    # Allocations: each parameter, each output and the tuple alone; the rest in one temp.
    allocations = []  # (flags, [(value, offset, size)])
    for k in range(params):
        allocations.append(({"parameter": k}, [(k, 0, size[k])]))
    for k in outs:
        allocations.append(({"live_out": True}, [(k, 0, size[k])]))
    allocations.append(({"live_out": True, "output": True}, [(root, 0, size[root])]))
    temp, offset = [], 0
    for k in range(params, len(ins)):
        if k in outs or k == root:
            continue
        temp.append((k, offset, size[k]))
        offset += size[k]
    allocations.append(({"temp": True}, temp))
    total = sum(sum(s for _, _, s in members) if "temp" not in f else offset
                for f, members in allocations)

    shape = lambda k: "f32[%d]{0}" % ins[k][2] if ins[k][1] != "tuple" else \
        "(" + ", ".join("f32[%d]{0}" % ins[o][2] for o in outs) + ")"
    bare = lambda k: shape(k).replace("{0}", "")

    # -- the proto
    out = ["hlo_module {", '  name: "chain"', '  entry_computation_name: "main"',
           "  entry_computation_id: 1", "  computations {", '    name: "main"', "    id: 1",
           f"    root_id: {root + 1}"]
    for k, (name, op, elems, reads, number) in enumerate(ins):
        if op == "tuple":
            sh = "shape { element_type: 13 " + " ".join(
                "tuple_shapes { element_type: 11 dimensions: %d layout { minor_to_major: 0 } }"
                % ins[o][2] for o in outs) + " }"
        else:
            sh = "shape { element_type: 11 dimensions: %d layout { minor_to_major: 0 } }" % elems
        extra = f"parameter_number: {number}" if op == "parameter" else \
            'fusion_kind: "kLoop"' if op == "fusion" else ""
        out.append(f'    instructions {{ id: {k + 1} name: "{name}" opcode: "{op}" {sh} ' +
                   " ".join(f"operand_ids: {r + 1}" for r in reads) +
                   f' {extra} metadata {{ op_name: "jit(chain)/{name}" }} }}')
    out += ["  }", "  schedule { sequences { key: 1 value { " +
            " ".join(f"instruction_ids: {k + 1}" for k in range(len(ins))) + " } } }", "}",
            "buffer_assignment {"]
    for k in range(len(ins)):
        out.append(f"  logical_buffers {{ id: {k} size: {size[k]} defined_at {{ instruction_id: {k + 1} }} }}")
    for index, (flags, members) in enumerate(allocations):
        f = []
        if "parameter" in flags:
            f.append(f"is_entry_computation_parameter: true parameter_number: {flags['parameter']}")
        if flags.get("live_out"):
            f.append("maybe_live_out: true")
        asize = offset if flags.get("temp") else sum(s for _, _, s in members)
        out.append(f"  buffer_allocations {{ index: {index} size: {asize} {' '.join(f)} " +
                   " ".join(f"assigned {{ logical_buffer_id: {v} offset: {o} size: {s} }}"
                            for v, o, s in members) + " }")
    out.append("}")
    encoded = subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto", "-I",
                              os.path.dirname(PROTO), PROTO], input="\n".join(out).encode(),
                             capture_output=True, check=True).stdout
    with open(pb_path, "wb") as f:
        f.write(encoded)

    # -- the text XLA prints for it (BufferAssignment::ToString, HloLiveRange::ToString)
    def short(k):
        return f"<{k} {ins[k][0]}{'{}' if ins[k][1] == 'tuple' else ''} @0>"

    t = ["BufferAssignment:"]
    for index, (flags, members) in enumerate(allocations):
        head = f"allocation {index}: size {offset if flags.get('temp') else sum(s for _, _, s in members)}"
        if "parameter" in flags:
            head += f", parameter {flags['parameter']}, shape |{bare(members[0][0])}| at ShapeIndex {{}}"
        if flags.get("output"):
            head += f", output shape is |{bare(root)}|"
        if flags.get("live_out"):
            head += ", maybe-live-out"
        if flags.get("temp"):
            head += ", preallocated-temp"
        t.append(head + ":")
        for v, o, s in sorted(members):
            t.append(f" value: {short(v)} (size={s},offset={o}): {shape(v)}")
    t += ["", f"Total bytes used: {total} ({human(total)})", "", "Used values:"]
    for k, (name, op, elems, reads, number) in enumerate(ins):
        t += [short(k), " positions:", f"  {name}" + (" {}" if op == "tuple" else "")]
        if k in outs:
            t.append(f"  tuple {{{outs.index(k)}}}")
        t.append(" uses:")
        for j, position in users[k]:
            t.append(f"  {ins[j][0]}, operand {position}")
        operands = ", ".join("%" + ins[r][0] for r in reads)
        text = f"%{name} = {shape(k)} {op}({number if op == 'parameter' else operands})"
        if op == "fusion":
            text += ", kind=kLoop"
        t.append(f" from instruction: {text}, metadata={{op_name=\"jit(chain)/{name}\"}}")
    t += ["", "", f"HloLiveRange (max {end}):", "  InstructionSequence:"]
    t += [f"    {k}:{ins[k][0]}" for k in range(len(ins))]
    t.append("  BufferLiveRange:")
    t += [f"    {ins[k][0]}{{}}:{live[k][0]}-{live[k][1]}" for k in range(len(ins))]
    # XLA's peak moment: the first time the sum of live instructions' shape bytes is largest.
    events = sorted([(s, 0, k) for k, (s, e) in live.items()] + [(e + 1, 1, k) for k, (s, e) in live.items()])
    usage = peak = when = 0
    for time, is_end, k in events:
        usage += -size[k] if is_end else size[k]
        if usage > peak:
            peak, when = usage, time
    at = sorted((k for k, (s, e) in live.items() if s <= when <= e),
                key=lambda k: (-size[k], ins[k][0]))
    t.append(f"  Live ranges at {when} (peak):")
    cumulative = 0
    for k in at:
        cumulative += size[k]
        t.append(f"    {ins[k][0]}{{}}: {size[k]} bytes (cumulative: {cumulative} bytes)")
    with open(txt_path, "w") as f:
        f.write("\n".join(t) + "\n")
    with open(pb_path + ".truths.json", "w") as f:
        json.dump({"values": len(ins), "total_bytes": total, "peak_step": when,
                   "live": {str(k): v for k, v in live.items()}}, f)
    print(f"{pb_path}: {len(ins)} values, {len(encoded)} bytes; {txt_path}: "
          f"{os.path.getsize(txt_path)} bytes")


if __name__ == "__main__":
    main()
