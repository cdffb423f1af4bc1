#!/usr/bin/env bash
# Before/after of a change on the request path: BF.ADD on a key of the default kind (a missing key's: the filter that
# grows) against two jars running side by side, alternated rounds, each row with the daemon's CPU time per request
# (utime + stime from /proc over the run / requests), which does not depend on how much of the machine
# redis-benchmark and the other processes took.
#
#   bench/scripts/bf-add-ab.sh BEFORE_JAR AFTER_JAR [OUT]
#
# Per jar: one daemon on its defaults in a temporary data directory, warmed with WARMUP (2000000) BF.ADDs; then ROUNDS
# (5) rounds, each running on every jar in turn: pipelined (BF.ADD k __rand_int__ -P 16 -c 20 -n N, N 1000000) and
# unpipelined (-c 50 -n M, M 200000). PORT (17400): the first daemon's port, the second takes the next. Writes OUT
# (bench/results/daemon/bf-add-ab-DATE-TIME.md): every run and the medians, with uptime before and after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jars=("$1" "$2")
out="${3:-$root/bench/results/daemon/bf-add-ab-$(date -u +%Y-%m-%d-%H%M).md}"
rounds="${ROUNDS:-5}"; n="${N:-1000000}"; m="${M:-200000}"; warmup="${WARMUP:-2000000}"
tmp="$(mktemp -d /tmp/ddf-bfaddab.XXXXXX)"
pids=(); ports=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
for i in 0 1; do
  port=$((${PORT:-17400} + i))
  java -jar "${jars[$i]}" serve --port "$port" --data-dir "$tmp/data$i" > "$tmp/log$i" 2>&1 &
  pids+=($!); ports+=("$port")
  for _ in $(seq 1 60); do grep -q serving "$tmp/log$i" && break; sleep 1; done
  grep -q serving "$tmp/log$i" || { echo "the daemon of ${jars[$i]} did not start:"; cat "$tmp/log$i"; exit 1; }
done
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# one run: prints "req/s cpu_us_per_req"
run() {
  local i=$1 requests=$2; shift 2
  local t0 t1 rps
  t0=$(cpu "${pids[$i]}")
  rps=$(redis-benchmark -p "${ports[$i]}" -n "$requests" -r 100000000 -q "$@" BF.ADD k __rand_int__ 2>&1 |
    tr '\r' '\n' | grep "requests per second" | tail -1 | sed -E 's/.*: ([0-9.]+) requests per second.*/\1/')
  t1=$(cpu "${pids[$i]}")
  echo "$rps $(echo "scale=3; ($t1 - $t0) * 1000000 / $hz / $requests" | bc)"
}
for i in 0 1; do redis-benchmark -p "${ports[$i]}" -n "$warmup" -P 16 -c 20 -r 100000000 -q BF.ADD k __rand_int__ > /dev/null 2>&1; done
load_before="$(uptime)"
: > "$tmp/runs"
for r in $(seq 1 "$rounds"); do
  for i in 0 1; do echo "pipelined $i $r $(run "$i" "$n" -P 16 -c 20)" >> "$tmp/runs"; done
  for i in 0 1; do echo "unpipelined $i $r $(run "$i" "$m" -c 50)" >> "$tmp/runs"; done
done
load_after="$(uptime)"
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.10g\n", v[(NR + 1) / 2]; else printf "%.10g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
{
  echo "# BF.ADD before/after, $(date -u +%FT%TZ)"
  echo
  echo "\`bench/scripts/bf-add-ab.sh ${jars[0]} ${jars[1]}\` (ROUNDS=$rounds N=$n M=$m WARMUP=$warmup), at $(git -C "$root" rev-parse --short HEAD)."
  echo "Load before: \`$load_before\`; after: \`$load_after\`."
  echo
  echo "| workload | jar | median req/s | median CPU µs/req | runs (req/s / CPU µs) |"
  echo "|---|---|---|---|---|"
  for mode in pipelined unpipelined; do
    for i in 0 1; do
      rows=$(awk -v m="$mode" -v i="$i" '$1 == m && $2 == i' "$tmp/runs")
      echo "| $mode | $(basename "${jars[$i]}") | $(echo "$rows" | awk '{ print $4 }' | median) | $(echo "$rows" | awk '{ print $5 }' | median) | $(echo "$rows" | awk '{ printf "%s%s / %s", (NR > 1 ? ", " : ""), $4, $5 }') |"
    done
  done
} > "$out"
cat "$out"
