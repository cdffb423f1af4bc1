#!/usr/bin/env bash
# Issue 31's restart target, one command: bench/restart-vs-aof.sh
# How long a big filter takes to serve again after `kill -9`: ddf serve (its default --fsync everysec, change log on)
# against redis-server + RedisBloom with `appendonly yes`, `appendfsync everysec` (the same promise), each fed the
# same adds, killed with SIGKILL and started again on its data directory; timed from the new process's start to the
# first reply that answers from the restored filter (`BF.EXISTS k` of an id added before the kill; Redis answers
# -LOADING until its AOF is loaded). Per round, alternated ddf / Redis:
#   BF.RESERVE k 0.01 CAPACITY (RedisBloom: NONSCALING, as the 10^9 rows of fsync-vs-redis.sh), ADDS random adds
#   (redis-benchmark -P 16 -r 2*CAPACITY BF.ADD k __rand_int__), then BF.MADD of CHECK known ids, 1.5 s for the
#   once-a-second syncs, kill -9, start again, time to the first answer, and then every known id checked
#   (BF.MEXISTS: all must answer 1; a miss is reported and fails the run).
# Environment: ROUNDS (3), CAPACITY (1000000000), ADDS (10000000), CHECK (1000), REDISBLOOM
# (/work/shared/redisbloom/redisbloom-2.4.23.so; required), DDF_JAR (default: ingest/target/ddf.jar, built when
# stale), DDF_OPTS (more `serve` options), DDF_PORT (7600), REDIS_PORT (6600), WORK (a directory on the disk;
# default a new one under target/), OUT (the result file; default bench/results/changelog/restart-DATE-TIME.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
capacity="${CAPACITY:-1000000000}"
adds="${ADDS:-10000000}"
check="${CHECK:-1000}"
ddf_port="${DDF_PORT:-7600}"
redis_port="${REDIS_PORT:-6600}"
module="${REDISBLOOM:-/work/shared/redisbloom/redisbloom-2.4.23.so}"
[ -f "$module" ] || { echo "RedisBloom module not found: $module (set REDISBLOOM)" >&2; exit 1; }
stamp="$(date -u +%F-%H%M)"
out="${OUT:-$root/bench/results/changelog/restart-$stamp.md}"
mkdir -p "$root/target" "$(dirname "$out")"
work="${WORK:-$(mktemp -d "$root/target/restart-bench.XXXXXX")}"
pid=""
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# shellcheck source=scripts/servers.sh
source "$root/bench/scripts/servers.sh" # wait_port, median, ddf_jar
jar="$(ddf_jar)"

ids() { for i in $(seq 1 "$check"); do printf ' check:%d' "$i"; done; }
now_ms() { date +%s%3N; }

start_ddf() { # DIR LOG
  # shellcheck disable=SC2086
  java -jar "$jar" serve --port "$ddf_port" --data-dir "$1" ${DDF_OPTS:-} >> "$2" 2>&1 &
  pid=$!
}
start_redis() { # DIR LOG
  redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$1" --save '' --appendonly yes --appendfsync everysec \
    --loadmodule "$module" --daemonize no >> "$2" 2>&1 &
  pid=$!
}

# until BF.EXISTS k check:1 answers 1 (anything else: not serving yet), at most 600 s; prints ms since $1.
until_served() { # START_MS PORT
  local deadline=$(( $(now_ms) + 600000 ))
  while [ "$(now_ms)" -lt "$deadline" ]; do
    if [ "$(redis-cli -p "$2" BF.EXISTS k check:1 2>/dev/null)" = "1" ]; then echo $(( $(now_ms) - $1 )); return 0; fi
    sleep 0.01
  done
  echo "no answer from port $2 within 600 s" >&2; return 1
}

one() { # NAME PORT START-FN
  local name="$1" port="$2" start="$3" dir="$work/$1" log="$work/$1.log"
  rm -rf "$dir"; mkdir -p "$dir"; : > "$log"
  "$start" "$dir" "$log"; wait_port "$port"
  local reserve=(BF.RESERVE k 0.01 "$capacity")
  [ "$name" = redis ] && reserve+=(NONSCALING)
  redis-cli -p "$port" "${reserve[@]}" >/dev/null
  redis-benchmark -p "$port" -n "$adds" -P 16 -r $((2 * capacity)) -q BF.ADD k __rand_int__ >/dev/null
  # shellcheck disable=SC2046
  redis-cli -p "$port" BF.MADD k $(ids) >/dev/null
  sleep 1.5
  local bytes; bytes=$(du -sb "$dir" | cut -f1)
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  local t0; t0=$(now_ms)
  "$start" "$dir" "$log"
  local ms; ms=$(until_served "$t0" "$port")
  # shellcheck disable=SC2046
  local present; present=$(redis-cli -p "$port" BF.MEXISTS k $(ids) | grep -c '^1$' || true)
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  echo "$name $ms $present $bytes"
  [ "$present" = "$check" ] || { echo "$name: $present of $check known ids after the restart" >&2; tail -20 "$log" >&2; exit 1; }
  grep -iE "replay|same.boot|sealed|loading|AOF" "$log" | tail -4 | sed "s/^/    $name log: /" >&2 || true
}

{
  echo "# Restart after kill -9: ddf serve against redis-server + RedisBloom loading its AOF ($stamp UTC)"
  echo
  echo "\`ROUNDS=$rounds CAPACITY=$capacity ADDS=$adds CHECK=$check DDF_OPTS='${DDF_OPTS:-}' bench/restart-vs-aof.sh\`;"
  echo "ddf: $(basename "$jar"), \`serve\` defaults (--fsync everysec); Redis: $(redis-server --version | cut -d' ' -f3)"
  echo "+ $(basename "$module"), appendonly yes, appendfsync everysec, NONSCALING. Load at start: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| round | server | ms from start to the first answer | known ids present | data dir bytes at the kill |"
  echo "| --- | --- | --- | --- | --- |"
} > "$out"
ddf_ms=(); redis_ms=()
for r in $(seq 1 "$rounds"); do
  for s in ddf redis; do
    if [ "$s" = ddf ]; then line=$(one ddf "$ddf_port" start_ddf); else line=$(one redis "$redis_port" start_redis); fi
    read -r name ms present bytes <<< "$line"
    echo "| $r | $name | $ms | $present / $check | $bytes |" >> "$out"
    if [ "$s" = ddf ]; then ddf_ms+=("$ms"); else redis_ms+=("$ms"); fi
    echo "round $r $line" >&2
  done
done
dm=$(printf '%s\n' "${ddf_ms[@]}" | median); rm_=$(printf '%s\n' "${redis_ms[@]}" | median)
{
  echo
  echo "Medians: ddf $dm ms, Redis $rm_ ms: ddf takes $(echo "scale=3; $dm / $rm_" | bc)x Redis's time. Load at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
} >> "$out"
cat "$out"
