#!/usr/bin/env python3
"""Writes a profiler capture (`<host>.xplane.pb`, a tensorflow.profiler.XSpace) holding the
allocator's events as the profiler records them, byte by byte in protobuf's wire format and
without any .proto: the tests of `bufferscope memory` work their figures out by hand from
what this writes, and the benchmark reads a million events of it.

Field numbers as read in third_party/tsl/tsl/profiler/protobuf/xplane.proto (openxla/xla
f33d2e163d): XSpace.planes 1; XPlane id 1, name 2, lines 3, event_metadata 4 (map: key 1,
value 2), stat_metadata 5; XLine id 1, name 2, timestamp_ns 3, events 4; XEvent metadata_id
1, offset_ps 2, duration_ps 3, stats 4; XStat metadata_id 1, double_value 2 (fixed64),
uint64_value 3, int64_value 4, str_value 5, ref_value 7; XEventMetadata / XStatMetadata id 1,
name 2. The plane is "/host:CPU" and the events "MemoryAllocation" / "MemoryDeallocation"
with the stats XProf's converter reads (xla/tsl/profiler/utils/xplane_schema.cc names them).

Usage:
  make_memory_capture.py OUT.xplane.pb --case NAME   a case of the tests (cases below)
  make_memory_capture.py OUT.xplane.pb --events N    N allocations and N deallocations of one
                                                   allocator over 4 lines (the benchmark)
"""
import os
import struct
import sys

# The wire format's primitives, written once for the hand-made fixture.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                "binary", "wire"))
from make_wire import blob as lfield, num as vfield, tag as key  # noqa: E402

EVENT_NAMES = {1: "MemoryAllocation", 2: "MemoryDeallocation", 3: "PjitFunction(f)",
               4: "jit_g:XLA GPU module", 5: "PJRT_LoadedExecutable_Execute linkage",
               6: "PjRtStreamExecutorLoadedExecutable::EnqueueExecution",
               7: "ThreadpoolListener::StartRegion", 8: "ThreadpoolListener::StopRegion",
               9: "jit_add:XLA GPU module"}
STAT_NAMES = ["allocator_name", "bytes_allocated", "bytes_reserved", "bytes_available",
              "fragmentation", "peak_bytes_in_use", "requested_bytes", "allocation_bytes",
              "addr", "tf_op", "region_type", "data_type", "shape", "group_id",
              "device_ordinal", "_pt", "_p", "_ct", "_c"]
STAT_ID = {name: k + 1 for k, name in enumerate(STAT_NAMES)}


def stat(name, value):
    body = vfield(1, STAT_ID[name])
    if isinstance(value, float):
        body += key(2, 1) + struct.pack("<d", value)
    elif isinstance(value, str):
        body += lfield(5, value)
    else:
        body += vfield(4, value & ((1 << 64) - 1))  # an int64 below zero: its 10-byte varint
    return body


def event(kind, offset_ps, stats):
    """kind 1 allocation, 2 deallocation; stats a dict of STAT_NAMES to values."""
    body = vfield(1, kind) + vfield(2, offset_ps)
    for name, value in stats.items():
        body += lfield(4, stat(name, value))
    return body


def span(kind, offset_ps, duration_ps):
    """A run of a module on the host: kind 3 JAX's call of f, 4 XLA:GPU's launch of jit_g."""
    return vfield(1, kind) + vfield(2, offset_ps) + vfield(3, duration_ps)


def linked(kind, offset_ps, duration_ps, **ids):
    """An event that produces (_pt, _p) or consumes (_ct, _c) a link between threads."""
    body = vfield(1, kind) + vfield(2, offset_ps) + vfield(3, duration_ps)
    for name, value in ids.items():
        body += lfield(4, stat("_" + name, value))
    return body


def line(line_id, name, timestamp_ns, events):
    return vfield(1, line_id) + lfield(2, name) + vfield(3, timestamp_ns) + b"".join(
        lfield(4, e) for e in events)


def plane(name, lines):
    body = vfield(1, 1) + lfield(2, name) + b"".join(lfield(3, l) for l in lines)
    for k, n in EVENT_NAMES.items():
        body += lfield(4, vfield(1, k) + lfield(2, vfield(1, k) + lfield(2, n)))
    for n, k in STAT_ID.items():
        body += lfield(5, vfield(1, k) + lfield(2, vfield(1, k) + lfield(2, n)))
    return body


def space(planes):
    return b"".join(lfield(1, p) for p in planes)


class Allocator:
    """Writes the stats the allocator reports with each event: heap after it, reserved,
    free = capacity - heap - reserved, the peak so far."""

    def __init__(self, name, capacity, reserved=0, key="allocator_name"):
        self.name, self.capacity, self.reserved, self.key = name, capacity, reserved, key
        self.heap, self.peak = 0, 0

    def event(self, kind, offset_ps, nbytes, addr, requested=None, **extra):
        self.heap += nbytes if kind == 1 else -nbytes
        self.peak = max(self.peak, self.heap + self.reserved)
        stats = {self.key: self.name, "bytes_allocated": self.heap,
                 "bytes_reserved": self.reserved,
                 "bytes_available": self.capacity - self.heap - self.reserved,
                 "fragmentation": 0.0, "peak_bytes_in_use": self.peak,
                 "requested_bytes": nbytes if requested is None else requested,
                 "allocation_bytes": nbytes, "addr": addr}
        stats.update(extra)
        return event(kind, offset_ps, stats)


def case_threads():
    """Two threads: line "a" starts at 1,000 ns, line "b" at 5,000 ns. GPU_0_bfc, capacity
    1,000,000 bytes:
      a +0 ps      alloc A 100 @ 0x10   t = 1,000,000 ps    heap 100
      b +0 ps      alloc B 400 @ 0x20   t = 5,000,000 ps    heap 500 (written on line b)
      a +3,000,000 dealloc A 100        t = 4,000,000 ps    heap 400 (by the allocator's clock)
    By each line's own offset (XProf) b's event comes first; by the capture's clock A is freed
    (4,000,000) before B is made (5,000,000), so the heap is 100 → 0 → 400 over time and the
    peak is B alone, 400 bytes at 5,000,000 ps. The stats are written in that true order."""
    gpu = Allocator("GPU_0_bfc", 1_000_000)
    e1 = gpu.event(1, 0, 100, 0x10, requested=90, tf_op="jit(f)/dot")
    e3 = gpu.event(2, 3_000_000, 100, 0x10)
    e2 = gpu.event(1, 0, 400, 0x20, tf_op="jit(f)/add", shape="[10,10]", data_type=1)
    return space([plane("/host:CPU", [line(1, "a", 1000, [e1, e3]),
                                      line(2, "b", 5000, [e2])])])


def case_tie():
    """A tie at the peak: 300 bytes at 2,000 ps (A + B) and again at 4,000 ps (A + C), one
    line at 0 ns; the last on a tie is the peak: 4,000 ps, live A and C."""
    gpu = Allocator("GPU_0_bfc", 10_000)
    events = [gpu.event(1, 1000, 100, 0x1), gpu.event(1, 2000, 200, 0x2),
              gpu.event(2, 3000, 200, 0x2), gpu.event(1, 4000, 200, 0x3)]
    return space([plane("/host:CPU", [line(1, "main", 0, events)])])


def case_tpu():
    """A TPU allocator keyed by device number (device_ordinal 0, no allocator name) with
    1,000 bytes of stack reserved, capacity 100,000; grouped into steps by group_id:
      step 7: alloc 5,000 @0x1 at 10 ps, dealloc it at 20 ps
      step 8: alloc 3,000 @0x2 at 30 ps, alloc 4,000 @0x3 at 40 ps (peak: 7,000 + 1,000)
    The peak is 8,000 bytes (heap 7,000, stack 1,000) at 40 ps, in step 8."""
    tpu = Allocator("0", 100_000, reserved=1000, key="device_ordinal")
    tpu.name = 0
    events = [tpu.event(1, 10, 5000, 0x1, group_id=7), tpu.event(2, 20, 5000, 0x1, group_id=7),
              tpu.event(1, 30, 3000, 0x2, group_id=8),
              tpu.event(1, 40, 4000, 0x3, group_id=8)]
    return space([plane("/host:CPU", [line(1, "tpu", 0, events)])])


def case_runs():
    """Allocations inside module runs, one line at 0 ns, GPU_0_bfc, capacity 10,000:
      D  20 B @0x4 at   500 ps, outside any run
      PjitFunction(f) runs 1,000-5,000 ps:        A 100 B @0x1 at 2,000 ps
      jit_g:XLA GPU module runs 6,000-9,000 ps:   B 300 B @0x2 at 7,000 ps
    The peak, 420 B at 7,000 ps, is in the run of jit_g: 300 B its plan's, 100 B kept from
    the run of jit_f (JAX's module of f), 20 B made outside any run."""
    gpu = Allocator("GPU_0_bfc", 10_000)
    events = [gpu.event(1, 500, 20, 0x4), span(3, 1000, 4000), gpu.event(1, 2000, 100, 0x1),
              span(4, 6000, 3000), gpu.event(1, 7000, 300, 0x2)]
    return space([plane("/host:CPU", [line(1, "main", 0, events)])])


def case_linked():
    """Allocations on threads the work was handed to, linked back to the module's run by
    producer and consumer ids (as XLA:GPU's PjRt client and its thread pool write them); all
    lines at 0 ns, GPU_0_bfc, capacity 10,000:
      python: D 50 B @0x3 at 500 ps, outside any run, no link: not attributed
              PjitFunction(f) runs 1,000-9,000 ps; inside it, at 2,000 ps, an event that
              produces the link (5, 34)
      pool:   the work that consumes (5, 34) runs 3,000-8,000 ps; inside it A 500 B @0x1 at
              4,000 ps (jit_f, through the link), and at 5,000 ps an event that produces the
              link (15, 1)
      pool2:  a thread pool region that consumes (15, 1) starts at 10,000 ps (an instant) and
              stops at 12,000 ps; inside it B 200 B @0x2 at 11,000 ps (jit_f, through two
              links)
    The peak, 750 B at 11,000 ps: 700 B made by jit_f's run (A and B), 50 B not attributed."""
    gpu = Allocator("GPU_0_bfc", 10_000)
    python = [gpu.event(1, 500, 50, 0x3), span(3, 1000, 8000), linked(5, 2000, 100, pt=5, p=34)]
    pool = [linked(6, 3000, 5000, ct=5, c=34), gpu.event(1, 4000, 500, 0x1),
            linked(5, 5000, 100, pt=15, p=1)]
    pool2 = [linked(7, 10_000, 0, ct=15, c=1), gpu.event(1, 11_000, 200, 0x2),
             linked(8, 12_000, 0)]
    return space([plane("/host:CPU", [line(1, "python", 0, python), line(2, "pool", 0, pool),
                                      line(3, "pool2", 0, pool2)])])


def case_bysize():
    """A capture that holds its module: tests/data/binary/wire's jit_add (arguments 2 x 1,024 B,
    allocation 2 its 1,024 B output, allocation 3 its 1,024 B temp) as "jit_add(7)" on the
    metadata plane, and on one line at 0 ns, GPU_0_bfc, capacity 100,000:
      A 1,024 B @0x1 at 1,000 ps, outside any run: the size of jit_add's allocation 2 (its
        first of that size) and of no other module's: jit_add, by size
      B 3,000 B @0x2 at 2,000 ps, outside any run: no module has that size: not attributed
      jit_add:XLA GPU module runs 5,000-9,000 ps: C 1,024 B @0x3 at 6,000 ps (its run)
    The peak, 5,048 B at 6,000 ps: the run of jit_add made 1,024 B of the 2,048 B its plan
    allocates (output 1,024 + temp 1,024, arguments 2,048 apart); 1,024 B made outside a run
    the size of jit_add's allocation; 3,000 B not attributed."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from make_capture import event_metadata, stat_metadata  # noqa: E402
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "binary",
                           "wire", "module_0007.jit_add.after_optimizations.hlo.pb"), "rb") as f:
        proto = f.read()
    metadata = (vfield(1, 2) + lfield(2, "/host:metadata") + stat_metadata(1, "Hlo Proto") +
                stat_metadata(2, "program_id") + event_metadata(1, "jit_add(7)", proto, 7))
    gpu = Allocator("GPU_0_bfc", 100_000)
    events = [gpu.event(1, 1000, 1024, 0x1), gpu.event(1, 2000, 3000, 0x2),
              span(9, 5000, 4000), gpu.event(1, 6000, 1024, 0x3)]
    return lfield(1, metadata) + space([plane("/host:CPU", [line(1, "main", 0, events)])])


def case_hostile():
    """What a lying or unlucky capture holds, one line "main" at 0 ns, GPU_0_bfc, capacity
    10,000, 50 B of arrays made before the capture began:
      A 100 B @0x1 at 1,000 ps (heap 150)
      B a deallocation of 50 B @0x99, which no allocation in the capture made (heap 100)
      C a MemoryAllocation with no stats at 3,000 ps: an allocator of no name
      D an allocation of -7 B at 4,000 ps: not a size, left out
      E an allocation of 2^62 B at 5,000 ps, heap 2^62 + 100: past 2^60, left out
      F 200 B @0x5 at 6,000 ps (heap 300)
    GPU_0_bfc: 2 allocations, 1 deallocation, the peak 300 B at 6,000 ps with A and F live
    (the 50 B freed by B were made before the step: nothing unmapped is left)."""
    gpu = Allocator("GPU_0_bfc", 10_000)
    gpu.heap = 50
    events = [gpu.event(1, 1000, 100, 0x1), gpu.event(2, 2000, 50, 0x99), event(1, 3000, {})]
    events.append(event(1, 4000, {"allocator_name": "GPU_0_bfc", "bytes_allocated": 100,
                                  "allocation_bytes": -7, "requested_bytes": -7, "addr": 0x3}))
    events.append(event(1, 5000, {"allocator_name": "GPU_0_bfc",
                                  "bytes_allocated": (1 << 62) + 100,
                                  "allocation_bytes": 1 << 62, "addr": 0x4}))
    events.append(gpu.event(1, 6000, 200, 0x5))
    return space([plane("/host:CPU", [line(1, "main", 0, events)])])


CASES = {"threads": case_threads, "tie": case_tie, "tpu": case_tpu, "runs": case_runs,
         "linked": case_linked, "bysize": case_bysize, "hostile": case_hostile}


def many(n):
    """n allocations of 256 bytes, each freed two events later, over 4 lines that start 1 ms
    apart: the heap is never more than 512 bytes."""
    gpu = Allocator("GPU_0_bfc", 1 << 30)
    lines = []
    per = n // 4
    for l in range(4):
        events = []
        for k in range(per):
            addr = (l * per + k) * 256
            events.append(gpu.event(1, 1000 * k, 256, addr))
            if k > 0:
                events.append(gpu.event(2, 1000 * k + 500, 256, addr - 256))
        events.append(gpu.event(2, 1000 * per, 256, (l * per + per - 1) * 256))
        lines.append(line(l + 1, "thread %d" % l, l * 1_000_000, events))
    return space([plane("/host:CPU", lines)])


def main():
    out = sys.argv[1]
    if "--case" in sys.argv:
        data = CASES[sys.argv[sys.argv.index("--case") + 1]]()
    else:
        data = many(int(sys.argv[sys.argv.index("--events") + 1]))
    with open(out, "wb") as f:
        f.write(data)
    print(f"{out}: {len(data)} bytes")


if __name__ == "__main__":
    main()
