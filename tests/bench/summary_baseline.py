#!/usr/bin/env python3
"""What `bufferscope summary DIR` does, as the stdlib Python script a user writes for it: the
floor `summary` is measured against (tests/bench/README.md, "A run as a whole").

It reads the same files: every `*-buffer-assignment.txt` (its allocation lines for what the
module holds, its `from instruction:` lines for the collectives and their value sizes) and each
module's `module_NNNN.NAME.before_optimizations.txt` for its ENTRY signature; groups modules by
function name, counts signatures, and prints the largest functions and collectives.

    python3 tests/bench/summary_baseline.py DIR
"""
import os
import re
import sys
import time

ALLOCATION = re.compile(r"^allocation (\d+): size (\d+)(.*):$")
VALUE = re.compile(r"^ value: <(\d+) [^>]*> \(size=(\d+),offset=\d+\)")
BLOCK = re.compile(r"^<(\d+) ")
FROM = re.compile(r"^ from instruction: %(\S+) = .*? ([a-z][a-z0-9-]*)\(")
COLLECTIVE = re.compile(r"^(all-gather|all-reduce|reduce-scatter|all-to-all|collective-permute|"
                        r"collective-broadcast|ragged-all-to-all)(-start)?$")
NAME = re.compile(r"(module_\d+)\.([^.]+)\.")


def read_module(path):
    held = {"argument": 0, "output": 0, "alias": 0, "temp": 0}
    sizes, block, collectives = {}, None, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = ALLOCATION.match(line)
            if m:
                size, flags = int(m.group(2)), m.group(3)
                parameter = ", parameter " in flags
                live_out = ", maybe-live-out" in flags
                if ", thread-local" in flags or ", constant" in flags:
                    continue
                if parameter:
                    held["argument"] += size
                if live_out:
                    held["output"] += size
                if parameter and live_out:
                    held["alias"] += size
                if ", preallocated-temp" in flags:
                    held["temp"] += size
                continue
            m = VALUE.match(line)
            if m:
                sizes[m.group(1)] = int(m.group(2))
                continue
            m = BLOCK.match(line)
            if m:
                block = m.group(1)
                continue
            if line.startswith(" from instruction:"):
                m = FROM.match(line)
                if m and COLLECTIVE.match(m.group(2)) and block in sizes:
                    name = m.group(1)
                    collectives[name] = max(collectives.get(name, 0), sizes[block])
    total = held["argument"] + held["output"] - held["alias"] + held["temp"]
    return total, collectives


def signature(folder, module, function):
    path = os.path.join(folder, f"{module}.{function}.before_optimizations.txt")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("ENTRY "):
                    inside = line[line.index("(") + 1:line.index(") ->")]
                    return tuple(re.sub(r"\{[^}]*\}", "", p.split(":", 1)[1]).strip()
                                 for p in inside.split(", ") if ":" in p)
    except OSError:
        pass
    return ()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    start = time.perf_counter()
    folder = sys.argv[1]
    families, collectives = {}, []
    for name in sorted(os.listdir(folder)):
        if not name.endswith("-buffer-assignment.txt"):
            continue
        m = NAME.match(name)
        if not m:
            continue
        module, function = m.group(1), m.group(2)
        held, found = read_module(os.path.join(folder, name))
        f = families.setdefault(function, {"modules": 0, "max": 0, "sum": 0, "signatures": set()})
        f["modules"] += 1
        f["max"] = max(f["max"], held)
        f["sum"] += held
        f["signatures"].add(signature(folder, module, function))
        collectives += [(size, instruction, module) for instruction, size in found.items()]
    for function, f in sorted(families.items(), key=lambda kv: -kv[1]["max"])[:20]:
        print(f"{function:36} {f['modules']:6} {f['max']:14} {f['sum']:16} "
              f"{len(f['signatures'])} signatures")
    for size, instruction, module in sorted(collectives, reverse=True)[:20]:
        print(f"{size:14} {instruction} {module}")
    print(f"{sum(f['modules'] for f in families.values())} modules, {len(families)} functions "
          f"in {time.perf_counter() - start:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
