#!/usr/bin/env python3
"""Writes the bad-input corpus next to this script from the tpu_dynamic_slice sample.

Each file is one kind of damage from docs/FORMAT.md section 10; EXPECTED lists what each
must produce. Run it again after changing a case; the files are committed, this script only
documents how they were made. (The 20 MB single line is made by the test itself.)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = open(os.path.join(HERE, "..", "tpu_dynamic_slice.buffer-assignment.txt"), "rb").read()


def edit(old, new, text=SAMPLE, count=1):
    old, new = old.encode(), new.encode()
    assert old in text, old
    return text.replace(old, new, count)


def cut_after(marker):
    m = marker.encode()
    return SAMPLE[: SAMPLE.index(m) + len(m)]


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


write("empty.txt", b"")
write("binary.txt", bytes(range(256)) * 4)
write("nul-in-name.txt",
      edit(" value: <7 copy.1 @6>", " value: <7 co\0py.1 @6>"))
write("hlo-text.txt",
      b"HloModule jit_f, entry_computation_layout={(f32[2]{0})->f32[2]{0}}\n\n"
      b"ENTRY %main.3 (Arg_0.1: f32[2]) -> f32[2] {\n  %Arg_0.1 = f32[2]{0} parameter(0)\n"
      b"  ROOT %add.2 = f32[2]{0} add(f32[2]{0} %Arg_0.1, f32[2]{0} %Arg_0.1)\n}\n")
write("log.txt",
      b"2026-11-21 12:00:01.123456: I external/xla/xla/service/service.cc:168] XLA service "
      b"initialized\n2026-11-21 12:00:02: step 1 loss 2.3\n")
write("truncated-allocations.txt", cut_after("allocation 5: size 32, pre"))
write("truncated-used-values.txt", cut_after("<5 copy @6>\n positions:\n"))
write("truncated-sequence.txt", cut_after("    4:copy.1\n"))
write("truncated-live-ranges.txt", cut_after("    copy{}:5-"))
write("truncated-peak.txt", cut_after("    copy{}: 4 bytes (cumul"))
write("overflow-size.txt",
      edit("allocation 7: size 1024,", "allocation 7: size 99999999999999999999999,"))
write("overflow-offset.txt",
      edit("(size=512,offset=512)", "(size=512,offset=18446744073709551616)"))
write("overflow-range-end.txt",
      edit("    copy{}:5-7", "    copy{}:5-99999999999999999999"))
write("overflow-end-byte.txt",
      edit("(size=512,offset=512)", "(size=512,offset=9223372036854775807)"))
write("negative-size.txt", edit("allocation 5: size 32,", "allocation 5: size -32,"))
write("negative-offset.txt",
      edit("(size=512,offset=512)", "(size=512,offset=-512)"))
write("live-range-backwards.txt", edit("    copy{}:5-7", "    copy{}:7-5"))
write("live-range-past-max.txt", edit("    copy{}:5-7", "    copy{}:5-700"))
write("absurd-max.txt",
      edit("HloLiveRange (max 8):", "HloLiveRange (max 9000000000000000000):"))
no_sequence = SAMPLE[: SAMPLE.index(b"  InstructionSequence:")] + SAMPLE[SAMPLE.index(b"  BufferLiveRange:"):]
write("absurd-max-no-sequence.txt",
      edit("    Arg_0.1{}:0-8", "    Arg_0.1{}:0-9000000000000000000",
           edit("HloLiveRange (max 8):", "HloLiveRange (max 9000000000000000000):", no_sequence)))
write("duplicate-allocation.txt",
      edit("allocation 6: size 4,", "allocation 5: size 4,"))
write("value-in-two-allocations.txt",
      edit(" value: <3 copy-start{2} @2>", " value: <8 dynamic-slice.4 @2>"))
write("unknown-range-value.txt", edit("    copy{}:5-7", "    nosuch.7{}:5-7"))
write("unknown-peak-value.txt",
      edit("    copy{}: 4 bytes", "    nosuch.7{}: 4 bytes"))
write("peak-step-past-max.txt",
      edit("  Live ranges at 7 (peak):", "  Live ranges at 700 (peak):"))
write("huge-value-id.txt",
      edit("<7 copy.1 @6>", "<9223372036854775807 copy.1 @6>", count=2))
write("huge-peak-entry.txt",
      edit("    copy{}: 4 bytes (cumulative: 4128 bytes)",
           "    copy{}: 4611686018427387904 bytes (cumulative: 4128 bytes)"))
