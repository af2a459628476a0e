#!/usr/bin/env python3
"""Writes the 2026 memory-usage report (docs/FORMAT.md §5, layout 2) of a sample dump, as XLA
prints it: a port of BufferAssignment::MemoryUsageReport, GetMemoryUsageReportProto and
BufferAllocation::MemoryUsageReport in xla/service/buffer_assignment.cc (openxla/xla 343fc3437b,
read at ROCm/xla 183fa00cb5), and of tsl's HumanReadableNumBytes. The tests hold BufferScope's
reading of these files against the dump they come from.

    make_v2.py SAMPLE.buffer-assignment.txt > reports/SAMPLE.report-2026.txt

(Named so that a folder listing does not take them for modules; BufferScope knows them by
their first lines.)
"""
import re
import sys

PERCENTILE = 0.05  # buffer_assignment.h defaults
MORE_THAN_K = 50


def human(n):
    """tsl::strings::HumanReadableNumBytes."""
    neg = '-' if n < 0 else ''
    n = abs(n)
    if n < 1024:
        return '%s%dB' % (neg, n)
    units = 'KMGTPE'
    u = 0
    while n >= 1024 * 1024:
        n //= 1024
        u += 1
    return '%s%.2f%siB' % (neg, n / 1024.0, units[u])


def space_name(color):
    return {0: 'default', 1: 'vmem', 2: 'smem', 3: 'hbm', 4: 'host', 5: 'cmem'}.get(
        color, 'color_%d' % color)


def no_layout(shape):
    """Shape::ToString(print_layout=false): the `{…}` layouts dropped."""
    while True:
        stripped = re.sub(r'\{[^{}]*\}', '', shape)
        if stripped == shape:
            return shape
        shape = stripped


def allocations_of(text):
    allocs = []
    for line in text.splitlines():
        m = re.match(r'allocation (\d+): size (\d+)(.*):$', line)
        if m:
            color = re.search(r', color (\d+)', m.group(3))
            allocs.append({'index': int(m.group(1)), 'size': int(m.group(2)),
                           'color': int(color.group(1)) if color else 0, 'values': []})
            continue
        m = re.match(r' value: <(\d+) .*> \(size=(\d+),offset=(\d+)\): (.*)$', line)
        if m and allocs:
            allocs[-1]['values'].append((int(m.group(1)), int(m.group(2)), int(m.group(3)),
                                         no_layout(m.group(4))))
        if line.startswith('Used values:'):
            break
    return allocs


def allocation_report(a, prefix='  '):
    groups = {}
    for vid, size, offset, shape in sorted(a['values']):
        g = groups.setdefault(offset, {'ids': [], 'size': 0, 'offset': offset, 'shapes': []})
        g['ids'].append(vid)
        g['shapes'].append(shape)
        g['size'] = max(g['size'], size)
    order = sorted(groups.values(), key=lambda g: (-g['size'], g['ids'][-1]))
    total = sum(g['size'] for g in order)
    out = prefix + 'cumulative_size;       size;       offset; used_by_n_values; shapes_list\n'
    out += prefix + '-' * 60 + '\n'
    cumulative = 0
    for k, g in enumerate(order, 1):
        cumulative += g['size']
        out += '%s%9s(%3.0f%%); %10s; %12d; %16d; ' % (
            prefix, human(cumulative), 100.0 * cumulative / total, human(g['size']), g['offset'],
            len(g['ids']))
        counts = {}
        for s in g['shapes']:
            counts[s] = counts.get(s, 0) + 1
        out += ', '.join(s if c == 1 else '%d×%s' % (c, s)
                         for c, s in sorted((c, s) for s, c in counts.items())) + '\n'
        if k > MORE_THAN_K and total - cumulative < total * PERCENTILE:
            out += '%sThe rest %d values are less than %d%% of the total size and not shown.\n' % (
                prefix, len(order) - k, int(PERCENTILE * 100))
            break
    return out


def report(text):
    allocs = allocations_of(text)
    out = ''
    for color in sorted({a['color'] for a in allocs}):
        mine = sorted((a for a in allocs if a['color'] == color),
                      key=lambda a: (-a['size'], a['index']))
        total = sum(a['size'] for a in mine)
        out += 'Memory Space: %s (color=%d)\n' % (space_name(color), color)
        out += 'Total bytes: %d (%s)\n' % (total, human(total))
        cumulative = 0
        for k, a in enumerate(mine, 1):
            cumulative += a['size']
            out += allocation_report(a) + '\n'
            if k > MORE_THAN_K and total - cumulative < total * PERCENTILE:
                break
        out += '\n'
    return out


def report_proto(text):
    """GetMemoryUsageReportProto as text format: per memory space its total and its allocations
    largest first (the same cut as the text), each with number, size, cumulative size and share,
    and hlo_text, the allocation's part of the text report."""
    allocs = allocations_of(text)
    out = []
    for color in sorted({a['color'] for a in allocs}):
        mine = sorted((a for a in allocs if a['color'] == color),
                      key=lambda a: (-a['size'], a['index']))
        total = sum(a['size'] for a in mine)
        out.append('memory_space_allocation_entries {')
        out.append('  total_bytes: %d' % total)
        out.append('  memory_space_color: %d' % color)
        cumulative = 0
        for k, a in enumerate(mine, 1):
            cumulative += a['size']
            body = allocation_report(a).replace('\\', '\\\\').replace('"', '\\"')
            body = body.replace('\n', '\\n')
            out.append('  allocation_entries { index: %d size: %d cumulative_size: %d '
                       'cumulative_percentage: %r hlo_text: "%s" }' % (
                           a['index'], a['size'], cumulative,
                           cumulative / total if total else 0.0, body))
            if k > MORE_THAN_K and total - cumulative < total * PERCENTILE:
                break
        out.append('}')
    return '\n'.join(out) + '\n'


if __name__ == '__main__' and sys.argv[1] == '--proto':
    # make_v2.py --proto SAMPLE.buffer-assignment.txt OUT.pb   (needs protoc)
    import os
    import subprocess
    proto = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'core',
                         'proto', 'hlo_min.proto')
    with open(sys.argv[2], encoding='utf-8') as f:
        textproto = report_proto(f.read())
    encoded = subprocess.run(['protoc', '--encode=bufferscope.xlapb.MemoryUsageReportProto',
                              '-I', os.path.dirname(proto), proto], input=textproto.encode(),
                             capture_output=True, check=True).stdout
    with open(sys.argv[3], 'wb') as f:
        f.write(encoded)
elif __name__ == '__main__':
    with open(sys.argv[1], encoding='utf-8') as f:
        sys.stdout.write(report(f.read()))
