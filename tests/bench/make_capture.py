#!/usr/bin/env python3
"""Writes a profiler capture (an XSpace, `*.xplane.pb`) of many modules, straight to wire bytes.

    python3 tests/bench/make_capture.py OUT.xplane.pb MODULES [PROTO]

Every module is the HloProto PROTO (default: the tpu_unstack sample's), named
"jit_step_<k>(<k>)" as XProf names modules, with the stats "Hlo Proto" and "program_id" the
profiler's metadata plane carries (see tests/data/binary/protos/make_protos.py, which writes
the small capture the tests read through protoc). Writing the wire format by hand keeps a
20,000-module capture to a second; protoc's text format would take minutes.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROTO = os.path.join(HERE, "..", "data", "binary", "protos",
                             "module_0001.tpu_unstack.after_optimizations.hlo.pb")


# The wire format's primitives, written once for the hand-made fixture.
sys.path.insert(0, os.path.join(HERE, "..", "data", "binary", "wire"))
from make_wire import blob as field, num as number  # noqa: E402


def stat_metadata(key, name):
    value = number(1, key) + field(2, name.encode())
    return field(5, number(1, key) + field(2, value))


def event_metadata(key, label, proto, program_id):
    stats = field(5, number(1, 1) + field(6, proto)) + field(5, number(1, 2) + number(3, program_id))
    value = number(1, key) + field(2, label.encode()) + field(4, label.encode()) + stats
    return field(4, number(1, key) + field(2, value))


def capture(modules, proto):
    device = field(1, number(1, 1) + field(2, b"/device:TPU:0"))
    parts = [number(1, 2), field(2, b"/host:metadata"), stat_metadata(1, "Hlo Proto"),
             stat_metadata(2, "program_id")]
    for k in range(1, modules + 1):
        parts.append(event_metadata(k, f"jit_step_{k}({k})", proto, k))
    return device + field(1, b"".join(parts)) + field(4, b"host0")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    with open(sys.argv[3] if len(sys.argv) == 4 else DEFAULT_PROTO, "rb") as f:
        proto = f.read()
    with open(sys.argv[1], "wb") as f:
        f.write(capture(int(sys.argv[2]), proto))


if __name__ == "__main__":
    main()
