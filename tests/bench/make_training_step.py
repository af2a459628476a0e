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

--scan writes instead a model scanned over its layers, with forward and backward while loops
(scan_step below); --update-only an optimizer update jitted alone (update_only below).

Usage: make_training_step.py OUT.hlo.pb [--layers L] [--batch B] [--width D] [--remat K]
       [--copy-weights] [--traps] [--names] [--misnamed-x] [--share-h1]
       [--scan [--names]] [--update-only]                                 (needs protoc)
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(HERE, "..", "..", "core", "proto", "hlo_min.proto")
PRED, F32, S32, TUPLE = 1, 11, 4, 13


def dims_size(d):
    """Bytes of a value: None is an s32[] scalar, "pred" a pred[], a list an f32 array."""
    if d is None:
        return 4
    if d == "pred":
        return 1
    n = 4
    for e in d:
        n *= e
    return n


def shape_of(d):
    """A ShapeProto's text: a list of dims lists (or None, "pred") is a tuple of them."""
    if isinstance(d, list) and d and not isinstance(d[0], int):
        return "shape { element_type: %d %s }" % (TUPLE, " ".join(
            "tuple_shapes { %s }" % shape_of(e)[len("shape { "):-2] for e in d))
    if d is None:
        return "shape { element_type: %d }" % S32
    if d == "pred":
        return "shape { element_type: %d }" % PRED
    return "shape { element_type: %d %s %s }" % (
        F32, " ".join("dimensions: %d" % e for e in d),
        "layout { %s }" % " ".join("minor_to_major: %d" % k
                                   for k in reversed(range(len(d)))) if d else "")


def encode(lines):
    return subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto", "-I",
                           os.path.dirname(PROTO), PROTO], input="\n".join(lines).encode(),
                          capture_output=True, check=True).stdout


def arg(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    out_path = sys.argv[1]
    layers, batch, width = arg("--layers", 3), arg("--batch", 512), arg("--width", 256)
    remat = arg("--remat", 0)
    copy_weights = "--copy-weights" in sys.argv
    if "--update-only" in sys.argv:
        update_only(out_path, width)
        return
    if "--scan" in sys.argv:
        scan_step(out_path, layers, batch, width, "--names" in sys.argv)
        return
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
        return 8 * len(outs) if d == "tuple" else dims_size(d)

    def shape(i):
        d = ins[i]["dims"]
        return shape_of([ins[o]["dims"] for o in outs] if d == "tuple" else d)

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
    encoded = encode(lines)
    with open(out_path, "wb") as f:
        f.write(encoded)
    print(f"{out_path}: {len(ins)} instructions, {len(allocations)} allocations, "
          f"{len(encoded)} bytes")


def update_only(out_path, width):
    """An optimizer update jitted alone, `update(grads, state, params)` as optax's users write
    it: the gradient, both Adam moments and the weights of one f32[D, D] layer, each named by
    its pytree path (grads[…], state[0].mu[…], state[0].nu[…], params[…]), nothing donated;
    returns the new moments and weights. No jvp or transpose scope: the names decide."""
    W = [width, width]
    names = ["grads['dense']['kernel']", "state[0].mu['dense']['kernel']",
             "state[0].nu['dense']['kernel']", "params['dense']['kernel']"]
    ins = [("g", "parameter", [], names[0]), ("mu", "parameter", [], names[1]),
           ("nu", "parameter", [], names[2]), ("p", "parameter", [], names[3]),
           ("mu_new", "fusion", [2, 1], "jit(update)/add"),
           ("nu_new", "fusion", [3, 1], "jit(update)/add"),
           ("p_new", "fusion", [4, 5, 6], "jit(update)/sub")]
    lines = ["hlo_module {", '  name: "jit_update"', '  entry_computation_name: "main"',
             "  entry_computation_id: 1", "  computations {", '    name: "main"', "    id: 1",
             f"    root_id: {len(ins) + 1}"]
    for n, (name, op, operands, op_name) in enumerate(ins):
        extra = f"parameter_number: {n}" if op == "parameter" else 'fusion_kind: "kLoop"'
        lines.append(f'    instructions {{ id: {n + 1} name: "{name}" opcode: "{op}" '
                     f'{shape_of(W)} ' + " ".join(f"operand_ids: {o}" for o in operands) +
                     f' {extra} metadata {{ op_name: "{op_name}" }} }}')
    lines.append(f'    instructions {{ id: {len(ins) + 1} name: "root" opcode: "tuple" '
                 f'{shape_of([W, W, W])} operand_ids: 5 operand_ids: 6 operand_ids: 7 }}')
    lines += ["  }", "  schedule { sequences { key: 1 value { " +
              " ".join(f"instruction_ids: {n + 1}" for n in range(len(ins) + 1)) + " } } }",
              "}", "buffer_assignment {"]
    sizes = [dims_size(W)] * len(ins) + [24]
    for b, size in enumerate(sizes):
        lines.append(f"  logical_buffers {{ id: {b} size: {size} "
                     f"defined_at {{ instruction_id: {b + 1} }} }}")
    for b, size in enumerate(sizes):
        flags = (f"is_entry_computation_parameter: true parameter_number: {b}" if b < 4
                 else "maybe_live_out: true")
        lines.append(f"  buffer_allocations {{ index: {b} size: {size} {flags} assigned {{ "
                     f"logical_buffer_id: {b} offset: 0 size: {size} }} }}")
    lines.append("}")
    encoded = encode(lines)
    with open(out_path, "wb") as f:
        f.write(encoded)
    print(f"{out_path}: {len(ins) + 1} instructions, {len(sizes)} allocations, "
          f"{len(encoded)} bytes")


def scan_step(out_path, layers, batch, width, names):
    """The step of a model scanned over its layers (jax.lax.scan, as MaxText's): the weights
    stacked [L, D, D], a forward while loop that runs the layers and stacks each layer's input
    into the residuals R [L, B, D], a backward while loop that reads R and the weights by
    dynamic-slice and stacks the weights' gradients into dW [L, D, D], then the Adam update.

      entry   W, M, V [L,D,D] (donated), count s32[], x [B,D]
              R0 = broadcast(0), wf = while(0, x, W, R0)            (jvp scope)
              loss = reduce(wf{1}); g = 2·wf{1}; dW0 = broadcast(0) (transpose scope)
              wb = while(0, g, W, wf{3}, dW0)                        (transpose scope)
              count', M', V', W' from wb{4}                          (neither)
      fbody   wi = dynamic-slice(W, i); a = dot(h, wi); hn = tanh(a);
              Rn = dynamic-update-slice(R, h, i)
      bbody   hi = dynamic-slice(R, i); wi = dynamic-slice(W, i); dw = dot(hi, g);
              gh = dot(g, wi); gn = gh·hi; dWn = dynamic-update-slice(dW, dw, i)

    As XLA's SSA data flow does, each loop defines phi values where its carry changes (the
    counter, h or g, R in the forward loop, dW in the backward one) and none where the body
    passes the carry through (W in both, R in the backward loop): those are the values
    themselves. A loop's carry, its body parameter's phi, the body's new value and the loop's
    phi share one buffer (one offset of the temp), as XLA's alias analysis makes them.
    """
    fwd, bwd, upd = "jit(train_step)/jvp(model)/while/body/", \
        "jit(train_step)/transpose(jvp(model))/while/body/", "jit(train_step)/"
    WS, RS, A, W = [layers, width, width], [layers, batch, width], [batch, width], [width, width]
    comps = {}  # name -> (id, [instruction dicts])
    ins = []

    def comp(name):
        comps[name] = (len(comps) + 1, [])

    def add(c, name, op, dims, operands=(), op_name=None, defines=None, **extra):
        """defines: the shape indices it defines (None: {} only)."""
        ins.append(dict(comp=c, name=name, op=op, dims=dims, operands=list(operands),
                        op_name=op_name, defines=defines if defines is not None else [()],
                        **extra))
        comps[c][1].append(len(ins) - 1)
        return len(ins) - 1

    def path(text):
        return text if names else None

    def loop(prefix, scope, carry, changed):
        """A while body and condition over the carry (a list of dims); returns (body, cond,
        body parameter)."""
        cond, body = prefix + "_cond", prefix + "_body"
        comp(cond)
        pc = add(cond, prefix + "_pc", "parameter", carry, number=0,
                 defines=[()] + [(k,) for k in changed])
        ic = add(cond, prefix + "_ic", "get-tuple-element", None, [pc], index=0, defines=[])
        n = add(cond, prefix + "_n", "constant", None, [], scope + "while")
        add(cond, prefix + "_lt", "compare", "pred", [ic, n], scope + "while")
        comp(body)
        pb = add(body, prefix + "_p", "parameter", carry, number=0,
                 defines=[()] + [(k,) for k in changed])
        return body, cond, pb

    comp("main")
    w = add("main", "W", "parameter", WS, op_name=path("params['layers']['kernel']"), number=0)
    m = add("main", "M", "parameter", WS, op_name=path("opt_state[0].mu['layers']['kernel']"),
            number=1)
    v = add("main", "V", "parameter", WS, op_name=path("opt_state[0].nu['layers']['kernel']"),
            number=2)
    count = add("main", "count", "parameter", None, op_name=path("state.step"), number=3)
    x = add("main", "x", "parameter", A, op_name=path("inputs['x']"), number=4)

    # The forward loop: carry (i, h, W, R).
    fcarry = [None, A, WS, RS]
    fb, fc, p = loop("f", fwd, fcarry, [0, 1, 3])
    i = add(fb, "f_i", "get-tuple-element", None, [p], index=0, defines=[])
    h = add(fb, "f_h", "get-tuple-element", A, [p], index=1, defines=[])
    wc = add(fb, "f_W", "get-tuple-element", WS, [p], index=2, defines=[])
    rc = add(fb, "f_R", "get-tuple-element", RS, [p], index=3, defines=[])
    wi = add(fb, "f_wi", "dynamic-slice", W, [wc, i], fwd + "dynamic_slice")
    a = add(fb, "f_a", "dot", A, [h, wi], fwd + "dot_general", dot=(1, 0))
    hn = add(fb, "f_hn", "fusion", A, [a], fwd + "tanh")
    rn = add(fb, "f_Rn", "dynamic-update-slice", RS, [rc, h, i], fwd + "dynamic_update_slice")
    one = add(fb, "f_one", "constant", None, [], fwd + "add")
    i2 = add(fb, "f_i2", "add", None, [i, one], fwd + "add")
    add(fb, "f_root", "tuple", fcarry, [i2, hn, wc, rn])

    c0 = add("main", "c0", "constant", None, [], upd + "while")
    z = add("main", "zero", "constant", [], [], fwd[:-len("while/body/")] + "broadcast_in_dim")
    r0 = add("main", "R0", "broadcast", RS, [z], fwd[:-len("while/body/")] + "broadcast_in_dim")
    fi = add("main", "f_init", "tuple", fcarry, [c0, x, w, r0])
    wf = add("main", "wf", "while", fcarry, [fi], fwd[:-len("body/")], called=[fb, fc],
             defines=[(), (0,), (1,), (3,)])
    hl = add("main", "hL", "get-tuple-element", A, [wf], index=1, defines=[])
    rs = add("main", "R", "get-tuple-element", RS, [wf], index=3, defines=[])
    loss = add("main", "loss", "fusion", [], [hl], fwd[:-len("while/body/")] + "reduce_sum")
    g = add("main", "g", "fusion", A, [hl], bwd[:-len("while/body/")] + "mul")
    dw0 = add("main", "dW0", "broadcast", WS, [z], bwd[:-len("while/body/")] + "broadcast_in_dim")

    # The backward loop: carry (i, g, W, R, dW).
    bcarry = [None, A, WS, RS, WS]
    bb, bc, p = loop("b", bwd, bcarry, [0, 1, 4])
    i = add(bb, "b_i", "get-tuple-element", None, [p], index=0, defines=[])
    gc = add(bb, "b_g", "get-tuple-element", A, [p], index=1, defines=[])
    wc = add(bb, "b_W", "get-tuple-element", WS, [p], index=2, defines=[])
    rc = add(bb, "b_R", "get-tuple-element", RS, [p], index=3, defines=[])
    dc = add(bb, "b_dW", "get-tuple-element", WS, [p], index=4, defines=[])
    hi = add(bb, "b_hi", "dynamic-slice", A, [rc, i], bwd + "dynamic_slice")
    wi = add(bb, "b_wi", "dynamic-slice", W, [wc, i], bwd + "dynamic_slice")
    dw = add(bb, "b_dw", "dot", W, [hi, gc], bwd + "dot_general", dot=(0, 0))
    gh = add(bb, "b_gh", "dot", A, [gc, wi], bwd + "dot_general", dot=(1, 1))
    gn = add(bb, "b_gn", "fusion", A, [gh, hi], bwd + "mul")
    dwn = add(bb, "b_dWn", "dynamic-update-slice", WS, [dc, dw, i], bwd + "dynamic_update_slice")
    one = add(bb, "b_one", "constant", None, [], bwd + "add")
    i2 = add(bb, "b_i2", "add", None, [i, one], bwd + "add")
    add(bb, "b_root", "tuple", bcarry, [i2, gn, wc, rc, dwn])

    bi = add("main", "b_init", "tuple", bcarry, [c0, g, w, rs, dw0])
    wb = add("main", "wb", "while", bcarry, [bi], bwd[:-len("body/")], called=[bb, bc],
             defines=[(), (0,), (1,), (4,)])
    dws = add("main", "dW", "get-tuple-element", WS, [wb], index=4, defines=[])
    count2 = add("main", "count_new", "fusion", None, [count], upd + "add")
    m2 = add("main", "M_new", "fusion", WS, [m, dws], upd + "add")
    v2 = add("main", "V_new", "fusion", WS, [v, dws], upd + "add")
    w2 = add("main", "W_new", "fusion", WS, [w, m2, v2, count2], upd + "sub")
    outs = [loss, w2, m2, v2, count2]
    root = add("main", "root", "tuple", [ins[o]["dims"] for o in outs], outs)
    new = {w: w2, m: m2, v: v2, count: count2}

    # The logical buffers: one per (instruction, defined index).
    buffers = []  # (instruction, index tuple, dims)
    for n, d in enumerate(ins):
        for index in d["defines"]:
            dims = d["dims"]
            for k in index:
                dims = dims[k]
            buffers.append((n, index, dims))
    bid = {(n, index): b for b, (n, index, _) in enumerate(buffers)}

    def size(dims):
        return 8 * len(dims) if isinstance(dims, list) and dims and \
            not isinstance(dims[0], int) else dims_size(dims)

    # Placement: a parameter (with its new value, donated), an output, the root's table, and
    # one temp where each carry that changes shares one offset along its loop.
    allocations, placed = [], set()
    for prm in [w, m, v, count, x]:
        members = [bid[(prm, ())]] + ([bid[(new[prm], ())]] if prm in new else [])
        flags = f"is_entry_computation_parameter: true parameter_number: {ins[prm]['number']}"
        if prm in new:
            flags += " maybe_live_out: true"
        allocations.append((size(ins[prm]["dims"]), flags, [(b, 0) for b in members]))
        placed.update(members)
    for out in (loss, root):
        allocations.append((size(ins[out]["dims"]), "maybe_live_out: true",
                            [(bid[(out, ())], 0)]))
        placed.add(bid[(out, ())])
    fp, fcp, bp, bcp = (first_parameter(ins, c) for c in (fb, fc, bb, bc))
    carries = [  # the buffers of one carry, in the order they are written
        [(r0, ()), (fcp, (3,)), (fp, (3,)), (rn, ()), (wf, (3,))],
        [(fcp, (1,)), (fp, (1,)), (hn, ()), (wf, (1,))],
        [(dw0, ()), (bcp, (4,)), (bp, (4,)), (dwn, ()), (wb, (4,))],
        [(bcp, (1,)), (bp, (1,)), (gn, ()), (wb, (1,))],
    ]
    shared = {}
    for chain in carries:
        for member in chain[1:]:
            shared[bid[member]] = bid[chain[0]]
    temp, offset, at = [], 0, {}
    for b, (_, _, dims) in enumerate(buffers):
        if b not in placed and b not in shared:
            at[b] = offset
            offset += size(dims)
    temp = [(b, at[shared.get(b, b)]) for b in range(len(buffers)) if b not in placed]
    allocations.append((offset, "", temp))

    lines = ["hlo_module {", '  name: "jit_train_step"', '  entry_computation_name: "main"',
             "  entry_computation_id: 1"]
    for name, (cid, members) in comps.items():
        lines += ["  computations {", f'    name: "{name}"', f"    id: {cid}",
                  f"    root_id: {members[-1] + 1}"]
        for n in members:
            d = ins[n]
            extra = ""
            if d["op"] == "parameter":
                extra = f"parameter_number: {d['number']}"
            elif d["op"] == "fusion":
                extra = 'fusion_kind: "kLoop"'
            elif d["op"] == "get-tuple-element":
                extra = f"tuple_index: {d['index']}"
            elif d.get("dot"):
                extra = "dot_dimension_numbers { lhs_contracting_dimensions: %d " \
                        "rhs_contracting_dimensions: %d }" % d["dot"]
            extra += "".join(f" called_computation_ids: {comps[c][0]}"
                             for c in d.get("called", []))
            meta = f' metadata {{ op_name: "{d["op_name"]}" }}' if d["op_name"] else ""
            lines.append(f'    instructions {{ id: {n + 1} name: "{d["name"]}" '
                         f'opcode: "{d["op"]}" {shape_of(d["dims"])} ' +
                         " ".join(f"operand_ids: {o + 1}" for o in d["operands"]) +
                         f" {extra}{meta} }}")
        lines.append("  }")
    lines.append("  schedule {")
    for name, (cid, members) in comps.items():
        lines.append(f"    sequences {{ key: {cid} value {{ " +
                     " ".join(f"instruction_ids: {n + 1}" for n in members) + " } }")
    lines.append("  }")
    lines.append("  input_output_alias {")
    for prm, out in new.items():
        lines.append("    entries { output_shape_index: %d parameter_number: %d kind: 2 }"
                     % (outs.index(out), ins[prm]["number"]))
    lines += ["  }", "}", "buffer_assignment {"]
    for b, (n, index, dims) in enumerate(buffers):
        lines.append(f"  logical_buffers {{ id: {b} size: {size(dims)} defined_at {{ "
                     f"instruction_id: {n + 1} " +
                     " ".join(f"shape_index: {k}" for k in index) + " } }")
    for k, (asize, flags, members) in enumerate(allocations):
        lines.append(f"  buffer_allocations {{ index: {k} size: {asize} {flags} " +
                     " ".join(f"assigned {{ logical_buffer_id: {b} offset: {o} "
                              f"size: {size(buffers[b][2])} }}" for b, o in members) + " }")
    lines.append("}")
    encoded = encode(lines)
    with open(out_path, "wb") as f:
        f.write(encoded)
    print(f"{out_path}: {len(ins)} instructions, {len(allocations)} allocations, "
          f"{len(encoded)} bytes")


def first_parameter(ins, computation):
    """The parameter of a loop's body or condition."""
    return next(n for n, d in enumerate(ins)
                if d["comp"] == computation and d["op"] == "parameter")


if __name__ == "__main__":
    main()
