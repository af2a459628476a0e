#!/usr/bin/env python3
"""Writes a training step as XLA writes its module dump (an xla.HloProto with its buffer
assignment, `--xla_dump_hlo_as_proto`), for the tests of memory by category and its levers.

The step is JAX's shape of one: `value_and_grad` of an L-layer tanh MLP on a batch, then an
Adam update with the weights, both moments and the step counter donated (updated in place).

  forward  (op_name jit(train_step)/jvp(model)/…)      a_k = dot(h_{k-1}, w_k); h_k = tanh(a_k)
                                                       loss = reduce(a_L²)
  backward (op_name jit(train_step)/transpose(jvp(model))/…)
                                                       g_L = 2·a_L; for k = L…1:
                                                       dw_k = dot(h_{k-1}, g_k);
                                                       gh_{k-1} = dot(g_k, w_k);
                                                       g_{k-1} = gh_{k-1}·(1 − h_{k-1}²)
  update   (op_name jit(train_step)/…, neither scope)  count' = count + 1; per layer, last first:
                                                       m' = f(m, dw), v' = f(v, dw),
                                                       w' = f(w, m', v', count')

Parameters are unnamed (no op_name), as in a MaxText step: the categories must come from the
data flow. With --remat K the activation h_K is not kept: the forward pass drops it and the
backward pass recomputes it (dot, tanh) just before its first backward read, in a
`rematted_computation` scope.

Each value has its own offset in one temp allocation (no reuse), each parameter and each
output its own allocation, so every live range and every byte follows from HloLiveRange's
rules by hand; the tests write those figures out.

With --copy-weights each forward dot reads a copy of its weights made just before it (as a
cast or an FSDP all-gather would be): gathered weights.

With --traps the step carries what real steps put in the way of a classifier, each a rule
of docs/FORMAT.md Part A:
  - an operand-free `partition-id` and a `constant`, and a zero cotangent (`broadcast` of the
    constant), in the backward scope, scheduled right after the parameters (XLA schedules
    such ops anywhere): the backward pass still begins at g_L;
  - each weight reaches its forward dot through an FSDP `all-gather`, an f32→bf16-style
    `convert` outside any jvp scope, a layout `copy` and a `bitcast` (four moves; the last two
    without an op_name): the weights are read forward, the moves are gathered weights;
  - x is differentiated too: its gradient gx = dot(g_1, w_1) is returned (not donated, not
    updated): a differentiated input, not a weight.
With --names the parameters carry pytree paths as JAX writes them: params['dense_k']['kernel'],
opt_state[0].mu[…], opt_state[0].nu[…], state.step, and x is inputs['weights'] (a batch's
sample weights: the word does not make it a weight); --misnamed-x names x params['embed'], a
name the data flow disagrees with. --share-h1 adds h1c, a forward copy of h1 that XLA placed
over h1's own bytes, read by dw2 where g1 reads h1: two activations, one buffer.

Usage: make_training_step.py OUT.hlo.pb [--layers L] [--batch B] [--width D] [--remat K]
       [--copy-weights] [--traps] [--names] [--misnamed-x] [--share-h1]   (needs protoc)
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(HERE, "..", "..", "core", "proto", "hlo_min.proto")
F32, S32, TUPLE = 11, 4, 13


def arg(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    out_path = sys.argv[1]
    layers, batch, width = arg("--layers", 3), arg("--batch", 512), arg("--width", 256)
    remat = arg("--remat", 0)
    copy_weights = "--copy-weights" in sys.argv
    fwd, bwd, upd = "jit(train_step)/jvp(model)/", "jit(train_step)/transpose(jvp(model))/", \
        "jit(train_step)/"
    ins = []  # dicts: name, op, dims (None: scalar s32, list: f32 dims), operands, op_name, ...

    def add(name, op, dims, operands=(), op_name=None, **extra):
        ins.append(dict(name=name, op=op, dims=dims, operands=list(operands), op_name=op_name,
                        **extra))
        return len(ins) - 1

    traps, names = "--traps" in sys.argv, "--names" in sys.argv

    def path(text):
        return text if names else None

    W, A = [width, width], [batch, width]
    w = [add(f"w{k}", "parameter", W, op_name=path(f"params['dense_{k}']['kernel']"), number=k - 1)
         for k in range(1, layers + 1)]
    m = [add(f"m{k}", "parameter", W, op_name=path(f"opt_state[0].mu['dense_{k}']['kernel']"),
             number=layers + k - 1) for k in range(1, layers + 1)]
    v = [add(f"v{k}", "parameter", W, op_name=path(f"opt_state[0].nu['dense_{k}']['kernel']"),
             number=2 * layers + k - 1) for k in range(1, layers + 1)]
    count = add("count", "parameter", None, op_name=path("state.step"), number=3 * layers)
    x = add("x", "parameter", A,
            op_name="params['embed']" if "--misnamed-x" in sys.argv else path("inputs['weights']"), number=3 * layers + 1)
    donated = w + m + v + [count]
    if traps:
        add("pid", "partition-id", None, [], bwd + "partition_id")
        zero = add("zero", "constant", None, [], bwd + "broadcast_in_dim")
        add("zeros", "broadcast", A, [zero], bwd + "broadcast_in_dim")

    share, shared = "--share-h1" in sys.argv, {}  # shared: value -> the value it sits on
    shared_of = {}  # what a dot of the backward reads instead (h1 -> h1c)
    h, a = {0: x}, {}
    for k in range(1, layers + 1):
        weight = w[k - 1]
        if copy_weights:
            weight = add(f"wc{k}", "copy", W, [w[k - 1]], fwd + "copy")
        if traps:
            weight = add(f"wg{k}", "all-gather", W, [weight], upd + "all_gather")
            weight = add(f"wb{k}", "convert", W, [weight], upd + "convert_element_type")
            weight = add(f"wl{k}", "copy", W, [weight])
            weight = add(f"wt{k}", "bitcast", W, [weight])
        a[k] = add(f"a{k}", "dot", A, [h[k - 1], weight], fwd + "dot_general", dot=(1, 0))
        if k < layers:
            h[k] = add(f"h{k}", "fusion", A, [a[k]], fwd + "tanh")
        if k == 1 and share:
            # h1c: a copy of h1 that XLA placed over h1's own bytes (one buffer, two values
            # live at once); dw2 reads it, g1 reads h1.
            shared[add("h1c", "copy", A, [h[1]], fwd + "copy")] = h[1]
    loss = add("loss", "fusion", [], [a[layers]], fwd + "reduce_sum")
    shared_of.update({on: c for c, on in shared.items()})
    g = {layers: add(f"g{layers}", "fusion", A, [a[layers]], bwd + "mul")}
    dw = {}
    for k in range(layers, 0, -1):
        prev = h[k - 1]
        if k - 1 == remat and remat > 0:
            ra = add(f"ra{remat}", "dot", A, [h[remat - 1], w[remat - 1]],
                     bwd + "rematted_computation/dot_general", dot=(1, 0))
            prev = add(f"rh{remat}", "fusion", A, [ra], bwd + "rematted_computation/tanh")
        dw[k] = add(f"dw{k}", "dot", W, [shared_of.get(prev, prev), g[k]], bwd + "dot_general",
                    dot=(0, 0))
        if k > 1:
            gh = add(f"gh{k - 1}", "dot", A, [g[k], w[k - 1]], bwd + "dot_general", dot=(1, 1))
            g[k - 1] = add(f"g{k - 1}", "fusion", A, [gh, prev], bwd + "mul")
    gx = add("gx", "dot", A, [g[1], w[0]], bwd + "dot_general", dot=(1, 1)) if traps else None
    count2 = add("count_new", "fusion", None, [count], upd + "add")
    new = {}
    for k in range(layers, 0, -1):
        m2 = add(f"m{k}_new", "fusion", W, [m[k - 1], dw[k]], upd + "add")
        v2 = add(f"v{k}_new", "fusion", W, [v[k - 1], dw[k]], upd + "add")
        w2 = add(f"w{k}_new", "fusion", W, [w[k - 1], m2, v2, count2], upd + "sub")
        new[m[k - 1]], new[v[k - 1]], new[w[k - 1]] = m2, v2, w2
    new[count] = count2
    outs = [loss] + [new[p] for p in donated] + ([gx] if traps else [])
    root = add("root", "tuple", "tuple", outs)

    def size(i):
        d = ins[i]["dims"]
        if d == "tuple":
            return 8 * len(outs)
        if d is None:
            return 4
        n = 4
        for e in d:
            n *= e
        return n

    def shape(i):
        d = ins[i]["dims"]
        if d == "tuple":
            return "shape { element_type: %d %s }" % (TUPLE, " ".join(
                "tuple_shapes { %s }" % shape(o)[len("shape { "):-2] for o in outs))
        if d is None:
            return "shape { element_type: %d }" % S32
        return "shape { element_type: %d %s %s }" % (
            F32, " ".join("dimensions: %d" % e for e in d),
            "layout { %s }" % " ".join("minor_to_major: %d" % k
                                       for k in reversed(range(len(d)))) if d else "")

    lines = ["hlo_module {", '  name: "jit_train_step"', '  entry_computation_name: "main"',
             "  entry_computation_id: 1", "  computations {", '    name: "main"', "    id: 1",
             f"    root_id: {root + 1}"]
    for i, d in enumerate(ins):
        extra = ""
        if d["op"] == "parameter":
            extra = f"parameter_number: {d['number']}"
        elif d["op"] == "fusion":
            extra = 'fusion_kind: "kLoop"'
        elif d.get("dot"):
            extra = "dot_dimension_numbers { lhs_contracting_dimensions: %d " \
                    "rhs_contracting_dimensions: %d }" % d["dot"]
        meta = f' metadata {{ op_name: "{d["op_name"]}" }}' if d["op_name"] else ""
        lines.append(f'    instructions {{ id: {i + 1} name: "{d["name"]}" opcode: "{d["op"]}" '
                     f'{shape(i)} ' + " ".join(f"operand_ids: {o + 1}" for o in d["operands"]) +
                     f" {extra}{meta} }}")
    lines += ["  }", "  schedule { sequences { key: 1 value { " +
              " ".join(f"instruction_ids: {i + 1}" for i in range(len(ins))) + " } } }"]
    lines.append("  input_output_alias {")
    for p in donated:
        lines.append("    entries { output_shape_index: %d parameter_number: %d kind: 2 }"
                     % (outs.index(new[p]), ins[p]["number"]))
    lines += ["  }", "}", "buffer_assignment {"]
    for i in range(len(ins)):
        lines.append(f"  logical_buffers {{ id: {i} size: {size(i)} "
                     f"defined_at {{ instruction_id: {i + 1} }} }}")
    # Allocations: each parameter (a donated one holds its new value too), each output that
    # is not written over a parameter, the root tuple's table, and one temp of the rest.
    allocations, placed = [], set()
    for p in [i for i, d in enumerate(ins) if d["op"] == "parameter"]:
        members = [(p, 0)] + ([(new[p], 0)] if p in new else [])
        flags = f"is_entry_computation_parameter: true parameter_number: {ins[p]['number']}"
        if p in new:
            flags += " maybe_live_out: true"
        allocations.append((size(p), flags, members))
        placed.update(i for i, _ in members)
    allocations.append((size(loss), "maybe_live_out: true", [(loss, 0)]))
    if traps:
        allocations.append((size(gx), "maybe_live_out: true", [(gx, 0)]))
        placed.add(gx)
    allocations.append((size(root), "maybe_live_out: true", [(root, 0)]))
    placed.update([loss, root])
    temp, offset = [], 0
    at = {}
    for i in range(len(ins)):
        if i in shared:
            temp.append((i, at[shared[i]]))
        elif i not in placed:
            at[i] = offset
            temp.append((i, offset))
            offset += size(i)
    allocations.append((offset, "", temp))
    for index, (asize, flags, members) in enumerate(allocations):
        lines.append(f"  buffer_allocations {{ index: {index} size: {asize} {flags} " +
                     " ".join(f"assigned {{ logical_buffer_id: {i} offset: {o} size: {size(i)} }}"
                              for i, o in members) + " }")
    lines.append("}")
    encoded = subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto", "-I",
                              os.path.dirname(PROTO), PROTO], input="\n".join(lines).encode(),
                             capture_output=True, check=True).stdout
    with open(out_path, "wb") as f:
        f.write(encoded)
    print(f"{out_path}: {len(ins)} instructions, {len(allocations)} allocations, "
          f"{len(encoded)} bytes")


if __name__ == "__main__":
    main()
