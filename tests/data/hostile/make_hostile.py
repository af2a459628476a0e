#!/usr/bin/env python3
"""Writes the hostile-input corpus next to this script from the gpu_vllm_update_slice sample,
whose xla__unselect values are live at its peak.

Each file holds text an attacker chose, in the places XLA prints text a user's program chose
(op_type, op_name, source_file: absl::CEscape'd, so bytes >= 0x80 and controls are octal
escapes). Their names are plain `.txt`, so a scan of tests/data finds only the samples (the
parser reads any name). The files are committed; this script documents how they were made. Larger inputs
(the 2000-value, 1000-frame call stacks, a FIFO, a file cut while it loads) are made by the
tests themselves.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = open(os.path.join(HERE, "..", "gpu_vllm_update_slice.buffer-assignment.txt"), "rb").read()
OP_NAME = b'op_name="xla__unselect"'
OP_TYPE = b'op_type="xla__unselect"'
SOURCE = b'source_file="/code/github_code/xla_vllm/vllm/vllm/v1/worker/xla_gpu_model_runner.py"'


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def edit(old, new, text=SAMPLE, count=-1):
    assert old in text, old
    return text.replace(old, new, count)


# Terminal, CSV and decoding: a formula, an OSC title sequence ended by BEL, CR LF and a forged
# report line, U+202E RIGHT-TO-LEFT OVERRIDE, "cafe" with an e-acute, a byte that is not UTF-8
# and a NUL, all CEscape'd as XLA writes them; op_type holds a raw ESC sequence (clear screen)
# as a file that XLA did not write could.
escapes = edit(
    OP_NAME,
    b'op_name="=HYPERLINK(\\"http://example.invalid/\\",\\"click\\")\\033]0;PWNED\\007\\r\\n'
    b'FORGED peak 0B\\342\\200\\256caf\\303\\251\\377\\000end"',
)
escapes = edit(OP_TYPE, b'op_type="+cmd|\x1b[2J@SUM(1)"', escapes)
write("escapes.txt", escapes)

# Rich text: 25 nested tables and a 100000 x 100000 image in op_name, markup in source_file.
html = edit(
    OP_NAME,
    b'op_name="x' + b"<table><tr><td>" * 25 + b'<img width=100000 height=100000 src=x>"',
)
html = edit(SOURCE, b'source_file="/src/<b>{line}_{column}</b>.py"', html)
write("html.txt", html)

# A 40,000-segment op_name (every instruction of the sample carries it).
deep = edit(OP_NAME, b'op_name="' + b"a/" * 40000 + b'end"', count=1)
write("deep-opname.txt", deep)
