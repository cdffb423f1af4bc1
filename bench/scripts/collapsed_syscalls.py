#!/usr/bin/env python3
"""Where a daemon's event loop spends its time, by system call: an async-profiler collapsed profile taken with
`threads` and kernel frames (bench/profile-daemon.sh), its samples on the connections' event loop
(multiThreadIoEventLoopGroup-3-*, Netty 4.2's worker group; the boss group is -2) split by the kernel entry each
sits under (the third kernel frame of a system call: __x64_sys_sendto, __do_sys_io_uring_enter, ...), or by
whether user code is the engine's (the filter) or ingest's; pvm_irq_enable (this PVM guest's interrupt enable, paid
on every kernel exit) is counted again wherever it appears. Written for issue 31's epoll against io_uring. Usage:
  collapsed_syscalls.py REQUESTS FILE.collapsed...
REQUESTS: the requests profiled (N of profile-daemon.sh), for the event loop's CPU per request (1 ms per sample,
the script's interval)."""
import collections
import sys


def summarize(path, requests):
    loop = 0
    shares = collections.Counter()
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        n = int(n)
        frames = stack.split(";")
        if "multiThreadIoEventLoopGroup-3" not in frames[0]:
            continue
        loop += n
        kernel = [f for f in frames if f.endswith("_[k]")]
        if "pvm_irq_enable_[k]" in kernel:
            shares["  of which pvm_irq_enable (any entry)"] += n
        if kernel:
            entry = kernel[2] if len(kernel) > 2 and kernel[0].startswith("entry_SYSCALL") else kernel[0]
            shares["kernel: " + entry.replace("_[k]", "")] += n
        elif any("io/ddf/engine" in f for f in frames):
            shares["user: engine (filter)"] += n
        elif any("io/ddf/ingest" in f for f in frames):
            shares["user: ingest (decode, dispatch, replies)"] += n
        else:
            shares["user: netty/jdk other"] += n
    if loop == 0:
        print("%s: no event loop samples" % path)
        return
    print("%s: event loop %d samples (1 ms each) = %.2f us per request" % (path, loop, loop * 1000.0 / requests))
    for name, n in sorted(shares.items(), key=lambda x: -x[1])[:14]:
        print("  %-45s %6d %5.1f%%" % (name, n, 100.0 * n / loop))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for path in sys.argv[2:]:
        summarize(path, int(sys.argv[1]))


if __name__ == "__main__":
    main()
