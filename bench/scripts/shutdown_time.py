#!/usr/bin/env python3
"""Times `ddf serve`'s SIGTERM with many filters (issue 13, item 7).

Starts the daemon on a fresh data directory, makes N filters with BF.ADD on new keys (each one added element,
so every filter is dirty), sends SIGTERM and reports the seconds until the process exits; then starts it again
on the same directory and reports the start-up time (until PING answers) and the shutdown time of filters that
were opened but not changed.

    python3 bench/scripts/shutdown_time.py --jar ingest/target/ddf.jar --filters 18000 --dir /work/scratch/d
"""
import argparse, os, re, shutil, signal, socket, subprocess, sys, threading, time


def resp(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def read_replies(sock, count, buf=b""):
    replies = []
    while len(replies) < count:
        while b"\r\n" not in buf:
            chunk = sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("connection closed after %d replies" % len(replies))
            buf += chunk
        line, buf = buf.split(b"\r\n", 1)
        replies.append(line)
    return replies, buf


def start(jar, data, extra):
    proc = subprocess.Popen(["java", "-jar", jar, "serve", "--port", "0", "--data-dir", data] + extra,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.monotonic()
    port = None
    for line in proc.stderr:
        text = line.decode(errors="replace")
        sys.stderr.write(text)
        m = re.search(r"serving RESP on [^ ]*:(\d+)", text)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        raise RuntimeError("daemon did not print its port")
    threading.Thread(target=lambda: [sys.stderr.write(l.decode(errors="replace")) for l in proc.stderr],
                     daemon=True).start()
    s = socket.create_connection(("127.0.0.1", port), timeout=600)
    s.sendall(resp("PING"))
    read_replies(s, 1)
    return proc, s, time.monotonic() - t0


def stop(proc):
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    status = proc.wait(timeout=600)
    return time.monotonic() - t0, status


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--jar", required=True)
    p.add_argument("--filters", type=int, default=18000)
    p.add_argument("--dir", required=True)
    p.add_argument("--batch", type=int, default=500)
    a, extra = p.parse_known_args()
    if os.path.exists(a.dir):
        shutil.rmtree(a.dir)
    os.makedirs(a.dir)
    data = os.path.join(a.dir, "data")
    proc, s, startup = start(a.jar, data, extra)
    t0 = time.monotonic()
    buf = b""
    for first in range(0, a.filters, a.batch):
        n = min(a.batch, a.filters - first)
        s.sendall(b"".join(resp("BF.ADD", "k%d" % i, "x") for i in range(first, first + n)))
        replies, buf = read_replies(s, n, buf)
        bad = [r for r in replies if r != b":1"]
        if bad:
            raise RuntimeError("unexpected reply %r" % bad[0])
    made = time.monotonic() - t0
    s.close()
    down, status = stop(proc)
    print("filters=%d created_in=%.1fs sigterm_dirty=%.2fs status=%d" % (a.filters, made, down, status))
    proc, s, startup = start(a.jar, data, extra)
    s.close()
    down2, status2 = stop(proc)
    print("filters=%d startup=%.2fs sigterm_unchanged=%.2fs status=%d" % (a.filters, startup, down2, status2))
    shutil.rmtree(a.dir)


if __name__ == "__main__":
    main()
