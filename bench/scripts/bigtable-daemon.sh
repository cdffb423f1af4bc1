#!/usr/bin/env bash
# BF.ADD -P 16 into one 10^9 filter, ddf `--fsync no` against redis-server + RedisBloom without AOF (issue 31, item
# 10), with the kernel's counters of each round beside the rate: what each BF.ADD costs the server in CPU and page
# faults, and what reaches the device.
#   bench/scripts/bigtable-daemon.sh [JAR[,SERVE-OPTION...]...]      (default ingest/target/ddf.jar)
# Environment: FSYNC (ddf's --fsync, default no; Redis stays without AOF), VARIANT (default: BF.RESERVE k 0.01 CAP, ddf's scaling chain and RedisBloom's; nonscaling: both
# NONSCALING), CAP (1000000000), ROUNDS (4), NBIG (2000000 BF.ADDs per round, -r 2000000000), PROFILE (1: ddf's first
# jar runs with async-profiler loaded and its last round is profiled, cpu with kernel frames, into
# $OUT_PROFILE.txt/.collapsed), DATA_DIRS (one parent directory per jar, space-separated, e.g. "/work/x /dev/shm/x":
# where each ddf keeps its data directory, i.e. where its table lives; default the work directory under /tmp), PAUSE
# (seconds between a server's rounds, 0), REDISBLOOM, REDIS_PORT (6395), DDF_PORT (7395 and up), DDF_JAVA_OPTS.
# Rounds alternate the servers; the first round of each server meets its filter's pages untouched (no warm-up on k:
# the daemon-vs-redisbloom.sh big rows do the same). Per round and server: req/s; CPU µs per request (utime+stime of
# the server over the round); minor faults per 1000 requests (/proc/PID/stat); MB the server dirtied
# (/proc/PID/io write_bytes, which Linux charges when a process dirties a page of a file); MB/s written to the device
# by everything (/sys/block/DEV/stat, so other processes count too); the system's THP counters (/proc/vmstat) and
# the server's memory mapped by huge pages (/proc/PID/smaps_rollup: AnonHugePages, ShmemPmdMapped, FilePmdMapped) at
# the round's end. Prints a markdown table.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=bench/scripts/redisbloom-module.sh
source "$root/bench/scripts/redisbloom-module.sh"
[ -f "$module" ] || { echo "skipped: no RedisBloom module at $module"; exit 0; }
variant="${VARIANT:-default}"
cap="${CAP:-1000000000}"
rounds="${ROUNDS:-4}"
nbig="${NBIG:-2000000}"
redis_port="${REDIS_PORT:-6395}"
ddf_port="${DDF_PORT:-7395}"
# shellcheck source=bench/scripts/daemon-common.sh
source "$root/bench/scripts/daemon-common.sh" "$@"
cleanups=()
trap 'cleanup; for d in "${cleanups[@]}"; do rm -rf "$d"; done' EXIT
dev="$(lsblk -no PKNAME "$(df --output=source "$work" | tail -1)" 2>/dev/null || true)"
[ -n "$dev" ] || dev="$(basename "$(df --output=source "$work" | tail -1)")"
opts=""
[ "$variant" = nonscaling ] && opts="NONSCALING"
fsync="${FSYNC:-no}"

redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --loadmodule "$module" > "$work/redis.log" 2>&1 &
pids+=($!)
wait_port "$redis_port"
names=("redis+RedisBloom"); ports=("$redis_port"); procs=("${pids[0]}")
fs_of() { # directory -> its file system's type, and its huge= option where a tmpfs has one
  local target; target="$(df --output=target "$1" | tail -1)"
  awk -v t="$target" '$2 == t { o = $4; h = ""; if (match(o, /huge=[a-z_]+/)) h = " (" substr(o, RSTART, RLENGTH) ")";
    print $3 h; exit }' /proc/mounts
}
lib=""
read -r -a data_dirs <<< "${DATA_DIRS:-}"
i=0
for spec in "${jars[@]}"; do
  IFS=, read -r -a parts <<< "$spec"
  agent=()
  if [ "${PROFILE:-0}" = 1 ] && [ "$i" -eq 0 ]; then
    lib="$("$root/bench/scripts/async-profiler-lib.sh")"
    agent=(-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -agentpath:"$lib")
  fi
  parent="${data_dirs[$i]:-$work}"
  data="$parent/bigtable-data$i-$$"
  mkdir -p "$data"
  cleanups+=("$data")
  # shellcheck disable=SC2086
  java ${DDF_JAVA_OPTS:-} "${agent[@]}" -jar "${parts[0]}" serve --port "$((ddf_port + i))" --fsync "$fsync" \
    --data-dir "$data" "${parts[@]:1}" > "$work/ddf$i.log" 2>&1 &
  pids+=($!); procs+=($!); ports+=("$((ddf_port + i))")
  names+=("ddf $(basename "${parts[0]}")${parts[1]:+ ${parts[*]:1}} on $(fs_of "$data")")
  wait_port "$((ddf_port + i))"
  i=$((i + 1))
done
for k in "${!ports[@]}"; do
  # shellcheck disable=SC2086
  redis-cli -p "${ports[$k]}" BF.RESERVE k 0.01 "$cap" $opts > /dev/null
  # the JIT and the connection path warm on another key, as daemon-vs-redisbloom.sh; k's pages stay untouched
  redis-cli -p "${ports[$k]}" BF.RESERVE w 0.01 1000000 > /dev/null
  redis-benchmark -p "${ports[$k]}" -n 3000000 -P 16 -r 100000000 -q BF.ADD w __rand_int__ > /dev/null 2>&1
done

snap() { # pid -> "minflt ticks write_bytes dev_sectors_written thp_fault_alloc thp_file_mapped pgfault"
  local p="$1"
  echo "$(awk '{ print $10, $14 + $15 }' "/proc/$p/stat") $(awk '/^write_bytes/ { print $2 }' "/proc/$p/io")" \
    "$(awk '{ print $7 }' "/sys/block/$dev/stat")" \
    "$(awk '$1 == "thp_fault_alloc" || $1 == "thp_file_mapped" || $1 == "pgfault" { v[$1] = $2 }
      END { print v["thp_fault_alloc"] + 0, v["thp_file_mapped"] + 0, v["pgfault"] + 0 }' /proc/vmstat)"
}
huge() { awk '/^(AnonHugePages|ShmemPmdMapped|FilePmdMapped):/ { printf "%s %d MB ", $1, $2 / 1024 }' \
  "/proc/$1/smaps_rollup"; }
echo "uptime before: $(uptime)"
echo "| round | server | req/s | CPU µs/req | minor faults /1000 req | MB dirtied | device MB/s (all) | thp_fault_alloc Δ | thp_file_mapped Δ | the server's huge pages at the end |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for r in $(seq 1 "$rounds"); do
  for k in "${!ports[@]}"; do
    profiling=0
    if [ -n "$lib" ] && [ "$k" -eq 1 ] && [ "$r" -eq "$rounds" ]; then
      profiling=1
      jcmd "${procs[$k]}" JVMTI.agent_load "$lib" "\"start,event=cpu,interval=1000000,threads\"" > /dev/null
    fi
    read -r f0 c0 w0 s0 t0 m0 g0 <<< "$(snap "${procs[$k]}")"
    a="$(date +%s.%N)"
    row="$(redis-benchmark -p "${ports[$k]}" --csv -n "$nbig" -P 16 -r 2000000000 BF.ADD k __rand_int__ 2>/dev/null \
      | tail -1)"
    b="$(date +%s.%N)"
    read -r f1 c1 w1 s1 t1 m1 g1 <<< "$(snap "${procs[$k]}")"
    if [ "$profiling" = 1 ]; then
      jcmd "${procs[$k]}" JVMTI.agent_load "$lib" "\"stop,flat=40,traces=20,file=${OUT_PROFILE:-$work/profile}.txt\"" > /dev/null
      jcmd "${procs[$k]}" JVMTI.agent_load "$lib" "\"dump,collapsed,file=${OUT_PROFILE:-$work/profile}.collapsed\"" > /dev/null
    fi
    echo "$row" | awk -F, -v r="$r" -v name="${names[$k]}" -v t="$(echo "$b - $a" | bc -l)" -v df="$((f1 - f0))" \
      -v dc="$((c1 - c0))" -v dw="$((w1 - w0))" -v ds="$((s1 - s0))" -v dt="$((t1 - t0))" -v dm="$((m1 - m0))" \
      -v n="$nbig" -v huge="$(huge "${procs[$k]}")" '{ gsub(/"/, "");
        printf "| %d | %s | %.0f | %.2f | %.1f | %.0f | %.0f | %d | %d | %s|\n", r, name, $2, dc * 10000 / n,
          df * 1000 / n, dw / 1048576, ds * 512 / 1048576 / t, dt, dm, huge }'
    sleep "${PAUSE:-0}"
  done
done
echo "uptime after: $(uptime)"
for k in "${!ports[@]}"; do echo "${names[$k]}: BF.INFO k size $(redis-cli -p "${ports[$k]}" BF.INFO k SIZE | tail -1) B"; done
