#!/usr/bin/env python3
"""Sums up a raw file of bench/window-rotation-ab.sh: per ARGS set and side (before, after), over the rounds, the
turning calls' CPU (median of the rounds' medians, and the largest), every call's wall p99.9 and maximum (the
largest over the rounds), and the largest CPU of the other calls without a page fault and with one.

    python3 bench/scripts/window_rotation_ab.py RAW
"""
import re
import statistics
import sys
from collections import defaultdict


def main(path):
    runs = defaultdict(list)
    key = None
    for line in open(path):
        head = re.match(r"== round (\d+), (before|after): window-rotation .*?--sync no (.*)$", line)
        if head:
            key = (head.group(3).strip(), head.group(2))
            runs[key].append({})
            continue
        if key is None:
            continue
        run = runs[key][-1]
        calls = re.match(r"all calls +n=\d+ wall p99.9 ([\d.]+) ms, max ([\d.]+) ms; CPU p99.9 ([\d.]+) ms, max "
                         r"([\d.]+) ms; turns' CPU median ([\d.]+) ms, max ([\d.]+) ms", line)
        if calls:
            run.update(wall999=float(calls.group(1)), wallmax=float(calls.group(2)), cpu999=float(calls.group(3)),
                       cpumax=float(calls.group(4)), turnmed=float(calls.group(5)), turnmax=float(calls.group(6)))
        faults = re.match(r"other calls' CPU: (\d+) without a page fault, max ([\d.]+) ms; (\d+) with, max ([\d.]+)",
                          line)
        if faults:
            run.update(nofault=float(faults.group(2)) if int(faults.group(1)) else None,
                       fault=float(faults.group(4)) if int(faults.group(3)) else None)
    print("| ARGS | side | rounds | turns' CPU, median of medians / max (ms) | all calls' wall p99.9 / max (ms, worst "
          "round) | other calls' CPU max, without / with a page fault (ms) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (args, side), rs in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1] != "before")):
        rs = [r for r in rs if "turnmed" in r]
        if not rs:
            continue
        print("| `%s` | %s | %d | %.3f / %.3f | %.3f / %.3f | %s / %s |" % (
            args, side, len(rs), statistics.median(r["turnmed"] for r in rs), max(r["turnmax"] for r in rs),
            max(r["wall999"] for r in rs), max(r["wallmax"] for r in rs), worst(rs, "nofault"), worst(rs, "fault")))


def worst(runs, key):
    """The largest of the runs' figures, or a dash when no call of that kind came."""
    values = [r[key] for r in runs if r.get(key) is not None]
    return "%.3f" % max(values) if values else "-"


if __name__ == "__main__":
    main(sys.argv[1])
