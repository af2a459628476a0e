#!/usr/bin/env python3
"""The floor of any script that reads a dump folder: iterate over every line of every file and
do nothing with it. `bufferscope list DIR` is compared with this (tests/bench/README.md).

    python3 tests/bench/python_lines.py DIR
"""
import os
import sys
import time


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    start = time.perf_counter()
    files = lines = 0
    for root, _dirs, names in os.walk(sys.argv[1]):
        for name in names:
            if not name.endswith(".txt"):
                continue
            files += 1
            with open(os.path.join(root, name), "rb") as f:
                for _line in f:
                    lines += 1
    print(f"{files} files, {lines} lines in {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
