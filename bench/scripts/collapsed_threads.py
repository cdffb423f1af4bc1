#!/usr/bin/env python3
"""Summarises an async-profiler collapsed profile taken with `threads`: samples per thread, and per thread the
share of a few categories (frames matched by substring, first match from the leaf up). Usage:
  collapsed_threads.py FILE.collapsed"""
import collections
import re
import sys

CATEGORIES = [
    ("filter (streamHash)", ("streamHash", "containsHash")),
    ("hash", ("XXH3", ".hash(")),
    ("disruptor wait/signal", ("WaitStrategy", "ProcessingSequenceBarrier")),
    ("disruptor sequencer", ("MultiProducerSequencer", "SingleProducerSequencer")),
    ("publish into ring", ("FilterPipeline.publish", "Connection.publishItem", "VerdictRing.publishItem")),
    ("verdict routing/wake", ("VerdictRouter", "Connection.deliver", "Connection.wake", "VerdictRing.deliver", "VerdictRing.wake", "SingleThreadEventExecutor.execute", "wakeup")),
    ("decode", ("RespDecoder.decodeOne", "RespDecoder.header", "RespDecoder.admit", "RespDecoder.number", "RespDecoder.endOfLine", "ArgumentBuffers", "RespDecoder.channelRead")),
    ("reply write/flush", ("ReplyQueue", "VerdictBytes", "ReplyWriter", "doWrite", "flush0", "writev", "RespEncoder")),
    ("socket read", ("doReadBytes", "EpollRecvByteAllocator", "readAddress", "EpollStreamChannel$EpollStreamUnsafe.epollInReady")),
    ("epoll wait", ("epollWait", "epoll_wait", "epollBusyWait")),
    ("command dispatch", ("CommandTable", "Conductor", "FilterCommands", "RespConnection", "RespDecoder.decode")),
    ("JIT compiler", ("Compile", "Phase", "C2Compiler")),
    ("GC", ("G1", "GC")),
]

def main(path):
    threads = collections.Counter()
    cats = collections.defaultdict(collections.Counter)
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        n = int(n)
        frames = stack.split(";")
        thread = re.sub(r"[-#]?\d+( tid=\d+)?\]$|\[|\]", "", frames[0]) if frames[0].startswith("[") else "?"
        thread = re.sub(r"\d+", "N", thread)
        threads[thread] += n
        cat = "other"
        for f in reversed(frames):  # leaf first: the innermost recognised frame names the category
            hit = next((name for name, keys in CATEGORIES if any(k in f for k in keys)), None)
            if hit:
                cat = hit
                break
        cats[thread][cat] += n
    total = sum(threads.values())
    print(f"total samples {total}")
    for thread, n in threads.most_common(8):
        print(f"\n{thread}: {n} samples, {100.0 * n / total:.1f}% of all")
        for cat, m in cats[thread].most_common():
            print(f"  {100.0 * m / n:5.1f}%  {cat}")

if __name__ == "__main__":
    main(sys.argv[1])
