#!/usr/bin/env bash
# Issue 24's price of each sync policy, one command: bench/fsync-vs-redis.sh
# Starts `ddf serve --fsync always|everysec|no` (ports 7500-7502) and, when RedisBloom is there, redis-server with
# RedisBloom and `appendonly yes` with `appendfsync always` (6500) and `everysec` (6501), every data directory on
# this machine's disk (not tmpfs), then runs ROUNDS rounds, alternated (each round runs every server once per
# mode), of redis-benchmark BF.ADD k __rand_int__:
#   pipelined:   -n N -P 16 -r 100000000 (redis-benchmark's 50 clients)
#   unpipelined: -n M -c 50 -r 100000000
# and writes bench/results/fsync/DATE-TIME.md: each round's req/s, the medians of req/s, p50 and p99 (--csv).
# Environment: ROUNDS (3), N (200000), M (50000), REDISBLOOM (/work/shared/redisbloom/redisbloom-2.4.23.so; the
# redis rows are skipped, saying so, when it is absent), WORK (a directory on the disk to measure; default a new one
# under the repository's target/), DDF_JAR (a built ddf.jar; default: build ingest/target/ddf.jar when stale).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
n="${N:-200000}"
m="${M:-50000}"
module="${REDISBLOOM:-/work/shared/redisbloom/redisbloom-2.4.23.so}"
stamp="$(date -u +%F-%H%M)"
out="$root/bench/results/fsync/$stamp.md"
if [ -n "${DDF_JAR:-}" ]; then
  jar="$DDF_JAR"
else
  "$root/bin/ddf" --version >/dev/null # builds the jar when stale
  jar="$root/ingest/target/ddf.jar"
fi
mkdir -p "$root/target"
work="${WORK:-$(mktemp -d "$root/target/fsync-bench.XXXXXX")}"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# shellcheck source=scripts/servers.sh
source "$root/bench/scripts/servers.sh" # wait_port, median

names=(); ports=()
port=7500
for policy in always everysec no; do
  java -jar "$jar" serve --port "$port" --data-dir "$work/ddf-$policy" --fsync "$policy" > "$work/ddf-$policy.log" 2>&1 &
  pids+=($!)
  wait_port "$port"
  names+=("ddf serve --fsync $policy"); ports+=("$port")
  port=$((port + 1))
done
skipped=""
if [ -f "$module" ]; then
  port=6500
  for policy in always everysec; do
    mkdir -p "$work/redis-$policy"
    redis-server --port "$port" --bind 127.0.0.1 --dir "$work/redis-$policy" --save '' --appendonly yes \
      --appendfsync "$policy" --loadmodule "$module" --daemonize no > "$work/redis-$policy.log" 2>&1 &
    pids+=($!)
    wait_port "$port"
    names+=("redis-server + RedisBloom, appendonly yes, appendfsync $policy"); ports+=("$port")
    port=$((port + 1))
  done
else
  skipped="RedisBloom not found at $module (set REDISBLOOM): the redis rows are skipped."
  echo "$skipped" >&2
fi

bench() { # mode index round
  local mode="$1" k="$2" r="$3" args
  if [ "$mode" = pipelined ]; then args=(-n "$n" -P 16); else args=(-n "$m" -c 50); fi
  redis-benchmark -p "${ports[$k]}" "${args[@]}" -r 100000000 --csv BF.ADD k __rand_int__ 2>/dev/null | tail -1 |
    awk -F, -v mode="$mode" -v k="$k" -v r="$r" '{ gsub(/"/, ""); print mode, k, r, $2, $5, $7 }' >> "$work/rows"
}
for k in "${!ports[@]}"; do # warm-up (JIT, the filter's creation), not recorded
  redis-benchmark -p "${ports[$k]}" -n 20000 -P 16 -r 100000000 -q BF.ADD k __rand_int__ > /dev/null 2>&1
done
load_before="$(uptime)"
for r in $(seq 1 "$rounds"); do
  for mode in pipelined unpipelined; do
    for k in "${!ports[@]}"; do bench "$mode" "$k" "$r"; done
  done
done
load_after="$(uptime)"

mkdir -p "$(dirname "$out")"
{
  echo "# BF.ADD under each sync policy, ddf against redis-server with RedisBloom and an append-only file, $stamp UTC"
  echo
  echo "\`bench/fsync-vs-redis.sh\` (ROUNDS=$rounds N=$n M=$m), $(nproc) cores, $(redis-server --version | awk '{print $3}'),"
  echo "data on $(df -T "$work" | awk 'NR == 2 { print $2 " (" $1 ")" }'). Rounds alternated: each round runs every server once per mode."
  [ -n "$skipped" ] && { echo; echo "$skipped"; }
  echo
  echo "- uptime before: \`$load_before\`"
  echo "- uptime after: \`$load_after\`"
  echo
  for mode in pipelined unpipelined; do
    if [ "$mode" = pipelined ]; then echo "## Pipelined: -n $n -P 16 -r 100000000"; else echo "## Unpipelined: -n $m -c 50 -r 100000000"; fi
    echo
    echo "| server | req/s per round | median req/s | median p50 ms | median p99 ms |"
    echo "| --- | --- | --- | --- | --- |"
    for k in "${!ports[@]}"; do
      per="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { printf "%s%.0f", sep, $4; sep = ", " }' "$work/rows")"
      rps="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $4 }' "$work/rows" | median)"
      p50="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $5 }' "$work/rows" | median)"
      p99="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $6 }' "$work/rows" | median)"
      printf '| %s | %s | %.0f | %s | %s |\n' "${names[$k]}" "$per" "$rps" "$p50" "$p99"
    done
    echo
  done
  echo "INFO persistence of ddf --fsync always after the run:"
  echo
  echo '```'
  redis-cli -p 7500 INFO persistence | tr -d '\r' | grep -E 'fsync|commits|cycles'
  echo '```'
} > "$out"
cat "$out"
echo "wrote $out" >&2
