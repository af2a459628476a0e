#!/usr/bin/env python3
"""Times a command as a whole process, several runs after a warm-up, and against a second
command pair by pair (A B A B …), so a comparison holds when the machine's speed drifts; the
figures in README.md beside it were taken this way. Each run's user, sys and wall seconds and
its peak memory come from the operating system's accounting of the finished child (wait4).

Usage: ab.py [-n RUNS] [--warmup N] [--timeout SECONDS] [--vs 'COMMAND B'] -- COMMAND A ...
Prints, per figure, the minimum, median and maximum, and with --vs the ratios A/B.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(argv, deadline):
    """One run: (user s, sys s, wall s, peak MiB); output thrown away."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            child.kill()
            sys.exit("ab.py: the time bound ended the runs")
        time.sleep(0.002)
    wall = time.perf_counter() - start
    return usage.ru_utime, usage.ru_stime, wall, usage.ru_maxrss / 1024.0


def main():
    args = sys.argv[1:]
    runs, warmup, timeout, other = 5, 1, 100.0, None
    while args and args[0] != "--":
        flag = args.pop(0)
        value = args.pop(0)
        if flag == "-n":
            runs = int(value)
        elif flag == "--warmup":
            warmup = int(value)
        elif flag == "--timeout":
            timeout = float(value)
        elif flag == "--vs":
            other = shlex.split(value)
        else:
            sys.exit(__doc__)
    if not args or len(args) < 2:
        sys.exit(__doc__)
    first = args[1:]
    commands = [first] + ([other] if other else [])
    deadline = time.perf_counter() + timeout
    for _ in range(warmup):
        for c in commands:
            run(c, deadline)
    figures = [[] for _ in commands]
    for _ in range(runs):
        for k, c in enumerate(commands):
            figures[k].append(run(c, deadline))
    names = ["user s", "sys s", "wall s", "peak MiB"]
    print(f"{runs} runs after {warmup} warm-up, {os.cpu_count()} cores")
    for k, label in enumerate("AB"[:len(commands)]):
        for i, name in enumerate(names):
            values = [f[i] for f in figures[k]]
            print(f"{label} {name:9} {min(values):10.3f} {statistics.median(values):10.3f} "
                  f"{max(values):10.3f}")
    if other:
        for i, name in enumerate(names):
            ratios = [a[i] / b[i] for a, b in zip(figures[0], figures[1]) if b[i] > 0]
            if ratios:
                print(f"A/B {name:7} {min(ratios):10.4f} {statistics.median(ratios):10.4f} "
                      f"{max(ratios):10.4f}")


if __name__ == "__main__":
    main()
