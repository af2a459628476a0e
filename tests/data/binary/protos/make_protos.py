#!/usr/bin/env python3
"""Writes, for a buffer-assignment text dump that XLA printed, the binary module dump
(`--xla_dump_hlo_as_proto`, an xla.HloProto) that XLA writes for the same module, as far as the
text tells: every instruction with its shape, opcode, operands and metadata, the schedule, the
values (logical buffers) with their defining position, size and colour, the allocations with
their assigned values and offsets, and the donated parameters.

What the text prints and the proto does not hold is left out on purpose: each value's
positions, uses and live range, and the peak. BufferScope must work those out from the proto
(parse/HloProtoDump.cpp) and arrive at what XLA printed; tests/core/tst_hloproto.cpp checks it.

The text does not say which computation a scheduled instruction belongs to: every scheduled one
is put in the entry computation, in schedule order, its last instruction the root; every other
one (reductions' to_apply computations) in one unscheduled computation. The samples call no
while, call or conditional, so this is the module as scheduled.

Usage: python3 make_protos.py DUMP.txt OUT.hlo.pb   (needs protoc, from protobuf-compiler)
       python3 make_protos.py                        (the bundled samples, from this folder)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(HERE, "..", "..", "..", "..", "core", "proto", "hlo_min.proto")

ALIASING = {"get-tuple-element", "tuple", "bitcast", "call", "copy-start", "copy-done",
            "while", "conditional", "domain", "optimization-barrier"}

TYPES = {"pred": 1, "s8": 2, "s16": 3, "s32": 4, "s64": 5, "u8": 6, "u16": 7, "u32": 8,
         "u64": 9, "f16": 10, "f32": 11, "f64": 12, "c64": 15, "bf16": 16, "token": 17,
         "c128": 18, "f8e5m2": 19, "f8e4m3fn": 20, "s4": 21, "u4": 22}


def parse_shape(text, i=0):
    """One shape at text[i:] -> (dict, end)."""
    if text[i] == "(":
        i += 1
        parts = []
        while text[i] != ")":
            s, i = parse_shape(text, i)
            parts.append(s)
            if text[i] == ",":
                i += 1
            while text[i] == " ":
                i += 1
        return {"tuple": parts}, i + 1
    m = re.compile(r"([a-z0-9]+)\[([^\]]*)\]").match(text, i)
    dims = [int(d.replace("<=", "")) for d in m.group(2).split(",") if d]
    shape = {"type": TYPES[m.group(1)], "dims": dims}
    i = m.end()
    if i < len(text) and text[i] == "{":
        close = text.index("}", i)
        layout = text[i + 1:close]
        m2m, _, extra = layout.partition(":")
        shape["minor_to_major"] = [int(x) for x in m2m.split(",") if x]
        shape["tiles"] = [[int(x) for x in t.split(",")] for t in re.findall(r"T\(([^)]*)\)", extra)]
        ms = re.search(r"S\((\d+)\)", extra)
        shape["memory_space"] = int(ms.group(1)) if ms else 0
        i = close + 1
    return shape, i


def shape_pb(s, indent):
    pad = " " * indent
    if "tuple" in s:
        out = [f"{pad}element_type: 13"]
        for p in s["tuple"]:
            out += [f"{pad}tuple_shapes {{"] + shape_pb(p, indent + 2) + [f"{pad}}}"]
        return out
    out = [f"{pad}element_type: {s['type']}"] + [f"{pad}dimensions: {d}" for d in s["dims"]]
    if "minor_to_major" in s and (s["dims"] or s["tiles"] or s["memory_space"]):
        out.append(f"{pad}layout {{")
        out += [f"{pad}  minor_to_major: {d}" for d in s["minor_to_major"]]
        for t in s["tiles"]:
            out.append(f"{pad}  tiles {{ " + " ".join(f"dimensions: {d}" for d in t) + " }")
        if s["memory_space"]:
            out.append(f"{pad}  memory_space: {s['memory_space']}")
        out.append(f"{pad}}}")
    return out


def subshape(s, index):
    for k in index:
        s = s["tuple"][k]
    return s


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_dump(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    allocations, values, blocks, sequence = [], {}, {}, []
    section, block = None, None
    value_re = re.compile(r"<(\d+) ([^ {>]+)(\{[0-9,]*\})?(?: \(phi\))? @(\d+)>")
    for line in lines:
        if line.startswith("allocation "):
            m = re.match(r"allocation (\d+): size (\d+)(.*):$", line)
            flags = m.group(3)
            a = {"index": int(m.group(1)), "size": int(m.group(2)), "values": [],
                 "color": int(re.search(r", color (\d+)", flags).group(1)) if ", color " in flags else 0,
                 "thread_local": ", thread-local" in flags, "constant": ", constant" in flags,
                 "live_out": ", maybe-live-out" in flags, "parameter": None,
                 "output": ", output shape is |" in flags}
            p = re.search(r", parameter (\d+), shape \|.*\| at ShapeIndex \{([0-9,]*)\}", flags)
            if p:
                a["parameter"] = (int(p.group(1)), [int(x) for x in p.group(2).split(",") if x])
            allocations.append(a)
            section = "alloc"
        elif line.startswith(" value: ") and section == "alloc":
            m = value_re.search(line)
            off = re.search(r"\(size=(\d+),offset=(\d+)\)", line)
            vid = int(m.group(1))
            allocations[-1]["values"].append((vid, int(off.group(2)), int(off.group(1))))
            index = [int(x) for x in (m.group(3) or "{}")[1:-1].split(",") if x]
            values[vid] = {"name": m.group(2), "index": index, "color": int(m.group(4)),
                           "size": int(off.group(1))}
        elif line.startswith("Used values:"):
            section = "used"
        elif section == "used" and line.startswith("<"):
            m = value_re.match(line)
            block = blocks.setdefault(int(m.group(1)), {"positions": [], "uses": [], "text": None})
            sub = None
        elif section == "used" and line == " positions:":
            sub = "positions"
        elif section == "used" and line == " uses:":
            sub = "uses"
        elif section == "used" and line.startswith(" from instruction: "):
            block["text"] = line[len(" from instruction: "):]
        elif section == "used" and line.startswith("  ") and sub == "positions":
            name, _, idx = line.strip().partition(" ")
            block["positions"].append((name, [int(x) for x in idx[1:-1].split(",") if x]))
        elif section == "used" and line.startswith("  ") and sub == "uses":
            m = re.match(r"  (\S+), operand (\d+)(?: \{([0-9,]*)\})?", line)
            if m:
                block["uses"].append((m.group(1), int(m.group(2)),
                                      [int(x) for x in (m.group(3) or "").split(",") if x]))
        elif line.startswith("HloLiveRange"):
            section = "seq"
        elif section == "seq" and re.match(r"    \d+:", line):
            sequence.append(line.split(":", 1)[1])
        elif line.startswith("  BufferLiveRange:"):
            section = None
    return allocations, values, blocks, sequence


# Instructions with a start and a done of their own; any other `X-start` is an async-start
# wrapping X (printed with X's name), `X-update` and `X-done` likewise.
NATIVE_ASYNC = {"all-gather", "all-reduce", "collective-permute", "copy", "send", "recv"}


def proto_opcode(printed):
    for part in ("start", "update", "done"):
        base = printed[:-len(part) - 1]
        if printed.endswith("-" + part) and base not in NATIVE_ASYNC:
            return "async-" + part
    return printed


def instruction_from_text(text):
    """`%name = SHAPE opcode(%a, …), …, metadata={…}` -> fields."""
    m = re.match(r"%(\S+) = ", text)
    name = m.group(1)
    shape, i = parse_shape(text, m.end())
    m2 = re.compile(r" ([a-z][a-z0-9-]*)\(").match(text, i)
    opcode = proto_opcode(m2.group(1))
    depth, j = 1, m2.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        j += 1
    operands = re.findall(r"%([A-Za-z0-9_.\-]+)", text[m2.end():j - 1])
    ins = {"name": name, "shape": shape, "opcode": opcode, "operands": operands, "meta": {}}
    rest = text[j:]
    if opcode == "parameter":
        ins["parameter_number"] = int(text[m2.end():j - 1])
    kind = re.search(r", kind=(k[A-Za-z]+)", rest)
    if kind:
        ins["fusion_kind"] = kind.group(1)
    meta = re.search(r"metadata=\{(.*)\}", rest)
    if meta:
        for key, val in re.findall(r'(op_type|op_name|source_file)="((?:[^"\\]|\\.)*)"', meta.group(1)):
            ins["meta"][key] = val.encode().decode("unicode_escape")
        line = re.search(r"source_line=(\d+)", meta.group(1))
        if line:
            ins["meta"]["source_line"] = int(line.group(1))
    return ins


def build(path):
    allocations, values, blocks, sequence = read_dump(path)
    for b in blocks.values():
        if b["text"] and re.search(r" (while|conditional)\(", b["text"]):
            sys.exit(f"{path}: has while loops or conditionals; the text does not say which "
                     "instructions form their computations, so no proto is written")
    ins = {}
    for vid, b in blocks.items():
        if b["text"]:
            i = instruction_from_text(b["text"])
            ins.setdefault(i["name"], i)
    # Instructions that define no value of their own: their shape is the value they hold at {},
    # their operands what the uses say.
    for vid, b in blocks.items():
        v = values.get(vid)
        if not v or not b["text"]:
            continue
        shape = subshape(instruction_from_text(b["text"])["shape"], v["index"])
        for name, index in b["positions"]:
            if name not in ins and not index:
                ins[name] = {"name": name, "shape": shape,
                             "opcode": proto_opcode(re.sub(r"(\.\d+)+$", "", name)),
                             "operands": [], "meta": {}, "inferred": True}
    order = {n: k for k, n in enumerate(sequence)}
    # A `call` defines nothing: its shape is the value it holds at {} (its callee's root), and
    # the callee's parameters are the other positions of the values passed to it.
    calls = {}
    for vid, b in blocks.items():
        for name, index in b["positions"]:
            if re.sub(r"(\.\d+)+$", "", name) == "call" and not index and name not in ins:
                ins[name] = {"name": name, "shape": instruction_from_text(b["text"])["shape"],
                             "opcode": "call", "operands": [], "meta": {}}
    for vid, b in blocks.items():
        for user, k, index in b["uses"]:
            if ins.get(user, {}).get("opcode") not in ("call", "async-start"):
                continue
            defining = values[vid]["name"]
            params = [n for n, idx in b["positions"]
                      if n != defining and not idx and (n not in ins or ins[n].get("inferred"))
                      and ins.get(n, {}).get("opcode") not in ALIASING]
            c = calls.setdefault(user, {"params": {}, "root": None})
            u = ins[user]
            if u.get("inferred"):  # no text: the operand is the holder scheduled last before it
                while len(u["operands"]) <= k:
                    u["operands"].append(None)
                held = [n for n, idx in b["positions"] if idx == index and n not in params
                        and n != user and order.get(n, -1) < order.get(user, 0)]
                u["operands"][k] = max(held, key=lambda n: order.get(n, -1)) if held else defining
            if len(params) == 1:
                c["params"][k] = params[0]
                ins[params[0]] = {"name": params[0], "opcode": "parameter", "operands": [],
                                  "parameter_number": k, "meta": {},
                                  "shape": subshape(instruction_from_text(b["text"])["shape"],
                                                    values[vid]["index"])}
    for vid, b in blocks.items():
        for name, index in b["positions"]:
            if name not in calls or values[vid]["name"] == name:
                continue
            # A call holds its callee's root at {}; an async-start the wrapped root at {1}.
            if (ins[name]["opcode"] == "call" and not index) or \
                    (ins[name]["opcode"] == "async-start" and index == [1]):
                calls[name]["root"] = values[vid]["name"]
    # An async-done calls the computation its start wraps.
    for name, i in ins.items():
        if i["opcode"] in ("async-done", "async-update") and i["operands"] and i["operands"][0] in calls:
            calls[i["operands"][0]].setdefault("also", []).append(name)
    for vid, b in blocks.items():
        v = values.get(vid)
        for user, k, index in b["uses"]:
            u = ins.get(user)
            if u is None or u["operands"] and len(u["operands"]) > k:
                continue
            held = [name for name, idx in b["positions"] if idx == index and name != user]
            # Several places hold it (a callee's root and the call; a value and the callee's
            # parameter): the operand is the one scheduled last before the user.
            if len(held) > 1 and user in order:
                before = [n for n in held if order.get(n, -1) < order[user]]
                held = [max(before, key=lambda n: order.get(n, -1))] if before else held
            if len(held) == 1:
                while len(u["operands"]) <= k:
                    u["operands"].append(None)
                u["operands"][k] = held[0]
    # A get-tuple-element's index: where the value it holds sits in its operand.
    for vid, b in blocks.items():
        for name, index in b["positions"]:
            g = ins.get(name)
            if g and g["opcode"] == "get-tuple-element" and not index and g["operands"]:
                at = [idx for n, idx in b["positions"] if n == g["operands"][0] and len(idx) == 1]
                if at:
                    g["tuple_index"] = at[0][0]
    names = list(ins)
    ids = {n: k + 1 for k, n in enumerate(names)}
    scheduled = [n for n in sequence if n in ins]
    # Each call's callee: what its root is made of, back to the callee's parameters.
    callees = {}
    for call, c in calls.items():
        members, todo = set(c["params"].values()), [c["root"]] if c["root"] else []
        while todo:
            n = todo.pop()
            if n in members or n not in ins:
                continue
            members.add(n)
            todo += [o for o in ins[n]["operands"] if o]
        callees[call] = [n for n in scheduled if n in members]
    inside = {n for m in callees.values() for n in m}
    others = [n for n in names if n not in set(scheduled)]
    scheduled = [n for n in scheduled if n not in inside]
    if not sequence:  # printed without live ranges: no schedule, every instruction in the entry
        scheduled, others = [n for n in names if n not in inside], []
    # The entry's root: what the output allocation holds at {}, made by no parameter.
    root = None
    for a in allocations:
        for vid, _, _ in a["values"] if a["output"] else []:
            v = values[vid]
            if not v["index"] and ins.get(v["name"], {}).get("opcode") != "parameter":
                root = v["name"]
    if root in scheduled and not sequence:
        scheduled = [n for n in scheduled if n != root] + [root]
    out = ["hlo_module {", '  name: "' + os.path.basename(path).split(".buffer")[0] + '"',
           '  entry_computation_name: "main"', "  entry_computation_id: 1"]

    def computation(cid, cname, members):
        lines = ["  computations {", f'    name: "{cname}"', f"    id: {cid}"]
        if members:
            lines.append(f"    root_id: {ids[members[-1]]}")
        for n in members:
            i = ins[n]
            lines += ["    instructions {", f'      name: "{n}"', f'      opcode: "{i["opcode"]}"',
                      "      shape {"] + shape_pb(i["shape"], 8) + ["      }", f"      id: {ids[n]}"]
            for o in i["operands"]:
                if o in ids:
                    lines.append(f"      operand_ids: {ids[o]}")
            if "parameter_number" in i:
                lines.append(f"      parameter_number: {i['parameter_number']}")
            if "tuple_index" in i:
                lines.append(f"      tuple_index: {i['tuple_index']}")
            for k, call in enumerate(callees):
                if n == call or n in calls[call].get("also", []):
                    lines.append(f"      called_computation_ids: {100 + k}")
            if "fusion_kind" in i:
                lines.append(f'      fusion_kind: "{i["fusion_kind"]}"')
            if i["meta"]:
                lines.append("      metadata {")
                for key in ("op_type", "op_name", "source_file"):
                    if key in i["meta"]:
                        lines.append(f"        {key}: {quote(i['meta'][key])}")
                if "source_line" in i["meta"]:
                    lines.append(f"        source_line: {i['meta']['source_line']}")
                lines.append("      }")
            lines.append("    }")
        return lines + ["  }"]

    out += computation(1, "main", scheduled)
    for k, (call, members) in enumerate(callees.items()):
        root = calls[call]["root"]
        out += computation(100 + k, "callee_of_" + call.replace(".", "_"),
                           [n for n in members if n != root] + [root])
    if others:
        out += computation(2, "unscheduled", others)
    if sequence:
        out += ["  schedule {"]
        for cid, members in [(1, scheduled)] + [(100 + k, m) for k, m in enumerate(callees.values())]:
            out += ["    sequences {", f"      key: {cid}", "      value {"]
            out += [f"        instruction_ids: {ids[n]}" for n in members]
            out += ["      }", "    }"]
        out += ["  }"]
    donated = [a for a in allocations if a["parameter"] and a["live_out"]]
    if donated:
        out.append("  input_output_alias {")
        for a in donated:
            number, index = a["parameter"]
            out += ["    entries {", f"      parameter_number: {number}"]
            out += [f"      parameter_shape_index: {k}" for k in index] + ["    }"]
        out.append("  }")
    out += ["}", "buffer_assignment {"]
    for vid in sorted(values):
        v = values[vid]
        out += ["  logical_buffers {", f"    id: {vid}", f"    size: {v['size']}",
                "    defined_at {", f"      instruction_id: {ids[v['name']]}"]
        out += [f"      shape_index: {k}" for k in v["index"]] + ["    }", f"    color: {v['color']}", "  }"]
    for a in donated:  # a donated parameter and the output it becomes share one buffer
        vs = [vid for vid, _, _ in a["values"]]
        for other in vs[1:]:
            v = values[other]
            out += ["  buffer_aliases {", f"    source_buffer_id: {vs[0]}", "    location {",
                    f"      instruction_id: {ids[v['name']]}"]
            out += [f"      shape_index: {k}" for k in v["index"]] + ["    }", "  }"]
    for a in allocations:
        out += ["  buffer_allocations {", f"    index: {a['index']}", f"    size: {a['size']}",
                f"    is_thread_local: {str(a['thread_local']).lower()}",
                f"    maybe_live_out: {str(a['live_out']).lower()}", f"    color: {a['color']}",
                f"    is_constant: {str(a['constant']).lower()}"]
        if a["parameter"]:
            out += ["    is_entry_computation_parameter: true", f"    parameter_number: {a['parameter'][0]}"]
            out += [f"    parameter_shape_index: {k}" for k in a["parameter"][1]]
        for vid, offset, size in a["values"]:
            out.append(f"    assigned {{ logical_buffer_id: {vid} offset: {offset} size: {size} }}")
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def write(dump, target):
    text = build(dump)
    encoded = subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto",
                              "-I", os.path.dirname(PROTO), PROTO], input=text.encode(),
                             capture_output=True, check=True).stdout
    with open(target, "wb") as f:
        f.write(encoded)


# Hostile modules for tests/core/tst_hloproto.cpp (`python3 make_protos.py --hostile`): each
# breaks one rule a module XLA writes keeps; BufferScope must refuse it with a sentence.
HOSTILE = {
    "operand-nowhere": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 2
    instructions { name: "p" opcode: "parameter" id: 1 shape { element_type: 11 } }
    instructions { name: "n" opcode: "negate" id: 2 operand_ids: 99 shape { element_type: 11 } } } }
buffer_assignment { }""",
    "value-nowhere": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 1
    instructions { name: "p" opcode: "parameter" id: 1 shape { element_type: 11 } } } }
buffer_assignment { logical_buffers { id: 0 size: 4 defined_at { instruction_id: 77 } } }""",
    "calls-itself": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 1
    instructions { name: "c" opcode: "call" id: 1 called_computation_ids: 1 shape { element_type: 11 } } } }
buffer_assignment { }""",
    "schedule-nowhere": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 1
    instructions { name: "p" opcode: "parameter" id: 1 shape { element_type: 11 } } }
  schedule { sequences { key: 1 value { instruction_ids: 1 instruction_ids: 5 } } } }
buffer_assignment { }""",
    "cycle": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 2
    instructions { name: "a" opcode: "negate" id: 1 operand_ids: 2 shape { element_type: 11 } }
    instructions { name: "b" opcode: "negate" id: 2 operand_ids: 1 shape { element_type: 11 } } } }
buffer_assignment { }""",
    "allocation-holds-unknown": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 1
    instructions { name: "p" opcode: "parameter" id: 1 shape { element_type: 11 } } } }
buffer_assignment { buffer_allocations { index: 0 size: 4 assigned { logical_buffer_id: 9 size: 4 } } }""",
    "name-with-newline": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 1
    instructions { name: "p\\nallocation 0: size 1" opcode: "parameter" id: 1 shape { element_type: 11 } } } }
buffer_assignment { }""",
    "no-buffer-assignment": """hlo_module { entry_computation_name: "main" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 1
    instructions { name: "p" opcode: "parameter" id: 1 shape { element_type: 11 } } } }""",
}


def write_hostile(folder):
    os.makedirs(folder, exist_ok=True)
    for name, text in HOSTILE.items():
        encoded = subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto",
                                  "-I", os.path.dirname(PROTO), PROTO], input=text.encode(),
                                 capture_output=True, check=True).stdout
        with open(os.path.join(folder, f"module_0099.{name}.after_optimizations.hlo.pb"), "wb") as f:
            f.write(encoded)


def while_module():
    """A module with a while loop, written by hand for tst_hloproto::whileLoopByHand: the
    values XLA's SSA dataflow defines (phis at the while, the body's and the condition's
    parameter) and one allocation each. Its live ranges are worked out by hand there."""
    f32 = "shape { element_type: 11 dimensions: 4 layout { minor_to_major: 0 } }"
    s32, pred = "shape { element_type: 4 }", "shape { element_type: 1 }"
    tup = "shape { element_type: 13 tuple_shapes { element_type: 4 } " \
          "tuple_shapes { element_type: 11 dimensions: 4 layout { minor_to_major: 0 } } }"
    comps = {
        1: ("main", [(1, "p0", "parameter", f32, [], "parameter_number: 0"),
                     (2, "c0", "constant", s32, [], ""), (3, "t", "tuple", tup, [2, 1], ""),
                     (4, "w", "while", tup, [3], "called_computation_ids: 3 called_computation_ids: 2"),
                     (5, "r", "get-tuple-element", f32, [4], "tuple_index: 1"),
                     (6, "n", "negate", f32, [5], "")]),
        2: ("cond", [(10, "cp", "parameter", tup, [], "parameter_number: 0"),
                     (11, "ci", "get-tuple-element", s32, [10], "tuple_index: 0"),
                     (12, "lim", "constant", s32, [], ""), (13, "lt", "compare", pred, [11, 12], "")]),
        3: ("body", [(20, "bp", "parameter", tup, [], "parameter_number: 0"),
                     (21, "bi", "get-tuple-element", s32, [20], "tuple_index: 0"),
                     (22, "bx", "get-tuple-element", f32, [20], "tuple_index: 1"),
                     (23, "one", "constant", s32, [], ""), (24, "ni", "add", s32, [21, 23], ""),
                     (25, "nx", "multiply", f32, [22, 22], "metadata { op_name: \"jit(f)/mul\" stack_frame_id: 2 }"),
                     (26, "bt", "tuple", tup, [24, 25], "")]),
    }
    out = ["hlo_module {", '  name: "while_loop"', '  entry_computation_name: "main"',
           "  entry_computation_id: 1"]
    for cid, (name, body) in comps.items():
        out += ["  computations {", f'    name: "{name}"', f"    id: {cid}", f"    root_id: {body[-1][0]}"]
        for iid, iname, op, shape, operands, extra in body:
            out.append(f'    instructions {{ id: {iid} name: "{iname}" opcode: "{op}" {shape} ' +
                       " ".join(f"operand_ids: {o}" for o in operands) + f" {extra} }}")
        out.append("  }")
    # Two frames: model.py:12 in step, called from train.py:40 in main (parent ids 1-based).
    out += ["  stack_frame_index {", '    file_names: "/work/train.py"', '    file_names: "/work/model.py"',
            '    function_names: "main"', '    function_names: "step"',
            "    file_locations { file_name_id: 1 function_name_id: 1 line: 40 column: 3 }",
            "    file_locations { file_name_id: 2 function_name_id: 2 line: 12 column: 9 }",
            "    stack_frames { file_location_id: 1 parent_frame_id: 0 }",
            "    stack_frames { file_location_id: 2 parent_frame_id: 1 }", "  }"]
    out.append("  schedule {")
    for cid, (name, body) in comps.items():
        out.append(f"    sequences {{ key: {cid} value {{ " +
                   " ".join(f"instruction_ids: {b[0]}" for b in body) + " } }")
    out += ["  }", "}", "buffer_assignment {"]
    # value id: (instruction id, shape index, size)
    values = {0: (1, [], 16), 1: (2, [], 4), 2: (3, [], 16), 3: (4, [], 16), 4: (4, [0], 4),
              5: (4, [1], 16), 6: (20, [], 16), 7: (20, [0], 4), 8: (20, [1], 16), 9: (10, [], 16),
              10: (10, [0], 4), 11: (10, [1], 16), 12: (12, [], 4), 13: (13, [], 1),
              14: (23, [], 4), 15: (24, [], 4), 16: (25, [], 16), 17: (26, [], 16), 18: (6, [], 16)}
    for vid, (iid, index, size) in values.items():
        out.append(f"  logical_buffers {{ id: {vid} size: {size} defined_at {{ instruction_id: {iid} " +
                   " ".join(f"shape_index: {k}" for k in index) + " } }")
    # One HloBuffer: the f32[4] the loop carries (cond's and body's parameter, the body's result,
    # the while's).
    for iid, index in [(20, [1]), (25, []), (4, [1])]:
        out.append(f"  buffer_aliases {{ source_buffer_id: 11 location {{ instruction_id: {iid} " +
                   " ".join(f"shape_index: {k}" for k in index) + " } }")
    for vid, (iid, index, size) in values.items():
        flags = ("is_entry_computation_parameter: true parameter_number: 0" if vid == 0 else
                 "maybe_live_out: true" if vid == 18 else "")
        out.append(f"  buffer_allocations {{ index: {vid} size: {size} {flags} "
                   f"assigned {{ logical_buffer_id: {vid} offset: 0 size: {size} }} }}")
    out.append("}")
    return "\n".join(out) + "\n"


def encode(text):
    return subprocess.run(["protoc", "--encode=bufferscope.xlapb.HloProto", "-I",
                           os.path.dirname(PROTO), PROTO], input=text.encode(),
                          capture_output=True, check=True).stdout


def write_handmade(folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "module_0042.while_loop.after_optimizations.hlo.pb"), "wb") as f:
        f.write(encode(while_module()))


XPLANE = os.path.join(os.path.dirname(PROTO), "xplane_min.proto")


def octal(data):
    return '"' + "".join(f"\\{b:03o}" for b in data) + '"'


def write_capture(target, modules):
    """A profiler capture as jax.profiler.trace writes it (MetadataXPlaneBuilder::AddHloProto):
    an XSpace whose plane "/host:metadata" has one event metadata per module, named
    "<module>(<program_id>)", with the stats "Hlo Proto" (the serialized HloProto) and
    "program_id"; and a device plane beside it, which holds no module."""
    lines = ["planes {", "  id: 1", '  name: "/device:GPU:0"', "}",
             "planes {", "  id: 2", '  name: "/host:metadata"',
             '  stat_metadata { key: 1 value { id: 1 name: "Hlo Proto" } }',
             '  stat_metadata { key: 2 value { id: 2 name: "program_id" } }']
    for k, (name, program_id, proto_path) in enumerate(modules):
        with open(proto_path, "rb") as f:
            data = f.read()
        label = f"{name}({program_id})"
        lines += [f"  event_metadata {{ key: {k + 1} value {{ id: {k + 1} name: \"{label}\" "
                  f"display_name: \"{label}\"",
                  f"    stats {{ metadata_id: 1 bytes_value: {octal(data)} }}",
                  f"    stats {{ metadata_id: 2 uint64_value: {program_id} }} }} }}"]
    lines += ["}", 'hostnames: "host0"']
    encoded = subprocess.run(["protoc", "--encode=bufferscope.xplanepb.XSpace", "-I",
                              os.path.dirname(XPLANE), XPLANE], input="\n".join(lines).encode(),
                             capture_output=True, check=True).stdout
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(encoded)


if __name__ == "__main__" and sys.argv[1:] == ["--hostile"]:
    write_hostile(os.path.join(HERE, "..", "hostile"))
    write_handmade(os.path.join(HERE, "..", "handmade"))
    # Two modules in one capture, in the folder layout the profiler writes.
    write_capture(os.path.join(HERE, "..", "profile", "plugins", "profile", "2026_11_27_23_00_00",
                               "host0.xplane.pb"),
                  [("jit_unstack", 7, os.path.join(HERE, "module_0001.tpu_unstack.after_optimizations.hlo.pb")),
                   ("jit_random_normal", 12, os.path.join(HERE, "module_0001.tpu_random_normal.after_optimizations.hlo.pb"))])
elif __name__ == "__main__":
    if len(sys.argv) == 3:
        write(sys.argv[1], sys.argv[2])
    else:
        data = os.path.join(HERE, "..", "..")
        for name in sorted(os.listdir(data)):
            if name.endswith(".buffer-assignment.txt"):
                stem = name[:-len(".buffer-assignment.txt")]
                write(os.path.join(data, name),
                      os.path.join(HERE, f"module_0001.{stem}.after_optimizations.hlo.pb"))
