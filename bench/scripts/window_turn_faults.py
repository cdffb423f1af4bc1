#!/usr/bin/env python3
"""Which pages the turning calls of `ddf bench window-rotation --trace-turns` fault on, from a perf trace.

    perf record -e exceptions:page_fault_user -k CLOCK_MONOTONIC -o PF.data -- java ... window-rotation ... --trace-turns > RUN.txt
    perf script -i PF.data -F tid,time,trace > PF.txt
    python3 bench/scripts/window_turn_faults.py RUN.txt PF.txt

The bench prints each turn's span on System.nanoTime's clock (CLOCK_MONOTONIC on Linux, as perf stamps with -k) and
the filter file's mapping; the measuring thread is the one with the most faults in the mapping. Each fault of that
thread within a turn's span is named by where it falls in the file of a blocked fifo-bloom with a window (layout 2.1:
the header and state, then the 2L slots' blocks, then their maps): the header or slot 0's first sweep range (the first
100 KB), a slot's first sweep range (100 KB around a slot's start), a slot map, or an item's block (anywhere else).
Faults outside the mapping are the JVM's (heap, code). The bench's own per-turn count (from /proc/thread-self/stat)
also counts the faults of its measuring code around the call; this counts only those within the call.
"""
import collections
import re
import sys

run, trace = sys.argv[1], sys.argv[2]
spans, base, end, slot_bytes, slots = [], None, None, None, None
for line in open(run):
    m = re.match(r'mapping: ([0-9a-f]+)-([0-9a-f]+) ', line)
    if m:
        base, end = int(m.group(1), 16), int(m.group(2), 16)
    m = re.search(r'window of time: (\d+) blocks of 512 bits per generation', line)
    if m:
        slot_bytes = int(m.group(1)) * 64
    m = re.search(r'in (\d+) slices', line)
    if m:
        slots = 2 * int(m.group(1))
    m = re.match(r'turn +(\d+): ([\d.]+) ms wall, ([\d.]+) ms CPU.* (\d+) page faults .*span (\d+)\.\.(\d+) ns', line)
    if m:
        spans.append((int(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4)), int(m.group(5)),
                      int(m.group(6))))
faults = []
for line in open(trace):
    parts = line.split()
    address = int(re.search(r'address=(0x[0-9a-f]+)', line).group(1), 16)
    faults.append((int(float(parts[1].rstrip(':')) * 1e9), parts[0], address))
main = collections.Counter(f[1] for f in faults if base <= f[2] < end).most_common(1)[0][0]
maps = slots * slot_bytes
total = collections.Counter()
for (n, wall, cpu, counted, start, stop) in spans:
    kinds = []
    for (_, _, address) in (f for f in faults if start <= f[0] <= stop and f[1] == main):
        offset = address - base
        if not base <= address < end:
            kind = 'outside the table'
        elif offset < 100_000:
            kind = 'header or slot 0 first range'
        elif offset >= maps:
            kind = 'a slot map'
        elif any(abs(offset - i * slot_bytes) < 100_000 for i in range(1, slots)):
            kind = 'a first sweep range'
        else:
            kind = 'an item block'
        kinds.append(kind)
        total[kind] += 1
    print("turn %2d: %.3f ms wall, %.3f ms CPU, %d faults counted by the bench; within the call: %s"
          % (n, wall, cpu, counted, ", ".join(kinds) or "none"))
print("within the %d turning calls: %s" % (len(spans), dict(total) or "no page fault"))
