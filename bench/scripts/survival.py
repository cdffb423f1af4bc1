#!/usr/bin/env python3
"""bench/survival.sh's driver: kill -9 rounds under load, a SIGTERM under load, and abusive clients against
`ddf serve` on loopback; prints and writes a dated table under bench/results/survival/. Every number in the table
is counted here, from the daemon's replies and /proc; nothing is assumed."""
import argparse
import datetime
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

PASSWORD = "survival-pw"
JAVA_OPTS = []
# jars from before DDF_REQUIREPASS take the password on the command line (--password-on-command-line)
PASSWORD_ARGS = []


def enc(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class Resp:
    """A blocking RESP2 client: replies as int, bytes, str ('+..'/'-..') or list."""

    def __init__(self, port, timeout=30):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.f = self.s.makefile("rb", buffering=1 << 16)

    def send(self, *args):
        self.s.sendall(enc(*args))

    def call(self, *args):
        self.send(*args)
        return self.read()

    def read(self):
        line = self.f.readline()
        if not line:
            raise EOFError("closed")
        t, rest = line[:1], line[1:-2]
        if t == b"+":
            return "+" + rest.decode()
        if t == b"-":
            return "-" + rest.decode()
        if t == b":":
            return int(rest)
        if t == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.f.read(n + 2)
            return data[:-2]
        if t == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise IOError("bad reply %r" % line)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


class Daemon:
    def __init__(self, jar, data, extra=(), log_path=None):
        env = dict(os.environ, DDF_REQUIREPASS=PASSWORD)
        self.log_path = log_path or os.path.join(data + ".log")
        self.log = open(self.log_path, "ab")
        # the log is appended to across restarts: look for this start's line only
        offset = self.log.tell()
        self.proc = subprocess.Popen(["java"] + JAVA_OPTS + ["-jar", jar, "serve", "--port", "0", "--data-dir", data] + PASSWORD_ARGS + list(extra),
                                     stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        self.port = None
        deadline = time.time() + 120
        while time.time() < deadline and self.port is None:
            with open(self.log_path, "rb") as f:
                f.seek(offset)
                m = re.search(r"serving RESP on [^ ]*:(\d+)", f.read().decode(errors="replace"))
            if m:
                self.port = int(m.group(1))
            elif self.proc.poll() is not None:
                raise RuntimeError("daemon exited: " + open(self.log_path, errors="replace").read()[-2000:])
            else:
                time.sleep(0.1)
        if self.port is None:
            raise RuntimeError("daemon did not start")

    def rss_mb(self):
        try:
            for line in open("/proc/%d/status" % self.proc.pid):
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
        except OSError:
            pass
        return 0.0

    def fds(self):
        try:
            return len(os.listdir("/proc/%d/fd" % self.proc.pid))
        except OSError:
            return 0

    def client(self, auth=True):
        c = Resp(self.port)
        if auth:
            r = c.call("AUTH", PASSWORD)
            assert r == "+OK", r
        return c

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()

    def term(self):
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=300)
        self.log.close()
        return code


class Writer(threading.Thread):
    """Adds unique items with pipelined BF.MADD; counts as acknowledged only the items whose reply arrived."""

    def __init__(self, port, key, first, batch=500, depth=4):
        super().__init__(daemon=True)
        self.port, self.key, self.next, self.batch, self.depth = port, key, first, batch, depth
        self.acked = []  # (first id, count) of batches whose reply arrived

    def run(self):
        try:
            c = Resp(self.port)
            c.call("AUTH", PASSWORD)
            inflight = []
            while True:
                while len(inflight) < self.depth:
                    ids = (self.next, self.batch)
                    self.next += self.batch
                    c.send("BF.MADD", self.key, *["s%d" % i for i in range(ids[0], ids[0] + ids[1])])
                    inflight.append(ids)
                reply = c.read()
                ids = inflight.pop(0)
                if isinstance(reply, list) and len(reply) == ids[1]:
                    self.acked.append(ids)
        except (OSError, EOFError, ValueError):
            return  # the daemon was killed


def lost(port, key, acked):
    """Counts acknowledged items the restarted daemon does not hold."""
    c = Resp(port, timeout=120)
    c.call("AUTH", PASSWORD)
    missing = 0
    for first, count in acked:
        reply = c.call("BF.MEXISTS", key, *["s%d" % i for i in range(first, first + count)])
        missing += sum(1 for v in reply if v != 1)
    c.close()
    return missing


def kill_rounds(jar, work, rounds, rng):
    data = os.path.join(work, "kill9")
    key, capacity = "surv", 50_000_000
    next_id, acked_total, lost_total, pending = 0, 0, 0, None
    for r in range(rounds + 1):
        d = Daemon(jar, data)
        if pending is not None:
            lost_total += lost(d.port, key, pending)
        if r == rounds:
            code = d.term()
            break
        if r == 0:
            c = d.client()
            assert c.call("BF.RESERVE", key, "0.01", str(capacity)) == "+OK"
            c.close()
        w = Writer(d.port, key, next_id)
        w.start()
        # kill while adds flow: once the first reply is in (a fresh JVM on a loaded machine is slow to start)
        deadline = time.time() + 60
        while not w.acked and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.5, 2.0))
        d.kill9()
        w.join(30)
        next_id = w.next
        pending = w.acked
        acked_total += sum(n for _, n in w.acked)
        print("kill -9 round %d: %d acknowledged so far, %d lost" % (r + 1, acked_total, lost_total), flush=True)
    return {"rounds": rounds, "acknowledged": acked_total, "lost": lost_total, "last_exit": code}


def sigterm_round(jar, work):
    data = os.path.join(work, "term")
    d = Daemon(jar, data)
    c = d.client()
    c.call("BF.RESERVE", "t", "0.01", "50000000")
    c.close()
    w = Writer(d.port, "t", 0)
    w.start()
    deadline = time.time() + 60
    while not w.acked and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(2)
    start = time.time()
    code = d.term()
    took = time.time() - start
    w.join(30)
    d2 = Daemon(jar, data)
    missing = lost(d2.port, "t", w.acked)
    d2.term()
    return {"exit": code, "seconds": took, "acknowledged": sum(n for _, n in w.acked), "lost": missing}


class Abuse:
    """Hostile clients, each kind in its own thread, against one daemon, while a probe checks service."""

    def __init__(self, daemon, minutes):
        self.d, self.stop, self.lock = daemon, threading.Event(), threading.Lock()
        self.until = time.time() + minutes * 60
        self.n = {k: 0 for k in ("partial", "rst", "flood_clients", "flood_refused", "auth_tries", "auth_closed",
                                 "strangers", "strangers_closed", "churn", "probe_ok", "probe_fail")}
        self.probe_worst = 0.0
        self.probe_why = {}
        self.peak_rss = 0.0
        self.peak_fds = 0
        self.flood_peak_growth = 0.0

    def count(self, key, by=1):
        with self.lock:
            self.n[key] += by

    def loop(self, fn, pause):
        while not self.stop.is_set():
            try:
                fn()
            except (OSError, EOFError, AssertionError, ValueError):
                pass
            self.stop.wait(pause)

    def partial(self):
        c = Resp(self.d.port)
        if random.random() < 0.5:
            c.call("AUTH", PASSWORD)
        c.s.sendall(b"*3\r\n$6\r\nBF.ADD\r\n$1\r\nk\r\n$10\r\nabc")
        self.count("partial")
        self.stop.wait(1)
        c.close()

    def rst(self):
        c = self.d.client()
        arg = b"x" * 65536
        c.s.sendall(b"*18\r\n$7\r\nBF.MADD\r\n$1\r\nm\r\n" + b"".join(b"$65536\r\n" + arg + b"\r\n" for _ in range(8)))
        c.s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        c.close()
        self.count("rst")

    def flood(self, authenticated):
        """30 clients each send the start of a 64 MiB BF.MADD (arguments of 256 KiB) and hold it."""
        base = self.d.rss_mb()
        arg = b"$262144\r\n" + b"f" * 262144 + b"\r\n"
        clients = []

        def one():
            try:
                c = Resp(self.d.port, timeout=10)
                if authenticated:
                    c.call("AUTH", PASSWORD)
                clients.append(c)
                c.s.sendall(b"*258\r\n$7\r\nBF.MADD\r\n$1\r\nm\r\n")
                for _ in range(255):
                    c.s.sendall(arg)
            except (OSError, EOFError):
                self.count("flood_refused")

        threads = [threading.Thread(target=one, daemon=True) for _ in range(30)]
        for t in threads:
            t.start()
        deadline = time.time() + 20
        while time.time() < deadline and any(t.is_alive() for t in threads):
            self.flood_peak_growth = max(self.flood_peak_growth, self.d.rss_mb() - base)
            time.sleep(0.2)
        self.flood_peak_growth = max(self.flood_peak_growth, self.d.rss_mb() - base)
        self.count("flood_clients", 30)
        for c in clients:
            c.close()
        self.stop.wait(10)

    def brute(self):
        c = Resp(self.d.port)
        while not self.stop.is_set():
            r = c.call("AUTH", "guess%d" % random.randrange(1 << 30))
            self.count("auth_tries")
            if "closing" in str(r):
                self.count("auth_closed")
                break
        c.close()

    def strangers(self):
        held = []
        while not self.stop.is_set():
            while len(held) < 150:
                try:
                    held.append(Resp(self.d.port, timeout=1))
                    self.count("strangers")
                except OSError:
                    break
            self.stop.wait(1)
            alive = []
            for c in held:
                try:
                    c.s.setblocking(False)
                    data = c.s.recv(1024)
                    if data == b"" or data.startswith(b"-"):
                        self.count("strangers_closed")
                        c.close()
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    self.count("strangers_closed")
                    continue
                c.s.setblocking(True)
                alive.append(c)
            held = alive
        for c in held:
            c.close()

    def churn(self):
        for _ in range(50):
            s = socket.create_connection(("127.0.0.1", self.d.port), timeout=5)
            s.close()
            self.count("churn")

    def probe(self):
        i = 0
        while not self.stop.is_set():
            start = time.time()
            why = None
            try:
                c = Resp(self.d.port)
                replies = [c.call("AUTH", PASSWORD), c.call("BF.ADD", "probe", "p%d" % i),
                           c.call("BF.EXISTS", "probe", "p%d" % i)]
                c.close()
                ok = replies == ["+OK", 1, 1]
                if not ok:
                    why = str(next(r for r, want in zip(replies, ["+OK", 1, 1]) if r != want))[:60]
            except (OSError, EOFError) as e:
                ok, why = False, type(e).__name__
            if why:
                with self.lock:
                    self.probe_why[why] = self.probe_why.get(why, 0) + 1
            took = time.time() - start
            self.count("probe_ok" if ok else "probe_fail")
            self.probe_worst = max(self.probe_worst, took)
            i += 1
            self.stop.wait(0.2)

    def monitor(self):
        while not self.stop.is_set():
            self.peak_rss = max(self.peak_rss, self.d.rss_mb())
            self.peak_fds = max(self.peak_fds, self.d.fds())
            self.stop.wait(0.25)

    def run(self):
        self.base_rss = self.d.rss_mb()
        threads = [threading.Thread(target=f, daemon=True) for f in (
            lambda: self.loop(self.partial, 0.05), lambda: self.loop(self.partial, 0.05),
            lambda: self.loop(self.rst, 0.1), lambda: self.loop(self.brute, 0.0), lambda: self.loop(self.brute, 0.0),
            lambda: self.loop(self.strangers, 0), lambda: self.loop(self.churn, 0.5),
            lambda: self.loop(lambda: (self.flood(True), self.flood(False)), 5),
            self.probe, self.monitor)]
        for t in threads:
            t.start()
        while time.time() < self.until:
            time.sleep(1)
        self.stop.set()
        for t in threads:
            t.join(60)


def flood_only(jar):
    work = tempfile.mkdtemp(prefix="ddf-flood-")
    try:
        for authenticated in (True, False):
            d = Daemon(jar, os.path.join(work, "data-%s" % authenticated))
            warm = d.client()
            warm.call("BF.ADD", "probe", "warm")
            warm.close()
            abuse = Abuse(d, 0)
            before = d.rss_mb()
            abuse.flood(authenticated)
            probe = d.client().call("PING") if d.proc.poll() is None else "dead"
            print("%s: RSS %.0f MB before, peak growth %.0f MB, %d of 30 refused at connect/send, PING after: %s; "
                  "uptime: %s" % ("after AUTH" if authenticated else "before AUTH", before, abuse.flood_peak_growth,
                                  abuse.n["flood_refused"], probe,
                                  subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()),
                  flush=True)
            d.term()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--minutes", type=float, default=60)
    p.add_argument("--jar")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--java-opts", default="-Dio.netty.leakDetection.level=paranoid",
                   help="JVM options of the daemon (default: Netty's paranoid leak detection, counted in the table)")
    p.add_argument("--password-on-command-line", action="store_true",
                   help="for a jar from before --requirepass-file/DDF_REQUIREPASS")
    p.add_argument("--flood-only", action="store_true",
                   help="only issue 13's item 4: 30 clients x the start of a 64 MiB BF.MADD, with then without AUTH")
    a = p.parse_args()
    jar = a.jar or os.path.join(a.root, "ingest/target/ddf.jar")
    JAVA_OPTS.extend(a.java_opts.split())
    if a.password_on_command_line:
        PASSWORD_ARGS.extend(["--requirepass", PASSWORD])
    if a.flood_only:
        flood_only(jar)
        return
    rng = random.Random(a.seed)
    random.seed(a.seed)
    uptime_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix="ddf-survival-")
    started = datetime.datetime.utcnow()
    try:
        kills = kill_rounds(jar, work, a.rounds, rng)
        term = sigterm_round(jar, work)
        d = Daemon(jar, os.path.join(work, "abuse"), ["--max-clients", "100"])
        warm = d.client()
        warm.call("BF.ADD", "probe", "warm")
        warm.close()
        abuse = Abuse(d, a.minutes)
        abuse.run()
        log_lines = sum(1 for _ in open(d.log_path, errors="replace"))
        leaks = sum(open(p, errors="replace").read().count("LEAK:") for p in
                    [os.path.join(work, f) for f in os.listdir(work) if f.endswith(".log")])
        alive = d.proc.poll() is None
        abuse_exit = d.term() if alive else d.proc.returncode
    finally:
        uptime_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    n = abuse.n
    rows = [
        ("kill -9 under load (BF.MADD, pipelined)", "%d rounds" % kills["rounds"],
         "%d acknowledged adds, %d lost" % (kills["acknowledged"], kills["lost"])),
        ("SIGTERM under load", "1 round", "exit %d after %.1f s, %d acknowledged, %d lost" % (
            term["exit"], term["seconds"], term["acknowledged"], term["lost"])),
        ("partial frames, half before AUTH", "%d connections" % n["partial"], "held 1 s each, then closed"),
        ("disconnects mid-frame (RST after 512 KiB)", "%d connections" % n["rst"], "-"),
        ("floods: 30 clients x start of a 64 MiB BF.MADD, with and without AUTH", "%d clients" % n["flood_clients"],
         "peak RSS growth %.0f MB (bound 512 MB), %d refused at connect/send" % (
             abuse.flood_peak_growth, n["flood_refused"])),
        ("AUTH brute force (2 connections in a loop)", "%d tries" % n["auth_tries"],
         "%.1f tries/s, %d connections closed after 5 failures" % (n["auth_tries"] / (a.minutes * 60),
                                                                   n["auth_closed"])),
        ("idle strangers (150 kept open, --max-clients 100)", "%d opened" % n["strangers"],
         "%d closed by the daemon (oldest evicted / auth timeout)" % n["strangers_closed"]),
        ("abandoned connections (churn)", "%d" % n["churn"], "-"),
        ("well-behaved probe (AUTH, BF.ADD, BF.EXISTS every 0.2 s)", "%d ok, %d failed" % (
            n["probe_ok"], n["probe_fail"]), "slowest %.2f s; failures: %s" % (
            abuse.probe_worst, ", ".join("%s x%d" % kv for kv in sorted(abuse.probe_why.items())) or "none")),
        ("daemon during the abuse", "alive: %s, exit %s" % (alive, abuse_exit),
         "peak RSS %.0f MB (from %.0f), peak descriptors %d, log lines %d" % (
             abuse.peak_rss, abuse.base_rss, abuse.peak_fds, log_lines)),
        ("Netty leak reports (LEAK:) in every daemon log, JVM options `%s`" % " ".join(JAVA_OPTS), "%d" % leaks, "-"),
    ]
    out = ["# Survival run %s UTC" % started.strftime("%Y-%m-%d %H:%M"), "",
           "Command: `bench/survival.sh --rounds %d --minutes %g` (jar %s, seed %d)" % (
               a.rounds, a.minutes, os.path.relpath(jar, a.root), a.seed),
           "", "uptime before: `%s`" % uptime_before, "", "uptime after: `%s`" % uptime_after, "",
           "| what | how much | outcome |", "| --- | --- | --- |"]
    out += ["| %s | %s | %s |" % r for r in rows]
    text = "\n".join(out) + "\n"
    print(text)
    dest = os.path.join(a.root, "bench/results/survival")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, started.strftime("%Y-%m-%d-%H%M") + ".md"), "w") as f:
        f.write(text)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
