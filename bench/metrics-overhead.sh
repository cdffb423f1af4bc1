#!/usr/bin/env bash
# What the per-command statistics (INFO commandstats, always on) and the Prometheus histogram (--metrics-port)
# cost a client, one command: bench/metrics-overhead.sh BASELINE_JAR [ROUNDS] [REQUESTS]
# BASELINE_JAR is a ddf.jar built without them (e.g. `git worktree add /tmp/base 5fffdc3` and package there);
# this tree's ingest/target/ddf.jar is measured without and with --metrics-port. Each round starts each variant
# on a free loopback port, in turn (interleaved, so machine load falls on all alike), and runs redis-benchmark's
# BF.ADD over 10^6 random items: pipelined (-P 16, the dispatch cost matters most) and not (-P 1). Prints
# requests per second per variant and round, with `uptime` beside each round.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${1:?usage: bench/metrics-overhead.sh BASELINE_JAR [ROUNDS] [REQUESTS]}"
rounds="${2:-3}"
n="${3:-300000}"
jar="$root/ingest/target/ddf.jar"
flags=$("$root/bin/ddf" jvm-flags | tr '\n' ' ')
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
run() { # name jar extra-args...
  local name="$1" j="$2"; shift 2
  local port; port="$(free_port)"
  rm -rf "$work/data"
  # shellcheck disable=SC2086
  java $flags -jar "$j" serve --port "$port" --data-dir "$work/data" "$@" > "$work/serve.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
  redis-cli -p "$port" BF.RESERVE k 0.01 1000000 >/dev/null
  # warm-up, then the two measurements
  redis-benchmark -p "$port" -n 50000 -P 16 -r 1000000 -q BF.ADD k __rand_int__ >/dev/null
  local p16 p1
  p16="$(redis-benchmark -p "$port" -n "$n" -c 8 -P 16 -r 1000000 -q BF.ADD k __rand_int__ | tr '\r' '\n' |
    grep -o '[0-9.]* requests per second' | tail -1 | cut -d' ' -f1)"
  p1="$(redis-benchmark -p "$port" -n "$((n / 4))" -c 8 -P 1 -r 1000000 -q BF.ADD k __rand_int__ | tr '\r' '\n' |
    grep -o '[0-9.]* requests per second' | tail -1 | cut -d' ' -f1)"
  kill -TERM "$pid"; wait "$pid" || true; pid=""
  printf '%-22s P16 %10s rps   P1 %10s rps\n' "$name" "$p16" "$p1"
}
echo "bench/metrics-overhead.sh $base $rounds $n"
for r in $(seq 1 "$rounds"); do
  echo "round $r: $(uptime)"
  run baseline "$base"
  run commandstats "$jar"
  run commandstats+metrics "$jar" --metrics-port 0
done
