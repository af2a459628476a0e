#!/usr/bin/env python3
"""The straightforward script users write today: regexes over the dump, peak of the summed
value sizes. Used only as the speed baseline in tests/bench/README.md."""
import re
import sys

ALLOC = re.compile(r"^allocation (\d+): size (\d+)")
VALUE = re.compile(r"^ value: <(\d+) (\S+?)(\{[0-9,]*\})?(?: \(phi\))?(?: @(\d+))?> \(size=(\d+),offset=(\d+)\): (.*)$")
RANGE = re.compile(r"^    (\S+?)(\{[0-9,]*\}):(\d+)-(\d+)$")
MAX = re.compile(r"^HloLiveRange \(max (\d+)\):")


def main(path):
    sizes = {}
    total = 0
    max_step = 0
    ranges = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = ALLOC.match(line)
            if m:
                total += int(m.group(2))
                continue
            m = VALUE.match(line)
            if m:
                sizes[m.group(2) + (m.group(3) or "{}")] = int(m.group(5))
                continue
            m = MAX.match(line)
            if m:
                max_step = int(m.group(1))
                continue
            m = RANGE.match(line)
            if m:
                ranges.append((m.group(1) + m.group(2), int(m.group(3)), int(m.group(4))))
    delta = [0] * (max_step + 2)
    for key, start, end in ranges:
        size = sizes.get(key, 0)
        delta[start] += size
        delta[end + 1] -= size
    peak, peak_step, running = 0, 0, 0
    for t in range(max_step + 1):
        running += delta[t]
        if running > peak:
            peak, peak_step = running, t
    print(f"total {total} values {len(sizes)} peak {peak} at {peak_step}")


if __name__ == "__main__":
    main(sys.argv[1])
