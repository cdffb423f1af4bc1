#!/usr/bin/env bash
# Issue 24's price of each sync policy, one command: bench/fsync-vs-redis.sh
# Starts `ddf serve --fsync always|everysec|no` (ports DDF_PORT.., default 7500-7502) and, when RedisBloom is
# there, redis-server with RedisBloom and `appendonly yes` with `appendfsync always`, `everysec` and `no` (ports
# REDIS_PORT.., default 6500-6502), every data directory on this machine's disk (not tmpfs), then runs ROUNDS
# rounds, alternated (each round runs every server once per mode), of redis-benchmark BF.ADD k __rand_int__:
#   pipelined:   -n N -P 16 -r RANGE (redis-benchmark's 50 clients)
#   unpipelined: -n M -c 50 -r RANGE
# With CAPACITY set, k is first reserved on every server (BF.RESERVE k 0.01 CAPACITY, RedisBloom NONSCALING) and
# warmed with WARM adds (-P 16; default 2 x CAPACITY / 1000, so that most of its pages are resident), RANGE
# defaulting to 2 x CAPACITY: a big filter whose random adds dirty most of its pages within a second. Without it,
# k is BF.ADD's default filter and RANGE 100000000. Each row also has the server's CPU µs per request.
# and writes bench/results/fsync/DATE-TIME.md: each round's req/s, the medians of req/s, p50 and p99 (--csv).
# Environment: ROUNDS (3), N (200000), M (50000), REDISBLOOM (/work/shared/redisbloom/redisbloom-2.4.23.so; the
# redis rows are skipped, saying so, when it is absent), DDF_PORT (7500), REDIS_PORT (6500), CAPACITY, RANGE, WARM,
# WARM_C (the unpipelined warm-up, -c 50, after WARM: 10000),
# DDF_RESERVE_OPTIONS (appended to ddf's BF.RESERVE, e.g. NONSCALING; default none: ddf's default, a scaling chain),
# DDF_POLICIES and REDIS_POLICIES (each "always everysec no": the servers to start; REDIS_POLICIES may also name
# none: a redis-server with no persistence at all), WORK (a directory on the disk to measure; default a new one
# under the repository's target/), DDF_JAR (a built ddf.jar; default: build ingest/target/ddf.jar when stale),
# BEFORE_JAR (another ddf.jar, e.g. main's before a change: its servers run alongside, one per policy of
# BEFORE_POLICIES, default DDF_POLICIES, ports after the others), DDF_VARIANTS (more ddf servers, one per policy of
# DDF_POLICIES and variant: space-separated option lists with commas for spaces, e.g. "--live-dir,none"), ISOLATE
# (1: every other server stopped while one runs, scripts/rounds.sh; needed beside a busy-spin server), CLIENT_THREADS
# (redis-benchmark --threads in the rows, every server alike; default 1), OUT (the
# result file). Each row also has the bytes the
# server wrote to storage per second while it ran (/proc/PID/io write_bytes: pages it dirtied, log and tables alike).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
n="${N:-200000}"
m="${M:-50000}"
capacity="${CAPACITY:-}"
if [ -n "$capacity" ]; then range="${RANGE:-$((2 * capacity))}"; warm="${WARM:-$((2 * capacity / 1000))}"
else range="${RANGE:-100000000}"; warm="${WARM:-20000}"; fi
warm_unpipelined="${WARM_C:-10000}"
# CLIENT_THREADS: redis-benchmark --threads (default 1: its single thread). Against bench/client-ceiling.sh's null
# server one thread tops out at ~780,000 BF.ADD/s -P 16 here (1.3 µs of client CPU a request): a server faster than
# that is measured by a second thread only
threads=(); if [ "${CLIENT_THREADS:-1}" != 1 ]; then threads=(--threads "$CLIENT_THREADS"); fi
ddf_port="${DDF_PORT:-7500}"
redis_port="${REDIS_PORT:-6500}"
module="${REDISBLOOM:-/work/shared/redisbloom/redisbloom-2.4.23.so}"
stamp="$(date -u +%F-%H%M)"
out="${OUT:-$root/bench/results/fsync/$stamp.md}"
mkdir -p "$root/target"
work="${WORK:-$(mktemp -d "$root/target/fsync-bench.XXXXXX")}"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# shellcheck source=scripts/servers.sh
source "$root/bench/scripts/servers.sh" # wait_port, median, ddf_jar
jar="$(ddf_jar)"
# shellcheck source=scripts/rounds.sh
source "$root/bench/scripts/rounds.sh" # run_rounds

names=(); ports=(); procs=()
port="$ddf_port"
for policy in ${DDF_POLICIES:-always everysec no}; do
  java -jar "$jar" serve --port "$port" --data-dir "$work/ddf-$policy" --fsync "$policy" > "$work/ddf-$policy.log" 2>&1 &
  pids+=($!); procs+=($!)
  wait_port "$port"
  names+=("ddf serve --fsync $policy"); ports+=("$port")
  port=$((port + 1))
done
for variant in ${DDF_VARIANTS:-}; do
  read -r -a opts <<< "${variant//,/ }"
  for policy in ${DDF_POLICIES:-always everysec no}; do
    java -jar "$jar" serve --port "$port" --data-dir "$work/ddf-$policy-$port" --fsync "$policy" "${opts[@]}" > "$work/ddf-$policy-$port.log" 2>&1 &
    pids+=($!); procs+=($!)
    wait_port "$port"
    names+=("ddf serve --fsync $policy ${opts[*]}"); ports+=("$port")
    port=$((port + 1))
  done
done
if [ -n "${BEFORE_JAR:-}" ]; then
  for policy in ${BEFORE_POLICIES:-${DDF_POLICIES:-always everysec no}}; do
    java -jar "$BEFORE_JAR" serve --port "$port" --data-dir "$work/before-$policy" --fsync "$policy" > "$work/before-$policy.log" 2>&1 &
    pids+=($!); procs+=($!)
    wait_port "$port"
    names+=("ddf before ($(basename "$BEFORE_JAR")) --fsync $policy"); ports+=("$port")
    port=$((port + 1))
  done
fi
skipped=""
if [ -f "$module" ]; then
  port="$redis_port"
  for policy in ${REDIS_POLICIES:-always everysec no}; do
    mkdir -p "$work/redis-$policy"
    if [ "$policy" = none ]; then # no persistence at all: what ddf --fsync no is held against
      persistence=(--appendonly no); name="redis-server + RedisBloom, no persistence (appendonly no, save '')"
    else
      persistence=(--appendonly yes --appendfsync "$policy")
      name="redis-server + RedisBloom, appendonly yes, appendfsync $policy"
    fi
    redis-server --port "$port" --bind 127.0.0.1 --dir "$work/redis-$policy" --save '' "${persistence[@]}" \
      --loadmodule "$module" --daemonize no > "$work/redis-$policy.log" 2>&1 &
    pids+=($!); procs+=($!)
    wait_port "$port"
    names+=("$name"); ports+=("$port")
    port=$((port + 1))
  done
else
  skipped="RedisBloom not found at $module (set REDISBLOOM): the redis rows are skipped."
  echo "$skipped" >&2
fi

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # utime + stime, clock ticks
written() { awk '$1 == "write_bytes:" { print $2 }' "/proc/$1/io"; } # bytes it caused to be written to storage
bench() { # mode index round
  local mode="$1" k="$2" r="$3" args c0 c1 w0 w1 t0 t1 timed
  if [ "$mode" = pipelined ]; then args=(-n "$n" -P 16 "${threads[@]}"); else args=(-n "$m" -c 50 "${threads[@]}"); fi
  c0="$(cpu_ticks "${procs[$k]}")"; w0="$(written "${procs[$k]}")"; t0="$(date +%s.%N)"
  # the client's own CPU (GNU time, where it is there): the two cores bound req/s near 2 / (client + server CPU)
  if [ -x /usr/bin/time ]; then timed=(/usr/bin/time -f "%U %S" -o "$work/client-cpu"); else timed=(); echo "0 0" > "$work/client-cpu"; fi
  "${timed[@]}" redis-benchmark -p "${ports[$k]}" "${args[@]}" -r "$range" --csv BF.ADD k __rand_int__ 2>/dev/null | tail -1 |
    awk -F, -v mode="$mode" -v k="$k" -v r="$r" '{ gsub(/"/, ""); printf "%s %s %s %s %s %s", mode, k, r, $2, $5, $7 }' \
    >> "$work/rows"
  c1="$(cpu_ticks "${procs[$k]}")"; w1="$(written "${procs[$k]}")"; t1="$(date +%s.%N)"
  echo " $((c1 - c0)) ${args[1]} $(awk -v w="$((w1 - w0))" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", w / (b - a) }') $(awk '{ print $1 + $2 }' "$work/client-cpu")" >> "$work/rows"
}
warm() { # the filter's creation and pages, the JIT; not recorded
  local k="$1"
  if [ -n "$capacity" ]; then
    if [[ "${names[$k]}" == redis* ]]; then redis-cli -p "${ports[$k]}" BF.RESERVE k 0.01 "$capacity" NONSCALING > /dev/null
    else redis-cli -p "${ports[$k]}" BF.RESERVE k 0.01 "$capacity" ${DDF_RESERVE_OPTIONS:-} > /dev/null; fi
  fi
  redis-benchmark -p "${ports[$k]}" -n "$warm" -P 16 -r "$range" -q BF.ADD k __rand_int__ > /dev/null 2>&1
  # one command per round trip runs other code (a reply per event-loop pass, a group commit per few replies): a JVM
  # compiles it only once it runs (profiled, ddf --fsync always -c 50 after a -P 16 warm-up only: 46 % of the
  # process's CPU samples in the JIT's compiler threads), so it is warmed too, on every server alike
  redis-benchmark -p "${ports[$k]}" -n "$warm_unpipelined" -c 50 -r "$range" -q BF.ADD k __rand_int__ > /dev/null 2>&1
}
started="$(date +%s.%N)"
written_at_start=(); written_at_end=()
for k in "${!procs[@]}"; do written_at_start[k]="$(written "${procs[$k]}")"; done
run_rounds
ended="$(date +%s.%N)"
for k in "${!procs[@]}"; do written_at_end[k]="$(written "${procs[$k]}")"; done

mkdir -p "$(dirname "$out")"
{
  echo "# BF.ADD under each sync policy, ddf against redis-server with RedisBloom and an append-only file, $stamp UTC"
  echo
  echo "\`bench/fsync-vs-redis.sh\` (ROUNDS=$rounds N=$n M=$m CAPACITY=${capacity:-unset} RANGE=$range WARM=$warm WARM_C=$warm_unpipelined DDF_RESERVE_OPTIONS=${DDF_RESERVE_OPTIONS:-none} CLIENT_THREADS=${CLIENT_THREADS:-1}), $(nproc) cores, $(redis-server --version | awk '{print $3}'),"
  echo "data on $(df -T "$work" | awk 'NR == 2 { print $2 " (" $1 ")" }'). Rounds alternated: each round runs every server once per mode$([ "${ISOLATE:-0}" = 1 ] && echo ', the others stopped (ISOLATE=1)')."
  [ -n "$skipped" ] && { echo; echo "$skipped"; }
  echo
  echo "- uptime before: \`$load_before\`"
  echo "- uptime after: \`$load_after\`"
  echo
  for mode in pipelined unpipelined; do
    if [ "$mode" = pipelined ]; then echo "## Pipelined: -n $n -P 16 -r $range"; else echo "## Unpipelined: -n $m -c 50 -r $range"; fi
    echo
    echo "| server | req/s per round | median req/s | median p50 ms | median p99 ms | median CPU µs/req | median MB/s written | median client CPU µs/req |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    for k in "${!ports[@]}"; do
      per="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { printf "%s%.0f", sep, $4; sep = ", " }' "$work/rows")"
      rps="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $4 }' "$work/rows" | median)"
      p50="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $5 }' "$work/rows" | median)"
      p99="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $6 }' "$work/rows" | median)"
      cpu="$(awk -v mode="$mode" -v k="$k" -v hz="$(getconf CLK_TCK)" '$1 == mode && $2 == k { print $7 * 1e6 / hz / $8 }' "$work/rows" | median)"
      wps="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $9 / 1e6 }' "$work/rows" | median)"
      client="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $10 * 1e6 / $8 }' "$work/rows" | median)"
      printf '| %s | %s | %.0f | %s | %s | %.1f | %.1f | %.1f |\n' "${names[$k]}" "$per" "$rps" "$p50" "$p99" "$cpu" "$wps" "$client"
    done
    echo
  done
  echo "## Bytes written over the whole run"
  echo
  echo "From the first warm-up's start to the last round's end ($(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.0f", b - a }') s),"
  echo "each server's /proc/PID/io write_bytes: its warm-up and rows, the other servers' rows (its idle time) and its"
  echo "background work (the change log's forces, checkpoints every --checkpoint-seconds, the kernel's writeback)."
  echo
  echo "| server | MB written | MB/s over the run |"
  echo "| --- | --- | --- |"
  for k in "${!ports[@]}"; do
    awk -v name="${names[$k]}" -v w="$((written_at_end[k] - written_at_start[k]))" -v a="$started" -v b="$ended" \
      'BEGIN { printf "| %s | %.0f | %.1f |\n", name, w / 1e6, w / 1e6 / (b - a) }'
  done
  echo
  for k in "${!ports[@]}"; do
    [[ "${names[$k]}" == ddf* ]] || continue
    echo "INFO persistence of ${names[$k]} after the run:"
    echo
    echo '```'
    redis-cli -p "${ports[$k]}" INFO persistence | tr -d '\r' | grep -E 'fsync|commits|background_sync|^aof_|ddf_log|checkpoint|ddf_live'
    echo '```'
    echo
  done
} > "$out"
cat "$out"
echo "wrote $out" >&2
